// SPDX-License-Identifier: GPL-2.0
/*
 * Idmapped mounts: mount_setattr(2) with MOUNT_ATTR_IDMAP and a user
 * namespace fd (5.12; tmpfs since 6.3).  Ownership read through the mount
 * is mapped by that namespace, writes are recorded with the ids mapped
 * back, and the rules on which mounts and which user namespaces may be
 * used (mount_setattr(2) "Idmapped mounts", ERRORS; linux:9caccd41541a
 * ("fs: introduce MOUNT_ATTR_IDMAP"), linux:7a80e5b8c6fa ("shmem: support
 * idmapped mounts for tmpfs")).
 *
 * Unless a test needs real root, everything runs in a child that gave up
 * every privilege (ns_run_unpriv()), made a user namespace U1 mapping
 * only that id, a private mount namespace and a tmpfs on /tmp owned by U1,
 * with /tmp/src/file owned by U1's root.  U2, a child of U1 held by
 * userns_hold(), maps its 5 to U1's 0 and is the idmapping.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "mnt.h"
#include "kselftest_harness.h"

#define SKIP_FOR(rc) do { \
	if ((rc) == NS_CHILD_SKIP) \
		NS_FEATURE_ABSENT_(NS_F_MOUNT_SETATTR); \
} while (0)

struct idm {
	struct userns_holder u2;
	int u2fd;
	int tree;		/* detached clone of /tmp/src */
};

/* A private tmpfs on /tmp with /tmp/src/file and the mount point /tmp/idm. */
static int idm_files(void)
{
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	if (mkdir("/tmp/src", 0777) || chmod("/tmp/src", 0777) || mnt_touch("/tmp/src/file") ||
	    mkdir("/tmp/idm", 0755))
		return child_fail("files on /tmp: %m");
	return 0;
}

