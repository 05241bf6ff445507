// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces, part 4: the namespace tree.  setns() may only go down
 * the tree (into the caller's own namespace or a descendant) and moves only
 * later children; the tree is at most 32 levels deep.
 * Sources: setns(2), pid_namespaces(7), clone(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nsconform.h"
#include "pidns.h"
#include "kselftest_harness.h"

FIXTURE(pidns) {};

FIXTURE_SETUP(pidns)
{
}

FIXTURE_TEARDOWN(pidns)
{
	pidns_kill_tracked();
}

/* --- setns() ---------------------------------------------------------------- */

/* The test's mount namespace: a child must not mount /proc in it. */
static struct ns_ident test_mnt;

static pid_t idle_pidns_child(void)
{
	pid_t pid = ns_clone(CLONE_NEWPID);

	if (pid == 0) {
		/* Idles until its parent kills it (at most 10 s). */
		poll(NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	return pid;
}

static int setns_refused(int own, int sibling)
{
	struct ns_ident pid, pfc;
	int self;

	if (setns(own, CLONE_NEWPID) == 0 || errno != EINVAL)
		return child_fail("setns to the parent's namespace: %m, not EINVAL");
	if (setns(sibling, CLONE_NEWPID) == 0 || errno != EINVAL)
		return child_fail("setns to a sibling namespace: %m, not EINVAL");
	if (ns_ident_of(0, "pid", &pid) || ns_ident_of(0, "pid_for_children", &pfc))
		return child_fail("stat ns: %m");
	if (!ns_ident_eq(&pid, &pfc))
		return child_fail("a refused setns changed pid_for_children");
	self = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
	if (self < 0 || setns(self, CLONE_NEWPID))
		return child_fail("setns to our own namespace: %m");
	return 0;
}

static int setns_refused_holder(struct ns_sync *s)
{
	int own, sibling;
	pid_t k2, k1;
	int rc;

	ns_sync_child_side(s);
	if (pidns_mount_own_proc(&test_mnt))
		return 1;
	own = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
	k2 = idle_pidns_child();
	if (own < 0 || k2 < 0)
		return child_fail("open ns/fork: %m");
	sibling = ns_open(k2, "pid");
	if (sibling < 0)
		return child_fail("open sibling ns: %m");
	k1 = ns_clone(CLONE_NEWPID);
	if (k1 < 0)
		return child_fail("fork: %m");
	if (k1 == 0)
		_exit(setns_refused(own, sibling));
	rc = ns_wait(k1, NS_WAIT_MS);
	kill(k2, SIGKILL);
	ns_wait(k2, NS_WAIT_MS);
	return rc;
}

/*
 * setns() to a PID namespace that is an ancestor or a sibling fails with EINVAL (setns(2),
 * pid_namespaces(7)).
 */
TEST_F(pidns, setns_to_ancestor_or_sibling_pidns_is_einval)
{
	struct ns_sync s;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_ident_of(0, "mnt", &test_mnt));
	ASSERT_EQ(0, ns_sync_init(&s));
	pid = pidns_new_child(CLONE_NEWNS);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(setns_refused_holder(&s));
	ns_sync_parent_side(&s);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

struct setns_view {
	pid_t self, child, child_self, child_ppid;
	int pid_unchanged, pfc_is_target, child_in_target;
};

static int setns_child_report(int sock)
{
	pid_t me[2] = { getpid(), getppid() };

	return pidns_send_creds(sock, me, sizeof(me)) ? 1 : 0;
}

static int setns_descendant_holder(struct ns_sync *s, int sv[2])
{
	struct ns_ident before, after, pfc, target, childs;
	struct setns_view v = { 0 };
	pid_t k, sender, got[2];
	int fd;

	ns_sync_child_side(s);
	if (pidns_mount_own_proc(&test_mnt))
		return 1;
	ns_ident_of(0, "pid", &before);
	k = idle_pidns_child();
	if (k < 0 || ns_ident_of(k, "pid", &target))
		return child_fail("fork: %m");
	fd = ns_open(k, "pid");
	if (fd < 0 || setns(fd, CLONE_NEWPID))
		return child_fail("setns to a child's namespace: %m");
	v.self = getpid();
	ns_ident_of(0, "pid", &after);
	ns_ident_of(0, "pid_for_children", &pfc);
	v.pid_unchanged = ns_ident_eq(&before, &after);
	v.pfc_is_target = ns_ident_eq(&pfc, &target);
	v.child = ns_clone(0);
	if (v.child < 0)
		return child_fail("fork after setns: %m");
	if (v.child == 0)
		_exit(setns_child_report(sv[1]));
	if (pidns_recv_creds(sv[0], got, sizeof(got), &sender, NS_WAIT_MS))
		return child_fail("no report from the child");
	v.child_self = got[0];
	v.child_ppid = got[1];
	v.child_in_target = !ns_ident_of(v.child, "pid", &childs) && ns_ident_eq(&childs, &target);
	ns_sync_tell(s, true, &v, sizeof(v));
	ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
	ns_wait(v.child, NS_WAIT_MS);
	kill(k, SIGKILL);
	ns_wait(k, NS_WAIT_MS);
	return 0;
}

/*
 * setns() into a descendant PID ns moves only later children: the caller keeps its PID and ns/pid
 * (setns(2), pid_namespaces(7)).
 */
TEST_F(pidns, setns_to_descendant_pidns_moves_only_later_children)
{
	struct ns_ident before, after, pfc;
	struct setns_view v;
	struct ns_sync s;
	int sv[2];
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_ident_of(0, "mnt", &test_mnt));
	ASSERT_EQ(0, ns_sync_init(&s));
	ASSERT_EQ(0, pidns_cred_pair(sv));
	pid = pidns_new_child(CLONE_NEWNS);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(setns_descendant_holder(&s, sv));
	ns_sync_parent_side(&s);
	ASSERT_EQ(0, ns_ident_of(pid, "pid", &before));
	ASSERT_EQ(0, ns_sync_wait(&s, false, &v, sizeof(v), NS_WAIT_MS));
	EXPECT_EQ(1, v.self);
	EXPECT_TRUE(v.pid_unchanged);
	EXPECT_TRUE(v.pfc_is_target);
	/* The child is PID 2 of the target (its init is 1), parent outside. */
	EXPECT_EQ(2, v.child_self);
	EXPECT_EQ(0, v.child_ppid);
	EXPECT_TRUE(v.child_in_target);
	/* From outside: the holder's own namespace did not change. */
	ASSERT_EQ(0, ns_ident_of(pid, "pid", &after));
	ASSERT_EQ(0, ns_ident_of(pid, "pid_for_children", &pfc));
	EXPECT_TRUE(ns_ident_eq(&before, &after));
	EXPECT_FALSE(ns_ident_eq(&pfc, &after));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* --- nesting limit -------------------------------------------------------- */

struct depth_rec {
	int created;		/* levels created below the test */
	int err;		/* errno of the clone that failed */
	int nspid_n;		/* NSpid: entries of the deepest process */
	int fork_ok;		/* a plain fork still works down there */
};

static int descend(struct ns_sync *s, int k)
{
	struct depth_rec r = { .created = k };
	pid_t pid, f;

	if (k > PIDNS_MAX_LEVELS + 2) {
		ns_sync_tell(s, true, &r, sizeof(r));
		return 0;
	}
	pid = ns_clone(CLONE_NEWPID);
	if (pid == 0)
		_exit(descend(s, k + 1));
	if (pid > 0)
		return ns_wait(pid, 2 * NS_WAIT_MS);
	r.err = errno;
	r.nspid_n = pidns_self_levels();
	f = ns_clone(0);
	if (f == 0)
		_exit(0);
	r.fork_ok = f > 0 && ns_wait(f, NS_WAIT_MS) == 0;
	ns_sync_tell(s, true, &r, sizeof(r));
	return 0;
}

/*
 * PID namespaces nest at most 32 levels below the initial one; the clone() past that fails with
 * ENOSPC (clone(2)).
 *
 * pid_namespaces(7) gives EUSERS (3.11-4.8; ENOMEM/EINVAL before): every
 * kernel of 5.10+ says ENOSPC, which is asserted (README).  The deepest
 * level is exactly 32 below the initial namespace: the clone() made at
 * absolute level 32 fails, and that process itself (the level before) works
 * and can fork.
 */
TEST_F(pidns, nesting_stops_at_32_levels_with_enospc)
{
	struct depth_rec r;
	struct ns_sync s;
	int self_n, level;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	self_n = pidns_self_levels();
	NS_NEED_FEATURE(self_n == -ENODATA, "NSpid: in /proc/PID/status", "4.1");
	ASSERT_GE(self_n, 1);
	level = pidns_proc_level();
	ASSERT_LE(0, level) TH_LOG("cannot tell the absolute level of /proc's PID namespace: "
				   "run under build/harness/nsrun or with the initial /proc");
	level += self_n - 1;
	ASSERT_EQ(0, ns_sync_init(&s));
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		ns_sync_child_side(&s);
		_exit(descend(&s, 1));
	}
	ns_sync_parent_side(&s);
	ASSERT_EQ(0, ns_sync_wait(&s, false, &r, sizeof(r), 2 * NS_WAIT_MS));
	ASSERT_NE(0, r.err) TH_LOG("no limit within %d levels", PIDNS_MAX_LEVELS + 2);
	EXPECT_EQ(ENOSPC, r.err);
	/* The deepest process is r.created levels below us, at level 32. */
	EXPECT_EQ(self_n + r.created, r.nspid_n);
	EXPECT_EQ(32, level + r.created)
		TH_LOG("from level %d: %d nested levels, then %s", level, r.created,
		       strerror(r.err));
	EXPECT_TRUE(r.fork_ok);
	EXPECT_EQ(0, pidns_reap(pid, 2 * NS_WAIT_MS));
	ns_sync_close(&s);
}

TEST_HARNESS_MAIN
