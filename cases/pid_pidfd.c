// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces, part 6: pidfds of processes in child PID namespaces refer
 * to those processes, and their fdinfo lists the PID at every level.
 * Sources: pidfd_open(2), pidfd_send_signal(2), proc(5).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/* --- pidfds ----------------------------------------------------------------- */

static int pidfd_fdinfo(int fd, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	return ns_read_file(path, buf, len);
}

static int pidfd_target(struct ns_sync *s, void *arg)
{
	sigset_t set;
	struct timespec ts = { 10, 0 };
	siginfo_t si;

	(void)arg;
	ns_sync_child_side(s);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	ns_sync_tell(s, true, NULL, 0);
	if (sigtimedwait(&set, &si, &ts) != SIGUSR1)
		return child_fail("no SIGUSR1 through the pidfd: %m");
	if (getpid() == 1 && si.si_pid == 0)
		return 9;
	return child_fail("pid %d, si_pid %d", getpid(), si.si_pid);
}

/*
 * A pidfd of a process in a child PID ns is that process: signals through it arrive, it reports its
 * exit (pidfd_open(2), 5.3+).
 */
TEST_F(pidns, pidfd_of_process_in_child_namespace_is_that_process)
{
	struct pollfd p = { .events = POLLIN };
	struct ns_sync s;
	char info[1024];
	siginfo_t si = { 0 };
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_PIDFD_OPEN);
	pid = pidns_start_synced(&s, 0, pidfd_target, NULL);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	p.fd = ns_pidfd_open(pid);
	ASSERT_LE(0, p.fd);
	ASSERT_LT(0, pidfd_fdinfo(p.fd, info, sizeof(info)));
	EXPECT_NE(NULL, strstr(info, "\nPid:"));
	EXPECT_EQ(pid, strtol(strstr(info, "\nPid:") + 5, NULL, 10));
	ASSERT_EQ(0, syscall(__NR_pidfd_send_signal, p.fd, SIGUSR1, NULL, 0));
	ASSERT_EQ(1, poll(&p, 1, NS_WAIT_MS));
	ASSERT_EQ(0, waitid(P_PIDFD, p.fd, &si, WEXITED));
	pidns_untrack(pid);
	EXPECT_EQ(pid, si.si_pid);
	EXPECT_EQ(CLD_EXITED, si.si_code);
	EXPECT_EQ(9, si.si_status);
	close(p.fd);
	ns_sync_close(&s);
}

static int two_deep(int sock)
{
	pid_t g = ns_clone(CLONE_NEWPID);

	if (g < 0)
		return child_fail("clone(CLONE_NEWPID): %m");
	if (g == 0) {
		char b = 'g';

		pidns_send_creds(sock, &b, 1);
		poll(NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	return ns_wait(g, NS_WAIT_MS);
}

/*
 * The fdinfo of a pidfd shows NSpid: the PID at every level, as /proc/PID/status does (proc(5),
 * 5.10+).
 */
TEST_F(pidns, pidfd_fdinfo_nspid_lists_pid_at_every_level)
{
	pid_t via_fd[PIDNS_MAX_LEVELS], via_proc[PIDNS_MAX_LEVELS], pid, g;
	char info[1024], b;
	int sv[2], fd, n;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_PIDFD_OPEN);
	ASSERT_EQ(0, pidns_cred_pair(sv));
	pid = pidns_new_child(0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(two_deep(sv[1]));
	ASSERT_EQ(0, pidns_recv_creds(sv[0], &b, 1, &g, NS_WAIT_MS));
	fd = ns_pidfd_open(g);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, pidfd_fdinfo(fd, info, sizeof(info)));
	n = pidns_parse_nspid(info, via_fd, PIDNS_MAX_LEVELS);
	if (n == -ENODATA)
		goto out;
	ASSERT_EQ(n, pidns_nspid(g, via_proc, PIDNS_MAX_LEVELS));
	ASSERT_EQ(pidns_self_levels() + 2, n);
	for (int i = 0; i < n; i++)
		EXPECT_EQ(via_proc[i], via_fd[i]);
	EXPECT_EQ(g, via_fd[n - 3]);
	EXPECT_EQ(2, via_fd[n - 2]);
	EXPECT_EQ(1, via_fd[n - 1]);
out:
	close(fd);
	kill(pid, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, pidns_reap(pid, NS_WAIT_MS));
	NS_NEED_FEATURE(NS_F_PIDFD_FDINFO_NSPID, n == -ENODATA);
}

TEST_HARNESS_MAIN