/* Set up U1, the tmpfs, U2 (maps @map) and a detached clone of /tmp/src. */
static int idm_setup(struct idm *m, bool in_u1, const char *map)
{
	int err;

	m->u2fd = m->tree = -1;
	m->u2.pid = -1;
	if (in_u1) {
		err = ns_unshare_userns_root(CLONE_NEWNS);
		if (err) {
			errno = -err;
			return child_fail("U1: %m");
		}
	}
	if (idm_files())
		return 1;
	if (userns_hold(&m->u2, CLONE_NEWUSER, map, map))
		return child_fail("U2 with maps '%s'", map);
	m->u2fd = ns_open(m->u2.pid, "user");
	if (m->u2fd < 0)
		return child_fail("open U2's user ns: %s", strerror(-m->u2fd));
	m->tree = ns_open_tree(-100, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (m->tree < 0)
		return errno == ENOSYS ? NS_CHILD_SKIP : child_fail("open_tree(/tmp/src): %m");
	return 0;
}

/* MOUNT_ATTR_IDMAP with @userns_fd on @fd (AT_EMPTY_PATH): 0 or -1, errno. */
static int idmap(int fd, int userns_fd)
{
	struct nsc_mount_attr a = { .attr_set = MOUNT_ATTR_IDMAP, .userns_fd = userns_fd };

	return ns_mount_setattr(fd, "", AT_EMPTY_PATH, &a);
}

/* Idmap m->tree with U2 and attach it at /tmp/idm: 0 or an exit code. */
static int idm_attach(struct idm *m)
{
	if (idmap(m->tree, m->u2fd)) {
		if (errno == ENOSYS)
			return NS_CHILD_SKIP;
		return child_fail("MOUNT_ATTR_IDMAP on a clone of /tmp/src: %m");
	}
	if (ns_attach_tree(m->tree, "/tmp/idm"))
		return child_fail("move_mount to /tmp/idm: %m");
	return 0;
}

static void idm_end(struct idm *m)
{
	if (m->tree >= 0)
		close(m->tree);
	if (m->u2fd >= 0)
		close(m->u2fd);
	if (m->u2.pid > 0)
		userns_release(&m->u2);
}

/* Owner of @path as stat() gives it, with @want_uid/@want_gid. */
static int owner_is(const char *path, uid_t want_uid, gid_t want_gid)
{
	struct stat st;

	if (stat(path, &st))
		return child_fail("stat %s: %m", path);
	if (st.st_uid != want_uid || st.st_gid != want_gid)
		return child_fail("%s owned by %u:%u, expected %u:%u", path, st.st_uid,
				  st.st_gid, want_uid, want_gid);
	return 0;
}

/* --- ownership and writes (U1 with one id) ------------------------------- */

static int read_through(void *arg)
{
	struct mnt_info mi;
	struct idm m;
	long ouid, ogid;
	int rc;

	(void)arg;
	rc = idm_setup(&m, true, "5 0 1\n") ?: idm_attach(&m);
	if (!rc && (ns_read_long("/proc/sys/kernel/overflowuid", &ouid) ||
		    ns_read_long("/proc/sys/kernel/overflowgid", &ogid)))
		rc = child_fail("overflow ids: %m");
	if (!rc) {
		/* U1's 0 is U2's 0, which U2 does not map. */
		rc |= owner_is("/tmp/src/file", 0, 0);
		rc |= owner_is("/tmp/idm/file", ouid, ogid);
		if (mnt_info_find(0, "/tmp/idm", &mi) || !mnt_opt_has(mi.opts, "idmapped"))
			rc = child_fail("/tmp/idm not listed as idmapped in mountinfo");
		if (mnt_info_find(0, "/tmp", &mi) || mnt_opt_has(mi.opts, "idmapped"))
			rc = child_fail("/tmp listed as idmapped");
	}
	idm_end(&m);
	return rc;
}

/*
 * Through an idmapped mount, an owner the idmapping does not map reads as the overflow ids, beside
 * the real owner on the plain mount; mountinfo says "idmapped" (mount_setattr(2)).
 */
TEST(idmapped_mount_maps_ownership_read_through_it)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_TMPFS_IDMAP);
	rc = ns_run_unpriv(read_through, NULL);
	SKIP_FOR(rc);
	ASSERT_EQ(0, rc);
}

static int create_through(void *arg)
{
	struct idm m;
	int rc;

	(void)arg;
	rc = idm_setup(&m, true, "5 0 1\n") ?: idm_attach(&m);
	if (!rc) {
		/* Our fsuid is U2's 5, which is U1's 5: not mapped in U1. */
		if (open("/tmp/idm/new", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) != -1 ||
		    errno != EOVERFLOW)
			rc = child_fail("create through the idmapped mount: %m, "
					"expected EOVERFLOW");
		if (mkdir("/tmp/idm/newdir", 0755) != -1 || errno != EOVERFLOW)
			rc = child_fail("mkdir through the idmapped mount: %m, expected EOVERFLOW");
		if (access("/tmp/src/new", F_OK) == 0)
			rc = child_fail("a refused create left /tmp/src/new");
		if (mnt_touch("/tmp/src/new"))
			rc = child_fail("create on the plain mount: %m");
	}
	idm_end(&m);
	return rc;
}

/*
 * Creating a file through an idmapped mount fails with EOVERFLOW when the caller's fsuid, mapped
 * back through the idmapping, has no id in the filesystem's namespace (mount_setattr(2), 5.12).
 */
TEST(idmapped_mount_create_with_unmappable_fsuid_eoverflow)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_TMPFS_IDMAP);
	rc = ns_run_unpriv(create_through, NULL);
	SKIP_FOR(rc);
	ASSERT_EQ(0, rc);
}

/* --- which user namespaces and mounts -------------------------------------- */

struct errcase {
	int init_fd;		/* the initial user namespace, opened before U1 */
	int sib_fd;		/* a sibling of U1 */
};

