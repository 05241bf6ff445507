// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/sys/user/max_*_namespaces limits (namespaces(7) "The
 * /proc/sys/user directory"): their defaults (half of threads-max in the
 * initial user namespace, MAXINT in every other), who may change them, that
 * clone(2) meets them too, that they count per user, and that a namespace
 * is also accounted against the creator uids in every ancestor user
 * namespace.
 *
 * Limits are lowered only in user namespaces the test created: the initial
 * ones need CAP_SYS_RESOURCE there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

static void limit_path(const struct ns_type *t, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/sys/user/max_%s_namespaces", t->sysctl);
}

/* Set the limit for @t in the caller's user namespace.  0 or child_fail(). */
static int set_limit(const struct ns_type *t, long v)
{
	char path[96], text[32];
	int err;

	limit_path(t, path, sizeof(path));
	snprintf(text, sizeof(text), "%ld", v);
	err = ns_write_file(path, text);
	if (err)
		errno = -err;
	return err ? child_fail("write %ld to %s: %m", v, path) : 0;
}

/* A child that creates a namespace of @t by @how and waits to be let go. */
struct creator {
	pid_t pid;
	int err;
	struct ns_sync s;
};

/* unshare() in a forked child (or, @by_clone, the child itself is made with the flag). */
static int creator_start(struct creator *c, const struct ns_type *t, bool by_clone)
{
	unsigned long flags = by_clone ? t->flag : 0;

	c->err = 0;
	if (ns_sync_init(&c->s))
		return -1;
	c->pid = t->flag == CLONE_NEWTIME && by_clone ? ns_clone3(flags) :
		 nsfs_spawn(0, flags);
	if (c->pid < 0) {
		c->err = errno;
		ns_sync_close(&c->s);
		return 0;
	}
	if (c->pid == 0) {
		int err = 0;

		ns_sync_child_side(&c->s);
		if (!by_clone && unshare(t->flag))
			err = errno;
		ns_sync_tell(&c->s, true, &err, sizeof(err));
		if (!err)
			ns_sync_wait(&c->s, true, NULL, 0, 3 * NS_WAIT_MS);
		_exit(0);
	}
	ns_sync_parent_side(&c->s);
	if (ns_sync_wait(&c->s, false, &c->err, sizeof(c->err), NS_WAIT_MS))
		c->err = EIO;
	return 0;
}

static void creator_stop(struct creator *c)
{
	if (c->pid <= 0)
		return;
	if (!c->err)	/* else it did not wait */
		ns_sync_tell(&c->s, false, NULL, 0);
	ns_wait(c->pid, NS_WAIT_MS);
	ns_sync_close(&c->s);
	c->pid = -1;
}

/* Create one of @t and let it go at once: 0 or the errno. */
static int create_once(const struct ns_type *t, bool by_clone)
{
	struct creator c;

	if (creator_start(&c, t, by_clone))
		return EIO;
	creator_stop(&c);
	return c.err;
}

static int create_once_unshare(void *arg)
{
	return create_once(arg, false);
}

/* create_once() until it is not ENOSPC or 8 s passed (some types are freed late). */
static int create_eventually(const struct ns_type *t)
{
	return nsfs_until_not_enospc(create_once_unshare, (void *)t, 8000);
}

/* --- defaults, and clone() at the limit, type by type -------------------- */

static int child_default_worker(void *arg)
{
	const struct ns_type *t = arg;
	char path[96];
	long v;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	/* a lowered value in the parent is not what a child starts with */
	if (set_limit(t, 5))
		return 1;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	limit_path(t, path, sizeof(path));
	if (ns_read_long(path, &v))
		return child_fail("read %s in the child user namespace: %m", path);
	if (v != INT_MAX)
		return child_fail("%s in a new user namespace reads %ld, not MAXINT %d",
				  path, v, INT_MAX);
	return 0;
}

static int clone_limit_worker(void *arg)
{
	const struct ns_type *t = arg;
	struct creator first, second;
	int err, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (set_limit(t, 1))
		return 1;
	if (creator_start(&first, t, true) || first.err)
		return child_fail("the first clone(CLONE_NEW%s) under max 1: %s", t->name,
				  strerror(first.err));
	errno = 0;
	if (creator_start(&second, t, true))
		rc = child_fail("no second creator");
	else if (second.pid > 0 || second.err != ENOSPC)
		rc = child_fail("a second clone(CLONE_NEW%s) over max 1: %s, not ENOSPC", t->name,
				second.pid > 0 ? "made" : strerror(second.err));
	creator_stop(&second);
	creator_stop(&first);
	/* the first gone, one fits again */
	if (!rc && (err = create_eventually(t)))
		rc = child_fail("after the first went, a %s namespace: %s", t->name, strerror(err));
	return rc;
}

FIXTURE(limits) {};

NS_TYPE_VARIANTS(limits);

