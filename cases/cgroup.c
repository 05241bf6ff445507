// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup namespaces (cgroup_namespaces(7), 4.6): the view of
 * /proc/PID/cgroup and of a cgroup filesystem mounted inside, for cgroup
 * v2 and for the v1 hierarchies this machine has (probed in mountinfo).
 *
 * Tests that need cgroups of their own create them under the case's own
 * v2 cgroup (removed in teardown); without write access there (the user
 * pass) they SKIP.  Cgroup filesystems are mounted only in mount
 * namespaces the test created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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

/* Paths here are far shorter than CGNS_PATH_MAX; truncation would only fail a check. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* --- own v2 cgroups: base/{a,a/sub,b} ---------------------------------- */

FIXTURE(cg) {
	char base[CGNS_PATH_MAX];	/* .../nsc-PID, under our v2 cgroup */
	char rel[CGNS_PATH_MAX];	/* the same, as our /proc/self/cgroup shows it */
	char a[CGNS_PATH_MAX + 8], sub[CGNS_PATH_MAX + 16], b[CGNS_PATH_MAX + 8];
	bool made;
	const char *why;	/* why there are none */
};

FIXTURE_SETUP(cg)
{
	struct cgns_mount m[32];
	char mine[CGNS_PATH_MAX], dir[CGNS_PATH_MAX];
	int n = cgns_mounts(0, NULL, m, 32), i;

	self->made = false;
	self->why = NS_WHY_NO_CGROUP2;
	for (i = 0; i < n; i++)
		if (!m[i].ctrl[0])
			break;
	if (i >= n || cgns_dir(&m[i], dir) || cgns_path(0, "", mine))
		return;
	self->why = NS_WHY_CGROUP_NO_WRITE;
	if (access(dir, W_OK))
		return;
	snprintf(self->base, CGNS_PATH_MAX, "%s/nsc-%d", dir, getpid());
	snprintf(self->rel, CGNS_PATH_MAX, "%s/nsc-%d", strcmp(mine, "/") ? mine : "", getpid());
	snprintf(self->a, sizeof(self->a), "%s/a", self->base);
	snprintf(self->sub, sizeof(self->sub), "%s/a/sub", self->base);
	snprintf(self->b, sizeof(self->b), "%s/b", self->base);
	if (mkdir(self->base, 0755))
		return;
	self->made = true;
	ASSERT_EQ(0, mkdir(self->a, 0755));
	ASSERT_EQ(0, mkdir(self->sub, 0755));
	ASSERT_EQ(0, mkdir(self->b, 0755));
}

FIXTURE_TEARDOWN(cg)
{
	if (!self->made)
		return;
	cgns_rmdir_wait(self->sub);
	cgns_rmdir_wait(self->a);
	cgns_rmdir_wait(self->b);
	cgns_rmdir_wait(self->base);
}

#define REQUIRE_OWN_CGROUPS() do { \
	NS_NEED_TYPE("cgroup"); \
	NS_NEED_ADMIN_OR_USERNS(); \
	NS_NEED_WHY(self->made ? NULL : self->why); \
} while (0)

/* --- /proc/PID/cgroup ------------------------------------------------------ */

struct view_req {
	pid_t others[3];
	const char *want[3];	/* how each must look from inside */
	const char *dir;	/* the cgroup the namespace is made in */
};

static int view_from_inside(void *arg)
{
	struct view_req *r = arg;
	char path[CGNS_PATH_MAX];

	if (r->dir && cgns_enter(r->dir))
		return child_fail("enter %s: %m", r->dir);
	if (unshare(CLONE_NEWCGROUP))
		return child_fail("unshare(CLONE_NEWCGROUP): %m");
	if (cgns_path(0, "", path) || strcmp(path, "/"))
		return child_fail("inside, our own v2 path is '%s', not /", path);
	for (int i = 0; i < 3 && r->others[i]; i++) {
		if (cgns_path(r->others[i], "", path))
			return child_fail("read /proc/%d/cgroup: %m", r->others[i]);
		if (strcmp(path, r->want[i]))
			return child_fail("inside, process %d shows '%s', want '%s'",
					  r->others[i], path, r->want[i]);
	}
	return 0;
}

/*
 * In a new cgroup namespace the creator's cgroup is "/"; others show relative to it: /sub below,
 * ".." elsewhere (cgroup_namespaces(7)).
 */
