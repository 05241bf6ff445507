// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: creation without privilege, ids before and after the
 * maps, capabilities inside and outside (also across execve), the map
 * write rules, ownership of the other namespaces.  user_namespaces(7),
 * capabilities(7), the article's parts 5 and 6 (demo_userns.c,
 * userns_child_exec.c).  setns() and the limits are in user_setns.c, files
 * and credentials over sockets in user_creds.c.
 *
 * Every claim about an unprivileged process is checked in a child that
 * gave up every privilege first (ns_run_unpriv()), so the root pass
 * checks the same thing as the user pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

static void map_line(char *buf, size_t len, unsigned int inside, unsigned int outside)
{
	snprintf(buf, len, "%u %u 1\n", inside, outside);
}

/* Uid: line (real uid) of /proc/@pid/status, as the reader sees it. */
static long status_uid(pid_t pid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nUid:");
	return p ? strtol(p + 5, NULL, 10) : -1;
}

/* --- creation and ids ---------------------------------------------------- */

static int create_userns(void *arg)
{
	struct ns_ident before, after;

	(void)arg;
	if (geteuid() == 0 || !ns_caps_none_effective())
		return child_fail("still privileged (euid %u)", geteuid());
	if (ns_ident_of(0, "user", &before))
		return child_fail("stat own user ns: %m");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) unprivileged: %m");
	if (ns_ident_of(0, "user", &after))
		return child_fail("stat new user ns: %m");
	if (ns_ident_eq(&before, &after))
		return child_fail("unshare(CLONE_NEWUSER) left the user namespace unchanged");
	return 0;
}

/*
 * An unprivileged process (non-zero uid, no capabilities) can create a user namespace
 * (user_namespaces(7), article part 5).
 *
 * Also logs the pass's CapEff before the case creates any namespace.
 */
TEST(unprivileged_process_creates_userns)
{
	char buf[4096], *eff;
	cap_t caps = cap_get_proc();
	char *text = caps ? cap_to_text(caps, NULL) : NULL;

	ASSERT_LE(0, ns_read_file("/proc/self/status", buf, sizeof(buf)));
	eff = strstr(buf, "CapEff:");
	ASSERT_NE(NULL, eff);
	eff[strcspn(eff, "\n")] = '\0';
	TH_LOG("before any namespace: euid %u, %s, libcap: '%s'", geteuid(), eff,
	       text ? text : "?");
	cap_free(text);
	cap_free(caps);
	/* The user pass must really be unprivileged. */
	if (geteuid() != 0)
		ASSERT_TRUE(ns_caps_none_effective());
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(create_userns, NULL));
}

/*
 * A child held in a new user namespace (with the maps @um/@gm, if any) sees
 * itself as @uid/@gid; its parent still sees our uid.
 */
static int ids_inside_and_out(const char *um, const char *gm, uid_t uid, gid_t gid)
{
	struct userns_holder h;
	long seen;
	int rc;

	if (userns_hold(&h, CLONE_NEWUSER, um, gm))
		return child_fail("child in a new user namespace: %m");
	seen = status_uid(h.pid);
	rc = userns_release(&h);
	if (rc)
		return child_fail("holder exited %d", rc);
	if (h.in.uid != uid || h.in.gid != gid)
		return child_fail("ids inside are %u/%u, not %u/%u", h.in.uid, h.in.gid, uid, gid);
	if (seen != (long)getuid())
		return child_fail("parent sees the child's uid as %ld, not %u", seen, getuid());
	return 0;
}

static int ids_before_map(void *arg)
{
	long ouid, ogid;

	(void)arg;
	if (ns_read_long("/proc/sys/kernel/overflowuid", &ouid) ||
	    ns_read_long("/proc/sys/kernel/overflowgid", &ogid))
		return child_fail("read overflowuid/gid: %m");
	return ids_inside_and_out(NULL, NULL, ouid, ogid);
}

/*
 * Before any map is written the ids read as the overflow ids; the parent still sees the real uid
 * (user_namespaces(7), article part 5).
 *
 * The overflow ids are /proc/sys/kernel/overflow[ug]id.
 */
TEST(ids_read_as_overflow_before_map)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(ids_before_map, NULL));
}

static int ids_after_map(void *arg)
{
	char um[32], gm[32];

	(void)arg;
	map_line(um, sizeof(um), 0, geteuid());
	map_line(gm, sizeof(gm), 0, getegid());
	return ids_inside_and_out(um, gm, 0, 0);
}

/*
 * After "0 <uid> 1" is written the process is uid 0 inside; its parent still sees the original uid
 * (user_namespaces(7), article part 5).
 */
