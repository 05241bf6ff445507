// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: ids seen through files and sockets.  File owners are
 * translated by the reader's namespace (unmapped ones read as the overflow
 * ids), files created inside are owned by the mapped outer ids, and
 * SCM_CREDENTIALS / SO_PEERCRED report ids as the receiver sees them
 * (user_namespaces(7) "Interaction of user namespaces and other aspects",
 * unix(7)).
 *
 * Each test runs as an unprivileged process (ns_run_unpriv()) in both
 * passes; its child in a new user namespace is mapped "0 <euid> 1".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* --- files --------------------------------------------------------------- */

static int stat_inside(void *arg)
{
	const struct stat *out = arg;
	struct stat in, self;
	long ouid, ogid;

	if (ns_read_long("/proc/sys/kernel/overflowuid", &ouid) ||
	    ns_read_long("/proc/sys/kernel/overflowgid", &ogid))
		return child_fail("read overflowuid/gid: %m");
	if (stat("/", &in) || stat("/proc/self/", &self))
		return child_fail("stat inside: %m");
	if (in.st_uid != (uid_t)ouid || in.st_gid != (gid_t)ogid)
		return child_fail("'/' (owner %u:%u outside) reads %u:%u inside, not %ld:%ld",
				  out->st_uid, out->st_gid, in.st_uid, in.st_gid, ouid, ogid);
	/* Our own outer ids are mapped: they read as 0 inside. */
	if (self.st_uid != 0 || self.st_gid != 0)
		return child_fail("own /proc/self reads %u:%u inside, not 0:0",
				  self.st_uid, self.st_gid);
	return 0;
}

static int unmapped_owner(void *arg)
{
	struct stat out;

	(void)arg;
	if (stat("/", &out))
		return child_fail("stat /: %m");
	if (out.st_uid == geteuid() || out.st_gid == getegid())
		return child_fail("'/' is owned by the test's own ids: no unmapped owner");
	return ns_run_admin(0, stat_inside, &out);
}

/*
 * A file owned by an id unmapped in the reader's userns shows the overflow uid/gid; mapped ids show
 * inside values (user_namespaces(7)).
 */
TEST(file_owned_by_unmapped_uid_shows_overflow)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(unmapped_owner, NULL));
}

static int create_as_root(struct ns_sync *s)
{
	struct stat st;
	int fd;

	ns_sync_child_side(s);
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("user + mount namespace: %m");
	if (ns_private_tmp("mode=0755"))
		return 1;
	fd = open("/tmp/made-as-root", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || fstat(fd, &st))
		return child_fail("create /tmp/made-as-root: %m");
	close(fd);
	if (st.st_uid != 0 || st.st_gid != 0)
		return child_fail("created file reads %u:%u inside, not 0:0", st.st_uid, st.st_gid);
	if (ns_sync_tell(s, true, NULL, 0))
		return child_fail("tell parent: %m");
	ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
	return 0;
}

static int created_file_owner(void *arg)
{
	char path[64];
	struct ns_sync s;
	struct stat st;
	pid_t pid;
	int rc = 0;

	(void)arg;
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid == 0)
		_exit(create_as_root(&s));
	if (pid < 0 || ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS)) {
		rc = child_fail("creating child did not report");
	} else {
		/* Look at it from outside, through the child's root. */
		snprintf(path, sizeof(path), "/proc/%d/root/tmp/made-as-root", pid);
		if (stat(path, &st))
			rc = child_fail("stat %s from outside: %m", path);
		else if (st.st_uid != geteuid() || st.st_gid != getegid())
			rc = child_fail("file made as 0:0 inside is %u:%u outside, not %u:%u",
					st.st_uid, st.st_gid, geteuid(), getegid());
		ns_sync_tell(&s, false, NULL, 0);
	}
	if (pid > 0 && ns_wait(pid, NS_WAIT_MS))
		rc = rc ?: child_fail("creating child failed");
	ns_sync_close(&s);
	return rc;
}

/*
 * A file created by uid 0 of a user namespace is owned, seen from the parent, by the outer uid 0
 * maps to (user_namespaces(7)).
 */
TEST(file_created_as_root_inside_owned_by_outer_uid)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(created_file_owner, NULL));
}

/* --- credentials over unix sockets --------------------------------------- */

static int send_creds(int fd, pid_t pid, uid_t uid, gid_t gid)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	struct ucred uc = { .pid = pid, .uid = uid, .gid = gid };
	char byte = 'c';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(u.buf, 0, sizeof(u.buf));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(uc));
	memcpy(CMSG_DATA(c), &uc, sizeof(uc));
	return sendmsg(fd, &msg, 0) == 1 ? 0 : -1;
}

