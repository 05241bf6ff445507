// SPDX-License-Identifier: GPL-2.0
/*
 * Less privileged mount namespaces: a mount namespace created together
 * with a user namespace, copied from one owned by another user namespace
 * (mount_namespaces(7) "Restrictions on mount namespaces", user_namespaces(7)).
 * Shared mounts become slaves, and the mounts that came from the more
 * privileged namespace are locked: they cannot be unmounted, moved or
 * split off to reveal what they cover, and their locked flags (read-only
 * here) cannot be cleared.
 *
 * Each test has a base tmpfs in a private mount namespace of its own
 * (fixtures/mnt.h); a "less privileged" peer child makes a user
 * namespace and a mount namespace, and a peer in a new mount namespace
 * of the same user namespace is the control where the same operation
 * succeeds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

FIXTURE(locked) {
	struct mnt_base b;
	char l[MNT_PATH_MAX];		/* a tmpfs covering l/hidden */
	char hidden[MNT_PATH_MAX];
	char own[MNT_PATH_MAX];		/* an empty directory */
	char dst[MNT_PATH_MAX];		/* an empty directory */
};

FIXTURE_SETUP(locked)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_mkdir(&self->b, "l"));
	ASSERT_EQ(0, mnt_touch(mnt_path(self->hidden, &self->b, "l/hidden")));
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(self->l, &self->b, "l"), 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "own"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "dst"));
	mnt_path(self->own, &self->b, "own");
	mnt_path(self->dst, &self->b, "dst");
}

FIXTURE_TEARDOWN(locked)
{
}

/*
 * Shared mounts copied into a less privileged mount namespace become slaves: events come in, none
 * go back (mount_namespaces(7)).
 */
TEST_F(locked, less_privileged_copy_turns_shared_into_slave)
{
	char s[MNT_PATH_MAX], p1[MNT_PATH_MAX], c1[MNT_PATH_MAX];
	struct mnt_info ours, ctl, lp;
	struct mnt_peer same, less;

	ASSERT_EQ(0, mnt_make(&self->b, "s", s, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/p1"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/c1"));
	mnt_path(p1, &self->b, "s/p1");
	mnt_path(c1, &self->b, "s/c1");
	ASSERT_EQ(0, mnt_set_propagation(s, MS_SHARED));
	MNT_START_LESS_PRIVILEGED(&less);
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	ours = mnt_info_at(0, s);
	ctl = mnt_info_at(same.pid, s);
	lp = mnt_info_at(less.pid, s);
	/* Control: same user namespace, still a peer. */
	EXPECT_LT(0, ours.shared);
	EXPECT_EQ(ours.shared, ctl.shared);
	/* Less privileged: a slave of our peer group, not shared. */
	EXPECT_EQ(0, lp.shared);
	EXPECT_EQ(ours.shared, lp.master);
	ASSERT_EQ(0, mnt_tmpfs(p1, 0));
	EXPECT_EQ(1, mnt_peer_sees(&less, p1));
	ASSERT_EQ(0, mnt_peer_do(&less, MNT_OP_TMPFS, c1, NULL, 0));
	EXPECT_EQ(1, mnt_peer_sees(&less, c1));
	EXPECT_EQ(0, mnt_we_see(c1));
	EXPECT_EQ(0, mnt_peer_sees(&same, c1));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * An inherited mount covering another is locked: umount2() fails with EINVAL, with or without
 * MNT_DETACH; the namespace's own mounts unmount fine (mount_namespaces(7)).
 */
TEST_F(locked, locked_covering_mount_umount_einval)
{
	struct mnt_peer same, less;

	MNT_START_LESS_PRIVILEGED(&less);
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_UMOUNT, self->l, NULL, 0));
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_UMOUNT, self->l, NULL, MNT_DETACH));
	EXPECT_EQ(1, mnt_peer_sees(&less, self->l));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_EXISTS, self->hidden, NULL, 0));
	/* Its own mount it can unmount. */
	ASSERT_EQ(0, mnt_peer_do(&less, MNT_OP_TMPFS, self->own, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_UMOUNT, self->own, NULL, 0));
	EXPECT_EQ(0, mnt_peer_sees(&less, self->own));
	/* Control: in the same user namespace the umount works and reveals. */
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_UMOUNT, self->l, NULL, 0));
	EXPECT_EQ(0, mnt_peer_sees(&same, self->l));
	EXPECT_EQ(1, mnt_peer_do(&same, MNT_OP_EXISTS, self->hidden, NULL, 0));
	/* Ours is untouched. */
	EXPECT_EQ(1, mnt_we_see(self->l));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * Mounts propagated into a less privileged mount ns arrive locked together: detachable whole, not
 * piecemeal (mount_namespaces(7)).
 *
 * The locking comes from kernel commit 5ff9d8a65ce8 "vfs: Lock in place
 * mounts from more privileged users".
 */