TEST(mapped_root_inside_original_uid_outside)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(ids_after_map, NULL));
}

/* --- capabilities -------------------------------------------------------- */

static int full_caps_inside(void *arg)
{
	struct userns_holder h;
	int rc;

	(void)arg;
	if (!ns_caps_none_effective())
		return child_fail("caller is not without capabilities");
	if (userns_hold(&h, CLONE_NEWUSER, NULL, NULL))
		return child_fail("child in a new user namespace: %m");
	rc = userns_release(&h);
	if (rc)
		return child_fail("holder exited %d", rc);
	if (!h.in.caps_all)
		return child_fail("first process lacks permitted/effective capabilities");
	if (!h.in.bound_all)
		return child_fail("first process has a reduced bounding set");
	return 0;
}

/*
 * The first process in a new user namespace has every capability there, permitted and effective
 * (user_namespaces(7), demo_userns.c).
 */
TEST(first_process_has_full_caps_in_new_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(full_caps_inside, NULL));
}

/* In a new user namespace of its own (a child of ours): sethostname() is refused. */
static int sethostname_refused(void *arg)
{
	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (sethostname("intruder", 8) == 0)
		return child_fail("sethostname in the parent's UTS ns succeeded");
	if (errno != EPERM)
		return child_fail("sethostname: %m, expected EPERM");
	return 0;
}

static int try_sethostname_from_child_userns(void *arg)
{
	return ns_run(0, sethostname_refused, arg);
}

/* What a child that changes its "parent" namespace gets. */
struct parent_ns {
	struct ns_ident outer;	/* the test's namespace of that type */
	const char *what;	/* hostname to set, or directory to mount on */
};

/* Never touch the host's namespace, even if the clone lied. */
static int in_own_ns(const struct parent_ns *p, const char *type)
{
	struct ns_ident now;

	if (ns_ident_of(0, type, &now) || ns_ident_eq(&now, &p->outer))
		return child_fail("not in a %s namespace of its own", type);
	return 0;
}

static int uts_of_parent(void *arg)
{
	struct parent_ns *p = arg;
	const char *name = p->what;
	struct utsname u;
	int rc;

	if (in_own_ns(p, "uts"))
		return 1;
	if (sethostname(name, strlen(name)))
		return child_fail("sethostname in own UTS ns: %m");
	rc = try_sethostname_from_child_userns(NULL);
	if (rc)
		return child_fail("child user ns: exit %d", rc);
	if (uname(&u) || strcmp(u.nodename, name))
		return child_fail("hostname changed to '%s'", u.nodename);
	return 0;
}

/*
 * With every capability in a new user ns, a process has none in the parent's: sethostname() there
 * is EPERM (user_namespaces(7)).
 *
 * The parent's UTS namespace is a private one.
 */
TEST(no_caps_in_parent_ns_sethostname_eperm)
{
	char name[64];
	struct parent_ns p = { .what = name };

	NS_NEED_USERNS();
	snprintf(name, sizeof(name), "nsc-user-%d", getpid());
	ASSERT_EQ(0, ns_ident_of(0, "uts", &p.outer));
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWUTS, uts_of_parent, &p));
}

/* In a new user namespace of its own (a child of ours): mount() on @arg is refused. */
static int mount_refused(void *arg)
{
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (mount("none", arg, "tmpfs", 0, NULL) == 0)
		return child_fail("mount in the parent's mount ns succeeded");
	if (errno != EPERM)
		return child_fail("mount: %m, expected EPERM");
	return 0;
}

static int try_mount_from_child_userns(void *arg)
{
	return ns_run(0, mount_refused, arg);
}

static int mnt_of_parent(void *arg)
{
	struct parent_ns *p = arg;
	const char *dir = p->what;
	struct stat before, after;
	int rc;

	if (in_own_ns(p, "mnt"))
		return 1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return child_fail("make / private: %m");
	if (stat(dir, &before))
		return child_fail("stat %s: %m", dir);
	rc = try_mount_from_child_userns((void *)dir);
	if (rc)
		return child_fail("child user ns: exit %d", rc);
	if (stat(dir, &after) || after.st_dev != before.st_dev)
		return child_fail("something was mounted on %s", dir);
	return 0;
}

/*
 * With every capability in a new user ns, a process cannot mount in the parent's mount namespace:
 * EPERM (user_namespaces(7)).
 */
TEST(no_caps_in_parent_ns_mount_eperm)
{
	struct parent_ns p = { .what = "/tmp" };

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &p.outer));
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, mnt_of_parent, &p));
}