FIXTURE_SETUP(limits)
{
	const struct ns_type *t = ns_type_of(variant->flag);

	ASSERT_NE(NULL, t);
	NS_NEED_TYPE(t->name);
	NS_NEED(nsfs_max_ns_feature(t));
}

FIXTURE_TEARDOWN(limits)
{
}

/*
 * In the initial user namespace each max_*_namespaces defaults to half of kernel.threads-max
 * (namespaces(7) /proc/sys/user).
 *
 * Read at boot: a later change of threads-max, or of the limit, by the
 * host's administrator makes this fail (the message says which).
 */
TEST_F(limits, initial_userns_default_is_half_threads_max)
{
	char path[96];
	long v, threads;

	NS_NEED_INITIAL_USERNS();
	limit_path(ns_type_of(variant->flag), path, sizeof(path));
	ASSERT_EQ(0, ns_read_long(path, &v));
	ASSERT_EQ(0, ns_read_long("/proc/sys/kernel/threads-max", &threads));
	EXPECT_EQ(threads / 2, v)
		TH_LOG("%s is %ld, threads-max %ld: changed on this host since boot?", path, v,
		       threads);
}

/*
 * In a new user namespace each max_*_namespaces reads MAXINT, whatever its parent's value
 * (namespaces(7) /proc/sys/user).
 */
TEST_F(limits, child_userns_default_is_maxint)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, child_default_worker, (void *)ns_type_of(variant->flag)));
}

/*
 * At max_<type>_namespaces clone() fails with ENOSPC and makes no child, as unshare() does
 * (namespaces(7) /proc/sys/user, clone(2) ERRORS).
 */
TEST_F(limits, clone_over_limit_enospc)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, clone_limit_worker, (void *)ns_type_of(variant->flag)));
}

/* --- ancestors, users, privilege ------------------------------------------ */

/* In a child user namespace of ours: one of @t fits, the next is over our limit. */
static int in_child_userns(const struct ns_type *t)
{
	struct creator first, second;
	char path[96];
	long v;
	int rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a child user namespace: %m");
	limit_path(t, path, sizeof(path));
	if (ns_read_long(path, &v) || v != INT_MAX)
		return child_fail("%s in the child reads %ld, not MAXINT: %m", path, v);
	if (creator_start(&first, t, false) || first.err)
		return child_fail("the first %s namespace in the child user namespace: %s",
				  t->name, strerror(first.err));
	if (creator_start(&second, t, false) || second.err != ENOSPC)
		rc = child_fail("a second %s namespace in the child, over the parent's limit: "
				"%s, not ENOSPC", t->name, strerror(second.err));
	creator_stop(&second);
	creator_stop(&first);
	return rc;
}

/*
 * As root of a new user namespace, for each type: its limit set to what
 * fits, a namespace made @depth user namespaces further down (whose own
 * limits read MAXINT) meets it.
 */
static int limit_held_below(int depth)
{
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	/*
	 * user first: each round leaves child user namespaces behind that are
	 * freed asynchronously and would count in a later user round.
	 */
	for (int i = -1; i < NS_NTYPES; i++) {
		const struct ns_type *t = i < 0 ? ns_type_of(CLONE_NEWUSER) : &ns_types[i];

		if (i >= 0 && t->flag == CLONE_NEWUSER)
			continue;
		/* the user namespaces in between are user ones too */
		long max = t->flag == CLONE_NEWUSER ? depth + 1 : 1;
		pid_t pid;
		int rc;

		if (!ns_type_available(t->name))
			continue;
		if (set_limit(t, max))
			return 1;
		pid = ns_clone(0);
		if (pid < 0)
			return child_fail("fork: %m");
		if (pid == 0) {
			for (int d = 1; d < depth; d++)
				if (ns_unshare_userns_root(0))
					_exit(child_fail("a user namespace in between: %m"));
			_exit(in_child_userns(t));
		}
		rc = ns_wait(pid, NS_WAIT_MS);
		if (rc)
			return child_fail("%s: max_%s_namespaces=%ld did not hold %d user "
					  "namespace(s) down", t->name, t->sysctl, max, depth);
		if (set_limit(t, INT_MAX))
			return 1;
	}
	return 0;
}

static int limit_held_worker(void *arg)
{
	return limit_held_below(*(const int *)arg);
}

/* The test: limit_held_below(@depth) in a child. */
#define LIMIT_HELD_BELOW(depth) do {						\
	const char *why = ns_userns_blocker(false);				\
	int d = (depth);							\
										\
	NS_NEED_WHY(why);							\
	ASSERT_EQ(0, ns_run(0, limit_held_worker, &d));				\
} while (0)

/*
 * A namespace made in a child user ns counts against the limit of its creator's uid in the parent:
 * at the parent's max, ENOSPC in the child (namespaces(7)).
 */
