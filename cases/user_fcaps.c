// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces and executables: namespaced (v3) file capabilities and
 * set-user-ID / set-group-ID programs run inside a user namespace
 * (user_namespaces(7) "Capabilities", "Set-user-ID and set-group-ID
 * programs", capabilities(7) "File capability extended attribute
 * versioning", linux:8db6c34f1dbc ("Introduce v3 namespaced file
 * capabilities"), 4.14).
 *
 * The programs are copies of this case binary on a tmpfs mounted in a
 * private mount namespace; fixtures/user.c (userns_exec()) makes each copy report the
 * capabilities and ids it got from execve() before main().  Tests that
 * need several ids (more than one unprivileged id can map) need real root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

#define PROG "/tmp/nsconform-prog"
#define PLAIN "/tmp/nsconform-plain"
#define NET_RAW USERNS_CAP_BIT(CAP_NET_RAW)

/* A v2 security.capability value: CAP_NET_RAW permitted and effective. */
static const struct vfs_cap_data cap_v2 = {
	.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	.data = { { .permitted = 1U << CAP_NET_RAW } },
};

/* PROG with the v2 capability written, PLAIN without. */
static int make_progs(void)
{
	int err = userns_copy_self(PROG, 0755) ?: userns_copy_self(PLAIN, 0755);

	if (err) {
		errno = -err;
		return child_fail("copy the case binary to /tmp: %m");
	}
	if (setxattr(PROG, "security.capability", &cap_v2, sizeof(cap_v2), 0))
		return child_fail("write security.capability (v2) on %s: %m", PROG);
	return 0;
}

/* Exec @path; its CapPrm and CapEff must both be @caps, its euid @euid. */
static int exec_gets(const char *path, unsigned long long caps, uid_t euid)
{
	struct userns_exec r;

	if (userns_exec(path, &r))
		return 1;
	if (r.prm != caps || r.eff != caps || r.euid != euid)
		return child_fail("%s got CapPrm %llx CapEff %llx euid %u, expected %llx, %u",
				  path, r.prm, r.eff, r.euid, caps, euid);
	return 0;
}

/* Read security.capability of @path: its size, with the value in @v. */
static ssize_t read_fcaps(const char *path, struct vfs_ns_cap_data *v)
{
	memset(v, 0, sizeof(*v));
	return getxattr(path, "security.capability", v, sizeof(*v));
}

/* --- v3 written inside ----------------------------------------------------- */

static int write_inside(struct ns_sync *s)
{
	struct vfs_ns_cap_data v;
	ssize_t n;

	ns_sync_child_side(s);
	if (ns_unshare_userns_root(CLONE_NEWNS) || ns_private_tmp(NS_PRIVATE_TMP_OPTS) || make_progs())
		return child_fail("set up A with a capability file: %m");
	/* Inside, the value reads back as the v2 that was written. */
	n = read_fcaps(PROG, &v);
	if (n != XATTR_CAPS_SZ_2 || (v.magic_etc & VFS_CAP_REVISION_MASK) != VFS_CAP_REVISION_2)
		return child_fail("inside: %zd bytes, magic %#x; expected the v2 written",
				  n, v.magic_etc);
	if (ns_sync_tell(s, true, NULL, 0) || ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("parent gone");
	return 0;
}

static int v3_outside(void *arg)
{
	struct vfs_ns_cap_data v;
	struct ns_sync s;
	char path[96];
	int rc = 0;
	ssize_t n;
	pid_t pid;

	(void)arg;
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(write_inside(&s));
	if (ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS)) {
		rc = child_fail("A did not write the capability");
	} else {
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, PROG);
		n = read_fcaps(path, &v);
		if (n != XATTR_CAPS_SZ_3 ||
		    (v.magic_etc & VFS_CAP_REVISION_MASK) != VFS_CAP_REVISION_3)
			rc = child_fail("outside: %zd bytes, magic %#x; expected v3 (%d bytes)",
					n, v.magic_etc, (int)XATTR_CAPS_SZ_3);
		else if (v.rootid != geteuid())
			rc = child_fail("v3 rootid %u, expected A's root %u", v.rootid, geteuid());
		else if (v.data[0].permitted != 1U << CAP_NET_RAW ||
			 !(v.magic_etc & VFS_CAP_FLAGS_EFFECTIVE))
			rc = child_fail("v3 permitted %#x, flags %#x", v.data[0].permitted,
					v.magic_etc);
		ns_sync_tell(&s, false, NULL, 0);
	}
	if (ns_wait(pid, NS_WAIT_MS))
		rc = 1;
	ns_sync_close(&s);
	return rc;
}

/*
 * File capabilities written by root of a user namespace are stored as v3 with rootid its root's
 * outer uid: v2 read inside, v3 with that rootid read outside (capabilities(7), 4.14).
 */
