// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces, part 5: what checkpoint/restore uses to recreate PIDs.
 * clone3() set_tid (chosen PIDs, the basis of the migration the article's
 * part 1 mentions) and /proc/sys/kernel/ns_last_pid.
 * Sources: clone(2), pid_namespaces(7), proc(5).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsconform.h"
#include "pid.h"
#include "kselftest_harness.h"

#define LAST_PID "/proc/sys/kernel/ns_last_pid"

FIXTURE(pidns) {};

FIXTURE_SETUP(pidns)
{
}

FIXTURE_TEARDOWN(pidns)
{
	pidns_kill_tracked();
}

/* fork-like clone3() with @n PIDs in @tids (innermost level first). */
static pid_t clone3_tids(unsigned long flags, const pid_t *tids, size_t n)
{
	struct ns_clone3_args_v1 a = {
		.v0 = { .flags = flags, .exit_signal = SIGCHLD },
		.set_tid = (uintptr_t)tids, .set_tid_size = n,
	};

	return ns_clone3_with(&a, sizeof(a));
}

/* -1 when clone3() takes set_tid, else the feature that is missing. */
static int set_tid_missing(void)
{
	pid_t tids[PIDNS_MAX_LEVELS] = { 0 };
	pid_t pid;

	/* 33 entries is one too many: EINVAL where set_tid exists. */
	pid = clone3_tids(0, tids, PIDNS_MAX_LEVELS);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return -1;
	}
	if (errno == ENOSYS)
		return NS_F_CLONE3;
	if (errno == E2BIG)
		return NS_F_CLONE3_SET_TID;
	return -1;
}

/* What a child created with set_tid says about itself. */
struct tid_rec {
	pid_t self;
	int n;
	pid_t nspid[PIDNS_MAX_LEVELS];
};

static int report_self(struct ns_sync *s)
{
	struct tid_rec r = { .self = getpid() };

	r.n = pidns_nspid(0, r.nspid, PIDNS_MAX_LEVELS);
	return ns_sync_tell(s, true, &r, sizeof(r)) ? 1 : 0;
}

/* Create a child with @tids; check clone3() returned @expect; reap it. */
static int clone_with_tids(struct ns_sync *s, const pid_t *tids, size_t n, pid_t expect)
{
	pid_t pid = clone3_tids(CLONE_NEWPID, tids, n);

	if (pid < 0)
		return child_fail("clone3(set_tid, %zu levels): %m", n);
	if (pid == 0)
		_exit(report_self(s));
	if (pid != expect) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("clone3() returned %d, asked for %d", pid, expect);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int two_level_holder(struct ns_sync *s, void *arg)
{
	const pid_t tids[] = { 1, 300 };

	(void)arg;
	ns_sync_child_side(s);
	return clone_with_tids(s, tids, 2, 300);
}

static int three_level_holder(struct ns_sync *s, void *arg)
{
	const pid_t tids[] = { 1, 400, 500 };
	pid_t k;

	(void)arg;
	ns_sync_child_side(s);
	k = ns_clone(CLONE_NEWPID);
	if (k < 0)
		return child_fail("clone(CLONE_NEWPID): %m");
	if (k == 0)
		_exit(clone_with_tids(s, tids, 3, 400));
	return ns_wait(k, NS_WAIT_MS);
}

/* Run @holder in a new PID namespace; return the set_tid child's record. */
static void run_tids(struct __test_metadata *_metadata, int (*holder)(struct ns_sync *, void *),
		     struct tid_rec *r)
{
	int missing = set_tid_missing();
	struct ns_sync s;
	pid_t pid;

	NS_NEED_FEATURE(missing, missing >= 0);
	pid = pidns_start_synced(&s, 0, holder, NULL);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, r, sizeof(*r), NS_WAIT_MS));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/*
 * clone3() set_tid creates a child with chosen PIDs in a new namespace and its parent's (clone(2),
 * 5.5+).
 */
