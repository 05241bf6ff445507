// SPDX-License-Identifier: GPL-2.0
/*
 * The root of an empty mount namespace (unshare(UNSHARE_EMPTY_MNTNS), 7.1):
 * one nullfs inode, of the kernel's internal nullfs superblock, that every
 * such namespace shares, which none may change and on which none may hold
 * up another.  Behaviours that the kernel's own 7.3 selftests (empty_mntns)
 * flag on a Debian release and pass on another release of the same series
 * (issue 27, item 3; fixtures/data/peers.tsv maps each peer test to its
 * nsconform test); they were in cases/mnt_peers2.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* --- the root of an empty mount namespace ---------------------------------- */

static int empty_root_worker(void *arg)
{
	struct statfs st;
	int fd;

	(void)arg;
	/*
	 * Always as root of a user namespace of our own, never with the initial one's
	 * privilege: a kernel that lets the shared nullfs superblock be reconfigured
	 * must not get the chance to make it read-only for everybody.
	 */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("a user namespace with a mount namespace: %m");
	if (ns_private_tmp("size=1m"))
		return 1;
	/* The other side: fspick() of an ordinary superblock of ours gives a context. */
	fd = fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC);
	if (fd < 0)
		return child_fail("fspick(/tmp), a tmpfs of ours: %m");
	close(fd);
	if (unshare(UNSHARE_EMPTY_MNTNS))
		return errno == EINVAL ? ns_child_lacks(NS_F_UNSHARE_EMPTY_MNTNS) :
		       child_fail("unshare(UNSHARE_EMPTY_MNTNS): %m");
	fd = fspick(AT_FDCWD, "/", FSPICK_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return child_fail("fspick(/) in an empty mount namespace gave a context for the "
				  "kernel's internal nullfs superblock");
	}
	if (errno != EINVAL)
		return child_fail("fspick(/) in an empty mount namespace: %m, expected EINVAL");
	if (!mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL))
		return child_fail("MS_REMOUNT|MS_RDONLY of the empty namespace's root succeeded");
	if (errno != EINVAL)
		return child_fail("MS_REMOUNT|MS_RDONLY of the empty namespace's root: %m, "
				  "expected EINVAL");
	if (statfs("/", &st))
		return child_fail("statfs(/): %m");
	if (st.f_flags & ST_RDONLY)
		return child_fail("the empty namespace's root is read-only");
	return 0;
}

/*
 * The root of a mount namespace made by unshare(UNSHARE_EMPTY_MNTNS) is a mount of the kernel's
 * internal nullfs superblock, which every empty mount namespace shares; it cannot be
 * reconfigured: fspick(2) of it and mount(MS_REMOUNT) of it are refused with EINVAL (while
 * fspick() of a tmpfs of the caller's works) and it stays writable (fixes "fs: refuse fspick()
 * on internal superblocks" and "namespace: don't reconfigure internal superblocks via remount
 * and umount", Debian 7.2.11: before them fspick() gave a context and MS_REMOUNT reached the
 * superblock's permission check (EPERM), as the upstream selftest
 * empty_mntns/internal_sb_reconfigure nullfs_root finds on 7.2.6).
 */
TEST(empty_mntns_root_not_reconfigurable_einval)
{
	NS_RUN_ADMIN_WORKER(empty_root_worker, NULL, NS_F_UNSHARE_EMPTY_MNTNS);
}

struct root_times {
	struct stat before, after;	/* the watcher's root, around the reader's read */
	struct stat reader;		/* the reader's root */
};

/* A child in an empty mount namespace of its own (@reader: it reads its root, strictatime). */
static int empty_root_child(struct ns_sync *s, struct root_times *t, bool reader)
{
	struct nsc_mount_attr attr = {
		.attr_set = MOUNT_ATTR_STRICTATIME,
		.attr_clr = MOUNT_ATTR__ATIME,
	};
	struct dirent *de;
	DIR *d;

	if (unshare(UNSHARE_EMPTY_MNTNS))
		return errno == EINVAL ? ns_child_lacks(NS_F_UNSHARE_EMPTY_MNTNS) :
		       child_fail("unshare(UNSHARE_EMPTY_MNTNS): %m");
	if (!reader) {
		if (stat("/", &t->before) || ns_sync_tell(s, true, NULL, 0) ||
		    ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS) || stat("/", &t->after))
			return child_fail("the watcher's stat of its root, before and after: %m");
		return 0;
	}
	/* strictatime: a read updates the access time wherever the file system keeps one. */
	if (ns_mount_setattr(AT_FDCWD, "/", 0, &attr))
		return child_fail("mount_setattr(MOUNT_ATTR_STRICTATIME) of our root: %m");
	if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("no word from the parent");
	d = opendir("/");
	if (!d)
		return child_fail("opendir(/): %m");
	while ((de = readdir(d)))
		;
	closedir(d);
	if (stat("/", &t->reader) || ns_sync_tell(s, true, NULL, 0))
		return child_fail("the reader's stat of its root: %m");
	return 0;
}

