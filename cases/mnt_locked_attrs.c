// SPDX-License-Identifier: GPL-2.0
/*
 * Locked mount attributes: a mount copied into a less privileged mount
 * namespace (one owned by a user namespace below ours) keeps each of its
 * read-only, nosuid, nodev, noexec and atime settings locked; neither
 * mount(MS_REMOUNT | MS_BIND) nor mount_setattr(2) can clear one, each
 * asserted on its own.  What stays possible: adding restrictions and
 * removing them again, changing propagation, mounting on top
 * (mount_namespaces(7) "Restrictions on mount namespaces", mount(2) EPERM,
 * mount_setattr(2) EPERM, linux:9566d6742852 ("mnt: Correct permission
 * checks in do_remount")).
 *
 * Each test has a base tmpfs in a private mount namespace of its own and
 * a tmpfs "m" under it with the attribute; the less privileged side is a
 * peer child (fixtures/mnt.h) or a child that made its own user and
 * mount namespaces; the control is the same change in a mount namespace
 * of our own user namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

FIXTURE(lattr) {
	struct mnt_base b;
	char m[MNT_PATH_MAX];
};

FIXTURE_VARIANT(lattr) {
	unsigned long ms;		/* what "m" gets (MS_REMOUNT | MS_BIND | ms) */
	/*
	 * A remount that would lose it.  A remount without any atime flag
	 * keeps the mount's atime mode, so the atime variants name one.
	 */
	unsigned long ms_change;
	const char *opt;		/* its mountinfo option */
	uint64_t attr_set, attr_clr;	/* a mount_setattr() that would lose it */
};

/* One variant per locked flag: LATTR(name, ms, ms_change, opt, attr_set, attr_clr). */
#define LATTR(name, ms_, change, opt_, set, clr)				\
	FIXTURE_VARIANT_ADD(lattr, name) {					\
		.ms = ms_, .ms_change = change, .opt = opt_,			\
		.attr_set = set, .attr_clr = clr,				\
	}
LATTR(rdonly, MS_RDONLY, 0, "ro", 0, MOUNT_ATTR_RDONLY);
LATTR(nosuid, MS_NOSUID, 0, "nosuid", 0, MOUNT_ATTR_NOSUID);
LATTR(nodev, MS_NODEV, 0, "nodev", 0, MOUNT_ATTR_NODEV);
LATTR(noexec, MS_NOEXEC, 0, "noexec", 0, MOUNT_ATTR_NOEXEC);
LATTR(noatime, MS_NOATIME, MS_RELATIME, "noatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME);
LATTR(nodiratime, MS_NODIRATIME, MS_RELATIME, "nodiratime", 0, MOUNT_ATTR_NODIRATIME);
LATTR(relatime, 0, MS_STRICTATIME, "relatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME);

FIXTURE_SETUP(lattr)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "m", self->m, 0));
	ASSERT_EQ(0, mount(NULL, self->m, NULL, MS_REMOUNT | MS_BIND | variant->ms, NULL));
	ASSERT_TRUE(mnt_opt_has(mnt_info_at(0, self->m).opts, variant->opt));
}

FIXTURE_TEARDOWN(lattr)
{
}

/*
 * In a less privileged mount namespace, MS_REMOUNT|MS_BIND that would clear the mount's locked
 * attribute fails with EPERM; keeping it works (mount_namespaces(7), mount(2)).
 */
TEST_F(lattr, remount_cannot_clear_locked_attribute)
{
	struct mnt_peer same, less;

	MNT_START_LESS_PRIVILEGED(&less);
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(less.pid, self->m).opts, variant->opt));
	EXPECT_EQ(EPERM, mnt_peer_do(&less, MNT_OP_REMOUNT, self->m, NULL,
				     MS_BIND | variant->ms_change));
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(less.pid, self->m).opts, variant->opt));
	EXPECT_EQ(0, mnt_peer_do(&less, MNT_OP_REMOUNT, self->m, NULL, MS_BIND | variant->ms));
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(less.pid, self->m).opts, variant->opt));
	/* Control: in our own user namespace the same remount works. */
	ASSERT_EQ(0, mnt_peer_start(&same, false));
	EXPECT_EQ(0, mnt_peer_do(&same, MNT_OP_REMOUNT, self->m, NULL,
				 MS_BIND | variant->ms_change));
	EXPECT_FALSE(mnt_opt_has(mnt_info_at(same.pid, self->m).opts, variant->opt));
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(0, self->m).opts, variant->opt));
	EXPECT_EQ(0, mnt_peer_stop(&same));
	EXPECT_EQ(0, mnt_peer_stop(&less));
}

struct setattr_call {
	const char *path;
	const char *opt;
	struct nsc_mount_attr attr;
	bool less;		/* in a less privileged mount namespace */
	int err;		/* expected errno, 0 for success */
};

static int try_setattr(void *arg)
{
	struct setattr_call *c = arg;
	struct mnt_info mi;
	int rc, err;

	err = c->less ? ns_unshare_userns_root(CLONE_NEWNS) : -(unshare(CLONE_NEWNS) ? errno : 0);
	if (err) {
		errno = -err;
		return child_fail("new mount namespace: %m");
	}
	rc = ns_mount_setattr(-100, c->path, 0, &c->attr);
	if (rc && errno == ENOSYS)
		return NS_CHILD_SKIP;
	if (c->err ? rc != -1 || errno != c->err : rc != 0)
		return child_fail("mount_setattr(%s, set %#llx clr %#llx): %s, expected %s",
				  c->path, (unsigned long long)c->attr.attr_set,
				  (unsigned long long)c->attr.attr_clr,
				  rc ? strerror(errno) : "success",
				  c->err ? strerror(c->err) : "success");
	if (mnt_info_find(0, c->path, &mi))
		return child_fail("%s gone from mountinfo", c->path);
	if (mnt_opt_has(mi.opts, c->opt) != (c->err != 0))
		return child_fail("%s options '%s' after mount_setattr", c->path, mi.opts);
	return 0;
}

