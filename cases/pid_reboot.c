// SPDX-License-Identifier: GPL-2.0
/*
 * reboot(2) inside a PID namespace (since 3.4): the restart and power-off
 * commands end the namespace's init with SIGHUP or SIGINT as its parent's
 * wait(2) reports; every other command is EINVAL; CAP_SYS_BOOT is needed in
 * the user namespace that owns the PID namespace.
 * Sources: reboot(2) "Behavior inside PID namespaces", pid_namespaces(7).
 *
 * reboot() is only ever called by a process that has just checked that it
 * is exactly one PID namespace below the test (NSpid has one more entry)
 * and is PID 1 or a member of that new namespace: a kernel that ignored
 * CLONE_NEWPID never gets to call it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/reboot.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "pid.h"
#include "kselftest_harness.h"

/* NSpid depth of the test process, taken before any child is made. */
static int test_levels;

FIXTURE(pidns) {};

FIXTURE_SETUP(pidns)
{
	test_levels = pidns_self_levels();
	ASSERT_GE(test_levels, 1);
}

FIXTURE_TEARDOWN(pidns)
{
	pidns_kill_tracked();
}

/* NSpid levels below the test at which reboot() may be called (1, or 2 when nested). */
static int reboot_depth = 1;

/* reboot(2) with the magic numbers (or @magic2 when not 0), checked: -errno or 0. */
static int ns_reboot(int cmd, int magic2)
{
	int levels = pidns_self_levels();

	if (levels != test_levels + reboot_depth || getpid() > 16) {
		child_fail("refusing to call reboot(): %d NSpid levels, PID %d", levels, getpid());
		_exit(NS_CHILD_SETUP_FAILED);
	}
	if (syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, magic2 ? magic2 : LINUX_REBOOT_MAGIC2,
		    cmd, "nsconform"))
		return -errno;
	return 0;
}

struct reboot_case {
	int cmd;
	bool from_member;	/* a child of init calls reboot(), not init */
};

/* A member of the namespace: reboot() ends the calling process too (exit 0). */
static int reboot_member(int cmd)
{
	int err = ns_reboot(cmd, 0);

	return child_fail("reboot(%#x) returned %s", cmd, strerror(-err));
}

static int rebooting_init(const struct reboot_case *c)
{
	pid_t member;
	int err;

	if (getpid() != 1)
		return child_fail("not PID 1 (%d)", getpid());
	if (!c->from_member) {
		err = ns_reboot(c->cmd, 0);
		return child_fail("reboot(%#x) returned %s", c->cmd, strerror(-err));
	}
	member = ns_clone(0);
	if (member < 0)
		return child_fail("fork: %m");
	if (member == 0)
		_exit(reboot_member(c->cmd));
	/* Killed while waiting, unless reboot() did nothing. */
	ns_wait(member, NS_WAIT_MS);
	return 3;
}

/* The exit status the parent of the namespace's init sees after reboot(@cmd). */
static int init_status_after(int cmd, bool from_member)
{
	struct reboot_case c = { cmd, from_member };
	pid_t init = pidns_new_child(0);

	if (init < 0)
		return -1;
	if (init == 0)
		_exit(rebooting_init(&c));
	return pidns_reap(init, NS_WAIT_MS);
}

/*
 * reboot(LINUX_REBOOT_CMD_RESTART) in a PID namespace: wait(2) reports its init killed by SIGHUP
 * (reboot(2)).
 */
TEST_F(pidns, reboot_restart_ends_init_with_sighup)
{
	NS_NEED_ADMIN_OR_USERNS();
	EXPECT_EQ(128 + SIGHUP, init_status_after(LINUX_REBOOT_CMD_RESTART, false));
}

/*
 * reboot(LINUX_REBOOT_CMD_RESTART2) in a PID namespace: wait(2) reports its init killed by SIGHUP
 * (reboot(2)).
 */
TEST_F(pidns, reboot_restart2_ends_init_with_sighup)
{
	NS_NEED_ADMIN_OR_USERNS();
	EXPECT_EQ(128 + SIGHUP, init_status_after(LINUX_REBOOT_CMD_RESTART2, false));
}

