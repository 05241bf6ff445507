// SPDX-License-Identifier: GPL-2.0
/*
 * unshare(2) and clone(2) refusals around flags: unshare(0), bits that no
 * flag uses, CLONE_NEWUSER with the euid or egid unmapped.  Also the one
 * place where the kernel is more permissive than unshare(2) says
 * (CLONE_NEWPID from a threaded process).  A thread after a PID namespace
 * change and a second unshare(CLONE_NEWPID) are pid_rules.c's.
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes), so that the refusal tested is the only thing missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "pid.h"
#include "kselftest_harness.h"

/* --- CLONE_NEWPID from a threaded process ---------------------------------- */

/* Fork a child; 0 when it is PID 1 one level below us. */
static int next_child_is_pid1_below(void)
{
	int levels = pidns_self_levels();
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(getpid() == 1 && pidns_self_levels() == levels + 1 ? 0 : 3);
	return ns_wait(pid, NS_WAIT_MS) ? child_fail("the next child is not PID 1 one level down")
					: 0;
}

static int threaded_unshare_newpid(void *arg)
{
	struct ns_thread th;
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_thread_start(&th))
		return 1;
	if (ns_thread_count() != 2)
		rc = child_fail("not two threads");
	else if (unshare(CLONE_NEWPID))
		rc = child_fail("unshare(CLONE_NEWPID) with two threads: %m");
	else
		rc = next_child_is_pid1_below();
	if (!rc && ns_thread_count() != 2)
		rc = child_fail("the second thread is gone");
	return ns_thread_stop(&th) ?: rc;
}

/*
 * A threaded process may unshare(CLONE_NEWPID), next child PID 1 (linux:6e556ce209b0 ("pidns: Don't
 * have unshare(CLONE_NEWPID) imply CLONE_THREAD"); not unshare(2)).
 *
 * unshare(2) still says CLONE_NEWPID implies CLONE_THREAD (which a
 * threaded caller could not unshare: EINVAL); that ended in 3.12.
 */
TEST(unshare_newpid_allowed_in_threaded_process)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, threaded_unshare_newpid, NULL));
}

/* --- unshare(0) and bits no flag uses ----------------------------------------- */

/* Every namespace file of the caller, in ns_types order (missing: zeroes). */
static void take_all(struct ns_ident id[2 * NS_NTYPES])
{
	for (int i = 0; i < NS_NTYPES; i++) {
		memset(&id[2 * i], 0, 2 * sizeof(id[0]));
		ns_ident_of(0, ns_types[i].name, &id[2 * i]);
		ns_ident_of(0, ns_types[i].for_children, &id[2 * i + 1]);
	}
}

static int unshare_zero(void *arg)
{
	struct ns_ident before[2 * NS_NTYPES], after[2 * NS_NTYPES];

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	take_all(before);
	if (unshare(0))
		return child_fail("unshare(0): %m");
	take_all(after);
	for (int i = 0; i < 2 * NS_NTYPES; i++)
		if (!ns_ident_eq(&before[i], &after[i]))
			return child_fail("unshare(0) changed the %s namespace",
					  ns_types[i / 2].name);
	return 0;
}

/* unshare(0) succeeds and changes no namespace (unshare(2): flags of 0 unshares nothing). */
TEST(unshare_zero_changes_nothing)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, unshare_zero, NULL));
}

static int unshare_stray_bits(void *arg)
{
	/* A 32-bit caller (the compat pass) has no bits above 31 to pass. */
	static const unsigned long stray[] = { 0x1, SIGCHLD, 0x7f,
#if __SIZEOF_LONG__ > 4
					       1UL << 32, 1UL << 63
#endif
	};
	struct ns_ident before, now;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_ident_of(0, "uts", &before))
		return child_fail("stat uts: %m");
	for (size_t i = 0; i < sizeof(stray) / sizeof(stray[0]); i++) {
		errno = 0;
		if (syscall(SYS_unshare, CLONE_NEWUTS | stray[i]) != -1 || errno != EINVAL)
			return child_fail("unshare(CLONE_NEWUTS | %#lx): %m, not EINVAL", stray[i]);
	}
	if (ns_ident_of(0, "uts", &now) || !ns_ident_eq(&now, &before))
		return child_fail("a refused unshare changed the UTS namespace");
	if (unshare(CLONE_NEWUTS) || ns_ident_of(0, "uts", &now) || ns_ident_eq(&now, &before))
		return child_fail("unshare(CLONE_NEWUTS) alone did not give a new one: %m");
	return 0;
}

