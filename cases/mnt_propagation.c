// SPDX-License-Identifier: GPL-2.0
/*
 * Mount propagation between two mount namespaces: shared, slave, private
 * and unbindable mounts, their mountinfo optional fields, and recursive
 * propagation changes (mount_namespaces(7) "Shared subtrees", the
 * article's "Mount namespaces and shared subtrees" and "mount propagation,
 * and unbindable mounts").
 *
 * Each test works on a tmpfs in a private mount namespace of its own
 * (fixtures/mnt.h); the second namespace is a peer child that makes
 * mount events on request.  Events are checked in both namespaces, by
 * stat() from inside and by /proc/PID/mountinfo from outside.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

FIXTURE(prop) {
	struct mnt_base b;
	char s[MNT_PATH_MAX];	/* a tmpfs under the base, for the test to use */
	char p1[MNT_PATH_MAX];	/* s/p1: where we mount */
	char c1[MNT_PATH_MAX];	/* s/c1: where the peer mounts */
};

FIXTURE_SETUP(prop)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "s", self->s, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/p1"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/c1"));
	mnt_path(self->p1, &self->b, "s/p1");
	mnt_path(self->c1, &self->b, "s/c1");
}

FIXTURE_TEARDOWN(prop)
{
}

/*
 * Shared mounts propagate mount and unmount events both ways between peers, and share a "shared:N"
 * peer group id (mount_namespaces(7) MS_SHARED).
 */
TEST_F(prop, shared_peers_propagate_both_ways)
{
	struct mnt_info ours, theirs;
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ours = mnt_info_at(0, self->s);
	theirs = mnt_info_at(p.pid, self->s);
	EXPECT_LT(0, ours.shared);
	EXPECT_EQ(ours.shared, theirs.shared);
	EXPECT_EQ(0, theirs.master);
	/* Ours -> theirs. */
	ASSERT_EQ(0, mnt_tmpfs(self->p1, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, self->p1));
	/* Theirs -> ours. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, self->c1, NULL, 0));
	EXPECT_EQ(1, mnt_we_see(self->c1));
	/* Unmount events travel too, both ways. */
	ASSERT_EQ(0, umount2(self->p1, 0));
	EXPECT_EQ(0, mnt_peer_sees(&p, self->p1));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_UMOUNT, self->c1, NULL, 0));
	EXPECT_EQ(0, mnt_we_see(self->c1));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * A slave receives events from its master but sends none back; its mountinfo shows "master:N" with
 * the master's group id (mount_namespaces(7) MS_SLAVE).
 */
TEST_F(prop, slave_receives_but_does_not_send)
{
	struct mnt_info ours, theirs;
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_SETPROP, self->s, NULL, MS_SLAVE));
	ours = mnt_info_at(0, self->s);
	theirs = mnt_info_at(p.pid, self->s);
	EXPECT_LT(0, ours.shared);
	EXPECT_EQ(0, ours.master);
	EXPECT_EQ(0, theirs.shared);
	EXPECT_EQ(ours.shared, theirs.master);
	/* Master -> slave: received. */
	ASSERT_EQ(0, mnt_tmpfs(self->p1, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, self->p1));
	/* Slave -> master: the peer has its mount, we do not. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, self->c1, NULL, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, self->c1));
	EXPECT_EQ(0, mnt_we_see(self->c1));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * A private mount neither sends nor receives events, while a shared sibling does; no optional
 * fields (mount_namespaces(7) MS_PRIVATE).
 */
TEST_F(prop, private_neither_sends_nor_receives)
{
	char q[MNT_PATH_MAX], qp1[MNT_PATH_MAX], qc1[MNT_PATH_MAX];
	struct mnt_info theirs;
	struct mnt_peer p;

	/* q is the control: shared in both namespaces throughout. */
	ASSERT_EQ(0, mnt_make(&self->b, "q", q, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "q/p1"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "q/c1"));
	mnt_path(qp1, &self->b, "q/p1");
	mnt_path(qc1, &self->b, "q/c1");
	ASSERT_EQ(0, mnt_set_propagation(q, MS_SHARED));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_SETPROP, self->s, NULL, MS_PRIVATE));
	theirs = mnt_info_at(p.pid, self->s);
	EXPECT_EQ(0, theirs.shared);
	EXPECT_EQ(0, theirs.master);
	EXPECT_LT(0, mnt_info_at(p.pid, q).shared);
	/* Ours -> theirs: only through the shared control. */
	ASSERT_EQ(0, mnt_tmpfs(self->p1, 0));
	ASSERT_EQ(0, mnt_tmpfs(qp1, 0));
	EXPECT_EQ(0, mnt_peer_sees(&p, self->p1));
	EXPECT_EQ(1, mnt_peer_sees(&p, qp1));
	/* Theirs -> ours: likewise. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, self->c1, NULL, 0));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, qc1, NULL, 0));
	EXPECT_EQ(0, mnt_we_see(self->c1));
	EXPECT_EQ(1, mnt_we_see(qc1));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * An unbindable mount cannot be bind-mounted (EINVAL), stays unbindable in a new namespace's copy,
 * and is private (mount_namespaces(7) MS_UNBINDABLE).
 */
