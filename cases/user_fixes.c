// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for user-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/*
 * The exec securebits of 6.14 (SECBIT_EXEC_RESTRICT_FILE, bit 8, and
 * SECBIT_EXEC_DENY_INTERACTIVE, bit 10, of <linux/securebits.h>; older
 * headers lack them).
 */
#define EXEC_BITS ((1UL << 8) | (1UL << 10))

/* The worker's answer when the kernel has no exec securebits. */
#define NO_EXEC_BITS 3

static int securebits_worker(void *arg)
{
	int got;

	(void)arg;
	/* Setting the bits takes CAP_SETPCAP: the worker has it, here or as userns root. */
	if (prctl(PR_SET_SECUREBITS, 0UL, 0UL, 0UL, 0UL))
		return child_fail("prctl(PR_SET_SECUREBITS, 0): %m");
	if (prctl(PR_SET_SECUREBITS, EXEC_BITS, 0UL, 0UL, 0UL))
		return errno == EPERM ? NO_EXEC_BITS :
		       child_fail("prctl(PR_SET_SECUREBITS, %#lx): %m", EXEC_BITS);
	/* The side the fix leaves alone: the bits hold in the caller's namespace. */
	got = prctl(PR_GET_SECUREBITS, 0UL, 0UL, 0UL, 0UL);
	if (got != (int)EXEC_BITS)
		return child_fail("PR_GET_SECUREBITS after setting %#lx: %#x (%m)", EXEC_BITS,
				  got);
	/* The side the fix is about: they survive the move into a new user namespace. */
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	got = prctl(PR_GET_SECUREBITS, 0UL, 0UL, 0UL, 0UL);
	if (got != (int)EXEC_BITS)
		return child_fail("PR_GET_SECUREBITS in the new user namespace: %#x (%m), "
				  "expected %#lx", got, EXEC_BITS);
	return 0;
}

/*
 * SECBIT_EXEC_RESTRICT_FILE and SECBIT_EXEC_DENY_INTERACTIVE
 * (linux:a0623b2a1d59, 6.14) tell a script interpreter how to treat what
 * it is asked to run; unlike the other securebits, which a new user
 * namespace resets, they are kept when the process creates a user
 * namespace, so that unshare(CLONE_NEWUSER) does not lift the restriction
 * (fix "userns: don't drop the exec securebits", Debian 7.3.4: before it
 * create_user_ns() reset them too).  Both sides: the bits read back as
 * set before the unshare.
 */
TEST(exec_securebits_kept_in_new_userns)
{
	int rc;

	NS_NEED_USERNS();
	rc = ns_run_admin(0, securebits_worker, NULL);
	NS_NEED_ENV(rc != NO_EXEC_BITS, NS_WHY_FEATURE, "SECBIT_EXEC_RESTRICT_FILE", "6.14");
	ASSERT_EQ(0, rc);
}

/* The holder: root of its user namespace is our uid 0, alone; its /tmp a tmpfs of its own. */
static int tmpfs_holder_setup(void *arg)
{
	int err;

	(void)arg;
	err = ns_map_root(0, 0, 0);
	if (err) {
		errno = -err;
		return child_fail("map root to uid 0 in the holder's user namespace: %m");
	}
	return ns_private_tmp(NULL);
}

/* fsconfig() of "uid" to @val on @fd: 0 or -errno. */
static int set_uid(int fd, const char *val)
{
	return ns_fsconfig(fd, FSCONFIG_SET_STRING, "uid", val, 0) ? -errno : 0;
}

static int tmpfs_uid_worker(void *arg)
{
	char path[64];
	struct ns_holder h;
	int fd, err, rc = 0;

	(void)arg;
	if (ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWNS, tmpfs_holder_setup, NULL))
		return child_fail("a holder with a tmpfs in a user namespace of its own");
	snprintf(path, sizeof(path), "/proc/%d/root/tmp", (int)h.pid);
	/* A reconfiguration context of the holder's tmpfs: its user namespace decides. */
	fd = fspick(AT_FDCWD, path, FSPICK_CLOEXEC);
	if (fd < 0) {
		rc = errno == ENOSYS ? ns_child_lacks(NS_F_FSOPEN) :
		     child_fail("fspick(%s): %m", path);
		goto out;
	}
	/* The input the fix leaves alone: uid 0, mapped there (its root). */
	err = set_uid(fd, "0");
	if (err) {
		errno = -err;
		rc = child_fail("uid=0 for the holder's tmpfs: %m");
		goto out;
	}
	/* The input the fix is about: uid 5, valid here, unmapped there. */
	err = set_uid(fd, "5");
	if (err != -EINVAL) {
		errno = -err;
		rc = child_fail("uid=5 (unmapped in the tmpfs's user namespace): %s, expected "
				"EINVAL", err ? strerror(-err) : "accepted");
	}
out:
	if (fd >= 0)
		close(fd);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	return rc;
}

/*
 * tmpfs(5) uid= and gid= set the owner of the root directory; the ids are
 * read in the user namespace of the caller and must have a mapping in the
 * user namespace the tmpfs was mounted in, else the option is refused with
 * EINVAL (fix "tmpfs: verify {g,u}id mount options correctly",
 * linux:0200679fc795, Debian 5.10.197 and 6.1.55: before it an id the
 * tmpfs's namespace cannot represent was accepted).  Real root, for a
 * caller whose namespace has an id the tmpfs's lacks: a reconfiguration
 * context (fspick(2)) of a tmpfs mounted in a user namespace that maps
 * only its root.  Both sides: uid=0, its root, is accepted.
 */
TEST(tmpfs_uid_unmapped_in_its_userns_einval)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	rc = ns_run(CLONE_NEWNS, tmpfs_uid_worker, NULL);
	NS_NEED_FEATURE(NS_F_FSOPEN, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
