// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces, part 3: the namespace init as reaper of orphans and as a
 * protected process, and what its death does to the namespace.
 * Sources: pid_namespaces(7), the article's part 4 (orphan.c,
 * simple_init.c), prctl(2), kill(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* --- orphans (orphan.c) --------------------------------------------------- */

struct orphan_rec {
	pid_t parent_before;	/* getppid() while the first parent lived */
	pid_t parent_after;	/* getppid() once it has exited */
	pid_t self;
};

/*
 * The orphan B: learn of its parent's death through PR_SET_PDEATHSIG (sent
 * after the kernel has reparented it), report, then wait for "go".
 */
static int orphan(int sock, struct ns_sync *s, int tell_parent)
{
	sigset_t set = pidns_block_signal(SIGUSR1);
	struct orphan_rec r = { .parent_before = getppid(), .self = getpid() };

	if (prctl(PR_SET_PDEATHSIG, SIGUSR1))
		return child_fail("PR_SET_PDEATHSIG: %m");
	if (getppid() != r.parent_before)
		return child_fail("parent died before PR_SET_PDEATHSIG");
	if (write(tell_parent, "x", 1) != 1)
		return child_fail("write: %m");
	if (pidns_wait_signal(&set, NULL) != SIGUSR1)
		return child_fail("no death signal from our parent: %m");
	r.parent_after = getppid();
	if (pidns_send_creds(sock, &r, sizeof(r)))
		return child_fail("send credentials: %m");
	return ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS) ? 1 : 7;
}

/* A: fork the orphan B, wait until it is armed, exit. */
static int orphan_parent(int sock, struct ns_sync *s)
{
	int p[2];
	char b;

	if (pipe(p))
		return child_fail("pipe: %m");
	switch (pidns_plain_fork()) {
	case -1:
		return child_fail("fork: %m");
	case 0:
		close(p[0]);
		_exit(orphan(sock, s, p[1]));
	}
	close(p[1]);
	return read(p[0], &b, 1) == 1 ? 0 : child_fail("orphan not armed");
}

struct reaper_rec {
	pid_t self;		/* the reaper's PID in the namespace */
	pid_t reaped[2];	/* what wait() returned */
	int code[2];
	int echild;		/* no child left afterwards */
};

/*
 * The reaper: the namespace init (@subreaper false) or a child of it that
 * made itself a subreaper.  Forks A, which forks the orphan B and exits.
 */
static int reaper(int sock, struct ns_sync *s, bool subreaper)
{
	struct reaper_rec r = { .self = getpid() };
	pid_t a;
	int code;

	ns_sync_child_side(s);
	if (subreaper && prctl(PR_SET_CHILD_SUBREAPER, 1))
		return child_fail("PR_SET_CHILD_SUBREAPER: %m");
	a = ns_clone(0);
	if (a < 0)
		return child_fail("fork: %m");
	if (a == 0)
		_exit(orphan_parent(sock, s));
	for (int i = 0; i < 2; i++) {
		r.reaped[i] = pidns_wait_any(&r.code[i], NS_WAIT_MS);
		if (r.reaped[i] <= 0)
			return child_fail("wait for child %d: %m", i);
	}
	r.echild = pidns_wait_any(&code, 0) < 0 && errno == ECHILD;
	ns_sync_tell(s, true, &r, sizeof(r));
	return 0;
}

static int orphan_init(int sock, struct ns_sync *s, bool subreaper)
{
	pid_t pid;

	if (!subreaper)
		return reaper(sock, s, false);
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(reaper(sock, s, true));
	return ns_wait(pid, 2 * NS_WAIT_MS);
}

/* Run the orphan scenario; return the reaper's record, fill in the orphan's. */
static struct reaper_rec run_orphan(struct __test_metadata *_metadata, bool subreaper,
				    struct orphan_rec *orec)
{
	struct reaper_rec rr;
	struct ns_sync s;
	pid_t init, b;
	long ppid;
	int sv[2];

	ASSERT_EQ(0, pidns_cred_pair(sv));
	init = ns_clone_synced(pidns_new_child, 0, &s);
	ASSERT_GE(init, 0);
	if (init == 0)
		_exit(orphan_init(sv[1], &s, subreaper));
	ASSERT_EQ(0, pidns_recv_creds(sv[0], orec, sizeof(*orec), &b, NS_WAIT_MS));
	/* From outside: the orphan's parent is now the reaper. */
	ppid = pidns_status_field(b, "PPid:");
	if (subreaper)
		ppid = pidns_status_field(ppid, "PPid:");
	EXPECT_EQ(init, ppid);
	ns_sync_tell(&s, false, NULL, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, &rr, sizeof(rr), 2 * NS_WAIT_MS));
	/* Reaped: no zombie is left behind in /proc. */
	EXPECT_EQ(0, pidns_proc_state(b));
	EXPECT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	ns_sync_close(&s);
	return rr;
}