static int setattr_errors(void *arg)
{
	const struct errcase *e = arg;
	struct idm m;
	int mntfd, rc;

	rc = idm_setup(&m, true, "5 0 1\n");
	if (rc)
		goto out;
	mntfd = ns_open(0, "mnt");
	/* Not a user namespace: EINVAL; no fd: EBADF. */
	if (idmap(m.tree, mntfd) != -1 || errno != EINVAL)
		rc = child_fail("a mount namespace fd: %m, expected EINVAL");
	if (errno == ENOSYS)
		rc = NS_CHILD_SKIP;
	if (!rc && (idmap(m.tree, 999) != -1 || errno != EBADF))
		rc = child_fail("fd 999 (not open): %m, expected EBADF");
	if (!rc && (idmap(m.tree, e->init_fd) != -1 || errno != EPERM))
		rc = child_fail("the initial user namespace: %m, expected EPERM");
	if (!rc && (idmap(m.tree, e->sib_fd) != -1 || errno != EPERM))
		rc = child_fail("a user namespace we have no capability in: %m, expected EPERM");
	close(mntfd);
	/* The tree is still unmapped: the valid idmapping works now. */
	if (!rc)
		rc = idm_attach(&m);
out:
	idm_end(&m);
	return rc;
}

static int sibling_then_errors(void *arg)
{
	struct userns_holder sib;
	struct errcase e;
	int rc;

	(void)arg;
	e.init_fd = ns_open(0, "user");
	if (userns_hold(&sib, CLONE_NEWUSER, NULL, NULL))
		return child_fail("sibling user namespace");
	e.sib_fd = ns_open(sib.pid, "user");
	rc = ns_run(0, setattr_errors, &e);
	userns_release(&sib);
	return rc;
}

/*
 * MOUNT_ATTR_IDMAP needs a user namespace fd (else EINVAL, EBADF) other than the initial one
 * (EPERM) and one the caller has CAP_SYS_ADMIN in (EPERM) (mount_setattr(2) ERRORS).
 */
TEST(idmap_userns_fd_rules)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	NS_NEED_INITIAL_USERNS();
	NS_NEED(NS_F_TMPFS_IDMAP);
	rc = ns_run_unpriv(sibling_then_errors, NULL);
	SKIP_FOR(rc);
	ASSERT_EQ(0, rc);
}

static int mount_rules(void *arg)
{
	struct idm m;
	int fd, rc;

	(void)arg;
	rc = idm_setup(&m, true, "5 0 1\n");
	if (rc)
		goto out;
	/* An attached mount (here /tmp itself): EINVAL. */
	fd = open("/tmp", O_PATH | O_CLOEXEC);
	if (idmap(fd, m.u2fd) != -1 || errno != EINVAL)
		rc = errno == ENOSYS ? NS_CHILD_SKIP :
		     child_fail("MOUNT_ATTR_IDMAP on an attached mount: %m, expected EINVAL");
	close(fd);
	if (rc)
		goto out;
	rc = idm_attach(&m);
	if (rc)
		goto out;
	/* Already idmapped (now attached too): no second idmapping. */
	fd = ns_open_tree(-100, "/tmp/idm", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd < 0 || idmap(fd, m.u2fd) != -1 || errno != EPERM)
		rc = child_fail("MOUNT_ATTR_IDMAP on a clone of an idmapped mount: %m, "
				"expected EPERM");
	if (fd >= 0)
		close(fd);
	/* A filesystem without idmapping support: ramfs. */
	if (mkdir("/tmp/ramfs", 0755) || mount("nsconform", "/tmp/ramfs", "ramfs", 0, NULL)) {
		rc = child_fail("mount ramfs: %m");
		goto out;
	}
	fd = ns_open_tree(-100, "/tmp/ramfs", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd < 0 || idmap(fd, m.u2fd) != -1 || errno != EINVAL)
		rc = child_fail("MOUNT_ATTR_IDMAP on a ramfs clone: %m, expected EINVAL");
	if (fd >= 0)
		close(fd);
out:
	idm_end(&m);
	return rc;
}

