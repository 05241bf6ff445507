// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces, part 1: the namespace's own init, nested numbering,
 * visibility and signal sender translation.  (Part 2 is pid_unshare.c,
 * 3 pid_init.c, 4 pid_nest.c, 5 pid_restore.c, 6 pid_pidfd.c.)
 * Sources: pid_namespaces(7), the article's parts 3 and 4
 * (pidns_init_sleep.c, multi_pidns.c), kill(2).
 *
 * Every child of the test is tracked; teardown SIGKILLs each one, and a
 * killed namespace init takes everything in its namespace with it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

struct first_view {
	pid_t pid, ppid;
	struct ns_ident ns;
};

/* The first process in a new PID namespace is PID 1 with getppid() 0 there (pid_namespaces(7)). */
TEST_F(pidns, first_child_is_pid1_with_ppid0_parent_sees_ordinary_pid)
{
	pid_t ids[PIDNS_MAX_LEVELS], pid;
	struct first_view v;
	struct ns_ident mine, theirs;
	struct ns_sync s;
	int self_n, n;

	NS_NEED_ADMIN_OR_USERNS();

	self_n = pidns_self_levels();
	NS_NEED_FEATURE(NS_F_NSPID, self_n == -ENODATA);
	ASSERT_GE(self_n, 1);
	ASSERT_EQ(0, ns_ident_of(0, "pid", &mine));
	pid = ns_clone_synced(pidns_new_child, 0, &s);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		v.pid = getpid();
		v.ppid = getppid();
		if (ns_ident_of(0, "pid", &v.ns))
			_exit(child_fail("stat /proc/self/ns/pid: %m"));
		ns_sync_tell(&s, true, &v, sizeof(v));
		/* Stay alive while the parent looks at us from outside. */
		_exit(ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS) ? 1 : 0);
	}
	ASSERT_EQ(0, ns_sync_wait(&s, false, &v, sizeof(v), NS_WAIT_MS));
	EXPECT_EQ(1, v.pid);
	EXPECT_EQ(0, v.ppid);
	/* Outside, it has an ordinary PID whose parent is us. */
	EXPECT_NE(1, pid);
	EXPECT_EQ(getpid(), pidns_status_field(pid, "PPid:"));
	n = pidns_nspid(pid, ids, PIDNS_MAX_LEVELS);
	ASSERT_EQ(self_n + 1, n);
	EXPECT_EQ(pid, ids[n - 2]);
	EXPECT_EQ(1, ids[n - 1]);
	/* Both views name the same namespace, and it is not ours. */
	ASSERT_EQ(0, ns_ident_of(pid, "pid", &theirs));
	EXPECT_TRUE(ns_ident_eq(&theirs, &v.ns));
	EXPECT_FALSE(ns_ident_eq(&theirs, &mine));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* --- nested chain (multi_pidns.c) ---------------------------------------- */

#define CHAIN 5

struct chain {
	int sv[CHAIN][2];	/* level j receives on sv[j][0] */
	struct ns_sync s;	/* to_parent: records; to_child: "done" */
};

struct chain_rec {
	int level;
	pid_t forked;		/* clone()'s return value at this level */
	pid_t seen;		/* the deepest process, via SCM_CREDENTIALS */
	int n;			/* deepest only: NSpid entries */
	pid_t nspid[PIDNS_MAX_LEVELS];
};

static int chain_deepest(struct chain *c)
{
	struct chain_rec r = { .level = CHAIN };
	char b = 'x';

	for (int j = 0; j < CHAIN; j++)
		if (pidns_send_creds(c->sv[j][1], &b, 1))
			return child_fail("send credentials to level %d: %m", j);
	r.n = pidns_nspid(0, r.nspid, PIDNS_MAX_LEVELS);
	ns_sync_tell(&c->s, true, &r, sizeof(r));
	/* Live until the test has read our /proc entry. */
	return ns_sync_wait(&c->s, true, NULL, 0, NS_WAIT_MS) ? 1 : 0;
}

