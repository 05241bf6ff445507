// SPDX-License-Identifier: GPL-2.0
/*
 * UTS namespaces: uts_namespaces(7), namespaces(7), and the article's
 * part 1 ("the UTS namespace") and part 2 (demo_uts_namespaces.c).
 *
 * Every test first moves itself into a UTS namespace of its own (with a
 * user namespace when unprivileged), so that nothing it sets can reach
 * the host's hostname even when a kernel ignores CLONE_NEWUTS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

struct names {
	char host[65];
	char domain[65];
};

static void make_names(struct names *n, const char *tag)
{
	snprintf(n->host, sizeof(n->host), "nsc-%s-%d", tag, getpid());
	snprintf(n->domain, sizeof(n->domain), "dom-%s-%d", tag, getpid());
}

static int set_names(const struct names *n)
{
	if (sethostname(n->host, strlen(n->host)))
		return -errno;
	if (setdomainname(n->domain, strlen(n->domain)))
		return -errno;
	return 0;
}

/* 0 when uname() reports exactly @n, else a child_fail() message. */
static int names_are(const struct names *n, const char *who)
{
	struct utsname u;

	if (uname(&u))
		return child_fail("uname: %m");
	if (strcmp(u.nodename, n->host))
		return child_fail("%s: hostname is '%s', expected '%s'", who, u.nodename, n->host);
	if (strcmp(u.domainname, n->domain))
		return child_fail("%s: domainname is '%s', expected '%s'", who,
				  u.domainname, n->domain);
	return 0;
}

/*
 * Put the test process in a UTS namespace of its own and give it known
 * names there, so that what the test changes never reaches the host.
 */
static int private_uts(struct names *outer)
{
	int err = ns_unshare_admin(CLONE_NEWUTS);

	if (err)
		return err;
	make_names(outer, "outer");
	return set_names(outer);
}

static void current_names(struct names *n)
{
	struct utsname u;

	uname(&u);
	snprintf(n->host, sizeof(n->host), "%s", u.nodename);
	snprintf(n->domain, sizeof(n->domain), "%s", u.domainname);
}

/*
 * For tests whose child gives up its privileges: a privileged caller moves
 * into a private UTS namespace first (its child then drops to nobody); an
 * unprivileged caller stays where it is, since it cannot change the names
 * there, and a user namespace of its own would leave its child as uid 0
 * without CAP_SETFCAP, which may not map root (user_namespaces(7), 5.12+).
 */
static int outer_for_unprivileged(struct names *outer)
{
	if (ns_have_sys_admin())
		return private_uts(outer);
	current_names(outer);
	return 0;
}

/* Run @child(&outer) in a process that gives up its privileges; the outer names must hold. */
static void unprivileged_child(struct __test_metadata *_metadata, int (*child)(void *))
{
	struct names outer;

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, outer_for_unprivileged(&outer));
	EXPECT_EQ(0, ns_run(0, child, &outer));
	EXPECT_EQ(0, names_are(&outer, "parent afterwards"));
}

struct child_arg {
	struct ns_sync sync;
	struct names names;
	struct names seen;
};

/* In a child: tell the parent we are ready, wait for its word: 0 or -1. */
static int report_and_wait(struct child_arg *a)
{
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS);
}

static int set_and_report(void *p)
{
	struct child_arg *a = p;
	int err;

	ns_sync_child_side(&a->sync);
	err = set_names(&a->names);
	if (err)
		return child_fail("set names: %s", strerror(-err));
	if (names_are(&a->names, "child after setting"))
		return 1;
	/* Stay alive until the parent has looked; the names must still be ours. */
	if (report_and_wait(a))
		return child_fail("parent never released the child");
	return names_are(&a->names, "child at the end");
}

/*
 * Start @fn in a child in a new UTS namespace and wait for its first word;
 * returns its pid, or -1 (the child reaped).
 */
