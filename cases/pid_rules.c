// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces: SIGSTOP to init, orphans of a process that moved its
 * children into another PID namespace, unshare(CLONE_NEWPID) only once,
 * threads after entering, and CLONE_NEWPID with CLONE_VM/CLONE_SIGHAND.
 * Sources: pid_namespaces(7), clone(2).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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

/* Poll /proc/@pid/stat for at most 5 s until its state is (or, with @is false, is not) @want. */
static bool state_becomes(pid_t pid, char want, bool is)
{
	struct timespec tick = { 0, 5000000 };

	for (int i = 0; i < 1000; i++) {
		if ((pidns_proc_state(pid) == want) == is)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

/* --- SIGSTOP -------------------------------------------------------------- */

/* An init with no handlers: it reports, then answers each request until told to end. */
static int idle_init(struct ns_sync *s, void *arg)
{
	char b;

	(void)arg;

	ns_sync_child_side(s);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	ns_sync_tell(s, true, NULL, 0);
	while (!ns_sync_wait(s, true, &b, 1, NS_WAIT_MS)) {
		if (b == 'q')
			return 0;
		ns_sync_tell(s, true, NULL, 0);
	}
	return child_fail("no word from the parent");
}

/*
 * SIGSTOP sent from the parent namespace stops the namespace's init, which has no handler
 * (pid_namespaces(7)).
 */
TEST_F(pidns, sigstop_from_parent_namespace_stops_init)
{
	struct ns_sync s;
	pid_t init;

	NS_NEED_ADMIN_OR_USERNS();

	init = pidns_start_synced(&s, 0, idle_init, NULL);
	ASSERT_GE(init, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	ASSERT_EQ(0, kill(init, SIGSTOP));
	EXPECT_TRUE(state_becomes(init, 'T', true)) TH_LOG("init did not stop");
	/* Stopped: it does not answer. */
	ns_sync_tell(&s, false, "p", 1);
	EXPECT_NE(0, ns_sync_wait(&s, false, NULL, 0, 200));
	ASSERT_EQ(0, kill(init, SIGCONT));
	EXPECT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	ns_sync_tell(&s, false, "q", 1);
	EXPECT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	ns_sync_close(&s);
}

static int stop_sender(void)
{
	if (kill(1, SIGSTOP))
		return child_fail("kill(1, SIGSTOP): %m");
	return 0;
}

/* init: a member sends it SIGSTOP; init then reports that it still runs. */
static int stopped_from_inside_init(struct ns_sync *s, void *arg)
{
	pid_t g;
	int rc;

	(void)arg;

	ns_sync_child_side(s);
	signal(SIGSTOP, SIG_DFL);
	g = ns_clone(0);
	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0)
		_exit(stop_sender());
	rc = ns_wait(g, NS_WAIT_MS);
	if (rc)
		return child_fail("sender failed (%d)", rc);
	/* A delivered SIGSTOP would have stopped us before this point. */
	ns_sync_tell(s, true, NULL, 0);
	return ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS) ? child_fail("no release") : 0;
}

/*
 * SIGSTOP sent to init by a member of its own namespace is dropped: init keeps running
 * (pid_namespaces(7)).
 */
TEST_F(pidns, sigstop_from_inside_does_not_stop_init)
{
	struct ns_sync s;
	pid_t init;

	NS_NEED_ADMIN_OR_USERNS();

	init = pidns_start_synced(&s, 0, stopped_from_inside_init, NULL);
	ASSERT_GE(init, 0);
	EXPECT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS)) TH_LOG("init stopped");
	EXPECT_NE('T', pidns_proc_state(init));
	ns_sync_tell(&s, false, NULL, 0);
	if (pidns_proc_state(init) == 'T')
		kill(init, SIGCONT);
	EXPECT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* The caller's PID in the namespace of the /proc mount (readlink /proc/self). */
