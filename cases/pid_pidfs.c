// SPDX-License-Identifier: GPL-2.0
/*
 * pidfd and pidfs across PID namespaces (issue 17, item 4):
 * PIDFD_GET_<type>_NAMESPACE (6.11), PIDFD_GET_INFO (6.13) and its exit
 * information (6.15), pidfs file handles (6.14) and pid_max per PID
 * namespace (6.14).  NS_GET_{PID,TGID}_{FROM,IN}_PIDNS are in nsfs_ioctl.
 * Sources: include/uapi/linux/pidfd.h and the commits cited per test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* PIDFD_GET_<type>_NAMESPACE numbers 1-10 and the /proc/PID/ns file each names. */
static const char *const pidfd_ns_files[] = {
	NULL, "cgroup", "ipc", "mnt", "net", "pid", "pid_for_children",
	"time", "time_for_children", "user", "uts",
};

#define HOLD (CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS | \
	      CLONE_NEWCGROUP | CLONE_NEWPID)

/*
 * PIDFD_GET_<type>_NAMESPACE of a process in new namespaces is the namespace /proc/PID/ns/<type>
 * names, for all ten (pidfd_open(2), pidfd.h; linux:5b08bd408534 "pidfs: allow retrieval of
 * namespace file descriptors", 6.11).
 */
TEST(pidfd_get_namespace_is_the_process_namespace)
{
	struct ns_holder h;
	int pidfd;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_PIDFD_GET_NS);
	ASSERT_EQ(0, ns_holder_start(&h, HOLD, NULL, NULL));
	pidfd = ns_pidfd_open(h.pid);
	ASSERT_LE(0, pidfd);
	for (int nr = 1; nr <= 10; nr++) {
		const char *file = pidfd_ns_files[nr];
		struct ns_ident want, got;
		int fd;

		if (!ns_type_available(file))
			continue;	/* no such type in this kernel */
		ASSERT_EQ(0, ns_ident_of(h.pid, file, &want)) TH_LOG("/proc/%d/ns/%s", h.pid, file);
		fd = ioctl(pidfd, NSC_PIDFD_GET_NS(nr), 0);
		EXPECT_LE(0, fd) TH_LOG("PIDFD_GET_%s: %s", file, strerror(errno));
		if (fd < 0)
			continue;
		EXPECT_EQ(0, ns_ident_of_fd(fd, &got));
		EXPECT_TRUE(ns_ident_eq(&want, &got)) TH_LOG("%s", file);
		close(fd);
	}
	close(pidfd);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* Inside a new PID namespace: own pid 1, parent 0; the outer pidfd is out of reach. */
static int info_inside(void *arg)
{
	int outer = *(int *)arg, self = ns_pidfd_open(getpid());
	struct nsc_pidfd_info info;
	int r;

	if (self < 0)
		return child_fail("pidfd_open(self): %m");
	r = ns_pidfd_info(self, NSC_PIDFD_MASK_PID, &info);
	close(self);
	if (r || info.pid != 1 || info.tgid != 1 || info.ppid != 0)
		return child_fail("own info: %d, pid %u tgid %u ppid %u", r, info.pid,
				  info.tgid, info.ppid);
	r = ns_pidfd_info(outer, NSC_PIDFD_MASK_PID, &info);
	if (r != -EREMOTE)
		return child_fail("info of a process outside our PID ns: %d (pid %u), not EREMOTE",
				  r, info.pid);
	return 0;
}

/*
 * PIDFD_GET_INFO gives pid, tgid and ppid as the caller's PID ns sees them, EREMOTE for a process
 * outside it (pidfd_open(2), pidfd.h; linux:cdda1f26e74b "pidfd: add ioctl to retrieve pid info",
 * 6.13).
 *
 * A process outside the caller's PID namespace gave ESRCH, as an exited
 * one does, until linux:ab89060fbc92 ("pidfs: return -EREMOTE when
 * PIDFD_GET_INFO is called on another ns", 7.0; in 6.18.15 and 6.19.y), the
 * errno glibc's pidfd_getpid() uses.
 */