TEST_F(prop, unbindable_bind_fails_einval)
{
	char dst[MNT_PATH_MAX], other[MNT_PATH_MAX];
	struct mnt_info ours, theirs;
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "dst"));
	mnt_path(dst, &self->b, "dst");
	ASSERT_EQ(0, mnt_make(&self->b, "other", other, 0));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_UNBINDABLE));
	ours = mnt_info_at(0, self->s);
	EXPECT_TRUE(ours.unbindable);
	EXPECT_EQ(0, ours.shared);
	/* Binding it fails; binding an ordinary mount works (control). */
	EXPECT_EQ(-1, mount(self->s, dst, NULL, MS_BIND, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, mnt_we_see(dst));
	ASSERT_EQ(0, mount(other, dst, NULL, MS_BIND, NULL));
	EXPECT_EQ(1, mnt_we_see(dst));
	ASSERT_EQ(0, umount2(dst, 0));
	/*
	 * The copy in a new namespace keeps the propagation type: it is
	 * unbindable there too, in mountinfo and to a bind (linux:9676f0c6389b
	 * "[PATCH] unbindable mounts": "the corresponding cloned mount in the
	 * child namespace becomes unbindable too").  Kernels that copy it as
	 * a plain private mount regressed; fixed in stable 7.2.11 ("mount:
	 * keep a copied mount unbindable"), see fixtures/data/expectations.  The
	 * loss does not depend on the mount layout: 6.17.13, 6.18.44 and
	 * 7.2.9 lose the flag and 6.16.12 and 7.2.11 keep it alike with "/"
	 * the namespace's root, a chroot into or a pivot_root into a bind
	 * mount of a directory onto itself (nsrun in a chroot, a container),
	 * and with the unbindable mount on a bind mount; this test uses only
	 * tmpfs mounts of its own.
	 */
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	theirs = mnt_info_at(p.pid, self->s);
	EXPECT_EQ(0, theirs.shared);
	EXPECT_EQ(0, theirs.master);
	EXPECT_TRUE(theirs.unbindable) TH_LOG("the namespace copy lost its unbindable flag");
	EXPECT_EQ(EINVAL, mnt_peer_do(&p, MNT_OP_BIND, self->s, dst, 0));
	EXPECT_EQ(0, mnt_peer_sees(&p, dst));
	if (mnt_peer_sees(&p, dst) == 1)
		ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_UMOUNT, dst, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&p, MNT_OP_BIND, other, dst, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, dst));
	/* And it propagates nothing, either way. */
	ASSERT_EQ(0, mnt_tmpfs(self->p1, 0));
	EXPECT_EQ(0, mnt_peer_sees(&p, self->p1));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, self->c1, NULL, 0));
	EXPECT_EQ(0, mnt_we_see(self->c1));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * A recursive bind replicates every submount except unbindable ones (mount_namespaces(7)
 * MS_UNBINDABLE, article "unbindable mounts").
 */
TEST_F(prop, unbindable_skipped_by_recursive_bind)
{
	char a[MNT_PATH_MAX], c[MNT_PATH_MAX], r[MNT_PATH_MAX];
	char ra[MNT_PATH_MAX], rc[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_make(&self->b, "s/a", a, 0));
	ASSERT_EQ(0, mnt_make(&self->b, "s/c", c, 0));
	ASSERT_EQ(0, mnt_set_propagation(a, MS_UNBINDABLE));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "r"));
	mnt_path(r, &self->b, "r");
	mnt_path(ra, &self->b, "r/a");
	mnt_path(rc, &self->b, "r/c");
	ASSERT_EQ(0, mount(self->s, r, NULL, MS_BIND | MS_REC, NULL));
	EXPECT_EQ(1, mnt_we_see(r));
	EXPECT_EQ(1, mnt_we_see(rc));
	/* The unbindable submount left only its mount point directory behind. */
	EXPECT_EQ(0, mnt_we_see(ra));
	EXPECT_EQ(0, access(ra, F_OK));
}

