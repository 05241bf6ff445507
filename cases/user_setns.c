// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: setns() rules (the article's part 6, userns_setns_test.c;
 * setns(2), user_namespaces(7)), refusals to threaded, CLONE_FS-sharing and
 * chrooted processes, the nesting limit and per-namespace counts
 * (user.max_user_namespaces, namespaces(7)).
 *
 * Each test runs as an unprivileged process (ns_run_unpriv()) in both
 * passes; the process that joins is a further child of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* What a joining child gets: the target namespace, open, and its identity. */
struct target {
	int fd;
	struct ns_ident id;
	pid_t holder;
};

/* Hold a child in a new user namespace where it is root; open it. */
static int target_start(struct userns_holder *h, struct target *t)
{
	char um[32], gm[32];

	snprintf(um, sizeof(um), "0 %u 1\n", geteuid());
	snprintf(gm, sizeof(gm), "0 %u 1\n", getegid());
	if (userns_hold(h, CLONE_NEWUSER, um, gm))
		return child_fail("child in a new user namespace failed");
	t->holder = h->pid;
	t->fd = ns_open(h->pid, "user");
	if (t->fd < 0 || ns_ident_of_fd(t->fd, &t->id)) {
		userns_release(h);
		return child_fail("open /proc/%d/ns/user: %s", h->pid, strerror(-t->fd));
	}
	return 0;
}

/* Run @fn(@t) in a child of the caller while a target namespace is held. */
static int with_target(int (*fn)(struct target *))
{
	struct userns_holder h;
	struct target t;
	pid_t pid;
	int rc;

	if (target_start(&h, &t))
		return 1;
	pid = ns_clone(0);
	if (pid == 0)
		_exit(fn(&t));
	rc = pid < 0 ? child_fail("fork: %m") : ns_wait(pid, NS_WAIT_MS);
	close(t.fd);
	if (userns_release(&h))
		rc = rc ?: child_fail("holder failed");
	return rc;
}

/* 0 when the caller's user namespace is (@want) / is not (!@want) @id. */
static int in_userns(const struct ns_ident *id, bool want)
{
	struct ns_ident now;

	if (ns_ident_of(0, "user", &now))
		return child_fail("stat own user ns: %m");
	if (ns_ident_eq(&now, id) != want)
		return child_fail(want ? "not in the joined user namespace" :
				  "in the user namespace it was refused");
	return 0;
}

/* setns(@fd, CLONE_NEWUSER) must fail with @err and change nothing. */
static int expect_setns_fails(const struct target *t, int err)
{
	if (setns(t->fd, CLONE_NEWUSER) == 0)
		return child_fail("setns into the user namespace succeeded");
	if (errno != err)
		return child_fail("setns: %m, expected %s", strerror(err));
	return in_userns(&t->id, false);
}

/* --- joining ------------------------------------------------------------- */

static int join_child_ns(struct target *t)
{
	if (!ns_caps_none_effective())
		return child_fail("joiner has capabilities before setns");
	if (setns(t->fd, CLONE_NEWUSER))
		return child_fail("setns into a child user ns of the same euid: %m");
	if (in_userns(&t->id, true))
		return 1;
	if (getuid() != 0)
		return child_fail("uid %u in the joined namespace, expected 0", getuid());
	return 0;
}

static int join_child(void *arg)
{
	(void)arg;
	return with_target(join_child_ns);
}

/*
 * A process can join a child userns created with its euid, as owner it has CAP_SYS_ADMIN there
 * (user_namespaces(7), setns(2)).
 *
 * The check follows userns_setns_test.c.
 */
TEST(setns_into_child_userns_of_same_euid)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_child, NULL));
}

static int caps_after_join_ns(struct target *t)
{
	if (!ns_caps_none_effective())
		return child_fail("joiner has capabilities before setns");
	if (setns(t->fd, CLONE_NEWUSER))
		return child_fail("setns: %m");
	if (!ns_caps_all_effective() || !ns_caps_all_bounding())
		return child_fail("no full capability set after joining");
	/* The capabilities work: CAP_SYS_ADMIN here creates a UTS namespace. */
	if (unshare(CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUTS) after joining: %m");
	return 0;
}

static int caps_after_join(void *arg)
{
	(void)arg;
	return with_target(caps_after_join_ns);
}

/*
 * After setns() into a user namespace the process has every capability in it (user_namespaces(7),
 * setns(2), userns_setns_test.c).
 */
TEST(caps_full_after_setns_into_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(caps_after_join, NULL));
}

