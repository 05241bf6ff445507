// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: ids seen through files and sockets.  File owners are
 * translated by the reader's namespace (unmapped ones read as the overflow
 * ids), files created inside are owned by the mapped outer ids, and
 * SCM_CREDENTIALS / SO_PEERCRED report ids as the receiver sees them
 * (user_namespaces(7) "Interaction of user namespaces and other aspects",
 * unix(7)).
 *
 * Each test runs as an unprivileged process (userns_run_unpriv()) in both
 * passes; its child in a new user namespace is mapped "0 <euid> 1".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "nsconform.h"
#include "userns.h"
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
	ASSERT_EQ(0, userns_run_unpriv(unmapped_owner, NULL));
}

static int create_as_root(struct ns_sync *s)
{
	struct stat st;
	int fd;

	ns_sync_child_side(s);
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("user + mount namespace: %m");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", "/tmp", "tmpfs", 0, "mode=0755"))
		return child_fail("private tmpfs on /tmp: %m");
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
	if (ns_sync_init(&s))
		return child_fail("pipes: %m");
	pid = ns_clone(0);
	if (pid == 0)
		_exit(create_as_root(&s));
	ns_sync_parent_side(&s);
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
	ASSERT_EQ(0, userns_run_unpriv(created_file_owner, NULL));
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
	ASSERT_EQ(0, userns_run_unpriv(scm_both_ways, NULL));
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
	read(fd, &ul, 1);
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
	ASSERT_EQ(0, userns_run_unpriv(peercred_both_ways, NULL));
}

TEST_HARNESS_MAIN