/* Process P_k (k >= 1), PID 1 of the k-th new namespace. */
static int chain_level(struct chain *c, int k)
{
	struct chain_rec r = { .level = k };
	char b;
	int err;

	ns_sync_child_side(&c->s);
	if (k == CHAIN)
		return chain_deepest(c);
	r.forked = ns_clone(CLONE_NEWPID);
	if (r.forked < 0)
		return child_fail("clone(CLONE_NEWPID) at level %d: %m", k);
	if (r.forked == 0)
		_exit(chain_level(c, k + 1));
	err = pidns_recv_creds(c->sv[k][0], &b, 1, &r.seen, NS_WAIT_MS);
	if (err)
		return child_fail("level %d: no credentials: %s", k, strerror(-err));
	ns_sync_tell(&c->s, true, &r, sizeof(r));
	return ns_wait(r.forked, NS_WAIT_MS);
}

/*
 * Nested PID namespaces: one PID per level, listed by NSpid:, each as an ancestor sees it
 * (pid_namespaces(7), article part 3).
 *
 * The chain is modelled on the article's multi_pidns.c.
 */
TEST_F(pidns, nested_chain_has_one_pid_per_level_as_each_ancestor_sees_it)
{
	struct chain_rec recs[CHAIN + 1] = { 0 }, r, *deep = &recs[CHAIN];
	pid_t outer[PIDNS_MAX_LEVELS], p1, seen0;
	int self_n, n, base;
	struct chain c;
	char b;

	NS_NEED_ADMIN_OR_USERNS();

	self_n = pidns_self_levels();
	NS_NEED_FEATURE(NS_F_NSPID, self_n == -ENODATA);
	ASSERT_GE(self_n, 1);
	for (int j = 0; j < CHAIN; j++)
		ASSERT_EQ(0, pidns_cred_pair(c.sv[j]));
	p1 = ns_clone_synced(pidns_new_child, 0, &c.s);
	ASSERT_GE(p1, 0);
	if (p1 == 0)
		_exit(chain_level(&c, 1));
	ASSERT_EQ(0, pidns_recv_creds(c.sv[0][0], &b, 1, &seen0, NS_WAIT_MS));
	for (int i = 0; i < CHAIN; i++) {
		ASSERT_EQ(0, ns_sync_wait(&c.s, false, &r, sizeof(r), NS_WAIT_MS));
		ASSERT_GE(r.level, 1);
		ASSERT_LE(r.level, CHAIN);
		recs[r.level] = r;
	}
	/* The deepest sees itself at self_n + CHAIN levels, 1 at the bottom. */
	base = self_n - 1;
	ASSERT_EQ(self_n + CHAIN, deep->n);
	EXPECT_EQ(seen0, deep->nspid[base]);
	for (int j = 1; j <= CHAIN; j++) {
		/* In level j, P_j is 1, P_j+1 is 2, ..., P_CHAIN is CHAIN - j + 1. */
		EXPECT_EQ(CHAIN - j + 1, deep->nspid[base + j]);
		if (j < CHAIN) {
			EXPECT_EQ(2, recs[j].forked);
			EXPECT_EQ(deep->nspid[base + j], recs[j].seen);
		}
	}
	/* From outside: /proc agrees with the deepest process's own view. */
	n = pidns_nspid(seen0, outer, PIDNS_MAX_LEVELS);
	ASSERT_EQ(deep->n, n);
	for (int i = 0; i < n; i++)
		EXPECT_EQ(deep->nspid[i], outer[i]);
	n = pidns_nspid(p1, outer, PIDNS_MAX_LEVELS);
	ASSERT_EQ(self_n + 1, n);
	EXPECT_EQ(p1, outer[base]);
	EXPECT_EQ(1, outer[base + 1]);
	ns_sync_tell(&c.s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(p1, NS_WAIT_MS));
	ns_sync_close(&c.s);
}

/* --- visibility ----------------------------------------------------------- */

struct proc_list {
	int n;
	pid_t pids[16];
	int nspid_n;		/* NSpid: entries of /proc/2/status in the new /proc */
};

static int list_proc(struct proc_list *l)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (!dir)
		return -1;
	l->n = 0;
	while ((d = readdir(dir))) {
		char *end;
		long v = strtol(d->d_name, &end, 10);

		if (*end || end == d->d_name)
			continue;
		if (l->n < 16)
			l->pids[l->n] = v;
		l->n++;
	}
	closedir(dir);
	return 0;
}

