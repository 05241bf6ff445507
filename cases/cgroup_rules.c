// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup namespaces (4.6): who may create and join one, and mount a cgroup
 * filesystem in one, the root field of a cgroup mount made outside the
 * namespace, the nsdelegate mount option (ignored on a mount made in a
 * non-initial namespace) and the delegation boundary it draws where the
 * cgroup2 hierarchy was mounted with it.
 * Sources: cgroup_namespaces(7), cgroups(7) "Cgroups v2 delegation:
 * nsdelegate and cgroup namespaces", user_namespaces(7), unshare(2), setns(2).
 *
 * Cgroups of the test's own are made under its v2 cgroup (removed at the
 * end); without write access there the tests that need them SKIP.  Cgroup
 * filesystems are mounted only in mount and cgroup namespaces the test made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "nsconform.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wformat-truncation"

/* --- privilege ---------------------------------------------------------------- */

struct priv_rec {
	struct ns_ident before, after;
	int unshare_err;	/* -errno of unshare(CLONE_NEWCGROUP) as nobody */
	int with_userns;	/* -errno of unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) */
	int setns_nobody;	/* -errno of setns() into a cgroup ns as nobody */
	int setns_ancestor;	/* -errno from a child user namespace into the test's cgroup ns */
	int setns_own;		/* -errno into a cgroup ns of our own user namespace */
	int joined;		/* setns_own really moved us */
};

static int unshare_unprivileged(void *arg)
{
	struct priv_rec *r = arg;

	if (ns_ident_of(0, "cgroup", &r->before))
		return child_fail("stat: %m");
	r->unshare_err = unshare(CLONE_NEWCGROUP) ? -errno : 0;
	if (ns_ident_of(0, "cgroup", &r->after))
		return child_fail("stat: %m");
	r->with_userns = ns_unshare_userns_root(CLONE_NEWCGROUP);
	return 0;
}

/*
 * unshare(CLONE_NEWCGROUP) without CAP_SYS_ADMIN is EPERM and leaves the caller's cgroup ns; with a
 * new user namespace it works (unshare(2), cgroup_namespaces(7)).
 */
TEST(unshare_cgroupns_unprivileged_is_eperm)
{
	struct priv_rec *r = ns_shared_page(1 << 18);

	NS_NEED_TYPE("cgroup");
	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	r->unshare_err = r->with_userns = 1;
	ASSERT_EQ(0, ns_run_unpriv(unshare_unprivileged, r));
	EXPECT_EQ(-EPERM, r->unshare_err);
	EXPECT_TRUE(ns_ident_eq(&r->before, &r->after));
	EXPECT_EQ(0, r->with_userns);
}

/* A holder in a new user and cgroup namespace, made by nobody; it pauses. */
static pid_t cgns_holder(void)
{
	pid_t pid = ns_clone(0);

	if (pid == 0) {
		if (ns_become_nobody() || ns_unshare_userns_root(CLONE_NEWCGROUP))
			_exit(child_fail("holder: %m"));
		pause();
		_exit(0);
	}
	return pid;
}

static int wait_new_cgns(pid_t pid)
{
	struct timespec tick = { 0, 2000000 };

	for (int i = 0; i < 2500; i++) {
		if (ns_same_as_self(pid, "cgroup") == 0)
			return 0;
		nanosleep(&tick, NULL);
	}
	return -1;
}

struct join_req {
	struct priv_rec *r;
	pid_t holder;		/* a cgroup ns owned by a user namespace of nobody */
	struct ns_ident test_cgns;	/* the test's cgroup ns */
};

/* Declares Q and R = Q.r, shared with the children; skips without cgroup or user namespaces. */
#define JOIN_REQ(q, r)								\
	struct priv_rec *r = ns_shared_page(1 << 18);				\
	struct join_req q = { .r = r };						\
	NS_NEED_TYPE("cgroup");							\
	NS_NEED_UNPRIV_USERNS();						\
	ASSERT_NE(NULL, r)