TEST_F(pidns, clone3_set_tid_chooses_pid_in_new_and_parent_namespace)
{
	struct tid_rec r = { 0 };
	int self_n = pidns_self_levels();

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_GE(self_n, 1);
	run_tids(_metadata, two_level_holder, &r);
	if (!r.n)
		return;
	EXPECT_EQ(1, r.self);
	/* Our /proc: [..., us-level PID, 300, 1] */
	ASSERT_EQ(self_n + 2, r.n);
	EXPECT_EQ(300, r.nspid[r.n - 2]);
	EXPECT_EQ(1, r.nspid[r.n - 1]);
}

/*
 * set_tid chooses the PID at several levels at once: checkpoint/restore of nested namespaces
 * (clone(2)).
 */
TEST_F(pidns, clone3_set_tid_chooses_pids_at_three_levels)
{
	struct tid_rec r = { 0 };
	int self_n = pidns_self_levels();

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_GE(self_n, 1);
	run_tids(_metadata, three_level_holder, &r);
	if (!r.n)
		return;
	EXPECT_EQ(1, r.self);
	ASSERT_EQ(self_n + 3, r.n);
	EXPECT_EQ(500, r.nspid[r.n - 3]);
	EXPECT_EQ(400, r.nspid[r.n - 2]);
	EXPECT_EQ(1, r.nspid[r.n - 1]);
}

/* A PID of our namespace that no process has (for set_tid). */
static pid_t free_pid(void)
{
	char path[32];

	for (pid_t p = 20000; p > 1000; p--) {
		snprintf(path, sizeof(path), "/proc/%d", p);
		if (access(path, F_OK))
			return p;
	}
	return 0;
}

/* Child of ns_clone(CLONE_NEWUSER...): become root of the new user namespace. */
static int map_self_root(uid_t uid, gid_t gid)
{
	int err = ns_map_root(0, uid, gid);

	if (err)
		return child_fail("cannot map root in a new user namespace: %s", strerror(-err));
	return 0;
}