struct exec_case {
	const char *uid_map;	/* NULL: leave unmapped */
	uid_t expect_uid;	/* uid the exec'd program must see */
	bool expect_all;	/* every capability (else none) after execve() */
};

static int exec_in_userns(void *arg)
{
	struct exec_case *c = arg;
	unsigned long long all = (1ULL << cap_max_bits()) - 1;
	struct userns_exec got;
	char line[32];

	if (c->uid_map) {
		snprintf(line, sizeof(line), c->uid_map, geteuid());
	}
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (c->uid_map && ns_write_proc(0, "uid_map", line))
		return child_fail("write uid_map '%s'", line);
	if (!ns_caps_all_effective())
		return child_fail("no full capability set before execve");
	if (userns_exec("/proc/self/exe", &got))
		return NS_CHILD_FAIL;
	if (got.uid != c->expect_uid)
		return child_fail("the exec'd program runs as uid %u, expected %u", got.uid,
				  c->expect_uid);
	if (got.eff != (c->expect_all ? all : 0) || got.prm != got.eff)
		return child_fail("the exec'd program has CapEff %llx CapPrm %llx, expected %s",
				  got.eff, got.prm, c->expect_all ? "all" : "none");
	return 0;
}

static int exec_and_check(void *arg)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(exec_in_userns(arg));
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * Capabilities survive execve() as uid 0 in the user namespace (user_namespaces(7),
 * capabilities(7), demo_userns.c).
 */
TEST(caps_kept_across_execve_as_mapped_root)
{
	struct exec_case c = { "0 %u 1\n", 0, true };

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(exec_and_check, &c));
}

/*
 * Capabilities are lost on execve() as a mapped non-zero uid without file capabilities
 * (user_namespaces(7), capabilities(7)).
 *
 * The check follows demo_userns.c.
 */
TEST(caps_lost_across_execve_as_nonzero_uid)
{
	struct exec_case c = { "1000 %u 1\n", 1000, false };

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(exec_and_check, &c));
}

/*
 * Capabilities are lost on execve() while the uid is unmapped, the overflow uid, not 0
 * (user_namespaces(7), article part 5).
 */
TEST(caps_lost_across_execve_unmapped)
{
	struct exec_case c = { NULL, 0, false };
	long ouid;

	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_read_long("/proc/sys/kernel/overflowuid", &ouid));
	c.expect_uid = ouid;
	ASSERT_EQ(0, ns_run_unpriv(exec_and_check, &c));
}

/* --- ownership of the other namespaces ----------------------------------- */

static int hostname_owned_elsewhere(void *arg)
{
	char *name = arg;
	struct utsname u;

	if (ns_unshare_userns_root(CLONE_NEWUTS))
		return child_fail("user + UTS namespace: %m");
	/* Control: the owner's root may set the hostname. */
	if (sethostname(name, strlen(name)))
		return child_fail("sethostname as owner: %m");
	if (ns_unshare_userns_root(0))
		return child_fail("child user namespace: %m");
	if (!ns_caps_all_effective())
		return child_fail("no full capability set in the child user ns");
	if (sethostname("intruder", 8) == 0)
		return child_fail("sethostname on a UTS ns owned by another user ns succeeded");
	if (errno != EPERM)
		return child_fail("sethostname: %m, expected EPERM");
	if (uname(&u) || strcmp(u.nodename, name))
		return child_fail("hostname is '%s', not '%s'", u.nodename, name);
	return 0;
}

/*
 * Every capability in a newer userns does not allow sethostname() in a UTS ns another owns: EPERM
 * (user_namespaces(7), namespaces(7)).
 *
 * Privileged operations on a namespace need the capability in its owning user
 * namespace.
 */
TEST(sethostname_in_uts_owned_by_other_userns_eperm)
{
	char name[64];

	NS_NEED_UNPRIV_USERNS();
	snprintf(name, sizeof(name), "nsc-owner-%d", getpid());
	ASSERT_EQ(0, ns_run_unpriv(hostname_owned_elsewhere, name));
}

/* 0 when NS_GET_USERNS of @pid's @type namespace is @pid's user namespace. */
static int owner_is_own_userns(pid_t pid, const char *type)
{
	struct ns_ident user, owner;
	int fd, ufd, err;

	if (ns_ident_of(pid, "user", &user))
		return child_fail("stat /proc/%d/ns/user: %m", pid);
	fd = ns_open(pid, type);
	if (fd < 0)
		return child_fail("open /proc/%d/ns/%s: %s", pid, type, strerror(-fd));
	ufd = ioctl(fd, NS_GET_USERNS);
	err = errno;
	close(fd);
	if (ufd < 0) {
		errno = err;
		return child_fail("NS_GET_USERNS on %s: %m", type);
	}
	err = ns_ident_of_fd(ufd, &owner);
	close(ufd);
	if (err || !ns_ident_eq(&user, &owner))
		return child_fail("%s namespace is not owned by the process's user namespace",
				  type);
	return 0;
}