/*
 * Only a detached mount can be idmapped (EINVAL for an attached one), only once (EPERM), and only
 * on a filesystem that supports it (EINVAL for ramfs) (mount_setattr(2) ERRORS).
 */
TEST(idmap_mount_rules)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_TMPFS_IDMAP);
	rc = ns_run_unpriv(mount_rules, NULL);
	SKIP_FOR(rc);
	ASSERT_EQ(0, rc);
}

/* --- a real remapping (real root) ---------------------------------------- */

struct create_as {
	uid_t id;
	const char *path;
	int err;		/* expected errno, 0 for success */
};

static int create_as(void *arg)
{
	const struct create_as *c = arg;
	int fd;

	setfsgid(c->id);
	setfsuid(c->id);
	if ((uid_t)setfsuid(-1) != c->id)
		return child_fail("fsuid not %u", c->id);
	fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	if (c->err ? fd != -1 || errno != c->err : fd < 0)
		return child_fail("create %s as fsuid %u: %s, expected %s", c->path, c->id,
				  fd < 0 ? strerror(errno) : "success",
				  c->err ? strerror(c->err) : "success");
	return 0;
}

static int remap(void *arg)
{
	struct create_as as1000 = { 1000, "/tmp/idm/new", 0 };
	struct create_as as0 = { 0, "/tmp/idm/new0", EOVERFLOW };
	struct userns_peer u2;
	struct idm m;
	int rc;

	(void)arg;
	m.u2fd = m.tree = -1;
	m.u2.pid = -1;
	if (idm_files())
		return 1;
	/* U2 maps 0..9 to 1000..1009; the maps need CAP_SETUID/CAP_SETGID here. */
	if (userns_peer_start(&u2, 0))
		return child_fail("start U2: %m");
	if (ns_write_proc(u2.pid, "uid_map", "0 1000 10\n") ||
	    ns_write_proc(u2.pid, "gid_map", "0 1000 10\n")) {
		userns_peer_stop(&u2);
		return child_fail("U2's maps");
	}
	m.u2fd = ns_open(u2.pid, "user");
	m.tree = ns_open_tree(-100, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	rc = m.tree < 0 ? (errno == ENOSYS ? NS_CHILD_SKIP : child_fail("open_tree: %m")) :
	     idm_attach(&m);
	if (!rc) {
		/* Root's file reads as 1000:1000 through the mount. */
		rc |= owner_is("/tmp/src/file", 0, 0);
		rc |= owner_is("/tmp/idm/file", 1000, 1000);
		/* Written as 1000 through it: recorded as 0 on the filesystem. */
		if (ns_run(0, create_as, &as1000))
			rc = 1;
		rc |= owner_is("/tmp/src/new", 0, 0);
		rc |= owner_is("/tmp/idm/new", 1000, 1000);
		/* fsuid 0 has no id in U2: EOVERFLOW. */
		if (ns_run(0, create_as, &as0))
			rc = 1;
	}
	idm_end(&m);
	if (userns_peer_stop(&u2))
		rc = rc ?: 1;
	return rc;
}

/*
 * Through an idmapped mount, owners read mapped by its user ns (0 -> 1000) and files written there
 * are recorded with the ids mapped back (1000 -> 0) (mount_setattr(2)).
 *
 * Real root: unprivileged, every user namespace maps the one kernel uid we
 * run as, so an idmapping can only give a file its own owner back or the
 * overflow id (the tests above), never another owner.
 */
TEST(idmapped_mount_remaps_owners_and_writes)
{
	const char *why = ns_real_root_missing();

	NS_NEED_USERNS();

	int rc;

	NS_NEED_WHY(why);
	NS_NEED(NS_F_TMPFS_IDMAP);
	rc = ns_run(CLONE_NEWNS, remap, NULL);
	SKIP_FOR(rc);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