TEST_F(cg, other_processes_paths_relative_to_ns_root)
{
	struct ns_holder sb, ss;
	pid_t in_b, in_sub;
	char want_self[CGNS_PATH_MAX + 16];

	REQUIRE_OWN_CGROUPS();
	in_b = cgns_park(&sb, self->b);
	ASSERT_LT(0, in_b);
	in_sub = cgns_park(&ss, self->sub);
	ASSERT_LT(0, in_sub);
	{
		/* the test process stays in the cgroup above base */
		struct view_req r = {
			{ in_b, in_sub, getpid() },
			{ "/../b", "/sub", "/../.." },
			self->a,
		};

		EXPECT_EQ(0, ns_run_admin(0, view_from_inside, &r));
	}
	/* from outside, nothing is rewritten */
	snprintf(want_self, sizeof(want_self), "%s/b", self->rel);
	{
		char path[CGNS_PATH_MAX];

		ASSERT_EQ(0, cgns_path(in_b, "", path));
		EXPECT_STREQ(want_self, path);
	}
	cgns_unpark(&sb);
	cgns_unpark(&ss);
}

struct own_view {
	const char *enter;	/* cgroup to move to first, or NULL */
	char before[16][CGNS_PATH_MAX];
	char ctrl[16][128];
	int n;
	int nonroot;
};

static void collect_view(struct own_view *v);

/* Move to v->enter, collect the view; NS_CHILD_SKIP when all paths are "/". */
static int prepare_view(struct own_view *v)
{
	if (v->enter && cgns_enter(v->enter))
		return child_fail("enter %s: %m", v->enter);
	collect_view(v);
	if (!v->n)
		return child_fail("no lines in /proc/self/cgroup");
	return v->nonroot ? 0 : NS_CHILD_SKIP;
}

static int own_view_inside(void *arg)
{
	struct own_view *v = arg;
	char path[CGNS_PATH_MAX];
	int rc = prepare_view(v);

	if (rc)
		return rc;
	if (unshare(CLONE_NEWCGROUP))
		return child_fail("unshare(CLONE_NEWCGROUP): %m");
	for (int i = 0; i < v->n; i++) {
		if (cgns_path(0, v->ctrl[i], path))
			return child_fail("no '%s' line after unshare", v->ctrl[i]);
		if (strcmp(path, "/"))
			return child_fail("after unshare '%s' shows '%s', was '%s'",
					  v->ctrl[i], path, v->before[i]);
	}
	return 0;
}

/* Collect our cgroup in every hierarchy /proc/self/cgroup lists. */
static void collect_view(struct own_view *v)
{
	char buf[8192], *line, *save;

	v->n = v->nonroot = 0;
	if (ns_read_file("/proc/self/cgroup", buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line && v->n < 16;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c = strchr(line, ':'), *p = c ? strchr(c + 1, ':') : NULL;

		if (!p)
			continue;
		*p = '\0';
		snprintf(v->ctrl[v->n], 128, "%s", c + 1);
		snprintf(v->before[v->n], CGNS_PATH_MAX, "%s", p + 1);
		v->nonroot += strcmp(p + 1, "/") != 0;
		v->n++;
	}
}

/*
 * The probes, then the worker @fn checks /proc/self/cgroup in an own_view record, entering
 * cgroup a first: somewhere below the root, or the view could not change.
 */
#define CG_OWN_VIEW(fn) do {							\
	struct own_view *v = ns_shared_page(1 << 16);				\
	int rc;									\
										\
	NS_NEED_TYPE("cgroup");							\
	NS_NEED_ADMIN_OR_USERNS();						\
	ASSERT_NE(NULL, v);							\
	v->enter = self->made ? self->a : NULL;					\
	rc = ns_run_admin(0, fn, v);						\
	NS_NEED_ENV(rc != NS_CHILD_SKIP, NS_WHY_CGROUP_ROOT, self->why);	\
	EXPECT_EQ(0, rc);							\
} while (0)

/*
 * After unshare(CLONE_NEWCGROUP) /proc/self/cgroup shows "/" in every hierarchy, v1 and v2
 * (cgroup_namespaces(7)).
 */
TEST_F(cg, own_cgroup_is_root_after_unshare)
{
	CG_OWN_VIEW(own_view_inside);
}