TEST(fcaps_written_in_userns_stored_as_v3_with_rootid)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(v3_outside, NULL));
}

/* --- honoured there and below ----------------------------------------------- */

/* In a child user namespace B of A, as B's uid 5 (A's root): exec. */
static int exec_in_b(void *arg)
{
	(void)arg;
	if (getuid() != 5)
		return child_fail("uid %u in B, expected 5", getuid());
	/* Not root: only file capabilities can give any. */
	return exec_gets(PROG, NET_RAW, 5) | exec_gets(PLAIN, 0, 5);
}

/*
 * Run @fn in a child user namespace B of the caller's A, mapped "5 0 1":
 * B's uid 5 is A's root, every capability in B.  0, or 1 with the reason.
 */
static int run_in_b(int (*fn)(void *), void *arg)
{
	struct ns_sync s;
	int rc = 0, err;
	pid_t b;

	b = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	if (b < 0)
		return child_fail("clone B: %m");
	if (b == 0) {
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(child_fail("no maps"));
		_exit(fn(arg));
	}
	err = ns_write_proc(b, "uid_map", "5 0 1\n") ?: ns_write_proc(b, "gid_map", "5 0 1\n");
	if (err) {
		errno = -err;
		rc = child_fail("B's maps: %m");
	}
	ns_sync_tell(&s, false, NULL, 0);
	if (ns_wait(b, NS_WAIT_MS))
		rc = child_fail("in B, a descendant of A");
	ns_sync_close(&s);
	return rc;
}

static int honoured(void *arg)
{
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS) || ns_private_tmp(NS_PRIVATE_TMP_OPTS) || make_progs())
		return child_fail("set up A with a capability file: %m");
	/* Root of A would get every capability from execve(): switch that off. */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT))
		return child_fail("PR_SET_SECUREBITS(SECBIT_NOROOT) in A: %m");
	rc |= exec_gets(PROG, NET_RAW, 0);
	rc |= exec_gets(PLAIN, 0, 0);
	return rc | run_in_b(exec_in_b, NULL);
}

/*
 * v3 file capabilities take effect in the namespace whose root wrote them and in its descendants,
 * where that uid is not root (capabilities(7), user_namespaces(7)).
 */
TEST(fcaps_v3_honoured_in_own_and_descendant_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(honoured, NULL));
}

/* --- an inheritable mask ---------------------------------------------------- */

#define PROG_INH "/tmp/nsconform-inh"

/* A v2 security.capability value: CAP_NET_RAW inheritable only, effective. */
static const struct vfs_cap_data cap_v2_inh = {
	.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	.data = { { .inheritable = 1U << CAP_NET_RAW } },
};

/* In B as uid 5: the file's inheritable mask passes what our inheritable set holds. */
static int inh_in_b(void *arg)
{
	int rc = 0;

	(void)arg;
	if (getuid() != 5)
		return child_fail("uid %u in B, expected 5", getuid());
	rc |= exec_gets(PROG_INH, 0, 5);
	if (ns_cap_set(CAP_NET_RAW, CAP_INHERITABLE, true))
		return child_fail("raise CAP_NET_RAW in the inheritable set: %m");
	rc |= exec_gets(PROG_INH, NET_RAW, 5);
	/* The same inheritable set, a program without a mask: nothing. */
	rc |= exec_gets(PLAIN, 0, 5);
	return rc;
}

static int inheritable_mask(void *arg)
{
	int err;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS) || ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return child_fail("set up A: %m");
	err = userns_copy_self(PROG_INH, 0755) ?: userns_copy_self(PLAIN, 0755);
	if (err) {
		errno = -err;
		return child_fail("copy the case binary to /tmp: %m");
	}
	if (setxattr(PROG_INH, "security.capability", &cap_v2_inh, sizeof(cap_v2_inh), 0))
		return child_fail("write security.capability on %s: %m", PROG_INH);
	return run_in_b(inh_in_b, NULL);
}

/*
 * A non-zero uid of a user namespace keeps across execve() the capabilities in both its
 * inheritable set and the file's inheritable mask; without either it keeps none
 * (user_namespaces(7), capabilities(7)).
 *
 * The file capability is v3, written by root of A; the process is uid 5 of
 * A's child B, where it is not root.
 */
TEST(fcaps_inheritable_mask_keeps_caps_of_nonzero_uid)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(inheritable_mask, NULL));
}

/* --- ignored elsewhere (real root) ------------------------------------------ */

/*
 * Run @fn in a child in a new user namespace whose maps the caller
 * writes (@uid_map for both uid_map and gid_map).  Returns ns_wait().
 */