static int join_as_nobody(void *arg)
{
	struct join_req *q = arg;
	int fd = ns_open(q->holder, "cgroup");

	if (fd < 0)
		return child_fail("open the holder's cgroup ns: %s", strerror(-fd));
	if (ns_ident_of(0, "cgroup", &q->r->before))
		return child_fail("stat: %m");
	q->r->setns_nobody = setns(fd, CLONE_NEWCGROUP) ? -errno : 0;
	if (ns_ident_of(0, "cgroup", &q->r->after))
		return child_fail("stat: %m");
	return 0;
}

/*
 * setns() into a cgroup namespace without CAP_SYS_ADMIN in the caller's own user namespace is EPERM
 * (setns(2), cgroup_namespaces(7)).
 *
 * nobody owns the holder's user namespace, so it has every capability
 * there, but setns() also needs CAP_SYS_ADMIN in the caller's own user
 * namespace.
 */
TEST(setns_cgroupns_unprivileged_is_eperm)
{
	JOIN_REQ(q, r);
	q.holder = cgns_holder();
	ASSERT_LT(0, q.holder);
	ASSERT_EQ(0, wait_new_cgns(q.holder));
	r->setns_nobody = 1;
	EXPECT_EQ(0, ns_run_unpriv(join_as_nobody, &q));
	kill(q.holder, SIGKILL);
	ns_wait(q.holder, NS_WAIT_MS);
	EXPECT_EQ(-EPERM, r->setns_nobody);
	EXPECT_TRUE(ns_ident_eq(&r->before, &r->after));
}

static int join_from_child_userns(void *arg)
{
	struct join_req *q = arg;
	struct ns_ident target, now;
	int anc = ns_open(0, "cgroup"), own;
	pid_t sib;

	/* Still the test's cgroup ns, owned by the test's user namespace or an ancestor. */
	if (anc < 0 || ns_ident_of(0, "cgroup", &now) || !ns_ident_eq(&now, &q->test_cgns))
		return child_fail("open the test's cgroup ns: %s", strerror(-anc));
	if (ns_unshare_userns_root(CLONE_NEWCGROUP))
		return child_fail("new user and cgroup namespace: %m");
	q->r->setns_ancestor = setns(anc, CLONE_NEWCGROUP) ? -errno : 0;
	/* The control: a sibling cgroup ns of our own user namespace. */
	sib = ns_clone(CLONE_NEWCGROUP);
	if (sib < 0)
		return child_fail("clone(CLONE_NEWCGROUP): %m");
	if (sib == 0) {
		pause();
		_exit(0);
	}
	if (ns_ident_of(sib, "cgroup", &target))
		return child_fail("stat: %m");
	own = ns_open(sib, "cgroup");
	q->r->setns_own = own < 0 || setns(own, CLONE_NEWCGROUP) ? -errno : 0;
	q->r->joined = !ns_ident_of(0, "cgroup", &now) && ns_ident_eq(&now, &target);
	kill(sib, SIGKILL);
	ns_wait(sib, NS_WAIT_MS);
	return 0;
}

/*
 * Root of a child user namespace cannot setns() into a cgroup namespace its user namespace does not
 * own: EPERM (setns(2), cgroup_namespaces(7)).
 */
TEST(setns_cgroupns_owned_by_ancestor_userns_is_eperm)
{
	JOIN_REQ(q, r);
	ASSERT_EQ(0, ns_ident_of(0, "cgroup", &q.test_cgns));
	r->setns_ancestor = r->setns_own = 1;
	ASSERT_EQ(0, ns_run_unpriv(join_from_child_userns, &q));
	EXPECT_EQ(-EPERM, r->setns_ancestor);
	EXPECT_EQ(0, r->setns_own);
	EXPECT_EQ(1, r->joined);
}

/* --- own v2 cgroups ----------------------------------------------------------- */

/* --- mounting in a user namespace ------------------------------------------------ */

struct mount_priv_rec {
	char named[128];	/* "name=..." of a v1 named hierarchy we are in, or "" */
	int v2_foreign, v2_own;	/* -errno of mounting cgroup2 in the test's / our cgroup ns */
	int v1_foreign, v1_own;	/* the same for the named v1 hierarchy */
	int v1_new;		/* -errno of mounting a v1 hierarchy of a new name in ours */
	char v2_root[CGNS_PATH_MAX];	/* root field of the cgroup2 mount made in our ns */
	int v2_lists_me;	/* its cgroup.procs lists us */
};

