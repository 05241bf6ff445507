// SPDX-License-Identifier: GPL-2.0
/*
 * Per-type namespace limits: /proc/sys/user/max_*_namespaces of a user
 * namespace bound how many namespaces of that type it (and its
 * descendants) may own; one more fails with ENOSPC (namespaces(7)
 * "The /proc/sys/user directory", user_namespaces(7)).
 *
 * The initial namespace's limits need CAP_SYS_RESOURCE there, so each test
 * lowers the copy of a fresh child user namespace whose root may change it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nsapi.h"
#include "kselftest_harness.h"

/* A child that unshare()s @flag, reports errno (0) and waits to be let go. */
struct creator {
	pid_t pid;
	int err;
	struct ns_sync s;
};

static int creator_start(struct creator *c, unsigned long flag)
{
	if (ns_sync_init(&c->s))
		return -1;
	c->pid = ns_clone(0);
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		int err;

		ns_sync_child_side(&c->s);
		err = unshare(flag) ? errno : 0;
		ns_sync_tell(&c->s, true, &err, sizeof(err));
		if (!err)
			ns_sync_wait(&c->s, true, NULL, 0, 3 * NS_WAIT_MS);
		_exit(0);
	}
	ns_sync_parent_side(&c->s);
	if (ns_sync_wait(&c->s, false, &c->err, sizeof(c->err), NS_WAIT_MS))
		return -1;
	return 0;
}

static int creator_stop(struct creator *c)
{
	int rc;

	if (!c->err)
		ns_sync_tell(&c->s, false, NULL, 0);
	rc = ns_wait(c->pid, NS_WAIT_MS);
	ns_sync_close(&c->s);
	return rc;
}

/* The file that shows the namespace unshare(@t) made. */
static const char *made_file(const struct ns_type *t)
{
	if (t->flag == CLONE_NEWPID)
		return "pid_for_children";
	if (t->flag == CLONE_NEWTIME)
		return "time_for_children";
	return t->name;
}

/* Create one of @t in a child; 0 and the child alive, or the errno. */
static int create_one(const struct ns_type *t, struct creator *c)
{
	int same;

	if (creator_start(c, t->flag))
		return child_fail("cannot start a creator");
	if (c->err)
		return c->err;
	same = ns_same_as_self(c->pid, made_file(t));
	/* pid_for_children of a new PID namespace without a process: ENOENT */
	if (t->flag == CLONE_NEWPID && same == -ENOENT)
		same = 0;
	if (same != 0)
		return child_fail("unshare(CLONE_NEW%s) returned 0, no new namespace",
				  t->name);
	return 0;
}

struct limit_req {
	const struct ns_type *t, *other;
};

static int limit_inside(void *arg)
{
	struct limit_req *r = arg;
	struct creator first, second, other;
	char path[96], buf[32];
	long deadline;
	int err;

	signal(SIGPIPE, SIG_IGN);
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	snprintf(path, sizeof(path), "/proc/sys/user/max_%s_namespaces", r->t->sysctl);
	err = ns_write_file(path, "1");
	if (err)
		return child_fail("lower %s inside a child user ns: %s", path, strerror(-err));
	if (ns_read_file(path, buf, sizeof(buf)) < 0 || atoi(buf) != 1)
		return child_fail("%s reads '%s' after writing 1", path, buf);
	err = create_one(r->t, &first);
	if (err)
		return child_fail("the first %s namespace under the limit: %s", r->t->name,
				  strerror(err));
	err = create_one(r->t, &second);
	if (err != ENOSPC)
		return child_fail("a second %s namespace over max 1: %s, not ENOSPC",
				  r->t->name, strerror(err));
	creator_stop(&second);
	err = create_one(r->other, &other);
	if (err)
		return child_fail("a %s namespace (other type) at the %s limit: %s",
				  r->other->name, r->t->name, strerror(err));
	creator_stop(&other);
	/* once the first is gone (freed asynchronously for some types) one fits again */
	creator_stop(&first);
	deadline = ns_now_ms() + 8000;
	for (;;) {
		struct timespec tick = { 0, 10000000 };

		err = create_one(r->t, &second);
		creator_stop(&second);
		if (err != ENOSPC || ns_now_ms() > deadline)
			break;
		nanosleep(&tick, NULL);
	}
	if (err)
		return child_fail("after the first %s namespace went: %s", r->t->name,
				  strerror(err));
	return 0;
}

FIXTURE(limit) {
	long outside;
};

NS_TYPE_VARIANTS(limit);

FIXTURE_SETUP(limit)
{
	(void)self;
}

FIXTURE_TEARDOWN(limit)
{
	(void)self;
}

/*
 * max_<type>_namespaces=1 in a child userns: one fits, the next gets ENOSPC, other types still work
 * (namespaces(7) /proc/sys/user).
 *
 * One fits again once the first is gone, and the parent's limit is unchanged.
 * The limits exist since 4.9.
 */
TEST_F(limit, lowered_limit_gives_enospc_for_that_type_only)
{
	struct limit_req r = { ns_type_of(variant->flag), NULL };
	char path[96];
	long after;

	ASSERT_NE(NULL, r.t);
	r.other = ns_type_of(variant->flag == CLONE_NEWUTS ? CLONE_NEWIPC : CLONE_NEWUTS);
	NS_NEED_TYPE(r.t->name);
	snprintf(path, sizeof(path), "/proc/sys/user/max_%s_namespaces", r.t->sysctl);
	NS_NEED_FEATURE(ns_read_long(path, &self->outside),
			"/proc/sys/user/max_*_namespaces", "4.9");
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, limit_inside, &r));
	ASSERT_EQ(0, ns_read_long(path, &after));
	EXPECT_EQ(self->outside, after) TH_LOG("the outer %s changed", path);
}

TEST_HARNESS_MAIN