/* --- refusals ------------------------------------------------------------ */

static int join_from_sibling_ns(struct target *t)
{
	if (ns_unshare_userns_root(0))
		return child_fail("own user namespace: %m");
	if (!ns_caps_all_effective())
		return child_fail("no full capability set in the own user ns");
	return expect_setns_fails(t, EPERM);
}

static int join_from_sibling(void *arg)
{
	(void)arg;
	return with_target(join_from_sibling_ns);
}

/*
 * Joining a user ns needs CAP_SYS_ADMIN in it: every capability in a sibling userns gives EPERM
 * (setns(2), userns_setns_test.c).
 */
TEST(setns_into_sibling_userns_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_from_sibling, NULL));
}

static int join_ancestor(void *arg)
{
	struct target t;

	(void)arg;
	t.fd = ns_open(0, "user");
	if (t.fd < 0 || ns_ident_of_fd(t.fd, &t.id))
		return child_fail("open own user ns: %s", strerror(-t.fd));
	if (ns_unshare_userns_root(0))
		return child_fail("child user namespace: %m");
	if (!ns_caps_all_effective())
		return child_fail("no full capability set in the child user ns");
	return expect_setns_fails(&t, EPERM);
}

/*
 * A process cannot join an ancestor user ns, even with every capability in its own: EPERM
 * (user_namespaces(7), userns_setns_test.c).
 */
TEST(setns_into_ancestor_userns_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_ancestor, NULL));
}

static int join_own(void *arg)
{
	struct target t;

	(void)arg;
	for (int round = 0; round < 2; round++) {
		/* Round 0 without capabilities, round 1 with all of them. */
		if (round == 1 && ns_unshare_userns_root(0))
			return child_fail("new user namespace: %m");
		t.fd = ns_open(0, "user");
		if (t.fd < 0 || ns_ident_of_fd(t.fd, &t.id))
			return child_fail("open own user ns: %s", strerror(-t.fd));
		if (setns(t.fd, CLONE_NEWUSER) == 0)
			return child_fail("setns into the own user namespace succeeded");
		if (errno != EINVAL)
			return child_fail("setns into own user ns (round %d): %m, expected EINVAL",
					  round);
		close(t.fd);
	}
	return 0;
}

/*
 * setns() into the own user namespace fails with EINVAL, with or without capabilities (setns(2),
 * user_namespaces(7)).
 *
 * No capabilities are regained by re-entering.
 */
TEST(setns_into_own_userns_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_own, NULL));
}

static int join_threaded_ns(struct target *t)
{
	struct ns_thread th;

	/* On failure the child exits, and the thread with it. */
	if (ns_thread_start(&th) || expect_setns_fails(t, EINVAL) || ns_thread_stop(&th))
		return 1;
	/* Control: once single-threaded again, the same setns works. */
	if (setns(t->fd, CLONE_NEWUSER))
		return child_fail("setns after the thread ended: %m");
	return in_userns(&t->id, true);
}

static int join_threaded(void *arg)
{
	(void)arg;
	return with_target(join_threaded_ns);
}

/*
 * A multithreaded process cannot setns() into a user namespace: EINVAL (setns(2),
 * user_namespaces(7)).
 */
TEST(setns_userns_multithreaded_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_threaded, NULL));
}

static int unshare_threaded(void *arg)
{
	struct ns_ident before;
	struct ns_thread th;

	(void)arg;
	if (ns_ident_of(0, "user", &before))
		return child_fail("stat own user ns: %m");
	if (ns_thread_start(&th))
		return 1;
	if (unshare(CLONE_NEWUSER) == 0)
		return child_fail("unshare(CLONE_NEWUSER) multithreaded succeeded");
	if (errno != EINVAL)
		return child_fail("unshare(CLONE_NEWUSER) multithreaded: %m, expected EINVAL");
	if (in_userns(&before, true) || ns_thread_stop(&th))
		return 1;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) after the thread ended: %m");
	return in_userns(&before, false);
}

/*
 * A multithreaded process cannot unshare(CLONE_NEWUSER): EINVAL (unshare(2), user_namespaces(7)).
 */
TEST(unshare_userns_multithreaded_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(unshare_threaded, NULL));
}