static int owner_of_uts(void *arg)
{
	struct userns_holder h;
	struct ns_ident mine, theirs;
	int rc;

	(void)arg;
	if (userns_hold(&h, CLONE_NEWUSER | CLONE_NEWUTS, NULL, NULL))
		return child_fail("child in new user + UTS namespaces failed");
	rc = owner_is_own_userns(h.pid, "uts");
	if (!rc && (ns_ident_of(0, "user", &mine) || ns_ident_of(h.pid, "user", &theirs) ||
		    ns_ident_eq(&mine, &theirs)))
		rc = child_fail("the child's user namespace is the parent's");
	if (userns_release(&h))
		rc = 1;
	return rc;
}

/*
 * ioctl(NS_GET_USERNS) on a namespace returns its owning user namespace: the one its creator was in
 * (ioctl_ns(2), 4.9+).
 */
TEST(ns_get_userns_returns_owner)
{
	NS_NEED(NS_F_NS_GET_USERNS);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(owner_of_uts, NULL));
}

static int owner_uid(void *arg)
{
	struct userns_holder h;
	uid_t owner = 12345, expect = geteuid();
	int fd, rc = 0;

	(void)arg;
	if (userns_hold(&h, CLONE_NEWUSER, NULL, NULL))
		return child_fail("child in a new user namespace failed");
	fd = ns_open(h.pid, "user");
	if (fd < 0 || ioctl(fd, NS_GET_OWNER_UID, &owner))
		rc = child_fail("NS_GET_OWNER_UID: %m");
	else if (owner != expect)
		rc = child_fail("owner uid %u, creator's euid %u", owner, expect);
	if (fd >= 0) {
		/* Only user namespaces have an owner uid. */
		close(fd);
		fd = ns_open(h.pid, "uts");
		if (fd >= 0 && (ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 || errno != EINVAL))
			rc = child_fail("NS_GET_OWNER_UID on a UTS ns: not EINVAL (%m)");
		if (fd >= 0)
			close(fd);
	}
	if (userns_release(&h))
		rc = 1;
	return rc;
}

/*
 * NS_GET_OWNER_UID on a user namespace gives its creator's euid as the caller sees it; EINVAL on
 * other types (ioctl_ns(2), 4.11+).
 */
TEST(ns_get_owner_uid_returns_creator_uid)
{
	NS_NEED(NS_F_NS_GET_OWNER_UID);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(owner_uid, NULL));
}

#define ALL_TYPES (CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | \
		   CLONE_NEWNET | CLONE_NEWNS)

static const char *const other_types[] = { "uts", "ipc", "pid", "net", "mnt" };

static int clone_all(void *arg)
{
	bool check_owner = arg != NULL;
	struct userns_holder h;
	int rc = 0;

	if (userns_hold(&h, ALL_TYPES, NULL, NULL))
		return child_fail("clone(CLONE_NEWUSER | UTS | IPC | PID | NET | NS) "
				  "unprivileged failed");
	if (h.in.pid != 1)
		rc = child_fail("child is pid %d in its pid namespace, not 1", h.in.pid);
	for (size_t i = 0; !rc && i < sizeof(other_types) / sizeof(other_types[0]); i++) {
		if (check_owner)
			rc = owner_is_own_userns(h.pid, other_types[i]);
		else if (ns_same_as_self(h.pid, other_types[i]) != 0)
			rc = child_fail("%s namespace not new", other_types[i]);
	}
	if (!rc && ns_same_as_self(h.pid, "user") != 0)
		rc = child_fail("user namespace not new");
	if (userns_release(&h))
		rc = 1;
	return rc;
}

/*
 * clone(CLONE_NEWUSER with UTS, IPC, PID, NET, NS) succeeds unprivileged, every namespace new
 * (user_namespaces(7), article part 5).
 *
 * The user namespace is created first.
 */
TEST(clone_all_types_with_newuser_unprivileged)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(clone_all, NULL));
}

/*
 * Namespaces created in the same call as CLONE_NEWUSER are owned by the new user ns (NS_GET_USERNS)
 * (user_namespaces(7), ioctl_ns(2)).
 */
TEST(namespaces_cloned_with_newuser_owned_by_it)
{
	NS_NEED(NS_F_NS_GET_USERNS);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(clone_all, "owner"));
}

TEST_HARNESS_MAIN