static int write_last_pid(const char *val)
{
	int fd = open(LAST_PID, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int eperm_holder(pid_t outer, uid_t uid, gid_t gid)
{
	const pid_t deny[] = { 1, 300, outer }, allow[] = { 1, 300 };
	pid_t pid;

	if (map_self_root(uid, gid))
		return 1;
	pid = clone3_tids(CLONE_NEWPID, deny, 3);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("set_tid in a namespace of the initial user namespace worked");
	}
	if (errno != EPERM)
		return child_fail("set_tid outside our user namespace: %m, not EPERM");
	/* The same without the level we hold no capability over works. */
	pid = clone3_tids(CLONE_NEWPID, allow, 2);
	if (pid == 0)
		_exit(getpid() == 1 ? 0 : 1);
	if (pid != 300)
		return child_fail("set_tid {1, 300} gave %d: %m", pid);
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * clone3() set_tid needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE in the userns owning each PID ns
 * it names: EPERM (clone(2)).
 *
 * The holder is root of a new user namespace, which owns its new PID
 * namespace but not ours.
 */
TEST_F(pidns, clone3_set_tid_without_cap_in_owning_userns_is_eperm)
{
	int missing = set_tid_missing();
	pid_t pid, outer = free_pid();
	uid_t uid = geteuid();
	gid_t gid = getegid();

	NS_NEED_FEATURE(missing, missing >= 0);
	NS_NEED_USERNS();
	ASSERT_NE(0, outer);
	pid = pidns_track(ns_clone(CLONE_NEWUSER | CLONE_NEWPID));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(eperm_holder(outer, uid, gid));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

static int unprivileged_set_tid(pid_t want)
{
	pid_t pid;

	if (geteuid() == 0 && ns_drop_privileges(ns_nobody_uid(), ns_nobody_gid()))
		return child_fail("cannot drop privileges: %m");
	pid = clone3_tids(0, &want, 1);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("set_tid without any capability gave %d", pid);
	}
	return errno == EPERM ? 0 : child_fail("set_tid unprivileged: %m, not EPERM");
}

/* Without any capability, set_tid is refused with EPERM (clone(2)). */
TEST_F(pidns, clone3_set_tid_unprivileged_is_eperm)
{
	int missing = set_tid_missing();
	pid_t pid, want = free_pid();

	NS_NEED_FEATURE(missing, missing >= 0);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(0, want);
	pid = pidns_track(ns_clone(0));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(unprivileged_set_tid(want));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	/* Nothing got that PID. */
	EXPECT_EQ(0, pidns_proc_state(want));
}

static int eexist_holder(void)
{
	pid_t k, pid, one = 1, two = 2, free_one = 77;

	k = ns_clone(0);
	if (k == 0) {
		poll(NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	if (k != 2)
		return child_fail("first child is %d, not 2", k);
	for (int i = 0; i < 2; i++) {
		pid = clone3_tids(0, i ? &two : &one, 1);
		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			ns_wait(pid, NS_WAIT_MS);
			return child_fail("set_tid of a PID in use gave %d", pid);
		}
		if (errno != EEXIST)
			return child_fail("set_tid of PID %d in use: %m, not EEXIST", i + 1);
	}
	pid = clone3_tids(0, &free_one, 1);
	if (pid == 0)
		_exit(getpid() == 77 ? 0 : 1);
	if (pid != 77)
		return child_fail("set_tid {77} gave %d: %m", pid);
	kill(k, SIGKILL);
	ns_wait(k, NS_WAIT_MS);
	return ns_wait(pid, NS_WAIT_MS);
}

/* set_tid naming a PID in use fails with EEXIST; a free one is granted (clone(2)). */
TEST_F(pidns, clone3_set_tid_of_pid_in_use_is_eexist)
{
	int missing = set_tid_missing();
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED_FEATURE(missing, missing >= 0);
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(eexist_holder());
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

/* --- ns_last_pid ---------------------------------------------------------- */

struct last_rec {
	long first, written, after_fork;
	pid_t forked, child_self;
};

static int last_pid_child(struct ns_sync *s, void *arg)
{
	bool write_it = *(bool *)arg;
	struct last_rec r = { 0 };
	pid_t pid;
	int code;

	ns_sync_child_side(s);
	if (ns_read_long(LAST_PID, &r.first))
		return child_fail("read " LAST_PID ": %m");
	if (write_it) {
		int err = write_last_pid("4241");

		if (err)
			return child_fail("write " LAST_PID ": %s", strerror(-err));
		ns_read_long(LAST_PID, &r.written);
	}
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(getpid() & 0xff);
	r.forked = pid;
	code = ns_wait(pid, NS_WAIT_MS);
	r.child_self = code;
	ns_read_long(LAST_PID, &r.after_fork);
	ns_sync_tell(s, true, &r, sizeof(r));
	return 0;
}

static void run_last_pid(struct __test_metadata *_metadata, bool write_it, struct last_rec *r)
{
	struct ns_sync s;
	pid_t pid;

	pid = pidns_start_synced(&s, 0, last_pid_child, &write_it);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, r, sizeof(*r), NS_WAIT_MS));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/*
 * ns_last_pid is the last PID allocated in the reader's PID ns; writing it sets the next PID there
 * only (pid_namespaces(7), proc(5)).
 *
 * The file is /proc/sys/kernel/ns_last_pid.
 */
TEST_F(pidns, ns_last_pid_is_per_namespace)
{
	struct last_rec a, b;

	NS_NEED(NS_F_NS_LAST_PID);
	NS_NEED_ADMIN_OR_USERNS();
	run_last_pid(_metadata, true, &a);
	/* In A's namespace: only A (1) existed; the write steers the next fork. */
	EXPECT_EQ(1, a.first);
	EXPECT_EQ(4241, a.written);
	EXPECT_EQ(4242, a.forked);
	EXPECT_EQ(4242 & 0xff, a.child_self);
	EXPECT_EQ(4242, a.after_fork);
	/* A sibling namespace created afterwards is untouched by A's write. */
	run_last_pid(_metadata, false, &b);
	EXPECT_EQ(1, b.first);
	EXPECT_EQ(2, b.forked);
	EXPECT_EQ(2, b.child_self);
	EXPECT_EQ(2, b.after_fork);
}

static int last_pid_writer(uid_t uid, gid_t gid)
{
	char cur[32];
	long v;
	pid_t k;
	int err;

	if (map_self_root(uid, gid))
		return 1;
	if (ns_read_long(LAST_PID, &v))
		return child_fail("read: %m");
	/* Rewriting the current value: harmless even if wrongly allowed. */
	snprintf(cur, sizeof(cur), "%ld", v);
	err = write_last_pid(cur);
	if (err != -EPERM)
		return child_fail("write to a namespace we lack CAP_SYS_ADMIN over: %s, not EPERM",
				  err ? strerror(-err) : "allowed");
	/* In a PID namespace our user namespace owns, the same write works. */
	k = ns_clone(CLONE_NEWPID);
	if (k == 0) {
		pid_t c;

		if (write_last_pid("499"))
			_exit(child_fail("write in our own PID namespace: %m"));
		c = ns_clone(0);
		if (c == 0)
			_exit(0);
		ns_wait(c, NS_WAIT_MS);
		_exit(c == 500 ? 0 : child_fail("fork after writing 499 gave %d", c));
	}
	return k < 0 ? child_fail("clone: %m") : ns_wait(k, NS_WAIT_MS);
}

/*
 * Writing ns_last_pid needs CAP_SYS_ADMIN in the user namespace owning the PID namespace
 * (pid_namespaces(7)).
 */
TEST_F(pidns, ns_last_pid_write_needs_cap_in_owning_userns)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	pid_t pid;

	NS_NEED(NS_F_NS_LAST_PID);
	NS_NEED_USERNS();
	pid = pidns_track(ns_clone(CLONE_NEWUSER));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(last_pid_writer(uid, gid));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

/* --- CAP_CHECKPOINT_RESTORE and the search from ns_last_pid ---------------- */

/* In a PID namespace our user namespace owns: keep CAP_CHECKPOINT_RESTORE, drop CAP_SYS_ADMIN. */
static int only_checkpoint_restore(void)
{
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, false))
		return child_fail("cannot drop CAP_SYS_ADMIN: %m");
	if (!ns_cap_effective(CAP_CHECKPOINT_RESTORE))
		return child_fail("CAP_CHECKPOINT_RESTORE is not effective");
	return 0;
}

/* Fork a child that exits at once; its PID (reaped), or -1. */
static pid_t fork_and_reap(void)
{
	pid_t c = ns_clone(0);

	if (c == 0)
		_exit(0);
	if (c > 0)
		ns_wait(c, NS_WAIT_MS);
	return c;
}

static int cr_last_pid(void)
{
	pid_t c;
	int err;

	if (only_checkpoint_restore())
		return 1;
	err = write_last_pid("499");
	if (err)
		return child_fail("write with CAP_CHECKPOINT_RESTORE only: %s", strerror(-err));
	c = fork_and_reap();
	if (c != 500)
		return child_fail("fork after writing 499 gave %d", c);
	if (ns_cap_set(CAP_CHECKPOINT_RESTORE, CAP_EFFECTIVE, false))
		return child_fail("cannot drop CAP_CHECKPOINT_RESTORE: %m");
	err = write_last_pid("599");
	if (err != -EPERM)
		return child_fail("write with neither capability: %s, not EPERM",
				  err ? strerror(-err) : "allowed");
	return 0;
}

static int cr_set_tid(void)
{
	pid_t want = 77, other = 78, pid;

	if (only_checkpoint_restore())
		return 1;
	pid = clone3_tids(0, &want, 1);
	if (pid == 0)
		_exit(getpid() == 77 ? 0 : 1);
	if (pid != 77)
		return child_fail("set_tid {77} with CAP_CHECKPOINT_RESTORE only gave %d: %m", pid);
	if (ns_wait(pid, NS_WAIT_MS))
		return child_fail("the child is not PID 77 inside");
	if (ns_cap_set(CAP_CHECKPOINT_RESTORE, CAP_EFFECTIVE, false))
		return child_fail("cannot drop CAP_CHECKPOINT_RESTORE: %m");
	pid = clone3_tids(0, &other, 1);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("set_tid with neither capability gave %d", pid);
	}
	return errno == EPERM ? 0 : child_fail("set_tid with neither capability: %m, not EPERM");
}