static pid_t proc_view_pid(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

/* Wait at most 5 s until a child stored its /proc PID in *@p. */
static pid_t wait_proc_pid(volatile pid_t *p)
{
	struct timespec tick = { 0, 2000000 };

	for (int i = 0; i < 2500 && !*p; i++)
		nanosleep(&tick, NULL);
	return *p;
}

/* --- orphans of a process whose children are in another namespace -------- */

struct adoption {
	pid_t orphan_outer;	/* the orphan's PID in the outer namespace (O's) */
	pid_t orphan_ppid;	/* its getppid() after its parent died */
	pid_t orphan_self;	/* its getpid() */
	pid_t reaped[4];	/* what O's waits returned, in order */
	int code[4];
	int nreaped;
	int inner_init_reaped;	/* the inner init reaped the orphan */
	volatile pid_t inner_proc;	/* the inner init's PID in the view of /proc */
};

/* The orphan: arm PR_SET_PDEATHSIG, say so on @ready, report after the parent's death, exit 7. */
static int orphan(struct adoption *a, int ready)
{
	sigset_t set = pidns_block_signal(SIGUSR1);

	if (prctl(PR_SET_PDEATHSIG, SIGUSR1))
		return child_fail("PR_SET_PDEATHSIG: %m");
	a->orphan_self = getpid();
	if (write(ready, "r", 1) != 1)
		return child_fail("tell the parent: %m");
	if (pidns_wait_signal(&set, NULL) != SIGUSR1)
		return child_fail("no death signal: %m");
	a->orphan_ppid = getppid();
	return 7;
}

/*
 * Inner init: reap whatever comes until the orphan has reported (at most 20 s: its exit
 * would kill the orphan, and a loaded TCG guest took more than 5 s), then exit.
 */
static int inner_init(struct adoption *a)
{
	struct timespec tick = { 0, 5000000 };
	int st, i;

	a->inner_proc = proc_view_pid();
	for (i = 0; i < 4000 && a->orphan_ppid == -1; i++) {
		if (waitpid(-1, &st, WNOHANG) > 0)
			a->inner_init_reaped = 1;
		nanosleep(&tick, NULL);
	}
	for (i = 0; i < 20; i++) {
		if (waitpid(-1, &st, WNOHANG) > 0)
			a->inner_init_reaped = 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

/*
 * S: move the next children into another PID namespace (setns into
 * @target's, or unshare), fork the orphan-to-be (with unshare: after a
 * first child, the new namespace's init), and exit once it is armed.
 */
static int mover(struct adoption *a, bool use_setns)
{
	pid_t c, first = 0;
	int fd, p[2];
	char b;

	prctl(PR_SET_PDEATHSIG, 0);
	if (use_setns) {
		fd = ns_open(wait_proc_pid(&a->inner_proc), "pid");
		if (fd < 0 || setns(fd, CLONE_NEWPID))
			return child_fail("setns into the inner namespace: %m");
		close(fd);
	} else {
		if (unshare(CLONE_NEWPID))
			return child_fail("unshare(CLONE_NEWPID): %m");
		/*
		 * Not ns_clone(): its child dies with its parent until it disarms that,
		 * and we may exit first (once in a loaded sweep: the inner init died,
		 * and the orphan with it).
		 */
		first = pidns_plain_fork();
		if (first < 0)
			return child_fail("fork the inner init: %m");
		if (first == 0)
			_exit(inner_init(a));
	}
	if (pipe(p))
		return child_fail("pipe: %m");
	c = fork();
	if (c < 0)
		return child_fail("fork: %m");
	if (c == 0)
		_exit(orphan(a, p[1]));
	a->orphan_outer = c;
	close(p[1]);
	if (read(p[0], &b, 1) != 1)
		return child_fail("the orphan did not get ready");
	return 0;
}

/* O, init of the outer namespace: make the inner one (setns case), run S, reap everything. */
static int outer_init(struct adoption *a, bool use_setns)
{
	pid_t inner = 0, s;
	int code;

	if (use_setns) {
		inner = ns_clone(CLONE_NEWPID);
		if (inner < 0)
			return child_fail("clone(CLONE_NEWPID): %m");
		if (inner == 0)
			_exit(inner_init(a));
	}
	s = ns_clone(0);
	if (s < 0)
		return child_fail("fork: %m");
	if (s == 0)
		_exit(mover(a, use_setns));
	while (a->nreaped < 3) {
		pid_t r = pidns_wait_any(&code, 20000);

		if (r <= 0)
			break;
		a->reaped[a->nreaped] = r;
		a->code[a->nreaped++] = code;
	}
	return 0;
}

/* Did O reap the orphan (exit 7) itself? */
static bool reaped_orphan(const struct adoption *a)
{
	for (int i = 0; i < a->nreaped; i++)
		if (a->reaped[i] == a->orphan_outer && a->code[i] == 7)
			return true;
	return false;
}

static void run_adoption(struct __test_metadata *_metadata, bool use_setns)
{
	struct adoption *a = ns_shared_page(4096);
	pid_t o;

	ASSERT_NE(NULL, a);
	a->orphan_ppid = -1;
	o = pidns_new_child(0);
	ASSERT_GE(o, 0);
	if (o == 0)
		_exit(outer_init(a, use_setns));
	ASSERT_EQ(0, pidns_reap(o, 3 * NS_WAIT_MS));
	ASSERT_GT(a->orphan_outer, 0);
	/* Inside: the orphan's new parent is outside its namespace. */
	EXPECT_EQ(0, a->orphan_ppid);
	EXPECT_NE(a->orphan_outer, a->orphan_self);
	/* Outside: the outer init, not the inner one, reaped it. */
	EXPECT_TRUE(reaped_orphan(a)) TH_LOG("the orphan was not reaped by the outer init");
	EXPECT_EQ(0, a->inner_init_reaped);
}

/*
 * An orphan whose parent setns()'d it into a child PID namespace goes to the init of the parent's
 * namespace (pid_namespaces(7)).
 *
 * S setns()es into a child PID namespace B (its init does wait(2)), forks
 * C there and exits: C goes to the init of S's namespace, not to B's init.
 */
TEST_F(pidns, orphan_of_setns_caller_goes_to_callers_namespace_init)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_adoption(_metadata, true);
}

/*
 * An orphan whose parent unshare()d CLONE_NEWPID goes to the init of the parent's namespace, not
 * its own (pid_namespaces(7)).
 *
 * S unshare()s, forks B's init and then C (PID 2 in B) and exits: C, a
 * member of B, goes to the init of S's namespace, not to B's own init.
 */
TEST_F(pidns, orphan_of_unshare_caller_goes_to_callers_namespace_init)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_adoption(_metadata, false);
}

/* --- unshare(CLONE_NEWPID) only once ---------------------------------------- */

struct twice {
	int second_unshare;	/* -errno of the second unshare(CLONE_NEWPID) */
	int clone_newpid;	/* -errno of clone(CLONE_NEWPID) after it */
	int after_child;	/* -errno of unshare(CLONE_NEWPID) after the first child */
	int same_for_children;	/* pid_for_children unchanged by the failures */
};

static int clone_newpid_errno(void)
{
	pid_t pid = ns_clone(CLONE_NEWPID);

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -errno;
	ns_wait(pid, NS_WAIT_MS);
	return 0;
}

static int unshare_twice(struct twice *t)
{
	struct ns_ident before, after;
	pid_t first;

	if (ns_unshare_admin(CLONE_NEWPID))
		return child_fail("first unshare(CLONE_NEWPID): %m");
	t->second_unshare = unshare(CLONE_NEWPID) ? -errno : 0;
	t->clone_newpid = clone_newpid_errno();
	first = ns_clone(0);
	if (first < 0)
		return child_fail("fork: %m");
	if (first == 0) {
		pause();
		_exit(0);
	}
	if (ns_ident_of(0, "pid_for_children", &before))
		return child_fail("pid_for_children: %m");
	t->after_child = unshare(CLONE_NEWPID) ? -errno : 0;
	if (ns_ident_of(0, "pid_for_children", &after))
		return child_fail("pid_for_children: %m");
	t->same_for_children = ns_ident_eq(&before, &after);
	kill(first, SIGKILL);
	ns_wait(first, NS_WAIT_MS);
	return 0;
}

/*
 * A process may unshare(CLONE_NEWPID) only once: a second unshare, or clone(CLONE_NEWPID), is
 * EINVAL (pid_namespaces(7)).
 *
 * The kernel refuses a new PID namespace while pid_for_children differs
 * from the caller's own: before and after the first child, and for
 * clone(CLONE_NEWPID) alike.
 */
TEST_F(pidns, second_unshare_newpid_is_einval)
{
	pid_t pid;

	PIDNS_REC(struct twice, t);
	t->second_unshare = t->clone_newpid = t->after_child = 1;
	pid = pidns_track(ns_clone(0));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(unshare_twice(t));
	ASSERT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	EXPECT_EQ(-EINVAL, t->second_unshare);
	EXPECT_EQ(-EINVAL, t->clone_newpid);
	EXPECT_EQ(-EINVAL, t->after_child);
	EXPECT_EQ(1, t->same_for_children);
}

/* --- threads after entering ------------------------------------------------- */

static void *thread_fn(void *arg)
{
	return arg;
}

static int thread_errno(void)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, thread_fn, NULL);

	if (!err)
		pthread_join(t, NULL);
	return -err;
}

