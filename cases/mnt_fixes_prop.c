// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for mount-namespace fixes that Debian's kernels ship, the
 * propagation, locking and mount API rows of fixtures/data/fixes.tsv whose
 * test names this binary (issue 27, item 2; cases/mnt_fixes.c holds the
 * others).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer to an input
 * the fix leaves alone, so that both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

static int move_mount_paths(const char *from, const char *to, unsigned int flags)
{
	return syscall(__NR_move_mount, AT_FDCWD, from, AT_FDCWD, to, flags);
}

/*
 * The probe of MOVE_MOUNT_BENEATH (6.5): a known flag gets as far as the
 * lookup of a missing source (ENOENT), an unknown one is EINVAL before it.
 * 0 when the kernel has it, NS_CHILD_SKIP when not, else child_fail().
 */
static int have_move_beneath(const char *to)
{
	if (!move_mount_paths("/tmp/nsconform-missing", to, MOVE_MOUNT_BENEATH))
		return child_fail("MOVE_MOUNT_BENEATH from a missing path succeeded");
	if (errno == EINVAL || errno == ENOSYS)
		return ns_child_lacks(NS_F_MOVE_MOUNT_BENEATH);
	if (errno != ENOENT)
		return child_fail("MOVE_MOUNT_BENEATH from a missing path: %m, expected ENOENT");
	return 0;
}

/* Number of mounts at @point in @pid's mount namespace. */
struct count_at {
	const char *point;
	int n;
};

static int count_one(const struct mnt_info *mi, void *arg)
{
	struct count_at *c = arg;

	if (!strcmp(mi->point, c->point))
		c->n++;
	return 0;
}

static int mounts_at(pid_t pid, const char *point)
{
	struct count_at c = { .point = point };
	int err = mnt_info_each(pid, count_one, &c);

	return err < 0 ? err : c.n;
}

/* --- locks and MOVE_MOUNT_BENEATH ------------------------------------------ */

/*
 * In a mount namespace made less privileged than ours: the bind mounts on
 * /tmp/f and /tmp/g came from ours and are locked.
 */
static int ns_file_beneath_child(void *arg)
{
	char nsfile[64];
	struct ns_holder h;
	int err, rc;

	(void)arg;
	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("a user and mount namespace: %m");
	}
	if (!umount2("/tmp/f", 0) || errno != EINVAL)
		return child_fail("umount2() of a mount inherited by a less privileged namespace: "
				  "%m, expected EINVAL (locked)");
	rc = have_move_beneath("/tmp/f");
	if (rc)
		return rc;
	/*
	 * The input the fix leaves alone, and the probe of the generation: a
	 * plain mount moved beneath a locked mount takes the lock over where
	 * the kernel lets it go there at all (EINVAL before).
	 */
	if (mnt_put_file("/tmp/p", "P") || mount("/tmp/c", "/tmp/p", NULL, MS_BIND, NULL))
		return child_fail("a bind mount on /tmp/p: %m");
	if (!move_mount_paths("/tmp/p", "/tmp/g", MOVE_MOUNT_BENEATH)) {
		if (umount2("/tmp/g", 0))
			return child_fail("umount2() of the mount a bind mount was moved beneath: "
					  "%m (it should have given its lock away)");
		if (!umount2("/tmp/g", 0) || errno != EINVAL)
			return child_fail("umount2() of the mount moved beneath a locked one: %m, "
					  "expected EINVAL (it took the lock over)");
	} else if (errno != EINVAL) {
		return child_fail("move_mount(MOVE_MOUNT_BENEATH) of a bind mount beneath a "
				  "locked mount: %m, expected success or EINVAL");
	} else if (!umount2("/tmp/g", 0) || errno != EINVAL) {
		return child_fail("umount2() of a locked mount after a refused move beneath it: "
				  "%m, expected EINVAL (still locked)");
	}
	/* The input the fix refuses: a mount namespace file, which copies leave out. */
	if (ns_holder_start(&h, CLONE_NEWNS, NULL, NULL))
		return child_fail("a newer mount namespace");
	snprintf(nsfile, sizeof(nsfile), "/proc/%d/ns/mnt", h.pid);
	rc = 0;
	if (mnt_touch("/tmp/n") || mount(nsfile, "/tmp/n", NULL, MS_BIND, NULL)) {
		rc = child_fail("bind %s on /tmp/n: %m", nsfile);
	} else if (!move_mount_paths("/tmp/n", "/tmp/f", MOVE_MOUNT_BENEATH)) {
		char buf[16] = "";

		/* What it lets out: a copy of the namespace loses the cover too. */
		if (!unshare(CLONE_NEWNS))
			ns_read_file("/tmp/f", buf, sizeof(buf));
		rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) of a mount namespace file beneath "
				"a locked mount succeeded%s", strcmp(buf, "S") ? "" :
				": a copy of the namespace shows the file the locked mount covers");
	} else if (errno != EINVAL) {
		rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) of a mount namespace file beneath "
				"a locked mount: %m, expected EINVAL");
	} else if (!umount2("/tmp/f", 0) || errno != EINVAL) {
		rc = child_fail("umount2() of the locked mount after the refused move: %m, "
				"expected EINVAL (still locked)");
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder of the newer mount namespace failed");
	return rc;
}

