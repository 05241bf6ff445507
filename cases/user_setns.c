// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: setns() rules (the article's part 6, userns_setns_test.c;
 * setns(2), user_namespaces(7)), refusals to threaded, CLONE_FS-sharing and
 * chrooted processes, the nesting limit and per-namespace counts
 * (user.max_user_namespaces, namespaces(7)).
 *
 * Each test runs as an unprivileged process (userns_run_unpriv()) in both
 * passes; the process that joins is a further child of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "userns.h"
#include "kselftest_harness.h"

#define SKIP_IF_NO_UNPRIV_USERNS() do { \
	const char *why_ = userns_unprivileged_blocker(); \
	if (why_) \
		SKIP(return, "unprivileged user namespaces unavailable: %s", why_); \
} while (0)

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
	t->fd = userns_open_ns(h->pid, "user");
	if (t->fd < 0 || userns_ident_of_fd(t->fd, &t->id)) {
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
	if (!caps_none_effective())
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
 * A process can join a child user namespace created by a process with its
 * euid (it has CAP_SYS_ADMIN there as the owner) (user_namespaces(7),
 * setns(2), userns_setns_test.c).
 */
TEST(setns_into_child_userns_of_same_euid)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_child, NULL));
}

static int caps_after_join_ns(struct target *t)
{
	if (!caps_none_effective())
		return child_fail("joiner has capabilities before setns");
	if (setns(t->fd, CLONE_NEWUSER))
		return child_fail("setns: %m");
	if (!caps_all_effective() || !caps_all_bounding())
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
 * After setns() into a user namespace the process has the full capability
 * set in it (user_namespaces(7), setns(2), userns_setns_test.c).
 */
TEST(caps_full_after_setns_into_userns)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(caps_after_join, NULL));
}

/* --- refusals ------------------------------------------------------------ */

static int join_from_sibling_ns(struct target *t)
{
	if (ns_unshare_userns_root(0))
		return child_fail("own user namespace: %m");
	if (!caps_all_effective())
		return child_fail("no full capability set in the own user ns");
	return expect_setns_fails(t, EPERM);
}

static int join_from_sibling(void *arg)
{
	(void)arg;
	return with_target(join_from_sibling_ns);
}

/*
 * Joining a user namespace needs CAP_SYS_ADMIN in it: a process with every
 * capability in a sibling user namespace gets EPERM (setns(2),
 * userns_setns_test.c).
 */
TEST(setns_into_sibling_userns_eperm)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_from_sibling, NULL));
}

static int join_ancestor(void *arg)
{
	struct target t;

	(void)arg;
	t.fd = userns_open_ns(0, "user");
	if (t.fd < 0 || userns_ident_of_fd(t.fd, &t.id))
		return child_fail("open own user ns: %s", strerror(-t.fd));
	if (ns_unshare_userns_root(0))
		return child_fail("child user namespace: %m");
	if (!caps_all_effective())
		return child_fail("no full capability set in the child user ns");
	return expect_setns_fails(&t, EPERM);
}

/*
 * A process cannot join an ancestor user namespace, even with every
 * capability in its own: EPERM (user_namespaces(7), userns_setns_test.c).
 */
TEST(setns_into_ancestor_userns_eperm)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_ancestor, NULL));
}

static int join_own(void *arg)
{
	struct target t;

	(void)arg;
	for (int round = 0; round < 2; round++) {
		/* Round 0 without capabilities, round 1 with all of them. */
		if (round == 1 && ns_unshare_userns_root(0))
			return child_fail("new user namespace: %m");
		t.fd = userns_open_ns(0, "user");
		if (t.fd < 0 || userns_ident_of_fd(t.fd, &t.id))
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
 * setns() into the caller's own user namespace fails with EINVAL (no
 * capabilities regained by re-entering), with or without capabilities
 * (setns(2), user_namespaces(7)).
 */
TEST(setns_into_own_userns_einval)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_own, NULL));
}

static void *block_on_pipe(void *arg)
{
	char c;

	read(*(int *)arg, &c, 1);
	return NULL;
}

/* Start a second thread that lives until *@p[1] is closed. */
static int second_thread(pthread_t *th, int p[2])
{
	if (pipe(p))
		return -1;
	if (pthread_create(th, NULL, block_on_pipe, &p[0])) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	return 0;
}

static void end_thread(pthread_t th, int p[2])
{
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);
}

static int join_threaded_ns(struct target *t)
{
	pthread_t th;
	int p[2];

	if (second_thread(&th, p))
		return child_fail("pthread_create failed");
	if (expect_setns_fails(t, EINVAL))
		return 1;
	end_thread(th, p);
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
 * A multithreaded process cannot setns() into a user namespace: EINVAL
 * (setns(2), user_namespaces(7)).
 */
TEST(setns_userns_multithreaded_einval)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_threaded, NULL));
}

static int unshare_threaded(void *arg)
{
	struct ns_ident before;
	pthread_t th;
	int p[2];

	(void)arg;
	if (ns_ident_of(0, "user", &before))
		return child_fail("stat own user ns: %m");
	if (second_thread(&th, p))
		return child_fail("pthread_create failed");
	if (unshare(CLONE_NEWUSER) == 0)
		return child_fail("unshare(CLONE_NEWUSER) multithreaded succeeded");
	if (errno != EINVAL)
		return child_fail("unshare(CLONE_NEWUSER) multithreaded: %m, expected EINVAL");
	if (in_userns(&before, true))
		return 1;
	end_thread(th, p);
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) after the thread ended: %m");
	return in_userns(&before, false);
}

/*
 * A multithreaded process cannot unshare(CLONE_NEWUSER): EINVAL
 * (unshare(2), user_namespaces(7)).
 */
TEST(unshare_userns_multithreaded_einval)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(unshare_threaded, NULL));
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
 * A process sharing its filesystem attributes (CLONE_FS) with another
 * cannot setns() into a user namespace: EINVAL (setns(2); the chroot rule
 * of the pages is about creating one, see unshare_userns_chrooted_eperm).
 */
TEST(setns_userns_sharing_fs_einval)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_sharing_fs, NULL));
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
 * A chrooted process (root directory not that of its mount namespace)
 * cannot create a user namespace: EPERM (unshare(2), clone(2),
 * user_namespaces(7)).
 */
TEST(unshare_userns_chrooted_eperm)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(unshare_chrooted, NULL));
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
 * Being chrooted does not stop setns() into a user namespace: the chroot
 * rule is about creating one (setns(2) lists no such error; the issue's
 * reading of userns_setns_test.c is wrong, see kernel-vs-manpages.md).
 */
TEST(setns_userns_from_chroot_allowed)
{
	SKIP_IF_NO_UNPRIV_USERNS();
	ASSERT_EQ(0, userns_run_unpriv(join_chrooted, NULL));
}

TEST_HARNESS_MAIN