struct thread_try {
	int before;		/* pthread_create() before entering */
	int after;		/* pthread_create() after entering */
	int fork_after;		/* a plain child still works */
	volatile pid_t inner_proc;	/* the inner init's PID in the view of /proc */
};

static int threads_after(struct thread_try *t, bool use_setns)
{
	pid_t c;
	int fd;

	t->before = thread_errno();
	if (use_setns) {
		fd = ns_open(wait_proc_pid(&t->inner_proc), "pid");
		if (fd < 0 || setns(fd, CLONE_NEWPID))
			return child_fail("setns: %m");
	} else if (unshare(CLONE_NEWPID)) {
		return child_fail("unshare(CLONE_NEWPID): %m");
	}
	t->after = thread_errno();
	c = ns_clone(0);
	if (c == 0)
		_exit(getpid() == (use_setns ? 2 : 1) ? 0 : 5);
	t->fork_after = c < 0 ? -errno : ns_wait(c, NS_WAIT_MS);
	return 0;
}

/* O, init of a namespace of the test: enter a child namespace (setns or unshare), try a thread. */
static int thread_init(struct thread_try *t, bool use_setns)
{
	pid_t inner = 0;
	int rc;

	if (use_setns) {
		inner = ns_clone(CLONE_NEWPID);
		if (inner < 0)
			return child_fail("clone(CLONE_NEWPID): %m");
		if (inner == 0) {
			t->inner_proc = proc_view_pid();
			pause();
			_exit(0);
		}
	}
	rc = threads_after(t, use_setns);
	if (inner) {
		kill(inner, SIGKILL);
		ns_wait(inner, NS_WAIT_MS);
	}
	return rc;
}