static pid_t start_child(struct child_arg *a, int (*fn)(void *))
{
	pid_t pid;

	pid = ns_clone_synced(ns_clone, CLONE_NEWUTS, &a->sync);
	if (pid == 0)
		_exit(fn(a));
	if (pid > 0 && ns_sync_wait(&a->sync, false, NULL, 0, NS_WAIT_MS)) {
		ns_sync_close(&a->sync);
		ns_wait(pid, NS_WAIT_MS);
		return -1;
	}
	return pid;
}

/*
 * The user-namespace probe, then our own UTS namespace (@outer) and a child @pid in a new
 * one that has set the names made from @tag (in @a) and reported them.
 */
#define UTS_CHILD(a, outer, pid, tag)						\
	struct child_arg a;							\
	struct names outer;							\
	pid_t pid;								\
	NS_NEED_ADMIN_OR_USERNS();						\
	ASSERT_EQ(0, private_uts(&outer));					\
	make_names(&a.names, tag);						\
	pid = start_child(&a, set_and_report);					\
	ASSERT_GT(pid, 0)

/* Let the child @pid go on and end: its exit code (as ns_wait()). */
static int release_child(struct child_arg *a, pid_t pid)
{
	int rc;

	ns_sync_tell(&a->sync, false, NULL, 0);
	rc = ns_wait(pid, NS_WAIT_MS);
	ns_sync_close(&a->sync);
	return rc;
}

/*
 * A hostname and NIS domain name set in a new UTS namespace are seen inside, not outside
 * (uts_namespaces(7)).
 */
TEST(names_set_inside_not_seen_outside)
{
	UTS_CHILD(a, outer, pid, "inner");
	/* The child is alive with its new names: the parent must not see them. */
	EXPECT_EQ(0, names_are(&outer, "parent while child runs"));
	EXPECT_EQ(0, ns_same_as_self(pid, "uts"));
	EXPECT_EQ(0, release_child(&a, pid));
}

static int check_copy_then_outer_change(void *p)
{
	struct child_arg *a = p;

	ns_sync_child_side(&a->sync);
	/* At creation the new namespace holds a copy of the creator's names. */
	if (names_are(&a->seen, "child at creation"))
		return 1;
	if (report_and_wait(a))
		return child_fail("parent never said it changed its names");
	/* The creator changed its names since: the child keeps the copy. */
	return names_are(&a->seen, "child after parent's change");
}

/*
 * In our own UTS namespace (its names in @outer), a child that checks it
 * starts with a copy of them and keeps it: its pid, or -1.
 */
static pid_t start_copy_checker(struct child_arg *a, struct names *outer)
{
	if (private_uts(outer))
		return -1;
	a->seen = *outer;
	return start_child(a, check_copy_then_outer_change);
}

/*
 * A new UTS namespace starts as a copy of the creator's names (uts_namespaces(7), clone(2)
 * CLONE_NEWUTS).
 */
TEST(new_namespace_starts_as_copy)
{
	struct child_arg a;
	struct names outer;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	pid = start_copy_checker(&a, &outer);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(0, release_child(&a, pid));
}

/*
 * A change made outside after the namespace was created is not seen inside (article part 1,
 * uts_namespaces(7)).
 */
TEST(outside_change_not_seen_inside)
{
	struct names outer, changed;
	struct child_arg a;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	pid = start_copy_checker(&a, &outer);
	ASSERT_GT(pid, 0);
	make_names(&changed, "changed");
	ASSERT_EQ(0, set_names(&changed));
	ASSERT_EQ(0, names_are(&changed, "parent after change"));
	EXPECT_EQ(0, release_child(&a, pid));
}

/*
 * Two sibling UTS namespaces keep their own names (uts_namespaces(7); LTP utsname03 checks one
 * direction).
 */
TEST(sibling_namespaces_independent)
{
	struct child_arg a, b;
	struct names outer;
	pid_t pa, pb;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_uts(&outer));
	make_names(&a.names, "first");
	make_names(&b.names, "second");
	b.names.host[4] = 'S';
	pa = start_child(&a, set_and_report);
	ASSERT_GT(pa, 0);
	pb = start_child(&b, set_and_report);
	ASSERT_GT(pb, 0);
	/* Both set their names; each re-checks its own when released. */
	EXPECT_EQ(0, ns_same_as_self(pa, "uts"));
	EXPECT_EQ(0, names_are(&outer, "parent"));
	EXPECT_EQ(0, release_child(&b, pb));
	EXPECT_EQ(0, release_child(&a, pa));
	ns_sync_close(&b.sync);
}

