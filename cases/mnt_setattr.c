// SPDX-License-Identifier: GPL-2.0
/*
 * mount_setattr(2) beyond idmapped mounts (those are in mnt_idmap.c, locked
 * attributes in mnt_locked_attrs.c): the ERRORS a malformed request gets,
 * one test point each, and AT_RECURSIVE with the propagation field
 * (mount_setattr(2) DESCRIPTION, ERRORS, "Extensibility"; 5.12).
 *
 * Each test has a private mount namespace of its own with a tmpfs base
 * (fixtures/mnt.h) and the tmpfs "m" under it, made by this user
 * namespace, so nothing on it is locked.  Every refused request also asks
 * for MOUNT_ATTR_RDONLY, so that a kernel that wrongly carries it out
 * leaves "m" read-only; the same request without the fault is the control.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

#define MSA_PAGE 4096

enum msa_fault {
	FLAGS_UNKNOWN,		/* AT_REMOVEDIR in flags */
	SET_UNKNOWN,		/* an undefined bit in attr_set */
	CLR_UNKNOWN,		/* an undefined bit in attr_clr */
	PROP_UNKNOWN,		/* MS_REC in propagation */
	PROP_TWO,		/* MS_SHARED | MS_SLAVE in propagation */
	ATIME_WITHOUT_MASK,	/* MOUNT_ATTR_NOATIME set, MOUNT_ATTR__ATIME not cleared */
	ATIME_PARTIAL_CLR,	/* only part of MOUNT_ATTR__ATIME in attr_clr */
	IDMAP_CLR,		/* MOUNT_ATTR_IDMAP in attr_clr */
	USERNS_FD_BIG,		/* userns_fd above INT_MAX */
	NOT_MOUNT_POINT,	/* a directory inside m */
	SIZE_TOO_SMALL,		/* size below MOUNT_ATTR_SIZE_VER0 */
	SIZE_NONZERO_TAIL,	/* a page-sized struct with a nonzero unknown byte */
	OPEN_FOR_WRITING,	/* MOUNT_ATTR_RDONLY while a file is open for writing */
	OTHER_NAMESPACE,	/* m's copy in another mount namespace */
	NO_CAP,			/* a caller without CAP_SYS_ADMIN */
};

FIXTURE(msa) {
	struct mnt_base b;
	char m[MNT_PATH_MAX];
};

FIXTURE_VARIANT(msa) {
	enum msa_fault fault;
	int err;
};

FIXTURE_VARIANT_ADD(msa, unknown_flag_einval) { FLAGS_UNKNOWN, EINVAL };
FIXTURE_VARIANT_ADD(msa, unknown_attr_set_bit_einval) { SET_UNKNOWN, EINVAL };
FIXTURE_VARIANT_ADD(msa, unknown_attr_clr_bit_einval) { CLR_UNKNOWN, EINVAL };
FIXTURE_VARIANT_ADD(msa, unknown_propagation_einval) { PROP_UNKNOWN, EINVAL };
FIXTURE_VARIANT_ADD(msa, two_propagation_types_einval) { PROP_TWO, EINVAL };
FIXTURE_VARIANT_ADD(msa, atime_set_without_atime_mask_einval) { ATIME_WITHOUT_MASK, EINVAL };
FIXTURE_VARIANT_ADD(msa, partial_atime_mask_in_attr_clr_einval) { ATIME_PARTIAL_CLR, EINVAL };
FIXTURE_VARIANT_ADD(msa, idmap_in_attr_clr_einval) { IDMAP_CLR, EINVAL };
FIXTURE_VARIANT_ADD(msa, userns_fd_above_int_max_einval) { USERNS_FD_BIG, EINVAL };
FIXTURE_VARIANT_ADD(msa, not_a_mount_point_einval) { NOT_MOUNT_POINT, EINVAL };
FIXTURE_VARIANT_ADD(msa, size_below_ver0_einval) { SIZE_TOO_SMALL, EINVAL };
FIXTURE_VARIANT_ADD(msa, nonzero_unknown_tail_e2big) { SIZE_NONZERO_TAIL, E2BIG };
FIXTURE_VARIANT_ADD(msa, rdonly_with_file_open_for_writing_ebusy) { OPEN_FOR_WRITING, EBUSY };
FIXTURE_VARIANT_ADD(msa, mount_outside_callers_namespace_einval) { OTHER_NAMESPACE, EINVAL };
FIXTURE_VARIANT_ADD(msa, without_cap_sys_admin_eperm) { NO_CAP, EPERM };

