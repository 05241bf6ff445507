// SPDX-License-Identifier: GPL-2.0
/*
 * setns(2) refusals around shared filesystem context and pidfds: joining a
 * mount namespace while a thread or a CLONE_FS process shares the caller's
 * fs_struct, a pidfd with nstype 0 or stray bits, a pidfd of a reaped
 * process; and pidfd_open(2) close-on-exec and ESRCH for a PID that is not
 * in the caller's PID namespace.
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes), so that the refusal tested is the only thing missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsfs.h"
#include "nsconform.h"
#include "kselftest_harness.h"

/* Idents of the caller's mnt and uts namespaces. */
struct mnt_uts {
	struct ns_ident mnt, uts;
};

static int take(struct mnt_uts *m)
{
	return ns_ident_of(0, "mnt", &m->mnt) || ns_ident_of(0, "uts", &m->uts) ? -1 : 0;
}

/* A CLONE_FS sibling: it waits for EOF on the pipe @arg (int[2]). */
static int fs_sharer(void *arg)
{
	int *p = arg;
	char c;

	close(p[1]);
	return read(p[0], &c, 1) < 0;
}

/* After a wrongly granted setns: where is the CLONE_FS sibling's root now? */
static void log_sibling_root(pid_t sib)
{
	struct stat ours, its;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/root/", sib);
	if (stat("/", &ours) || stat(path, &its))
		return;
	if (ours.st_dev == its.st_dev && ours.st_ino == its.st_ino &&
	    ns_same_as_self(sib, "mnt") == 0)
		fprintf(stderr, "# the CLONE_FS sibling's root moved into the joined mount "
			"namespace "
			"while the sibling stayed in the old one\n");
}

/*
 * setns(@fd, @flags) while @how shares our fs context (0: a CLONE_FS
 * process, 1: a thread) must fail with EINVAL and change neither mnt nor
 * uts; once the sharer is gone the same call joins @target's.
 */
static int shared_fs_refused(int fd, unsigned long flags, int how, const struct mnt_uts *target)
{
	struct mnt_uts before, now;
	struct ns_thread th;
	pid_t sib = -1;
	int p[2], err;

	if (pipe2(p, O_CLOEXEC) || take(&before))
		return child_fail("pipe or stat: %m");
	if (how == 0) {
		sib = nsfs_clone_on_stack(CLONE_FS | SIGCHLD, fs_sharer, p);
		if (sib < 0)
			return child_fail("cannot start the CLONE_FS sibling: %m");
	} else if (ns_thread_start(&th)) {
		return 1;
	}
	errno = 0;
	err = setns(fd, flags) ? errno : 0;
	if (!err && sib > 0)
		log_sibling_root(sib);
	close(p[1]);
	close(p[0]);
	if (how == 0)
		ns_wait(sib, NS_WAIT_MS);
	else if (ns_thread_stop(&th))
		return 1;
	if (err != EINVAL)
		return child_fail("setns(%#lx) sharing fs with a %s: %s, not EINVAL", flags,
				  how ? "thread" : "CLONE_FS process",
				  err ? strerror(err) : "joined");
	if (take(&now) || !ns_ident_eq(&now.mnt, &before.mnt) ||
	    !ns_ident_eq(&now.uts, &before.uts))
		return child_fail("the refused setns(%#lx) changed mnt or uts", flags);
	if (!how)
		return 0;
	/* the control: alone, the same call joins */
	if (setns(fd, flags))
		return child_fail("setns(%#lx) with nobody sharing fs: %m", flags);
	if (take(&now) || !ns_ident_eq(&now.mnt, &target->mnt) ||
	    ((flags & CLONE_NEWUTS) && !ns_ident_eq(&now.uts, &target->uts)))
		return child_fail("setns(%#lx) returned 0, not in the target namespaces", flags);
	return 0;
}

struct holder_fds {
	struct ns_holder h;
	int nsfd, pidfd;
	struct mnt_uts target;
};

/* As root of a new user namespace: a holder in new mnt and uts namespaces. */
static int hold_mnt_uts(struct holder_fds *f)
{
	f->nsfd = f->pidfd = -1;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (nsfs_hold(&f->h, CLONE_NEWNS | CLONE_NEWUTS))
		return child_fail("no holder in new mnt and uts namespaces");
	f->nsfd = ns_open(f->h.pid, "mnt");
	f->pidfd = ns_pidfd_open(f->h.pid);
	if (f->nsfd < 0 || ns_ident_of(f->h.pid, "mnt", &f->target.mnt) ||
	    ns_ident_of(f->h.pid, "uts", &f->target.uts))
		return child_fail("open the holder's namespaces: %m");
	return 0;
}