static int mount_cg(const char *dir, const char *type, const char *opts)
{
	return mount("none", dir, type, 0, opts) ? -errno : 0;
}

/* Whether the cgroup.procs file in @dir lists @pid. */
static int procs_list(const char *dir, pid_t pid)
{
	char path[CGNS_PATH_MAX + 16], buf[8192], *line, *save;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (atoi(line) == pid)
			return 1;
	return 0;
}

static int mount_as_userns_root(void *arg)
{
	struct mount_priv_rec *r = arg;
	char p[4][MNT_PATH_MAX];
	struct cgns_mount m[4];
	struct mnt_base b;
	const char *rel[4] = { "v2a", "v2b", "v1a", "v1b" };
	char fresh[64];

	if (ns_unshare_userns_root(0))
		return child_fail("root of a new user namespace: %m");
	if (mnt_base_enter(&b))
		return child_fail("%s", b.why);
	for (int i = 0; i < 4; i++)
		if (mnt_mkdir(&b, rel[i]) || !mnt_path(p[i], &b, rel[i]))
			return child_fail("mkdir: %m");
	r->v2_foreign = mount_cg(p[0], "cgroup2", NULL);
	if (r->named[0])
		r->v1_foreign = mount_cg(p[2], "cgroup", r->named);
	if (ns_unshare_admin(CLONE_NEWCGROUP))
		return child_fail("unshare(CLONE_NEWCGROUP): %m");
	r->v2_own = mount_cg(p[1], "cgroup2", NULL);
	if (r->named[0]) {
		r->v1_own = mount_cg(p[3], "cgroup", r->named);
		snprintf(fresh, sizeof(fresh), "none,name=nsconform%d", getpid());
		r->v1_new = mount_cg(p[2], "cgroup", fresh);
	}
	if (!r->v2_own && cgns_mounts(0, p[1], m, 4) == 1)
		snprintf(r->v2_root, sizeof(r->v2_root), "%s", m[0].root);
	if (!r->v2_own)
		r->v2_lists_me = procs_list(p[1], getpid());
	return 0;
}

/*
 * CAP_SYS_ADMIN in the user namespace owning the caller's cgroup namespace lets it mount cgroup2
 * and v1 named hierarchies; without it EPERM (user_namespaces(7)).
 *
 * Root of a user namespace with a mount namespace of its own, still in the
 * test's cgroup namespace, is refused (EPERM); after unshare(CLONE_NEWCGROUP)
 * the cgroup2 mount works, is rooted at "/" and its root's cgroup.procs
 * lists the caller.  The named v1 hierarchy (one we are in, e.g. the
 * name=systemd of a hybrid host; none on a pure v2 system) behaves alike,
 * but only an existing one: a hierarchy of a new name is created only in
 * the initial cgroup namespace (EPERM, cgroup1_root_to_use()).
 */
TEST(cgroup_mount_needs_cap_in_cgroupns_owner)
{
	struct mount_priv_rec *r = ns_shared_page(1 << 18);
	char buf[4096], *line, *save;

	NS_NEED_TYPE("cgroup");
	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_LT(0, ns_read_file("/proc/self/cgroup", buf, sizeof(buf)));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *n = strstr(line, ":name=");

		if (n && !r->named[0])
			snprintf(r->named, sizeof(r->named), "none,%.*s",
				 (int)(strchr(n + 1, ':') - n - 1), n + 1);
	}
	r->v2_foreign = r->v2_own = r->v1_foreign = r->v1_own = r->v1_new = 1;
	ASSERT_EQ(0, ns_run(0, mount_as_userns_root, r));
	EXPECT_EQ(-EPERM, r->v2_foreign);
	EXPECT_EQ(0, r->v2_own);
	EXPECT_STREQ("/", r->v2_root);
	EXPECT_EQ(1, r->v2_lists_me);
	if (r->named[0]) {
		EXPECT_EQ(-EPERM, r->v1_foreign) TH_LOG("%s", r->named);
		EXPECT_EQ(0, r->v1_own) TH_LOG("%s", r->named);
		EXPECT_EQ(-EPERM, r->v1_new);
	}
}

