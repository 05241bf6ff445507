// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: who may write /proc/PID/uid_map, gid_map, projid_map
 * and setgroups, and with what (user_namespaces(7) "User and group ID
 * mappings: uid_map and gid_map", "Defining user and group ID mappings:
 * writing to uid_map and gid_map", "Interaction with system calls that
 * change process UIDs or GIDs", the article's part 5 and part 6).
 *
 * The namespace whose map is written is held by a child that answers
 * questions about its ids (fixtures/user.h, userns_peer).  Unless a test says it
 * needs real root, everything runs in a child that gave up every
 * privilege (ns_run_unpriv()), in both passes; a first user namespace
 * "A" maps its root to that unprivileged id, and holds the child "B"
 * whose maps are written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* Write @text to /proc/@pid/@file and expect -@err (0: success). */
static int expect_write(pid_t pid, const char *file, const char *text, int err)
{
	int rc = ns_write_proc(pid, file, text);

	if (rc == -err)
		return 0;
	return child_fail("write '%.*s' to /proc/%d/%s: %s, expected %s",
			  (int)strcspn(text, "\n"), text, pid, file,
			  rc ? strerror(-rc) : "success", err ? strerror(err) : "success");
}

/* /proc/@pid/@file must read exactly @want. */
static int expect_read(pid_t pid, const char *file, const char *want)
{
	char path[64], buf[256], got[256];
	int n;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	n = ns_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return child_fail("read %s: %s", path, strerror(-n));
	/* Normalise the column padding of the map files. */
	{
		unsigned long a, b, c;

		if (sscanf(buf, "%lu %lu %lu", &a, &b, &c) == 3)
			snprintf(got, sizeof(got), "%lu %lu %lu", a, b, c);
		else
			snprintf(got, sizeof(got), "%.*s", (int)strcspn(buf, "\n"), buf);
	}
	if (strcmp(got, want))
		return child_fail("%s reads '%s', expected '%s'", path, got, want);
	return 0;
}

/* --- where the writer must be ------------------------------------------ */

static int parent_writes(void *arg)
{
	struct userns_report ids;
	struct userns_peer b;
	char line[32];
	int rc = 0;

	(void)arg;
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	snprintf(line, sizeof(line), "0 %u 1\n", geteuid());
	rc |= expect_write(b.pid, "uid_map", line, 0);
	rc |= expect_write(b.pid, "setgroups", "deny", 0);
	snprintf(line, sizeof(line), "0 %u 1\n", getegid());
	rc |= expect_write(b.pid, "gid_map", line, 0);
	if (userns_peer_ids(&b, &ids))
		rc = child_fail("B does not answer");
	else if (ids.uid != 0 || ids.euid != 0 || ids.gid != 0 || ids.egid != 0)
		rc = child_fail("B is %u/%u:%u/%u after its maps, expected 0", ids.uid,
				ids.euid, ids.gid, ids.egid);
	snprintf(line, sizeof(line), "0 %u 1", geteuid());
	rc |= expect_read(b.pid, "uid_map", line);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * A process in the parent user namespace may write the child's uid_map and gid_map; the child then
 * has the ids (user_namespaces(7), article part 5).
 */
TEST(map_written_from_parent_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(parent_writes, NULL));
}

static int sibling_child(void *arg)
{
	pid_t target = *(pid_t *)arg;

	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (!ns_caps_all_effective())
		return child_fail("no full capability set in the sibling namespace");
	return expect_write(target, "uid_map", "0 0 1\n", EPERM);
}

static int sibling_writes(void *arg)
{
	struct userns_peer b;
	char line[32];
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(0) || userns_peer_start(&b, 0))
		return child_fail("set up A and B: %m");
	/* A sibling of B: root there with every capability, still refused. */
	rc = ns_run(0, sibling_child, &b.pid);
	if (rc)
		rc = child_fail("sibling: %d", rc);
	/* The refused write left the map unwritten: the parent still can. */
	snprintf(line, sizeof(line), "0 %u 1\n", 0);
	rc |= expect_write(b.pid, "uid_map", line, 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * A writer in a sibling user namespace, even with every capability there, gets EPERM
 * (user_namespaces(7): writer in the namespace or its parent).
 */
TEST(map_write_from_sibling_userns_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(sibling_writes, NULL));
}

static int a_holds_b(void *arg)
{
	struct ns_sync *s = arg;
	struct userns_peer b;
	int rc;

	ns_sync_child_side(s);
	if (ns_unshare_userns_root(0) || userns_peer_start(&b, 0))
		return child_fail("set up A and B: %m");
	if (ns_sync_tell(s, true, &b.pid, sizeof(b.pid)) ||
	    ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		rc = child_fail("grandparent did not answer");
	else
		rc = expect_write(b.pid, "uid_map", "0 0 1\n", 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

static int grandparent_writes(void *arg)
{
	struct ns_sync s;
	char line[32];
	pid_t a, b = 0;
	int rc = 0;

	(void)arg;
	a = ns_clone_synced(ns_clone, 0, &s);
	if (a < 0)
		return child_fail("fork: %m");
	if (a == 0)
		_exit(a_holds_b(&s));
	if (ns_sync_wait(&s, false, &b, sizeof(b), NS_WAIT_MS)) {
		rc = child_fail("A did not start B");
	} else {
		/* Our own id, mapped to root: fine from the parent, not from here. */
		snprintf(line, sizeof(line), "0 %u 1\n", geteuid());
		rc |= expect_write(b, "uid_map", line, EPERM);
		ns_sync_tell(&s, false, NULL, 0);
	}
	if (ns_wait(a, NS_WAIT_MS))
		rc = child_fail("A: its write to B's map after ours failed");
	ns_sync_close(&s);
	return rc;
}

/*
 * A writer two levels up (in the grandparent user namespace) gets EPERM; the parent's write then
 * works (user_namespaces(7)).
 */
TEST(map_write_from_grandparent_userns_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(grandparent_writes, NULL));
}

/* --- what may be mapped ------------------------------------------------- */

static int unmapped_lower(void *arg)
{
	struct userns_report ids;
	struct userns_peer b;
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0) || userns_peer_start(&b, 0))
		return child_fail("set up A and B: %m");
	/* A maps only its 0: its 1 cannot be mapped into B, alone or with 0. */
	rc |= expect_write(b.pid, "uid_map", "0 1 1\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "0 0 1\n1 1 1\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "0 0 2\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "0 0 1\n", 0);
	if (userns_peer_ids(&b, &ids) || ids.uid != 0)
		rc = child_fail("B is not uid 0 after '0 0 1'");
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * Every id on the outside of a map must be mapped in the parent user namespace: else EPERM, even
 * for its root (user_namespaces(7)).
 */
TEST(map_of_id_unmapped_in_parent_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(unmapped_lower, NULL));
}

/* unshare(CLONE_NEWUSER); open the own uid_map with or without CAP_SYS_ADMIN. */
static int target_cap(void *arg)
{
	bool admin_at_open = *(bool *)arg;
	uid_t uid = geteuid();
	char line[32];
	int fd, rc = 0;

	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	/* CAP_SETUID in the target namespace is not what is checked. */
	if (ns_cap_set(CAP_SETUID, CAP_EFFECTIVE, false) ||
	    ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, admin_at_open))
		return child_fail("capset: %m");
	fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open own uid_map: %m");
	/* Then the other way round for the write itself. */
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, !admin_at_open))
		return child_fail("capset: %m");
	if (admin_at_open ? write(fd, line, strlen(line)) != (ssize_t)strlen(line) :
			    write(fd, line, strlen(line)) != -1 || errno != EPERM)
		rc = child_fail("write '0 %u 1', opened %s CAP_SYS_ADMIN: %m, expected %s", uid,
				admin_at_open ? "with" : "without",
				admin_at_open ? "success" : "EPERM");
	close(fd);
	return rc;
}