static void release(struct holder_fds *f)
{
	if (f->nsfd >= 0)
		close(f->nsfd);
	if (f->pidfd >= 0)
		close(f->pidfd);
	ns_holder_stop(&f->h);
}

static int mnt_nsfd_worker(void *arg)
{
	struct holder_fds f;
	int rc = hold_mnt_uts(&f);

	(void)arg;
	if (!rc)
		rc = shared_fs_refused(f.nsfd, CLONE_NEWNS, 0, &f.target);
	if (!rc)
		rc = shared_fs_refused(f.nsfd, CLONE_NEWNS, 1, &f.target);
	release(&f);
	return rc;
}

/*
 * setns() into a mount ns by a caller sharing its fs context (a CLONE_FS process, a thread) fails
 * with EINVAL; alone it joins (setns(2)).
 */
TEST(setns_mntns_while_sharing_fs_einval)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, mnt_nsfd_worker, NULL));
}

/* --- pidfds ----------------------------------------------------------------- */

/* The holder's pidfd: the feature was probed (NS_F_SETNS_PIDFD), so it must open. */
static int pidfd_opened(int pidfd)
{
	return pidfd < 0 ? child_fail("pidfd_open: %m") : 0;
}

static int pidfd_mnt_worker(void *arg)
{
	unsigned long flags = *(unsigned long *)arg;
	struct holder_fds f;
	int rc = hold_mnt_uts(&f);

	if (!rc)
		rc = pidfd_opened(f.pidfd);
	if (!rc)
		rc = shared_fs_refused(f.pidfd, flags, 0, &f.target);
	if (!rc)
		rc = shared_fs_refused(f.pidfd, flags, 1, &f.target);
	release(&f);
	return rc;
}

static void pidfd_mnt_test(struct __test_metadata *_metadata, unsigned long flags)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	NS_NEED(NS_F_SETNS_PIDFD);
	rc = ns_run(0, pidfd_mnt_worker, &flags);
	ASSERT_EQ(0, rc);
}

/*
 * setns(pidfd, CLONE_NEWNS) while sharing fs context (a CLONE_FS process, a thread) fails with
 * EINVAL; alone it joins (setns(2)).
 */
TEST(setns_pidfd_mntns_while_sharing_fs_einval)
{
	pidfd_mnt_test(_metadata, CLONE_NEWNS);
}

/*
 * setns(pidfd, CLONE_NEWNS | CLONE_NEWUTS) while sharing fs context fails with EINVAL and joins
 * neither (setns(2) "mount namespaces").
 *
 * With another type in the same call the kernel checks fs->users on the
 * private copy of fs_struct that prepare_nsset() makes (always 1), so the
 * refusal never happens and commit_nsset() then moves the root and cwd of
 * every process sharing the caller's fs_struct.
 */
TEST(setns_pidfd_mntns_and_uts_while_sharing_fs_einval)
{
	pidfd_mnt_test(_metadata, CLONE_NEWNS | CLONE_NEWUTS);
}

static int pidfd_flags_worker(void *arg)
{
	static const unsigned long bad[] = {
		0, CLONE_NEWUTS | CLONE_VM, CLONE_NEWUTS | CLONE_FS, CLONE_NEWUTS | SIGCHLD,
		CLONE_NEWUTS | CLONE_THREAD, CLONE_NEWUTS | CLONE_PIDFD,
	};
	struct mnt_uts before, now;
	struct holder_fds f;
	int rc = hold_mnt_uts(&f);

	(void)arg;
	if (!rc)
		rc = pidfd_opened(f.pidfd);
	if (!rc && take(&before))
		rc = child_fail("stat: %m");
	for (size_t i = 0; !rc && i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		if (setns(f.pidfd, bad[i]) != -1 || errno != EINVAL)
			rc = child_fail("setns(pidfd, %#lx): %m, not EINVAL", bad[i]);
		else if (take(&now) || !ns_ident_eq(&now.uts, &before.uts) ||
			 !ns_ident_eq(&now.mnt, &before.mnt))
			rc = child_fail("the refused setns(pidfd, %#lx) changed a namespace",
					bad[i]);
	}
	/* the control: CLONE_NEWUTS alone joins */
	if (!rc && (setns(f.pidfd, CLONE_NEWUTS) || take(&now) ||
		    !ns_ident_eq(&now.uts, &f.target.uts)))
		rc = child_fail("setns(pidfd, CLONE_NEWUTS) did not join: %m");
	release(&f);
	return rc;
}

/*
 * setns(pidfd, 0) and setns(pidfd) with bits other than CLONE_NEW* fail with EINVAL and join
 * nothing (setns(2) ERRORS).
 */