FIXTURE(own) {
	char v2point[CGNS_PATH_MAX];	/* where cgroup2 is mounted ("" if not) */
	char mine[CGNS_PATH_MAX];	/* our v2 path */
	char base[2 * CGNS_PATH_MAX];	/* .../nscr-PID, made by us */
	char a[2 * CGNS_PATH_MAX + 8];	/* base/a: the namespace root */
	char b[2 * CGNS_PATH_MAX + 8];	/* base/b: outside it */
	bool nsdelegate;		/* the v2 superblock has nsdelegate */
	bool made;			/* base exists: the parent's teardown removes it */
	int sub_err;			/* -errno of making a and b */
	const char *why;
};

FIXTURE_SETUP(own)
{
	struct cgns_mount m[CGNS_MOUNTS_MAX];
	int n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX);

	self->made = false;
	self->v2point[0] = '\0';
	self->why = NS_WHY_NO_CGROUP2;
	for (int i = 0; i < n; i++) {
		if (m[i].ctrl[0] || strcmp(m[i].root, "/"))
			continue;
		snprintf(self->v2point, sizeof(self->v2point), "%s", m[i].point);
		self->nsdelegate = strstr(m[i].opts, "nsdelegate") != NULL;
		break;
	}
	if (!self->v2point[0] || cgns_path(0, "", self->mine))
		return;
	snprintf(self->base, sizeof(self->base), "%s%s/nscr-%d", self->v2point,
		 strcmp(self->mine, "/") ? self->mine : "", getpid());
	snprintf(self->a, sizeof(self->a), "%s/a", self->base);
	snprintf(self->b, sizeof(self->b), "%s/b", self->base);
	self->why = NS_WHY_CGROUP_NO_WRITE;
	if (mkdir(self->base, 0755))
		return;
	/*
	 * From here on the setup must not fail: the teardown runs only after a
	 * completed setup.  The tests using a and b assert sub_err.
	 */
	self->made = true;
	self->sub_err = mkdir(self->a, 0755) || mkdir(self->b, 0755) ? -errno : 0;
}

/* SIGKILL what is left in @dir (the test's children), then rmdir it. */
static void rmdir_retry(const char *dir)
{
	char path[2 * CGNS_PATH_MAX + 32], buf[4096], *p, *end;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (ns_read_file(path, buf, sizeof(buf)) > 0)
		for (p = buf; *p; p = end) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (pid > 0)
				kill(pid, SIGKILL);
		}
	cgns_rmdir_wait(dir);
}

/*
 * In the parent, so the cgroups go even when the test process dies by a
 * signal; what is still in them is ours (the test's children).
 */
FIXTURE_TEARDOWN_PARENT(own)
{
	char sub[2 * CGNS_PATH_MAX + 16];

	if (!self->made)
		return;
	snprintf(sub, sizeof(sub), "%s/sub", self->a);
	rmdir_retry(sub);
	rmdir_retry(self->a);
	rmdir_retry(self->b);
	rmdir_retry(self->base);
}

/* "/.." once per level of @path ("/x/y" gives "/../.."). */
static void dotdots(const char *path, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = path; *p; p++)
		if (*p == '/' && p[1])
			strncat(out, "/..", len - strlen(out) - 1);
	if (!out[0])
		snprintf(out, len, "/");
}

struct root_rec {
	int n;
	struct cgns_mount before[CGNS_MOUNTS_MAX], inside[CGNS_MOUNTS_MAX];
	char path[CGNS_MOUNTS_MAX][CGNS_PATH_MAX];	/* our path per mount, before */
};

static int mountinfo_inside(void *arg)
{
	struct root_rec *r = arg;

	if (unshare(CLONE_NEWCGROUP))
		return child_fail("unshare(CLONE_NEWCGROUP): %m");
	return cgns_mounts(0, NULL, r->inside, CGNS_MOUNTS_MAX) == r->n ? 0 :
		child_fail("the mounts changed");
}