static int ns_file_beneath_worker(void *arg)
{
	(void)arg;
	/* Ours, then the one the child makes, then the holder's: in order on one CPU. */
	if (mnt_own_ns_on_one_cpu())
		return 1;
	if (mnt_put_file("/tmp/f", "S") || mnt_put_file("/tmp/g", "S") || mnt_put_file("/tmp/c", "C"))
		return 1;
	if (mount("/tmp/c", "/tmp/f", NULL, MS_BIND, NULL) ||
	    mount("/tmp/c", "/tmp/g", NULL, MS_BIND, NULL))
		return child_fail("bind /tmp/c on /tmp/f and /tmp/g: %m");
	return ns_run(0, ns_file_beneath_child, NULL);
}

/*
 * A mount of a mount namespace file is not moved beneath a locked mount:
 * EINVAL, and the locked mount stays locked.  Every copy of the namespace
 * leaves such a mount out together with what is mounted on it, so it can't
 * take over the lock, or the copy would show what the locked mount covers
 * (fix "namespace: a mount that copy_tree() leaves out can't take over a
 * lock", Debian 7.2.13, can_move_mount_beneath()).  Older kernels let no
 * mount go beneath a locked mount (EINVAL; 6.12's can_move_mount_beneath(),
 * from linux:6ac392815628 "fs: allow to mount beneath top mount"); 7.1 and
 * later let a plain mount go there and take the lock over, after which the
 * mount on top can be unmounted: that move is the probe of the generation.
 */
TEST(ns_file_beneath_locked_mount_einval)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, ns_file_beneath_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

static int copy_beneath_worker(void *arg)
{
	struct mnt_peer p;
	int rc, n, err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/s", 0755) || mnt_tmpfs("/tmp/s", 0) ||
	    mnt_set_propagation("/tmp/s", MS_SHARED) || mkdir("/tmp/s/x", 0755) ||
	    mnt_tmpfs("/tmp/s/x", 0) || mnt_set_propagation("/tmp/s/x", MS_PRIVATE) ||
	    mkdir("/tmp/n", 0755) || mnt_tmpfs("/tmp/n", 0))
		return child_fail("/tmp/s shared, a private mount on /tmp/s/x, one on /tmp/n");
	rc = have_move_beneath("/tmp/s/x");
	if (rc)
		return rc;
	/* The peer's copy of /tmp/s receives from ours; its /tmp/s/x is locked. */
	err = mnt_peer_start(&p, true);
	if (err) {
		errno = -err;
		return child_fail("a less privileged peer: %m");
	}
	if (move_mount_paths("/tmp/n", "/tmp/s/x", MOVE_MOUNT_BENEATH)) {
		rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) onto /tmp/s/x: %m");
		goto out;
	}
	/* The input the fix leaves alone: ours goes beneath, the copy beneath the peer's. */
	n = mounts_at(0, "/tmp/s/x");
	if (n != 2) {
		rc = child_fail("%d mounts at /tmp/s/x after the move, expected 2", n);
		goto out;
	}
	n = mounts_at(p.pid, "/tmp/s/x");
	if (n != 2) {
		rc = child_fail("%d mounts at /tmp/s/x in the peer after the move, expected 2 "
				"(the locked mount and the propagated copy)", n);
		goto out;
	}
	/* The input the fix changes: the copy beneath does not unlock the mount on top. */
	err = mnt_peer_do(&p, MNT_OP_UMOUNT, "/tmp/s/x", NULL, 0);
	if (err != EINVAL)
		rc = child_fail("umount2() in the peer of its locked mount after a copy was "
				"propagated beneath it: %s, expected EINVAL (still locked)",
				err ? strerror(err) : "success");
out:
	err = mnt_peer_stop(&p);
	if (err && !rc)
		rc = child_fail("the peer failed (%d)", err);
	return rc;
}

