// SPDX-License-Identifier: GPL-2.0
/*
 * pivot_root(2) ERRORS, one test point each: what new_root and put_old
 * must be (mount points, put_old under new_root, not shared, directories),
 * the current root (a mount point, not new_root itself), the privilege,
 * and a locked new_root in a less privileged mount namespace
 * (pivot_root(2), mount_namespaces(7)).
 *
 * Each test runs in a private mount namespace of its own with a tmpfs base
 * (fixtures/mntns.h): "n" is a tmpfs under the base (the usual new_root),
 * "n/old" a directory in it.  The call is made by a child, which first
 * chroots where the variant needs another current root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mntns.h"
#include "mntcov.h"
#include "idpeer.h"
#include "kselftest_harness.h"

enum pivot_case {
	NEW_NOT_MOUNT,		/* new_root a plain directory */
	OLD_NOT_UNDER_NEW,	/* put_old outside new_root */
	NEW_PARENT_SHARED,	/* the mount new_root sits on is shared */
	OLD_SHARED,		/* put_old is a shared mount */
	NEW_IS_ROOT,		/* new_root is the current root mount */
	ROOT_NOT_MOUNT,		/* the current root is not a mount point */
	NEW_NOT_DIR,		/* new_root is a file */
	NO_CAP,			/* without CAP_SYS_ADMIN */
	NEW_LOCKED,		/* new_root is locked (less privileged namespace) */
};

FIXTURE(pivot) {
	struct mnt_base b;
	char n[MNT_PATH_MAX];
};

FIXTURE_VARIANT(pivot) {
	enum pivot_case what;
	int err;
};

FIXTURE_VARIANT_ADD(pivot, new_root_not_a_mount_point_einval) { NEW_NOT_MOUNT, EINVAL };
FIXTURE_VARIANT_ADD(pivot, put_old_not_under_new_root_einval) { OLD_NOT_UNDER_NEW, EINVAL };
FIXTURE_VARIANT_ADD(pivot, new_root_parent_shared_einval) { NEW_PARENT_SHARED, EINVAL };
FIXTURE_VARIANT_ADD(pivot, put_old_shared_einval) { OLD_SHARED, EINVAL };
FIXTURE_VARIANT_ADD(pivot, new_root_is_current_root_ebusy) { NEW_IS_ROOT, EBUSY };
FIXTURE_VARIANT_ADD(pivot, current_root_not_a_mount_point_einval) { ROOT_NOT_MOUNT, EINVAL };
FIXTURE_VARIANT_ADD(pivot, new_root_not_a_directory_enotdir) { NEW_NOT_DIR, ENOTDIR };
FIXTURE_VARIANT_ADD(pivot, without_cap_sys_admin_eperm) { NO_CAP, EPERM };
FIXTURE_VARIANT_ADD(pivot, new_root_locked_mount_einval) { NEW_LOCKED, EINVAL };

FIXTURE_SETUP(pivot)
{
	if (mnt_base_enter(&self->b) && self->b.skip)
		SKIP(return, "%s", self->b.why);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "n", self->n, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "n/old"));
}

FIXTURE_TEARDOWN(pivot)
{
}

struct pivot_call {
	const char *root;	/* chroot here first, or NULL */
	const char *new_root, *put_old;
	bool drop_caps;
	bool less;		/* first a user and mount namespace of its own */
	int err;
};

static int do_pivot(void *arg)
{
	const struct pivot_call *c = arg;
	long rc;

	if (c->less && idpeer_enter_userns(CLONE_NEWNS))
		return 1;
	if (c->root && (chroot(c->root) || chdir("/")))
		return child_fail("chroot %s: %m", c->root);
	if (c->drop_caps && ns_caps_drop_all())
		return child_fail("drop capabilities: %m");
	rc = syscall(SYS_pivot_root, c->new_root, c->put_old);
	if (rc == -1 && errno == c->err)
		return 0;
	return child_fail("pivot_root(%s, %s): %s, expected %s", c->new_root, c->put_old,
			  rc ? strerror(errno) : "success", strerror(c->err));
}

/*
 * The pivot_root(2) error named by the variant: EINVAL, EBUSY, ENOTDIR or EPERM for the stated
 * cause (pivot_root(2) ERRORS).
 */
TEST_F(pivot, pivot_root_fails_with_that_errno)
{
	char p1[MNT_PATH_MAX], p2[MNT_PATH_MAX], p3[MNT_PATH_MAX];
	struct pivot_call c = { .new_root = self->n, .err = variant->err };

	mntcov_sub(p1, self->n, "old");
	c.put_old = p1;
	switch (variant->what) {
	case NEW_NOT_MOUNT:
		ASSERT_EQ(0, mnt_mkdir(&self->b, "plain"));
		ASSERT_EQ(0, mnt_mkdir(&self->b, "plain/old"));
		c.new_root = mnt_path(p2, &self->b, "plain");
		c.put_old = mnt_path(p3, &self->b, "plain/old");
		break;
	case OLD_NOT_UNDER_NEW:
		ASSERT_EQ(0, mnt_mkdir(&self->b, "elsewhere"));
		c.put_old = mnt_path(p2, &self->b, "elsewhere");
		break;
	case NEW_PARENT_SHARED:
		ASSERT_EQ(0, mnt_set_propagation(self->b.dir, MS_SHARED));
		break;
	case OLD_SHARED:
		ASSERT_EQ(0, mnt_tmpfs(p1, 0));
		ASSERT_EQ(0, mnt_set_propagation(p1, MS_SHARED));
		break;
	case NEW_IS_ROOT:
		/* Our own mount as the root, so that it is not a locked one. */
		c.root = self->n;
		c.new_root = "/";
		c.put_old = "/old";
		break;
	case ROOT_NOT_MOUNT:
		ASSERT_EQ(0, mnt_mkdir(&self->b, "jail"));
		ASSERT_EQ(0, mnt_mkdir(&self->b, "jail/n"));
		ASSERT_EQ(0, mnt_tmpfs(mnt_path(p2, &self->b, "jail/n"), 0));
		ASSERT_EQ(0, mkdir(mntcov_sub(p3, p2, "old"), 0755));
		c.root = mnt_path(p1, &self->b, "jail");
		c.new_root = "/n";
		c.put_old = "/n/old";
		break;
	case NEW_NOT_DIR:
		ASSERT_EQ(0, mnt_touch(mntcov_sub(p2, self->n, "file")));
		c.new_root = p2;
		break;
	case NO_CAP:
		c.drop_caps = true;
		break;
	case NEW_LOCKED:
		NS_NEED_USERNS();
		/* n, a copy from our namespace, is locked there. */
		c.less = true;
		break;
	}
	/* Its own mount namespace: a pivot_root() that wrongly succeeds re-roots only it. */
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, do_pivot, &c));
}

TEST_HARNESS_MAIN
