// SPDX-License-Identifier: GPL-2.0
/*
 * pivot_root(2) ERRORS, one test point each: what new_root and put_old
 * must be (mount points, put_old under new_root, not shared, directories),
 * the current root (a mount point on a mount that is not shared, not
 * new_root itself), the privilege, and a locked new_root in a less
 * privileged mount namespace (pivot_root(2), mount_namespaces(7)); then
 * what a pivot does: pivot_root(".", ".") and the roots and working
 * directories of the namespace's other processes.
 *
 * Each test runs in a private mount namespace of its own with a tmpfs base
 * (fixtures/mnt.h): "n" is a tmpfs under the base (the usual new_root),
 * "n/old" a directory in it.  The call is made by a child, which first
 * chroots where the variant needs another current root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
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
	ROOT_PARENT_SHARED,	/* the mount the current root sits on is shared */
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
FIXTURE_VARIANT_ADD(pivot, current_root_parent_shared_einval) { ROOT_PARENT_SHARED, EINVAL };

FIXTURE_SETUP(pivot)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
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

	if (c->less && ns_unshare_userns_root(CLONE_NEWNS))
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

	mnt_subpath(p1, self->n, "old");
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
		ASSERT_EQ(0, mkdir(mnt_subpath(p3, p2, "old"), 0755));
		c.root = mnt_path(p1, &self->b, "jail");
		c.new_root = "/n";
		c.put_old = "/n/old";
		break;
	case NEW_NOT_DIR:
		ASSERT_EQ(0, mnt_touch(mnt_subpath(p2, self->n, "file")));
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
	case ROOT_PARENT_SHARED:
		/* Root n (private) on the shared base; new_root n/x and its parent private. */
		ASSERT_EQ(0, mnt_make(&self->b, "n/x", p2, 0));
		ASSERT_EQ(0, mkdir(mnt_subpath(p3, p2, "old"), 0755));
		ASSERT_EQ(0, mnt_set_propagation(self->b.dir, MS_SHARED));
		EXPECT_EQ(0, mnt_info_at(0, self->n).shared);
		EXPECT_EQ(0, mnt_info_at(0, p2).shared);
		c.root = self->n;
		c.new_root = "/x";
		c.put_old = "/x/old";
		break;
	}
	/* Its own mount namespace: a pivot_root() that wrongly succeeds re-roots only it. */
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, do_pivot, &c));
}

/* --- successful pivots ------------------------------------------------------ */

/*
 * The same base and n, without variants.  The current root of the pivoting
 * child is the base (it chroots there first), a mount of our own, so that
 * it can be pivoted wherever "/" is the initramfs rootfs.
 */
FIXTURE(pivoted) {
	struct mnt_base b;
	char n[MNT_PATH_MAX];
	struct stat nid;	/* n's root directory */
};

FIXTURE_SETUP(pivoted)
{
	char mark[MNT_PATH_MAX];

	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "n", self->n, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "n/old"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "sub"));
	ASSERT_EQ(0, mnt_touch(mnt_path(mark, &self->b, "basemark")));
	ASSERT_EQ(0, mnt_touch(mnt_subpath(mark, self->n, "nmark")));
	ASSERT_EQ(0, stat(self->n, &self->nid));
}

FIXTURE_TEARDOWN(pivoted)
{
}

static bool pivot_same(const char *path, const struct stat *want)
{
	struct stat st;

	return !stat(path, &st) && st.st_dev == want->st_dev && st.st_ino == want->st_ino;
}

/* In the base (our chroot, so the old root), /basemark; in n, /nmark. */
static int pivot_dot_dot(void *arg)
{
	const char *base = arg;
	struct stat n;

	if (chroot(base) || chdir("/n") || stat(".", &n))
		return child_fail("chroot %s, chdir /n: %m", base);
	if (syscall(SYS_pivot_root, ".", "."))
		return child_fail("pivot_root(\".\", \".\"): %m");
	if (umount2(".", MNT_DETACH))
		return child_fail("umount2(\".\", MNT_DETACH): %m");
	if (chdir("/"))
		return child_fail("chdir /: %m");
	if (!pivot_same("/", &n) || !pivot_same(".", &n))
		return child_fail("\"/\" or the cwd is not the former /n after the pivot");
	if (access("/nmark", F_OK) || !access("/basemark", F_OK) || !access("/n", F_OK))
		return child_fail("the new root lacks nmark, or the old root still shows");
	return 0;
}