/*
 * In a less privileged mount namespace, mount_setattr(2) that would clear a locked attribute fails
 * with EPERM; in our own user namespace it works (mount_setattr(2), 5.12).
 */
TEST_F(lattr, mount_setattr_cannot_clear_locked_attribute)
{
	struct setattr_call c = {
		.path = self->m, .opt = variant->opt,
		.attr = { .attr_set = variant->attr_set, .attr_clr = variant->attr_clr },
		.less = true, .err = EPERM,
	};
	int rc;

	/* Decided before the run: a failing child is a failure, never a SKIP. */
	NS_NEED_USERNS();
	rc = ns_run(0, try_setattr, &c);
	NS_NEED_FEATURE(NS_F_MOUNT_SETATTR, rc == NS_CHILD_SKIP);
	EXPECT_EQ(0, rc);
	c.less = false;
	c.err = 0;
	EXPECT_EQ(0, ns_run(0, try_setattr, &c));
	EXPECT_TRUE(mnt_opt_has(mnt_info_at(0, self->m).opts, variant->opt));
}

/* --- what can still be done ------------------------------------------------ */

FIXTURE(lmore) {
	struct mnt_base b;
	char m[MNT_PATH_MAX];
	struct mnt_peer less;
};

FIXTURE_SETUP(lmore)
{
	self->less.pid = -1;
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "m", self->m, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "m/x"));
	MNT_START_LESS_PRIVILEGED(&self->less);
}

FIXTURE_TEARDOWN(lmore)
{
	if (self->less.pid > 0)
		EXPECT_EQ(0, mnt_peer_stop(&self->less));
}

/*
 * ro/nosuid/nodev/noexec can be added to a locked mount and removed again (only the flags it came
 * with are locked); its atime mode cannot change at all: EPERM (mount_namespaces(7)).
 */
TEST_F(lmore, added_flags_on_locked_mount_can_be_cleared)
{
	const unsigned long all = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	char f[MNT_PATH_MAX];
	const char *opts;

	EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_REMOUNT, self->m, NULL, MS_BIND | all));
	opts = mnt_info_at(self->less.pid, self->m).opts;
	EXPECT_TRUE(mnt_opt_has(opts, "ro") && mnt_opt_has(opts, "nosuid") &&
		    mnt_opt_has(opts, "nodev") && mnt_opt_has(opts, "noexec"));
	EXPECT_EQ(EROFS, mnt_peer_do(&self->less, MNT_OP_CREATE, mnt_subpath(f, self->m, "f"),
				     NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_REMOUNT, self->m, NULL, MS_BIND));
	opts = mnt_info_at(self->less.pid, self->m).opts;
	EXPECT_FALSE(mnt_opt_has(opts, "ro") || mnt_opt_has(opts, "nosuid") ||
		     mnt_opt_has(opts, "nodev") || mnt_opt_has(opts, "noexec"));
	EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_CREATE, f, NULL, 0));
	/* The atime mode is locked whole: not even noatime can be added. */
	EXPECT_EQ(EPERM, mnt_peer_do(&self->less, MNT_OP_REMOUNT, self->m, NULL,
				     MS_BIND | MS_NOATIME));
}

/*
 * The propagation type of a locked mount is not locked: the less privileged namespace can make it
 * shared, private or unbindable (mount_namespaces(7)).
 */
TEST_F(lmore, propagation_of_locked_mount_can_change)
{
	static const unsigned long types[] = { MS_SHARED, MS_PRIVATE, MS_UNBINDABLE, MS_PRIVATE };
	struct mnt_info mi;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_SETPROP, self->m, NULL, types[i]));
		mi = mnt_info_at(self->less.pid, self->m);
		EXPECT_EQ(types[i] == MS_SHARED, mi.shared > 0);
		EXPECT_EQ(types[i] == MS_UNBINDABLE, mi.unbindable);
	}
	/* Ours did not change. */
	mi = mnt_info_at(0, self->m);
	EXPECT_EQ(0, mi.shared);
	EXPECT_FALSE(mi.unbindable);
}

/*
 * A locked mount can be covered by a new mount in the less privileged namespace, and that mount
 * unmounted again; the locked one stays (mount_namespaces(7)).
 */
TEST_F(lmore, locked_mount_can_be_covered_and_uncovered)
{
	char x[MNT_PATH_MAX];

	mnt_subpath(x, self->m, "x");
	/* That a locked mount does not unmount (EINVAL) is mnt_locked.c's; here it stays locked. */
	ASSERT_EQ(0, mnt_peer_do(&self->less, MNT_OP_TMPFS, self->m, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_EXISTS, x, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&self->less, MNT_OP_UMOUNT, self->m, NULL, 0));
	EXPECT_EQ(1, mnt_peer_do(&self->less, MNT_OP_EXISTS, x, NULL, 0));
	EXPECT_EQ(1, mnt_peer_sees(&self->less, self->m));
	EXPECT_EQ(EINVAL, mnt_peer_do(&self->less, MNT_OP_UMOUNT, self->m, NULL, 0));
}

TEST_HARNESS_MAIN
