// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces as owners: every non-user namespace is owned by the user
 * namespace its creator was in when it was created (or the new one, in a
 * combined clone/unshare), and the owner alone decides whether a
 * capability covers an operation on it; files and sockets keep their ids
 * and privileges when they cross into another user namespace
 * (user_namespaces(7) "Interaction of user namespaces and other types of
 * namespaces", "Effect of capabilities within a user namespace",
 * ioctl_ns(2), the article's part 6).  IPC objects across user namespaces
 * are the ipc_owner case's, a foreign netns's devices net_rules'.
 *
 * Everything runs in a child that gave up every privilege first
 * (ns_run_unpriv()), in both passes.  Refused operations would write
 * back the value they read, so no host state can change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* 0 when the owner (NS_GET_USERNS) of our @type namespace is @owner. */
static int owned_by(const char *type, const struct ns_ident *owner)
{
	struct ns_ident got;
	int fd, ufd, err;

	fd = ns_open(0, type);
	if (fd < 0) {
		errno = -fd;
		return child_fail("open /proc/self/ns/%s: %m", type);
	}
	ufd = ioctl(fd, NS_GET_USERNS);
	close(fd);
	if (ufd < 0)
		return child_fail("NS_GET_USERNS on %s: %m", type);
	err = ns_ident_of_fd(ufd, &got);
	close(ufd);
	if (err)
		return child_fail("fstat owner of %s", type);
	if (!ns_ident_eq(&got, owner))
		return child_fail("%s namespace owned by user ns inode %lu, expected %lu", type,
				  (unsigned long)got.ino, (unsigned long)owner->ino);
	return 0;
}

/* --- combined unshare ------------------------------------------------------ */

static int pid_owned_by(void *arg)
{
	return owned_by("pid", arg);
}

static int combined(void *arg)
{
	static const char *const types[] = { "uts", "ipc", "net", "mnt", "cgroup",
					     "time_for_children" };
	unsigned long flags = CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS |
			      CLONE_NEWCGROUP | CLONE_NEWPID;
	bool time = *(bool *)arg;
	struct ns_ident user;
	int rc = 0;

	if (time)
		flags |= CLONE_NEWTIME;
	if (ns_unshare_userns_root(flags))
		return child_fail("new user namespace: %m");
	if (ns_ident_of(0, "user", &user))
		return child_fail("stat own user ns: %m");
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]) - !time; i++)
		rc |= owned_by(types[i], &user);
	/* pid_for_children reads ENOENT until the first child: ask that child. */
	if (ns_run(0, pid_owned_by, &user))
		rc = child_fail("the new PID namespace");
	return rc;
}

/*
 * One unshare(CLONE_NEWUSER | every other CLONE_NEW*) makes the user namespace first: each other
 * namespace it creates is owned by the new one (user_namespaces(7), unshare(2)).
 */
TEST(combined_unshare_namespaces_owned_by_new_userns)
{
	bool time = ns_type_available("time");

	NS_NEED_UNPRIV_USERNS();
	NS_NEED_TYPE("cgroup");
	ASSERT_EQ(0, ns_run_unpriv(combined, &time));
	NS_NEED_ENV(time, NS_WHY_TYPE, "time", ns_type_named("time")->added);
}

static int create_after_setns(void *arg)
{
	const pid_t *b = arg;
	struct ns_ident bid;
	int fd;

	if (ns_ident_of(*b, "user", &bid))
		return child_fail("stat B's user ns: %m");
	fd = ns_open(*b, "user");
	if (fd < 0 || setns(fd, CLONE_NEWUSER))
		return child_fail("setns into B: %m");
	close(fd);
	if (unshare(CLONE_NEWUTS | CLONE_NEWIPC))
		return child_fail("unshare(UTS|IPC) in B: %m");
	return owned_by("uts", &bid) | owned_by("ipc", &bid);
}

static int owner_after_setns(void *arg)
{
	struct userns_holder b;
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (userns_hold(&b, CLONE_NEWUSER, "0 0 1\n", "0 0 1\n"))
		return child_fail("hold B");
	rc = ns_run(0, create_after_setns, &b.pid);
	if (userns_release(&b))
		rc = 1;
	return rc;
}

/*
 * A namespace is owned by the user namespace its creator is in at creation: after setns() into user
 * ns B, new UTS and IPC namespaces belong to B (user_namespaces(7)).
 */
