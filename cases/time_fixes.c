// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for time-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* How long a timer that must not fire is watched, in milliseconds. */
#define QUIET_MS 300

/*
 * Arm a CLOCK_BOOTTIME timerfd at the absolute time @sec.@nsec and watch it
 * for @ms: 1 when it fired, 0 when not, or the value of child_fail().
 */
static int abs_timer_fires(time_t sec, long nsec, int ms)
{
	struct itimerspec its = { .it_value = { .tv_sec = sec, .tv_nsec = nsec } };
	struct pollfd p;
	int fd, n;

	fd = timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC);
	if (fd < 0)
		return -child_fail("timerfd_create: %m");
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		close(fd);
		return -child_fail("timerfd_settime at %lld.%09ld: %m", (long long)sec, nsec);
	}
	p.fd = fd;
	p.events = POLLIN;
	n = poll(&p, 1, ms);
	close(fd);
	if (n < 0)
		return -child_fail("poll on the timerfd: %m");
	return n > 0;
}

/* Both timers in the calling process's time namespace: 0 or child_fail(). */
static int deadlines_here(const char *where)
{
	struct timespec now;
	int r;

	/* The input the fix leaves alone: a deadline 50 ms ahead fires. */
	if (clock_gettime(CLOCK_BOOTTIME, &now))
		return child_fail("clock_gettime: %m");
	now.tv_nsec += 50 * 1000 * 1000;
	if (now.tv_nsec >= 1000000000L) {
		now.tv_sec++;
		now.tv_nsec -= 1000000000L;
	}
	r = abs_timer_fires(now.tv_sec, now.tv_nsec, 5000);
	if (r < 0)
		return -r;
	if (!r)
		return child_fail("%s: a deadline 50 ms ahead did not fire within 5 s", where);
	/*
	 * The input the fix is about: the largest deadline never comes.  The
	 * largest time_t: a 32-bit one (the compat pass) reaches only 2038.
	 */
	r = abs_timer_fires((time_t)~(1ULL << (sizeof(time_t) * 8 - 1)), 0, QUIET_MS);
	if (r < 0)
		return -r;
	if (r)
		return child_fail("%s: an absolute deadline at the end of time fired at once",
				  where);
	return 0;
}

static int timens_worker(void *arg)
{
	pid_t pid;
	int err, rc;

	(void)arg;
	err = deadlines_here("outside the time namespace");
	if (err)
		return err;
	err = ns_unshare_admin(CLONE_NEWTIME);
	if (err) {
		errno = -err;
		return child_fail("unshare(CLONE_NEWTIME): %m");
	}
	/* CLOCK_BOOTTIME one second behind the host's: a negative offset. */
	err = ns_write_proc(0, "timens_offsets", "7 -1 0");
	if (err) {
		errno = -err;
		return child_fail("write timens_offsets \"7 -1 0\": %m");
	}
	pid = fork();
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(deadlines_here("in a time namespace with boottime offset -1 s"));
	rc = ns_wait(pid, NS_WAIT_MS);
	return rc;
}

/*
 * A time namespace's offsets shift what its clocks read, and absolute
 * timers are converted to the host's clock by the same offset
 * (time_namespaces(7); do_timens_ktime_to_host() for timerfd, POSIX timers
 * and clock_nanosleep()): a deadline no clock reaches stays unreached.
 * With a negative CLOCK_BOOTTIME offset the conversion of the largest
 * deadline overflowed into the past and the timer fired at once (fix
 * "time/namespace: Fix overflow when converting absolute deadlines",
 * Debian 6.12.117 and 7.3.4: a result below 0 now means KTIME_MAX).
 * CLOCK_BOOTTIME, because a CLOCK_MONOTONIC timer shares its queue with the
 * tick, which hides the bad expiry.  Both sides: outside the namespace and
 * inside it a deadline 50 ms ahead fires and the largest never does.
 */
TEST(timens_boottime_deadline_at_end_of_time_never_fires)
{
	int rc;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, timens_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