static int recv_creds(int fd, struct ucred *uc)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;

	if (recvmsg(fd, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_CREDENTIALS)
		return -1;
	memcpy(uc, CMSG_DATA(c), sizeof(*uc));
	return 0;
}

/* Inside: send our own view of ourselves, receive the parent's. */
static int creds_child(int fd, uid_t uid, gid_t gid)
{
	struct ucred uc;

	if (ns_map_root(0, uid, gid))
		return child_fail("map root: %m");
	if (getuid() != 0 || getpid() != 1)
		return child_fail("not uid 0 / pid 1 inside (%u, %d)", getuid(), getpid());
	if (send_creds(fd, getpid(), 0, 0))
		return child_fail("send SCM_CREDENTIALS: %m");
	if (recv_creds(fd, &uc))
		return child_fail("receive SCM_CREDENTIALS: %m");
	/* The parent's pid is not in our pid namespace: 0. */
	if (uc.uid != 0 || uc.gid != 0 || uc.pid != 0)
		return child_fail("parent's credentials read %d/%u/%u inside, expected 0/0/0",
				  uc.pid, uc.uid, uc.gid);
	return 0;
}

static int scm_both_ways(void *arg)
{
	struct ucred uc = { 0 };
	int sv[2], on = 1, rc;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	pid_t pid;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) ||
	    setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)))
		return child_fail("socketpair with SO_PASSCRED: %m");
	pid = ns_clone(CLONE_NEWUSER | CLONE_NEWPID);
	if (pid == 0) {
		close(sv[0]);
		_exit(creds_child(sv[1], uid, gid));
	}
	close(sv[1]);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWUSER | CLONE_NEWPID): %m");
	rc = recv_creds(sv[0], &uc) ? child_fail("receive SCM_CREDENTIALS: %m") : 0;
	if (!rc && (uc.pid != pid || uc.uid != geteuid() || uc.gid != getegid()))
		rc = child_fail("child's 1/0/0 read %d/%u/%u outside, expected %d/%u/%u",
				uc.pid, uc.uid, uc.gid, pid, geteuid(), getegid());
	if (!rc && send_creds(sv[0], getpid(), geteuid(), getegid()))
		rc = child_fail("send SCM_CREDENTIALS: %m");
	close(sv[0]);
	if (ns_wait(pid, NS_WAIT_MS))
		rc = rc ?: child_fail("child in the user namespace failed");
	return rc;
}

/*
 * SCM_CREDENTIALS across user and PID namespaces arrive translated into the receiver's, both ways
 * (user_namespaces(7), unix(7)).
 */
TEST(scm_credentials_translated_to_receiver)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(scm_both_ways, NULL));
}

static socklen_t abstract_addr(struct sockaddr_un *a, pid_t owner)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "nsconform-user-peercred-%d", owner);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a->sun_path + 1);
}

static int peercred_child(pid_t listener, uid_t uid, gid_t gid)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, listener);
	struct ucred uc;
	socklen_t ul = sizeof(uc);
	int fd;

	if (ns_map_root(0, uid, gid))
		return child_fail("map root: %m");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, len))
		return child_fail("connect to the listener: %m");
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ul))
		return child_fail("SO_PEERCRED: %m");
	if (uc.uid != 0 || uc.gid != 0 || uc.pid != 0)
		return child_fail("listener's credentials read %d/%u/%u inside, expected 0/0/0",
				  uc.pid, uc.uid, uc.gid);
	/* Stay connected until the parent has looked. */
	if (read(fd, &ul, 1) < 0)
		return child_fail("wait for the parent: %m");
	close(fd);
	return 0;
}

static int peercred_both_ways(void *arg)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, getpid());
	struct ucred uc = { 0 };
	socklen_t ul = sizeof(uc);
	int lfd, cfd = -1, rc = 0;
	pid_t pid, me = getpid();
	uid_t uid = geteuid();
	gid_t gid = getegid();

	(void)arg;
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, len) || listen(lfd, 1))
		return child_fail("listen on an abstract socket: %m");
	pid = ns_clone(CLONE_NEWUSER | CLONE_NEWPID);
	if (pid == 0)
		_exit(peercred_child(me, uid, gid));
	if (pid < 0)
		return child_fail("clone(CLONE_NEWUSER | CLONE_NEWPID): %m");
	cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (cfd < 0 || getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &uc, &ul))
		rc = child_fail("accept / SO_PEERCRED: %m");
	else if (uc.pid != pid || uc.uid != geteuid() || uc.gid != getegid())
		rc = child_fail("child (0/0 inside) reads %d/%u/%u outside, expected %d/%u/%u",
				uc.pid, uc.uid, uc.gid, pid, geteuid(), getegid());
	if (cfd >= 0)
		close(cfd);
	close(lfd);
	if (ns_wait(pid, NS_WAIT_MS))
		rc = rc ?: child_fail("child in the user namespace failed");
	return rc;
}