TEST(owner_is_creators_userns_after_setns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(owner_after_setns, NULL));
}

/* --- the owner decides ----------------------------------------------------- */

enum owned_op { OP_UTS, OP_NET, OP_MNT, OP_CGROUP };

static const struct {
	enum owned_op op;
	unsigned long flag;
	const char *type;
} owned_ops[] = {
	{ OP_UTS, CLONE_NEWUTS, "uts" },
	{ OP_NET, CLONE_NEWNET, "net" },
	{ OP_MNT, CLONE_NEWNS, "mnt" },
	{ OP_CGROUP, CLONE_NEWCGROUP, "cgroup" },
};

/* The privileged operation of @op on our current namespace: 0 or errno. */
static int owned_op(enum owned_op op)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	struct utsname u;
	int s, err = 0;

	switch (op) {
	case OP_UTS:
		if (uname(&u))
			return errno;
		return sethostname(u.nodename, strlen(u.nodename)) ? errno : 0;
	case OP_CGROUP:
		/* Joining the cgroup namespace we are in: no change, same checks. */
		s = ns_open(0, "cgroup");
		if (s < 0)
			return -s;
		err = setns(s, CLONE_NEWCGROUP) ? errno : 0;
		close(s);
		return err;
	case OP_NET:
		s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (s < 0)
			return errno;
		if (ioctl(s, SIOCGIFMTU, &ifr) || ioctl(s, SIOCSIFMTU, &ifr))
			err = errno;
		close(s);
		return err;
	case OP_MNT:
		/* A bind of /proc/self onto itself, only in our namespace. */
		if (mount("/proc/self", "/proc/self", NULL, MS_BIND, NULL))
			return errno;
		return umount2("/proc/self", MNT_DETACH) ? errno : 0;
	}
	return EINVAL;
}

static int creator_moves_on(void *arg)
{
	unsigned long flags = 0;
	struct ns_ident a;
	int err, rc = 0;

	(void)arg;
	for (size_t i = 0; i < sizeof(owned_ops) / sizeof(owned_ops[0]); i++)
		flags |= owned_ops[i].flag;
	/* A, with namespaces of each type it creates and owns. */
	if (ns_unshare_userns_root(flags))
		return child_fail("new user namespace: %m");
	if (ns_ident_of(0, "user", &a))
		return child_fail("stat A: %m");
	for (size_t i = 0; i < sizeof(owned_ops) / sizeof(owned_ops[0]); i++) {
		rc |= owned_by(owned_ops[i].type, &a);
		err = owned_op(owned_ops[i].op);
		if (err)
			rc = child_fail("root of A on the %s namespace it created: %s",
					owned_ops[i].type, strerror(err));
	}
	/* The creator moves on into B, a child of A: every capability there. */
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	for (size_t i = 0; i < sizeof(owned_ops) / sizeof(owned_ops[0]); i++) {
		err = owned_op(owned_ops[i].op);
		if (err != EPERM)
			rc = child_fail("root of B on the %s namespace it created in A: %s, "
					"expected EPERM", owned_ops[i].type,
					err ? strerror(err) : "success");
	}
	/* The same operations on namespaces B creates. */
	if (unshare(flags))
		return child_fail("unshare in B: %m");
	for (size_t i = 0; i < sizeof(owned_ops) / sizeof(owned_ops[0]); i++) {
		err = owned_op(owned_ops[i].op);
		if (err)
			rc = child_fail("root of B on its own %s namespace: %s",
					owned_ops[i].type, strerror(err));
	}
	return rc;
}

/*
 * The owner is fixed at creation: a creator that moves on into a child user ns loses the privilege
 * over the uts, net, mnt and cgroup namespaces it made (EPERM) (user_namespaces(7)).
 */
TEST(creator_in_child_userns_loses_power_over_its_namespaces)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(creator_moves_on, NULL));
}

/* --- objects crossing namespaces ------------------------------------------- */

/*
 * Fork a child that runs @fn(sock) and sends one fd back: the fd, or -1.
 * The child waits for *@sock to close: close it when done with the child.
 */