TEST(pidfd_info_pids_are_the_callers_view)
{
	struct nsc_pidfd_info info;
	struct ns_holder h;
	int self, pidfd;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_PIDFD_INFO);
	self = ns_pidfd_open(getpid());
	ASSERT_LE(0, self);
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWPID, info_inside, &self));
	pidfd = ns_pidfd_open(h.pid);
	ASSERT_LE(0, pidfd);
	ASSERT_EQ(0, ns_pidfd_info(pidfd, NSC_PIDFD_MASK_PID | NSC_PIDFD_MASK_CREDS,
				      &info));
	EXPECT_TRUE(info.mask & NSC_PIDFD_MASK_PID);
	EXPECT_EQ((uint32_t)h.pid, info.pid);
	EXPECT_EQ((uint32_t)h.pid, info.tgid);
	EXPECT_EQ((uint32_t)getpid(), info.ppid);
	/* credentials are translated into the caller's user namespace */
	EXPECT_EQ(geteuid(), info.euid);
	close(pidfd);
	close(self);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

static pid_t child_that(int how)
{
	pid_t pid = ns_clone_admin(CLONE_NEWPID);

	if (pid == 0) {
		if (how)
			pause();
		_exit(7);
	}
	return pid;
}

/*
 * After a child in a new PID ns is reaped its pidfd gives PIDFD_INFO_EXIT with the wait status
 * (exit 7, SIGKILL), other info ESRCH (pidfd_open(2), pidfd.h, 6.15).
 *
 * linux:7477d7dce48a ("pidfs: allow to retrieve exit information"): once
 * the task has been reaped, PIDFD_GET_INFO still answers when asked for
 * PIDFD_INFO_EXIT, with exit_code the wait status; without it, ESRCH.
 */
TEST(pidfd_info_exit_status_after_reap)
{
	NS_NEED_ADMIN_OR_USERNS();
	for (int how = 0; how < 2; how++) {
		struct nsc_pidfd_info info;
		pid_t pid;
		int pidfd, rc;

		NS_NEED(NS_F_PIDFD_INFO_EXIT);
		pid = child_that(how);
		ASSERT_LT(0, pid);
		pidfd = ns_pidfd_open(pid);
		ASSERT_LE(0, pidfd);
		/* alive: no exit information yet */
		ASSERT_EQ(0, ns_pidfd_info(pidfd, NSC_PIDFD_MASK_PID |
						     NSC_PIDFD_MASK_EXIT, &info));
		if (how) {
			EXPECT_FALSE(info.mask & NSC_PIDFD_MASK_EXIT);
			kill(pid, SIGKILL);
		}
		rc = ns_wait(pid, NS_WAIT_MS);
		EXPECT_EQ(how ? 128 + SIGKILL : 7, rc);
		EXPECT_EQ(-ESRCH, ns_pidfd_info(pidfd, NSC_PIDFD_MASK_PID, &info));
		ASSERT_EQ(0, ns_pidfd_info(pidfd, NSC_PIDFD_MASK_EXIT, &info));
		EXPECT_TRUE(info.mask & NSC_PIDFD_MASK_EXIT);
		EXPECT_FALSE(info.mask & NSC_PIDFD_MASK_PID);
		EXPECT_EQ(how ? SIGKILL : 7 << 8, info.exit_code);
		close(pidfd);
	}
}

struct fh_buf {
	struct file_handle fh;
	unsigned char body[64];
};

static int pidfs_handle(pid_t pid, struct fh_buf *h)
{
	int pidfd = ns_pidfd_open(pid), mnt_id, r;

	if (pidfd < 0)
		return -errno;
	h->fh.handle_bytes = sizeof(h->body);
	r = name_to_handle_at(pidfd, "", &h->fh, &mnt_id, AT_EMPTY_PATH) ? -errno : 0;
	close(pidfd);
	return r;
}