/* --- mounts inside ---------------------------------------------------------- */

struct mount_req {
	struct cgns_mount m;	/* the hierarchy, as seen outside */
	char outside_dir[CGNS_PATH_MAX];	/* the ns root's directory outside */
	const char *enter;	/* cgroup to create the namespace in, or NULL */
};

static int mount_inside(void *arg)
{
	struct mount_req *r = arg;
	char point[64], me[CGNS_PATH_MAX];
	struct cgns_mount got[4];
	struct ns_ident before, after;
	int n;

	if (r->enter && cgns_enter(r->enter))
		return child_fail("enter %s: %m", r->enter);
	if (ns_ident_of(0, "mnt", &before) || ns_unshare_admin(CLONE_NEWCGROUP | CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWCGROUP|CLONE_NEWNS): %m");
	/* never mount anything unless the mount namespace really is new */
	if (ns_ident_of(0, "mnt", &after) || ns_ident_eq(&before, &after))
		return child_fail("unshare(CLONE_NEWNS) returned 0, same mount namespace");
	snprintf(point, sizeof(point), "/tmp/nsc-cg-%d", getpid());
	if (ns_private_tmp(NULL))
		return 1;
	if (mkdir(point, 0700))
		return child_fail("mkdir %s: %m", point);
	if (r->m.ctrl[0] ? mount("none", point, "cgroup", 0, r->m.ctrl) :
			   mount("none", point, "cgroup2", 0, NULL))
		return child_fail("mount cgroup '%s' inside: %m", r->m.ctrl);
	n = cgns_mounts(0, point, got, 4);
	if (n != 1)
		return child_fail("%d cgroup mounts at %s", n, point);
	if (strcmp(got[0].root, "/"))
		return child_fail("inside, the new mount's root reads '%s', not /", got[0].root);
	/* it is the directory of the namespace's root cgroup */
	if (!cgns_same_inode(point, r->outside_dir))
		return child_fail("the mount's root is not %s", r->outside_dir);
	if (cgns_path(0, r->m.ctrl, me) || strcmp(me, "/"))
		return child_fail("own path '%s'", me);
	return 0;
}

/* Mount @r's hierarchy in new cgroup and mount namespaces, check its root. */
static void check_mount(struct __test_metadata *_metadata, struct mount_req *r)
{
	EXPECT_EQ(0, ns_run_admin(0, mount_inside, r))
		TH_LOG("hierarchy '%s' at %s", r->m.ctrl, r->m.point);
}

/*
 * A cgroup v2 mount made in a new cgroup namespace is rooted at the namespace's cgroup
 * (cgroup_namespaces(7)).
 *
 * Mountinfo shows "/" inside, and the mount's root is that cgroup's
 * directory.
 */
TEST_F(cg, v2_mount_inside_rooted_at_ns_cgroup)
{
	struct mount_req r = { .enter = NULL };
	struct cgns_mount m[32];
	int n = cgns_mounts(0, NULL, m, 32), i;

	REQUIRE_OWN_CGROUPS();
	for (i = 0; i < n; i++)
		if (!m[i].ctrl[0])
			break;
	ASSERT_LT(i, n);
	r.m = m[i];
	snprintf(r.outside_dir, CGNS_PATH_MAX, "%s", self->a);
	r.enter = self->a;
	check_mount(_metadata, &r);
}

/*
 * Each cgroup v1 hierarchy we are below the root of, mounted in a new cgroup ns, is rooted at its
 * cgroup (cgroup_namespaces(7)).
 */
TEST(v1_mount_inside_rooted_at_ns_cgroup)
{
	struct cgns_mount *m = calloc(32, sizeof(*m));
	int n = cgns_mounts(0, NULL, m, 32), v1 = 0, checked = 0;

	NS_NEED_TYPE("cgroup");
	ASSERT_NE(NULL, m);
	for (int i = 0; i < n; i++) {
		struct mount_req r = { .enter = NULL };
		char path[CGNS_PATH_MAX];

		if (!m[i].ctrl[0])
			continue;
		v1++;
		if (cgns_path(0, m[i].ctrl, path) || !strcmp(path, "/") ||
		    cgns_dir(&m[i], r.outside_dir))
			continue;
		r.m = m[i];
		check_mount(_metadata, &r);
		checked++;
	}
	free(m);
	NS_NEED_ENV(v1, NS_WHY_NO_CGROUP_V1);
	NS_NEED_ENV(checked, NS_WHY_CGROUP_V1_ROOT);
}

/* --- moving and joining ------------------------------------------------------ */

static int moved_views(void *arg)
{
	struct moved_req {
		const char *sub, *b;
		bool nsdelegate;
	} *r = arg;
	char path[CGNS_PATH_MAX];
	int err = ns_unshare_admin(CLONE_NEWCGROUP);

	if (err) {
		errno = -err;
		return child_fail("unshare: %m");
	}
	if (cgns_enter(r->sub))
		return child_fail("enter sub: %m");
	if (cgns_path(0, "", path) || strcmp(path, "/sub"))
		return child_fail("after moving below the root: '%s', want /sub", path);
	/*
	 * The root stays where the namespace was made.  With nsdelegate a
	 * move outside it is refused (ENOENT); without, it works and our
	 * own path then starts with "..".
	 */
	err = cgns_enter(r->b);
	if (r->nsdelegate) {
		if (err != -ENOENT)
			return child_fail("nsdelegate: moving outside the root: %s, not ENOENT",
					  strerror(-err));
		return cgns_path(0, "", path) || strcmp(path, "/sub") ?
			child_fail("after a refused move: '%s'", path) : 0;
	}
	if (err)
		return child_fail("moving to a sibling cgroup: %s", strerror(-err));
	if (cgns_path(0, "", path) || strcmp(path, "/../b"))
		return child_fail("after moving outside the root: '%s', want /../b", path);
	return 0;
}

/*
 * A cgroup namespace's root stays its creation cgroup: moved below it shows /sub, to a sibling
 * /../b (cgroup_namespaces(7)).
 *
 * With the nsdelegate mount option, moving a process outside the namespace's
 * root is refused with ENOENT (cgroup-v2.rst "nsdelegate").
 */
TEST_F(cg, ns_root_fixed_at_creation)
{
	struct moved_req { const char *sub, *b; bool nsdelegate; } r = {
		self->sub, self->b, cgns_v2_nsdelegate()
	};
	pid_t pid;

	REQUIRE_OWN_CGROUPS();
	pid = ns_clone(0);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (cgns_enter(self->a))
			_exit(child_fail("enter a: %m"));
		_exit(moved_views(&r));
	}
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
}

