// SPDX-License-Identifier: GPL-2.0
/*
 * The translation matrix, the PID dimension: the target's pid (4 in PC) as
 * each observer reads it through its own /proc, fcntl(F_GETOWN_EX) and a
 * pidfd's fdinfo; and the namespace links, which are the same from
 * everywhere (fixtures/xlate.h draws the world).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "nsconform.h"
#include "xlate.h"

XLATE_FIXTURE();

/* In an observer: v[0] the number of pids its own /proc lists, v[1] Pid: of /proc/@arg/status. */
static int own_proc(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	pid_t pid = *(const pid_t *)arg;
	char path[64], buf[4096], *p;
	struct dirent *d;
	DIR *dir;

	(void)w, (void)self;
	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		a->v[0] += atoi(d->d_name) > 0;
	closedir(dir);
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -errno;
	p = strstr(buf, "\nPid:");
	a->v[1] = p ? strtol(p + 5, NULL, 10) : -1;
	p = strstr(buf, "\nPPid:");
	a->v[2] = p ? strtol(p + 6, NULL, 10) : -1;
	return 0;
}

/*
 * The observer's own /proc (mounted in its PID namespace) has the target
 * under its pid there, with Pid: and PPid: in that namespace, where the
 * target is visible (same namespace, ancestor); a descendant's or a
 * sibling's /proc lists only its own namespace's one process, so no
 * program there can name the target (proc(5) "/proc/pid", pid_namespaces(7)
 * "/proc and PID namespaces").
 */
TEST_F(xlate, own_proc_lists_target_where_visible)
{
	int pos = variant->pos;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	XLATE_ASK(pos, own_proc, &pid, sizeof(pid), &a);
	if (!pid) {
		EXPECT_EQ(1, a.v[0]);	/* desc and sib: their init alone */
		return;
	}
	EXPECT_EQ(pos == XL_ANC ? 6 : 4, a.v[0]);
	EXPECT_EQ(pid, a.v[1]);
	EXPECT_EQ(xlate_pid_seen(self->w, XL_SAME, pos), a.v[2]);
}

/* In the target: the read end of a pipe whose owner (F_SETOWN) is the target, to pass. */
static int make_owned_pipe(struct xlate_world *w)
{
	int p[2], err;

	(void)w;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	close(p[1]);
	if (!fcntl(p[0], F_SETOWN, getpid()))
		return p[0];
	err = -errno;
	close(p[0]);
	return err;
}

/* In an observer: F_GETOWN_EX (v[0] type, v[1] pid) and F_GETOWN (v[2]) of the fd sent. */
static int getown(int fd, const void *arg, struct xlate_ans *a)
{
	struct f_owner_ex o = { 0 };

	(void)arg;
	if (fcntl(fd, F_GETOWN_EX, &o))
		return -errno;
	a->v[0] = o.type;
	a->v[1] = o.pid;
	a->v[2] = fcntl(fd, F_GETOWN);
	return 0;
}

/*
 * F_GETOWN_EX and F_GETOWN give the owner set by F_SETOWN as a pid of the
 * caller's PID namespace, 0 where the owner is not visible (fcntl(2)
 * "F_GETOWN_EX"; fs/fcntl.c f_getown_ex() uses pid_vnr()).
 */
TEST_F(xlate, fcntl_getown_ex)
{
	int pos = variant->pos;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	XLATE_PASS(XL_TGT, make_owned_pipe, pos, getown, NULL, 0, &a);
	EXPECT_EQ(F_OWNER_PID, a.v[0]);
	EXPECT_EQ(pid, a.v[1]);
	EXPECT_EQ(pid, a.v[2]);
}

/* In an observer: Pid: (v[0]) and the NSpid: count (v[1]) of the pidfd's fdinfo. */
static int pidfd_fdinfo(int fd, const void *arg, struct xlate_ans *a)
{
	char path[64], buf[2048], *p;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -errno;
	p = strstr(buf, "\nPid:");
	a->v[0] = p ? strtol(p + 5, NULL, 10) : -100;
	a->v[1] = 0;
	p = strstr(buf, "\nNSpid:");
	if (p) {
		p += 7;
		while (strtol(p, &p, 10) > 0)
			a->v[1]++;
	}
	return 0;
}

/*
 * A pidfd's fdinfo shows Pid: as the process's pid in the PID namespace of
 * the /proc it is read through, 0 where the process is not visible, with
 * NSpid: only when it is: one entry per level from there down (pidfd_open(2)
 * "/proc/pid/fdinfo"; proc(5) /proc/pid/fdinfo; fs/pidfs.c
 * pidfd_show_fdinfo() reads the namespace of the /proc superblock).
 */