static int target_caps(void *arg)
{
	bool with = true, without = false;

	(void)arg;
	return ns_run(0, target_cap, &with) | ns_run(0, target_cap, &without);
}

/*
 * Writing a map needs CAP_SYS_ADMIN in the target's user namespace held by the opener of the file:
 * without it EPERM, while CAP_SETUID there is not needed (user_namespaces(7)).
 */
TEST(map_write_needs_opener_cap_sys_admin_in_target)
{
	/*
	 * user_namespaces(7) asks for CAP_SETUID (CAP_SETGID) in the target
	 * namespace; map_write() checks CAP_SYS_ADMIN there, in the opener's
	 * credentials (linux:6708075f104c, 3.9), on every kernel of the matrix.
	 */
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(target_caps, NULL));
}

/* --- setgroups ----------------------------------------------------------- */

static int deny_inherited(void *arg)
{
	struct userns_peer b;
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	/* ns_unshare_userns_root(0) wrote "deny" in A before its gid_map. */
	rc |= expect_read(getpid(), "setgroups", "deny");
	rc |= expect_write(getpid(), "setgroups", "allow", EPERM);
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_read(b.pid, "setgroups", "deny");
	rc |= expect_write(b.pid, "setgroups", "allow", EPERM);
	rc |= expect_write(b.pid, "gid_map", "0 0 1\n", 0);
	rc |= expect_read(b.pid, "setgroups", "deny");
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * "deny" is permanent and a child user namespace starts with its parent's "deny", which cannot be
 * turned back to "allow" (EPERM) (user_namespaces(7)).
 */
TEST(setgroups_deny_inherited_and_permanent)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(deny_inherited, NULL));
}

