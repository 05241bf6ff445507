// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the binfmt_misc fix of a mount completed from
 * another user namespace that Debian's kernels ship (issue 27, item 2; the
 * row of fixtures/data/fixes.tsv whose test names this binary).  The fixed
 * and the unfixed kernel give the same answer; the unfixed one also logs
 * a WARNING, which the harness's kernel health check turns into a failure
 * (harness/lib/klog.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

#ifndef FSOPEN_CLOEXEC
#include <linux/mount.h>
#endif

/* create_here()'s answer when the kernel has no binfmt_misc filesystem. */
#define NO_BINFMT_MISC 3

/* Our ids, set before a holder starts: its root is mapped to them. */
static uid_t our_uid;
static gid_t our_gid;
/* The socket the holder sends its fs context on. */
static int send_sock = -1;

/* Root of the holder's user namespace is us (ns_clone_admin() may have mapped it). */
static int map_us(void)
{
	int err = geteuid() == 0 ? 0 : ns_map_root(0, our_uid, our_gid);

	if (err) {
		errno = -err;
		return child_fail("map root of the holder's user namespace: %m");
	}
	return 0;
}

/* A binfmt_misc mount made and completed in the holder's own user namespace. */
static int create_here(void)
{
	int fd = ns_fsopen("binfmt_misc", FSOPEN_CLOEXEC), rc = 0;

	if (fd < 0)
		return errno == ENODEV ? NO_BINFMT_MISC :
		       child_fail("fsopen(\"binfmt_misc\") as root of a user namespace: %m");
	if (ns_fsconfig(fd, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		rc = errno == EPERM ? NS_CHILD_SKIP :
		     child_fail("FSCONFIG_CMD_CREATE of binfmt_misc in its own user namespace: %m");
	close(fd);
	return rc;
}

/* The probe holder: does this kernel mount binfmt_misc in a user namespace (6.7)? */
static int probe_setup(void *arg)
{
	(void)arg;
	return map_us() ?: create_here();
}

/* The holder of the test: sends an fs context it opened, unfinished. */
static int send_setup(void *arg)
{
	int fd, err;

	(void)arg;
	err = map_us();
	if (err)
		return err;
	fd = ns_fsopen("binfmt_misc", FSOPEN_CLOEXEC);
	if (fd < 0)
		return child_fail("fsopen(\"binfmt_misc\") as root of a user namespace: %m");
	err = ns_send_fd(send_sock, fd);
	close(fd);
	return err ? child_fail("send the fs context: %m") : 0;
}

/* Released: the same in its own namespace works. */
static int own_create(void *arg)
{
	(void)arg;
	return create_here();
}

/*
 * binfmt_misc mounts are per user namespace since linux:21ca59b365c0
 * "binfmt_misc: enable sandboxed mounts" (6.7): the instance is the one
 * of the fs context's user namespace, so completing the context
 * (FSCONFIG_CMD_CREATE, fsconfig(2)) from a process of another user
 * namespace is refused with EINVAL, quietly (fix "binfmt_misc: don't warn
 * when the mount is completed from another user namespace", Debian
 * 6.12.105: before it the refusal came with a kernel WARNING).  Both
 * sides: the fs context comes from root of a user namespace we own; the
 * same completed in that namespace works.
 */
TEST(binfmt_misc_created_from_other_userns_einval_quietly)
{
	struct ns_holder probe = { .flags = CLONE_NEWUSER | CLONE_NEWNS, .setup = probe_setup };
	struct ns_holder h = { .flags = CLONE_NEWUSER | CLONE_NEWNS, .setup = send_setup,
			       .release = own_create };
	struct timeval tv = { .tv_sec = NS_WAIT_MS / 1000 };
	int sv[2], fd, rc, err;

	NS_NEED_USERNS();
	our_uid = geteuid();
	our_gid = getegid();
	rc = ns_holder_begin(&probe);
	if (rc == 0)
		rc = ns_holder_stop(&probe);
	NS_NEED_ENV(rc != NO_BINFMT_MISC, NS_WHY_FEATURE_CONFIG, "the binfmt_misc filesystem",
		    "CONFIG_BINFMT_MISC");
	NS_NEED_ENV(rc != NS_CHILD_SKIP, NS_WHY_FEATURE, "binfmt_misc in a user namespace",
		    "6.7");
	ASSERT_EQ(0, rc);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ASSERT_EQ(0, setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	send_sock = sv[1];
	ASSERT_EQ(0, ns_holder_begin(&h));
	fd = ns_recv_fd(sv[0]);
	err = fd < 0 ? -1 : ns_fsconfig(fd, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0) ? errno : 0;
	if (fd >= 0)
		close(fd);
	close(sv[0]);
	close(sv[1]);
	rc = ns_holder_stop(&h);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, err);
	EXPECT_EQ(0, rc);
}

TEST_HARNESS_MAIN