/*
 * pivot_root(".", ".") from inside new_root stacks the old root on it; umount2(".", MNT_DETACH)
 * then takes the old root away and leaves new_root as "/" (pivot_root(2) "pivot_root(\".\",
 * \".\")").
 */
TEST_F(pivoted, pivot_root_dot_dot_then_detach_leaves_new_root)
{
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, pivot_dot_dot, self->b.dir));
}

enum { AT_OLD_ROOT, CWD_ELSEWHERE };

struct others {
	const char *base;
	struct stat nid, subid;
	int go[2], ready[2];
};

/* A process of the same mount namespace: root (and cwd, if @where says) on the old root. */
static int other_side(struct others *o, int where)
{
	char c;

	close(o->go[1]);
	close(o->ready[0]);
	if (where == CWD_ELSEWHERE && chdir("/sub"))
		return child_fail("chdir /sub: %m");
	if (write(o->ready[1], "r", 1) != 1)
		return child_fail("write: %m");
	if (read(o->go[0], &c, 1) != 1)
		return child_fail("no word from the pivoting process");
	if (!pivot_same("/", &o->nid))
		return child_fail("root not moved to new_root (cwd %s)",
				  where == CWD_ELSEWHERE ? "elsewhere" : "on the old root");
	if (!pivot_same(".", where == CWD_ELSEWHERE ? &o->subid : &o->nid))
		return child_fail("cwd %s", where == CWD_ELSEWHERE ?
				  "elsewhere was moved" : "on the old root was not moved");
	return 0;
}

/* One byte from @fd within NS_WAIT_MS: 1, else 0. */
static int byte_within(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&pfd, 1, NS_WAIT_MS) == 1 && read(fd, &c, 1) == 1;
}

static int pivot_with_others(void *arg)
{
	struct others *o = arg;
	pid_t kid[2];
	int i, rc = 0;

	if (chroot(o->base) || chdir("/") || stat("/n", &o->nid) || stat("/sub", &o->subid) ||
	    pipe(o->go) || pipe(o->ready))
		return child_fail("chroot %s: %m", o->base);
	for (i = 0; i < 2; i++) {
		kid[i] = fork();
		if (kid[i] == 0)
			_exit(other_side(o, i));
	}
	close(o->go[0]);
	close(o->ready[1]);
	/* Both are in place; the caller's own cwd is elsewhere: pivot_root() leaves it. */
	if (!byte_within(o->ready[0]) || !byte_within(o->ready[0]))
		rc = child_fail("the other processes did not get ready");
	else if (chdir("/sub") || syscall(SYS_pivot_root, "/n", "/n/old"))
		rc = child_fail("pivot_root(/n, /n/old): %m");
	else if (!pivot_same("/", &o->nid) || !pivot_same(".", &o->subid))
		rc = child_fail("the caller's root moved not, or its cwd elsewhere moved");
	if (write(o->go[1], "gg", 2) != 2)
		rc = child_fail("write: %m");
	close(o->go[1]);
	for (i = 0; i < 2; i++)
		if (kid[i] < 0 || ns_wait(kid[i], NS_WAIT_MS) != 0)
			rc = child_fail("process %d of the namespace: see above", i);
	return rc;
}

/*
 * pivot_root() moves the root and cwd of every process of the mount namespace that were on the old
 * root directory to new_root, and leaves a cwd elsewhere, the caller's too (pivot_root(2)).
 */
TEST_F(pivoted, pivot_root_moves_root_and_cwd_on_old_root_of_all)
{
	struct others o = { .base = self->b.dir };

	ASSERT_EQ(0, ns_run(CLONE_NEWNS, pivot_with_others, &o));
}

TEST_HARNESS_MAIN