/*
 * Root of a new user namespace in a PID namespace it owns (made while it
 * still held CAP_SYS_ADMIN), then @fn there.
 */
static int cr_holder(uid_t uid, gid_t gid, int (*fn)(void))
{
	pid_t k;

	if (map_self_root(uid, gid))
		return 1;
	k = ns_clone(CLONE_NEWPID);
	if (k == 0)
		_exit(fn());
	return k < 0 ? child_fail("clone(CLONE_NEWPID): %m") : ns_wait(k, NS_WAIT_MS);
}

static void run_cr_holder(struct __test_metadata *_metadata, int (*fn)(void))
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	pid_t pid = pidns_track(ns_clone(CLONE_NEWUSER));

	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(cr_holder(uid, gid, fn));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

/*
 * CAP_CHECKPOINT_RESTORE in the owning user namespace, without CAP_SYS_ADMIN, allows writing
 * ns_last_pid; neither: EPERM (pid_namespaces(7), 5.9+).
 */
TEST_F(pidns, ns_last_pid_writable_with_cap_checkpoint_restore_alone)
{
	NS_NEED(NS_F_NS_LAST_PID);
	NS_NEED(NS_F_CAP_CHECKPOINT_RESTORE);
	NS_NEED_USERNS();
	run_cr_holder(_metadata, cr_last_pid);
}