TEST_F(locked, propagated_tree_arrives_locked)
{
	char s[MNT_PATH_MAX], p1[MNT_PATH_MAX], t[MNT_PATH_MAX];
	char psub[MNT_PATH_MAX], phidden[MNT_PATH_MAX], hidden[MNT_PATH_MAX];
	char tsub[MNT_PATH_MAX];
	struct mnt_peer less;

	ASSERT_EQ(0, mnt_make(&self->b, "t", t, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "t/sub"));
	ASSERT_EQ(0, mnt_touch(mnt_path(hidden, &self->b, "t/sub/hidden")));
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(tsub, &self->b, "t/sub"), 0));
	ASSERT_EQ(0, mnt_make(&self->b, "s", s, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/p1"));
	mnt_path(p1, &self->b, "s/p1");
	mnt_path(psub, &self->b, "s/p1/sub");
	mnt_path(phidden, &self->b, "s/p1/sub/hidden");
	ASSERT_EQ(0, mnt_set_propagation(s, MS_SHARED));
	MNT_START_LESS_PRIVILEGED(&less);
	ASSERT_EQ(0, mount(t, p1, NULL, MS_BIND | MS_REC, NULL));
	ASSERT_EQ(1, mnt_peer_sees(&less, p1));
	ASSERT_EQ(1, mnt_peer_sees(&less, psub));
	/* The submount cannot be taken off to show what it covers... */
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_UMOUNT, psub, NULL, 0));
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_UMOUNT, psub, NULL, MNT_DETACH));
	EXPECT_EQ(1, mnt_peer_sees(&less, psub));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_EXISTS, phidden, NULL, 0));
	/* ...but the propagated unit can go as a whole. */
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_UMOUNT, p1, NULL, MNT_DETACH));
	EXPECT_EQ(0, mnt_peer_sees(&less, p1));
	EXPECT_EQ(0, mnt_info_has(less.pid, psub));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_EXISTS, psub, NULL, 0));
	/* A slave's unmount does not travel back to us. */
	EXPECT_EQ(1, mnt_we_see(psub));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * Clearing a locked MS_RDONLY with MS_REMOUNT|MS_BIND fails with EPERM and the mount stays
 * read-only (mount_namespaces(7), mount(2) EPERM).
 */
TEST_F(locked, locked_readonly_cannot_be_cleared)
{
	char ro[MNT_PATH_MAX], file[MNT_PATH_MAX], ownfile[MNT_PATH_MAX];
	struct mnt_peer same, less;

	/* A read-only mount of a writable tmpfs: the flag is the mount's. */
	ASSERT_EQ(0, mnt_make(&self->b, "ro", ro, 0));
	ASSERT_EQ(0, mount(NULL, ro, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL));
	ASSERT_TRUE(mnt_opt_has(mnt_info_at(0, ro).opts, "ro"));
	mnt_path(file, &self->b, "ro/file");
	mnt_path(ownfile, &self->b, "own/file");
	MNT_START_LESS_PRIVILEGED(&less);
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(less.pid, ro).opts, "ro"));
	EXPECT_EQ(EPERM, mnt_peer_do(&less, MNT_OP_REMOUNT, ro, NULL, MS_BIND));
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(less.pid, ro).opts, "ro"));
	EXPECT_EQ(EROFS, mnt_peer_do(&less, MNT_OP_CREATE, file, NULL, 0));
	/* Keeping it read-only is allowed: only clearing the flag is refused. */
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_REMOUNT, ro, NULL, MS_BIND | MS_RDONLY));
	/* Its own read-only mount it can make writable. */
	ASSERT_EQ(0, mnt_peer_do(&less, MNT_OP_TMPFS, self->own, NULL, 0));
	ASSERT_EQ(0, mnt_peer_do(&less, MNT_OP_REMOUNT, self->own, NULL, MS_BIND | MS_RDONLY));
	EXPECT_EQ(EROFS, mnt_peer_do(&less, MNT_OP_CREATE, ownfile, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_REMOUNT, self->own, NULL, MS_BIND));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_CREATE, ownfile, NULL, 0));
	/* Control: the same remount works in our user namespace. */
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_REMOUNT, ro, NULL, MS_BIND));
	EXPECT_FALSE(mnt_opt_has(mnt_info_at(same.pid, ro).opts, "ro"));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_CREATE, file, NULL, 0));
	/* Our own mount stays read-only. */
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(0, ro).opts, "ro"));
	EXPECT_EQ(-EROFS, mnt_touch(file));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * Mounts that came as a unit stay together: a non-recursive bind that would leave a locked child
 * behind fails with EINVAL, a recursive one works (mount_namespaces(7)).
 */