/* A process in a cgroup namespace that another joins with setns(). */
static int cgns_holder(void *arg)
{
	(void)arg;
	return unshare(CLONE_NEWCGROUP) ? child_fail("unshare: %m") : 0;
}

static int join_cgns(void *arg)
{
	struct own_view *v = arg;
	struct ns_sync s;
	char file[64], path[CGNS_PATH_MAX];
	pid_t holder, j;
	int rc = prepare_view(v);

	if (rc)
		return rc;
	holder = ns_clone_synced(ns_clone, 0, &s);
	if (holder == 0) {
		char ok;

		ns_sync_child_side(&s);
		ok = !cgns_holder(NULL);
		ns_sync_tell(&s, true, &ok, 1);
		ns_sync_wait(&s, true, NULL, 0, 2 * NS_WAIT_MS);
		_exit(0);
	}
	{
		char ok = 0;

		if (holder < 0 || ns_sync_wait(&s, false, &ok, 1, NS_WAIT_MS) || !ok)
			return child_fail("cgroup ns holder failed");
	}
	snprintf(file, sizeof(file), "/proc/%d/ns/cgroup", holder);
	j = ns_clone(0);
	if (j == 0) {
		int fd = open(file, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || setns(fd, CLONE_NEWCGROUP))
			_exit(child_fail("setns(cgroup): %m"));
		if (ns_same_as_self(holder, "cgroup") != 1)
			_exit(child_fail("setns returned 0, not in the holder's namespace"));
		for (int i = 0; i < v->n; i++)
			if (cgns_path(0, v->ctrl[i], path) || strcmp(path, "/"))
				_exit(child_fail("after setns '%s' shows '%s', was '%s'",
						 v->ctrl[i], path, v->before[i]));
		_exit(0);
	}
	rc = ns_wait(j, NS_WAIT_MS);
	ns_sync_tell(&s, false, NULL, 0);
	ns_wait(holder, NS_WAIT_MS);
	ns_sync_close(&s);
	return rc;
}