TEST(setns_pidfd_nstype_zero_or_stray_bits_einval)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	NS_NEED(NS_F_SETNS_PIDFD);
	rc = ns_run(0, pidfd_flags_worker, NULL);
	ASSERT_EQ(0, rc);
}

static int pidfd_reaped_worker(void *arg)
{
	struct mnt_uts before, now;
	struct holder_fds f;
	int rc = hold_mnt_uts(&f), pidfd;

	(void)arg;
	if (!rc)
		rc = pidfd_opened(f.pidfd);
	pidfd = f.pidfd;
	f.pidfd = -1;
	release(&f);	/* the holder exits and is waited for */
	if (!rc && take(&before))
		rc = child_fail("stat: %m");
	if (!rc) {
		errno = 0;
		if (setns(pidfd, CLONE_NEWUTS) != -1 || errno != ESRCH)
			rc = child_fail("setns(pidfd of a reaped process): %m, not ESRCH");
		else if (take(&now) || !ns_ident_eq(&now.uts, &before.uts))
			rc = child_fail("the refused setns changed the uts namespace");
	}
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}

/*
 * setns() on the pidfd of a process that ended and was waited on fails with ESRCH; before, it
 * joined (setns(2) ERRORS).
 */
TEST(setns_pidfd_of_reaped_process_esrch)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	NS_NEED(NS_F_SETNS_PIDFD);
	rc = ns_run(0, pidfd_reaped_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- pidfd_open ------------------------------------------------------------- */


/*
 * pidfd_open() sets close-on-exec on the new fd, with flags 0 and PIDFD_NONBLOCK (pidfd_open(2)).
 */
TEST(pidfd_open_sets_close_on_exec)
{
	const unsigned int flags[] = { 0, PIDFD_NONBLOCK };

	for (int i = 0; i < 2; i++) {
		int fd = syscall(434 /* pidfd_open */, getpid(), flags[i]);

		NS_NEED_FEATURE(NS_F_PIDFD_OPEN, fd < 0 && errno == ENOSYS);
		ASSERT_LE(0, fd) TH_LOG("pidfd_open(self, %#x): %s", flags[i], strerror(errno));
		EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC)
			TH_LOG("pidfd_open(self, %#x) without close-on-exec", flags[i]);
		close(fd);
	}
}

/* In a new PID ns: our outer PID names nobody here; 1 is the caller. */
static int pidfd_open_inside(void *arg)
{
	pid_t outer = *(pid_t *)arg;
	int fd;

	if (getpid() != 1)
		return child_fail("not PID 1 of a new PID namespace");
	errno = 0;
	fd = ns_pidfd_open(outer);
	if (fd >= 0 || errno != ESRCH)
		return child_fail("pidfd_open(%d), a PID of the parent namespace only: %m, not "
				  "ESRCH",
				  outer);
	fd = ns_pidfd_open(1);
	if (fd < 0)
		return child_fail("pidfd_open(1) of itself: %m");
	close(fd);
	return 0;
}

static int pidfd_open_worker(void *arg)
{
	pid_t self = getpid(), pid;
	int fd;

	(void)arg;
	fd = ns_pidfd_open(self);
	if (fd < 0)
		return errno == ENOSYS ? NS_CHILD_SKIP : child_fail("pidfd_open(self): %m");
	close(fd);
	if (self == 1)
		return child_fail("the worker is PID 1: its PID exists in every namespace below");
	if (ns_unshare_admin(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	pid = ns_clone(0);
	if (pid == 0)
		_exit(pidfd_open_inside(&self));
	/* seen from here the child is an ordinary process: it opens */
	fd = pid < 0 ? -1 : ns_pidfd_open(pid);
	if (fd < 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("pidfd_open(%d) of the child from its parent namespace: %m", pid);
	}
	close(fd);
	if (ns_wait(pid, NS_WAIT_MS))
		return 1;
	/* and once reaped it is gone from here too */
	errno = 0;
	fd = ns_pidfd_open(pid);
	if (fd >= 0 || errno != ESRCH)
		return child_fail("pidfd_open(%d) of a reaped child: %m, not ESRCH", pid);
	return 0;
}

/*
 * pidfd_open() of a PID the caller's PID namespace does not have (a parent ns's PID, a reaped
 * child) fails with ESRCH (pidfd_open(2) ERRORS).
 */
TEST(pidfd_open_pid_outside_own_namespace_esrch)
{
	const char *why = ns_userns_blocker(false);
	int rc;

	NS_NEED_WHY(why);
	rc = ns_run(0, pidfd_open_worker, NULL);
	NS_NEED_FEATURE(NS_F_PIDFD_OPEN, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