TEST_F(xlate, pidfd_fdinfo_pid)
{
	int pos = variant->pos;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	XLATE_PASS(XL_TGT, xlate_make_pidfd, pos, pidfd_fdinfo, NULL, 0, &a);
	EXPECT_EQ(pid, a.v[0]);
	EXPECT_EQ(!pid ? 0 : pos == XL_ANC ? 2 : 1, a.v[1]);
}

/* In the target: its pid namespace fd, to pass. */
static int make_pidns(struct xlate_world *w)
{
	(void)w;
	return ns_open(0, "pid");
}

/* In an observer: st_ino (v[0]) and NS_GET_ID (v[1]) of the namespace fd sent to it. */
static int ns_identity(int fd, const void *arg, struct xlate_ans *a)
{
	struct ns_ident id;
	uint64_t nsid = 0;
	int err;

	(void)arg;
	err = ns_ident_of_fd(fd, &id);
	if (!err && ns_get_id(fd, &nsid) && errno != ENOTTY)
		err = -errno;
	a->v[0] = id.ino;
	a->v[1] = nsid;
	return err;
}

/*
 * A namespace's identity (the nsfs inode number, NS_GET_ID) is not
 * translated: every observer, in whatever namespace, gets the numbers the
 * target gets for its own (namespaces(7) "The /proc/pid/ns/ directory";
 * ioctl_nsfs(2) NS_GET_ID).
 */
TEST_F(xlate, ns_identity_is_the_same_everywhere)
{
	int pos = variant->pos;
	struct xlate_ans a, mine;

	XLATE_PASS(XL_TGT, make_pidns, XL_TGT, ns_identity, NULL, 0, &mine);
	XLATE_PASS(XL_TGT, make_pidns, pos, ns_identity, NULL, 0, &a);
	EXPECT_EQ(mine.v[0], a.v[0]);
	EXPECT_EQ(mine.v[1], a.v[1]);
}

/*
 * In a server: statmount() of mount *arg (v[0] mnt_id, v[1] mnt_ns_id; 0: the
 * first mount its own namespace lists, in its own namespace): v[0] mnt_id,
 * v[1] mnt_parent_id, v[2] mnt_ns_id.
 */
static int stat_mount(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	const long *want = arg;
	static struct nsc_statmount sm;
	uint64_t id = want[0];
	int err;

	(void)w, (void)self;
	if (!id) {
		long n = ns_listmount(NSC_LSMT_ROOT, 0, 0, &id, 1);

		if (n != 1)
			return n < 0 ? n : -ENOENT;
	}
	err = ns_statmount(id, want[1], NSC_STATMOUNT_MNT_BASIC | NSC_STATMOUNT_MNT_NS_ID, &sm);
	if (err)
		return err;
	a->v[0] = sm.mnt_id;
	a->v[1] = sm.mnt_parent_id;
	a->v[2] = sm.mnt_ns_id;
	return 0;
}

/*
 * statmount() ids are not translated: the target's mount, asked for by its
 * mnt_id in the target's mount namespace (by mnt_ns_id), gives every
 * observer who may read it the numbers the target gets (statmount(2)
 * mnt_id, mnt_ns_id).  A mount namespace not the caller's may be read only
 * with CAP_SYS_ADMIN over its owning user namespace (anc, root of its
 * ancestor user namespace; linux:0a3deb11858a "fs: Allow listmount() in
 * foreign mount namespace"); without it (desc, sib) the answer is EPERM
 * (statmount(2) ERRORS: "Permission is denied for accessing this mount").
 * same and unm share the target's mount namespace.
 */
TEST_F(xlate, statmount_ids)
{
	int pos = variant->pos, r;
	struct xlate_ans a, mine;
	long want[2] = { 0, 0 };

	NS_NEED(NS_F_STATMOUNT);
	NS_NEED(NS_F_MNT_ID_REQ_NS_ID);
	XLATE_ASK(XL_TGT, stat_mount, want, sizeof(want), &mine);
	want[0] = mine.v[0];
	want[1] = mine.v[2];
	r = xlate_ask(self->w, pos, stat_mount, want, sizeof(want), &a);
	if (pos == XL_DESC || pos == XL_SIB) {
		EXPECT_EQ(-EPERM, r);
		return;
	}
	ASSERT_EQ(0, r) TH_LOG("%s: statmount: %s", xlate_pos_name[pos], strerror(-r));
	EXPECT_EQ(mine.v[0], a.v[0]);
	EXPECT_EQ(mine.v[1], a.v[1]);
	EXPECT_EQ(mine.v[2], a.v[2]);
}

