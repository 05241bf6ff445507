// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for mount-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the same call on the
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "mnt.h"
#include "nsconform.h"
#include "kselftest_harness.h"


static int move_mount_paths(const char *from, const char *to, unsigned int flags)
{
	return syscall(__NR_move_mount, AT_FDCWD, from, AT_FDCWD, to, flags);
}

/* A bind mount of @src on a new directory @path with propagation @prop (MS_SHARED, ...). */
static int bind_with(const char *src, const char *path, unsigned long prop)
{
	int err;

	if (mkdir(path, 0755))
		return child_fail("mkdir %s: %m", path);
	if (mount(src, path, NULL, MS_BIND, NULL))
		return child_fail("bind %s on %s: %m", src, path);
	err = mnt_set_propagation(path, prop);
	if (err) {
		errno = -err;
		return child_fail("propagation %#lx on %s: %m", prop, path);
	}
	return 0;
}

/* --- MOVE_MOUNT_SET_GROUP ------------------------------------------------- */

static int set_group_worker(void *arg)
{
	struct mnt_info a, b, c;
	int err;

	(void)arg;
	/* The group's source and two targets: one superblock, as the call needs. */
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/a", 0755))
		return child_fail("mkdir /tmp/a: %m");
	err = mnt_tmpfs("/tmp/a", 0);
	if (err)
		return child_fail("tmpfs on /tmp/a: %s", strerror(-err));
	if (bind_with("/tmp/a", "/tmp/b", MS_UNBINDABLE) ||
	    bind_with("/tmp/a", "/tmp/c", MS_PRIVATE))
		return 1;
	err = mnt_set_propagation("/tmp/a", MS_SHARED);
	if (err)
		return child_fail("make /tmp/a shared: %s", strerror(-err));
	/*
	 * The probe: a known flag gets as far as the lookup of a missing
	 * source (ENOENT), an unknown one is EINVAL before it.
	 */
	if (!move_mount_paths("/tmp/nsconform-missing", "/tmp/c", MOVE_MOUNT_SET_GROUP))
		return child_fail("MOVE_MOUNT_SET_GROUP from a missing path succeeded");
	if (errno == EINVAL || errno == ENOSYS)
		return ns_child_lacks(NS_F_MOVE_MOUNT_SET_GROUP);
	if (errno != ENOENT)
		return child_fail("MOVE_MOUNT_SET_GROUP from a missing path: %m, expected ENOENT");
	/* The input the fix leaves alone: a private target joins the group. */
	if (move_mount_paths("/tmp/a", "/tmp/c", MOVE_MOUNT_SET_GROUP))
		return child_fail("MOVE_MOUNT_SET_GROUP onto a private mount: %m");
	a = mnt_info_at(0, "/tmp/a");
	c = mnt_info_at(0, "/tmp/c");
	if (a.shared <= 0 || c.shared != a.shared)
		return child_fail("private target not in the source's peer group: shared:%d "
				  "and shared:%d", a.shared, c.shared);
	/* The input the fix refuses: an unbindable target. */
	if (!move_mount_paths("/tmp/a", "/tmp/b", MOVE_MOUNT_SET_GROUP)) {
		b = mnt_info_at(0, "/tmp/b");
		return child_fail("MOVE_MOUNT_SET_GROUP onto an unbindable mount succeeded "
				  "(now shared:%d, unbindable %d)", b.shared, b.unbindable);
	}
	if (errno != EINVAL)
		return child_fail("MOVE_MOUNT_SET_GROUP onto an unbindable mount: %m, "
				  "expected EINVAL");
	b = mnt_info_at(0, "/tmp/b");
	if (!b.unbindable || b.shared || b.master)
		return child_fail("the refused target changed: unbindable %d shared:%d "
				  "master:%d", b.unbindable, b.shared, b.master);
	return 0;
}

/*
 * move_mount(MOVE_MOUNT_SET_GROUP) sets sharing groups only on private
 * mounts (linux:9ffb14ef61ba "move_mount: allow to add a mount into an
 * existing group", do_set_group()): a private target joins the source's
 * peer group, an unbindable one is refused with EINVAL and stays
 * unbindable (fix "mount: refuse MOVE_MOUNT_SET_GROUP on an unbindable
 * mount", Debian 7.2.11: before it the unbindable mount silently became
 * shared, as the upstream selftests' move_mount_set_group case finds).
 */
TEST(set_group_onto_unbindable_mount_einval)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, set_group_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_SET_GROUP, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- open_tree_attr() and idmappings --------------------------------------- */

static int open_tree_attr(int dfd, const char *path, unsigned int flags,
			  struct nsc_mount_attr *attr)
{
	return syscall(__NR_open_tree_attr, dfd, path, flags, attr, attr ? sizeof(*attr) : 0);
}