/* In a new user namespace: open the own setgroups for writing without, then with CAP_SYS_ADMIN. */
static int setgroups_own(void *arg)
{
	int fd;

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SYS_ADMIN: %m");
	fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES) {
		if (fd >= 0)
			close(fd);
		return child_fail("open own setgroups for writing without CAP_SYS_ADMIN: %s, "
				  "expected EACCES", fd >= 0 ? "success" : strerror(errno));
	}
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SYS_ADMIN: %m");
	return expect_write(0, "setgroups", "deny", 0) | expect_read(getpid(), "setgroups", "deny");
}

/* Root of a sibling user namespace, every capability there, opens B's setgroups. */
static int setgroups_sibling(void *arg)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/setgroups", *(pid_t *)arg);
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return child_fail("open %s for writing from a sibling namespace: success, "
				  "expected EACCES", path);
	}
	return errno == EACCES ? 0 : child_fail("open %s from a sibling: %m, expected EACCES",
						path);
}

static int setgroups_admin(void *arg)
{
	struct userns_peer b;
	int rc = 0;

	(void)arg;
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_read(b.pid, "setgroups", "allow");
	if (ns_run(0, setgroups_sibling, &b.pid))
		rc = child_fail("a sibling's root could open B's setgroups for writing");
	/* B's owner in the parent has every capability in B, none of its own. */
	rc |= expect_write(b.pid, "setgroups", "deny", 0);
	rc |= expect_read(b.pid, "setgroups", "deny");
	if (userns_peer_stop(&b))
		rc = 1;
	return rc | ns_run(0, setgroups_own, NULL);
}

/*
 * Writing /proc/PID/setgroups needs CAP_SYS_ADMIN in the namespace of PID: without it opening the
 * file for writing fails (EACCES), inside or from a sibling (user_namespaces(7)).
 *
 * The page names the capability, not the error: proc_setgroups_open()
 * refuses the open with EACCES.  The namespace's owner in the parent has
 * the capability there without any of its own.
 */
TEST(setgroups_write_needs_cap_sys_admin_in_its_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(setgroups_admin, NULL));
}

/* --- the unmapped value -------------------------------------------------- */