/*
 * setns() into a cgroup namespace makes /proc/self/cgroup relative to that namespace's root
 * (cgroup_namespaces(7), setns(2)).
 */
TEST_F(cg, setns_makes_paths_relative_to_joined_ns)
{
	CG_OWN_VIEW(join_cgns);
}

/* Whether the cgroup.procs of @dir lists @pid: 1, 0, or -errno. */
static int procs_list(const char *dir, pid_t pid)
{
	char path[CGNS_PATH_MAX + 16], buf[4096], *line, *save;
	int n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	n = ns_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (atoi(line) == pid)
			return 1;
	return 0;
}

/* The holder: in cgroup b, a cgroup namespace rooted there (a user namespace too if needed). */
static int member_holder(struct ns_sync *s, const char *b)
{
	char ok = !cgns_enter(b) && !unshare(CLONE_NEWCGROUP);

	ns_sync_tell(s, true, &ok, 1);
	ns_sync_wait(s, true, NULL, 1, 3 * NS_WAIT_MS);
	return ok ? 0 : child_fail("enter %s, unshare(CLONE_NEWCGROUP): %m", b);
}

/* The joiner: in cgroup a, setns() into the holder's cgroup namespace; says what it sees. */
static int member_joiner(struct ns_sync *s, const char *a, pid_t holder, char *seen)
{
	char file[64];
	int fd;

	if (cgns_enter(a))
		return child_fail("enter %s: %m", a);
	if (!ns_have_sys_admin()) {
		/* its owner's: CAP_SYS_ADMIN over the cgroup namespace */
		snprintf(file, sizeof(file), "/proc/%d/ns/user", holder);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWUSER))
			return child_fail("setns(%s): %m", file);
		close(fd);
	}
	snprintf(file, sizeof(file), "/proc/%d/ns/cgroup", holder);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWCGROUP))
		return child_fail("setns(%s): %m", file);
	close(fd);
	if (ns_same_as_self(holder, "cgroup") != 1)
		return child_fail("setns returned 0, not in the holder's cgroup namespace");
	if (cgns_path(0, "", seen))
		return child_fail("no v2 line in /proc/self/cgroup");
	ns_sync_tell(s, true, NULL, 0);
	ns_sync_wait(s, true, NULL, 1, 3 * NS_WAIT_MS);
	return 0;
}

/*
 * setns() into a cgroup namespace does not change the caller's cgroup
 * membership (setns(2) "Cgroup namespaces": "Using setns() to change the
 * caller's cgroup namespace does not change the caller's cgroup
 * memberships").  A joiner in cgroup a joins the namespace of a holder
 * rooted at its sibling b: from outside it is still in a (its
 * /proc/PID/cgroup, a's cgroup.procs lists it, b's does not), and from
 * inside it sees a relative to b's root: exactly "/../a".
 */
TEST_F(cg, setns_leaves_cgroup_membership_alone)
{
	char *seen = ns_shared_page(CGNS_PATH_MAX);
	char outside[CGNS_PATH_MAX], want[CGNS_PATH_MAX + 8];
	struct ns_sync sh, sj;
	pid_t holder, joiner;
	char ok = 0;

	REQUIRE_OWN_CGROUPS();
	ASSERT_NE(NULL, seen);
	holder = ns_clone_synced(ns_clone_admin, 0, &sh);
	ASSERT_LE(0, holder);
	if (holder == 0)
		_exit(member_holder(&sh, self->b));
	ASSERT_EQ(0, ns_sync_wait(&sh, false, &ok, 1, NS_WAIT_MS));
	ASSERT_EQ(1, ok);
	joiner = ns_clone_synced(ns_clone, 0, &sj);
	ASSERT_LE(0, joiner);
	if (joiner == 0)
		_exit(member_joiner(&sj, self->a, holder, seen));
	if (ns_sync_wait(&sj, false, NULL, 1, NS_WAIT_MS) == 0) {
		snprintf(want, sizeof(want), "%s/a", self->rel);
		EXPECT_EQ(0, cgns_path(joiner, "", outside));
		EXPECT_STREQ(want, outside);
		EXPECT_EQ(1, procs_list(self->a, joiner));
		EXPECT_EQ(0, procs_list(self->b, joiner));
		EXPECT_EQ(1, procs_list(self->b, holder));
		EXPECT_STREQ("/../a", seen);
	}
	ns_sync_tell(&sj, false, NULL, 0);
	ns_sync_close(&sj);
	EXPECT_EQ(0, ns_wait(joiner, NS_WAIT_MS));
	ns_sync_tell(&sh, false, NULL, 0);
	ns_sync_close(&sh);
	EXPECT_EQ(0, ns_wait(holder, NS_WAIT_MS));
}

