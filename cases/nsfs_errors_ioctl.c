// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_ns(2) refusals: NS_GET_USERNS of a namespace whose owner is an
 * ancestor of the caller's user namespace (each of the eight types),
 * NS_GET_PARENT of the initial user namespace, and every ioctl of the page
 * on files that are not namespaces.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/* ioctl(@fd, @req) must fail with @want (no fd made). */
static int ioctl_fails(int fd, unsigned long req, int want, const char *what)
{
	int r;

	errno = 0;
	r = ioctl(fd, req, 0);
	if (r >= 0)
		close(r);
	if (r != -1 || errno != want)
		return child_fail("%s: %s, not %s", what, r < 0 ? strerror(errno) : "granted",
				  strerror(want));
	return 0;
}

/*
 * The target is owned by our user namespace B; NS_GET_USERNS answers B
 * here, and EPERM once we moved to a child user namespace of B.
 */
static int owner_scope_worker(void *arg)
{
	const struct ns_type *t = arg;
	struct ns_ident mine, got;
	struct ns_holder h;
	int fd, ufd, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_ident_of(0, "user", &mine))
		return child_fail("stat user: %m");
	if (nsfs_hold(&h, t->flag))
		return child_fail("no holder in a new %s namespace", t->name);
	fd = ns_open(h.pid, t->name);
	if (fd < 0)
		rc = child_fail("open the holder's %s namespace: %m", t->name);
	/* the control: from the owner's user namespace the answer is the owner */
	ufd = rc ? -1 : ioctl(fd, NS_GET_USERNS);
	if (!rc && (ufd < 0 || ns_ident_of_fd(ufd, &got) || !ns_ident_eq(&got, &mine)))
		rc = child_fail("NS_GET_USERNS of the %s namespace from its owner: %m, not the "
				"owner",
				t->name);
	if (ufd >= 0)
		close(ufd);
	if (!rc && ns_unshare_userns_root(0))
		rc = child_fail("cannot become root of a child user namespace: %m");
	if (!rc)
		rc = ioctl_fails(fd, NS_GET_USERNS, EPERM, "NS_GET_USERNS, owner an ancestor");
	/* for a user namespace NS_GET_PARENT is the same question */
	if (!rc && t->flag == CLONE_NEWUSER)
		rc = ioctl_fails(fd, NS_GET_PARENT, EPERM, "NS_GET_PARENT, parent an ancestor");
	if (fd >= 0)
		close(fd);
	ns_holder_stop(&h);
	return rc;
}

NS_TYPE_FIXTURE(scope, NS_TYPE_VARIANTS);

/*
 * NS_GET_USERNS of a namespace owned by an ancestor of the caller's user namespace fails with
 * EPERM; from the owner it answers (ioctl_ns(2) ERRORS).
 */
TEST_F(scope, ns_get_userns_owner_outside_scope_eperm)
{
	ASSERT_EQ(0, ns_run(0, owner_scope_worker, (void *)ns_type_of(variant->flag)));
}

/*
 * NS_GET_PARENT of the initial user namespace fails with EPERM, for root and for others
 * (ioctl_ns(2) "the parent of the initial user ... namespace").
 */
TEST(ns_get_parent_of_initial_userns_eperm)
{
	int fd, r;

	NS_NEED_INITIAL_USERNS();
	fd = ns_open(0, "user");
	ASSERT_LE(0, fd);
	errno = 0;
	r = ioctl(fd, NS_GET_PARENT);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(EPERM, errno);
	errno = 0;
	r = ioctl(fd, NS_GET_USERNS);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(EPERM, errno);
	close(fd);
}

/*
 * NS_GET_USERNS, NS_GET_PARENT, NS_GET_NSTYPE and NS_GET_OWNER_UID on a pipe, a pidfd, a directory
 * and /proc/self/status fail with ENOTTY (ioctl_ns(2) ERRORS).
 *
 * Each request gets the argument ioctl_ns(2) gives it: none (0) for the
 * three _IO requests, a uid_t pointer for NS_GET_OWNER_UID, so that the
 * errno comes from the file not being a namespace, not from an argument
 * the request does not take.  pidfd_ioctl() of 6.11 and 6.12 refuses any
 * non-zero argument with EINVAL before it looks at the command, so there
 * NS_GET_OWNER_UID on a pidfd is EINVAL (expectations; linux:8ce352818820,
 * 6.14 and 6.13.y).
 */