/*
 * MS_SHARED changes one mount, MS_SHARED|MS_REC (and MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE with
 * MS_REC) every mount below too, and events then travel through the submounts (mount_namespaces(7),
 * mount(2) MS_REC).
 */
TEST_F(prop, rec_propagation_change_applies_to_submounts)
{
	char a[MNT_PATH_MAX], ab[MNT_PATH_MAX], x[MNT_PATH_MAX], y[MNT_PATH_MAX];
	const char *tree[3] = { self->s, a, ab };
	struct mnt_info ours, theirs;
	struct mnt_peer p;
	int i;

	ASSERT_EQ(0, mnt_make(&self->b, "s/a", a, 0));
	ASSERT_EQ(0, mnt_make(&self->b, "s/a/b", ab, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/a/b/x"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/a/b/y"));
	mnt_path(x, &self->b, "s/a/b/x");
	mnt_path(y, &self->b, "s/a/b/y");
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	EXPECT_EQ(0, mnt_info_at(0, a).shared);
	EXPECT_EQ(0, mnt_info_at(0, ab).shared);
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED | MS_REC));
	EXPECT_LT(0, mnt_info_at(0, a).shared);
	EXPECT_LT(0, mnt_info_at(0, ab).shared);
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	/* The peer makes the whole tree its slave with one call. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_SETPROP, self->s, NULL, MS_SLAVE | MS_REC));
	for (i = 0; i < 3; i++) {
		ours = mnt_info_at(0, tree[i]);
		theirs = mnt_info_at(p.pid, tree[i]);
		EXPECT_LT(0, ours.shared);
		EXPECT_EQ(0, theirs.shared) TH_LOG("%s", tree[i]);
		EXPECT_EQ(ours.shared, theirs.master) TH_LOG("%s", tree[i]);
	}
	/* An event on the deepest submount reaches the slave, not back. */
	ASSERT_EQ(0, mnt_tmpfs(x, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, x));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, y, NULL, 0));
	EXPECT_EQ(0, mnt_we_see(y));
	/* MS_PRIVATE|MS_REC clears every optional field of the tree. */
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_PRIVATE | MS_REC));
	for (i = 0; i < 3; i++) {
		ours = mnt_info_at(0, tree[i]);
		EXPECT_EQ(0, ours.shared) TH_LOG("%s", tree[i]);
		EXPECT_EQ(0, ours.master) TH_LOG("%s", tree[i]);
	}
	/* MS_UNBINDABLE|MS_REC makes every mount of it unbindable. */
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_UNBINDABLE | MS_REC));
	for (i = 0; i < 3; i++) {
		ours = mnt_info_at(0, tree[i]);
		EXPECT_TRUE(ours.unbindable) TH_LOG("mount %d", i);
	}
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * A mount both slave and shared ("shared:M master:N") forwards its master's events to its own peer
 * group, and its peers' events go nowhere back (mount_namespaces(7) "slave and shared").
 */
TEST_F(prop, slave_and_shared_forwards_master_events)
{
	char s2[MNT_PATH_MAX], s2p1[MNT_PATH_MAX];
	struct mnt_info ours, t1, t2;
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "s2"));
	mnt_path(s2, &self->b, "s2");
	mnt_path(s2p1, &self->b, "s2/p1");
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_SETPROP, self->s, NULL, MS_SLAVE));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_SETPROP, self->s, NULL, MS_SHARED));
	/* In the peer, s2 becomes a peer of s: same new group, same master. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_BIND, self->s, s2, 0));
	ours = mnt_info_at(0, self->s);
	t1 = mnt_info_at(p.pid, self->s);
	t2 = mnt_info_at(p.pid, s2);
	EXPECT_LT(0, t1.shared);
	EXPECT_NE(ours.shared, t1.shared);
	EXPECT_EQ(ours.shared, t1.master);
	EXPECT_EQ(t1.shared, t2.shared);
	EXPECT_EQ(t1.master, t2.master);
	/* Our event reaches s, and through its peer group s2, in the peer. */
	ASSERT_EQ(0, mnt_tmpfs(self->p1, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, self->p1));
	EXPECT_EQ(1, mnt_peer_sees(&p, s2p1));
	/* An event on s2 reaches its peer s there, but not us. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, mnt_path(s2p1, &self->b, "s2/c1"), NULL, 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, self->c1));
	EXPECT_EQ(0, mnt_we_see(self->c1));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/* --- a propagated copy that arrives without its ns-file overmount ----------- */

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
 * Move the bind mount of file /tmp/s/@name (the mount at /tmp/s/@name.m), with the mount
 * namespace file @nsfile bound on top of it when not NULL, onto /tmp/A/@name, and check
 * that in the slave B the mount on /tmp/B/@name (a bind of a file reading "Q") stays on top
 * of the copy and, unmounted, uncovers it.
 */