/*
 * Inside a new cgroup namespace a cgroup mount made outside shows its root as /.. entries up to the
 * hierarchy root (cgroup_namespaces(7)).
 *
 * For every cgroup mount rooted at its hierarchy's root in which we are
 * not at the root (in the root pass we first enter a v2 cgroup of our
 * own), a new cgroup namespace's mountinfo shows the root field as one
 * "/.." per level; the test, outside, still sees "/".
 */
TEST_F(own, outside_mount_root_shows_dotdot_inside)
{
	struct root_rec *r = ns_shared_page(1 << 18);
	int checked = 0;
	pid_t pid;

	NS_NEED_TYPE("cgroup");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	if (self->made)
		ASSERT_EQ(0, self->sub_err);
	pid = ns_clone(0);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (self->made && cgns_write(self->a, "cgroup.procs", "0"))
			_exit(child_fail("enter %s: %m", self->a));
		r->n = cgns_mounts(0, NULL, r->before, CGNS_MOUNTS_MAX);
		for (int i = 0; i < r->n; i++)
			if (cgns_path(0, r->before[i].ctrl, r->path[i]))
				r->path[i][0] = '\0';
		_exit(ns_run_admin(0, mountinfo_inside, r));
	}
	ASSERT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	for (int i = 0; i < r->n; i++) {
		char want[CGNS_PATH_MAX];

		if (strcmp(r->before[i].root, "/") || !r->path[i][0] || !strcmp(r->path[i], "/"))
			continue;
		dotdots(r->path[i], want, sizeof(want));
		EXPECT_STREQ(want, r->inside[i].root) TH_LOG("%s at %s, our path %s",
			r->before[i].ctrl[0] ? r->before[i].ctrl : "cgroup2",
			r->before[i].point, r->path[i]);
		checked++;
	}
	NS_NEED_ENV(checked, NS_WHY_CGROUP_ROOT, self->why);
}

struct deleg_rec {
	struct ns_ident test_mnt, test_cgroup;
	char v2point[CGNS_PATH_MAX];
	bool nsdelegate;	/* the host's superblock, before */
	char inside_opts[256];	/* super options of the mount made inside */
	int mounted;
};

static int mount_opposite(void *arg)
{
	struct deleg_rec *r = arg;
	struct cgns_mount m[CGNS_MOUNTS_MAX];
	struct ns_ident mnt, cg;
	int n;

	/* In the initial cgroup namespace the option would flip the host's superblock. */
	if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, &r->test_mnt) ||
	    ns_ident_of(0, "cgroup", &cg) || ns_ident_eq(&cg, &r->test_cgroup))
		return child_fail("not in mount and cgroup namespaces of our own");
	if (ns_private_tmp("size=64k"))
		return 1;
	if (mkdir("/tmp/cg", 0755))
		return child_fail("mkdir /tmp/cg: %m");
	if (mount("cgroup2", "/tmp/cg", "cgroup2", 0, r->nsdelegate ? "" : "nsdelegate"))
		return child_fail("mount cgroup2 inside: %m");
	r->mounted = 1;
	n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX);
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].point, "/tmp/cg"))
			snprintf(r->inside_opts, sizeof(r->inside_opts), "%s", m[i].opts);
	return 0;
}

/*
 * nsdelegate given on a cgroup2 mount in a non-initial namespace is silently ignored: the hierarchy
 * keeps its setting (cgroups(7)).
 *
 * The option is one flag of the one cgroup2 superblock.  A mount made in
 * a new mount and cgroup namespace asks for the opposite of what the
 * hierarchy has; the flag stays as it was, in that mount and for the test.
 */