TEST_F(locked, locked_tree_not_split_by_bind)
{
	char t[MNT_PATH_MAX], sub[MNT_PATH_MAX], hidden[MNT_PATH_MAX];
	char dsub[MNT_PATH_MAX], dhidden[MNT_PATH_MAX];
	struct mnt_peer same, less;

	ASSERT_EQ(0, mnt_make(&self->b, "t", t, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "t/sub"));
	ASSERT_EQ(0, mnt_touch(mnt_path(hidden, &self->b, "t/sub/hidden")));
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(sub, &self->b, "t/sub"), 0));
	mnt_path(dsub, &self->b, "dst/sub");
	mnt_path(dhidden, &self->b, "dst/sub/hidden");
	MNT_START_LESS_PRIVILEGED(&less);
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_BIND, t, self->dst, 0));
	EXPECT_EQ(0, mnt_peer_sees(&less, self->dst));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_BIND, t, self->dst, MS_REC));
	EXPECT_EQ(1, mnt_peer_sees(&less, self->dst));
	EXPECT_EQ(1, mnt_peer_sees(&less, dsub));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_EXISTS, dhidden, NULL, 0));
	/* Control: with the privilege, the lone bind works and reveals. */
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_BIND, t, self->dst, 0));
	EXPECT_EQ(0, mnt_peer_sees(&same, dsub));
	EXPECT_EQ(1, mnt_peer_do(&same, MNT_OP_EXISTS, dhidden, NULL, 0));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * An inherited (locked) mount cannot be moved away with MS_MOVE either: EINVAL
 * (mount_namespaces(7), mount(2)).
 */
TEST_F(locked, locked_mount_cannot_be_moved)
{
	struct mnt_peer same, less;

	MNT_START_LESS_PRIVILEGED(&less);
	EXPECT_EQ(EINVAL, mnt_peer_do(&less, MNT_OP_MOVE, self->l, self->dst, 0));
	EXPECT_EQ(1, mnt_peer_sees(&less, self->l));
	EXPECT_EQ(0, mnt_peer_sees(&less, self->dst));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_EXISTS, self->hidden, NULL, 0));
	/* Its own mount it can move. */
	ASSERT_EQ(0, mnt_peer_do(&less, MNT_OP_TMPFS, self->own, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_MOVE, self->own, self->dst, 0));
	EXPECT_EQ(1, mnt_peer_sees(&less, self->dst));
	EXPECT_EQ(0, mnt_peer_sees(&less, self->own));
	/* Control: in our user namespace the move works. */
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_MOVE, self->l, self->dst, 0));
	EXPECT_EQ(1, mnt_peer_sees(&same, self->dst));
	EXPECT_EQ(1, mnt_peer_do(&same, MNT_OP_EXISTS, self->hidden, NULL, 0));
	EXPECT_EQ(1, mnt_we_see(self->l));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/*
 * A mount propagated into a less privileged mount namespace arrives with its ro, nosuid and noexec
 * locked: a remount there clearing any one of them is EPERM, keeping all works; a peer in our user
 * namespace can clear them (mount_namespaces(7) [5] "become locked when propagated").
 */