TEST(ns_ioctls_on_other_files_enotty)
{
	static const struct { unsigned long req; bool ptr; const char *name; } reqs[] = {
		{ NS_GET_USERNS, false, "NS_GET_USERNS" },
		{ NS_GET_PARENT, false, "NS_GET_PARENT" },
		{ NS_GET_NSTYPE, false, "NS_GET_NSTYPE" },
		{ NS_GET_OWNER_UID, true, "NS_GET_OWNER_UID" },
	};
	static const char *const kind[] = {
		"pipe read end", "pipe write end", "/proc/self/ns", "/proc/self/status", "pidfd",
	};
	int p[2], fds[5], n = 0;

	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	fds[n++] = p[0];
	fds[n++] = p[1];
	fds[n++] = open("/proc/self/ns", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fds[n++] = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	fds[n] = ns_pidfd_open(getpid());
	if (fds[n] < 0 && errno == ENOSYS) {
		for (int i = 0; i < n; i++)
			close(fds[i]);
		NS_FEATURE_ABSENT_(NS_F_PIDFD_OPEN);
	}
	n++;
	for (int i = 0; i < n; i++) {
		ASSERT_LE(0, fds[i]) TH_LOG("open %s: %m", kind[i]);
		for (size_t r = 0; r < sizeof(reqs) / sizeof(reqs[0]); r++) {
			uid_t uid = 12345;
			int ret;

			errno = 0;
			ret = reqs[r].ptr ? ioctl(fds[i], reqs[r].req, &uid) :
					    ioctl(fds[i], reqs[r].req, 0UL);
			EXPECT_EQ(-1, ret) TH_LOG("%s on a %s granted", reqs[r].name, kind[i]);
			EXPECT_EQ(ENOTTY, errno) TH_LOG("%s on a %s: %s", reqs[r].name, kind[i],
							strerror(errno));
			if (ret >= 0 && (reqs[r].req == NS_GET_USERNS ||
					 reqs[r].req == NS_GET_PARENT))
				close(ret);
		}
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* true when the kernel answers NS_GET_MNTNS_ID on our own mount namespace (6.11). */
static bool have_mntns_id_ioctl(void)
{
	int fd = ns_open(0, "mnt");
	uint64_t id;
	bool ok;

	if (fd < 0)
		return false;
	ok = ioctl(fd, NS_GET_MNTNS_ID, &id) == 0 || errno != ENOTTY;
	close(fd);
	return ok;
}

/*
 * The 6.11 nsfs ioctls work on one type only and refuse a namespace of
 * another type with EINVAL: NS_GET_MNTNS_ID a non-mount namespace, the four
 * pid translations (NS_GET_PID_FROM_PIDNS, NS_GET_TGID_FROM_PIDNS,
 * NS_GET_PID_IN_PIDNS, NS_GET_TGID_IN_PIDNS) a non-PID namespace
 * (linux:ca567df74a28 "nsfs: add pid translation ioctls" and
 * linux:e8e43a1fcc5c "fs: add an ioctl to get the mnt ns id from nsfs",
 * 6.11; the nsfs.h uapi comments; not in ioctl_ns(2)).  Both sides: each
 * answers on the caller's own namespace of its type.
 */
TEST(nsfs_typed_ioctls_on_other_types_einval)
{
	static const unsigned long pid_reqs[] = {
		NS_GET_PID_FROM_PIDNS, NS_GET_TGID_FROM_PIDNS,
		NS_GET_PID_IN_PIDNS, NS_GET_TGID_IN_PIDNS,
	};
	int checked = 0;

	NS_NEED_FEATURE(NS_F_NS_GET_MNTNS_ID, !have_mntns_id_ioctl());
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		uint64_t id = 0;
		int fd, r;

		if (!ns_type_available(t->name))
			continue;
		fd = ns_open(0, t->name);
		ASSERT_LE(0, fd) TH_LOG("open /proc/self/ns/%s: %s", t->name, strerror(-fd));
		errno = 0;
		r = ioctl(fd, NS_GET_MNTNS_ID, &id);
		if (t->flag == CLONE_NEWNS) {
			EXPECT_EQ(0, r) TH_LOG("NS_GET_MNTNS_ID on mnt: %m");
			EXPECT_NE(0, id);
		} else {
			EXPECT_EQ(-1, r) TH_LOG("NS_GET_MNTNS_ID on %s granted", t->name);
			EXPECT_EQ(EINVAL, errno) TH_LOG("NS_GET_MNTNS_ID on %s: %m", t->name);
		}
		for (size_t q = 0; q < sizeof(pid_reqs) / sizeof(pid_reqs[0]); q++) {
			errno = 0;
			r = ioctl(fd, pid_reqs[q], getpid());
			if (t->flag == CLONE_NEWPID) {
				/* the caller's own namespace: its own pid either way */
				EXPECT_EQ(getpid(), r) TH_LOG("pid request %zu on pid: %m", q);
			} else {
				EXPECT_EQ(-1, r) TH_LOG("pid request %zu on %s granted", q, t->name);
				EXPECT_EQ(EINVAL, errno) TH_LOG("pid request %zu on %s: %m", q,
								t->name);
			}
		}
		close(fd);
		checked++;
	}
	EXPECT_LE(3, checked);
}

/*
 * NS_MNT_GET_INFO takes a mount namespace and refuses a namespace of any
 * other type with EINVAL (linux:a1d220d9dafa "nsfs: iterate through mount
 * namespaces", 6.12; nsfs.h).  Both sides: it answers on the caller's own
 * mount namespace with the NS_GET_MNTNS_ID id.  NS_MNT_GET_NEXT and PREV
 * are left out: they check the caller's privilege (the initial namespaces,
 * cases/mnt_api.c) before the type, so a case run outside the initial PID
 * namespace gets EPERM for any type.
 */
TEST(nsfs_mnt_get_info_on_other_types_einval)
{
	struct nsc_mnt_ns_info info = { 0 };
	uint64_t id = 0;
	int fd;

	NS_NEED(NS_F_NS_MNT_ITER);
	fd = ns_open(0, "mnt");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, NS_GET_MNTNS_ID, &id));
	info.size = sizeof(info);
	EXPECT_EQ(0, ioctl(fd, NS_MNT_GET_INFO, &info)) TH_LOG("NS_MNT_GET_INFO on mnt: %m");
	EXPECT_EQ(id, info.mnt_ns_id);
	close(fd);
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		int ret;

		if (t->flag == CLONE_NEWNS || !ns_type_available(t->name))
			continue;
		fd = ns_open(0, t->name);
		ASSERT_LE(0, fd) TH_LOG("open /proc/self/ns/%s: %s", t->name, strerror(-fd));
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		errno = 0;
		ret = ioctl(fd, NS_MNT_GET_INFO, &info);
		EXPECT_EQ(-1, ret) TH_LOG("NS_MNT_GET_INFO on %s granted", t->name);
		EXPECT_EQ(EINVAL, errno) TH_LOG("NS_MNT_GET_INFO on %s: %m", t->name);
		close(fd);
	}
}