static int expect_eperm_unprivileged(void *p)
{
	const struct names *before = p;
	struct names n;

	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	make_names(&n, "denied");
	if (sethostname(n.host, strlen(n.host)) == 0 || errno != EPERM)
		return child_fail("sethostname without CAP_SYS_ADMIN: %m, expected EPERM");
	if (setdomainname(n.domain, strlen(n.domain)) == 0 || errno != EPERM)
		return child_fail("setdomainname without CAP_SYS_ADMIN: %m, expected EPERM");
	return names_are(before, "after refused changes");
}

/*
 * sethostname() and setdomainname() fail with EPERM without CAP_SYS_ADMIN in the owning user
 * namespace (sethostname(2), uts_namespaces(7)).
 */
TEST(set_names_needs_cap_sys_admin)
{
	struct names outer;

	ASSERT_EQ(0, outer_for_unprivileged(&outer));
	EXPECT_EQ(0, ns_run(0, expect_eperm_unprivileged, &outer));
}

static int unprivileged_new_userns_uts(void *p)
{
	const struct names *outer = p;
	struct names n;
	uid_t uid;
	gid_t gid;

	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	uid = geteuid();
	gid = getegid();
	if (unshare(CLONE_NEWUSER | CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUSER|CLONE_NEWUTS) unprivileged: %m");
	if (ns_map_root(0, uid, gid))
		return child_fail("map root: %m");
	/* The copy of the names is there, and now they can be changed. */
	if (names_are(outer, "new namespace before change"))
		return 1;
	make_names(&n, "userns");
	if (set_names(&n))
		return child_fail("set names with a new user namespace: %m");
	return names_are(&n, "new namespace after change");
}

/*
 * An unprivileged process can set names in a UTS namespace created with a new user namespace
 * (user_namespaces(7), article part 5).
 */
TEST(set_names_in_uts_created_with_new_userns)
{
	unprivileged_child(_metadata, unprivileged_new_userns_uts);
}

/*
 * In a child: give up privileges, become root of a new user namespace (with
 * CAP_SYS_ADMIN there) and set @n's name with @call, sethostname() or
 * setdomainname(), in the UTS namespace the parent's user namespace owns:
 * 0 when that is refused with EPERM and the names are still @outer's.
 */
static int refused_in_parents_uts(const struct names *outer, struct names *n,
				  int (*call)(const char *, size_t))
{
	bool host = call == sethostname;
	const char *name = host ? n->host : n->domain;

	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (!ns_cap_effective(CAP_SYS_ADMIN))
		return child_fail("no CAP_SYS_ADMIN in the new user namespace");
	make_names(n, host ? "owner" : "domain");
	if (call(name, strlen(name)) == 0 || errno != EPERM)
		return child_fail("%s in a UTS namespace owned by the parent user namespace: "
				  "%m, expected EPERM", host ? "sethostname" : "setdomainname");
	return names_are(outer, "after refused change");
}

static int userns_only_cannot_set(void *p)
{
	struct names n;

	return refused_in_parents_uts(p, &n, sethostname);
}

/*
 * CAP_SYS_ADMIN in a new user namespace does not cover the UTS namespace the parent's user
 * namespace owns (user_namespaces(7)).
 */
TEST(set_names_refused_in_uts_owned_by_other_userns)
{
	unprivileged_child(_metadata, userns_only_cannot_set);
}

static int proc_file_is(const char *file, const char *want)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", file);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return child_fail("read %s: %m", path);
	buf[strcspn(buf, "\n")] = '\0';
	if (strcmp(buf, want))
		return child_fail("%s reads '%s', expected '%s'", path, buf, want);
	return 0;
}