static int otattr_worker(void *arg)
{
	struct userns_holder u1 = { .pid = -1 }, u2 = { .pid = -1 };
	struct nsc_mount_attr a = { .attr_set = MOUNT_ATTR_IDMAP };
	int fd1 = -1, fd2 = -1, tree = -1, copy = -1, rc = 1, err;

	(void)arg;
	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("user and mount namespace: %m");
	}
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/src", 0777))
		return child_fail("mkdir /tmp/src: %m");
	tree = open_tree_attr(AT_FDCWD, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC, NULL);
	if (tree < 0) {
		if (errno == ENOSYS)
			return ns_child_lacks(NS_F_OPEN_TREE_ATTR);
		return child_fail("open_tree_attr(OPEN_TREE_CLONE) without attributes: %m");
	}
	if (userns_hold(&u1, CLONE_NEWUSER, "0 0 1\n", "0 0 1\n") ||
	    userns_hold(&u2, CLONE_NEWUSER, "5 0 1\n", "5 0 1\n")) {
		child_fail("two user namespaces to map with");
		goto out;
	}
	fd1 = ns_open(u1.pid, "user");
	fd2 = ns_open(u2.pid, "user");
	if (fd1 < 0 || fd2 < 0) {
		child_fail("open the user namespaces: %s", strerror(-(fd1 < 0 ? fd1 : fd2)));
		goto out;
	}
	a.userns_fd = fd1;
	if (ns_mount_setattr(tree, "", AT_EMPTY_PATH, &a)) {
		child_fail("MOUNT_ATTR_IDMAP on a detached tmpfs tree: %m");
		goto out;
	}
	a.userns_fd = fd2;
	/* The input the fix leaves alone: a clone may take a new idmapping. */
	copy = open_tree_attr(tree, "", AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC, &a);
	if (copy < 0) {
		child_fail("open_tree_attr(OPEN_TREE_CLONE) with a new idmapping: %m");
		goto out;
	}
	/* The input the fix refuses: the same change on the mount itself. */
	err = open_tree_attr(tree, "", AT_EMPTY_PATH | OPEN_TREE_CLOEXEC, &a);
	if (err >= 0) {
		close(err);
		child_fail("open_tree_attr() without OPEN_TREE_CLONE changed the idmapping "
			   "of an idmapped mount");
		goto out;
	}
	if (errno != EPERM) {
		child_fail("open_tree_attr() without OPEN_TREE_CLONE on an idmapped mount: %m, "
			   "expected EPERM");
		goto out;
	}
	/* As mount_setattr() refuses it. */
	if (!ns_mount_setattr(tree, "", AT_EMPTY_PATH, &a) || errno != EPERM) {
		child_fail("mount_setattr() changing an idmapping: %m, expected EPERM");
		goto out;
	}
	rc = 0;
out:
	if (copy >= 0)
		close(copy);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	if (u1.pid > 0)
		userns_release(&u1);
	if (u2.pid > 0)
		userns_release(&u2);
	close(tree);
	return rc;
}

/*
 * The idmapping of an idmapped mount cannot be changed (mount_setattr(2)
 * ERRORS: EPERM "An already idmapped mount was supposed to be idmapped");
 * open_tree_attr() may give a new one only to the copy OPEN_TREE_CLONE
 * makes, and without that flag is refused with EPERM like mount_setattr()
 * (fix "open_tree_attr: do not allow id-mapping changes without
 * OPEN_TREE_CLONE", Debian 6.16.5: before it the detached mount itself
 * took the new idmapping).  Unprivileged: a tmpfs of the test's own user
 * namespace, idmapped to two namespaces it made.
 */