/* In an observer: /proc/@arg/stat of its own /proc: v[0] pid, v[1] ppid, v[2] pgrp, v[3] session. */
static int own_stat(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	pid_t pid = *(const pid_t *)arg;
	char path[64], buf[1024], *p;

	(void)w, (void)self;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -errno;
	p = strrchr(buf, ')');
	if (!p || sscanf(buf, "%ld", &a->v[0]) != 1 ||
	    sscanf(p + 2, "%*c %ld %ld %ld", &a->v[1], &a->v[2], &a->v[3]) != 3)
		return -EBADMSG;
	return 0;
}

/*
 * /proc/PID/stat gives pid, ppid, pgrp and session in the PID namespace of
 * the /proc mount, 0 for one not visible there: the target's process group
 * and session are the test's, outside the world, so 0 from every observer;
 * a descendant's or a sibling's /proc has no entry under the pid the target
 * has in its own namespace (proc(5) /proc/pid/stat; pid_namespaces(7)).
 */
TEST_F(xlate, proc_pid_stat_pids)
{
	int pos = variant->pos, r;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	if (!pid) {
		pid = self->w->nspid[XL_TGT][1];
		r = xlate_ask(self->w, pos, own_stat, &pid, sizeof(pid), &a);
		EXPECT_EQ(-ENOENT, r);
		return;
	}
	XLATE_ASK(pos, own_stat, &pid, sizeof(pid), &a);
	EXPECT_EQ(pid, a.v[0]);
	EXPECT_EQ(xlate_pid_seen(self->w, XL_SAME, pos), a.v[1]);
	EXPECT_EQ(0, a.v[2]);
	EXPECT_EQ(0, a.v[3]);
}

/* In an observer: PIDFD_GET_INFO pid (v[0]) of SO_PEERPIDFD of the socket sent to it. */
static int peerpidfd(int fd, const void *arg, struct xlate_ans *a)
{
	socklen_t len = sizeof(int);
	struct nsc_pidfd_info info;
	int pidfd = -1, r;

	(void)arg;
	if (getsockopt(fd, SOL_SOCKET, NSC_SO_PEERPIDFD, &pidfd, &len))
		return -errno;
	r = ns_pidfd_info(pidfd, NSC_PIDFD_MASK_PID, &info);
	close(pidfd);
	a->v[0] = info.pid;
	return r;
}

/* The SKIP reason when getsockopt(SO_PEERPIDFD) is unknown (before 6.5), else NULL. */
static const char *peerpidfd_missing(void)
{
	int sv[2], pidfd = -1;
	socklen_t len = sizeof(pidfd);
	bool missing;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return NULL;
	missing = getsockopt(sv[0], SOL_SOCKET, NSC_SO_PEERPIDFD, &pidfd, &len) &&
		  errno == ENOPROTOOPT;
	if (pidfd >= 0)
		close(pidfd);
	close(sv[0]);
	close(sv[1]);
	return missing ? "SO_PEERPIDFD" : NULL;
}

/*
 * SO_PEERPIDFD gives a pidfd of the peer from any namespace; its pid reads
 * as PIDFD_GET_INFO gives it, in the caller's PID namespace, EREMOTE where
 * the peer is not visible (socket(7) SO_PEERPIDFD, 6.5; pidfd_open(2)
 * PIDFD_GET_INFO).
 */
TEST_F(xlate, so_peerpidfd_pid)
{
	int pos = variant->pos, r;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	NS_NEED_FEATURE(NS_F_SO_PEERPIDFD, peerpidfd_missing());
	NS_NEED(NS_F_PIDFD_INFO);
	r = xlate_pass(self->w, XL_TGT, xlate_make_pair, pos, peerpidfd, NULL, 0, &a);
	if (!pid) {
		EXPECT_EQ(-EREMOTE, r);
		return;
	}
	ASSERT_EQ(0, r);
	EXPECT_EQ(pid, a.v[0]);
}

/* In an observer: NS_GET_PID_FROM_PIDNS of the PID namespace fd sent to it, for pid *arg. */
static int pid_from_pidns(int fd, const void *arg, struct xlate_ans *a)
{
	int r = ioctl(fd, NS_GET_PID_FROM_PIDNS, *(const pid_t *)arg);

	if (r < 0)
		return -errno;
	a->v[0] = r;
	return 0;
}