/* The base, and the tmpfs m on it; NULL, or why the test is skipped. */
static const char *msa_enter(struct __test_metadata *_metadata, struct mnt_base *b, char *m)
{
	if (mnt_base_enter(b) && b->skip)
		return b->why;
	ASSERT_STREQ("", b->why);
	ASSERT_EQ(0, mnt_make(b, "m", m, 0));
	return NULL;
}

FIXTURE_SETUP(msa)
{
	const char *why;

	NS_NEED(NS_F_MOUNT_SETATTR);
	why = msa_enter(_metadata, &self->b, self->m);
	NS_NEED_WHY(why);
}

FIXTURE_TEARDOWN(msa)
{
}

/* One mount_setattr() call, its struct in a page so that any size can be given. */
struct msa_req {
	int dfd;
	const char *path;
	unsigned int flags;
	size_t size;
	union {
		struct nsc_mount_attr attr;
		unsigned char page[MSA_PAGE];
	} u;
};

static int msa_call(struct msa_req *r)
{
	return ns_mount_setattr_sized(r->dfd, r->path, r->flags, &r->u, r->size);
}

/* In a child: the request without any capability must fail with EPERM. */
static int msa_without_cap(void *arg)
{
	if (ns_caps_drop_all())
		return child_fail("drop capabilities: %m");
	if (msa_call(arg) != -1 || errno != EPERM)
		return child_fail("mount_setattr() without CAP_SYS_ADMIN: %m, expected EPERM");
	return 0;
}

/* 1 when the mount at @path in @pid's namespace is read-only, 0 if not, -1 if none. */
static int msa_readonly(pid_t pid, const char *path)
{
	struct mnt_info mi;

	if (mnt_info_find(pid, path, &mi))
		return -1;
	return mnt_opt_has(mi.opts, "ro");
}

/*
 * mount_setattr(2) fails with the errno named by the variant for that malformed request, changing
 * nothing; the same request without the fault succeeds (mount_setattr(2) ERRORS,
 * "Extensibility").
 *
 * EPERM: the page asks for CAP_SYS_ADMIN "in the initial user namespace"; the kernel (may_mount(),
 * since 5.12) asks for it in the user namespace owning the caller's mount namespace, so the
 * control succeeds in the user pass, where that is a user namespace of the test's own.
 */