static int join_sharing_fs_ns(struct target *t)
{
	pid_t pid;

	/* A child that shares its filesystem context (CLONE_FS) with us. */
	fflush(stderr);
	pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid < 0)
		return child_fail("clone(CLONE_FS): %m");
	if (pid == 0) {
		if (expect_setns_fails(t, EINVAL))
			_exit(1);
		/* Control: with a filesystem context of its own it may join. */
		if (unshare(CLONE_FS) || setns(t->fd, CLONE_NEWUSER))
			_exit(child_fail("setns after unshare(CLONE_FS): %m"));
		_exit(in_userns(&t->id, true));
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int join_sharing_fs(void *arg)
{
	(void)arg;
	return with_target(join_sharing_fs_ns);
}

/*
 * A process sharing its filesystem attributes (CLONE_FS) with another cannot setns() into a user
 * namespace: EINVAL (setns(2)).
 *
 * The chroot rule of the pages is about creating a user namespace, see
 * unshare_userns_chrooted_eperm.
 */
TEST(setns_userns_sharing_fs_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_sharing_fs, NULL));
}

static int unshare_chrooted(void *arg)
{
	struct ns_ident before;
	int root;

	(void)arg;
	/* Root of a user + mount namespace of its own may chroot. */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("user + mount namespace: %m");
	if (ns_ident_of(0, "user", &before))
		return child_fail("stat own user ns: %m");
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || chroot("/proc") || chdir("/"))
		return child_fail("chroot /proc: %m");
	if (unshare(CLONE_NEWUSER) == 0)
		return child_fail("unshare(CLONE_NEWUSER) in a chroot succeeded");
	if (errno != EPERM)
		return child_fail("unshare(CLONE_NEWUSER) in a chroot: %m, expected EPERM");
	/* Control: back at the namespace's root the same unshare works. */
	if (fchdir(root) || chroot("."))
		return child_fail("leave the chroot: %m");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) out of the chroot: %m");
	return in_userns(&before, false);
}

/*
 * A chrooted process (root not its mount ns's) cannot create a user namespace: EPERM (unshare(2),
 * clone(2), user_namespaces(7)).
 */
TEST(unshare_userns_chrooted_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(unshare_chrooted, NULL));
}

static int join_chrooted(void *arg)
{
	struct userns_holder h;
	struct target t;
	struct stat st;
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("user + mount namespace: %m");
	if (target_start(&h, &t))
		return 1;
	/* In the chroot (/proc) our ns links are at /self/ns. */
	if (chroot("/proc") || chdir("/"))
		rc = child_fail("chroot /proc: %m");
	else if (setns(t.fd, CLONE_NEWUSER))
		rc = child_fail("setns from a chroot: %m");
	else if (stat("/self/ns/user", &st))
		rc = child_fail("stat /self/ns/user in the chroot: %m");
	else if (st.st_dev != t.id.dev || st.st_ino != t.id.ino)
		rc = child_fail("not in the joined user namespace");
	else
		rc = 0;
	close(t.fd);
	if (userns_release(&h))
		rc = rc ?: child_fail("holder failed");
	return rc;
}

/*
 * A chrooted process can still setns() into a user ns: the chroot rule is about creating one
 * (setns(2) lists no such error).
 *
 * The reading of userns_setns_test.c is wrong, see
 * kernel-vs-manpages.md.
 */
TEST(setns_userns_from_chroot_allowed)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(join_chrooted, NULL));
}

/* --- nesting and counts ------------------------------------------------- */

/* Exit code of nest_child() when the failure was not ENOSPC. */
#define NEST_WRONG_ERRNO 200

/*
 * Nest user namespaces in this process until the kernel refuses; tell the
 * parent how many were made, wait for it to look, exit with that number.
 */
static int nest_child(struct ns_sync *s)
{
	int n = 0;

	ns_sync_child_side(s);
	while (n < 64 && ns_unshare_userns_root(0) == 0)
		n++;
	if (errno != ENOSPC && n < 64) {
		child_fail("user namespace %d: %m, expected ENOSPC", n + 1);
		n = NEST_WRONG_ERRNO;
	}
	ns_sync_tell(s, true, &n, sizeof(n));
	ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
	return n;
}

/* Levels from @fd's user namespace up to @top (NS_GET_PARENT), or -1. */
static int levels_up_to(int fd, const struct ns_ident *top)
{
	struct ns_ident id;
	int n = 0, up;

	while (!ns_ident_of_fd(fd, &id) && !ns_ident_eq(&id, top) && n < 70) {
		up = ioctl(fd, NS_GET_PARENT);
		close(fd);
		if (up < 0)
			return errno == ENOTTY ? -2 : -1;
		fd = up;
		n++;
	}
	close(fd);
	return ns_ident_eq(&id, top) ? n : -1;
}

