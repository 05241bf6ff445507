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
#include "pid.h"
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

static int setns_refused_holder(struct ns_sync *s, int *unused)
{
	int own, sibling;
	pid_t k2, k1;
	int rc;

	(void)unused;
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
 * Start @holder(@s, @sv) in a child of the test in a new PID and mount namespace (a user
 * namespace too when unprivileged), where it may mount its own /proc; @sv (when not NULL)
 * becomes a credentials socket pair first.  The child's PID with our side of @s ready, or -1.
 */
static pid_t start_holder(struct ns_sync *s, int *sv, int (*holder)(struct ns_sync *, int *))
{
	pid_t pid;

	if (ns_ident_of(0, "mnt", &test_mnt) || (sv && pidns_cred_pair(sv)))
		return -1;
	pid = ns_clone_synced(pidns_new_child, CLONE_NEWNS, s);
	if (pid == 0)
		_exit(holder(s, sv));
	return pid;
}

/* start_holder() without a socket pair; check that the holder exited 0. */
static void run_holder(struct __test_metadata *_metadata, int (*holder)(struct ns_sync *, int *))
{
	struct ns_sync s;
	pid_t pid = start_holder(&s, NULL, holder);

	ASSERT_GE(pid, 0);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/*
 * setns() to a PID namespace that is an ancestor or a sibling fails with EINVAL (setns(2),
 * pid_namespaces(7)).
 */
TEST_F(pidns, setns_to_ancestor_or_sibling_pidns_is_einval)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_holder(_metadata, setns_refused_holder);
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

static int setns_descendant_holder(struct ns_sync *s, int *sv)
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

	pid = start_holder(&s, sv, setns_descendant_holder);
	ASSERT_GE(pid, 0);
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
	NS_NEED_FEATURE(NS_F_NSPID, self_n == -ENODATA);
	ASSERT_GE(self_n, 1);
	level = pidns_proc_level();
	ASSERT_LE(0, level) TH_LOG("cannot tell the absolute level of /proc's PID namespace: "
				   "run under build/harness/nsrun or with the initial /proc");
	level += self_n - 1;
	pid = ns_clone_synced(pidns_new_child, 0, &s);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(descend(&s, 1));
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

/* --- setns() into a grandchild, and into a namespace whose init is gone --- */

struct grandchild_view {
	int setns_err;			/* errno of setns() into R, 0 when it worked */
	int pfc_is_r;			/* pid_for_children names R afterwards */
	pid_t child_self, child_ppid;	/* getpid()/getppid() of the child C, inside R */
	pid_t child_ppid_seen;		/* C's PPid: through H's /proc */
	int child_levels;		/* entries of C's NSpid: through H's /proc */
};

/* K2, init of R two levels below H: say who we are (H learns our PID), then idle. */
static int grandchild_init(int sock)
{
	pid_t me = getpid();

	if (pidns_send_creds(sock, &me, sizeof(me)))
		return 1;
	poll(NULL, 0, NS_WAIT_MS);
	return 0;
}

static int grandchild_holder(struct ns_sync *s, int *sv)
{
	struct grandchild_view v = { 0 };
	struct ns_ident r_id, pfc;
	pid_t k1, k2, c, got[2], sender;
	int fd;

	ns_sync_child_side(s);
	if (pidns_mount_own_proc(&test_mnt))
		return 1;
	/* H (PID 1 of P) -> K1 (init of Q) -> K2 (init of R). */
	k1 = ns_clone(CLONE_NEWPID);
	if (k1 < 0)
		return child_fail("clone Q: %m");
	if (k1 == 0) {
		pid_t k = ns_clone(CLONE_NEWPID);

		if (k == 0)
			_exit(grandchild_init(sv[1]));
		_exit(k < 0 ? child_fail("clone R: %m") : ns_wait(k, 2 * NS_WAIT_MS));
	}
	if (pidns_recv_creds(sv[0], got, sizeof(pid_t), &k2, NS_WAIT_MS))
		return child_fail("no word from R's init");
	fd = ns_open(k2, "pid");
	if (fd < 0 || ns_ident_of(k2, "pid", &r_id))
		return child_fail("open R's ns/pid: %s", strerror(-fd));
	if (setns(fd, CLONE_NEWPID))
		v.setns_err = errno;
	ns_ident_of(0, "pid_for_children", &pfc);
	v.pfc_is_r = ns_ident_eq(&pfc, &r_id);
	c = v.setns_err ? -1 : ns_clone(0);
	if (c == 0) {
		pid_t me[2] = { getpid(), getppid() };

		pidns_send_creds(sv[1], me, sizeof(me));
		poll(NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	if (c > 0 && !pidns_recv_creds(sv[0], got, sizeof(got), &sender, NS_WAIT_MS)) {
		pid_t ids[PIDNS_MAX_LEVELS];

		v.child_self = got[0];
		v.child_ppid = got[1];
		v.child_ppid_seen = pidns_status_field(c, "PPid:");
		v.child_levels = pidns_nspid(c, ids, PIDNS_MAX_LEVELS);
	}
	ns_sync_tell(s, true, &v, sizeof(v));
	/* Q's init going kills R and C with it. */
	kill(k1, SIGKILL);
	if (c > 0)
		ns_wait(c, NS_WAIT_MS);
	return ns_wait(k1, NS_WAIT_MS) == 128 + SIGKILL ? 0 : 1;
}

/*
 * setns() into a grandchild PID ns is allowed: the caller's next child is in it, with its parent
 * two levels above (setns(2) "child, grandchild, etc.").
 *
 * pid_namespaces(7) says the parent of a process is in the same namespace
 * or in the immediate parent one, which setns() into a grandchild breaks:
 * C is PID 2 of R with getppid() 0, and its parent H is PID 1 of P, two
 * levels up (README).
 */
TEST_F(pidns, setns_to_grandchild_pidns_parent_two_levels_up)
{
	struct grandchild_view v;
	struct ns_sync s;
	int sv[2];
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	pid = start_holder(&s, sv, grandchild_holder);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, &v, sizeof(v), NS_WAIT_MS));
	EXPECT_EQ(0, v.setns_err) TH_LOG("setns into a grandchild: %s", strerror(v.setns_err));
	EXPECT_TRUE(v.pfc_is_r);
	EXPECT_EQ(2, v.child_self);
	EXPECT_EQ(0, v.child_ppid);
	/* H sees C as its own child, and C has a PID in P, Q and R. */
	EXPECT_EQ(1, v.child_ppid_seen);
	EXPECT_EQ(3, v.child_levels);
	EXPECT_EQ(0, pidns_reap(pid, 2 * NS_WAIT_MS));
	ns_sync_close(&s);
}

/* H: a child namespace whose init has exited, joined by setns() through a kept fd. */
static int dead_init_holder(struct ns_sync *s, int *unused)
{
	struct ns_ident q, pfc;
	int fd, rc, err;
	pid_t k, again;

	(void)unused;
	ns_sync_child_side(s);
	if (pidns_mount_own_proc(&test_mnt))
		return 1;
	k = idle_pidns_child();
	if (k < 0)
		return child_fail("clone: %m");
	fd = ns_open(k, "pid");
	if (fd < 0 || ns_ident_of(k, "pid", &q))
		return child_fail("open the child's ns/pid: %s", strerror(-fd));
	kill(k, SIGKILL);
	rc = ns_wait(k, NS_WAIT_MS);
	if (rc != 128 + SIGKILL)
		return child_fail("the namespace's init did not die of SIGKILL (%d)", rc);
	/* The fd keeps the namespace: setns() into it works... */
	if (setns(fd, CLONE_NEWPID))
		return child_fail("setns into the namespace of a dead init: %m");
	if (ns_ident_of(0, "pid_for_children", &pfc) || !ns_ident_eq(&pfc, &q))
		return child_fail("pid_for_children is not the joined namespace");
	/* ...but no process can be created there. */
	again = ns_clone(0);
	err = errno;
	if (again == 0)
		_exit(0);
	if (again > 0) {
		ns_wait(again, NS_WAIT_MS);
		return child_fail("fork into a namespace whose init died gave PID %d", again);
	}
	return err == ENOMEM ? 0 : child_fail("fork there: %s, not ENOMEM", strerror(err));
}

/*
 * After setns() through a kept ns/pid fd into a namespace whose init has exited, fork() fails with
 * ENOMEM (pid_namespaces(7)).
 *
 * pid_namespaces(7) names this scenario: the setns() itself succeeds,
 * pid_for_children names the dead namespace, and the fork() is refused.
 */
TEST_F(pidns, fork_after_setns_into_namespace_of_dead_init_is_enomem)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_holder(_metadata, dead_init_holder);
}

TEST_HARNESS_MAIN
