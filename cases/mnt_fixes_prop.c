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
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

static int move_mount_paths(const char *from, const char *to, unsigned int flags)
{
	return syscall(__NR_move_mount, AT_FDCWD, from, AT_FDCWD, to, flags);
}

/* Create @path holding @text; 0 or the value of child_fail(). */
static int put_file(const char *path, const char *text)
{
	int err = mnt_touch(path);

	if (!err)
		err = ns_write_file(path, text);
	if (err) {
		errno = -err;
		return child_fail("write %s: %m", path);
	}
	return 0;
}

/* 0 when @path reads @want; else the value of child_fail() naming @when. */
static int reads(const char *path, const char *want, const char *when)
{
	char buf[16];
	int err = ns_read_file(path, buf, sizeof(buf));

	if (err < 0) {
		errno = -err;
		return child_fail("%s: read %s: %m, expected \"%s\"", when, path, want);
	}
	if (strcmp(buf, want))
		return child_fail("%s: %s reads \"%s\", expected \"%s\"", when, path, buf, want);
	return 0;
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
	if (put_file("/tmp/p", "P") || mount("/tmp/c", "/tmp/p", NULL, MS_BIND, NULL))
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
		/* What it lets out: a copy of the namespace loses the cover too. */
		if (unshare(CLONE_NEWNS))
			rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) of a mount namespace file "
					"beneath a locked mount succeeded (and unshare: %m)");
		else if (!reads("/tmp/f", "S", "in a copy"))
			rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) of a mount namespace file "
					"beneath a locked mount succeeded: a copy of the namespace "
					"shows the file the locked mount covers");
		else
			rc = child_fail("move_mount(MOVE_MOUNT_BENEATH) of a mount namespace file "
					"beneath a locked mount succeeded");
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
	if (put_file("/tmp/f", "S") || put_file("/tmp/g", "S") || put_file("/tmp/c", "C"))
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
 * lock", Debian 7.2.13, can_move_mount_beneath()).  Up to 7.0 no mount goes
 * beneath a locked mount (EINVAL, can_move_mount_beneath() of
 * linux:6ac392815628 "fs: allow to mount beneath top mount"); since 7.1 a
 * plain mount does and takes the lock over, and the mount on top can be
 * unmounted: that move is the probe of the generation.
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

TEST_HARNESS_MAIN