struct ancestor_req {
	char file[CGNS_PATH_MAX + 32];		/* an ancestor's cgroup.subtree_control */
	const char *ancestor;			/* that ancestor's directory */
	const char *enter;			/* the cgroup the namespace is made in */
};

/* The directories met in the walk of the mount made inside, and the ancestor among them. */
static struct stat walk_ancestor;
static int walk_dirs, walk_hits;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path;
	(void)f;
	if (type != FTW_D)
		return 0;
	walk_dirs++;
	walk_hits += st->st_dev == walk_ancestor.st_dev && st->st_ino == walk_ancestor.st_ino;
	return 0;
}

static int ancestor_out_of_reach(void *arg)
{
	struct ancestor_req *r = arg;
	struct ns_ident before, after;
	char point[64], up[80];
	struct stat st;
	int fd;

	if (cgns_enter(r->enter))
		return child_fail("enter %s: %m", r->enter);
	/* before: the ancestor's file is ours to change (opened, never written) */
	fd = open(r->file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s for writing before the namespace: %m", r->file);
	close(fd);
	if (stat(r->ancestor, &walk_ancestor))
		return child_fail("stat %s: %m", r->ancestor);
	if (ns_ident_of(0, "mnt", &before) || ns_unshare_admin(CLONE_NEWCGROUP | CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWCGROUP|CLONE_NEWNS): %m");
	/* never mount anything unless the mount namespace really is new */
	if (ns_ident_of(0, "mnt", &after) || ns_ident_eq(&before, &after))
		return child_fail("unshare(CLONE_NEWNS) returned 0, same mount namespace");
	if (ns_private_tmp(NULL))
		return 1;
	snprintf(point, sizeof(point), "/tmp/nsc-cg-%d", getpid());
	if (mkdir(point, 0700) || mount("none", point, "cgroup2", 0, NULL))
		return child_fail("mount cgroup2 on %s inside: %m", point);
	if (!cgns_same_inode(point, r->enter))
		return child_fail("the mount's root is not %s", r->enter);
	/* after: no directory of the mount, and not its root's "..", is the ancestor */
	walk_dirs = walk_hits = 0;
	if (nftw(point, walk_one, 16, FTW_PHYS | FTW_MOUNT))
		return child_fail("walk %s: %m", point);
	snprintf(up, sizeof(up), "%s/..", point);
	if (stat(up, &st))
		return child_fail("stat %s: %m", up);
	if (walk_hits || (st.st_dev == walk_ancestor.st_dev && st.st_ino == walk_ancestor.st_ino))
		return child_fail("the ancestor %s is reachable through the mount made inside",
				  r->ancestor);
	return walk_dirs ? 0 : child_fail("the walk of %s met no directory", point);
}

/*
 * A process namespaced below a delegated cgroup, with cgroup2 mounted from
 * inside its cgroup namespace, cannot reach the ancestor cgroup through
 * that mount: no directory of it, nor its root's "..", is the ancestor
 * (cgroup_namespaces(7): namespacing X under /cg/1/2 "in combination with
 * suitable mount operations for the cgroup filesystem ... prevents it
 * modifying files in /cg/1, since it cannot even see the contents of that
 * directory").  Both sides: before the namespace the same process opens the
 * ancestor's cgroup.subtree_control for writing through the mount outside.
 */
TEST_F(cg, ancestor_cgroup_out_of_reach_from_inside)
{
	struct ancestor_req *r = ns_shared_page(sizeof(*r));

	REQUIRE_OWN_CGROUPS();
	ASSERT_NE(NULL, r);
	snprintf(r->file, sizeof(r->file), "%s/cgroup.subtree_control", self->a);
	r->ancestor = self->a;
	r->enter = self->sub;
	EXPECT_EQ(0, ns_run_admin(0, ancestor_out_of_reach, r));
}

TEST_HARNESS_MAIN
