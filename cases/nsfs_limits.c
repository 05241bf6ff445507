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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/* Holder setup: unshare(*@arg); 0 (then held until released), or the errno it exits with. */
static int unshare_flag(void *arg)
{
	return unshare(*(const unsigned long *)arg) ? errno : 0;
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

/* Create one of @t in a held child; 0 and the child alive, or the errno. */
static int create_one(const struct ns_type *t, struct ns_holder *c)
{
	int err, same;

	*c = (struct ns_holder){ .plain = true, .setup = unshare_flag, .arg = (void *)&t->flag };
	err = ns_holder_begin(c);
	if (err < 0)
		return child_fail("cannot start a holder");
	if (err)
		return err;
	same = ns_same_as_self(c->pid, made_file(t));
	/* pid_for_children of a new PID namespace without a process: ENOENT */
	if (t->flag == CLONE_NEWPID && same == -ENOENT)
		same = 0;
	if (same != 0) {
		ns_holder_stop(c);
		return child_fail("unshare(CLONE_NEW%s) returned 0, no new namespace",
				  t->name);
	}
	return 0;
}

struct limit_req {
	const struct ns_type *t, *other;
};

static int limit_inside(void *arg)
{
	struct limit_req *r = arg;
	struct ns_holder first, second, other;
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
	if (err != ENOSPC) {
		ns_holder_stop(&second);
		ns_holder_stop(&first);
		return child_fail("a second %s namespace over max 1: %s, not ENOSPC",
				  r->t->name, strerror(err));
	}
	ns_holder_stop(&second);
	err = create_one(r->other, &other);
	if (err) {
		ns_holder_stop(&other);
		ns_holder_stop(&first);
		return child_fail("a %s namespace (other type) at the %s limit: %s",
				  r->other->name, r->t->name, strerror(err));
	}
	ns_holder_stop(&other);
	/* once the first is gone (freed asynchronously for some types) one fits again */
	ns_holder_stop(&first);
	deadline = ns_now_ms() + 8000;
	for (;;) {
		struct timespec tick = { 0, 10000000 };

		err = create_one(r->t, &second);
		ns_holder_stop(&second);
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
	NS_NEED_FEATURE(nsfs_max_ns_feature(r.t), ns_read_long(path, &self->outside));
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, limit_inside, &r));
	ASSERT_EQ(0, ns_read_long(path, &after));
	EXPECT_EQ(self->outside, after) TH_LOG("the outer %s changed", path);
}

#define UTS_LIMIT "/proc/sys/user/max_uts_namespaces"

struct opener_rec {
	long outer_fd;		/* the fd opened in the parent user ns, read in the child */
	long fresh;		/* the file opened in the child user ns */
	long outer_fd_after;	/* the parent's fd after the child's write */
	long fresh_after;	/* the child's file after its write */
};

/* The number in the file open as @fd, read from its start; -1 when unreadable. */
static long read_fd_long(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static long read_fresh(void)
{
	long v;

	return ns_read_long(UTS_LIMIT, &v) ? -1 : v;
}

static int limits_of_opener(void *arg)
{
	struct opener_rec *r = arg;
	int fd, err;

	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	err = ns_write_file(UTS_LIMIT, "7");
	if (err)
		return child_fail("write 7 to %s: %s", UTS_LIMIT, strerror(-err));
	fd = open(UTS_LIMIT, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s: %m", UTS_LIMIT);
	if (ns_unshare_userns_root(0))
		return child_fail("a child user namespace: %m");
	r->outer_fd = read_fd_long(fd);
	r->fresh = read_fresh();
	err = ns_write_file(UTS_LIMIT, "5");
	if (err)
		return child_fail("write 5 to %s in the child: %s", UTS_LIMIT, strerror(-err));
	r->outer_fd_after = read_fd_long(fd);
	r->fresh_after = read_fresh();
	close(fd);
	return 0;
}

/*
 * A max_*_namespaces file shows the limit of the user namespace its opener was in
 * (namespaces(7) /proc/sys/user: "the limits for the user namespace in which the opening
 * process resides").
 *
 * The file opened where the limit is 7 still reads 7 after its process
 * moved into a child user namespace, also after the child set its own
 * limit to 5; opened in the child it reads MAXINT, then 5.
 */
TEST(limit_file_shows_limit_of_openers_userns)
{
	struct opener_rec *r = ns_shared_page(1 << 12);
	long v;

	NS_NEED_FEATURE(NS_F_MAX_NS_SYSCTLS, ns_read_long(UTS_LIMIT, &v));
	NS_NEED_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ns_run(0, limits_of_opener, r));
	EXPECT_EQ(7, r->outer_fd);
	EXPECT_EQ(INT_MAX, r->fresh);
	EXPECT_EQ(7, r->outer_fd_after);
	EXPECT_EQ(5, r->fresh_after);
}

TEST_HARNESS_MAIN