static int proc_view_child(int sock, struct ns_sync *s, const struct ns_ident *parent_mnt)
{
	struct proc_list l = { 0 };
	pid_t ids[PIDNS_MAX_LEVELS], g;

	ns_sync_child_side(s);
	if (pidns_mount_own_proc(parent_mnt))
		return 1;
	g = ns_clone(0);
	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0) {
		char b = 'g';

		pidns_send_creds(sock, &b, 1);
		_exit(ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS) ? 1 : 0);
	}
	if (list_proc(&l))
		return child_fail("opendir /proc: %m");
	l.nspid_n = pidns_nspid(g, ids, PIDNS_MAX_LEVELS);
	ns_sync_tell(s, true, &l, sizeof(l));
	return ns_wait(g, NS_WAIT_MS);
}

/*
 * A /proc mounted inside the namespace lists only its processes (pid_namespaces(7) "/proc and PID
 * namespaces").
 */
TEST_F(pidns, proc_mounted_inside_lists_only_namespace_processes)
{
	struct ns_ident a, b, mnt;
	struct proc_list l;
	struct ns_sync s;
	pid_t pid, g;
	int sv[2];
	char c;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_ident_of(0, "mnt", &mnt));
	ASSERT_EQ(0, pidns_cred_pair(sv));
	pid = ns_clone_synced(pidns_new_child, CLONE_NEWNS, &s);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(proc_view_child(sv[1], &s, &mnt));
	ASSERT_EQ(0, pidns_recv_creds(sv[0], &c, 1, &g, NS_WAIT_MS));
	ASSERT_EQ(0, ns_sync_wait(&s, false, &l, sizeof(l), NS_WAIT_MS));
	/* Inside: exactly the init and its child, numbered 1 and 2. */
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(3, l.pids[0] + l.pids[1]);
	EXPECT_EQ(2, l.pids[0] * l.pids[1]);
	/* That /proc numbers from the new namespace: one NSpid entry. */
	EXPECT_EQ(1, l.nspid_n);
	/* Outside: both are visible under their outer PIDs, in one namespace. */
	EXPECT_NE(g, 2);
	EXPECT_EQ(pid, pidns_status_field(g, "PPid:"));
	ASSERT_EQ(0, ns_ident_of(pid, "pid", &a));
	ASSERT_EQ(0, ns_ident_of(g, "pid", &b));
	EXPECT_TRUE(ns_ident_eq(&a, &b));
	EXPECT_EQ(0, ns_same_as_self(g, "pid"));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

static int kill_outside_child(pid_t outside, pid_t sibling)
{
	if (getpid() != 1)
		return child_fail("not PID 1 of a new namespace (%d)", getpid());
	if (kill(1, 0))
		return child_fail("kill(1, 0) of ourselves: %m");
	if (kill(outside, 0) == 0 || errno != ESRCH)
		return child_fail("kill(%d, 0) of the parent: %m, not ESRCH", outside);
	if (kill(sibling, SIGCONT) == 0 || errno != ESRCH)
		return child_fail("kill(%d, SIGCONT) of a process outside: %m, not ESRCH", sibling);
	return 0;
}

/* kill() of a process outside the namespace fails with ESRCH (pid_namespaces(7), namespaces(7)). */
TEST_F(pidns, kill_of_process_outside_namespace_is_esrch)
{
	pid_t sib, pid, me = getpid();
	struct ns_sync s;

	NS_NEED_ADMIN_OR_USERNS();

	sib = pidns_track(ns_clone_synced(ns_clone, 0, &s));
	ASSERT_GE(sib, 0);
	if (sib == 0)
		_exit(ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS) ? 1 : 0);
	/* Both exist and can be signalled from here. */
	ASSERT_EQ(0, kill(sib, 0));
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(kill_outside_child(me, sib));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(sib, NS_WAIT_MS));
	ns_sync_close(&s);
}

static int signalled_grandchild(int sock)
{
	sigset_t set = pidns_block_signal(SIGUSR1);
	siginfo_t si;
	pid_t g;
	char b = 'g';

	g = ns_clone(0);
	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0) {
		if (pidns_send_creds(sock, &b, 1))
			_exit(child_fail("send credentials: %m"));
		if (pidns_wait_signal(&set, &si) != SIGUSR1)
			_exit(child_fail("no SIGUSR1 from the parent namespace: %m"));
		_exit(0);
	}
	return ns_wait(g, NS_WAIT_MS);
}