/* open_by_handle_at() on pidfs; the result's pid as the caller sees it, or -errno. */
static long pidfs_open_pid(struct fh_buf *h)
{
	struct nsc_pidfd_info info;
	int self = ns_pidfd_open(getpid()), fd, r;

	if (self < 0)
		return -errno;
	fd = open_by_handle_at(self, &h->fh, O_RDONLY);
	close(self);
	if (fd < 0)
		return -errno;
	r = ns_pidfd_info(fd, NSC_PIDFD_MASK_PID, &info);
	close(fd);
	return r ? r : (long)info.pid;
}

/* In the new PID ns: our own handle opens, the outer process's does not. */
static int handles_inside(void *arg)
{
	struct fh_buf *outer = arg, own;
	long r;

	if (pidfs_handle(getpid(), &own))
		return child_fail("handle of self: %m");
	r = pidfs_open_pid(&own);
	if (r != 1)
		return child_fail("own handle opened pid %ld", r);
	r = pidfs_open_pid(outer);
	if (r != -ESTALE)
		return child_fail("the outer process's handle: %ld, not -ESTALE", r);
	return 0;
}

/*
 * A pidfs file handle reopens the process as a pidfd from an ancestor PID ns; ESTALE from a
 * namespace it is not in or once reaped (open_by_handle_at(2); linux:b3caba8f7a34 "pidfs: implement
 * file handle support", 6.14).
 *
 * The handle is the pidfs inode (pid's 64-bit id); opening it gives a pidfd
 * only where the pid is visible: ESTALE from a PID namespace below.
 */
TEST(pidfs_handle_opens_only_where_pid_is_visible)
{
	struct fh_buf mine, theirs;
	struct ns_holder h;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_PIDFS_HANDLES);
	ASSERT_EQ(0, pidfs_handle(getpid(), &mine));
	EXPECT_EQ(getpid(), pidfs_open_pid(&mine));
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWPID, handles_inside, &mine));
	ASSERT_EQ(0, pidfs_handle(h.pid, &theirs));
	EXPECT_EQ(h.pid, pidfs_open_pid(&theirs));
	EXPECT_EQ(0, ns_holder_stop(&h));
	/* reaped: the handle no longer opens */
	EXPECT_EQ(-ESTALE, pidfs_open_pid(&theirs));
}

/* --- pid_max per PID namespace (6.14) ------------------------------------ */

static long read_pid_max(void)
{
	long v = -1;

	return ns_read_long("/proc/sys/kernel/pid_max", &v) ? -1 : v;
}

static int write_pid_max(long v)
{
	char buf[32];

	int fd = open("/proc/sys/kernel/pid_max", O_WRONLY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	snprintf(buf, sizeof(buf), "%ld\n", v);
	n = write(fd, buf, strlen(buf));
	close(fd);
	return n < 0 ? -errno : 0;
}

static pid_t clone_with_tid(pid_t tid)
{
	struct ns_clone3_args_v1 a = {
		.v0.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&tid,
		.set_tid_size = 1,
	};
	pid_t pid = ns_clone3_with(&a, sizeof(a));

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		ns_wait(pid, NS_WAIT_MS);
	return pid;
}

/* PID 1 of a new PID namespace owned by a user namespace whose root is nobody. */
static int pid_max_inside(long outer)
{
	struct stat st;
	pid_t pid;
	int err;

	/* never write the global pid_max: it must be this namespace's file */
	if (stat("/proc/sys/kernel/pid_max", &st) || st.st_uid != 0)
		return child_fail("pid_max is not owned by root of our user namespace");
	fprintf(stderr, "# pid_max %ld outside, %ld in the new PID namespace\n", outer,
		read_pid_max());
	err = write_pid_max(1000);
	if (err)
		return child_fail("root of the owning user ns cannot set pid_max: %s",
				  strerror(-err));
	if (read_pid_max() != 1000)
		return child_fail("pid_max reads %ld after writing 1000", read_pid_max());
	pid = clone_with_tid(1000);
	if (pid != -1 || errno != EINVAL)
		return child_fail("set_tid 1000 with pid_max 1000: %d (%m), not EINVAL", pid);
	pid = clone_with_tid(999);
	if (pid != 999)
		return child_fail("set_tid 999 with pid_max 1000: %d (%m)", pid);
	return 0;
}

/*
 * pid_max is per PID ns: root of its user ns may lower it, PIDs at or above it are refused there
 * (set_tid EINVAL), the parent's is unchanged (linux:7863dcc72d0f, 6.14).
 *
 * linux:7863dcc72d0f ("pid: allow pid_max to be set per pid namespace"):
 * writable by CAP_SYS_ADMIN over the owning user namespace, it bounds the
 * PIDs allocated in that namespace, and the parent's stays as it was.
 * (The starting value: pid_max_starts_at_each_generations_value.)
 */
TEST(pid_max_is_per_pid_namespace)
{
	long outer = read_pid_max();
	struct ns_sync s;
	pid_t pid;

	NS_NEED_USERNS();

	ASSERT_LT(1000, outer);
	NS_NEED(NS_F_PIDNS_PID_MAX);
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER | CLONE_NEWPID, &s);
	if (pid == 0) {
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(NS_CHILD_SETUP_FAILED);
		_exit(pid_max_inside(outer));
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ns_map_root(pid, ns_nobody_uid(), ns_nobody_gid()));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&s);
	EXPECT_EQ(outer, read_pid_max());
}