static void run_threads(struct __test_metadata *_metadata, bool use_setns)
{
	struct thread_try *t = ns_shared_page(4096);
	pid_t o;

	ASSERT_NE(NULL, t);
	t->before = t->after = t->fork_after = 1;
	o = pidns_new_child(0);
	ASSERT_GE(o, 0);
	if (o == 0)
		_exit(thread_init(t, use_setns));
	ASSERT_EQ(0, pidns_reap(o, NS_WAIT_MS));
	EXPECT_EQ(0, t->before);
	EXPECT_EQ(-EINVAL, t->after);
	EXPECT_EQ(0, t->fork_after);
}

/*
 * After unshare(CLONE_NEWPID) a new thread is refused with EINVAL; threads stay in one PID
 * namespace (pid_namespaces(7)).
 *
 * Threads must share a PID namespace, so once a process's children go to
 * another one, clone(CLONE_THREAD) (pthread_create()) fails with EINVAL
 * while fork() still works (copy_process() compares the caller's PID
 * namespace with pid_for_children for CLONE_THREAD).
 */
TEST_F(pidns, thread_after_unshare_newpid_is_einval)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_threads(_metadata, false);
}

/*
 * After setns() into a child PID namespace a new thread is refused with EINVAL (pid_namespaces(7)).
 */