/*
 * SO_PEERCRED gives the peer's credentials in the reader's user and PID namespaces, on both ends
 * (user_namespaces(7), unix(7)).
 */
TEST(so_peercred_translated_to_receiver)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(peercred_both_ways, NULL));
}

/* --- /proc/PID/status ---------------------------------------------------- */

struct status_ids {
	pid_t test_pid;		/* the TEST's own process (real root in the root pass) */
	pid_t target;		/* a holder mapped "0 <uid> 1" */
	uid_t uid;
	gid_t gid;
};

/* The four ids of the Uid: and Gid: lines of /proc/@pid/status, as read here, are @uid/@gid. */
static int status_ids_are(pid_t pid, long uid, long gid)
{
	long u[4], g[4];
	char path[64], buf[4096], *pu, *pg;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return child_fail("read %s: %m", path);
	pu = strstr(buf, "\nUid:");
	pg = strstr(buf, "\nGid:");
	if (!pu || !pg || sscanf(pu + 5, "%ld %ld %ld %ld", &u[0], &u[1], &u[2], &u[3]) != 4 ||
	    sscanf(pg + 5, "%ld %ld %ld %ld", &g[0], &g[1], &g[2], &g[3]) != 4)
		return child_fail("no Uid:/Gid: lines in %s", path);
	for (int i = 0; i < 4; i++)
		if (u[i] != uid || g[i] != gid)
			return child_fail("%s reads Uid %ld %ld %ld %ld, Gid %ld %ld %ld %ld here, "
					  "expected %ld and %ld", path, u[0], u[1], u[2], u[3],
					  g[0], g[1], g[2], g[3], uid, gid);
	return 0;
}

/* Map our own ids to 7 and read the holder's status: 7, not its 0 nor the outer ids. */
static int status_read_as_7(void *arg)
{
	const struct status_ids *a = arg;
	int err;

	err = ns_map_at(0, 7, a->uid, a->gid);
	if (err) {
		errno = -err;
		return child_fail("map our ids to 7: %m");
	}
	return status_ids_are(a->target, 7, 7);
}

/* Nothing mapped here: the TEST's process reads as the overflow ids. */
static int status_read_unmapped(void *arg)
{
	const struct status_ids *a = arg;
	long ouid, ogid;

	if (ns_read_long("/proc/sys/kernel/overflowuid", &ouid) ||
	    ns_read_long("/proc/sys/kernel/overflowgid", &ogid))
		return child_fail("read overflowuid/gid: %m");
	return status_ids_are(a->test_pid, ouid, ogid);
}

static int status_views(void *arg)
{
	struct status_ids *a = arg;
	struct userns_holder h;
	char um[32], gm[32];
	int rc = 0;

	a->uid = geteuid();
	a->gid = getegid();
	snprintf(um, sizeof(um), "0 %u 1\n", a->uid);
	snprintf(gm, sizeof(gm), "0 %u 1\n", a->gid);
	if (userns_hold(&h, CLONE_NEWUSER, um, gm))
		return child_fail("holder in a new user namespace: %m");
	a->target = h.pid;
	if (h.in.uid != 0 || h.in.gid != 0)
		rc = child_fail("the holder is %u:%u inside, not 0:0", h.in.uid, h.in.gid);
	rc |= status_ids_are(h.pid, a->uid, a->gid);
	if (ns_run(CLONE_NEWUSER, status_read_as_7, a))
		rc = child_fail("reader mapping the holder's outer ids to 7");
	if (ns_run(CLONE_NEWUSER, status_read_unmapped, a))
		rc = child_fail("reader in a namespace without maps");
	if (userns_release(&h))
		rc = 1;
	return rc;
}

