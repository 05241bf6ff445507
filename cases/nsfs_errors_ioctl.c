// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_ns(2) refusals: NS_GET_USERNS of a namespace whose owner is an
 * ancestor of the caller's user namespace (each of the eight types),
 * NS_GET_PARENT of the initial user namespace, and every ioctl of the page
 * on files that are not namespaces.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/* ioctl(@fd, @req) must fail with @want (no fd made). */
static int ioctl_fails(int fd, unsigned long req, int want, const char *what)
{
	int r;

	errno = 0;
	r = ioctl(fd, req, 0);
	if (r >= 0)
		close(r);
	if (r != -1 || errno != want)
		return child_fail("%s: %s, not %s", what, r < 0 ? strerror(errno) : "granted",
				  strerror(want));
	return 0;
}

/*
 * The target is owned by our user namespace B; NS_GET_USERNS answers B
 * here, and EPERM once we moved to a child user namespace of B.
 */
static int owner_scope_worker(void *arg)
{
	const struct ns_type *t = arg;
	struct ns_ident mine, got;
	struct ns_holder h;
	int fd, ufd, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_ident_of(0, "user", &mine))
		return child_fail("stat user: %m");
	if (nsfs_hold(&h, t->flag))
		return child_fail("no holder in a new %s namespace", t->name);
	fd = ns_open(h.pid, t->name);
	if (fd < 0)
		rc = child_fail("open the holder's %s namespace: %m", t->name);
	/* the control: from the owner's user namespace the answer is the owner */
	ufd = rc ? -1 : ioctl(fd, NS_GET_USERNS);
	if (!rc && (ufd < 0 || ns_ident_of_fd(ufd, &got) || !ns_ident_eq(&got, &mine)))
		rc = child_fail("NS_GET_USERNS of the %s namespace from its owner: %m, not the "
				"owner",
				t->name);
	if (ufd >= 0)
		close(ufd);
	if (!rc && ns_unshare_userns_root(0))
		rc = child_fail("cannot become root of a child user namespace: %m");
	if (!rc)
		rc = ioctl_fails(fd, NS_GET_USERNS, EPERM, "NS_GET_USERNS, owner an ancestor");
	/* for a user namespace NS_GET_PARENT is the same question */
	if (!rc && t->flag == CLONE_NEWUSER)
		rc = ioctl_fails(fd, NS_GET_PARENT, EPERM, "NS_GET_PARENT, parent an ancestor");
	if (fd >= 0)
		close(fd);
	ns_holder_stop(&h);
	return rc;
}

NS_TYPE_FIXTURE(scope, NS_TYPE_VARIANTS);

/*
 * NS_GET_USERNS of a namespace owned by an ancestor of the caller's user namespace fails with
 * EPERM; from the owner it answers (ioctl_ns(2) ERRORS).
 */
TEST_F(scope, ns_get_userns_owner_outside_scope_eperm)
{
	ASSERT_EQ(0, ns_run(0, owner_scope_worker, (void *)ns_type_of(variant->flag)));
}

/*
 * NS_GET_PARENT of the initial user namespace fails with EPERM, for root and for others
 * (ioctl_ns(2) "the parent of the initial user ... namespace").
 */
TEST(ns_get_parent_of_initial_userns_eperm)
{
	int fd, r;

	NS_NEED_INITIAL_USERNS();
	fd = ns_open(0, "user");
	ASSERT_LE(0, fd);
	errno = 0;
	r = ioctl(fd, NS_GET_PARENT);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(EPERM, errno);
	errno = 0;
	r = ioctl(fd, NS_GET_USERNS);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(EPERM, errno);
	close(fd);
}

/*
 * NS_GET_USERNS, NS_GET_PARENT, NS_GET_NSTYPE and NS_GET_OWNER_UID on a pipe, a pidfd, a directory
 * and /proc/self/status fail with ENOTTY (ioctl_ns(2) ERRORS).
 *
 * Each request gets the argument ioctl_ns(2) gives it: none (0) for the
 * three _IO requests, a uid_t pointer for NS_GET_OWNER_UID, so that the
 * errno comes from the file not being a namespace, not from an argument
 * the request does not take.  pidfd_ioctl() of 6.11 and 6.12 refuses any
 * non-zero argument with EINVAL before it looks at the command, so there
 * NS_GET_OWNER_UID on a pidfd is EINVAL (expectations; linux:8ce352818820,
 * 6.14 and 6.13.y).
 */
TEST(ns_ioctls_on_other_files_enotty)
{
	static const struct { unsigned long req; bool ptr; const char *name; } reqs[] = {
		{ NS_GET_USERNS, false, "NS_GET_USERNS" },
		{ NS_GET_PARENT, false, "NS_GET_PARENT" },
		{ NS_GET_NSTYPE, false, "NS_GET_NSTYPE" },
		{ NS_GET_OWNER_UID, true, "NS_GET_OWNER_UID" },
	};
	static const char *const kind[] = {
		"pipe read end", "pipe write end", "/proc/self/ns", "/proc/self/status", "pidfd",
	};
	int p[2], fds[5], n = 0;

	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	fds[n++] = p[0];
	fds[n++] = p[1];
	fds[n++] = open("/proc/self/ns", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fds[n++] = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	fds[n] = ns_pidfd_open(getpid());
	if (fds[n] < 0 && errno == ENOSYS) {
		for (int i = 0; i < n; i++)
			close(fds[i]);
		NS_FEATURE_ABSENT_(NS_F_PIDFD_OPEN);
	}
	n++;
	for (int i = 0; i < n; i++) {
		ASSERT_LE(0, fds[i]) TH_LOG("open %s: %m", kind[i]);
		for (size_t r = 0; r < sizeof(reqs) / sizeof(reqs[0]); r++) {
			uid_t uid = 12345;
			int ret;

			errno = 0;
			ret = reqs[r].ptr ? ioctl(fds[i], reqs[r].req, &uid) :
					    ioctl(fds[i], reqs[r].req, 0UL);
			EXPECT_EQ(-1, ret) TH_LOG("%s on a %s granted", reqs[r].name, kind[i]);
			EXPECT_EQ(ENOTTY, errno) TH_LOG("%s on a %s: %s", reqs[r].name, kind[i],
							strerror(errno));
			if (ret >= 0 && (reqs[r].req == NS_GET_USERNS ||
					 reqs[r].req == NS_GET_PARENT))
				close(ret);
		}
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

TEST_HARNESS_MAIN