TEST(open_tree_attr_idmap_needs_clone)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	rc = ns_run(0, otattr_worker, NULL);
	NS_NEED_FEATURE(NS_F_OPEN_TREE_ATTR, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- listmount() cursor ---------------------------------------------------- */

#define LM_MAX 512

static int listmount_worker(void *arg)
{
	uint64_t ids[LM_MAX], last;
	long n, after_last, after_max;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	n = ns_listmount(NSC_LSMT_ROOT, 0, 0, ids, LM_MAX);
	if (n <= 0 || n >= LM_MAX)
		return child_fail("listmount from the start: %ld (%s), expected 1..%d mounts", n,
				  n < 0 ? strerror(-n) : "", LM_MAX - 1);
	last = ids[n - 1];
	/* The input the fix leaves alone: nothing comes after the largest id listed. */
	after_last = ns_listmount(NSC_LSMT_ROOT, 0, last, ids, LM_MAX);
	if (after_last != 0)
		return child_fail("listmount after the largest id %llu: %ld, expected 0",
				  (unsigned long long)last, after_last);
	/* The input the fix is about: the cursor U64_MAX. */
	after_max = ns_listmount(NSC_LSMT_ROOT, 0, UINT64_MAX, ids, LM_MAX);
	if (after_max != 0)
		return child_fail("listmount after id U64_MAX: %ld%s%s, expected 0 (the %ld "
				  "mounts from the start: the cursor wrapped around)", after_max,
				  after_max < 0 ? " " : "",
				  after_max < 0 ? strerror(-after_max) : "", n);
	return 0;
}

/*
 * listmount() lists the mounts whose ids come after the cursor (param, the
 * last id of the previous call; listmount(2)); after U64_MAX, the largest
 * id there is, nothing comes.  The cursor used to wrap around to 0 and
 * list every mount again, so that a caller paging with the last id it got
 * could loop (fix "listmount: don't wrap around with a U64_MAX cursor",
 * Debian 6.12.117 and 7.3.4).  Both sides: after the largest id listed, 0.
 */
TEST(listmount_after_u64_max_lists_nothing)
{
	int rc;

	NS_NEED(NS_F_STATMOUNT);
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, listmount_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- statmount() outside the caller's root ---------------------------------- */

/* The unique id of the mount at @point in our namespace, or 0. */
static uint64_t mount_id_at(const char *point)
{
	static struct nsc_statmount sm;
	uint64_t ids[LM_MAX];
	long n = ns_listmount(NSC_LSMT_ROOT, 0, 0, ids, LM_MAX), found = 0;

	for (long i = 0; i < n; i++)
		if (!ns_statmount(ids[i], 0, NSC_STATMOUNT_MNT_POINT, &sm) &&
		    !strcmp(sm.str + sm.mnt_point, point))
			found = i + 1;	/* the topmost is listed last */
	return found ? ids[found - 1] : 0;
}

static int statmount_worker(void *arg)
{
	static struct nsc_statmount sm;
	uint64_t outside, inside;
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/jail", 0755))
		return child_fail("mkdir /tmp/jail: %m");
	err = mnt_tmpfs("/tmp/jail", 0);
	if (err)
		return child_fail("tmpfs on /tmp/jail: %s", strerror(-err));
	outside = mount_id_at("/tmp");
	inside = mount_id_at("/tmp/jail");
	if (!outside || !inside)
		return child_fail("no mount id for /tmp (%llu) or /tmp/jail (%llu)",
				  (unsigned long long)outside, (unsigned long long)inside);
	if (chroot("/tmp/jail") || chdir("/"))
		return child_fail("chroot into /tmp/jail: %m");
	if (ns_caps_drop_all())
		return child_fail("drop every capability");
	/* The input the fix leaves alone: a mount below the root answers. */
	err = ns_statmount(inside, 0, NSC_STATMOUNT_MNT_BASIC, &sm);
	if (err)
		return child_fail("statmount of the mount that is our root: %s", strerror(-err));
	/* The input the fix is about: one we cannot reach, without CAP_SYS_ADMIN. */
	err = ns_statmount(outside, 0, NSC_STATMOUNT_MNT_BASIC, &sm);
	if (err != -EPERM)
		return child_fail("statmount of a mount outside our root without CAP_SYS_ADMIN: "
				  "%s, expected EPERM", err ? strerror(-err) : "success");
	return 0;
}

/*
 * statmount() of a mount the caller cannot reach from its root, without
 * CAP_SYS_ADMIN in the mount namespace's user namespace, is refused with
 * EPERM (statmount(2), ERRORS); the mount exists, so ENOENT, which kernels
 * before the fix returned, is wrong (linux:fccbe38a5d06 "statmount: permission check
 * should return EPERM", Debian 6.12.85).  Both sides: the mount that is
 * the caller's root answers.
 */
TEST(statmount_outside_root_without_cap_eperm)
{
	int rc;

	NS_NEED(NS_F_STATMOUNT);
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, statmount_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- open_tree() of an unmounted mount ---------------------------------------- */

static int unmounted_worker(void *arg)
{
	int fd = -1, copy, rc = 1;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mnt_touch("/tmp/nsfile") ||
	    mount("/proc/self/ns/net", "/tmp/nsfile", NULL, MS_BIND, NULL))
		return child_fail("bind /proc/self/ns/net on /tmp/nsfile: %m");
	fd = open("/tmp/nsfile", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /tmp/nsfile O_PATH: %m");
	if (umount2("/tmp/nsfile", MNT_DETACH)) {
		child_fail("umount2 /tmp/nsfile MNT_DETACH: %m");
		goto out;
	}
	/* The input the fix leaves alone: a clone of the ns file's mount alone. */
	copy = ns_open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (copy < 0) {
		if (errno == ENOSYS)
			rc = ns_child_lacks(NS_F_OPEN_TREE);
		else
			child_fail("open_tree(OPEN_TREE_CLONE) of an unmounted ns-file mount: %m");
		goto out;
	}
	close(copy);
	/* The input the fix is about: a recursive copy of the unmounted tree. */
	copy = ns_open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
				AT_RECURSIVE);
	if (copy >= 0) {
		close(copy);
		child_fail("open_tree(OPEN_TREE_CLONE | AT_RECURSIVE) copied an unmounted tree");
		goto out;
	}
	if (errno != EINVAL) {
		child_fail("open_tree(OPEN_TREE_CLONE | AT_RECURSIVE) of an unmounted tree: %m, "
			   "expected EINVAL");
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

/*
 * A mount that has been unmounted is in no mount namespace, and a
 * recursive copy of it is refused with EINVAL (open_tree(2), ERRORS:
 * EINVAL for a mount outside the caller's namespace; fix "namespace: don't
 * copy an unmounted mount tree", Debian 6.1.192, 6.12.113 and 7.2.11:
 * through the exception for namespace files, copy_tree() walked the
 * unmounted tree).  Both sides: the non-recursive clone of the same
 * namespace-file mount, which the exception exists for, still works.
 */
TEST(recursive_clone_of_unmounted_ns_file_mount_einval)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, unmounted_worker, NULL);
	NS_NEED_FEATURE(NS_F_OPEN_TREE, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- statmount() strings not asked for ------------------------------------- */

static int unset_strings_worker(void *arg)
{
	static struct nsc_statmount sm;
	uint64_t id;
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	id = mount_id_at("/tmp");
	if (!id)
		return child_fail("no mount id for /tmp");
	err = ns_statmount(id, 0, NSC_STATMOUNT_FS_TYPE, &sm);
	if (err)
		return child_fail("statmount(STATMOUNT_FS_TYPE) of /tmp: %s", strerror(-err));
	/* The side the fix leaves alone: the string asked for. */
	if (!(sm.mask & NSC_STATMOUNT_FS_TYPE) || strcmp(sm.str + sm.fs_type, "tmpfs"))
		return child_fail("fs_type of /tmp: mask %#llx, \"%s\", expected \"tmpfs\"",
				  (unsigned long long)sm.mask, sm.str + sm.fs_type);
	/* The side the fix is about: the strings not asked for are empty. */
	if (sm.mask & NSC_STATMOUNT_MNT_POINT)
		return child_fail("mnt_point set in the mask without being asked for");
	if (sm.str[sm.mnt_point] || sm.str[sm.mnt_root])
		return child_fail("strings not asked for: mnt_point \"%s\", mnt_root \"%s\", "
				  "expected empty", sm.str + sm.mnt_point, sm.str + sm.mnt_root);
	return 0;
}

/*
 * The offset of a string statmount() was not asked for is 0 and names an
 * empty string, as unset numbers are 0 (statmount(2): a field is valid
 * only when its flag is in mask; linux:e52e97f09fb6 "statmount: let unset
 * strings be empty", Debian 6.12.15: before it offset 0 was the first
 * string returned, so a caller that skipped the mask read the file system
 * type as the mount point).  Both sides: the string asked for is right.
 */
TEST(statmount_strings_not_asked_for_are_empty)
{
	int rc;

	NS_NEED(NS_F_STATMOUNT);
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, unset_strings_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- fsmount() of a kernel-internal file system ----------------------------- */


static int nouser_worker(void *arg)
{
	int fs, mnt;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/x", 0755))
		return child_fail("mkdir /tmp/x: %m");
	/* The side the fix leaves alone: mount(2) refuses pipefs. */
	if (!mount("nsconform", "/tmp/x", "pipefs", 0, NULL))
		return child_fail("mount(2) of pipefs succeeded");
	if (errno != EINVAL)
		return child_fail("mount(2) of pipefs: %m, expected EINVAL");
	fs = ns_fsopen("pipefs", 0);
	if (fs < 0) {
		if (errno == ENOSYS)
			return ns_child_lacks(NS_F_FSOPEN);
		return child_fail("fsopen(\"pipefs\"): %m");
	}
	if (ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		close(fs);
		return child_fail("FSCONFIG_CMD_CREATE for pipefs: %m");
	}
	/* The side the fix is about: fsmount() refuses it too. */
	mnt = ns_fsmount(fs, FSMOUNT_CLOEXEC, 0);
	close(fs);
	if (mnt >= 0) {
		close(mnt);
		return child_fail("fsmount() gave a mount of pipefs, a kernel-internal file "
				  "system mount(2) refuses");
	}
	if (errno != EINVAL)
		return child_fail("fsmount() of pipefs: %m, expected EINVAL");
	return 0;
}

/*
 * A kernel-internal file system (SB_NOUSER: pipefs, sockfs) cannot be
 * mounted: mount(2) refuses it with EINVAL and fsmount(2) does the same
 * (fix "mount: honour SB_NOUSER in the new mount API", Debian 6.1.187 and
 * 6.12.105: before it fsmount() returned a mount of pipefs, which
 * move_mount() could attach).  Both sides: mount(2) refuses pipefs.  Real
 * root only: creating a pipefs superblock needs CAP_SYS_ADMIN in the
 * initial user namespace.
 */
TEST(fsmount_of_kernel_internal_fs_einval)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	rc = ns_run(CLONE_NEWNS, nouser_worker, NULL);
	NS_NEED_FEATURE(NS_F_FSOPEN, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- splice() from mountinfo ------------------------------------------------- */

static int splice_worker(void *arg)
{
	char a[256], b[256];
	int fd, p[2];
	ssize_t n, m;

	(void)arg;
	if (pipe(p))
		return child_fail("pipe: %m");
	/* The side the fix leaves alone: read() gives the table. */
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /proc/self/mountinfo: %m");
	n = read(fd, a, sizeof(a));
	close(fd);
	/* The side the fix is about: splice() gives the same bytes. */
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /proc/self/mountinfo: %m");
	m = splice(fd, NULL, p[1], NULL, sizeof(b), 0);
	close(fd);
	if (m < 0)
		return child_fail("splice from /proc/self/mountinfo: %m");
	if (m != n || read(p[0], b, m) != m || memcmp(a, b, m))
		return child_fail("splice gave %zd bytes, read() %zd, or other bytes", m, n);
	return 0;
}

/*
 * /proc/PID/mountinfo is a file like any other of /proc (proc(5)): splice()
 * from it gives the bytes read() gives (fix "proc mountinfo: make splice
 * available again", Debian 5.10.4: after the seq_file read_iter rework
 * splice() failed with EINVAL).  Both sides: read() of the same file.
 */
TEST(mountinfo_can_be_spliced)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, splice_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- move_mount() of a symbolic link to a mount ----------------------------- */

static int symlink_source_worker(void *arg)
{
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/m", 0755) || mkdir("/tmp/t", 0755) || mkdir("/tmp/u", 0755))
		return child_fail("mkdir: %m");
	err = mnt_tmpfs("/tmp/m", 0);
	if (err)
		return child_fail("tmpfs on /tmp/m: %s", strerror(-err));
	if (symlink("/tmp/m", "/tmp/l"))
		return child_fail("symlink /tmp/l -> /tmp/m: %m");
	/* The input the fix leaves alone: the mount named by its own path. */
	if (move_mount_paths("/tmp/m", "/tmp/u", 0))
		return child_fail("move_mount /tmp/m to /tmp/u: %m");
	if (move_mount_paths("/tmp/u", "/tmp/m", 0))
		return child_fail("move_mount /tmp/u back to /tmp/m: %m");
	/* The flag for the target says nothing about the source: the link itself is no mount. */
	if (!move_mount_paths("/tmp/l", "/tmp/u", MOVE_MOUNT_T_SYMLINKS))
		return child_fail("move_mount from a symlink with MOVE_MOUNT_T_SYMLINKS only "
				  "followed it (the target's lookup flags used for the source)");
	if (errno != EINVAL)
		return child_fail("move_mount from a symlink without MOVE_MOUNT_F_SYMLINKS: %m, "
				  "expected EINVAL");
	/* MOVE_MOUNT_F_SYMLINKS follows it to the mount. */
	if (move_mount_paths("/tmp/l", "/tmp/t", MOVE_MOUNT_F_SYMLINKS))
		return child_fail("move_mount from a symlink to a mount with "
				  "MOVE_MOUNT_F_SYMLINKS: %m, expected success");
	if (mnt_we_see("/tmp/t") != 1 || mnt_we_see("/tmp/m") != 0)
		return child_fail("after the move /tmp/t is a mount %d, /tmp/m %d; expected 1, 0",
				  mnt_we_see("/tmp/t"), mnt_we_see("/tmp/m"));
	return 0;
}

/*
 * move_mount(2) follows a symbolic link in from_pathname with
 * MOVE_MOUNT_F_SYMLINKS and in to_pathname with MOVE_MOUNT_T_SYMLINKS, each
 * flag for its own path (move_mount(2), DESCRIPTION; linux:593d9e4c3d63 "fs:
 * fix incorrect lflags value in the move_mount syscall", Debian 6.16.5:
 * before it the source was looked up with the target's flags, so
 * MOVE_MOUNT_F_SYMLINKS was ignored, EINVAL, and MOVE_MOUNT_T_SYMLINKS
 * followed the source).  Both sides: the mount named by its own path moves.
 */
TEST(move_mount_f_symlinks_follows_the_source)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, symlink_source_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- the copy of an unmounted mount ------------------------------------------- */

/* 1 when something is mounted on the file @path of directory @dir, 0 if not, -1 on error. */
static int file_mounted(const char *dir, const char *path)
{
	struct stat d, f;

	if (stat(dir, &d) || stat(path, &f))
		return -1;
	return d.st_dev != f.st_dev;
}

/*
 * Attach a clone of the ns-file mount @fd on /tmp/s/@name (a shared mount
 * whose peer is /tmp/p), check the peer got its copy, umount the clone and
 * say whether the peer's copy went with it: 0, or 1 after child_fail().
 */
static int clone_attach_umount(int fd, const char *name, const char *what)
{
	char src[64], peer[64];
	int copy, err;

	snprintf(src, sizeof(src), "/tmp/s/%s", name);
	snprintf(peer, sizeof(peer), "/tmp/p/%s", name);
	if (mnt_touch(src))
		return child_fail("create %s: %m", src);
	copy = ns_open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (copy < 0)
		return child_fail("open_tree(OPEN_TREE_CLONE) of %s: %m", what);
	err = syscall(__NR_move_mount, copy, "", AT_FDCWD, src, MOVE_MOUNT_F_EMPTY_PATH);
	close(copy);
	if (err)
		return child_fail("attach the clone of %s on %s: %m", what, src);
	if (file_mounted("/tmp/p", peer) != 1)
		return child_fail("the clone of %s on %s did not propagate to %s", what, src, peer);
	if (umount2(src, 0))
		return child_fail("umount %s: %m", src);
	if (file_mounted("/tmp/p", peer) != 0)
		return child_fail("umount of the clone of %s on %s left its propagated copy on "
				  "%s", what, src, peer);
	return 0;
}

static int unmounted_clone_worker(void *arg)
{
	int fd, err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	/* A shared tmpfs /tmp/s and its peer /tmp/p. */
	if (mkdir("/tmp/s", 0755) || mkdir("/tmp/p", 0755))
		return child_fail("mkdir: %m");
	err = mnt_tmpfs("/tmp/s", 0);
	if (!err)
		err = mnt_set_propagation("/tmp/s", MS_SHARED);
	if (err)
		return child_fail("shared tmpfs on /tmp/s: %s", strerror(-err));
	if (mount("/tmp/s", "/tmp/p", NULL, MS_BIND, NULL))
		return child_fail("bind /tmp/s on /tmp/p: %m");
	if (mnt_touch("/tmp/nsfile") ||
	    mount("/proc/self/ns/net", "/tmp/nsfile", NULL, MS_BIND, NULL))
		return child_fail("bind /proc/self/ns/net on /tmp/nsfile: %m");
	fd = open("/tmp/nsfile", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /tmp/nsfile O_PATH: %m");
	/* The input the fix leaves alone: a clone of a mounted ns-file mount. */
	err = ns_open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (err < 0 && errno == ENOSYS) {
		close(fd);
		return ns_child_lacks(NS_F_OPEN_TREE);
	}
	if (err >= 0)
		close(err);
	if (clone_attach_umount(fd, "a", "a mounted ns-file mount")) {
		close(fd);
		return 1;
	}
	/* The input the fix is about: a clone of the same mount after its umount. */
	if (umount2("/tmp/nsfile", MNT_DETACH)) {
		close(fd);
		return child_fail("umount2 /tmp/nsfile MNT_DETACH: %m");
	}
	err = clone_attach_umount(fd, "b", "an unmounted ns-file mount");
	close(fd);
	return err;
}

/*
 * A clone of a mount is a new mount (open_tree(2) OPEN_TREE_CLONE): the
 * clone of an ns-file mount that was unmounted, attached on a shared
 * mount, propagates to its peers, and its umount takes the peers' copies
 * with it (mount_namespaces(7), "MS_SHARED": umount events propagate to
 * the peers).  The clone inherited the unmounted state (MNT_UMOUNT) of its
 * source, and so did the peers' copies, which the propagated umount then
 * passed over as unmounted already (fix "namespace: don't inherit
 * MNT_UMOUNT in clone_mnt()", Debian 6.1.192, 6.12.115 and 7.2.11).  Both
 * sides: the clone of the same mount while it is mounted.
 */
TEST(umount_of_clone_of_unmounted_mount_propagates)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, unmounted_clone_worker, NULL);
	NS_NEED_FEATURE(NS_F_OPEN_TREE, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- ownership through an idmapped mount ---------------------------------------- */

#define IDM_PAGES 2

/*
 * In a user and mount namespace of its own, a sparse file /tmp/src/f of
 * IDM_PAGES pages, mode 0444, owned by the caller, and /tmp/idm: the same
 * tmpfs idmapped to a user namespace that maps nobody to the caller's uid
 * 0 ("5 0 1"), so that through /tmp/idm the file's owner is unmapped.
 * Then every capability is dropped.  0, or 1 after child_fail().
 */
static int idmapped_file_setup(void)
{
	struct userns_holder u = { .pid = -1 };
	struct nsc_mount_attr a = { .attr_set = MOUNT_ATTR_IDMAP };
	int fd, tree = -1, ufd = -1, rc = 1, err;

	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("user and mount namespace: %m");
	}
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/src", 0755) || mkdir("/tmp/idm", 0755))
		return child_fail("mkdir: %m");
	fd = open("/tmp/src/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0444);
	if (fd < 0 || fchmod(fd, 0444) || ftruncate(fd, IDM_PAGES * getpagesize()))
		return child_fail("create the sparse file /tmp/src/f: %m");
	close(fd);
	tree = ns_open_tree(AT_FDCWD, "/tmp/src", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return child_fail("open_tree(OPEN_TREE_CLONE) of /tmp/src: %m");
	if (userns_hold(&u, CLONE_NEWUSER, "5 0 1\n", "5 0 1\n")) {
		child_fail("a user namespace to map with");
		goto out;
	}
	ufd = ns_open(u.pid, "user");
	if (ufd < 0) {
		child_fail("open the user namespace: %s", strerror(-ufd));
		goto out;
	}
	a.userns_fd = ufd;
	if (ns_mount_setattr(tree, "", AT_EMPTY_PATH, &a)) {
		child_fail("MOUNT_ATTR_IDMAP on a clone of /tmp/src: %m");
		goto out;
	}
	if (syscall(__NR_move_mount, tree, "", AT_FDCWD, "/tmp/idm", MOVE_MOUNT_F_EMPTY_PATH)) {
		child_fail("attach the idmapped clone on /tmp/idm: %m");
		goto out;
	}
	if (ns_caps_drop_all()) {
		child_fail("drop every capability");
		goto out;
	}
	rc = 0;
out:
	if (ufd >= 0)
		close(ufd);
	if (u.pid > 0)
		userns_release(&u);
	close(tree);
	return rc;
}

/* mincore() of a shared read-only mapping of @path: the residency bytes, or -errno. */
static int mincore_of(const char *path, unsigned char *vec)
{
	size_t len = IDM_PAGES * getpagesize();
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	void *p;

	if (fd < 0)
		return -errno;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	if (mincore(p, len, vec))
		err = -errno;
	munmap(p, len);
	return err;
}

static int mincore_idmap_worker(void *arg)
{
	unsigned char own[IDM_PAGES], idm[IDM_PAGES];
	int err;

	(void)arg;
	err = idmapped_file_setup();
	if (err)
		return err;
	/* The input the fix leaves alone: the owner sees the true residency, none. */
	err = mincore_of("/tmp/src/f", own);
	if (err)
		return child_fail("mincore of /tmp/src/f: %s", strerror(-err));
	if (own[0] || own[1])
		return child_fail("mincore of a sparse file its owner mapped: %d %d, expected "
				  "0 0 (nothing in the page cache)", own[0], own[1]);
	/* The input the fix is about: the same file, whose owner the idmapping hides. */
	err = mincore_of("/tmp/idm/f", idm);
	if (err)
		return child_fail("mincore of /tmp/idm/f: %s", strerror(-err));
	if (idm[0] != 1 || idm[1] != 1)
		return child_fail("mincore of a file the caller owns only outside the idmapped "
				  "mount it mapped it from: %d %d, expected 1 1 (the owner check "
				  "ignored the mount's idmapping)", idm[0], idm[1]);
	return 0;
}

/*
 * mincore() reports the true page-cache residency of a file mapping only
 * to the file's owner or to a caller who may write it; to anyone else it
 * reports every page resident (mincore(2), NOTES: "a side channel"; mm/
 * mincore.c can_do_mincore()).  Ownership is the owner seen through the
 * mount the file was mapped from, its idmapping applied (fix "mm: do file
 * ownership checks with the proper mount idmap", Debian 6.1.187 and
 * 6.12.96: before it the inode's raw owner was compared).  Both sides:
 * through the plain mount the owner sees the true residency.
 */
TEST(mincore_owner_check_follows_mount_idmapping)
{
	int rc;

	NS_NEED(NS_F_TMPFS_IDMAP);
	NS_NEED_UNPRIV_USERNS();
	rc = ns_run(0, mincore_idmap_worker, NULL);
	ASSERT_EQ(0, rc);
}

static int setlease_idmap_worker(void *arg)
{
	int fd, err;

	(void)arg;
	err = idmapped_file_setup();
	if (err)
		return err;
	/* The input the fix leaves alone: the owner takes a read lease. */
	fd = open("/tmp/src/f", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /tmp/src/f: %m");
	err = fcntl(fd, F_SETLEASE, F_RDLCK) ? errno : 0;
	close(fd);
	if (err)
		return child_fail("F_SETLEASE F_RDLCK by the owner: %s", strerror(err));
	/* The input the fix is about: through the mount whose idmapping hides the owner. */
	fd = open("/tmp/idm/f", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /tmp/idm/f: %m");
	err = fcntl(fd, F_SETLEASE, F_RDLCK) ? errno : 0;
	close(fd);
	if (err != EACCES)
		return child_fail("F_SETLEASE F_RDLCK on a file the caller owns only outside the "
				  "idmapped mount: %s, expected EACCES",
				  err ? strerror(err) : "a lease");
	return 0;
}

/*
 * F_SETLEASE needs the caller's filesystem UID to match the file's owner,
 * or CAP_LEASE (fcntl(2), "Leases": "a process may take out a lease only
 * on a file whose UID matches the filesystem UID of the process"); the
 * owner is the one seen through the mount of the open file, its idmapping
 * applied, so a file whose owner the idmapping leaves unmapped is refused
 * with EACCES (fix "filelocks: use mount idmapping for setlease permission
 * check", Debian 6.1.20).  Both sides: the owner through the plain mount
 * takes the lease.
 */
TEST(setlease_owner_check_follows_mount_idmapping)
{
	int rc;

	NS_NEED(NS_F_TMPFS_IDMAP);
	NS_NEED_UNPRIV_USERNS();
	rc = ns_run(0, setlease_idmap_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- MOVE_MOUNT_SET_GROUP into a peer group of slaves ---------------------------- */

/* How many mounts /proc/self/mountinfo has on @point; -1 when it cannot be read. */
static int mounts_on(const char *point)
{
	char line[1024], mp[MNT_PATH_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d %*d %*s %*s %4095s", mp) == 1 && !strcmp(mp, point))
			n++;
	fclose(f);
	return n;
}

static int set_group_slave_worker(void *arg)
{
	static const char *const slaves[] = { "/tmp/s1", "/tmp/s2", "/tmp/t" };
	struct mnt_info s1, t;
	char sub[64];
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	/* A shared master /tmp/m; /tmp/s1 its slave and shared; /tmp/s2 a plain slave. */
	if (mkdir("/tmp/m", 0755))
		return child_fail("mkdir /tmp/m: %m");
	err = mnt_tmpfs("/tmp/m", 0);
	if (!err)
		err = mnt_set_propagation("/tmp/m", MS_SHARED);
	if (err)
		return child_fail("shared tmpfs on /tmp/m: %s", strerror(-err));
	if (mkdir("/tmp/m/sub", 0755))
		return child_fail("mkdir /tmp/m/sub: %m");
	if (bind_with("/tmp/m", "/tmp/s1", MS_SLAVE) || bind_with("/tmp/m", "/tmp/s2", MS_SLAVE) ||
	    bind_with("/tmp/m", "/tmp/t", MS_PRIVATE))
		return 1;
	err = mnt_set_propagation("/tmp/s1", MS_SHARED);
	if (err)
		return child_fail("make /tmp/s1 shared: %s", strerror(-err));
	if (!move_mount_paths("/tmp/nsconform-missing", "/tmp/t", MOVE_MOUNT_SET_GROUP))
		return child_fail("MOVE_MOUNT_SET_GROUP from a missing path succeeded");
	if (errno == EINVAL || errno == ENOSYS)
		return ns_child_lacks(NS_F_MOVE_MOUNT_SET_GROUP);
	/* The private /tmp/t joins /tmp/s1's group, a slave of /tmp/m's. */
	if (move_mount_paths("/tmp/s1", "/tmp/t", MOVE_MOUNT_SET_GROUP))
		return child_fail("MOVE_MOUNT_SET_GROUP from /tmp/s1 onto /tmp/t: %m");
	s1 = mnt_info_at(0, "/tmp/s1");
	t = mnt_info_at(0, "/tmp/t");
	if (s1.shared <= 0 || t.shared != s1.shared || t.master != s1.master || !t.master)
		return child_fail("/tmp/t is shared:%d master:%d, /tmp/s1 shared:%d master:%d",
				  t.shared, t.master, s1.shared, s1.master);
	/* A mount on the master reaches each slave once. */
	err = mnt_tmpfs("/tmp/m/sub", 0);
	if (err)
		return child_fail("tmpfs on /tmp/m/sub: %s", strerror(-err));
	for (size_t i = 0; i < sizeof(slaves) / sizeof(slaves[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/sub", slaves[i]);
		err = mounts_on(sub);
		if (err != 1)
			return child_fail("a mount on /tmp/m/sub gave %s %d mounts, expected 1", sub,
					  err);
	}
	return 0;
}

/*
 * A mount that MOVE_MOUNT_SET_GROUP puts into a peer group takes that
 * group's place in the propagation graph, master included (move_mount(2);
 * Documentation/filesystems/sharedsubtree.rst: the members of a peer group
 * have one master and are one run of its slave list), so a mount on the
 * master reaches each slave once (linux:d8cc0362f918 "fix propagation
 * graph breakage by MOVE_MOUNT_SET_GROUP move_mount(2)", Debian 6.1.147
 * and 6.12.35: before it the joined mount went to the head of the master's
 * slave list, the group was walked twice and each member got two copies).
 */
TEST(set_group_into_slave_group_propagates_once)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, set_group_slave_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_SET_GROUP, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- OPEN_TREE_NAMESPACE without privileges over the namespace ------------------ */

static int otns_foreign_worker(void *arg)
{
	int fd, err;

	(void)arg;
	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("user and mount namespace: %m");
	}
	/* /tmp/a, and /tmp/a/b covering the file hidden. */
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/a", 0755) || mnt_tmpfs("/tmp/a", 0) || mkdir("/tmp/a/b", 0755) ||
	    mnt_touch("/tmp/a/b/hidden") || mnt_tmpfs("/tmp/a/b", 0))
		return child_fail("tmpfs on /tmp/a and /tmp/a/b: %m");
	/* The input the fix leaves alone: the owner of the namespace may leave b out. */
	fd = ns_open_tree(AT_FDCWD, "/tmp/a", NSC_OPEN_TREE_NAMESPACE | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open_tree(OPEN_TREE_NAMESPACE) of /tmp/a by the namespace's "
				  "owner: %m");
	close(fd);
	/* The input the fix is about: the same call from a user namespace below. */
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	fd = ns_open_tree(AT_FDCWD, "/tmp/a", NSC_OPEN_TREE_NAMESPACE | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return child_fail("open_tree(OPEN_TREE_NAMESPACE) without AT_RECURSIVE, without "
				  "privileges over the namespace, succeeded: its copy leaves out "
				  "the mount that covers /tmp/a/b/hidden");
	}
	if (errno != EINVAL)
		return child_fail("open_tree(OPEN_TREE_NAMESPACE) of a covered tree without "
				  "privileges over the namespace: %m, expected EINVAL");
	return 0;
}

/*
 * A caller without privileges over a mount namespace cannot reveal what
 * its mounts cover (mount_namespaces(7), "Restrictions on mount
 * namespaces"): open_tree(OPEN_TREE_NAMESPACE) without AT_RECURSIVE of a
 * tree with mounts below is refused with EINVAL for it, as unshare() copies
 * all (fix "namespace: keep covered mounts covered in OPEN_TREE_NAMESPACE",
 * Debian 7.2.11: before it the new namespace showed what the left-out
 * mount covered).  Both sides: the namespace's owner may leave them out.
 */
TEST(open_tree_namespace_keeps_covered_mounts_for_foreign_caller)
{
	int rc;

	NS_NEED(NS_F_OPEN_TREE_NS);
	NS_NEED_UNPRIV_USERNS();
	rc = ns_run(0, otns_foreign_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
