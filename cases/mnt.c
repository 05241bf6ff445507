// SPDX-License-Identifier: GPL-2.0
/*
 * Mount namespaces: isolation, the copied mount list, setns(), the
 * privilege needed, and pivot_root versus chroot (mount_namespaces(7),
 * the article's part 1 on mount namespaces).  Propagation is in
 * mnt_propagation.c, less privileged namespaces in mnt_locked.c.
 *
 * Every mount is made in a mount namespace of the test's own, on a tmpfs
 * it mounted there after making all mounts private (fixtures/mnt.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

FIXTURE(mnt) {
	struct mnt_base b;
};

FIXTURE_SETUP(mnt)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
}

FIXTURE_TEARDOWN(mnt)
{
}

/*
 * A mount made in a new mount namespace is not visible outside (mount_namespaces(7), article part
 * 1).
 */
TEST_F(mnt, mount_inside_not_visible_outside)
{
	char a[MNT_PATH_MAX];
	struct mnt_peer p;
	struct stat sa, sb;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "a"));
	mnt_path(a, &self->b, "a");
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, a, NULL, 0));
	/* Inside: stat() sees a new mount; outside, /proc/PID/mountinfo lists it. */
	EXPECT_EQ(1, mnt_peer_do(&p, MNT_OP_IS_MOUNT, a, NULL, 0));
	EXPECT_EQ(1, mnt_info_has(p.pid, a));
	/* Our own view: neither mountinfo nor stat() shows it. */
	EXPECT_EQ(0, mnt_info_has(0, a));
	EXPECT_EQ(0, mnt_is_mountpoint(a));
	ASSERT_EQ(0, stat(a, &sa));
	ASSERT_EQ(0, stat(self->b.dir, &sb));
	EXPECT_EQ(sb.st_dev, sa.st_dev);
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/* An unmount inside a new mount namespace does not affect the outside (mount_namespaces(7)). */
TEST_F(mnt, umount_inside_does_not_affect_outside)
{
	char a[MNT_PATH_MAX], marker[MNT_PATH_MAX];
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "a"));
	mnt_path(a, &self->b, "a");
	mnt_path(marker, &self->b, "a/marker");
	ASSERT_EQ(0, mnt_tmpfs(a, 0));
	ASSERT_EQ(0, mnt_touch(marker));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(1, mnt_peer_do(&p, MNT_OP_EXISTS, marker, NULL, 0));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_UMOUNT, a, NULL, 0));
	/* Gone inside (stat and the peer's mountinfo read from outside)... */
	EXPECT_EQ(0, mnt_peer_do(&p, MNT_OP_IS_MOUNT, a, NULL, 0));
	EXPECT_EQ(0, mnt_peer_do(&p, MNT_OP_EXISTS, marker, NULL, 0));
	EXPECT_EQ(0, mnt_info_has(p.pid, a));
	/* ...still here outside. */
	EXPECT_EQ(1, mnt_info_has(0, a));
	EXPECT_EQ(1, mnt_is_mountpoint(a));
	EXPECT_EQ(0, access(marker, F_OK));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

struct mnt_list {
	struct mnt_info *v;
	int n, cap;
};

static int list_add(const struct mnt_info *mi, void *arg)
{
	struct mnt_list *l = arg;

	if (l->n == l->cap)
		return -ENOSPC;
	l->v[l->n++] = *mi;
	return 0;
}

static int list_read(pid_t pid, struct mnt_list *l)
{
	l->cap = 2048;
	l->n = 0;
	l->v = calloc(l->cap, sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	return mnt_info_each(pid, list_add, l);
}

/* Same mount, apart from its id: where, what, which part, which options. */
static bool same_mount(const struct mnt_info *a, const struct mnt_info *b)
{
	return !strcmp(a->point, b->point) && !strcmp(a->root, b->root) &&
	       !strcmp(a->fstype, b->fstype) && !strcmp(a->source, b->source) &&
	       !strcmp(a->opts, b->opts) && a->major == b->major && a->minor == b->minor;
}

/* Index in @l of the mount with id @id, or -1. */
static int list_index(const struct mnt_list *l, int id)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i].id == id)
			return i;
	return -1;
}

/* Index of @l->v[@i]'s parent in @l, or -1 for a top mount of the list. */
static int parent_index(const struct mnt_list *l, int i)
{
	int p = list_index(l, l->v[i].parent);

	return p == i ? -1 : p;	/* a namespace's root is its own parent */
}