/*
 * The orphan tests' set-up: the user-namespace probe, then run_orphan() into the records
 * @o and @rr.
 */
#define ORPHAN_RUN(subreaper, o, rr)						\
	struct orphan_rec o;							\
	struct reaper_rec rr;							\
	NS_NEED_ADMIN_OR_USERNS();						\
	rr = run_orphan(_metadata, subreaper, &o)

/*
 * An orphan is reparented to the namespace's init: getppid() becomes 1 (pid_namespaces(7),
 * orphan.c).
 */
TEST_F(pidns, orphan_is_reparented_to_namespace_init)
{
	ORPHAN_RUN(false, o, rr);

	EXPECT_EQ(2, o.parent_before);
	EXPECT_EQ(1, o.parent_after);
	EXPECT_EQ(1, rr.self);
}

/*
 * The namespace's init reaps the orphans it adopted: no zombie remains (pid_namespaces(7),
 * simple_init.c).
 */
TEST_F(pidns, namespace_init_reaps_orphans_leaving_no_zombie)
{
	ORPHAN_RUN(false, o, rr);

	/* A (2) exits 0 first, then the orphan B (3) with 7. */
	EXPECT_EQ(2, rr.reaped[0]);
	EXPECT_EQ(0, rr.code[0]);
	EXPECT_EQ(o.self, rr.reaped[1]);
	EXPECT_EQ(7, rr.code[1]);
	EXPECT_TRUE(rr.echild);
}

/*
 * With PR_SET_CHILD_SUBREAPER inside the namespace, orphans go to the subreaper, not init
 * (pid_namespaces(7), prctl(2)).
 */
TEST_F(pidns, orphan_goes_to_subreaper_inside_namespace)
{
	ORPHAN_RUN(true, o, rr);

	EXPECT_EQ(2, rr.self);
	EXPECT_EQ(3, o.parent_before);
	EXPECT_EQ(rr.self, o.parent_after);
	EXPECT_EQ(o.self, rr.reaped[1]);
	EXPECT_EQ(7, rr.code[1]);
}

/* --- init is protected ---------------------------------------------------- */

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	handled = sig;
}

static int inside_sender(void)
{
	static const int sigs[] = { SIGTERM, SIGKILL, SIGINT, SIGHUP, SIGUSR1, SIGQUIT };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		kill(1, sigs[i]);
	if (kill(1, 0))
		return child_fail("init is gone: %m");
	/* A signal init does handle gets through: kill() really works. */
	if (kill(1, SIGUSR2))
		return child_fail("kill(1, SIGUSR2): %m");
	return 0;
}

static int protected_init(void)
{
	pid_t g;
	int rc;

	if (getpid() != 1)
		return child_fail("not PID 1 (%d)", getpid());
	signal(SIGUSR2, on_signal);
	g = ns_clone(0);
	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0)
		_exit(inside_sender());
	rc = ns_wait(g, NS_WAIT_MS);
	if (rc)
		return child_fail("sender failed (%d)", rc);
	/* The handler ran before wait returned (the signal preceded the exit). */
	return handled == SIGUSR2 ? 0 : child_fail("SIGUSR2 was not handled");
}

/*
 * Signals init has no handler for, sent from inside, do not kill it, SIGKILL included
 * (pid_namespaces(7)).
 */
TEST_F(pidns, init_survives_unhandled_signals_from_inside)
{
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();
	pid = pidns_new_child(0);

	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(protected_init());
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
}

static int wait_handled_init(struct ns_sync *s, void *arg)
{
	struct timespec ts = { 10, 0 };
	sigset_t none;

	(void)arg;
	ns_sync_child_side(s);
	pidns_block_signal(SIGUSR1);
	signal(SIGUSR1, on_signal);
	sigemptyset(&none);
	ns_sync_tell(s, true, NULL, 0);
	/* SIGUSR1 is unblocked only here; the handler interrupts ppoll. */
	while (!handled && ppoll(NULL, 0, &ts, &none) < 0 && errno == EINTR)
		;
	return handled == SIGUSR1 ? 0 : child_fail("SIGUSR1 not handled");
}