/*
 * A mount propagated to a mountpoint where a mount already sits goes beneath
 * that mount (mount_namespaces(7) "Shared subtrees"); when the mount on top
 * is locked (it came with the copy of a more privileged namespace,
 * mount_namespaces(7) "Restrictions on mount namespaces") it keeps its lock:
 * the copy goes away when the mounter of the original unmounts it, so the
 * copy can't keep covering what the locked mount hides (fix "namespace: keep
 * the lock on a mount that a propagated copy is moved beneath", Debian
 * 7.2.11, attach_recursive_mnt(): before it the lock went to the copy).
 */
TEST(propagated_copy_beneath_locked_mount_keeps_its_lock)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, copy_beneath_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

static int move_onto_fd(const char *from, int to_fd, unsigned int flags)
{
	return syscall(__NR_move_mount, AT_FDCWD, from, to_fd, "",
		       flags | MOVE_MOUNT_T_EMPTY_PATH);
}

static int beneath_unmounted_worker(void *arg)
{
	int fd, dfd, fs, n, rc = 0;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/t", 0755) || mnt_tmpfs("/tmp/t", 0) || mkdir("/tmp/n", 0755) ||
	    mnt_tmpfs("/tmp/n", 0))
		return child_fail("mounts on /tmp/t and /tmp/n: %m");
	rc = have_move_beneath("/tmp/t");
	if (rc)
		return rc;
	/* The mount on /tmp/t, held by a descriptor, then unmounted. */
	fd = open("/tmp/t", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open(/tmp/t, O_PATH): %m");
	if (umount2("/tmp/t", MNT_DETACH)) {
		rc = child_fail("umount2(/tmp/t, MNT_DETACH): %m");
		goto out;
	}
	/* The input the change leaves alone: a plain move onto the unmounted mount. */
	if (!move_onto_fd("/tmp/n", fd, 0)) {
		rc = child_fail("move_mount() onto an unmounted mount succeeded");
		goto out;
	}
	if (errno != ENOENT) {
		rc = child_fail("move_mount() onto an unmounted mount: %m, expected ENOENT");
		goto out;
	}
	/* The input it changes: the same move beneath it. */
	if (!move_onto_fd("/tmp/n", fd, MOVE_MOUNT_BENEATH)) {
		rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) onto an unmounted mount succeeded");
		goto out;
	}
	if (errno != ENOENT) {
		rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) onto an unmounted mount: %m, "
				"expected ENOENT (it is no longer mounted, as without the flag)");
		goto out;
	}
	n = mounts_at(0, "/tmp/n");
	if (n != 1) {
		rc = child_fail("%d mounts at /tmp/n after the refused moves, expected 1", n);
		goto out;
	}
	/* The other side: beneath a detached mount is one of the page's EINVAL restrictions. */
	fs = ns_fsopen("tmpfs", 0);
	if (fs < 0 || ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		rc = child_fail("fsopen(tmpfs), FSCONFIG_CMD_CREATE: %m");
	} else if ((dfd = ns_fsmount(fs, FSMOUNT_CLOEXEC, 0)) < 0) {
		rc = child_fail("fsmount(): %m");
	} else {
		if (!move_onto_fd("/tmp/n", dfd, MOVE_MOUNT_BENEATH))
			rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) onto a detached mount "
					"succeeded");
		else if (errno != EINVAL)
			rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) onto a detached mount: %m, "
					"expected EINVAL");
		close(dfd);
	}
	if (fs >= 0)
		close(fs);
out:
	close(fd);
	return rc;
}

/*
 * A mount that is no longer mounted (unmounted lazily while a descriptor
 * holds it) is no place to move a mount to: move_mount() through that
 * descriptor fails with ENOENT, with MOVE_MOUNT_BENEATH as without it
 * (linux:6ac392815628 "fs: allow to mount beneath top mount": do_lock_mount()
 * answers ENOENT for a location that is not mounted, in both cases).  A
 * detached mount made by fsmount() is mounted in its anonymous namespace, and
 * MOVE_MOUNT_BENEATH refuses it with EINVAL (move_mount(2), MOVE_MOUNT_BENEATH:
 * "The target path ... must not be a detached mount object").  The backport to
 * 6.17.8 of linux:d29da1a8f119 ("move_mount(2): take sanity checks in
 * 'beneath' case into do_lock_mount()") refuses the unmounted mount with
 * EINVAL before it looks whether it is mounted; 6.18, which took the commit
 * upstream, answers ENOENT.
 */
TEST(move_beneath_an_unmounted_mount_enoent)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, beneath_unmounted_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- /proc/PID/mountinfo -------------------------------------------------- */

#define MI_MAX 65536