/*
 * Absolute level of the caller's user namespace (0: the initial one):
 * NS_GET_PARENT reaches every ancestor user namespace and answers EPERM at
 * the initial one.  -1 on an unexpected error.
 */
static int own_userns_level(void)
{
	int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC), up, n = 0;

	while (fd >= 0 && n < 70) {
		up = ioctl(fd, NS_GET_PARENT);
		close(fd);
		if (up < 0)
			return errno == EPERM ? n : -1;
		fd = up;
		n++;
	}
	return -1;
}

/* Deepest user namespace level the kernel allows (the initial one is 0). */
#define USERNS_DEEPEST_LEVEL 33

static int nest(void *arg)
{
	int level = own_userns_level();
	struct ns_ident top;
	struct ns_sync s;
	int n = -1, fd, up, rc;
	pid_t pid;

	(void)arg;
	if (level < 0)
		return child_fail("cannot walk NS_GET_PARENT up to the initial user namespace: %m");
	if (ns_ident_of(0, "user", &top))
		return child_fail("setup: %m");
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid == 0)
		_exit(nest_child(&s));
	if (pid < 0 || ns_sync_wait(&s, false, &n, sizeof(n), 20000))
		return child_fail("nesting child did not report");
	/* From outside: the deepest namespace is n levels below ours. */
	fd = ns_open(pid, "user");
	up = fd < 0 ? -1 : levels_up_to(fd, &top);
	ns_sync_tell(&s, false, NULL, 0);
	rc = ns_wait(pid, NS_WAIT_MS);
	ns_sync_close(&s);
	if (rc != n || n == NEST_WRONG_ERRNO)
		return child_fail("nesting child exited %d after reporting %d", rc, n);
	if (up != n)
		return child_fail("%d nested namespaces made, NS_GET_PARENT walk finds %d", n, up);
	if (level + n != USERNS_DEEPEST_LEVEL)
		return child_fail("from level %d: %d nested user namespaces, then ENOSPC; "
				  "expected %d (the deepest level is %d)", level, n,
				  USERNS_DEEPEST_LEVEL - level, USERNS_DEEPEST_LEVEL);
	return 0;
}

/*
 * User namespaces nest to level 33 below the initial one, then creation fails with ENOSPC
 * (user_namespaces(7)).
 *
 * user_namespaces(7) says user namespaces nest to 32 levels; the kernel
 * refuses a new one only when its parent is deeper than 32, so levels
 * 1..33 below the initial namespace exist (kernel-vs-manpages.md, the same
 * on every kernel of the matrix; README).  Asserted exactly: from absolute
 * level L, 33 - L nested user namespaces succeed and the next fails with
 * ENOSPC (EUSERS in 3.11-4.8).
 */
TEST(userns_nesting_limit_enospc)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(nest, NULL));
}

#define MAX_USERNS "/proc/sys/user/max_user_namespaces"

static int lowered_limit(void *arg)
{
	long inside = -1;
	int made = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("user namespace: %m");
	if (ns_write_proc(0, "../sys/user/max_user_namespaces", "2"))
		return child_fail("root of a child user ns cannot write " MAX_USERNS);
	if (ns_read_long(MAX_USERNS, &inside) || inside != 2)
		return child_fail("own copy reads %ld after writing 2", inside);
	while (made < 5 && ns_unshare_userns_root(0) == 0)
		made++;
	if (made != 2)
		return child_fail("%d user namespaces made below a limit of 2 (%m)", made);
	if (errno != ENOSPC)
		return child_fail("the third: %m, expected ENOSPC");
	return 0;
}

/*
 * max_user_namespaces is per userns: its root may lower its copy, then more below get ENOSPC; the
 * parent's stays (namespaces(7)).
 *
 * The file is /proc/sys/user/max_user_namespaces.
 */
TEST(max_user_namespaces_lowered_in_child_enospc)
{
	long before, after;

	NS_NEED(NS_F_MAX_NS_SYSCTLS);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_read_long(MAX_USERNS, &before));
	ASSERT_EQ(0, ns_run_unpriv(lowered_limit, NULL));
	ASSERT_EQ(0, ns_read_long(MAX_USERNS, &after));
	EXPECT_EQ(before, after);
	EXPECT_NE(2, after);
}

TEST_HARNESS_MAIN