/*
 * /proc/PID/status shows the Uid and Gid of PID as the reader's user namespace maps them, the
 * overflow ids where it does not (user_namespaces(7)).
 *
 * The holder is 0:0 in its namespace; readers see it as the outer ids from
 * the parent and as 7:7 from a namespace mapping them to 7.  Unmapped: the
 * TEST's process, real root in the root pass.
 */
TEST(proc_status_ids_shown_in_readers_userns)
{
	struct status_ids a = { .test_pid = getpid() };

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(status_views, &a));
}

/* --- signals -------------------------------------------------------------- */

/* C: in a user namespace below R's, uid 0 once R mapped it to R's 7. */
static int sig_c(void)
{
	struct timespec ts = { .tv_sec = 10 };
	long deadline = ns_now_ms() + NS_WAIT_MS;
	siginfo_t si;
	sigset_t set;

	while (getuid() != 0 && ns_now_ms() < deadline)
		usleep(1000);
	if (getuid() != 0)
		return child_fail("C: no uid_map from R");
	if (kill(getppid(), SIGUSR1))
		return child_fail("C: kill(R, SIGUSR1): %m");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (sigtimedwait(&set, &si, &ts) != SIGUSR2)
		return child_fail("C: no SIGUSR2 from R: %m");
	if (si.si_uid != 0)
		return child_fail("C: si_uid of R's SIGUSR2 is %u, expected 0", si.si_uid);
	return 0;
}

/* Wait for @pid for at most NS_WAIT_MS with waitid(): 0 with @si filled, else -1. */
static int waitid_bounded(pid_t pid, siginfo_t *si)
{
	long deadline = ns_now_ms() + NS_WAIT_MS;

	for (;;) {
		memset(si, 0, sizeof(*si));
		if (waitid(P_PID, pid, si, WEXITED | WNOHANG))
			return -1;
		if (si->si_pid == pid)
			return 0;
		if (ns_now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitid(P_PID, pid, si, WEXITED);
			return -1;
		}
		usleep(1000);
	}
}

/* R: the unprivileged uid is 7 here; C, its child a namespace below, is 0 there. */
static int sig_r(void *arg)
{
	struct timespec ts = { .tv_sec = 10 };
	siginfo_t si;
	sigset_t set;
	int err, rc = 0;
	pid_t c;

	/* Both ids mapped, or R could not create C's user namespace. */
	err = ns_map_at(0, 7, ((uid_t *)arg)[0], ((uid_t *)arg)[1]);
	if (err) {
		errno = -err;
		return child_fail("R: map our ids to 7: %m");
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return child_fail("R: sigprocmask: %m");
	c = ns_clone(CLONE_NEWUSER);
	if (c < 0)
		return child_fail("R: clone(CLONE_NEWUSER): %m");
	if (c == 0)
		_exit(sig_c());
	err = ns_write_proc(c, "uid_map", "0 7 1\n");
	if (err) {
		errno = -err;
		rc = child_fail("R: write C's uid_map '0 7 1': %m");
	}
	sigdelset(&set, SIGUSR2);
	if (sigtimedwait(&set, &si, &ts) != SIGUSR1)
		rc = child_fail("R: no SIGUSR1 from C: %m");
	else if (si.si_pid != c || si.si_uid != 7)
		rc = child_fail("R: SIGUSR1 from pid %d uid %u, expected pid %d uid 7", si.si_pid,
				si.si_uid, c);
	if (kill(c, SIGUSR2))
		rc = child_fail("R: kill(C, SIGUSR2): %m");
	if (waitid_bounded(c, &si))
		return child_fail("R: waitid for C: %m");
	if (si.si_code != CLD_EXITED || si.si_status != 0)
		rc = child_fail("R: C ended with code %d status %d", si.si_code, si.si_status);
	if (si.si_uid != 7)
		rc = child_fail("R: waitid() si_uid of C is %u, expected 7", si.si_uid);
	return rc;
}

static int sig_views(void *arg)
{
	uid_t ids[2] = { geteuid(), getegid() };

	(void)arg;
	return ns_run(CLONE_NEWUSER, sig_r, ids);
}

/*
 * The si_uid of a signal, and of waitid(2), is the sender's (child's) uid as the receiver's
 * (waiter's) user namespace maps it (user_namespaces(7), sigaction(2)).
 *
 * R maps the unprivileged uid to 7; its child C, one namespace below, maps
 * R's 7 to 0.  R must read 7 for C (not C's 0, not the outer uid) from
 * kill() and from waitid(); C reads 0 for R.
 */
TEST(siginfo_uid_translated_to_receivers_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(sig_views, NULL));
}

TEST_HARNESS_MAIN
