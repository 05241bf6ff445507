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
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

#ifndef FSOPEN_CLOEXEC
#include <linux/mount.h>
#endif

/* create_here()'s answer when the kernel has no binfmt_misc filesystem. */
#define NO_BINFMT_MISC 3

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

/*
 * The holder: does this kernel mount binfmt_misc in a user namespace (6.7)?  If so,
 * an fs context it opened, unfinished.
 */
static int open_binfmt(void *arg, int *fd)
{
	int rc = create_here();

	(void)arg;
	if (rc)
		return rc;
	*fd = ns_fsopen("binfmt_misc", FSOPEN_CLOEXEC);
	return *fd < 0 ? child_fail("fsopen(\"binfmt_misc\") as root of a user namespace: %m") : 0;
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
	int rc, err, released;

	NS_NEED_USERNS();
	rc = ns_fsctx_create_from_holder(open_binfmt, own_create, NULL, &err, &released);
	NS_NEED_ENV(rc != NO_BINFMT_MISC, NS_WHY_FEATURE_CONFIG, "the binfmt_misc filesystem",
		    "CONFIG_BINFMT_MISC");
	NS_NEED_ENV(rc != NS_CHILD_SKIP, NS_WHY_FEATURE, "binfmt_misc in a user namespace",
		    "6.7");
	ASSERT_EQ(0, rc);
	ASSERT_NE(-1, err) TH_LOG("no fs context came back from the holder");
	EXPECT_EQ(EINVAL, err);
	EXPECT_EQ(0, released);
}

TEST_HARNESS_MAIN