TEST(limit_of_ancestor_userns_holds_in_child_userns)
{
	LIMIT_HELD_BELOW(1);
}

/*
 * A namespace is accounted against the creator uids in each ancestor user namespace: a limit holds
 * two user namespaces down (namespaces(7): nesting "cannot be used as a means to escape").
 *
 * The limit is set where the test is root; between it and the namespace
 * created sit two user namespaces whose own limits read MAXINT.
 */
TEST(limit_of_grandparent_userns_holds_two_levels_down)
{
	LIMIT_HELD_BELOW(2);
}

/*
 * In the user namespace of uids 0 and 1: uid 1 creates a UTS namespace (through a user namespace
 * of its own) when uid 0 holds the only one allowed.
 */
static int other_user_creates(void)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(1, 1, 1) || setresuid(1, 1, 1))
			_exit(child_fail("become uid 1: %m"));
		prctl(PR_SET_DUMPABLE, 1);
		if (unshare(CLONE_NEWUSER))
			_exit(child_fail("uid 1: unshare(CLONE_NEWUSER): %m"));
		if (unshare(CLONE_NEWUTS))
			_exit(child_fail("uid 1: unshare(CLONE_NEWUTS) while uid 0 is at the "
					 "limit: %m (the limit is not per user)"));
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int per_user_inside(void)
{
	const struct ns_type *uts = ns_type_of(CLONE_NEWUTS);
	struct creator first, second;
	int rc = 0;

	if (set_limit(uts, 1))
		return 1;
	if (creator_start(&first, uts, false) || first.err)
		return child_fail("uid 0: the first uts namespace: %s", strerror(first.err));
	/* the control: uid 0 itself is at the limit */
	if (creator_start(&second, uts, false) || second.err != ENOSPC)
		rc = child_fail("uid 0: a second uts namespace: %s, not ENOSPC",
				strerror(second.err));
	creator_stop(&second);
	if (!rc)
		rc = other_user_creates();
	creator_stop(&first);
	return rc;
}

static int per_user_worker(void *arg)
{
	struct ns_sync s;
	pid_t pid;
	int rc = 0;

	(void)arg;
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWUSER): %m");
	if (pid == 0) {
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(child_fail("no maps"));
		_exit(per_user_inside());
	}
	/* real root maps two ids, 0 and 1, to 0 and 1 */
	if (ns_write_proc(pid, "uid_map", "0 0 2\n") ||
	    ns_write_proc(pid, "gid_map", "0 0 2\n"))
		rc = child_fail("map uids 0-1: %m");
	else
		ns_sync_tell(&s, false, NULL, 0);
	ns_sync_close(&s);
	return ns_wait(pid, NS_WAIT_MS) ?: rc;
}

/*
 * max_*_namespaces is per user: uid 1 may create up to the limit while uid 0 of the same user
 * namespace is at it (namespaces(7) "The limits are per-user").
 */
TEST(limit_counts_per_user)
{
	NS_NEED_USERNS();
	/* mapping two uids takes CAP_SETUID and CAP_SETGID there */
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_cap_effective(CAP_SETUID) &&
			  ns_cap_effective(CAP_SETGID));
	ASSERT_EQ(0, ns_run(0, per_user_worker, NULL));
}

static int writable_worker(void *arg)
{
	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		char path[96];
		long v;
		int fd;

		limit_path(t, path, sizeof(path));
		if (ns_read_long(path, &v))
			continue;
		if (ns_cap_set(CAP_SYS_RESOURCE, CAP_EFFECTIVE, false))
			return child_fail("drop CAP_SYS_RESOURCE: %m");
		errno = 0;
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0 || errno != EACCES)
			return child_fail("open %s for writing without CAP_SYS_RESOURCE: %m, "
					  "not EACCES", path);
		if (ns_read_long(path, &v))
			return child_fail("read %s without CAP_SYS_RESOURCE: %m", path);
		/* the control: CAP_SYS_RESOURCE alone is enough */
		if (ns_caps_effective_only(CAP_SYS_RESOURCE))
			return child_fail("keep CAP_SYS_RESOURCE alone: %m");
		if (set_limit(t, 7) || ns_read_long(path, &v) || v != 7)
			return child_fail("%s with CAP_SYS_RESOURCE: wrote 7, reads %ld", path, v);
		if (ns_caps_effective_only(CAP_SYS_ADMIN) ||
		    ns_cap_set(CAP_SYS_RESOURCE, CAP_EFFECTIVE, true))
			return child_fail("raise the capabilities again: %m");
	}
	return 0;
}

/*
 * Changing max_*_namespaces needs CAP_SYS_RESOURCE in the user ns: without it open for writing
 * fails with EACCES, reading works (namespaces(7) "modifiable by privileged processes").
 */
TEST(limits_writable_only_with_cap_sys_resource)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, writable_worker, NULL));
}

TEST_HARNESS_MAIN