/* All of /proc/self/mountinfo into @buf (MI_MAX bytes): its length, or -errno. */
static int mountinfo_all(char *buf)
{
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	int len = 0, n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, MI_MAX - 1 - len)) > 0)
		len += n;
	n = n < 0 ? -errno : len;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Offset of the end of the last line for mount point @point in @mi, or -1. */
static int line_end_of(const char *mi, const char *point)
{
	char key[MNT_PATH_MAX + 2];
	const char *l;
	int found = -1;

	snprintf(key, sizeof(key), " %s ", point);
	for (l = mi; *l; l = strchr(l, '\n') + 1) {
		const char *end = strchr(l, '\n');
		const char *p;

		if (!end)
			break;
		/* the fifth field is the mount point */
		p = l;
		for (int i = 0; i < 4 && p; i++)
			p = strchr(p + 1, ' ');
		if (p && !strncmp(p, key, strlen(key)))
			found = end + 1 - mi;
	}
	return found;
}

static int proc_iter_worker(void *arg)
{
	static char ref[MI_MAX], rest[MI_MAX];
	int fd, off, end, len, n, reads, rc = 1;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	/* /tmp, then b and c: the last three mounts in the order of their ids. */
	if (mkdir("/tmp/b", 0755) || mkdir("/tmp/c", 0755) || mnt_tmpfs("/tmp/b", 0) ||
	    mnt_tmpfs("/tmp/c", 0))
		return child_fail("tmpfs on /tmp/b and /tmp/c: %m");
	len = mountinfo_all(ref);
	if (len < 0 || len >= MI_MAX - 1) {
		errno = len < 0 ? -len : EFBIG;
		return child_fail("read /proc/self/mountinfo: %m");
	}
	end = line_end_of(ref, "/tmp");
	n = line_end_of(ref, "/tmp/b");
	off = line_end_of(ref, "/tmp/c");
	if (end < 0 || n < 0 || off != len || strchr(ref + end, '\n') + 1 != ref + n)
		return child_fail("mountinfo does not end with /tmp, /tmp/b, /tmp/c:\n%s", ref);
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /proc/self/mountinfo: %m");
	/* A line a read, up to the end of /tmp's: the next one to show is /tmp/b's. */
	for (off = 0; off < end; off += n) {
		const char *nl = strchr(ref + off, '\n');

		n = read(fd, rest, nl + 1 - (ref + off));
		if (n != nl + 1 - (ref + off) || memcmp(rest, ref + off, n)) {
			child_fail("read %td bytes at %d: %d, expected the line \"%.*s\"",
				   nl + 1 - (ref + off), off, n, (int)(nl - (ref + off)), ref + off);
			goto out;
		}
	}
	/* The input the fix changes: the next mount to show is gone before the next read. */
	if (umount2("/tmp/b", 0)) {
		child_fail("umount2(/tmp/b): %m");
		goto out;
	}
	len = 0;
	for (reads = 0; reads < 1000; reads++) {
		n = read(fd, rest + len, MI_MAX - 1 - len);
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0) {
		child_fail("read the rest of /proc/self/mountinfo: %m");
		goto out;
	}
	rest[len] = '\0';
	/* The rest is the line of /tmp/c, once. */
	off = line_end_of(ref, "/tmp/b");
	if (len != (int)strlen(ref + off) || memcmp(rest, ref + off, len)) {
		child_fail("after the umount of the next mount, the rest of mountinfo (%d reads) "
			   "is\n%s\nexpected the line of /tmp/c once:\n%s", reads, rest, ref + off);
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

/*
 * /proc/PID/mountinfo lists each mount of the namespace once (proc_pid_mountinfo(5));
 * read in parts, a mount unmounted between two reads is left out and the mounts after it are
 * shown once each (fix "namespace: fix proc mount iteration", Debian 6.12.85, m_start() and
 * m_next(): before it m_start() left the position at the unmounted mount, and the last mount
 * was shown again on each read until the position reached its id).  The input the fix leaves
 * alone: the lines before, each read a line at a time, are those of a single read.
 */
TEST(mountinfo_read_across_an_umount_shows_each_mount_once)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, proc_iter_worker, NULL));
}

/* --- mount_setattr() --------------------------------------------------------- */