static int root_atime_worker(void *arg)
{
	struct root_times *t = arg;
	struct ns_sync ws, rs;
	pid_t w, r = -1;
	int rc = 1, wrc, rrc = 0;

	w = ns_clone_synced(ns_clone, 0, &ws);
	if (w == 0)
		_exit(empty_root_child(&ws, t, false));
	if (w < 0)
		return child_fail("the watcher: %m");
	r = ns_clone_synced(ns_clone, 0, &rs);
	if (r == 0)
		_exit(empty_root_child(&rs, t, true));
	if (r < 0) {
		child_fail("the reader: %m");
		goto out;
	}
	/* The watcher has its time; the reader reads; the watcher looks again. */
	if (ns_sync_wait(&ws, false, NULL, 0, NS_WAIT_MS) || ns_sync_tell(&rs, false, NULL, 0) ||
	    ns_sync_wait(&rs, false, NULL, 0, NS_WAIT_MS) || ns_sync_tell(&ws, false, NULL, 0)) {
		child_fail("the watcher or the reader stopped talking");
		goto out;
	}
	rc = 0;
out:
	ns_sync_close(&ws);
	wrc = ns_wait(w, NS_WAIT_MS);
	if (r > 0) {
		ns_sync_close(&rs);
		rrc = ns_wait(r, NS_WAIT_MS);
	}
	if (wrc == NS_CHILD_SKIP || rrc == NS_CHILD_SKIP)
		return NS_CHILD_SKIP;
	if (rc || wrc || rrc)
		return rc ? rc : child_fail("the watcher (exit %d) or the reader (exit %d) failed",
					    wrc, rrc);
	return 0;
}

/*
 * Every empty mount namespace (unshare(UNSHARE_EMPTY_MNTNS)) has the same nullfs inode as its
 * root, so nothing done in one may show in another: a read of its root by one namespace, with
 * MOUNT_ATTR_STRICTATIME on its root mount, leaves the access time another namespace sees of its
 * root exactly as it was (fix "nullfs: don't update the access time", Debian 7.2.11: before it
 * the read moved the time the other namespace sees, as the upstream selftest
 * empty_mntns/nullfs_atime empty_mntns_root_atime finds on 7.2.6).
 */
TEST(empty_mntns_root_read_leaves_atime_alone)
{
	struct root_times *t;
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	t = ns_shared_page(sizeof(*t));
	ASSERT_NE(NULL, t);
	rc = ns_run_admin(0, root_atime_worker, t);
	NS_NEED_FEATURE(NS_F_UNSHARE_EMPTY_MNTNS, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
	/* The two roots are one inode: what makes a time seen in both. */
	EXPECT_EQ(t->before.st_dev, t->reader.st_dev);
	EXPECT_EQ(t->before.st_ino, t->reader.st_ino);
	EXPECT_EQ(t->before.st_atim.tv_sec, t->after.st_atim.tv_sec);
	EXPECT_EQ(t->before.st_atim.tv_nsec, t->after.st_atim.tv_nsec);
}

/* --- a readdir of the shared nullfs root, stalled ------------------------- */

/* The stalled reader's answer when the kernel gives it no userfaultfd. */
#define NO_USERFAULTFD 3

struct stall {
	int mkdir_err;		/* B's mkdir("/x") errno, 0 when it succeeded */
	long mkdir_ms;		/* how long it took */
};

struct stall_reader {
	int dfd;
	void *buf;
};

static void *stall_getdents(void *arg)
{
	struct stall_reader *r = arg;

	syscall(__NR_getdents64, r->dfd, r->buf, 4096);
	return NULL;
}

/* A: getdents64() of its empty namespace's root into a page userfaultfd holds back. */
static int stalled_reader(struct ns_sync *s)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct stall_reader r;
	struct uffd_msg msg;
	struct pollfd pfd;
	pthread_t th;
	int uffd;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		return errno == ENOSYS ? NO_USERFAULTFD : child_fail("userfaultfd: %m");
	r.buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)r.buf;
	reg.range.len = 4096;
	if (r.buf == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg))
		return child_fail("a page registered with userfaultfd: %m");
	if (unshare(UNSHARE_EMPTY_MNTNS))
		return errno == EINVAL ? ns_child_lacks(NS_F_UNSHARE_EMPTY_MNTNS) :
		       child_fail("unshare(UNSHARE_EMPTY_MNTNS): %m");
	r.dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.dfd < 0 || pthread_create(&th, NULL, stall_getdents, &r))
		return child_fail("open / and start the reader thread: %m");
	/* The fault arrives: the thread is inside getdents64(), its buffer missing. */
	pfd = (struct pollfd){ .fd = uffd, .events = POLLIN };
	if (poll(&pfd, 1, NS_WAIT_MS) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		child_fail("no page fault from the reader's getdents64(): %m");
		_exit(1);	/* the thread may never come back */
	}
	if (ns_sync_tell(s, true, NULL, 0) || ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		child_fail("no word from the parent while stalled");
	zero.range.start = (unsigned long)r.buf;
	zero.range.len = 4096;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero))
		return child_fail("UFFDIO_ZEROPAGE: %m");
	pthread_join(th, NULL);
	return 0;
}