/*
 * From the parent namespace only signals init handles reach it: unhandled SIGTERM and SIGINT are
 * dropped (pid_namespaces(7)).
 *
 * SIGKILL and SIGSTOP are the exception: they always get through.
 */
TEST_F(pidns, init_ignores_unhandled_sigterm_from_parent_namespace)
{
	struct ns_sync s;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	pid = pidns_start_synced(&s, 0, wait_handled_init, NULL);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, kill(pid, SIGTERM));
	EXPECT_EQ(0, kill(pid, SIGINT));
	EXPECT_EQ(0, kill(pid, SIGUSR1));
	EXPECT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

static int ignoring_init(struct ns_sync *s)
{
	pid_t self = getpid();

	ns_sync_child_side(s);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_IGN);
	ns_sync_tell(s, true, &self, sizeof(self));
	/* Exits 3 if nothing kills it within 5 s. */
	ns_sync_wait(s, true, NULL, 0, 5000);
	return 3;
}

/* SIGKILL from the parent namespace kills the namespace's init (pid_namespaces(7)). */
TEST_F(pidns, init_is_killed_by_sigkill_from_parent_namespace)
{
	struct ns_sync s;
	pid_t pid, inside;

	NS_NEED_ADMIN_OR_USERNS();

	pid = ns_clone_synced(pidns_new_child, 0, &s);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(ignoring_init(&s));
	ASSERT_EQ(0, ns_sync_wait(&s, false, &inside, sizeof(inside), NS_WAIT_MS));
	ASSERT_EQ(1, inside);
	EXPECT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(128 + SIGKILL, pidns_reap(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* --- init's death takes the namespace with it ----------------------------- */

/* A process that only SIGKILL can end: report, then wait up to 20 s. */
static int hardy(int sock, int hold)
{
	struct pollfd p = { .fd = hold, .events = POLLIN };
	char b = 'h';

	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_IGN);
	if (pidns_send_creds(sock, &b, 1))
		return child_fail("send credentials: %m");
	poll(&p, 1, 20000);
	return 3;
}

static int doomed_init(int sock, int hold, struct ns_sync *s)
{
	pid_t g = pidns_plain_fork();

	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0)
		_exit(hardy(sock, hold));
	ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
	return 5;
}

/* H: unshare(CLONE_NEWPID), fork init I, then X into the same namespace. */
static int doomed_holder(int sock, int hold, struct ns_sync *s)
{
	pid_t init, x;
	int rx, ri;

	ns_sync_child_side(s);
	if (ns_unshare_admin(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	init = ns_clone(0);
	if (init < 0)
		return child_fail("fork init: %m");
	if (init == 0)
		_exit(doomed_init(sock, hold, s));
	x = ns_clone(0);
	if (x < 0)
		return child_fail("fork second: %m");
	if (x == 0)
		_exit(hardy(sock, hold));
	rx = ns_wait(x, NS_WAIT_MS);
	ri = ns_wait(init, NS_WAIT_MS);
	if (ri != 5)
		return child_fail("init ended with %d, not its own exit 5", ri);
	if (rx != 128 + SIGKILL)
		return child_fail("our child in the namespace ended with %d, not SIGKILL", rx);
	return 0;
}

/*
 * When init terminates, the kernel SIGKILLs every other process in the namespace; the parent reaps
 * the whole tree (pid_namespaces(7)).
 *
 * X is a child of the process outside that unshared, so its SIGKILL status is
 * seen by a parent outside the namespace.
 */
TEST_F(pidns, init_exit_sigkills_every_process_in_namespace)
{
	pid_t h, members[2];
	struct ns_sync s;
	int sv[2], hold[2];
	char b;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, pidns_cred_pair(sv));
	ASSERT_EQ(0, pipe2(hold, O_CLOEXEC));
	h = pidns_track(ns_clone_synced(ns_clone, 0, &s));
	ASSERT_GE(h, 0);
	if (h == 0)
		_exit(doomed_holder(sv[1], hold[0], &s));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, pidns_recv_creds(sv[0], &b, 1, &members[i], NS_WAIT_MS));
		ASSERT_NE(0, pidns_proc_state(members[i]));
		EXPECT_EQ(0, ns_same_as_self(members[i], "pid"));
	}
	/* Let init exit normally. */
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(h, NS_WAIT_MS));
	for (int i = 0; i < 2; i++)
		EXPECT_EQ(0, pidns_proc_state(members[i]));
	ns_sync_close(&s);
	close(hold[1]);
}

TEST_HARNESS_MAIN