/* Can @b->v[@j] be the copy of @a->v[@i], given the parents' matches? */
static bool copy_of(const struct mnt_list *a, int i, const struct mnt_list *b, int j,
		    const int *match)
{
	int pa = parent_index(a, i), pb = parent_index(b, j);

	if (pa < 0 ? pb >= 0 : pb != match[pa])
		return false;
	return same_mount(&a->v[i], &b->v[j]);
}

/*
 * Match each mount of @a with one of @b that is the same mount mounted on
 * the match of its parent (top mounts with top mounts): the same tree.
 * Parents are matched first, so sweep until nothing more matches.
 * @match[i] is the index in @b, or -1.  Returns how many stay unmatched.
 */
static int match_trees(const struct mnt_list *a, const struct mnt_list *b, int *match)
{
	bool *used = calloc(b->n ? b->n : 1, sizeof(*used));
	bool progress = true;
	int i, j, pa, left = a->n;

	for (i = 0; i < a->n; i++)
		match[i] = -1;
	while (used && progress) {
		progress = false;
		for (i = 0; i < a->n; i++) {
			pa = parent_index(a, i);
			if (match[i] >= 0 || (pa >= 0 && match[pa] < 0))
				continue;
			for (j = 0; j < b->n; j++) {
				if (used[j] || !copy_of(a, i, b, j, match))
					continue;
				match[i] = j;
				used[j] = true;
				progress = true;
				left--;
				break;
			}
		}
	}
	free(used);
	return left;
}

/*
 * The new namespace starts with a copy of the creator's mount list: same mounts, new mount ids
 * (mount_namespaces(7)).
 *
 * The copy is compared as a tree, not line by line: the kernel lists the
 * creator's mounts in the order they were attached (5.10 .. 6.7: the
 * namespace's list; 6.8 on: by mount id, also attach order), while
 * copy_tree() builds the copy by walking the tree depth first.  So where a
 * mount is later made under an early mount point (our tmpfs on /tmp, when
 * /run was mounted after /tmp, as in the QEMU guests), the copy lists it
 * before /run and the creator after.  The test makes that happen on any
 * host: it mounts z before x/y.  mount_namespaces(7) promises a copy of
 * the list, not its order.
 */
TEST_F(mnt, new_ns_starts_with_copy_of_mount_list)
{
	char x[MNT_PATH_MAX], y[MNT_PATH_MAX], z[MNT_PATH_MAX], later[MNT_PATH_MAX];
	char marker[MNT_PATH_MAX];
	struct mnt_list mine, theirs;
	struct mnt_peer p;
	int i, *match, same_ids = 0;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "x"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "z"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "later"));
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(x, &self->b, "x"), 0));
	/* z before x/y: our list and the copy's list x, y, z in other orders. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(z, &self->b, "z"), MS_RDONLY));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "x/y"));
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(y, &self->b, "x/y"), MS_NOSUID));
	ASSERT_EQ(0, mnt_touch(mnt_path(marker, &self->b, "x/y/marker")));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, list_read(0, &mine));
	ASSERT_EQ(0, list_read(p.pid, &theirs));
	ASSERT_EQ(mine.n, theirs.n);
	match = calloc(mine.n ? mine.n : 1, sizeof(*match));
	ASSERT_NE(NULL, match);
	/* Every mount of ours has its copy, on the copy of its parent. */
	EXPECT_EQ(0, match_trees(&mine, &theirs, match));
	for (i = 0; i < mine.n; i++) {
		if (match[i] < 0) {
			TH_LOG("no copy of mount %d: %s (%s, %s)", mine.v[i].id,
			       mine.v[i].point, mine.v[i].fstype, mine.v[i].opts);
			continue;
		}
		same_ids += mine.v[i].id == theirs.v[match[i]].id;
	}
	/* Copies, not the same mounts: no mount id is shared. */
	EXPECT_EQ(0, same_ids);
	EXPECT_EQ(1, mnt_info_has(p.pid, z));
	/* The copy shows the same file systems (same superblocks). */
	EXPECT_EQ(1, mnt_peer_do(&p, MNT_OP_EXISTS, marker, NULL, 0));
	/* A copy taken at creation: a later mount of ours is not in it. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_path(later, &self->b, "later"), 0));
	EXPECT_EQ(0, mnt_info_has(p.pid, later));
	EXPECT_EQ(0, mnt_peer_stop(&p));
	free(match);
	free(mine.v);
	free(theirs.v);
}

static int stat_same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * setns() into another mount namespace gives the joiner that namespace's mounts (setns(2),
 * mount_namespaces(7)).
 */