/* B: mkdir("/x") in an empty mount namespace of its own, timed. */
static int stall_creator(struct ns_sync *s, struct stall *st)
{
	long t0;

	if (unshare(UNSHARE_EMPTY_MNTNS))
		return child_fail("unshare(UNSHARE_EMPTY_MNTNS): %m");
	t0 = ns_now_ms();
	st->mkdir_err = mkdir("/x", 0755) ? errno : 0;
	st->mkdir_ms = ns_now_ms() - t0;
	return ns_sync_tell(s, true, NULL, 0) ? child_fail("word to the parent: %m") : 0;
}

static int readdir_stall_worker(void *arg)
{
	struct stall *st = arg;
	struct ns_sync sa, sb;
	pid_t a, b = -1;
	int rc = 0, arc, brc = 0, done;

	a = ns_clone_synced(ns_clone, 0, &sa);
	if (a == 0)
		_exit(stalled_reader(&sa));
	if (a < 0)
		return child_fail("the reader: %m");
	if (ns_sync_wait(&sa, false, NULL, 0, NS_WAIT_MS)) {
		ns_sync_close(&sa);
		arc = ns_wait(a, NS_WAIT_MS);
		return arc ? arc : child_fail("the reader stopped talking");
	}
	b = ns_clone_synced(ns_clone, 0, &sb);
	if (b == 0)
		_exit(stall_creator(&sb, st));
	if (b < 0)
		rc = child_fail("the creator: %m");
	/* B must come back while A is still stalled: 3 s. */
	done = b > 0 && !ns_sync_wait(&sb, false, NULL, 0, 3000);
	ns_sync_tell(&sa, false, NULL, 0);
	ns_sync_close(&sa);
	arc = ns_wait(a, NS_WAIT_MS);
	if (b > 0) {
		if (!done)
			ns_sync_wait(&sb, false, NULL, 0, NS_WAIT_MS);
		ns_sync_close(&sb);
		brc = ns_wait(b, NS_WAIT_MS);
	}
	if (!rc && !done)
		rc = child_fail("mkdir(/x) in another empty mount namespace waited for the stalled "
				"readdir (%ld ms)", st->mkdir_ms);
	if (arc == NS_CHILD_SKIP || arc == NO_USERFAULTFD)
		return arc;
	return rc ? rc : arc ? arc : brc;
}

/*
 * Every empty mount namespace (unshare(UNSHARE_EMPTY_MNTNS)) has the same immutable nullfs
 * directory as its root, so what one does there must not hold up another: while a getdents64()
 * of its root in one namespace is stuck in the page fault of its buffer (userfaultfd), a
 * mkdir("/x") in another empty namespace returns at once, refused with ENOENT (fix "readdir:
 * take no inode lock on an immutable directory", Debian 7.2.12: before it the reader held the
 * directory's lock and the mkdir waited for it, as the upstream selftest
 * empty_mntns/root_readdir readdir_blocks_nobody finds on 7.1.3 and 7.2.6; nullfs has no
 * entry to make, hence ENOENT, 7.2.12 and 7.3.4 alike).  Real root:
 * userfaultfd for faults in the kernel.
 */
TEST(empty_mntns_root_stalled_readdir_blocks_nobody)
{
	struct stall *st;
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	st = ns_shared_page(sizeof(*st));
	ASSERT_NE(NULL, st);
	st->mkdir_err = -1;
	rc = ns_run_admin(0, readdir_stall_worker, st);
	NS_NEED_FEATURE(NS_F_UNSHARE_EMPTY_MNTNS, rc == NS_CHILD_SKIP);
	NS_NEED_ENV(rc != NO_USERFAULTFD, NS_WHY_FEATURE_CONFIG, "userfaultfd",
		    "CONFIG_USERFAULTFD");
	ASSERT_EQ(0, rc);
	TH_LOG("mkdir(/x) in the other empty namespace: %s after %ld ms",
	       strerror(st->mkdir_err), st->mkdir_ms);
	EXPECT_EQ(ENOENT, st->mkdir_err);
}

TEST_HARNESS_MAIN