static int run_mapped(const char *map, int (*fn)(void *), void *arg)
{
	struct ns_sync s;
	pid_t pid;
	int err;

	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	if (pid < 0)
		return child_fail("clone: %m");
	if (pid == 0) {
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(child_fail("no maps"));
		/* Take the mapped root's ids (the clone kept the caller's). */
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			_exit(child_fail("become the namespace's root: %m"));
		_exit(fn(arg));
	}
	err = ns_write_proc(pid, "uid_map", map) ?: ns_write_proc(pid, "gid_map", map);
	if (err) {
		errno = -err;
		child_fail("maps '%s': %m", map);
		kill(pid, SIGKILL);
	}
	ns_sync_tell(&s, false, NULL, 0);
	err = ns_wait(pid, NS_WAIT_MS);
	ns_sync_close(&s);
	return err;
}

static int write_v2_as_a(void *arg)
{
	(void)arg;
	if (setxattr(PROG, "security.capability", &cap_v2, sizeof(cap_v2), 0))
		return child_fail("write security.capability in A: %m");
	return 0;
}

static int noroot_exec_gets(void *arg)
{
	unsigned long long caps = *(unsigned long long *)arg;

	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT))
		return child_fail("PR_SET_SECUREBITS(SECBIT_NOROOT): %m");
	return exec_gets(PROG, caps, 0);
}

static int ignored_elsewhere(void *arg)
{
	unsigned long long raw = NET_RAW, none = 0;
	struct vfs_ns_cap_data v;
	int rc = 0;

	(void)arg;
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	if (userns_copy_self(PROG, 0755) || chown(PROG, 100000, 100000))
		return child_fail("prepare %s: %m", PROG);
	if (run_mapped("0 100000 1\n", write_v2_as_a, NULL))
		return child_fail("A could not write the capability");
	if (read_fcaps(PROG, &v) != XATTR_CAPS_SZ_3 || v.rootid != 100000)
		return child_fail("not stored as v3 with rootid 100000 (rootid %u)", v.rootid);
	if (run_mapped("0 100000 1\n", noroot_exec_gets, &raw))
		rc = child_fail("in A, whose root is 100000");
	if (run_mapped("0 200000 1\n", noroot_exec_gets, &none))
		rc = child_fail("in a sibling whose root is 200000");
	if (run_mapped("0 99000 2000\n", noroot_exec_gets, &none))
		rc = child_fail("in a sibling where 100000 is uid 1000, not root");
	if (ns_run(0, noroot_exec_gets, &none))
		rc = child_fail("in the initial user namespace");
	return rc;
}

/*
 * v3 file capabilities are ignored in every user namespace where their rootid is not root of it or
 * of an ancestor: siblings and the initial namespace (capabilities(7)).
 *
 * Real root: the tmpfs must belong to the initial user namespace.  On one
 * that a user namespace mounted, file capabilities count only inside that
 * namespace (mnt_may_suid()), so a sibling or the initial namespace would
 * ignore them whatever the rootid; and a sibling whose root is another id
 * needs a second kernel uid.
 */
TEST(fcaps_v3_ignored_where_rootid_is_not_root)
{
	NS_NEED_REAL_ROOT(!ns_real_root_missing());
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, ignored_elsewhere, NULL));
}

/* --- set-user-ID programs (real root) ----------------------------------------- */

static int suid_inside(void *arg)
{
	struct userns_exec r;
	int rc = 0;

	(void)arg;
	if (setresgid(5, 5, 5) || setresuid(5, 5, 5))
		return child_fail("become 5:5 in the namespace: %m");
	if (userns_exec("/tmp/suid-mapped", &r))
		return 1;
	if (r.uid != 5 || r.euid != 7 || r.gid != 5 || r.egid != 8)
		rc = child_fail("set-ID program owned by 7:8 (mapped) ran as %u/%u:%u/%u, "
				"expected 5/7:5/8", r.uid, r.euid, r.gid, r.egid);
	if (userns_exec("/tmp/suid-unmapped", &r))
		return 1;
	if (r.uid != 5 || r.euid != 5 || r.gid != 5 || r.egid != 5)
		rc = child_fail("set-ID program owned by an unmapped id ran as %u/%u:%u/%u, "
				"expected 5/5:5/5", r.uid, r.euid, r.gid, r.egid);
	return rc;
}

static int suid_programs(void *arg)
{
	(void)arg;
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	if (userns_copy_self("/tmp/suid-mapped", 0755) ||
	    chown("/tmp/suid-mapped", 100007, 100008) ||
	    chmod("/tmp/suid-mapped", 06755) ||
	    userns_copy_self("/tmp/suid-unmapped", 0755) ||
	    chown("/tmp/suid-unmapped", 4242, 4242) ||
	    chmod("/tmp/suid-unmapped", 06755))
		return child_fail("prepare the set-ID programs: %m");
	return run_mapped("0 100000 1000\n", suid_inside, NULL);
}