TEST_F(mnt, setns_joins_peer_mount_view)
{
	struct ns_ident peer_id, mine;
	char s[MNT_PATH_MAX];
	struct mnt_peer p;
	int fd;

	NS_NEED_NOT_CHROOTED();
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s"));
	mnt_path(s, &self->b, "s");
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, s, NULL, 0));
	ASSERT_EQ(0, mnt_is_mountpoint(s));
	ASSERT_EQ(0, ns_ident_of(p.pid, "mnt", &peer_id));
	fd = ns_open(p.pid, "mnt");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setns(fd, CLONE_NEWNS));
	close(fd);
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &mine));
	EXPECT_TRUE(ns_ident_eq(&peer_id, &mine));
	/* Now we see the peer's mount, by stat() and in our own mountinfo. */
	EXPECT_EQ(1, mnt_is_mountpoint(s));
	EXPECT_EQ(1, mnt_info_has(0, s));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/* Give up CAP_SYS_ADMIN (only it, in the root pass); 0 or -1. */
static int drop_sys_admin(void)
{
	return ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, false) ||
	       ns_cap_set(CAP_SYS_ADMIN, CAP_PERMITTED, false) || ns_have_sys_admin() ? -1 : 0;
}

static int newns_refused(void *arg)
{
	struct ns_ident before, after;
	pid_t pid;

	(void)arg;
	if (drop_sys_admin())
		return child_fail("cannot drop CAP_SYS_ADMIN: %m");
	if (ns_ident_of(0, "mnt", &before))
		return child_fail("ns_ident_of: %m");
	if (!unshare(CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWNS) without CAP_SYS_ADMIN succeeded");
	if (errno != EPERM)
		return child_fail("unshare(CLONE_NEWNS): %m, expected EPERM");
	pid = ns_clone(CLONE_NEWNS);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("clone(CLONE_NEWNS) without CAP_SYS_ADMIN succeeded");
	}
	if (errno != EPERM)
		return child_fail("clone(CLONE_NEWNS): %m, expected EPERM");
	if (ns_ident_of(0, "mnt", &after) || !ns_ident_eq(&before, &after))
		return child_fail("our mount namespace changed after a refused unshare()");
	return 0;
}

/* Creating a mount namespace without CAP_SYS_ADMIN fails with EPERM (unshare(2), clone(2)). */
TEST(newns_without_cap_sys_admin_is_eperm)
{
	ASSERT_EQ(0, ns_run(0, newns_refused, NULL));
}

static int newns_in_own_userns(void *arg)
{
	struct ns_ident user, owner, before, after;
	struct stat st;
	int fd, ufd;

	(void)arg;
	if (drop_sys_admin())
		return child_fail("cannot drop CAP_SYS_ADMIN: %m");
	if (ns_unshare_userns_root(0))
		return child_fail("cannot make a user namespace: %m");
	if (!ns_have_sys_admin())
		return child_fail("no CAP_SYS_ADMIN in our own user namespace");
	if (ns_ident_of(0, "mnt", &before) || ns_ident_of(0, "user", &user))
		return child_fail("ns_ident_of: %m");
	if (unshare(CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWNS) with CAP_SYS_ADMIN in our user ns: %m");
	if (ns_ident_of(0, "mnt", &after) || ns_ident_eq(&before, &after))
		return child_fail("unshare(CLONE_NEWNS) did not make a new mount namespace");
	/* The new mount namespace is owned by the caller's user namespace. */
	fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	ufd = fd < 0 ? -1 : ioctl(fd, NS_GET_USERNS);
	if (ufd < 0 || fstat(ufd, &st))
		return child_fail("NS_GET_USERNS: %m");
	owner.dev = st.st_dev;
	owner.ino = st.st_ino;
	if (!ns_ident_eq(&owner, &user))
		return child_fail("the new mount namespace is not owned by our user namespace");
	return 0;
}

/*
 * CAP_SYS_ADMIN in the caller's own user namespace is enough, and that user namespace owns the new
 * mount namespace (user_namespaces(7), ioctl_ns(2)).
 */
TEST(newns_with_cap_sys_admin_in_own_userns)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, newns_in_own_userns, NULL));
}

/* Climb out of a chroot: chroot into a subdirectory, keep the cwd, walk "..". */
static int chroot_escape(void)
{
	int i;

	if (mkdir("/escape", 0755) && errno != EEXIST)
		return -1;
	if (chroot("/escape"))
		return -1;
	for (i = 0; i < 64; i++)
		if (chdir(".."))
			return -1;
	return chroot(".") || chdir("/") ? -1 : 0;
}

