// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for PID-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* --- one kill() of a process group, receivers in two PID namespaces ---------- */

#define NRECV 3
#define INNER 1		/* receiver 1 is init of a new PID namespace */

struct recv_report {
	int got[NRECV];
	pid_t spid[NRECV];
	uid_t suid[NRECV];
	int scode[NRECV];
};

static void receiver(struct recv_report *r, int i, int ready)
{
	struct timespec t = { .tv_sec = 5 };
	siginfo_t si;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (write(ready, "x", 1) != 1)
		_exit(child_fail("receiver %d: tell ready: %m", i));
	if (sigtimedwait(&set, &si, &t) != SIGUSR1)
		_exit(child_fail("receiver %d: no SIGUSR1 within 5 s: %m", i));
	r->got[i] = 1;
	r->spid[i] = si.si_pid;
	r->suid[i] = si.si_uid;
	r->scode[i] = si.si_code;
	_exit(0);
}

static int pgrp_worker(void *arg)
{
	struct recv_report *r = ns_shared_page(sizeof(*r));
	pid_t pids[NRECV], me = getpid();
	int p[2], rc = 0, i, n;
	sigset_t set;
	char buf[NRECV];

	(void)arg;
	if (!r || pipe(p))
		return child_fail("shared page or pipe: %m");
	/* A process group of our own, the receivers' SIGUSR1 blocked until they wait. */
	if (setpgid(0, 0))
		return child_fail("setpgid: %m");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return child_fail("block SIGUSR1: %m");
	for (i = 0; i < NRECV; i++) {
		pids[i] = i == INNER ? ns_clone_admin(CLONE_NEWPID) : fork();
		if (pids[i] < 0)
			return child_fail("receiver %d: %m", i);
		if (pids[i] == 0) {
			close(p[0]);
			receiver(r, i, p[1]);
		}
	}
	close(p[1]);
	for (n = 0; n < NRECV; ) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		ssize_t got;

		if (poll(&pf, 1, 5000) <= 0 || (got = read(p[0], buf, NRECV - n)) <= 0)
			break;
		n += got;
	}
	close(p[0]);
	/* kill(0, ...) reaches the group, us too: SIGUSR1 stays blocked here. */
	if (n != NRECV)
		rc = child_fail("only %d of %d receivers ready", n, NRECV);
	else if (kill(0, SIGUSR1))
		rc = child_fail("kill(0, SIGUSR1): %m");
	for (i = 0; i < NRECV; i++) {
		int st = ns_wait(pids[i], NS_WAIT_MS);

		if (st && !rc)
			rc = child_fail("receiver %d exited with %d", i, st);
	}
	if (rc)
		return rc;
	for (i = 0; i < NRECV; i++) {
		pid_t want = i == INNER ? 0 : me;

		if (!r->got[i] || r->scode[i] != SI_USER)
			return child_fail("receiver %d: got %d, si_code %d", i, r->got[i],
					  r->scode[i]);
		if (r->spid[i] != want)
			return child_fail("receiver %d (%s): si_pid %d, expected %d", i,
					  i == INNER ? "in the new PID namespace" :
					  "in the sender's PID namespace", r->spid[i], want);
		if (i != INNER && r->suid[i] != getuid())
			return child_fail("receiver %d in the sender's namespaces: si_uid %u, "
					  "expected %u", i, r->suid[i], getuid());
	}
	return 0;
}

/*
 * A signal from a process the receiver's PID namespace cannot see carries
 * si_pid 0 (pid_namespaces(7): "the sender's PID ... is 0" when the sender
 * is in an ancestor namespace), and the translation is the receiver's
 * alone: one kill() of a process group reaches members in the sender's
 * namespace with the sender's PID and UID, whichever member came first
 * (fix "signal: avoid shared siginfo namespace rewrites", Debian 6.1.190
 * and 6.12.111: send_signal_locked() rewrote the siginfo shared by all
 * receivers, so members after one in the new namespace saw si_pid 0).
 * Both sides: the receiver in the new namespace sees 0.
 */