/*
 * A set-user-ID/set-group-ID program executed inside a user namespace takes its owner's ids when
 * they are mapped there, and keeps the caller's when not (user_namespaces(7), execve(2)).
 */
TEST(setid_program_inside_honours_mapped_owner_only)
{
	NS_NEED_REAL_ROOT(!ns_real_root_missing());
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, suid_programs, NULL));
}

/* The creator of the namespace in the set-user-ID test, and a second id. */
#define CREATOR 100000
#define CREATOR_MAP "0 100000 1\n1 100001 1\n"

/* The creator's child: uid 1 inside, no capabilities, runs both programs. */
static int creator_ns_runs(struct ns_sync *s)
{
	unsigned long long all = (1ULL << cap_max_bits()) - 1;
	struct userns_exec r;
	int rc = 0;

	if (ns_drop_privileges(CREATOR, CREATOR) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return child_fail("become the creator %d: %m", CREATOR);
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) as the creator: %m");
	ns_sync_tell(s, true, NULL, 0);
	if (ns_sync_wait(s, true, NULL, 1, NS_WAIT_MS))
		return child_fail("no maps");
	/* an unprivileged process inside: uid and gid 1, nothing effective */
	if (setresgid(1, 1, 1) || setresuid(1, 1, 1))
		return child_fail("become 1:1 in the namespace: %m");
	if (!ns_caps_none_effective())
		return child_fail("uid 1 still has a capability");
	if (userns_exec("/tmp/suid-creator", &r))
		return 1;
	if (r.uid != 1 || r.euid != 0 || r.gid != 1 || r.egid != 0)
		rc = child_fail("set-ID program of the creator ran as %u/%u:%u/%u, expected "
				"1/0:1/0", r.uid, r.euid, r.gid, r.egid);
	if (r.eff != all || r.prm != all)
		rc = child_fail("set-ID program of the creator: CapEff %llx CapPrm %llx, "
				"expected all (%llx)", r.eff, r.prm, all);
	if (userns_exec("/tmp/plain-creator", &r))
		return 1;
	if (r.uid != 1 || r.euid != 1 || r.gid != 1 || r.egid != 1 || r.eff || r.prm)
		rc = child_fail("the creator's program without set-ID bits ran as %u/%u:%u/%u "
				"CapEff %llx, expected 1/1:1/1 and none", r.uid, r.euid, r.gid,
				r.egid, r.eff);
	return rc;
}

static int creator_suid_program(void *arg)
{
	struct ns_sync s;
	pid_t pid;
	int err;

	(void)arg;
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	if (userns_copy_self("/tmp/suid-creator", 0755) ||
	    chown("/tmp/suid-creator", CREATOR, CREATOR) ||
	    chmod("/tmp/suid-creator", 06755) ||
	    userns_copy_self("/tmp/plain-creator", 0755) ||
	    chown("/tmp/plain-creator", CREATOR, CREATOR))
		return child_fail("prepare the creator's programs: %m");
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(creator_ns_runs(&s));
	if (ns_sync_wait(&s, false, NULL, 1, NS_WAIT_MS)) {
		ns_sync_close(&s);
		return ns_wait(pid, NS_WAIT_MS) ?: child_fail("the creator did not report");
	}
	/* real root writes the maps: the creator as root, a second id as 1 */
	err = ns_write_proc(pid, "uid_map", CREATOR_MAP) ?:
	      ns_write_proc(pid, "gid_map", CREATOR_MAP);
	if (err) {
		errno = -err;
		child_fail("maps: %m");
		kill(pid, SIGKILL);
	}
	ns_sync_tell(&s, false, NULL, 0);
	ns_sync_close(&s);
	return ns_wait(pid, NS_WAIT_MS) ?: (err ? 1 : 0);
}

/*
 * A set-user-ID (set-group-ID) program owned by the creator of a user
 * namespace, mapped there as root, gives an unprivileged process inside
 * (uid 1, no capabilities) effective ids 0 and, as root of the namespace,
 * every capability after execve(); the same program without the set-ID
 * bits keeps uid 1 and no capabilities (user_namespaces(7) "Set-user-ID and
 * set-group-ID programs": "the process's effective user (group) ID inside
 * the namespace is changed to whatever value is mapped for the user (group)
 * ID of the file"; capabilities(7) "Capabilities and execution of programs
 * by root").  Two mapped ids need real root to write the maps.
 */
TEST(setid_program_of_creator_makes_inside_process_root)
{
	NS_NEED_REAL_ROOT(!ns_real_root_missing());
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(CLONE_NEWNS, creator_suid_program, NULL));
}

TEST_HARNESS_MAIN