static int read_proc_names(void *p)
{
	struct child_arg *a = p;

	ns_sync_child_side(&a->sync);
	if (set_names(&a->names))
		return child_fail("set names: %m");
	if (proc_file_is("hostname", a->names.host) ||
	    proc_file_is("domainname", a->names.domain))
		return 1;
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/* Run @fn in a new UTS namespace; the parent's /proc files must stay @outer. */
static void check_proc_from_both_sides(struct __test_metadata *_metadata,
				       const struct names *outer, int (*fn)(void *))
{
	struct child_arg a;
	pid_t pid;

	make_names(&a.names, "procfs");
	pid = start_child(&a, fn);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(0, proc_file_is("hostname", outer->host));
	EXPECT_EQ(0, proc_file_is("domainname", outer->domain));
	EXPECT_EQ(0, release_child(&a, pid));
}

/*
 * /proc/sys/kernel/hostname and domainname show the reader's UTS namespace (uts_namespaces(7),
 * proc(5)).
 */
TEST(proc_sys_names_read_follow_namespace)
{
	struct names outer;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_uts(&outer));
	check_proc_from_both_sides(_metadata, &outer, read_proc_names);
}

static int write_proc_names(void *p)
{
	struct child_arg *a = p;

	ns_sync_child_side(&a->sync);
	/* Writing the /proc files changes this namespace's names... */
	if (ns_write_file("/proc/sys/kernel/hostname", a->names.host) ||
	    ns_write_file("/proc/sys/kernel/domainname", a->names.domain))
		return child_fail("write /proc/sys/kernel/{host,domain}name: %m");
	/* ...as uname() shows. */
	if (names_are(&a->names, "uname after /proc write"))
		return 1;
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/*
 * Writing /proc/sys/kernel/hostname and domainname changes only the writer's UTS namespace
 * (uts_namespaces(7), proc(5)).
 */
TEST(proc_sys_names_write_changes_own_namespace)
{
	struct names outer;

	/* The files are writable by uid 0 of the initial user namespace only. */
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && geteuid() == 0);
	ASSERT_EQ(0, private_uts(&outer));
	check_proc_from_both_sides(_metadata, &outer, write_proc_names);
}

static int proc_write_refused_to_userns_root(void *p)
{
	struct names n;
	int fd;

	(void)p;

	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	if (ns_unshare_userns_root(CLONE_NEWUTS))
		return child_fail("new user and UTS namespaces: %m");
	make_names(&n, "sysctl");
	if (set_names(&n))
		return child_fail("set names as root of the owning user namespace: %m");
	/* Owner, CAP_SYS_ADMIN over the namespace: still no write through /proc. */
	fd = open("/proc/sys/kernel/hostname", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES) {
		if (fd >= 0)
			close(fd);
		return child_fail("open /proc/sys/kernel/hostname for writing: %s, expected EACCES",
				  fd >= 0 ? "opened" : strerror(errno));
	}
	fd = open("/proc/sys/kernel/domainname", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES) {
		if (fd >= 0)
			close(fd);
		return child_fail("open /proc/sys/kernel/domainname for writing: %s, expected "
				  "EACCES", fd >= 0 ? "opened" : strerror(errno));
	}
	return names_are(&n, "after the refused /proc opens");
}

/*
 * proc(5) says writing /proc/sys/kernel/hostname or domainname has the same effect as hostname(1);
 * for root of a user namespace owning the UTS namespace it does not: sethostname() works there, the
 * files refuse to open for writing with EACCES (only uid 0 of the initial user namespace may write
 * a sysctl without a permissions hook; unchanged on every kernel of the matrix).
 *
 * The worker gives up its privileges first, so in the root pass too the
 * namespace's root is an unprivileged id outside.  The names outside are
 * unchanged after it.
 */
TEST(proc_sys_names_not_writable_by_userns_root)
{
	struct names outer;

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, outer_for_unprivileged(&outer));
	EXPECT_EQ(0, ns_run(0, proc_write_refused_to_userns_root, NULL));
	EXPECT_EQ(0, names_are(&outer, "parent afterwards"));
}

/* Join the UTS namespace of @pid. */
static int join_uts_of(pid_t pid)
{
	int fd = ns_open(pid, "uts"), err = 0;

	if (fd < 0)
		return fd;
	if (setns(fd, CLONE_NEWUTS))
		err = -errno;
	close(fd);
	return err;
}