TEST(group_kill_translates_si_pid_per_receiver)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run(0, pgrp_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- pidfd polling when a thread-group leader exits before its threads ---- */

/* The leader's answer when it could not start its thread. */
#define NO_THREAD 3

/* The thread left behind: it ends, and with it the process, when @arg's pipe speaks. */
static void *left_thread(void *arg)
{
	struct pollfd pf = { .fd = *(int *)arg, .events = POLLIN };
	char c;

	if (poll(&pf, 1, NS_WAIT_MS) > 0 && read(pf.fd, &c, 1) < 0)
		return NULL;
	return NULL;
}

/* The state letter of process @pid (/proc/PID/stat), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* poll() of @fd for at most @ms: its revents, or -errno. */
static int poll_in(int fd, int ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	int n = poll(&pf, 1, ms);

	return n < 0 ? -errno : n ? pf.revents : 0;
}

/*
 * A PIDFD_THREAD pidfd (pidfd_open(2), 6.9) reports the exit of its thread
 * as readable; that of a thread-group leader whose other threads still
 * run, not until the whole group has exited (fix "pidfs: improve
 * multi-threaded exec and premature thread-group leader exit polling",
 * linux:0fb482728ba1, Debian 6.12.32: before it the leader's own exit made
 * its PIDFD_THREAD pidfd readable, and stopped doing so if a remaining
 * thread then exec'd and took the leader's pid).  A leader that exits
 * (_exit of the thread alone) leaving one thread: its PIDFD_THREAD pidfd
 * is not readable within 200 ms.  Both sides: its process pidfd is not
 * readable either; once the last thread ends both are.
 */
TEST(pidfd_thread_of_early_exited_leader_not_readable)
{
	int p[2], tfd, pfd, n, st;
	pid_t pid;
	long t0;

	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t th;

		close(p[1]);
		if (pthread_create(&th, NULL, left_thread, &p[0]))
			_exit(NO_THREAD);
		syscall(SYS_exit, 0);	/* the leader alone */
	}
	close(p[0]);
	tfd = syscall(SYS_pidfd_open, pid, PIDFD_THREAD);
	n = errno;
	pfd = ns_pidfd_open(pid);
	for (t0 = ns_now_ms(); proc_state(pid) != 'Z' && ns_now_ms() - t0 < NS_WAIT_MS; )
		usleep(10000);
	st = proc_state(pid);
	if (tfd < 0) {
		close(p[1]);
		ASSERT_EQ(0, ns_wait(pid, NS_WAIT_MS));
		if (pfd >= 0)
			close(pfd);
		NS_NEED_ENV(n != EINVAL, NS_WHY_FEATURE, "PIDFD_THREAD", "6.9");
		NS_NEED_FEATURE(NS_F_PIDFD_OPEN, n == ENOSYS);
		ASSERT_LE(0, tfd) TH_LOG("pidfd_open(PIDFD_THREAD): %s", strerror(n));
	}
	/* The leader is a zombie, its thread runs: neither pidfd is readable. */
	EXPECT_EQ('Z', st);
	EXPECT_LE(0, pfd);
	EXPECT_EQ(0, poll_in(pfd, 0)) TH_LOG("the process pidfd, one thread still running");
	EXPECT_EQ(0, poll_in(tfd, 200)) TH_LOG("the leader's PIDFD_THREAD pidfd, its other "
					       "thread still running");
	/* The last thread ends: both are. */
	EXPECT_EQ(1, write(p[1], "x", 1));
	close(p[1]);
	EXPECT_EQ(POLLIN, poll_in(tfd, NS_WAIT_MS) & POLLIN);
	EXPECT_EQ(POLLIN, poll_in(pfd, NS_WAIT_MS) & POLLIN);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	close(tfd);
	close(pfd);
}

TEST_HARNESS_MAIN