TEST_F(locked, propagated_mount_flags_arrive_locked)
{
	static const unsigned long keep = MS_RDONLY | MS_NOSUID | MS_NOEXEC;
	static const unsigned long flag[3] = { MS_RDONLY, MS_NOSUID, MS_NOEXEC };
	static const char *const opt[3] = { "ro", "nosuid", "noexec" };
	char s[MNT_PATH_MAX], p1[MNT_PATH_MAX];
	struct mnt_peer same, less;
	struct mnt_info mi;
	int i;

	ASSERT_EQ(0, mnt_make(&self->b, "s", s, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/p1"));
	mnt_path(p1, &self->b, "s/p1");
	ASSERT_EQ(0, mnt_set_propagation(s, MS_SHARED));
	MNT_START_LESS_PRIVILEGED(&less);
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	/* Mounted after both namespaces exist: it reaches them by propagation. */
	ASSERT_EQ(0, mnt_tmpfs(p1, keep));
	ASSERT_EQ(1, mnt_peer_sees(&less, p1));
	ASSERT_EQ(1, mnt_peer_sees(&same, p1));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(EPERM, mnt_peer_do(&less, MNT_OP_REMOUNT, p1, NULL,
					     MS_BIND | (keep & ~flag[i])))
			TH_LOG("clearing flag %d", i);
	}
	mi = mnt_info_at(less.pid, p1);
	for (i = 0; i < 3; i++)
		EXPECT_TRUE(mnt_opt_has(mi.opts, opt[i])) TH_LOG("flag %d: %s", i, mi.opts);
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_REMOUNT, p1, NULL, MS_BIND | keep));
	/* Control: in our user namespace all three can go. */
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_REMOUNT, p1, NULL, MS_BIND));
	mi = mnt_info_at(same.pid, p1);
	for (i = 0; i < 3; i++)
		EXPECT_FALSE(mnt_opt_has(mi.opts, opt[i])) TH_LOG("flag %d: %s", i, mi.opts);
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

/* --- an automount triggered from a less privileged namespace ----------------- */

#define DBG_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

/*
 * In a user namespace and mount namespace of its own (less privileged), trigger the tracefs
 * automount through @arg, a descriptor of the more privileged debugfs mount: the automount is
 * mounted there and propagates into our copy, whose flags are locked.
 */
static int automount_trigger(void *arg)
{
	int dfd = *(int *)arg, err;
	struct stat st;

	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("user and mount namespace: %m");
	}
	if (fstatat(dfd, "tracing/.", &st, 0))
		return child_fail("trigger the automount through the descriptor: %m");
	if (mnt_we_see("/tmp/dbg/tracing") != 1)
		return child_fail("the automount did not propagate into our copy");
	if (!mount(NULL, "/tmp/dbg/tracing", NULL, MS_REMOUNT | MS_BIND, NULL))
		return child_fail("clearing nosuid,nodev,noexec of the propagated automount in "
				  "the less privileged namespace succeeded");
	if (errno != EPERM)
		return child_fail("clearing the locked flags of the propagated automount: %m, "
				  "expected EPERM");
	return 0;
}