/* The parent namespace can see and signal a (non-init) process inside (pid_namespaces(7)). */
TEST_F(pidns, parent_namespace_sees_and_signals_process_inside)
{
	pid_t ids[PIDNS_MAX_LEVELS], pid, g;
	int sv[2], n;
	char b;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, pidns_cred_pair(sv));
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(signalled_grandchild(sv[1]));
	ASSERT_EQ(0, pidns_recv_creds(sv[0], &b, 1, &g, NS_WAIT_MS));
	/* Outside it has an ordinary PID, inside it is 2, its parent our child. */
	n = pidns_nspid(g, ids, PIDNS_MAX_LEVELS);
	ASSERT_EQ(pidns_self_levels() + 1, n);
	EXPECT_EQ(g, ids[n - 2]);
	EXPECT_EQ(2, ids[n - 1]);
	EXPECT_EQ(pid, pidns_status_field(g, "PPid:"));
	EXPECT_EQ(0, kill(g, 0));
	EXPECT_EQ(0, kill(g, SIGUSR1));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

struct sender_view {
	pid_t self;
	pid_t from_outside;	/* si_pid of the parent's SIGUSR1 */
	pid_t from_inside;	/* si_pid of the child's SIGUSR2 */
	pid_t child;		/* what fork() returned for that child */
	int code;
};