/*
 * unshare() with a bit no flag uses (exit-signal bits, bits above 31 where unsigned long has
 * them) fails with EINVAL and changes nothing (unshare(2) ERRORS).
 */
TEST(unshare_stray_bits_einval)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, unshare_stray_bits, NULL));
}

/* --- CLONE_NEWUSER needs the caller's euid and egid mapped ------------------ */

/* In a child: unshare(CLONE_NEWUSER), then clone(CLONE_NEWUSER); 0, or the errno of either. */
static int newuser_both_ways(void)
{
	pid_t pid = ns_clone(0);
	int rc;

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) ? errno : 0);
	rc = ns_wait(pid, NS_WAIT_MS);
	if (rc)
		return rc;
	pid = nsfs_spawn(0, CLONE_NEWUSER);
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(0);
	return ns_wait(pid, NS_WAIT_MS);
}

/* The child in a new user namespace: answer each word from the parent with newuser_both_ways(). */
static int unmapped_child(struct ns_sync *s)
{
	for (int i = 0; i < 2; i++) {
		int err;

		if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
			return child_fail("no word from the parent");
		err = newuser_both_ways();
		if (ns_sync_tell(s, true, &err, sizeof(err)))
			return child_fail("tell: %m");
	}
	return 0;
}

/* Ask the child to try; 0 when its answer is @want. */
static int child_answers(struct ns_sync *s, int want, const char *state)
{
	int err = -1;

	if (ns_sync_tell(s, false, NULL, 0) ||
	    ns_sync_wait(s, false, &err, sizeof(err), NS_WAIT_MS))
		return child_fail("no answer from the child");
	if (err != want)
		return child_fail("CLONE_NEWUSER with %s: %s, not %s", state,
				  err ? strerror(err) : "granted",
				  want ? strerror(want) : "granted");
	return 0;
}

static int unmapped_worker(void *arg)
{
	bool gid_first = *(bool *)arg;
	char uid_line[32], gid_line[32];
	struct ns_sync s;
	int rc, err;
	pid_t pid;

	snprintf(uid_line, sizeof(uid_line), "0 %u 1\n", geteuid());
	snprintf(gid_line, sizeof(gid_line), "0 %u 1\n", getegid());
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWUSER): %m");
	if (pid == 0)
		_exit(unmapped_child(&s));
	/* one of the two maps first: the other id is still unmapped */
	err = ns_write_proc(pid, "setgroups", "deny");
	if (!err || err == -ENOENT)
		err = gid_first ? ns_write_proc(pid, "gid_map", gid_line) :
				  ns_write_proc(pid, "uid_map", uid_line);
	if (err) {
		errno = -err;
		rc = child_fail("write the first map: %m");
	} else {
		rc = child_answers(&s, EPERM,
				   gid_first ? "the euid unmapped" : "the egid unmapped");
	}
	/* the control: with both mapped it works */
	if (!rc) {
		err = gid_first ? ns_write_proc(pid, "uid_map", uid_line) :
				  ns_write_proc(pid, "gid_map", gid_line);
		errno = -err;
		rc = err ? child_fail("write the second map: %m") :
			   child_answers(&s, 0, "both ids mapped");
	}
	ns_sync_close(&s);
	err = ns_wait(pid, NS_WAIT_MS);
	return rc ?: err;
}

FIXTURE(unmapped) {};

FIXTURE_VARIANT(unmapped) {
	bool gid_first;		/* map the gid only: the euid is unmapped */
};

FIXTURE_VARIANT_ADD(unmapped, euid) { .gid_first = true };
FIXTURE_VARIANT_ADD(unmapped, egid) { .gid_first = false };

FIXTURE_SETUP(unmapped)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
}

FIXTURE_TEARDOWN(unmapped)
{
}

/*
 * unshare() and clone() with CLONE_NEWUSER fail with EPERM while the caller's euid or egid has no
 * mapping in its user ns; mapped, they work (clone(2), unshare(2) ERRORS).
 */
TEST_F(unmapped, newuser_with_id_unmapped_in_parent_eperm)
{
	bool gid_first = variant->gid_first;

	ASSERT_EQ(0, ns_run(0, unmapped_worker, &gid_first));
}

TEST_HARNESS_MAIN