static int automount_lock_worker(void *arg)
{
	int dfd, err, rc;
	pid_t pid;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/dbg", 0755))
		return child_fail("mkdir /tmp/dbg: %m");
	err = mnt_debugfs_automount("/tmp/dbg", DBG_FLAGS);
	if (err == -ENODEV || err == -ENOENT)
		return ns_child_lacks(NS_F_TRACEFS_AUTOMOUNT);
	if (err || mnt_set_propagation("/tmp/dbg", MS_SHARED)) {
		errno = -err;
		return child_fail("a shared debugfs on /tmp/dbg: %m");
	}
	dfd = open("/tmp/dbg", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return child_fail("open /tmp/dbg: %m");
	pid = ns_clone(0);
	if (pid == 0)
		_exit(automount_trigger(&dfd));
	close(dfd);
	if (pid < 0)
		return child_fail("fork: %m");
	rc = ns_wait(pid, NS_WAIT_MS);
	if (rc)
		return child_fail("the less privileged side failed (exit %d)", rc);
	/* The original, in the namespace that owns it, is not locked. */
	if (mnt_we_see("/tmp/dbg/tracing") != 1)
		return child_fail("the automount is not mounted in our namespace");
	if (mount(NULL, "/tmp/dbg/tracing", NULL, MS_REMOUNT | MS_BIND, NULL))
		return child_fail("clearing nosuid,nodev,noexec of our own automount: %m");
	return 0;
}

/*
 * Mount flags become locked when propagated from a more privileged to a less privileged mount
 * namespace, and only there (mount_namespaces(7) "Restrictions on mount namespaces"), also for
 * an automount that a process of the less privileged namespace triggers through a descriptor of
 * the more privileged mount: its copy there refuses clearing nosuid,nodev,noexec with EPERM,
 * the original clears them (fix "namespace: handle mount locking for automounts correctly",
 * Debian 6.1.192, 6.12.115 and 7.2.11: before it the lock went to the original, as the upstream
 * selftest umount_propagation/locked_mount automount_locked_in_the_triggering_namespace finds;
 * unfixed in 6.18.y as of 6.18.44).  Real root: debugfs mounts only in the initial user
 * namespace.
 */
TEST(automount_flags_locked_only_in_less_privileged_copy)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, automount_lock_worker, NULL);
	NS_NEED_FEATURE(NS_F_TRACEFS_AUTOMOUNT, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/*
 * In a less privileged copy, where the tracefs automount under /tmp/dbg is locked: a recursive
 * bind of /tmp/dbg on /tmp/x carries the lock to the automount's copy but not to its own root;
 * the umount of that root, our working directory, is EBUSY and leaves the locked automount.
 */
static int locked_automount_child(void *arg)
{
	struct stat root, st;
	int err;

	(void)arg;
	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("user and mount namespace: %m");
	}
	if (mount("/tmp/dbg", "/tmp/x", NULL, MS_BIND | MS_REC, NULL))
		return child_fail("recursive bind of /tmp/dbg on /tmp/x: %m");
	if (!umount2("/tmp/x/tracing", 0))
		return child_fail("umount2() of the automount's copy in the bind succeeded");
	if (errno != EINVAL)
		return child_fail("umount2() of the locked automount's copy: %m, expected EINVAL");
	if (chdir("/tmp/x"))
		return child_fail("chdir /tmp/x: %m");
	if (!umount2("/tmp/x", 0))
		return child_fail("umount2(/tmp/x), our working directory, succeeded");
	if (errno != EBUSY)
		return child_fail("umount2(/tmp/x), our working directory: %m, expected EBUSY");
	if (stat("/tmp/x", &root) || fstatat(AT_FDCWD, "/tmp/x/tracing", &st, AT_NO_AUTOMOUNT))
		return child_fail("stat /tmp/x and /tmp/x/tracing: %m");
	if (st.st_dev == root.st_dev)
		return child_fail("the locked automount under /tmp/x went with the refused umount");
	return 0;
}

static int locked_automount_worker(void *arg)
{
	struct stat st;
	pid_t pid;
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/dbg", 0755) || mkdir("/tmp/x", 0755))
		return child_fail("mkdir: %m");
	err = mnt_debugfs_automount("/tmp/dbg", DBG_FLAGS);
	if (err == -ENODEV || err == -ENOENT)
		return ns_child_lacks(NS_F_TRACEFS_AUTOMOUNT);
	if (err) {
		errno = -err;
		return child_fail("debugfs on /tmp/dbg: %m");
	}
	/* Triggered here, the automount is in the tree the less privileged copy gets. */
	if (stat("/tmp/dbg/tracing/.", &st) || mnt_we_see("/tmp/dbg/tracing") != 1)
		return child_fail("trigger the automount: %m");
	pid = ns_clone(0);
	if (pid == 0)
		_exit(locked_automount_child(NULL));
	if (pid < 0)
		return child_fail("fork: %m");
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * Mounts that come together from a more privileged mount namespace are locked together and
 * cannot be taken apart in the less privileged one (mount_namespaces(7) "Restrictions on mount
 * namespaces"), automounts included: a refused (EBUSY) umount of an unlocked bind above a
 * locked automount must not take the automount with it, as expiring the bind's submounts did
 * (fix "namespace: never expire a locked mount", Debian 6.12.117 and 7.2.11; the upstream
 * selftest umount_propagation/locked_mount umount_of_a_bind_leaves_a_locked_automount_alone;
 * unfixed in 6.18.y as of 6.18.44).  Real root: debugfs mounts only in the initial user
 * namespace.
 */
TEST(refused_umount_leaves_locked_automount_below)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, locked_automount_worker, NULL);
	NS_NEED_FEATURE(NS_F_TRACEFS_AUTOMOUNT, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