static int unmapped_reader(void *arg)
{
	pid_t a = *(pid_t *)arg;
	long ouid;

	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (ns_read_long("/proc/sys/kernel/overflowuid", &ouid))
		return child_fail("overflowuid: %m");
	if (getuid() != (uid_t)ouid || geteuid() != (uid_t)ouid)
		return child_fail("own ids %u/%u in an unmapped namespace, expected %ld",
				  getuid(), geteuid(), ouid);
	/* A's outside id has no mapping here: (uid_t)-1. */
	return expect_read(a, "uid_map", "0 4294967295 1");
}

static int unmapped_shown(void *arg)
{
	struct userns_peer a;
	char line[32];
	int rc;

	(void)arg;
	if (userns_peer_start(&a, 0))
		return child_fail("start A: %m");
	snprintf(line, sizeof(line), "0 %u 1\n", geteuid());
	rc = expect_write(a.pid, "uid_map", line, 0);
	snprintf(line, sizeof(line), "0 %u 1", geteuid());
	rc |= expect_read(a.pid, "uid_map", line);
	if (ns_run(0, unmapped_reader, &a.pid))
		rc = child_fail("reader in an unmapped sibling namespace");
	if (userns_peer_stop(&a))
		rc = 1;
	return rc;
}

/*
 * An id with no mapping in the reader's namespace reads as 4294967295 ((uid_t)-1) in uid_map, and
 * as the overflow uid in credentials (user_namespaces(7)).
 */
TEST(unmapped_id_reads_4294967295_in_maps)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(unmapped_shown, NULL));
}

/* --- projid_map ---------------------------------------------------------- */

static int projid_rules(void *arg)
{
	struct userns_peer b;
	int rc = 0;

	(void)arg;
	if (!ns_caps_none_effective())
		return child_fail("still has capabilities");
	rc |= expect_read(getpid(), "projid_map", "0 0 4294967295");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_read(b.pid, "projid_map", "");
	rc |= expect_write(b.pid, "projid_map", "0 1000 10 junk\n", EINVAL);
	rc |= expect_write(b.pid, "projid_map", "0 1000 10\n", 0);
	rc |= expect_read(b.pid, "projid_map", "0 1000 10");
	rc |= expect_write(b.pid, "projid_map", "0 1000 10\n", EPERM);
	/* Unlike uid_map, none of this needed an id mapping of the writer. */
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * projid_map starts empty, takes one write of project ids mapped in the parent even from a process
 * without capabilities, then EPERM (user_namespaces(7)).
 */
TEST(projid_map_written_once_without_capabilities)
{
	/*
	 * Project ids need no capability (new_idmap_permitted() lets anyone
	 * map them); the parent's projid_map must cover them.
	 */
	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_PROJID_MAP);
	ASSERT_EQ(0, ns_run_unpriv(projid_rules, NULL));
}

static int projid_parent_range(void *arg)
{
	struct userns_peer b;
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	/* A (ours) maps project ids 0-9 to the initial namespace's 1000-1009. */
	rc |= expect_write(0, "projid_map", "0 1000 10\n", 0);
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_write(b.pid, "projid_map", "0 5 10\n", EPERM);
	rc |= expect_write(b.pid, "projid_map", "0 10 1\n", EPERM);
	rc |= expect_write(b.pid, "projid_map", "0 5 5\n", 0);
	rc |= expect_read(b.pid, "projid_map", "0 5 5");
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * The project ids a projid_map maps must have a mapping in the parent user namespace: a range
 * reaching past the parent's map fails with EPERM (user_namespaces(7)).
 */
TEST(projid_map_of_id_unmapped_in_parent_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_PROJID_MAP);
	ASSERT_EQ(0, ns_run_unpriv(projid_parent_range, NULL));
}

/* G, left behind in the parent of A: try B's projid_map once told B's pid; answer the errno. */
static int projid_grandparent(struct ns_sync *s)
{
	pid_t b;
	int err;

	ns_sync_child_side(s);
	if (ns_sync_wait(s, true, &b, sizeof(b), NS_WAIT_MS))
		return child_fail("G: no pid of B");
	err = -ns_write_proc(b, "projid_map", "0 0 1\n");
	return ns_sync_tell(s, true, &err, sizeof(err)) ? child_fail("G: answer: %m") : 0;
}