struct jail {
	struct ns_sync sync;
	char dir[MNT_PATH_MAX];
	struct stat outside;	/* "/" before anything */
};

static int jailed_child(struct jail *j)
{
	struct stat st;

	ns_sync_child_side(&j->sync);
	if (chroot(j->dir) || chdir("/"))
		return child_fail("chroot(%s): %m", j->dir);
	if (access("/JAIL", F_OK))
		return child_fail("not in the jail after chroot()");
	if (ns_sync_tell(&j->sync, true, NULL, 0) ||
	    ns_sync_wait(&j->sync, true, NULL, 0, NS_WAIT_MS))
		return child_fail("sync");
	if (chroot_escape())
		return child_fail("escape attempt: %m");
	if (stat("/", &st) || !stat_same(&st, &j->outside))
		return child_fail("still jailed after the escape");
	if (ns_sync_tell(&j->sync, true, NULL, 0) ||
	    ns_sync_wait(&j->sync, true, NULL, 0, NS_WAIT_MS))
		return child_fail("sync");
	return 0;
}

/*
 * chroot() alone can be escaped by a privileged process (article part 1: mount namespaces are "more
 * secure than chroot").
 */
TEST_F(mnt, chroot_jail_escaped_by_privileged_process)
{
	struct stat root_of_child, jail_root;
	char marker[MNT_PATH_MAX], proc_root[64];
	struct jail j;
	pid_t pid;

	NS_NEED_NOT_CHROOTED();
	ASSERT_EQ(0, mnt_mkdir(&self->b, "jail"));
	mnt_path(j.dir, &self->b, "jail");
	ASSERT_EQ(0, mnt_touch(mnt_path(marker, &self->b, "jail/JAIL")));
	ASSERT_EQ(0, stat("/", &j.outside));
	ASSERT_EQ(0, stat(j.dir, &jail_root));
	pid = ns_clone_synced(ns_clone, 0, &j.sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(jailed_child(&j));
	snprintf(proc_root, sizeof(proc_root), "/proc/%d/root", pid);
	/* From outside: the child's root is the jail, then ours again. */
	EXPECT_EQ(0, ns_sync_wait(&j.sync, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, stat(proc_root, &root_of_child));
	EXPECT_TRUE(stat_same(&root_of_child, &jail_root));
	EXPECT_EQ(0, ns_sync_tell(&j.sync, false, NULL, 0));
	EXPECT_EQ(0, ns_sync_wait(&j.sync, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, stat(proc_root, &root_of_child));
	EXPECT_TRUE(stat_same(&root_of_child, &j.outside));
	EXPECT_EQ(0, ns_sync_tell(&j.sync, false, NULL, 0));
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&j.sync);
}

struct pivot {
	struct ns_sync sync;
	const struct mnt_base *b;
	char newroot[MNT_PATH_MAX];
	struct stat outside;	/* "/" before the pivot */
};

/*
 * Make the new root: a tmpfs holding /old and /NEWROOT.  Where "/" is the
 * initramfs rootfs, which pivot_root(2) cannot move, pivot from a chroot
 * into the base tmpfs instead.
 */
static int pivot_prepare(const struct pivot *pv, char *newroot, char *old)
{
	char marker[MNT_PATH_MAX + 16];
	struct mnt_info mi;

	snprintf(newroot, MNT_PATH_MAX, "%s", pv->newroot);
	if (!mnt_info_find(0, "/", &mi) && !strcmp(mi.fstype, "rootfs")) {
		if (chroot(pv->b->dir) || chdir("/"))
			return -1;
		snprintf(newroot, MNT_PATH_MAX, "/newroot");
	}
	if (mnt_tmpfs(newroot, 0))
		return -1;
	snprintf(old, MNT_PATH_MAX + 16, "%s/old", newroot);
	snprintf(marker, sizeof(marker), "%s/NEWROOT", newroot);
	return mkdir(old, 0755) || mnt_touch(marker) ? -1 : 0;
}

static int pivoted_child(struct pivot *pv)
{
	char newroot[MNT_PATH_MAX], old[MNT_PATH_MAX + 16];
	struct stat root, st;

	ns_sync_child_side(&pv->sync);
	if (pivot_prepare(pv, newroot, old))
		return child_fail("preparing the new root: %m");
	if (syscall(SYS_pivot_root, newroot, old) || chdir("/"))
		return child_fail("pivot_root(%s, %s): %m", newroot, old);
	if (access("/NEWROOT", F_OK) || stat("/", &root))
		return child_fail("\"/\" is not the new root after pivot_root()");
	if (umount2("/old", MNT_DETACH))
		return child_fail("umount2(/old, MNT_DETACH): %m");
	if (mnt_is_mountpoint("/old") != 0)
		return child_fail("/old is still a mount after detaching it");
	/* The escape that works after chroot() must lead nowhere now. */
	if (chroot_escape())
		return child_fail("escape attempt: %m");
	if (stat("/", &st) || !stat_same(&st, &root) || stat_same(&st, &pv->outside) ||
	    access("/NEWROOT", F_OK))
		return child_fail("the escape left the pivoted root");
	if (ns_sync_tell(&pv->sync, true, NULL, 0) ||
	    ns_sync_wait(&pv->sync, true, NULL, 0, NS_WAIT_MS))
		return child_fail("sync");
	return 0;
}

/*
 * After pivot_root and detaching the old root, the old root cannot be reached, not even by the
 * chroot escape (article part 1, pivot_root(2)).
 */
TEST_F(mnt, pivot_root_old_root_unreachable)
{
	char proc_path[96];
	struct mnt_info mi;
	struct pivot pv;
	pid_t pid;

	NS_NEED_NOT_CHROOTED();
	ASSERT_EQ(0, mnt_mkdir(&self->b, "newroot"));
	mnt_path(pv.newroot, &self->b, "newroot");
	pv.b = &self->b;
	ASSERT_EQ(0, stat("/", &pv.outside));
	pid = ns_clone_synced(ns_clone, CLONE_NEWNS, &pv.sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(pivoted_child(&pv));
	EXPECT_EQ(0, ns_same_as_self(pid, "mnt"));
	ASSERT_EQ(0, ns_sync_wait(&pv.sync, false, NULL, 0, NS_WAIT_MS));
	/* From outside: the child's namespace holds just its new root... */
	EXPECT_EQ(1, mnt_info_count(pid));
	EXPECT_EQ(0, mnt_info_find(pid, "/", &mi));
	EXPECT_STREQ("tmpfs", mi.fstype);
	snprintf(proc_path, sizeof(proc_path), "/proc/%d/root/NEWROOT", pid);
	EXPECT_EQ(0, access(proc_path, F_OK));
	/* ...and our root and mounts are as they were. */
	EXPECT_EQ(1, mnt_info_has(0, self->b.dir));
	EXPECT_EQ(0, mnt_is_mountpoint(pv.newroot));
	EXPECT_EQ(0, ns_sync_tell(&pv.sync, false, NULL, 0));
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&pv.sync);
}

/* @dir/@file (a /proc/PID directory) into @buf, NUL-terminated; bytes or -errno. */
static int proc_view(const char *dir, const char *file, char *buf, size_t len)
{
	char path[MNT_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return ns_read_file(path, buf, len);
}

/*
 * /proc/PID/mounts and /proc/PID/mountstats show the mounts of PID's mount namespace: a mount made
 * in another namespace is listed there and not in ours (mount_namespaces(7), proc(5)).
 */
TEST_F(mnt, proc_mounts_and_mountstats_follow_the_pids_namespace)
{
	static char buf[1 << 16];
	char a[MNT_PATH_MAX], in_mounts[MNT_PATH_MAX + 16], in_stats[MNT_PATH_MAX + 32];
	char peer[32];
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "a"));
	mnt_path(a, &self->b, "a");
	snprintf(in_mounts, sizeof(in_mounts), " %s tmpfs ", a);
	snprintf(in_stats, sizeof(in_stats), " mounted on %s with fstype tmpfs", a);
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, a, NULL, 0));
	snprintf(peer, sizeof(peer), "/proc/%d", p.pid);
	ASSERT_LT(0, proc_view(peer, "mounts", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, in_mounts));
	ASSERT_LT(0, proc_view(peer, "mountstats", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, in_stats));
	ASSERT_LT(0, proc_view("/proc/self", "mounts", buf, sizeof(buf)));
	EXPECT_EQ(NULL, strstr(buf, in_mounts));
	ASSERT_LT(0, proc_view("/proc/self", "mountstats", buf, sizeof(buf)));
	EXPECT_EQ(NULL, strstr(buf, in_stats));
	/* The other way round: ours shows in ours only. */
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_UMOUNT, a, NULL, 0));
	ASSERT_EQ(0, mnt_tmpfs(a, 0));
	ASSERT_LT(0, proc_view("/proc/self", "mountstats", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, in_stats));
	ASSERT_LT(0, proc_view(peer, "mounts", buf, sizeof(buf)));
	EXPECT_EQ(NULL, strstr(buf, in_mounts));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

TEST_HARNESS_MAIN
