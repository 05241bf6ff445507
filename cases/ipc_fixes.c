// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for IPC-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.  Everything happens
 * in an IPC namespace of the test's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

#define MSG_NEXT_ID "/proc/sys/kernel/msg_next_id"

/* The worker's answer when the namespace's owner may not write msg_next_id. */
#define NEXT_ID_REFUSED 3

/*
 * The number of slots of an IPC id space: IPCMNI (1 << 15), or 1 << 24 when
 * the kernel was booted with ipcmni_extend (ipc/util.h).
 */
static long ipc_slots(void)
{
	char cmdline[4096];

	if (ns_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0 &&
	    strstr(cmdline, "ipcmni_extend"))
		return 1L << 24;
	return 1L << 15;
}

static int next_id_worker(void *arg)
{
	long last = ipc_slots() - 1;
	int id, err;

	(void)arg;
	/* The input the fix leaves alone: the last slot, free, is taken as asked. */
	err = ns_write_long(MSG_NEXT_ID, last);
	if (err == -EACCES || err == -EPERM)
		return NEXT_ID_REFUSED;
	if (err) {
		errno = -err;
		return child_fail("write %ld to msg_next_id: %m", last);
	}
	id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (id != last)
		return child_fail("msgget() after msg_next_id %ld: %d (%m), expected id %ld",
				  last, id, last);
	/* The input the fix is about: the same, now taken, last slot. */
	err = ns_write_long(MSG_NEXT_ID, last);
	if (err) {
		errno = -err;
		return child_fail("write %ld to msg_next_id again: %m", last);
	}
	id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (id >= 0)
		return child_fail("msgget() for the taken last slot %ld gave id %d, "
				  "expected ENOSPC", last, id);
	if (errno != ENOSPC)
		return child_fail("msgget() for the taken last slot %ld: %m, expected ENOSPC",
				  last);
	if (msgctl((int)last, IPC_RMID, NULL))
		return child_fail("msgctl(%ld, IPC_RMID): %m", last);
	return 0;
}

/*
 * msg_next_id (proc_sys_kernel(5), /proc/sys/kernel/msg_next_id): the next
 * queue of the IPC namespace gets that id, its index part naming a slot of
 * the namespace's id space; when that slot is taken a later free one is
 * used, never one past the end, so with the last slot taken msgget() fails
 * with ENOSPC (fix "ipc: limit next_id allocation to the valid ID range",
 * CVE-2026-52923, Debian 5.10.259, 6.1.176 and 6.12.94: before it the
 * allocation spilled past the last slot and the queue got an id naming
 * another slot).  Both sides: the free last slot is given as asked.  The
 * ids are written as the IPC namespace's owner; unprivileged that takes a
 * kernel that lets root of the user namespace write msg_next_id.
 */
TEST(msg_next_id_past_last_slot_enospc)
{
	int rc;

	NS_NEED_ENV(access(MSG_NEXT_ID, F_OK) == 0, NS_WHY_FEATURE_CONFIG,
		    "kernel.msg_next_id", "CONFIG_CHECKPOINT_RESTORE");
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWIPC, next_id_worker, NULL);
	NS_NEED_ENV(rc != NEXT_ID_REFUSED, NS_WHY_IPC_SYSCTL_WRITE, "kernel.msg_next_id",
		    "it needs CAP_CHECKPOINT_RESTORE over the namespace");
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