/* S, a sibling of B (both children of A): root there, B's projid_map refused. */
static int projid_sibling(void *arg)
{
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	return expect_write(*(pid_t *)arg, "projid_map", "0 0 1\n", EPERM);
}

static int projid_writers(void *arg)
{
	struct userns_peer b = { .pid = -1 };
	struct ns_sync s;
	int err, rc = 0;
	pid_t g;

	(void)arg;
	g = ns_clone_synced(ns_clone, 0, &s);
	if (g < 0)
		return child_fail("fork G: %m");
	if (g == 0)
		_exit(projid_grandparent(&s));
	if (ns_unshare_userns_root(0) || userns_peer_start(&b, 0)) {
		rc = child_fail("set up A and B: %m");
		goto out;
	}
	/* A maps project ids 0-9: B's "0 0 1" is mapped in B's parent. */
	rc |= expect_write(0, "projid_map", "0 0 10\n", 0);
	if (ns_sync_tell(&s, false, &b.pid, sizeof(b.pid)) ||
	    ns_sync_wait(&s, false, &err, sizeof(err), NS_WAIT_MS))
		rc = child_fail("G did not answer");
	else if (err != EPERM)
		rc = child_fail("B's projid_map written from B's grandparent: %s, expected EPERM",
				err ? strerror(err) : "success");
	if (ns_run(0, projid_sibling, &b.pid))
		rc = child_fail("from a sibling of B");
	rc |= expect_write(b.pid, "projid_map", "0 0 1\n", 0);
	rc |= expect_read(b.pid, "projid_map", "0 0 1");
out:
	if (b.pid > 0 && userns_peer_stop(&b))
		rc = 1;
	if (ns_wait(g, NS_WAIT_MS))
		rc = child_fail("G failed");
	ns_sync_close(&s);
	return rc;
}

/*
 * projid_map may be written only from the user namespace of the process or its parent: from a
 * sibling or the grandparent EPERM, while the parent's write of the same line works
 * (user_namespaces(7)).
 */
TEST(projid_map_writer_in_own_or_parent_userns_only)
{
	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_PROJID_MAP);
	ASSERT_EQ(0, ns_run_unpriv(projid_writers, NULL));
}

/* --- dumpable ------------------------------------------------------------ */

static int nodump_self(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return child_fail("PR_SET_DUMPABLE 0: %m");
	if (open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC) != -1 || errno != EACCES)
		return child_fail("open own uid_map when not dumpable: %m, expected EACCES");
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return child_fail("PR_SET_DUMPABLE 1: %m");
	return expect_write(0, "uid_map", "0 0 1\n", EPERM) ? 1 : 0;
}

static int nodump_child(void *arg)
{
	struct userns_peer b;
	char line[32], path[64];
	int rc = 0;

	(void)arg;
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	if (userns_peer_nodump(&b))
		rc = child_fail("B cannot make itself non-dumpable");
	snprintf(path, sizeof(path), "/proc/%d/uid_map", b.pid);
	if (open(path, O_WRONLY | O_CLOEXEC) != -1 || errno != EACCES)
		rc = child_fail("open %s of a non-dumpable process: %m, expected EACCES", path);
	if (userns_peer_stop(&b))
		rc = 1;
	/* Control: the same write to a dumpable child works. */
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	snprintf(line, sizeof(line), "0 %u 1\n", geteuid());
	rc |= expect_write(b.pid, "uid_map", line, 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc | ns_run(0, nodump_self, NULL);
}

/*
 * A non-dumpable process's map files belong to root: opening them for writing fails with EACCES,
 * for the process itself and its parent (user_namespaces(7), proc(5)).
 */
TEST(map_of_nondumpable_process_eacces)
{
	/*
	 * The own-id write after PR_SET_DUMPABLE 1 gives EPERM, not success: the
	 * map "0 0 1" names an id (0) that is not the writer's.
	 */
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(nodump_child, NULL));
}

