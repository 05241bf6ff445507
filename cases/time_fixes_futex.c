// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the time-namespace fix of FUTEX_LOCK_PI timeouts
 * that Debian's kernels ship (issue 27, item 2; the row of
 * fixtures/data/fixes.tsv whose test names this binary): the fixed
 * kernel's answer for the input that tells it from the last kernel without
 * the fix, and the same call outside the namespace, which the fix leaves
 * alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* How far ahead the lock attempt's deadline is, in milliseconds. */
#define DEADLINE_MS 300

/* The time namespace's CLOCK_MONOTONIC offset: one day. */
#define OFFSET "1 86400 0"

/*
 * Try to take a PI futex another process holds, with an absolute
 * CLOCK_REALTIME deadline DEADLINE_MS ahead: 0 when it timed out (ETIMEDOUT)
 * no sooner than the deadline, else child_fail().
 */
static int lock_pi_times_out_at_deadline(const char *where)
{
	uint32_t *word = ns_shared_page(sizeof(*word));
	struct timespec deadline;
	long start, took;
	pid_t owner;
	int rc = 0;
	long r;

	if (!word)
		return child_fail("%s: a shared page: %m", where);
	owner = fork();
	if (owner < 0)
		return child_fail("%s: fork: %m", where);
	if (owner == 0) {
		sleep(30);
		_exit(0);
	}
	/* The lock is held by the owner: its TID in the futex word (futex(2)). */
	*word = owner;
	if (clock_gettime(CLOCK_REALTIME, &deadline)) {
		rc = child_fail("%s: clock_gettime(CLOCK_REALTIME): %m", where);
		goto out;
	}
	deadline.tv_nsec += DEADLINE_MS * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	start = ns_now_ms();
	r = syscall(SYS_futex, word, FUTEX_LOCK_PI, 0, &deadline, NULL, 0);
	took = ns_now_ms() - start;
	if (r == 0) {
		rc = child_fail("%s: FUTEX_LOCK_PI took a lock another process holds", where);
	} else if (errno != ETIMEDOUT) {
		rc = child_fail("%s: FUTEX_LOCK_PI: %m, expected ETIMEDOUT", where);
	} else if (took < DEADLINE_MS - 20) {
		/* 20 ms for the two clocks' reads apart */
		rc = child_fail("%s: FUTEX_LOCK_PI timed out after %ld ms, deadline %d ms ahead",
				where, took, DEADLINE_MS);
	}
out:
	kill(owner, SIGKILL);
	if (ns_wait(owner, NS_WAIT_MS) != 128 + SIGKILL && !rc)
		rc = child_fail("%s: the lock owner did not end", where);
	munmap(word, sizeof(*word));
	return rc;
}

static int futex_timens_worker(void *arg)
{
	pid_t pid;
	int err;

	(void)arg;
	err = lock_pi_times_out_at_deadline("outside the time namespace");
	if (err)
		return err;
	err = ns_unshare_admin(CLONE_NEWTIME);
	if (err) {
		errno = -err;
		return child_fail("unshare(CLONE_NEWTIME): %m");
	}
	err = ns_write_proc(0, "timens_offsets", OFFSET);
	if (err) {
		errno = -err;
		return child_fail("write timens_offsets \"%s\": %m", OFFSET);
	}
	pid = fork();
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(lock_pi_times_out_at_deadline("in a time namespace, monotonic offset 1 day"));
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * FUTEX_LOCK_PI's timeout is an absolute CLOCK_REALTIME time (futex(2)),
 * and a time namespace has no CLOCK_REALTIME offset (time_namespaces(7)),
 * so in one the call times out at the same deadline as outside it (fix
 * linux:cdf78db40709 "futex: Do not apply time namespace adjustment on
 * FUTEX_LOCK_PI", Debian 5.10.38: before it the deadline was moved by the
 * namespace's CLOCK_MONOTONIC offset, a day early here, and the call
 * timed out at once).  Both sides: outside the namespace the same call
 * waits for its deadline too.
 */
TEST(lock_pi_deadline_ignores_monotonic_offset)
{
	int rc;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, futex_timens_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