/*
 * NS_GET_PID_FROM_PIDNS turns a pid of the fd's PID namespace into the
 * caller's: the target's pid there from the same namespace and an
 * ancestor, ESRCH from a descendant or a sibling, where the target has none
 * (include/uapi/linux/nsfs.h NS_GET_PID_FROM_PIDNS, 6.11; not in
 * ioctl_nsfs(2)).
 */
TEST_F(xlate, ns_get_pid_from_pidns)
{
	int pos = variant->pos, r;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos), in_pc = self->w->nspid[XL_TGT][1];
	struct xlate_ans a;

	r = xlate_pass(self->w, XL_TGT, make_pidns, pos, pid_from_pidns, &in_pc, sizeof(in_pc), &a);
	NS_NEED_FEATURE(NS_F_NS_GET_PID_IN_PIDNS, r == -ENOTTY);
	if (!pid) {
		EXPECT_EQ(-ESRCH, r);
		return;
	}
	ASSERT_EQ(0, r);
	EXPECT_EQ(pid, a.v[0]);
}

/* In the target: a plain datagram to server *arg. */
static int send_byte(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	(void)self, (void)a;
	return send(w->sock[*(const int *)arg][1], "b", 1, 0) == 1 ? 0 : -errno;
}

/* In an observer: SO_PASSPIDFD on its socket (0 or -errno). */
static int pass_pidfd(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	int one = 1;

	(void)arg, (void)a;
	return setsockopt(w->sock[self][0], SOL_SOCKET, NSC_SO_PASSPIDFD, &one, sizeof(one)) ?
	       -errno : 0;
}

/* In an observer: the SCM_PIDFD of the datagram waiting, its PIDFD_GET_INFO pid in v[0]. */
static int recv_pidfd(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	char cbuf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))] = { 0 }, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct nsc_pidfd_info info;
	struct cmsghdr *c;
	int pidfd = -1, r;

	(void)arg;
	if (recvmsg(w->sock[self][0], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
		return -errno;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == NSC_SCM_PIDFD)
			memcpy(&pidfd, CMSG_DATA(c), sizeof(int));
	if (pidfd < 0)
		return -ENOMSG;
	r = ns_pidfd_info(pidfd, NSC_PIDFD_MASK_PID, &info);
	close(pidfd);
	a->v[0] = info.pid;
	return r;
}

/*
 * SCM_PIDFD (SO_PASSPIDFD) gives the receiver a pidfd of the sender from any
 * namespace; its pid reads as PIDFD_GET_INFO gives it, in the receiver's
 * PID namespace, EREMOTE where the sender is not visible (unix(7)
 * SO_PASSPIDFD, SCM_PIDFD, 6.5; pidfd_open(2) PIDFD_GET_INFO).
 */
TEST_F(xlate, scm_pidfd_pid)
{
	int pos = variant->pos, r;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	NS_NEED(NS_F_PIDFD_INFO);
	r = xlate_ask(self->w, pos, pass_pidfd, NULL, 0, &a);
	NS_NEED_FEATURE(NS_F_SO_PASSPIDFD, r == -ENOPROTOOPT);
	ASSERT_EQ(0, r);
	XLATE_ASK(XL_TGT, send_byte, &pos, sizeof(pos), &a);
	r = xlate_ask(self->w, pos, recv_pidfd, NULL, 0, &a);
	if (!pid) {
		EXPECT_EQ(-EREMOTE, r);
		return;
	}
	ASSERT_EQ(0, r);
	EXPECT_EQ(pid, a.v[0]);
}

/* In an observer: pidfd_getfd() of the target's fd *arg (its request pipe) via the pidfd. */
static int getfd(int pidfd, const void *arg, struct xlate_ans *a)
{
	int want_fd = *(const int *)arg, fd = syscall(SYS_pidfd_getfd, pidfd, want_fd, 0), r;
	struct stat got, want;

	(void)a;
	if (fd < 0)
		return -errno;
	/* the very pipe: the observer holds the same one under the same number */
	r = fstat(fd, &got) || fstat(want_fd, &want) || got.st_ino != want.st_ino ? -EBADF : 0;
	close(fd);
	return r;
}

