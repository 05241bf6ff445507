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
#include <sys/socket.h>
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

/* The holder's ids outside (its root's), and the socket its tmpfs's context goes back over. */
struct tmpfs_holder {
	uid_t uid;
	gid_t gid;
	int sock;
};

/*
 * The holder: root of its user namespace is the caller's uid, alone; its /tmp a tmpfs of its
 * own.  fspick(2) takes CAP_SYS_ADMIN over the mount namespace, which the holder has: it sends
 * the caller a reconfiguration context of that tmpfs.
 */
static int tmpfs_holder_setup(void *arg)
{
	const struct tmpfs_holder *t = arg;
	int fd, err;

	err = ns_map_root(0, t->uid, t->gid);
	if (err) {
		errno = -err;
		return child_fail("map root to uid %u in the holder's user namespace: %m", t->uid);
	}
	if (ns_private_tmp(NULL))
		return 1;
	fd = fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC);
	if (fd < 0)
		return errno == ENOSYS ? ns_child_lacks(NS_F_FSOPEN) : child_fail("fspick(/tmp): %m");
	if (ns_send_fd(t->sock, fd))
		return child_fail("send the context: %m");
	close(fd);
	return 0;
}

/* fsconfig() of "uid" to @id on @fd: 0 or -errno. */
static int set_uid(int fd, uid_t id)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", id);
	return ns_fsconfig(fd, FSCONFIG_SET_STRING, "uid", val, 0) ? -errno : 0;
}

static int tmpfs_uid_worker(void *arg)
{
	struct tmpfs_holder t = { .uid = geteuid(), .gid = getegid() };
	struct ns_holder h = { .flags = CLONE_NEWUSER | CLONE_NEWNS, .plain = true,
			       .setup = tmpfs_holder_setup, .arg = &t };
	uid_t unmapped = t.uid == 5 ? 6 : 5;
	int sv[2], fd, err, rc;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return child_fail("socketpair: %m");
	t.sock = sv[1];
	rc = ns_holder_begin(&h);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return rc == NS_CHILD_SKIP ? rc :
		       child_fail("a holder with a tmpfs in a user namespace of its own");
	}
	/* Sent before the holder said it was ready: there already. */
	fd = ns_recv_fd(sv[0]);
	close(sv[0]);
	if (fd < 0) {
		rc = child_fail("receive the holder's tmpfs context: %m");
		goto out;
	}
	/* The input the fix leaves alone: our uid, mapped there (its root). */
	err = set_uid(fd, t.uid);
	if (err) {
		errno = -err;
		rc = child_fail("uid=%u (the holder's root) for its tmpfs: %m", t.uid);
		goto out;
	}
	/* The input the fix is about: valid here, in the initial user namespace; unmapped there. */
	err = set_uid(fd, unmapped);
	if (err != -EINVAL) {
		errno = -err;
		rc = child_fail("uid=%u (unmapped in the tmpfs's user namespace): %s, expected "
				"EINVAL", unmapped, err ? strerror(-err) : "accepted");
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
 * tmpfs's namespace cannot represent was accepted).  The caller is in the
 * initial user namespace, where every id is valid; the tmpfs is a holder's,
 * mounted in a user namespace that maps only its root, our uid.  The ids
 * are read by fsconfig(2), so the holder opens the reconfiguration context
 * (fspick(2) takes CAP_SYS_ADMIN over its mount namespace, which real root
 * and root of a user namespace have) and we set the option.  Both sides:
 * our uid, its root, is accepted; 5, which it does not map, is refused.
 */
TEST(tmpfs_uid_unmapped_in_its_userns_einval)
{
	int rc;

	NS_NEED_INITIAL_USERNS();
	NS_NEED_USERNS();
	rc = ns_run(0, tmpfs_uid_worker, NULL);
	NS_NEED_FEATURE(NS_F_FSOPEN, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