/* --- privileged writers (real root) --------------------------------------- */

static int opener_and_writer(void *arg)
{
	char path[64];
	struct userns_peer b;
	int fd, rc = 0;

	(void)arg;
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", b.pid);
	/* Opened without CAP_SETGID, written with it. */
	if (ns_cap_set(CAP_SETGID, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SETGID: %m");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (ns_cap_set(CAP_SETGID, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SETGID: %m");
	if (fd < 0)
		return child_fail("open %s: %m", path);
	if (write(fd, "0 0 1\n", 6) != -1 || errno != EPERM)
		rc = child_fail("write by a capable writer on a fd opened without CAP_SETGID: "
				"%m, expected EPERM");
	close(fd);
	/* Opened with CAP_SETGID, written without it. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s: %m", path);
	if (ns_cap_set(CAP_SETGID, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SETGID: %m");
	if (write(fd, "0 0 1\n", 6) != -1 || errno != EPERM)
		rc = child_fail("write without CAP_SETGID on a fd opened with it: %m, "
				"expected EPERM");
	/* Both: works, with setgroups still "allow". */
	if (ns_cap_set(CAP_SETGID, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SETGID: %m");
	if (write(fd, "0 0 1\n", 6) != 6)
		rc = child_fail("write with CAP_SETGID in opener and writer: %m");
	close(fd);
	rc |= expect_read(b.pid, "setgroups", "allow");
	/* Too late for "deny" now; writing the value it has is no change. */
	rc |= expect_write(b.pid, "setgroups", "deny", EPERM);
	rc |= expect_read(b.pid, "setgroups", "allow");
	rc |= expect_write(b.pid, "setgroups", "allow", 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * With setgroups "allow", gid_map needs CAP_SETGID in the parent held by opener and writer (else
 * EPERM), and "deny" is refused once gid_map is written (user_namespaces(7)).
 */
TEST(gid_map_under_setgroups_allow_needs_cap_setgid)
{
	NS_NEED_USERNS();
	/*
	 * Needs real root: every user namespace an unprivileged process can make
	 * has setgroups "deny" (its own gid_map needs it), and children inherit it.
	 */
	NS_NEED_REAL_ROOT(!ns_real_root_missing());
	ASSERT_EQ(0, ns_run(0, opener_and_writer, NULL));
}


static int range_without_setuid(void *arg)
{
	struct userns_peer b;
	int rc;

	(void)arg;
	if (ns_cap_set(CAP_SETUID, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SETUID: %m");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc = expect_write(b.pid, "uid_map", "1000 1000 2\n", EPERM);
	if (ns_cap_set(CAP_SETUID, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SETUID: %m");
	rc |= expect_write(b.pid, "uid_map", "1000 1000 2\n", 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * Mapping anything beyond the writer's own single id needs CAP_SETUID in the parent namespace:
 * EPERM without, success with (user_namespaces(7)).
 */
TEST(uid_map_range_needs_cap_setuid)
{
	NS_NEED_REAL_ROOT(!ns_real_root_missing());
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, range_without_setuid, NULL));
}

/* unshare(CLONE_NEWUSER) and write the own map "0 0 1": expect -@err. */
static int own_root_map(void *arg)
{
	int err = *(int *)arg;

	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	return expect_write(0, "uid_map", "0 0 1\n", err);
}

/* Open @path for writing with CAP_SETFCAP @at_open, write @text with it @at_write. */
static int write_setfcap(const char *path, const char *text, bool at_open, bool at_write,
			 int err)
{
	ssize_t n;
	int fd;

	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, at_open))
		return child_fail("capset: %m");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s: %m", path);
	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, at_write)) {
		close(fd);
		return child_fail("capset: %m");
	}
	n = write(fd, text, strlen(text));
	close(fd);
	if (err ? n == -1 && errno == err : n == (ssize_t)strlen(text))
		return 0;
	return child_fail("write '%.*s' to %s, opened %s and written %s CAP_SETFCAP: %s, "
			  "expected %s", (int)strcspn(text, "\n"), text, path,
			  at_open ? "with" : "without", at_write ? "with" : "without",
			  n < 0 ? strerror(errno) : "success", err ? strerror(err) : "success");
}

/*
 * In A (a user namespace whose root is the unprivileged id): A's uid 0 is
 * "the parent's uid 0" for a child B, and root of A, who may otherwise map
 * its own single id, needs CAP_SETFCAP for it.
 */
static int parent_root_needs_setfcap(void *arg)
{
	char path[64];
	struct userns_peer b;
	int rc = 0, err;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SETFCAP: %m");
	/* Created without CAP_SETFCAP: not even its own uid 0 from inside. */
	err = EPERM;
	if (ns_run(0, own_root_map, &err))
		rc = child_fail("own map of A's uid 0 after unshare without CAP_SETFCAP");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	/* The writer's own id, at inside 0 and at inside 1. */
	rc |= expect_write(b.pid, "uid_map", "0 0 1\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "1 0 1\n", EPERM);
	/* Only uid 0 is guarded: gid 0 needs no CAP_SETFCAP. */
	rc |= expect_write(b.pid, "gid_map", "0 0 1\n", 0);
	/* The opener's CAP_SETFCAP counts, not the writer's. */
	snprintf(path, sizeof(path), "/proc/%d/uid_map", b.pid);
	rc |= write_setfcap(path, "0 0 1\n", false, true, EPERM);
	rc |= write_setfcap(path, "1 0 1\n", true, false, 0);
	rc |= expect_read(b.pid, "uid_map", "1 0 1");
	if (userns_peer_stop(&b))
		rc = 1;
	/* Created with CAP_SETFCAP: its own map of A's uid 0 works. */
	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SETFCAP: %m");
	err = 0;
	if (ns_run(0, own_root_map, &err))
		rc = child_fail("own map of A's uid 0 after unshare with CAP_SETFCAP");
	return rc;
}

/* Real root: a CAP_SETUID writer's ranges, and the initial namespace's uid 0. */
static int root_needs_setfcap(void *arg)
{
	struct userns_peer b;
	int rc = 0, err;

	(void)arg;
	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, false))
		return child_fail("clear CAP_SETFCAP: %m");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_write(b.pid, "uid_map", "0 0 2\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "1 0 2\n", EPERM);
	rc |= expect_write(b.pid, "uid_map", "0 1000 2\n", 0);
	if (userns_peer_stop(&b))
		rc = 1;
	err = EPERM;
	if (ns_run(0, own_root_map, &err))
		rc = child_fail("own map of uid 0 after unshare without CAP_SETFCAP");
	if (ns_cap_set(CAP_SETFCAP, CAP_EFFECTIVE, true))
		return child_fail("raise CAP_SETFCAP: %m");
	err = 0;
	if (ns_run(0, own_root_map, &err))
		rc = child_fail("own map of uid 0 after unshare with CAP_SETFCAP");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	rc |= expect_write(b.pid, "uid_map", "0 0 2\n", 0);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * A map of the parent's uid 0 (at any inside id) needs CAP_SETFCAP in the parent held by the
 * opener, or by the creator for its own map; else EPERM (user_namespaces(7), 5.12).
 *
 * linux:db2e718a4798 ("capabilities: require CAP_SETFCAP to map uid 0"):
 * otherwise the namespace's root could write v3 file capabilities that the
 * writer itself could not.  The kernel looks for an extent whose outside
 * (lower) id is 0, whatever its inside id, and only in uid_map.  The page
 * names the writing process; map_write() checks the opener of the file
 * (file_ns_capable()).  Checked one level down in both passes, root of a
 * user namespace A being the parent's uid 0 for A's child; as real root
 * also for ranges and the initial namespace's uid 0.
 */
TEST(map_of_root_needs_cap_setfcap)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(parent_root_needs_setfcap, NULL));
	if (!ns_real_root_missing())
		ASSERT_EQ(0, ns_run(0, root_needs_setfcap, NULL));
}

TEST_HARNESS_MAIN