/* What the pid_max start test saw: in A (new), then in B (new, inside A). */
struct pid_max_start {
	long a, b;		/* pid_max read there; -1 not read */
	long a_uid;		/* owner of /proc/sys/kernel/pid_max in A, as seen there */
	int write_err;		/* A's write of 5000 (per-namespace generation only) */
};

/* pid_max of 64-bit kernels (threads.h PID_MAX_LIMIT: 4 * 1024 * 1024), else 32768. */
#define NSC_PID_MAX_LIMIT (sizeof(long) > 4 ? 4L * 1024 * 1024 : 32768L)

/* In B, a PID namespace made inside A: read pid_max. */
static int pid_max_in_b(struct pid_max_start *r)
{
	r->b = read_pid_max();
	return 0;
}

/* PID 1 of A, root of A's user namespace (nobody outside). */
static int pid_max_in_a(struct pid_max_start *r)
{
	struct stat st;
	pid_t pid;

	r->a = read_pid_max();
	if (stat("/proc/sys/kernel/pid_max", &st))
		return child_fail("stat pid_max: %m");
	r->a_uid = st.st_uid;
	/* only a file of A's own may be written: never the global one */
	if (st.st_uid != 0)
		return 0;
	r->write_err = write_pid_max(5000);
	if (r->write_err)
		return 0;
	if (unshare(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID) in A: %m");
	pid = fork();
	if (pid < 0)
		return child_fail("fork into B: %m");
	if (pid == 0)
		_exit(pid_max_in_b(r));
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * The pid_max a new PID namespace starts with, one generation per kernel,
 * chosen by what /proc/sys/kernel/pid_max is inside (owned by root of the
 * namespace's user namespace, or the global file):
 *  - per-namespace pid_max (linux:7863dcc72d0f "pid: allow pid_max to be
 *    set per pid namespace" with linux:d385c8bceb14 "pid: Do not set
 *    pid_max in new pid namespaces", both 6.14): a new namespace starts at
 *    PID_MAX_LIMIT (4194304 on 64-bit), not at its parent's value; so a
 *    namespace B made inside A, whose owner lowered A's to 5000, starts at
 *    PID_MAX_LIMIT too (the ancestors' limits bound allocation instead);
 *  - before: the file inside is the global one and reads the value outside
 *    (proc(5) /proc/sys/kernel/pid_max), owned by the host's root (the
 *    overflow uid inside).
 */
TEST(pid_max_starts_at_each_generations_value)
{
	struct pid_max_start *r = ns_shared_page(sizeof(*r));
	long outer = read_pid_max(), overflow = -1;
	struct ns_sync s;
	pid_t pid;

	NS_NEED_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_LT(0, outer);
	ASSERT_EQ(0, ns_read_long("/proc/sys/kernel/overflowuid", &overflow));
	*r = (struct pid_max_start){ .a = -1, .b = -1, .a_uid = -1, .write_err = -ENODATA };
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER | CLONE_NEWPID, &s);
	if (pid == 0) {
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(NS_CHILD_SETUP_FAILED);
		_exit(pid_max_in_a(r));
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ns_map_root(pid, ns_nobody_uid(), ns_nobody_gid()));
	ns_sync_tell(&s, false, NULL, 0);
	ASSERT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&s);
	if (r->a_uid == 0) {
		TH_LOG("per-namespace pid_max (6.14+): %ld outside, %ld in A, %ld in B", outer,
		       r->a, r->b);
		EXPECT_EQ(NSC_PID_MAX_LIMIT, r->a);
		ASSERT_EQ(0, r->write_err) TH_LOG("root of A's owner writes A's pid_max: %s",
						  strerror(-r->write_err));
		EXPECT_EQ(NSC_PID_MAX_LIMIT, r->b);
	} else {
		TH_LOG("global pid_max (before 6.14): %ld outside, %ld inside", outer, r->a);
		EXPECT_EQ(overflow, r->a_uid);
		EXPECT_EQ(outer, r->a);
		EXPECT_EQ(-ENODATA, r->write_err);
	}
	EXPECT_EQ(outer, read_pid_max());
}

/* --- a third party in a brand-new PID namespace ---------------------------- */

struct third_party_rec {
	int unshare_err;		/* the creator's unshare(CLONE_NEWPID) */
	int ioctl_err;		/* PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE on its pidfd */
	int setns_err;			/* the third party's setns() into it */
	int q_fork_err, p_fork_err;	/* the third party's and the creator's fork() */
	pid_t q1_pid, q1_ppid;		/* the third party's child, in the namespace */
	pid_t p1_pid, p1_ppid;		/* the creator's first child */
};

/* The creator: unshare(CLONE_NEWPID), say so, and on the word fork its first child. */
static void creator(struct third_party_rec *r, struct ns_sync *s)
{
	pid_t pid;

	r->unshare_err = unshare(CLONE_NEWPID) ? errno : 0;
	ns_sync_tell(s, true, NULL, 0);
	if (r->unshare_err || ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		_exit(1);
	pid = fork();
	if (pid == 0) {
		r->p1_pid = getpid();
		r->p1_ppid = getppid();
		_exit(0);
	}
	r->p_fork_err = pid < 0 ? errno : 0;
	_exit(pid < 0 ? 0 : ns_wait(pid, NS_WAIT_MS));
}

/*
 * The third party: setns() into the creator's namespace and fork; its child
 * reports and stays (the namespace's init) until the word.  Whoever of the
 * two ends the third party's part says so on @s.
 */
static void third_party(struct third_party_rec *r, struct ns_sync *s, int nsfd)
{
	pid_t pid;

	r->setns_err = setns(nsfd, CLONE_NEWPID) ? errno : 0;
	if (r->setns_err) {
		ns_sync_tell(s, true, NULL, 0);
		_exit(0);
	}
	pid = fork();
	if (pid == 0) {
		r->q1_pid = getpid();
		r->q1_ppid = getppid();
		ns_sync_tell(s, true, NULL, 0);
		ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	r->q_fork_err = pid < 0 ? errno : 0;
	if (pid < 0) {
		ns_sync_tell(s, true, NULL, 0);
		_exit(0);
	}
	_exit(ns_wait(pid, 2 * NS_WAIT_MS));
}

static int third_party_worker(void *arg)
{
	struct third_party_rec *r = arg;
	struct ns_sync sp, sq = { { -1, -1 }, { -1, -1 } };
	pid_t p, q = -1;
	int pidfd, nsfd = -1, rc = 0;

	p = ns_clone_synced(ns_clone, 0, &sp);
	if (p == 0)
		creator(r, &sp);
	if (p < 0)
		return child_fail("fork: %m");
	if (ns_sync_wait(&sp, false, NULL, 0, NS_WAIT_MS) || r->unshare_err) {
		rc = child_fail("the creator's unshare(CLONE_NEWPID): %s",
				strerror(r->unshare_err));
		goto out;
	}
	pidfd = ns_pidfd_open(p);
	if (pidfd < 0) {
		rc = child_fail("pidfd_open: %m");
		goto out;
	}
	/* PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE */
	nsfd = ioctl(pidfd, NSC_PIDFD_GET_NS(6), 0);
	r->ioctl_err = nsfd < 0 ? errno : 0;
	close(pidfd);
	if (nsfd >= 0) {
		q = ns_clone_synced(ns_clone, 0, &sq);
		if (q == 0)
			third_party(r, &sq, nsfd);
		if (q < 0) {
			rc = child_fail("fork: %m");
			goto out;
		}
		if (ns_sync_wait(&sq, false, NULL, 0, NS_WAIT_MS))
			rc = child_fail("the third party did not report");
	}
out:
	/* the creator forks its first child while the third party's stays */
	ns_sync_tell(&sp, false, NULL, 0);
	if (ns_wait(p, NS_WAIT_MS) && !rc)
		rc = child_fail("the creator failed");
	if (q > 0) {
		ns_sync_tell(&sq, false, NULL, 0);
		if (ns_wait(q, 3 * NS_WAIT_MS) && !rc)
			rc = child_fail("the third party failed");
	}
	if (nsfd >= 0)
		close(nsfd);
	ns_sync_close(&sp);
	ns_sync_close(&sq);
	return rc;
}

/*
 * The first child a process creates after unshare(CLONE_NEWPID) has PID 1 in the new namespace,
 * even when a privileged third party took the namespace through its pidfd first
 * (pid_namespaces(7): "the first child created by a process after a call to unshare(2) using the
 * CLONE_NEWPID flag) has the PID 1").
 *
 * The namespace fd comes from the creator's pidfd (linux:5b08bd408534
 * "pidfs: allow retrieval of namespace file descriptors", 6.11), which has
 * no guard for a namespace without its init, unlike
 * /proc/PID/ns/pid_for_children (ENOENT before the first child, 4.12-7.0;
 * pidns_for_children_get()).  A third party with CAP_SYS_ADMIN over the
 * namespace's owner (root, or the owner of the user namespace the test
 * makes) gets it with PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, joins it with
 * setns() and forks: its child becomes PID 1, the namespace's init, with
 * getppid() 0; the creator's first child then gets PID 2 with getppid() 0,
 * against the page.  Both sides are reported
 * exactly.  Seen on 6.18.44; no fix as of 7.3.4 (expectations).
 */
TEST(first_child_after_unshare_is_pid1_despite_a_third_party)
{
	struct third_party_rec *r = ns_shared_page(sizeof(*r));

	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_PIDFD_GET_NS);
	ASSERT_NE(NULL, r);
	/* ENODATA: the step was not reached */
	r->ioctl_err = r->setns_err = r->q_fork_err = r->p_fork_err = ENODATA;
	ASSERT_EQ(0, ns_run_admin(0, third_party_worker, r));
	TH_LOG("third party: PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE %s, setns %s, its child pid %d"
	       " ppid %d; the creator's first child pid %d ppid %d",
	       strerror(r->ioctl_err), strerror(r->setns_err), r->q1_pid, r->q1_ppid,
	       r->p1_pid, r->p1_ppid);
	if (!r->ioctl_err && !r->setns_err && !r->q_fork_err) {
		/* the third party's child was the first in the namespace */
		EXPECT_EQ(1, r->q1_pid);
		EXPECT_EQ(0, r->q1_ppid);
	}
	ASSERT_EQ(0, r->p_fork_err) TH_LOG("the creator's fork: %s", strerror(r->p_fork_err));
	EXPECT_EQ(1, r->p1_pid) TH_LOG("the creator's first child is pid %d (getppid() %d)",
				       r->p1_pid, r->p1_ppid);
	EXPECT_EQ(0, r->p1_ppid);
}

TEST_HARNESS_MAIN