TEST_F(own, nsdelegate_ignored_on_mount_in_non_initial_namespace)
{
	struct deleg_rec *r = ns_shared_page(1 << 18);
	struct cgns_mount m[CGNS_MOUNTS_MAX];
	bool after = !self->nsdelegate;
	int n;

	NS_NEED_TYPE("cgroup");
	NS_NEED_ENV(self->v2point[0], NS_WHY_NO_CGROUP2);
	ASSERT_NE(NULL, r);
	r->nsdelegate = self->nsdelegate;
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r->test_mnt));
	ASSERT_EQ(0, ns_ident_of(0, "cgroup", &r->test_cgroup));
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS | CLONE_NEWCGROUP, mount_opposite, r));
	ASSERT_EQ(1, r->mounted);
	EXPECT_EQ(self->nsdelegate, strstr(r->inside_opts, "nsdelegate") != NULL)
		TH_LOG("the inside mount has \"%s\"", r->inside_opts);
	n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX);
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].point, self->v2point))
			after = strstr(m[i].opts, "nsdelegate") != NULL;
	EXPECT_EQ(self->nsdelegate, after);
}

/* --- the nsdelegate boundary -------------------------------------------------- */

#define REQUIRE_NSDELEGATE() do { \
	NS_NEED_TYPE("cgroup"); \
	NS_NEED_WHY(self->made ? NULL : self->why); \
	ASSERT_EQ(0, self->sub_err); \
	NS_NEED_ENV(self->nsdelegate, NS_WHY_NO_NSDELEGATE); \
} while (0)

struct boundary_rec {
	int root_max_depth;	/* -errno writing cgroup.max.depth in the namespace root */
	int root_subtree;	/* -errno writing cgroup.subtree_control there */
	int mkdir_sub;		/* -errno of mkdir below the root */
	int sub_max_depth;	/* -errno writing cgroup.max.depth below the root */
	int pull_outsider;	/* -errno moving a process of base/b into the root */
	pid_t outsider;
};

static int boundary_inside(struct boundary_rec *r, const char *a)
{
	char sub[2 * CGNS_PATH_MAX + 16];

	if (cgns_write(a, "cgroup.procs", "0"))
		return child_fail("enter %s: %m", a);
	if (ns_unshare_admin(CLONE_NEWCGROUP))
		return child_fail("unshare(CLONE_NEWCGROUP): %m");
	r->root_max_depth = cgns_write(a, "cgroup.max.depth", "max");
	r->root_subtree = cgns_write(a, "cgroup.subtree_control", "");
	snprintf(sub, sizeof(sub), "%s/sub", a);
	r->mkdir_sub = mkdir(sub, 0755) ? -errno : 0;
	r->sub_max_depth = cgns_write(sub, "cgroup.max.depth", "max");
	{
		char pid[16];

		snprintf(pid, sizeof(pid), "%d", r->outsider);
		r->pull_outsider = cgns_write(a, "cgroup.procs", pid);
	}
	return 0;
}

/*
 * With nsdelegate, a cgroup namespace root is a delegation boundary: EPERM on its interface files,
 * ENOENT for migration across it (cgroups(7)).
 *
 * Inside a cgroup namespace rooted at base/a: the root's controller
 * interface files are EPERM, its delegatable files and a sub-cgroup are
 * not; a process in base/b, outside the root, cannot be pulled in (ENOENT).
 */
TEST_F(own, nsdelegate_makes_namespace_root_a_boundary)
{
	struct boundary_rec *r = ns_shared_page(1 << 18);
	pid_t outsider, pid;

	REQUIRE_NSDELEGATE();
	ASSERT_NE(NULL, r);
	outsider = ns_clone(0);
	ASSERT_LE(0, outsider);
	if (outsider == 0) {
		if (cgns_write(self->b, "cgroup.procs", "0"))
			_exit(child_fail("enter b: %m"));
		pause();
		_exit(0);
	}
	r->outsider = outsider;
	r->root_max_depth = r->root_subtree = r->mkdir_sub = r->sub_max_depth = 1;
	r->pull_outsider = 1;
	pid = ns_clone(0);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(boundary_inside(r, self->a));
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	kill(outsider, SIGKILL);
	ns_wait(outsider, NS_WAIT_MS);
	EXPECT_EQ(-EPERM, r->root_max_depth);
	EXPECT_EQ(0, r->root_subtree);
	EXPECT_EQ(0, r->mkdir_sub);
	EXPECT_EQ(0, r->sub_max_depth);
	EXPECT_EQ(-ENOENT, r->pull_outsider);
}

TEST_HARNESS_MAIN
