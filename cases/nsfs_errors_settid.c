// SPDX-License-Identifier: GPL-2.0
/*
 * The limits of clone3()'s set_tid (clone(2) "The set_tid array", ERRORS):
 * no more entries than the child has PID namespace levels, no PID outside
 * 1 .. pid_max - 1, and in a new PID namespace without an init only PID 1.
 * Each refusal is EINVAL; its control is the neighbouring value that passes
 * that check and is refused by the next one (EPERM: the worker is root of a
 * user namespace of its own, which owns no outer PID namespace) or granted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nsconform.h"
#include "pid.h"
#include "kselftest_harness.h"

/* clone3() with @n entries of @tids: 0 when a child was made (it checks it is PID @tids[0]). */
static int try_set_tid(unsigned long flags, const pid_t *tids, size_t n)
{
	struct ns_clone3_args_v1 a = {
		.v0 = { .flags = flags, .exit_signal = SIGCHLD },
		.set_tid = (uintptr_t)tids, .set_tid_size = n,
	};
	pid_t pid = ns_clone3_with(&a, sizeof(a));

	if (pid == 0)
		_exit(getpid() == tids[0] ? 0 : 3);
	if (pid < 0)
		return errno;
	return ns_wait(pid, NS_WAIT_MS) ? -1 : 0;
}

/* NS_CHILD_SKIP when clone3() or its set_tid is missing, else 0. */
static int set_tid_missing(void)
{
	pid_t one = 1;
	int err = try_set_tid(CLONE_NEWPID, &one, 1);

	return err == ENOSYS || err == E2BIG ? NS_CHILD_SKIP : 0;
}

static int want(int got, int err, const char *what)
{
	if (got == err)
		return 0;
	return child_fail("%s: %s, not %s", what, got < 0 ? "the child failed" :
			  got ? strerror(got) : "granted", err ? strerror(err) : "granted");
}

static int size_worker(void *arg)
{
	int level = *(int *)arg, rc;
	pid_t tids[PIDNS_MAX_LEVELS + 2];
	char what[96];

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if ((rc = set_tid_missing()))
		return rc;
	/* the child is at level + 1: level + 2 namespaces; all but the first need PIDs > 1 */
	tids[0] = 1;
	for (int i = 1; i < PIDNS_MAX_LEVELS + 2; i++)
		tids[i] = 2 + i;
	snprintf(what, sizeof(what), "set_tid_size %d, the child's level count", level + 2);
	rc = want(try_set_tid(CLONE_NEWPID, tids, level + 2), EPERM, what);
	if (!rc) {
		snprintf(what, sizeof(what), "set_tid_size %d, one more than its levels",
			 level + 3);
		rc = want(try_set_tid(CLONE_NEWPID, tids, level + 3), EINVAL, what);
	}
	return rc;
}

/*
 * set_tid_size above the number of PID namespaces the child is in fails with EINVAL; that number
 * passes (to EPERM for outer levels) (clone(2) ERRORS).
 */
TEST(clone3_set_tid_size_over_nesting_depth_einval)
{
	const char *why = ns_userns_blocker(false);
	int base = pidns_proc_level(), levels = pidns_self_levels(), level, rc;

	NS_NEED_WHY(why);
	NS_NEED_ENV(base >= 0 && levels >= 1, NS_WHY_PIDNS_LEVEL);
	level = base + levels - 1;
	rc = ns_run(0, size_worker, &level);
	NS_NEED_FEATURE(NS_F_CLONE3_SET_TID, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

static int range_worker(void *arg)
{
	long pid_max;
	pid_t tid, bad[4];
	char what[64];
	int rc;

	(void)arg;
	if (ns_read_long("/proc/sys/kernel/pid_max", &pid_max))
		return child_fail("read pid_max: %m");
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if ((rc = set_tid_missing()))
		return rc;
	/* at our own level: the range is checked before the capability */
	bad[0] = 0;
	bad[1] = -1;
	bad[2] = pid_max;
	bad[3] = INT32_MAX;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(what, sizeof(what), "set_tid { %d } (pid_max %ld)", bad[i], pid_max);
		rc = want(try_set_tid(0, &bad[i], 1), EINVAL, what);
		if (rc)
			return rc;
	}
	tid = pid_max - 1;
	snprintf(what, sizeof(what), "set_tid { %d }, pid_max - 1", tid);
	return want(try_set_tid(0, &tid, 1), EPERM, what);
}

/*
 * A set_tid PID of 0, negative or at least pid_max fails with EINVAL; pid_max - 1 passes that check
 * (clone(2) ERRORS "an invalid PID").
 */
TEST(clone3_set_tid_pid_out_of_range_einval)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	rc = ns_run(0, range_worker, NULL);
	NS_NEED_FEATURE(NS_F_CLONE3_SET_TID, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

static int first_pid_worker(void *arg)
{
	const pid_t two = 2, one = 1;
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if ((rc = set_tid_missing()))
		return rc;
	rc = want(try_set_tid(CLONE_NEWPID, &two, 1), EINVAL,
		  "set_tid { 2 } in a new PID namespace (no init yet)");
	return rc ?: want(try_set_tid(CLONE_NEWPID, &one, 1), 0,
			  "set_tid { 1 } in a new PID namespace");
}

/*
 * In a new PID namespace without an init set_tid may only ask for PID 1: 2 fails with EINVAL, 1 is
 * granted (clone(2) ERRORS "an invalid PID").
 */
TEST(clone3_set_tid_in_new_pidns_must_be_1)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	rc = ns_run(0, first_pid_worker, NULL);
	NS_NEED_FEATURE(NS_F_CLONE3_SET_TID, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