/*
 * setns() into another process's UTS namespace makes its names the joiner's (setns(2), article part
 * 2 ns_exec.c).
 */
TEST(setns_joins_target_names)
{
	struct ns_ident target, self;

	UTS_CHILD(a, outer, pid, "target");
	ASSERT_EQ(0, ns_ident_of(pid, "uts", &target));
	EXPECT_EQ(0, join_uts_of(pid));
	ASSERT_EQ(0, ns_ident_of(0, "uts", &self));
	EXPECT_TRUE(ns_ident_eq(&self, &target));
	EXPECT_EQ(0, names_are(&a.names, "joiner"));
	EXPECT_EQ(0, release_child(&a, pid));
}

static int witness(void *p)
{
	struct child_arg *a = p;

	ns_sync_child_side(&a->sync);
	if (ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS))
		return child_fail("caller never said it unshared");
	/* The caller has unshared and set new names: the old namespace kept its own. */
	return names_are(&a->seen, "process left in the old namespace");
}

/*
 * unshare(CLONE_NEWUTS) moves the caller itself into the new namespace, unlike CLONE_NEWPID
 * (unshare(2), article part 2).
 */
TEST(unshare_moves_caller)
{
	struct ns_ident before, after;
	struct names outer, n;
	struct child_arg a;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_uts(&outer));
	a.seen = outer;
	pid = ns_clone_synced(ns_clone, 0, &a.sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(witness(&a));
	ASSERT_EQ(0, ns_ident_of(0, "uts", &before));
	ASSERT_EQ(0, unshare(CLONE_NEWUTS));
	ASSERT_EQ(0, ns_ident_of(0, "uts", &after));
	EXPECT_FALSE(ns_ident_eq(&before, &after));
	/* The witness, forked before, is still in the old one. */
	EXPECT_EQ(0, ns_same_as_self(pid, "uts"));
	EXPECT_EQ(0, names_are(&outer, "caller right after unshare"));
	make_names(&n, "unshared");
	ASSERT_EQ(0, set_names(&n));
	EXPECT_EQ(0, release_child(&a, pid));
}

static int unprivileged_unshare_uts(void *p)
{
	(void)p;
	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	if (unshare(CLONE_NEWUTS) == 0)
		return child_fail("unshare(CLONE_NEWUTS) succeeded without CAP_SYS_ADMIN");
	if (errno != EPERM)
		return child_fail("unshare(CLONE_NEWUTS) unprivileged: %m, expected EPERM");
	return 0;
}

/* Creating a UTS namespace needs CAP_SYS_ADMIN (unshare(2), clone(2) EPERM). */
TEST(create_needs_cap_sys_admin)
{
	struct names outer;

	ASSERT_EQ(0, outer_for_unprivileged(&outer));
	EXPECT_EQ(0, ns_run(0, unprivileged_unshare_uts, NULL));
}

static int domainname_follows_uts_owner(void *p)
{
	const struct names *outer = p;
	struct names n;

	if (refused_in_parents_uts(outer, &n, setdomainname))
		return 1;
	/* The other side: a UTS namespace this user namespace owns. */
	if (unshare(CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUTS) in the new user namespace: %m");
	snprintf(n.host, sizeof(n.host), "%s", outer->host);
	if (setdomainname(n.domain, strlen(n.domain)))
		return child_fail("setdomainname in the UTS namespace of its own: %m");
	return names_are(&n, "own UTS namespace after setdomainname");
}

/*
 * setdomainname() follows the same owner rule as sethostname(): CAP_SYS_ADMIN
 * in a new user namespace does not cover the UTS namespace the parent's user
 * namespace owns (EPERM), and does cover one the new user namespace owns
 * (user_namespaces(7) "Interaction of user namespaces and other types of
 * namespaces", setdomainname(2) EPERM).
 */
TEST(setdomainname_refused_in_uts_owned_by_other_userns)
{
	unprivileged_child(_metadata, domainname_follows_uts_owner);
}

TEST_HARNESS_MAIN