TEST_F(pidns, thread_after_setns_pidns_is_einval)
{
	NS_NEED_ADMIN_OR_USERNS();
	run_threads(_metadata, true);
}

/* --- CLONE_NEWPID with CLONE_VM and CLONE_SIGHAND --------------------------- */

struct vm_child {
	pid_t self;
	struct ns_ident pid_ns;
	volatile int shared;
	int go[2];
};

static int vm_child_fn(void *arg)
{
	struct vm_child *v = arg;
	char b;

	if (read(v->go[0], &b, 1) != 1)
		return 1;
	v->self = getpid();
	ns_ident_of(0, "pid", &v->pid_ns);
	v->shared = 1;
	return 0;
}

/*
 * The child is the init of its namespace and shares our signal handlers:
 * when it exits, the kernel sets SIGCHLD to SIG_IGN in that shared table
 * (zap_pid_ns_processes()), so it is reaped at once and wait(2) may give
 * ECHILD.  Its end is seen through a pidfd instead.
 */
static int clone_vm_sighand(struct vm_child *v)
{
	size_t size = 256 * 1024;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	struct pollfd pfd = { .events = POLLIN };
	pid_t pid;

	if (stack == MAP_FAILED || pipe(v->go))
		return child_fail("mmap, pipe: %m");
	/* A private page: only CLONE_VM makes the child's writes visible. */
	pid = clone(vm_child_fn, stack + size, CLONE_NEWPID | CLONE_VM | CLONE_SIGHAND | SIGCHLD,
		    v);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWPID | CLONE_VM | CLONE_SIGHAND): %m");
	pfd.fd = ns_pidfd_open(pid);
	if (write(v->go[1], "g", 1) != 1)
		return child_fail("write: %m");
	if (pfd.fd < 0) {
		/* No pidfd (before 5.3): the child ends well within a second. */
		sleep(1);
	} else if (poll(&pfd, 1, NS_WAIT_MS) != 1) {
		kill(pid, SIGKILL);
		return child_fail("the child did not end");
	}
	if (v->shared != 1)
		return child_fail("the child's writes are not in our memory: no CLONE_VM");
	if (v->self != 1)
		return child_fail("the child is PID %d, not 1", v->self);
	return 0;
}

static int vm_sighand_runner(void *arg)
{
	struct vm_child *shared = arg, local = { 0 };
	int rc;

	/* Root of a user namespace when unprivileged, so CLONE_NEWPID works. */
	if (ns_unshare_admin(0))
		return child_fail("user namespace: %m");
	rc = clone_vm_sighand(&local);
	*shared = local;
	return rc;
}

/*
 * clone(CLONE_NEWPID | CLONE_VM | CLONE_SIGHAND) works: the child is PID 1 and shares the caller's
 * memory (pid_namespaces(7)).
 *
 * Before 4.3 (CLONE_SIGHAND) and 3.12 (CLONE_VM) these were EINVAL with
 * CLONE_NEWPID; the page says both restrictions are gone.
 */
TEST_F(pidns, clone_newpid_with_clone_vm_and_sighand_works)
{
	struct ns_ident own;
	pid_t pid;

	PIDNS_REC(struct vm_child, v);
	ASSERT_EQ(0, ns_ident_of(0, "pid", &own));
	pid = pidns_track(ns_clone(0));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(vm_sighand_runner(v));
	ASSERT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	EXPECT_EQ(1, v->self);
	EXPECT_EQ(1, v->shared);
	EXPECT_FALSE(ns_ident_eq(&own, &v->pid_ns));
}

TEST_HARNESS_MAIN