TEST_F(msa, mount_setattr_refuses_with_that_errno)
{
	char sub[MNT_PATH_MAX], file[MNT_PATH_MAX], their[MNT_PATH_MAX + 32];
	struct msa_req bad = { .dfd = -100, .path = self->m, .size = sizeof(struct nsc_mount_attr) };
	struct msa_req good;
	struct mnt_peer p = { .pid = 0 };
	pid_t where = 0;	/* whose view of m the request changes */
	int fd = -1, ourfd = -1, good_err = 0;
	struct mnt_info mi;

	mnt_subpath(sub, self->m, "sub");
	ASSERT_EQ(0, mkdir(sub, 0755));
	bad.u.attr.attr_set = MOUNT_ATTR_RDONLY;
	good = bad;
	switch (variant->fault) {
	case FLAGS_UNKNOWN:
		bad.flags = AT_REMOVEDIR;
		break;
	case SET_UNKNOWN:
		bad.u.attr.attr_set |= 1ULL << 40;
		break;
	case CLR_UNKNOWN:
		bad.u.attr.attr_clr = 1ULL << 40;
		break;
	case PROP_UNKNOWN:
		bad.u.attr.propagation = MS_REC;
		good.u.attr.propagation = MS_PRIVATE;
		break;
	case PROP_TWO:
		bad.u.attr.propagation = MS_SHARED | MS_SLAVE;
		good.u.attr.propagation = MS_SHARED;
		break;
	case ATIME_WITHOUT_MASK:
		bad.u.attr.attr_set |= MOUNT_ATTR_NOATIME;
		good = bad;
		good.u.attr.attr_clr = MOUNT_ATTR__ATIME;
		break;
	case ATIME_PARTIAL_CLR:
		bad.u.attr.attr_set |= MOUNT_ATTR_NOATIME;
		bad.u.attr.attr_clr = MOUNT_ATTR_NOATIME;
		good = bad;
		good.u.attr.attr_clr = MOUNT_ATTR__ATIME;
		break;
	case IDMAP_CLR:
		bad.u.attr.attr_clr = MOUNT_ATTR_IDMAP;
		break;
	case USERNS_FD_BIG:
		/* In range but not open, the same request is EBADF: the range is checked first. */
		bad.u.attr.attr_set |= MOUNT_ATTR_IDMAP;
		bad.u.attr.userns_fd = 1ULL << 32;
		good = bad;
		good.u.attr.userns_fd = 999;
		good_err = EBADF;
		break;
	case NOT_MOUNT_POINT:
		bad.path = sub;
		break;
	case SIZE_TOO_SMALL:
		bad.size = sizeof(struct nsc_mount_attr) - 8;
		break;
	case SIZE_NONZERO_TAIL:
		/* A zero tail is fine at any size up to a page; a nonzero one is E2BIG. */
		good.size = bad.size = MSA_PAGE;
		bad.u.page[MSA_PAGE - 1] = 1;
		break;
	case NO_CAP:
		/* The page says "in the initial user namespace"; see the test's comment. */
		break;
	case OPEN_FOR_WRITING:
		fd = open(mnt_subpath(file, self->m, "file"), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		ASSERT_LE(0, fd);
		break;
	case OTHER_NAMESPACE:
		ASSERT_EQ(0, mnt_peer_start(&p, false));
		snprintf(their, sizeof(their), "/proc/%d/root%s", p.pid, self->m);
		fd = open(their, O_PATH | O_DIRECTORY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ourfd = open(self->m, O_PATH | O_DIRECTORY | O_CLOEXEC);
		ASSERT_LE(0, ourfd);
		bad.dfd = fd;
		bad.path = "";
		bad.flags = AT_EMPTY_PATH;
		good = bad;
		good.dfd = ourfd;
		where = p.pid;
		break;
	}
	if (variant->fault == NO_CAP) {
		EXPECT_EQ(0, ns_run(0, msa_without_cap, &bad));
	} else {
		EXPECT_EQ(-1, msa_call(&bad));
		EXPECT_EQ(variant->err, errno);
	}
	/* Nothing changed: still read-write, propagation and atime as before. */
	EXPECT_EQ(0, msa_readonly(where, self->m));
	mi = mnt_info_at(where, self->m);
	EXPECT_EQ(0, mi.shared);
	EXPECT_FALSE(mnt_opt_has(mi.opts, "noatime"));
	if (variant->fault == OPEN_FOR_WRITING)
		ASSERT_EQ(0, close(fd));
	/* Control: without the fault the request goes through. */
	if (good_err) {
		EXPECT_EQ(-1, msa_call(&good));
		EXPECT_EQ(good_err, errno);
	} else {
		EXPECT_EQ(0, msa_call(&good)) TH_LOG("control: %s", strerror(errno));
		EXPECT_EQ(1, msa_readonly(0, self->m));
	}
	if (variant->fault == PROP_TWO)
		EXPECT_LT(0, mnt_info_at(0, self->m).shared);
	if (variant->fault == ATIME_WITHOUT_MASK || variant->fault == ATIME_PARTIAL_CLR)
		EXPECT_TRUE(mnt_opt_has(mnt_info_at(0, self->m).opts, "noatime"));
	if (variant->fault == OTHER_NAMESPACE) {
		EXPECT_EQ(0, msa_readonly(p.pid, self->m));
		close(fd);
		close(ourfd);
		EXPECT_EQ(0, mnt_peer_stop(&p));
	}
}

FIXTURE(msr) {
	struct mnt_base b;
	char m[MNT_PATH_MAX], a[MNT_PATH_MAX], ab[MNT_PATH_MAX];
};

FIXTURE_SETUP(msr)
{
	const char *why;

	NS_NEED(NS_F_MOUNT_SETATTR);
	why = msa_enter(_metadata, &self->b, self->m);
	NS_NEED_WHY(why);
	ASSERT_EQ(0, mnt_make(&self->b, "m/a", self->a, 0));
	ASSERT_EQ(0, mnt_make(&self->b, "m/a/b", self->ab, 0));
}

FIXTURE_TEARDOWN(msr)
{
}

/*
 * Without AT_RECURSIVE mount_setattr() changes the one mount; with it, attributes and the
 * propagation field apply to every mount of the tree (mount_setattr(2) AT_RECURSIVE, propagation).
 */
TEST_F(msr, at_recursive_changes_the_whole_tree)
{
	const char *tree[3] = { self->m, self->a, self->ab };
	struct nsc_mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY, .propagation = MS_SHARED };
	struct nsc_mount_attr nx = { .attr_set = MOUNT_ATTR_NOEXEC, .propagation = MS_UNBINDABLE };
	struct mnt_info mi;
	int i;

	ASSERT_EQ(0, ns_mount_setattr(-100, self->m, 0, &ro));
	for (i = 0; i < 3; i++) {
		mi = mnt_info_at(0, tree[i]);
		EXPECT_EQ(i == 0, mnt_opt_has(mi.opts, "ro")) TH_LOG("%s: %s", tree[i], mi.opts);
		EXPECT_EQ(i == 0, mi.shared > 0) TH_LOG("%s", tree[i]);
	}
	ASSERT_EQ(0, ns_mount_setattr(-100, self->m, AT_RECURSIVE, &nx));
	for (i = 0; i < 3; i++) {
		mi = mnt_info_at(0, tree[i]);
		EXPECT_TRUE(mnt_opt_has(mi.opts, "noexec")) TH_LOG("%s: %s", tree[i], mi.opts);
		EXPECT_EQ(i == 0, mnt_opt_has(mi.opts, "ro")) TH_LOG("%s: %s", tree[i], mi.opts);
		EXPECT_TRUE(mi.unbindable) TH_LOG("%s", tree[i]);
		EXPECT_EQ(0, mi.shared) TH_LOG("%s", tree[i]);
	}
}

/*
 * mount_setattr() first clears the attr_clr flags, then sets the attr_set flags: the documented
 * example (clear noexec and nodev, set ro and nosuid) gives ro, nosuid, exec, dev; repeating it
 * changes nothing; a flag in both ends up set (mount_setattr(2) DESCRIPTION).
 */
TEST_F(msr, attr_clr_then_attr_set)
{
	struct nsc_mount_attr ex = {
		.attr_clr = MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV,
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
	};
	struct nsc_mount_attr both = {
		.attr_clr = MOUNT_ATTR_NOEXEC | MOUNT_ATTR_RDONLY,
		.attr_set = MOUNT_ATTR_NOEXEC,
	};
	static const char *const on[] = { "ro", "nosuid" }, *const off[] = { "noexec", "nodev" };
	struct mnt_info mi;
	int i, round;

	ASSERT_EQ(0, mount(NULL, self->m, NULL, MS_REMOUNT | MS_BIND | MS_NOEXEC | MS_NODEV, NULL));
	mi = mnt_info_at(0, self->m);
	ASSERT_TRUE(mnt_opt_has(mi.opts, "noexec") && mnt_opt_has(mi.opts, "nodev"));
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, ns_mount_setattr(-100, self->m, 0, &ex));
		mi = mnt_info_at(0, self->m);
		for (i = 0; i < 2; i++) {
			EXPECT_TRUE(mnt_opt_has(mi.opts, on[i])) TH_LOG("%d: %s", round, mi.opts);
			EXPECT_FALSE(mnt_opt_has(mi.opts, off[i])) TH_LOG("%d: %s", round, mi.opts);
		}
	}
	ASSERT_EQ(0, ns_mount_setattr(-100, self->m, 0, &both));
	mi = mnt_info_at(0, self->m);
	EXPECT_TRUE(mnt_opt_has(mi.opts, "noexec")) TH_LOG("%s", mi.opts);
	EXPECT_FALSE(mnt_opt_has(mi.opts, "ro")) TH_LOG("%s", mi.opts);
	EXPECT_TRUE(mnt_opt_has(mi.opts, "nosuid")) TH_LOG("%s", mi.opts);
}

TEST_HARNESS_MAIN