/*
 * reboot(LINUX_REBOOT_CMD_POWER_OFF) in a PID namespace: wait(2) reports its init killed by SIGINT
 * (reboot(2)).
 */
TEST_F(pidns, reboot_power_off_ends_init_with_sigint)
{
	NS_NEED_ADMIN_OR_USERNS();
	EXPECT_EQ(128 + SIGINT, init_status_after(LINUX_REBOOT_CMD_POWER_OFF, false));
}

/*
 * reboot(LINUX_REBOOT_CMD_HALT) in a PID namespace: wait(2) reports its init killed by SIGINT
 * (reboot(2)).
 */
TEST_F(pidns, reboot_halt_ends_init_with_sigint)
{
	NS_NEED_ADMIN_OR_USERNS();
	EXPECT_EQ(128 + SIGINT, init_status_after(LINUX_REBOOT_CMD_HALT, false));
}

/*
 * reboot() by any member of a PID namespace, not only its init, ends that init (reboot(2),
 * pid_namespaces(7)).
 */
TEST_F(pidns, reboot_by_member_ends_namespace_init)
{
	NS_NEED_ADMIN_OR_USERNS();
	EXPECT_EQ(128 + SIGHUP, init_status_after(LINUX_REBOOT_CMD_RESTART, true));
}

struct refused {
	int cad_off;		/* -errno of reboot(LINUX_REBOOT_CMD_CAD_OFF) */
	int cad_on;		/* -errno of reboot(LINUX_REBOOT_CMD_CAD_ON) */
	int bad_magic;		/* -errno of reboot(RESTART) with a wrong magic2 */
	int nocap;		/* -errno of reboot(RESTART) without CAP_SYS_BOOT */
	int child_userns;	/* -errno of reboot(RESTART) from a child user namespace */
};

static int report(struct ns_sync *s, const struct refused *r)
{
	return ns_sync_tell(s, true, r, sizeof(*r)) ? child_fail("report: %m") : 0;
}

static int refusing_init(struct ns_sync *s, void *arg)
{
	int which = *(int *)arg;
	struct refused r = { 0 };
	pid_t pid;

	ns_sync_child_side(s);
	if (getpid() != 1)
		return child_fail("not PID 1 (%d)", getpid());
	switch (which) {
	case 0:
		r.cad_off = ns_reboot(LINUX_REBOOT_CMD_CAD_OFF, 0);
		r.cad_on = ns_reboot(LINUX_REBOOT_CMD_CAD_ON, 0);
		break;
	case 1:
		r.bad_magic = ns_reboot(LINUX_REBOOT_CMD_RESTART, 0x1234567);
		break;
	case 2:
		/* A child drops CAP_SYS_BOOT; init stays privileged. */
		pid = ns_clone(0);
		if (pid < 0)
			return child_fail("fork: %m");
		if (pid == 0) {
			if (ns_cap_set(CAP_SYS_BOOT, CAP_EFFECTIVE, false))
				_exit(child_fail("cannot drop CAP_SYS_BOOT: %m"));
			r.nocap = ns_reboot(LINUX_REBOOT_CMD_RESTART, 0);
			_exit(report(s, &r));
		}
		return ns_wait(pid, NS_WAIT_MS);
	case 3:
		/* A child in a new user namespace: every capability, but there. */
		pid = ns_clone(CLONE_NEWUSER);
		if (pid < 0)
			return child_fail("clone(CLONE_NEWUSER): %m");
		if (pid == 0) {
			if (!ns_cap_effective(CAP_SYS_BOOT))
				_exit(child_fail("no CAP_SYS_BOOT in the new user namespace"));
			r.child_userns = ns_reboot(LINUX_REBOOT_CMD_RESTART, 0);
			_exit(report(s, &r));
		}
		return ns_wait(pid, NS_WAIT_MS);
	}
	return report(s, &r);
}