/* PIDFD_GET_UTS_NAMESPACE (nr 10) of @pidfd: 0 with the fd closed, or errno. */
static int pidfd_uts_errno(int pidfd)
{
	int fd = ioctl(pidfd, NSC_PIDFD_GET_NS(10), 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A child that reports when it runs, then waits for a byte or EOF on @s. */
static pid_t idle_child(struct ns_sync *s, bool nodump)
{
	pid_t pid = ns_clone_synced(ns_clone, 0, s);

	if (pid == 0) {
		if (nodump && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(child_fail("PR_SET_DUMPABLE 0: %m"));
		ns_sync_tell(s, true, NULL, 0);
		ns_sync_wait(s, true, NULL, 1, 3 * NS_WAIT_MS);
		_exit(0);
	}
	if (pid > 0 && ns_sync_wait(s, false, NULL, 1, NS_WAIT_MS)) {
		ns_sync_close(s);
		ns_wait(pid, NS_WAIT_MS);
		return -1;
	}
	return pid;
}

static int pidfd_ns_ptrace_worker(void *arg)
{
	struct ns_sync sd, sn;
	pid_t dump, nodump;
	int fd_d = -1, fd_n = -1, err, rc = 0;

	(void)arg;
	if (!ns_caps_none_effective())
		return child_fail("the worker still has a capability");
	dump = idle_child(&sd, false);
	if (dump < 0)
		return child_fail("the dumpable child did not start");
	nodump = idle_child(&sn, true);
	if (nodump < 0) {
		rc = child_fail("the non-dumpable child did not start");
		goto out;
	}
	fd_d = ns_pidfd_open(dump);
	fd_n = ns_pidfd_open(nodump);
	if (fd_d < 0 || fd_n < 0) {
		rc = child_fail("pidfd_open: %m");
		goto out;
	}
	err = pidfd_uts_errno(fd_d);
	if (err)
		rc = child_fail("PIDFD_GET_UTS_NAMESPACE of a dumpable child of the same uid: "
				"%s", strerror(err));
	err = pidfd_uts_errno(fd_n);
	if (err != EACCES)
		rc = child_fail("PIDFD_GET_UTS_NAMESPACE of a non-dumpable child without "
				"CAP_SYS_PTRACE: %s, expected EACCES",
				err ? strerror(err) : "an fd");
out:
	if (fd_d >= 0)
		close(fd_d);
	if (fd_n >= 0)
		close(fd_n);
	/* a byte, not EOF: the second child holds a copy of the first one's pipe */
	ns_sync_tell(&sd, false, NULL, 0);
	ns_sync_close(&sd);
	if (ns_wait(dump, NS_WAIT_MS) && !rc)
		rc = child_fail("the dumpable child failed");
	if (nodump > 0) {
		ns_sync_tell(&sn, false, NULL, 0);
		ns_sync_close(&sn);
		if (ns_wait(nodump, NS_WAIT_MS) && !rc)
			rc = child_fail("the non-dumpable child failed");
	}
	return rc;
}

/*
 * PIDFD_GET_<type>_NAMESPACE opens a namespace fd only for a caller that
 * passes the ptrace read check on the process (PTRACE_MODE_READ_FSCREDS, as
 * /proc/PID/ns does): a process of the same uid that made itself
 * non-dumpable, asked by one without CAP_SYS_PTRACE, gives EACCES; the same
 * caller gets the namespace of a dumpable one (linux:5b08bd408534 "pidfs:
 * allow retrieval of namespace file descriptors", 6.11; ptrace(2) "Ptrace
 * access mode checking").
 */
TEST(pidfd_get_namespace_needs_ptrace_read_access_eacces)
{
	NS_NEED(NS_F_PIDFD_GET_NS);
	ASSERT_EQ(0, ns_run_unpriv(pidfd_ns_ptrace_worker, NULL));
}

/*
 * PIDFD_GET_<type>_NAMESPACE of a process that has exited fails with
 * ESRCH: a zombie has given up its namespaces, and a reaped process is
 * gone (linux:5b08bd408534 "pidfs: allow retrieval of namespace file
 * descriptors", 6.11: "just pretend it didn't exist").  Both sides: the
 * same pidfd gives the namespace while the process runs.
 */
TEST(pidfd_get_namespace_of_exited_process_esrch)
{
	struct ns_sync s;
	siginfo_t si;
	int pidfd, err;
	pid_t pid;

	NS_NEED(NS_F_PIDFD_GET_NS);
	pid = ns_clone_synced(ns_clone, 0, &s);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ns_sync_tell(&s, true, NULL, 0);
		ns_sync_wait(&s, true, NULL, 1, NS_WAIT_MS);
		_exit(0);
	}
	pidfd = ns_pidfd_open(pid);
	ASSERT_LE(0, pidfd) TH_LOG("pidfd_open: %m");
	ASSERT_EQ(0, ns_sync_wait(&s, false, NULL, 1, NS_WAIT_MS));
	EXPECT_EQ(0, pidfd_uts_errno(pidfd));
	ns_sync_tell(&s, false, NULL, 0);
	ns_sync_close(&s);
	/* a zombie: wait for the exit without reaping it */
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT)) TH_LOG("waitid: %m");
	ASSERT_EQ(pid, si.si_pid);
	err = pidfd_uts_errno(pidfd);
	EXPECT_EQ(ESRCH, err) TH_LOG("of a zombie: %s", err ? strerror(err) : "an fd");
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	err = pidfd_uts_errno(pidfd);
	EXPECT_EQ(ESRCH, err) TH_LOG("of a reaped process: %s", err ? strerror(err) : "an fd");
	close(pidfd);
}

TEST_HARNESS_MAIN