static int move_under_slave_cover(const char *name, const char *nsfile)
{
	char src[MNT_PATH_MAX], at[MNT_PATH_MAX], a[MNT_PATH_MAX], b[MNT_PATH_MAX];
	int fd, rc = 1;

	snprintf(src, sizeof(src), "/tmp/s/%s", name);
	snprintf(at, sizeof(at), "/tmp/s/%s.m", name);
	snprintf(a, sizeof(a), "/tmp/A/%s", name);
	snprintf(b, sizeof(b), "/tmp/B/%s", name);
	if (mnt_put_file(src, "S") || mnt_put_file(at, "f") || mnt_put_file(a, "A"))
		return 1;
	if (mount("/tmp/q", b, NULL, MS_BIND, NULL) || mount(src, at, NULL, MS_BIND, NULL))
		return child_fail("the cover on %s and the mount on %s: %m", b, at);
	fd = open(at, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s: %m", at);
	if (nsfile && mount(nsfile, at, NULL, MS_BIND, NULL)) {
		child_fail("bind %s on %s: %m", nsfile, at);
		goto out;
	}
	if (reads(b, "Q", "before the move"))
		goto out;
	if (syscall(__NR_move_mount, fd, "", AT_FDCWD, a, MOVE_MOUNT_F_EMPTY_PATH)) {
		child_fail("move_mount of %s onto %s: %m", at, a);
		goto out;
	}
	if (reads(b, "Q", nsfile ? "after the move of a mount with a mount ns file on top" :
		  "after the move"))
		goto out;
	if (umount2(b, 0)) {
		child_fail("umount2(%s), the cover in the slave: %m", b);
		goto out;
	}
	rc = reads(b, "S", "once the cover is gone");
out:
	close(fd);
	return rc;
}

static int ns_file_cover_worker(void *arg)
{
	char nsfile[64];
	struct ns_holder h;
	int rc;

	(void)arg;
	/* Ours and the newer one in order (nsfs_lifetime/mnt_ns_file_binds_into_older_ns). */
	if (mnt_own_ns_on_one_cpu())
		return 1;
	if (mkdir("/tmp/A", 0755) || mkdir("/tmp/B", 0755) || mkdir("/tmp/s", 0755))
		return child_fail("mkdir: %m");
	if (mnt_tmpfs("/tmp/A", 0) || mnt_set_propagation("/tmp/A", MS_SHARED) ||
	    mount("/tmp/A", "/tmp/B", NULL, MS_BIND, NULL) ||
	    mnt_set_propagation("/tmp/B", MS_SLAVE) || mnt_tmpfs("/tmp/s", 0))
		return child_fail("A shared, B its slave, s a tmpfs");
	if (mnt_put_file("/tmp/q", "Q"))
		return 1;
	/* The input the fix leaves alone: the moved mount has nothing on top. */
	if (move_under_slave_cover("plain", NULL))
		return 1;
	if (ns_holder_start(&h, CLONE_NEWNS, NULL, NULL))
		return child_fail("a newer mount namespace");
	snprintf(nsfile, sizeof(nsfile), "/proc/%d/ns/mnt", h.pid);
	/* The input the fix changes: a mount namespace file on top, left out of the copy. */
	rc = move_under_slave_cover("nsfile", nsfile);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder of the newer namespace failed");
	return rc;
}

/*
 * A mount propagated to a slave's mount point where a mount already sits goes beneath it: the
 * existing mount stays on top and, unmounted, uncovers the copy (mount_namespaces(7) "Shared
 * subtrees"), also when the moved mount has a mount namespace file bound on top of it, which
 * the copy leaves out (fix "namespace: look at the topmost mount for a mount namespace file",
 * Debian 7.2.11: before it the copy went on top of the existing mount, which could then not be
 * unmounted, as the upstream selftest mount_cycle/overmount_ns_file finds; unfixed in 6.18.y as
 * of 6.18.44).
 */
TEST(propagated_copy_goes_beneath_existing_mount_without_ns_file)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, ns_file_cover_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