/* Run refusing_init(@which) as a namespace's init; it must survive and exit 0. */
static struct refused run_refused(struct __test_metadata *_metadata, int which)
{
	struct refused r = { 1, 1, 1, 1, 1 };
	struct ns_sync s;
	pid_t init;

	init = pidns_start_synced(&s, 0, refusing_init, &which);
	ASSERT_GE(init, 0);
	EXPECT_EQ(0, ns_sync_wait(&s, false, &r, sizeof(r), NS_WAIT_MS));
	/* From outside: init was not ended; it exits by itself with 0. */
	EXPECT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	ns_sync_close(&s);
	return r;
}

/*
 * In a PID namespace every reboot(2) command but restart, restart2, power-off and halt fails with
 * EINVAL (reboot(2)).
 */
TEST_F(pidns, reboot_other_commands_in_pidns_are_einval)
{
	struct refused r;

	NS_NEED_ADMIN_OR_USERNS();
	r = run_refused(_metadata, 0);

	EXPECT_EQ(-EINVAL, r.cad_off);
	EXPECT_EQ(-EINVAL, r.cad_on);
}

/* Bad magic numbers are EINVAL inside a PID namespace too; init is not ended (reboot(2) ERRORS). */
TEST_F(pidns, reboot_bad_magic_in_pidns_is_einval)
{
	struct refused r;

	NS_NEED_ADMIN_OR_USERNS();
	r = run_refused(_metadata, 1);

	EXPECT_EQ(-EINVAL, r.bad_magic);
}

/*
 * Without CAP_SYS_BOOT reboot(2) is EPERM in a PID namespace; its init lives on (reboot(2) ERRORS).
 */
TEST_F(pidns, reboot_without_cap_sys_boot_is_eperm)
{
	struct refused r;

	NS_NEED_ADMIN_OR_USERNS();
	r = run_refused(_metadata, 2);

	EXPECT_EQ(-EPERM, r.nocap);
}

/*
 * CAP_SYS_BOOT only in a user namespace below the PID namespace's owner does not allow reboot():
 * EPERM (reboot(2) ERRORS).
 *
 * reboot(2) says "CAP_SYS_BOOT inside its user namespace"; the kernel
 * checks it in the user namespace that owns the caller's PID namespace, so
 * root of a child user namespace (which holds CAP_SYS_BOOT there) is
 * refused.  Listed in the README.
 */
TEST_F(pidns, reboot_with_cap_only_in_child_userns_is_eperm)
{
	struct refused r;

	NS_NEED_USERNS();
	r = run_refused(_metadata, 3);

	EXPECT_EQ(-EPERM, r.child_userns);
}

struct nested_rec {
	int inner;		/* the inner init's status as the outer init saw it */
	int outer_alive;	/* the outer init ran on afterwards */
};

static int nested_outer_init(struct nested_rec *r)
{
	struct reboot_case c = { LINUX_REBOOT_CMD_RESTART, false };
	pid_t inner = ns_clone(CLONE_NEWPID);

	if (inner < 0)
		return child_fail("clone(CLONE_NEWPID): %m");
	if (inner == 0)
		_exit(rebooting_init(&c));
	r->inner = ns_wait(inner, NS_WAIT_MS);
	r->outer_alive = getpid() == 1;
	return 0;
}

/*
 * reboot(2) ends the init of the caller's own PID namespace only: the parent namespace's init lives
 * on (reboot(2), pid_namespaces(7)).
 */
TEST_F(pidns, reboot_in_nested_pidns_ends_only_its_init)
{
	pid_t outer;

	PIDNS_REC(struct nested_rec, r);
	r->inner = -1;
	reboot_depth = 2;
	outer = pidns_new_child(0);
	ASSERT_GE(outer, 0);
	if (outer == 0)
		_exit(nested_outer_init(r));
	EXPECT_EQ(0, pidns_reap(outer, NS_WAIT_MS));
	reboot_depth = 1;
	EXPECT_EQ(128 + SIGHUP, r->inner);
	EXPECT_EQ(1, r->outer_alive);
}

TEST_HARNESS_MAIN