static int sender_child(struct ns_sync *s, void *arg)
{
	sigset_t set;
	struct sender_view v = { .self = getpid() };
	siginfo_t si;

	(void)arg;
	ns_sync_child_side(s);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	ns_sync_tell(s, true, NULL, 0);
	sigdelset(&set, SIGUSR2);
	if (pidns_wait_signal(&set, &si) != SIGUSR1)
		return child_fail("no SIGUSR1 from the parent: %m");
	v.from_outside = si.si_pid;
	v.code = si.si_code;
	v.child = ns_clone(0);
	if (v.child < 0)
		return child_fail("fork: %m");
	if (v.child == 0)
		_exit(kill(getppid(), SIGUSR2) ? 1 : 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (pidns_wait_signal(&set, &si) != SIGUSR2)
		return child_fail("no SIGUSR2 from our child: %m");
	v.from_inside = si.si_pid;
	ns_sync_tell(s, true, &v, sizeof(v));
	return ns_wait(v.child, NS_WAIT_MS);
}

/*
 * A signal from the parent namespace arrives with si_pid 0; one from inside names the sender's
 * inner PID (pid_namespaces(7)).
 */
TEST_F(pidns, signal_from_parent_namespace_has_si_pid_zero)
{
	struct sender_view v;
	struct ns_sync s;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	pid = pidns_start_synced(&s, 0, sender_child, NULL);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(0, ns_sync_wait(&s, false, &v, sizeof(v), NS_WAIT_MS));
	EXPECT_EQ(1, v.self);
	EXPECT_EQ(0, v.from_outside);
	EXPECT_EQ(SI_USER, v.code);
	EXPECT_EQ(2, v.child);
	EXPECT_EQ(v.child, v.from_inside);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

struct sigchld_view {
	pid_t self, child, from;
	int code;
};

static int sigchld_child(struct ns_sync *s)
{
	sigset_t set = pidns_block_signal(SIGCHLD);
	struct sigchld_view v = { .self = getpid() };
	siginfo_t si;

	ns_sync_child_side(s);
	v.child = ns_clone(0);
	if (v.child < 0)
		return child_fail("fork: %m");
	if (v.child == 0)
		_exit(42);
	if (pidns_wait_signal(&set, &si) != SIGCHLD)
		return child_fail("no SIGCHLD: %m");
	v.from = si.si_pid;
	v.code = si.si_status;
	ns_sync_tell(s, true, &v, sizeof(v));
	if (ns_wait(v.child, NS_WAIT_MS) != 42)
		return child_fail("child did not exit 42");
	return 43;
}

/*
 * SIGCHLD names the child as the receiver sees it: inner PID inside, outer PID outside
 * (pid_namespaces(7)).
 */
TEST_F(pidns, sigchld_si_pid_is_pid_in_receivers_namespace)
{
	sigset_t set;
	struct sigchld_view v;
	struct ns_sync s;
	siginfo_t si;
	pid_t pid;

	/* the probe reaps a child of its own: before SIGCHLD is blocked */
	NS_NEED_ADMIN_OR_USERNS();
	set = pidns_block_signal(SIGCHLD);
	pid = ns_clone_synced(pidns_new_child, 0, &s);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(sigchld_child(&s));
	ASSERT_EQ(0, ns_sync_wait(&s, false, &v, sizeof(v), NS_WAIT_MS));
	EXPECT_EQ(1, v.self);
	EXPECT_EQ(2, v.child);
	EXPECT_EQ(v.child, v.from);
	EXPECT_EQ(42, v.code);
	ASSERT_EQ(SIGCHLD, pidns_wait_signal(&set, &si));
	EXPECT_EQ(pid, si.si_pid);
	EXPECT_NE(1, si.si_pid);
	EXPECT_EQ(43, si.si_status);
	EXPECT_EQ(43, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* --- kill(-1) ------------------------------------------------------------- */

enum { KA_INIT, KA_MEMBER, KA_NESTED_INIT, KA_SENDER, KA_OUTSIDE, KA_N };

struct killall_rec {
	int ready;		/* observers that have SIGURG blocked */
	int sent;		/* the sender's kill(-1) has returned */
	int kill_rc, kill_err;
	int got[KA_N];		/* SIGURG pending for each, once sent */
	int done[KA_N];
};

static bool wait_flag(int *flag, int want)
{
	long end = ns_now_ms() + NS_WAIT_MS;

	while (__atomic_load_n(flag, __ATOMIC_SEQ_CST) < want) {
		if (ns_now_ms() > end)
			return false;
		poll(NULL, 0, 5);
	}
	return true;
}

/* SIGURG is blocked (inherited): say ready, and once the sender is done, whether it came. */
static int killall_observe(struct killall_rec *r, int idx)
{
	sigset_t pending;

	__atomic_add_fetch(&r->ready, 1, __ATOMIC_SEQ_CST);
	if (!wait_flag(&r->sent, 1))
		return child_fail("the sender did not send");
	sigpending(&pending);
	r->got[idx] = sigismember(&pending, SIGURG);
	r->done[idx] = 1;
	return 0;
}

static int killall_sender(struct killall_rec *r)
{
	sigset_t pending;

	if (!wait_flag(&r->ready, KA_N - 1))
		return child_fail("the observers did not get ready");
	r->kill_rc = kill(-1, SIGURG);
	r->kill_err = errno;
	/* kill() has queued the signal on every target when it returns. */
	sigpending(&pending);
	r->got[KA_SENDER] = sigismember(&pending, SIGURG);
	r->done[KA_SENDER] = 1;
	__atomic_store_n(&r->sent, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* H, PID 1: a member M, a nested namespace's init D, the sender S; H observes too. */
static int killall_init(struct killall_rec *r)
{
	pid_t m, d, snd;
	int rc;

	m = ns_clone(0);
	if (m == 0)
		_exit(killall_observe(r, KA_MEMBER));
	d = ns_clone(CLONE_NEWPID);
	if (d == 0)
		_exit(killall_observe(r, KA_NESTED_INIT));
	snd = ns_clone(0);
	if (snd == 0)
		_exit(killall_sender(r));
	if (m < 0 || d < 0 || snd < 0)
		return child_fail("fork: %m");
	rc = killall_observe(r, KA_INIT);
	rc |= ns_wait(m, NS_WAIT_MS) | ns_wait(d, NS_WAIT_MS) | ns_wait(snd, NS_WAIT_MS);
	return rc;
}

/*
 * kill(-1) from inside signals every process the namespace can see but its init and the caller:
 * members and nested namespaces, nothing outside (kill(2), pid_namespaces(7)).
 *
 * All block SIGURG (ignored by default: a kernel that leaks the signal out
 * harms nobody), so it stays pending where it arrives, also at an init,
 * whose blocked signals are queued whatever its handlers; after kill()
 * returns each looks at its pending set.  The member M and the init D of a
 * nested namespace have it; the namespace's init H, the sender S and a
 * process O outside the namespace (same uid) do not.
 */
TEST_F(pidns, kill_minus_one_reaches_only_members_below_init)
{
	struct killall_rec *r = ns_shared_page(4096);
	sigset_t urg, old;
	pid_t o, h;

	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	sigemptyset(&urg);
	sigaddset(&urg, SIGURG);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &urg, &old));
	o = pidns_track(ns_clone(0));
	if (o == 0)
		_exit(killall_observe(r, KA_OUTSIDE));
	h = o < 0 ? -1 : pidns_new_child(0);
	if (h == 0)
		_exit(killall_init(r));
	sigprocmask(SIG_SETMASK, &old, NULL);
	ASSERT_GE(o, 0);
	ASSERT_GE(h, 0);
	EXPECT_EQ(0, pidns_reap(h, 2 * NS_WAIT_MS));
	EXPECT_EQ(0, pidns_reap(o, 2 * NS_WAIT_MS));
	EXPECT_EQ(0, r->kill_rc) TH_LOG("kill(-1, SIGURG): %s", strerror(r->kill_err));
	for (int i = 0; i < KA_N; i++) {
		ASSERT_TRUE(r->done[i]) TH_LOG("observer %d did not report", i);
	}
	EXPECT_TRUE(r->got[KA_MEMBER]);
	EXPECT_TRUE(r->got[KA_NESTED_INIT]);
	EXPECT_FALSE(r->got[KA_INIT]);
	EXPECT_FALSE(r->got[KA_SENDER]);
	EXPECT_FALSE(r->got[KA_OUTSIDE]);
}

/* --- setpriority() by PID ----------------------------------------------------- */

struct nice_rec {
	int base;			/* the test's nice value */
	pid_t outside;			/* the test's PID */
	int inner_set, inner_got;	/* H on its child by inner PID 2 */
	int outside_err;		/* errno of H's setpriority() on the test */
	int own_after;			/* H's nice after the test set it by outer PID */
};

static int nice_init(struct ns_sync *s, void *arg)
{
	struct nice_rec *r = arg;
	pid_t m;

	ns_sync_child_side(s);
	m = ns_clone(0);
	if (m == 0) {
		poll(NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	if (m != 2)
		return child_fail("first child is %d, not 2: %m", m);
	r->inner_set = setpriority(PRIO_PROCESS, 2, r->base + 6) ? -errno : 0;
	errno = 0;
	r->inner_got = getpriority(PRIO_PROCESS, 2);
	r->outside_err = setpriority(PRIO_PROCESS, r->outside, r->base + 6) ? errno : 0;
	ns_sync_tell(s, true, NULL, 0);
	if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("no word from the test");
	r->own_after = getpriority(PRIO_PROCESS, 0);
	kill(m, SIGKILL);
	ns_wait(m, NS_WAIT_MS);
	return 0;
}

/*
 * setpriority() names processes by the caller's PIDs: inside by the inner PID, from the parent
 * namespace by the outer one; a process outside is ESRCH (pid_namespaces(7)).
 *
 * H (PID 1) lowers the priority of its child by PID 2 and reads it back;
 * the test lowers H's by the PID fork() gave it, and H sees the change;
 * H's setpriority() on the test's PID fails with ESRCH.
 */
TEST_F(pidns, setpriority_uses_pids_of_callers_namespace)
{
	struct nice_rec *r = ns_shared_page(4096);
	struct ns_sync s;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	errno = 0;
	r->base = getpriority(PRIO_PROCESS, 0);
	ASSERT_EQ(0, errno);
	/* Lowering priority needs no privilege; room for two steps is needed. */
	ASSERT_LE(r->base, 13) TH_LOG("the test runs at nice %d", r->base);
	r->outside = getpid();
	pid = pidns_start_synced(&s, 0, nice_init, r);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, setpriority(PRIO_PROCESS, pid, r->base + 3));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
	EXPECT_EQ(0, r->inner_set);
	EXPECT_EQ(r->base + 6, r->inner_got);
	EXPECT_EQ(ESRCH, r->outside_err);
	EXPECT_EQ(r->base + 3, r->own_after);
}

TEST_HARNESS_MAIN