static int rootfs_setattr_worker(void *arg)
{
	struct nsc_mount_attr a = { .attr_set = MOUNT_ATTR_NOSUID };
	struct statfs sf;
	int fd;

	(void)arg;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return child_fail("make / private: %m");
	fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open our mount namespace: %m");
	/*
	 * Detach everything on top of the namespace's root mount: setns()
	 * then puts us at that mount, which has no parent and is in no
	 * anonymous namespace.
	 */
	if (chdir("/") || umount2("/", MNT_DETACH))
		return child_fail("detach /: %m");
	if (setns(fd, CLONE_NEWNS))
		return child_fail("setns() into our own mount namespace: %m");
	close(fd);
	if (ns_mount_setattr(-1, "/", 0, &a)) {
		if (errno == ENOSYS)
			return ns_child_lacks(NS_F_MOUNT_SETATTR);
		return child_fail("mount_setattr(MOUNT_ATTR_NOSUID) on the root mount of our "
				  "mount namespace: %m");
	}
	if (statfs("/", &sf) || !(sf.f_flags & ST_NOSUID))
		return child_fail("the root mount is not nosuid after mount_setattr(): %m");
	/* As mount(2) does (the input the fix leaves alone). */
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL))
		return child_fail("mount(MS_REMOUNT | MS_BIND) of the root mount: %m");
	if (statfs("/", &sf) || (sf.f_flags & ST_NOSUID))
		return child_fail("the root mount is still nosuid after mount(MS_REMOUNT | "
				  "MS_BIND): %m");
	return 0;
}

/*
 * mount_setattr() changes the properties of the root mount of the caller's
 * mount namespace, the mount without a parent that no anonymous namespace
 * holds, as mount(2) with MS_REMOUNT | MS_BIND does (linux:46f5ab762d04 "fs:
 * relax mount_setattr() permission checks": before it mount_setattr() said
 * EINVAL for it).  Real root only: in a less privileged namespace the mounts
 * on top of that root are locked and can't be detached.
 */
TEST(mount_setattr_on_the_namespace_root_mount)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	rc = ns_run(CLONE_NEWNS, rootfs_setattr_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOUNT_SETATTR, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- detached mounts and the mount count ------------------------------------- */

/*
 * @rounds times: a detached copy of /tmp/src moved onto @target, then
 * unmounted.  0, or the value of child_fail() naming the round that failed.
 */
static int attach_and_detach(const char *target, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		int fd = ns_open_tree(AT_FDCWD, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

		if (fd < 0)
			return child_fail("round %d: open_tree(OPEN_TREE_CLONE): %m", i);
		if (syscall(__NR_move_mount, fd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH)) {
			child_fail("round %d: move_mount() of a detached mount onto %s: %m",
				   i, target);
			close(fd);
			return 1;
		}
		close(fd);
		if (umount2(target, MNT_DETACH))
			return child_fail("round %d: umount2(%s): %m", i, target);
	}
	return 0;
}

static int detached_count_worker(void *arg)
{
	int rounds, n;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/src", 0755) || mnt_tmpfs("/tmp/src", 0) || mkdir("/tmp/p", 0755) ||
	    mkdir("/tmp/s", 0755) || mnt_tmpfs("/tmp/s", 0) ||
	    mnt_set_propagation("/tmp/s", MS_SHARED) || mkdir("/tmp/s/m", 0755))
		return child_fail("/tmp/src, /tmp/p and a shared /tmp/s: %m");
	n = ns_open_tree(AT_FDCWD, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (n < 0 && errno == ENOSYS)
		return ns_child_lacks(NS_F_OPEN_TREE);
	if (n >= 0)
		close(n);
	/* More rounds than the namespace has mounts: a count off by one a round wraps. */
	n = mnt_info_count(0);
	if (n <= 0)
		return child_fail("count our mounts: %s", strerror(-n));
	rounds = n + 64;
	/* The input the fix leaves alone: a target on a private mount. */
	if (attach_and_detach("/tmp/p", rounds))
		return 1;
	/* The input the fix changes: a target on a shared mount. */
	if (attach_and_detach("/tmp/s/m", rounds))
		return 1;
	n = mnt_tmpfs("/tmp/p", 0);
	if (n)
		return child_fail("a tmpfs mount after the rounds: %s", strerror(-n));
	return 0;
}

/*
 * A mount namespace refuses new mounts with ENOSPC only when they would take
 * it past /proc/sys/fs/mount-max (proc(5) "/proc/sys/fs/mount-max"): a
 * detached mount attached to a target on a shared mount and unmounted again,
 * as many rounds as the namespace has mounts and more, leaves the count right
 * and the next mount succeeds (fix "mount: fix mounting of detached mounts
 * onto targets that reside on shared mounts", Debian 5.10.24: before it the
 * rounds drove the namespace's mount count out of range, after which every
 * mount was refused with ENOSPC).
 */
TEST(detached_mounts_attached_to_shared_target_keep_the_count)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, detached_count_worker, NULL);
	NS_NEED_FEATURE(NS_F_OPEN_TREE, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