/*
 * pidfd_getfd() needs PTRACE_MODE_ATTACH_REALCREDS over the target: beyond
 * the same real uid and gid, the commoncap step wants the caller in the
 * target's user namespace with a superset of its permitted capabilities, or
 * CAP_SYS_PTRACE in that namespace (ptrace(2) "Ptrace access mode
 * checking" steps 3 and 5; pidfd_getfd(2) EPERM).  The target has every
 * capability in U1: same (its parent, all of them too) and anc (owner of
 * U1's parent) get the fd; desc, sib and unm, in other user namespaces with
 * no capability over U1, EPERM.  Yama's ptrace_scope 1 and 2 keep that
 * (anc and same are process-tree ancestors with CAP_SYS_PTRACE over U1), 3
 * refuses everyone (Documentation/admin-guide/LSM/Yama.rst).
 */
TEST_F(xlate, pidfd_getfd_access)
{
	int pos = variant->pos, r;
	long scope = 0;
	struct xlate_ans a;
	bool ok;

	if (ns_read_long("/proc/sys/kernel/yama/ptrace_scope", &scope))
		scope = 0;	/* no Yama */
	ok = scope < 3 && (pos == XL_ANC || pos == XL_SAME);
	r = xlate_pass(self->w, XL_TGT, xlate_make_pidfd, pos, getfd, &self->w->req[XL_TGT][0],
		       sizeof(int), &a);
	NS_NEED_FEATURE(NS_F_PIDFD_GETFD, r == -ENOSYS);
	EXPECT_EQ(ok ? 0 : -EPERM, r) TH_LOG("Yama ptrace_scope %ld", scope);
}

/* In the target: a NETLINK_ROUTE socket bound with nl_pid 0 (autobind), to pass. */
static int make_netlink(struct xlate_world *w)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), err;

	(void)w;
	if (fd < 0 || !bind(fd, (struct sockaddr *)&nl, sizeof(nl)))
		return fd;
	err = -errno;
	close(fd);
	return err;
}

/* In an observer: getsockname() nl_pid of the socket sent to it, in v[0]. */
static int netlink_portid(int fd, const void *arg, struct xlate_ans *a)
{
	struct sockaddr_nl nl = { 0 };
	socklen_t len = sizeof(nl);

	(void)arg;
	if (getsockname(fd, (struct sockaddr *)&nl, &len))
		return -errno;
	a->v[0] = nl.nl_pid;
	return 0;
}

/*
 * A netlink socket bound with nl_pid 0 gets the binder's thread-group id in
 * the binder's own PID namespace as its port id, a number that is not a pid
 * translated for anyone: every observer reads the same (netlink(7) "nl_pid
 * ... the kernel assigns the process ID to the first netlink socket").
 */
TEST_F(xlate, netlink_portid_is_not_translated)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_PASS(XL_TGT, make_netlink, pos, netlink_portid, NULL, 0, &a);
	EXPECT_EQ(self->w->nspid[XL_TGT][1], a.v[0]);
}

/* In an observer: the first entries of NStgid:, NSpgid:, NSsid: of /proc/@arg/status. */
static int own_nsids(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	static const char *const key[] = { "\nNStgid:", "\nNSpgid:", "\nNSsid:" };
	pid_t pid = *(const pid_t *)arg;
	char path[64], buf[4096];

	(void)w, (void)self;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -errno;
	for (int i = 0; i < 3; i++) {
		char *p = strstr(buf, key[i]);

		a->v[i] = p ? strtol(p + strlen(key[i]), NULL, 10) : -1;
	}
	return 0;
}

/*
 * NStgid:, NSpgid: and NSsid: of /proc/PID/status start in the PID
 * namespace of the /proc mount: the target's tgid there, and 0 for its
 * process group and session, which are the test's, outside the world
 * (proc(5) /proc/pid/status NStgid, NSpgid, NSsid); no entry in a
 * descendant's or a sibling's /proc.
 */
TEST_F(xlate, proc_status_nsids)
{
	int pos = variant->pos, r;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);
	struct xlate_ans a;

	if (!pid) {
		pid = self->w->nspid[XL_TGT][1];
		r = xlate_ask(self->w, pos, own_nsids, &pid, sizeof(pid), &a);
		EXPECT_EQ(-ENOENT, r);
		return;
	}
	XLATE_ASK(pos, own_nsids, &pid, sizeof(pid), &a);
	EXPECT_EQ(pid, a.v[0]);
	EXPECT_EQ(0, a.v[1]);
	EXPECT_EQ(0, a.v[2]);
}

TEST_HARNESS_MAIN