/*
 * CAP_CHECKPOINT_RESTORE in the owning user namespace, without CAP_SYS_ADMIN, allows clone3()
 * set_tid; neither: EPERM (clone(2), 5.9+).
 */
TEST_F(pidns, clone3_set_tid_with_cap_checkpoint_restore_alone)
{
	int missing = set_tid_missing();

	NS_NEED_FEATURE(missing, missing >= 0);
	NS_NEED(NS_F_CAP_CHECKPOINT_RESTORE);
	NS_NEED_USERNS();
	run_cr_holder(_metadata, cr_set_tid);
}

/* In a new PID namespace: PIDs 2, 3 and 4 taken, 3 freed, ns_last_pid set to 1. */
static int last_pid_hole(void)
{
	pid_t kids[3], c;
	long after;
	int err;

	for (int i = 0; i < 3; i++) {
		kids[i] = ns_clone(0);
		if (kids[i] == 0) {
			poll(NULL, 0, NS_WAIT_MS);
			_exit(0);
		}
		if (kids[i] != i + 2)
			return child_fail("child %d is PID %d, not %d: %m", i, kids[i], i + 2);
	}
	kill(kids[1], SIGKILL);
	ns_wait(kids[1], NS_WAIT_MS);
	err = write_last_pid("1");
	if (err)
		return child_fail("write " LAST_PID ": %s", strerror(-err));
	c = fork_and_reap();
	if (ns_read_long(LAST_PID, &after))
		return child_fail("read " LAST_PID ": %m");
	kill(kids[0], SIGKILL);
	kill(kids[2], SIGKILL);
	ns_wait(kids[0], NS_WAIT_MS);
	ns_wait(kids[2], NS_WAIT_MS);
	if (c != 3)
		return child_fail("after writing 1 with 2 and 4 in use the next PID is %d, not 3", c);
	if (after != 3)
		return child_fail(LAST_PID " reads %ld after the fork, not 3", after);
	return 0;
}

/*
 * The next PID is the lowest unallocated one above ns_last_pid, which then shows it: PIDs in use
 * are skipped (pid_namespaces(7)).
 *
 * With 2 and 4 in use and 3 free, writing 1 makes the next fork PID 3,
 * not 2 (taken) nor 5 (after the highest).
 */
TEST_F(pidns, ns_last_pid_next_is_lowest_free_above_value)
{
	pid_t pid;

	NS_NEED(NS_F_NS_LAST_PID);
	NS_NEED_ADMIN_OR_USERNS();
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(last_pid_hole());
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

TEST_HARNESS_MAIN