static int fd_from_child(int (*fn)(int), pid_t *pid, int *sock)
{
	int sv[2], fd;

	*sock = -1;
	*pid = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	*pid = ns_clone(0);
	if (*pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (*pid == 0) {
		close(sv[0]);
		_exit(fn(sv[1]));
	}
	close(sv[1]);
	fd = ns_recv_fd(sv[0]);
	*sock = sv[0];
	return fd;
}

static int netns_socket(int sock)
{
	int s;

	if (ns_unshare_userns_root(CLONE_NEWNET))
		return child_fail("new user namespace: %m");
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || ns_send_fd(sock, s))
		return child_fail("socket in A's netns: %m");
	/* Keep A's namespaces until the parent is done with the socket. */
	if (read(sock, &s, 1) < 0)
		return child_fail("wait for the parent: %m");
	return 0;
}

static int mtu_via(int s)
{
	struct ifreq ifr = { .ifr_name = "lo" };

	if (ioctl(s, SIOCGIFMTU, &ifr) || ioctl(s, SIOCSIFMTU, &ifr))
		return errno;
	return 0;
}

static int sibling_uses(void *arg)
{
	int s = *(int *)arg, err;

	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	err = mtu_via(s);
	return err == EPERM ? 0 : child_fail("root of a sibling userns via A's socket: %s, "
					     "expected EPERM", err ? strerror(err) : "success");
}

static int socket_crossing(void *arg)
{
	int s, sock, err, rc = 0;
	pid_t a;

	(void)arg;
	s = fd_from_child(netns_socket, &a, &sock);
	if (s < 0) {
		close(sock);
		if (a > 0)
			ns_wait(a, NS_WAIT_MS);
		return child_fail("no socket from A");
	}
	/* We have no capability, but our euid owns A, which owns the netns. */
	if (!ns_caps_none_effective())
		rc = child_fail("still has capabilities");
	err = mtu_via(s);
	if (err)
		rc = child_fail("owner's euid in the parent userns via A's socket: %s",
				strerror(err));
	if (ns_run(0, sibling_uses, &s))
		rc = 1;
	close(s);
	close(sock);
	if (ns_wait(a, NS_WAIT_MS))
		rc = 1;
	return rc;
}

/*
 * A socket passed out keeps its netns; privilege over it is the netns owner's: a process in the
 * parent userns with the owner's euid has it, root of a sibling userns not (user_namespaces(7)).
 */
TEST(socket_privilege_follows_netns_owner)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(socket_crossing, NULL));
}

static int file_in_a(int sock)
{
	int fd;

	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("new user namespace: %m");
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	fd = open("/tmp/secret", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0 || write(fd, "x", 1) != 1)
		return child_fail("create /tmp/secret: %m");
	/* Mode 000: root of A opens it through CAP_DAC_OVERRIDE. */
	close(fd);
	fd = open("/tmp/secret", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ns_send_fd(sock, fd))
		return child_fail("reopen /tmp/secret in A: %m");
	if (read(sock, &fd, 1) < 0)
		return child_fail("wait for the parent: %m");
	return 0;
}

static int file_crossing(void *arg)
{
	char path[64], c;
	struct stat st;
	int fd, sock, rc = 0;
	pid_t a;

	(void)arg;
	fd = fd_from_child(file_in_a, &a, &sock);
	if (fd < 0) {
		close(sock);
		if (a > 0)
			ns_wait(a, NS_WAIT_MS);
		return child_fail("no file from A");
	}
	/* Checked at open: the fd reads for us though we could not open it. */
	if (pread(fd, &c, 1, 0) != 1 || c != 'x')
		rc = child_fail("read through the fd from A: %m");
	snprintf(path, sizeof(path), "/proc/%d/root/tmp/secret", a);
	if (open(path, O_RDONLY | O_CLOEXEC) != -1 || errno != EACCES)
		rc = child_fail("our own open of %s: %m, expected EACCES", path);
	/* Its owner, A's root, is our uid here. */
	if (fstat(fd, &st) || st.st_uid != geteuid() || st.st_gid != getegid())
		rc = child_fail("fstat through the fd: owner %u:%u, expected %u:%u", st.st_uid,
				st.st_gid, geteuid(), getegid());
	close(fd);
	close(sock);
	if (ns_wait(a, NS_WAIT_MS))
		rc = 1;
	return rc;
}

/*
 * A file opened in a user namespace and passed out keeps the access granted at open, to a receiver
 * that could not open it, and its owner reads as the receiver's ids (user_namespaces(7)).
 */
TEST(file_fd_keeps_access_across_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(file_crossing, NULL));
}

TEST_HARNESS_MAIN
