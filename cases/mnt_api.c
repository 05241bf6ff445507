// SPDX-License-Identifier: GPL-2.0
/*
 * Mount namespaces through the new mount API (issue 17, item 5):
 * statmount()/listmount() naming a mount namespace by id (6.11),
 * NS_MNT_GET_NEXT/PREV (6.12), open_tree(OPEN_TREE_NAMESPACE) (7.0),
 * fsmount(FSMOUNT_NAMESPACE) (7.1), clone3(CLONE_EMPTY_MNTNS) (7.1) and
 * proc's pidns= option (6.18).  Every feature is probed (fixtures/core_features.c);
 * UNSHARE_EMPTY_MNTNS is in nsfs_create, NS_MNT_GET_INFO in nsfs_ioctl.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* Which namespaces a caller may see depends on it: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;

static int mntns_id_of_fd(int fd, uint64_t *id)
{
	return ioctl(fd, NS_GET_MNTNS_ID, id) ? -errno : 0;
}

static int mntns_id(pid_t pid, uint64_t *id)
{
	int fd = ns_open(pid, "mnt"), r;

	if (fd < 0)
		return -errno;
	r = mntns_id_of_fd(fd, id);
	close(fd);
	return r;
}

static struct ns_ident test_mnt;

/* In a mount namespace of its own (never the test's), private: a tmpfs on /tmp. */
static int tmpfs_on_tmp(void *arg)
{
	struct ns_ident now;

	(void)arg;
	if (ns_ident_of(0, "mnt", &now) || ns_ident_eq(&now, &test_mnt))
		return child_fail("not in a mount namespace of its own");
	return ns_private_tmp("size=1m");
}

/* The mount of @ns_id whose mount point is /tmp, its fs type "tmpfs": its id, or 0. */
static uint64_t find_tmp_mount(struct __test_metadata *_metadata, uint64_t ns_id)
{
	static struct nsc_statmount sm;
	uint64_t ids[512], found = 0;
	long n = ns_listmount(NSC_LSMT_ROOT, ns_id, 0, ids, 512);

	EXPECT_LT(0, n) TH_LOG("listmount in ns %llu: %s", (unsigned long long)ns_id,
			       strerror(-n));
	for (long i = 0; i < n; i++) {
		int r = ns_statmount(ids[i], ns_id, NSC_STATMOUNT_MNT_POINT |
					NSC_STATMOUNT_FS_TYPE | NSC_STATMOUNT_MNT_NS_ID, &sm);

		if (r)
			continue;
		EXPECT_EQ(ns_id, sm.mnt_ns_id);
		if (!strcmp(sm.str + sm.mnt_point, "/tmp") && !strcmp(sm.str + sm.fs_type, "tmpfs"))
			found = ids[i];
	}
	return found;
}

/*
 * listmount()/statmount() with mnt_ns_id read another mount namespace: its mounts, its id; an
 * unknown id is ENOENT (listmount(2), statmount(2); linux:0a3deb11858a "fs: Allow listmount() in
 * foreign mount namespace", 6.11).
 */
TEST(listmount_statmount_by_mount_ns_id)
{
	NS_NEED_NOT_CHROOTED();
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &test_mnt));
	struct nsc_statmount sm;
	uint64_t mine, theirs, tmp_mnt, ids[512];
	struct ns_holder h;
	long n;

	NS_NEED(NS_F_STATMOUNT);
	NS_NEED(NS_F_MNT_ID_REQ_NS_ID);
	ASSERT_EQ(0, mntns_id(0, &mine));
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWNS, tmpfs_on_tmp, NULL));
	ASSERT_EQ(0, mntns_id(h.pid, &theirs));
	ASSERT_NE(mine, theirs);
	tmp_mnt = find_tmp_mount(_metadata, theirs);
	EXPECT_NE(0, tmp_mnt) TH_LOG("the holder's tmpfs on /tmp is not listed in its namespace");
	/* not one of ours */
	n = ns_listmount(NSC_LSMT_ROOT, 0, 0, ids, 512);
	ASSERT_LT(0, n);
	for (long i = 0; i < n; i++)
		EXPECT_NE(tmp_mnt, ids[i]);
	EXPECT_EQ(-ENOENT, ns_statmount(tmp_mnt, mine, NSC_STATMOUNT_MNT_BASIC, &sm));
	EXPECT_EQ(-ENOENT, ns_listmount(NSC_LSMT_ROOT, ~0ULL - 7, 0, ids, 1));
	/* our own mounts carry our id */
	ASSERT_EQ(0, ns_statmount(ids[0], 0, NSC_STATMOUNT_MNT_NS_ID, &sm));
	EXPECT_EQ(mine, sm.mnt_ns_id);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* Walk from our namespace with @req; 1 when @want was met, ids strictly monotonic. */
static int walk_finds(int req, uint64_t from, uint64_t want, bool *ordered)
{
	int fd = ns_open(0, "mnt"), found = 0;
	uint64_t last = from;

	*ordered = true;
	for (int n = 0; fd >= 0 && n < 100000; n++) {
		struct nsc_mnt_ns_info info = { .size = sizeof(info) };
		int next = ioctl(fd, req, &info);
		uint64_t id = 0;

		close(fd);
		fd = next;
		if (next < 0) {
			if (n == 0 && errno == EPERM)
				return -EPERM;
			if (errno != ENOENT)
				fprintf(stderr, "# walk stopped after %d steps: %s\n", n,
					strerror(errno));
			break;
		}
		if (mntns_id_of_fd(next, &id) || id != info.mnt_ns_id)
			*ordered = false;
		if (req == (int)NS_MNT_GET_NEXT ? id <= last : id >= last)
			*ordered = false;
		last = id;
		found |= id == want;
	}
	if (fd >= 0)
		close(fd);
	return found;
}

/*
 * NS_MNT_GET_NEXT/PREV step through mount namespaces in id order, each fd's NS_MNT_GET_INFO id its
 * own, a new one met exactly once (ioctl_nsfs(2) lacks them; linux:a1d220d9dafa "nsfs: iterate
 * through mount namespaces", 6.12).
 *
 * The walk is for real root in the initial PID namespace (nsrun keeps the
 * case there: NS_CASE_NEEDS_INITIAL_PIDNS); a runner that puts it
 * elsewhere makes the test skip.  The refusal outside is the next test.
 */
TEST(ns_mnt_next_prev_walk_meets_new_namespace)
{
	uint64_t mine, theirs;
	struct ns_holder h;
	bool up_ok, down_ok;
	int up, down;

	NS_NEED(NS_F_NS_MNT_ITER);
	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED_INITIAL_PIDNS();
	ASSERT_EQ(0, mntns_id(0, &mine));
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWNS, NULL, NULL));
	ASSERT_EQ(0, mntns_id(h.pid, &theirs));
	up = walk_finds(NS_MNT_GET_NEXT, mine, theirs, &up_ok);
	down = walk_finds(NS_MNT_GET_PREV, mine, theirs, &down_ok);
	EXPECT_TRUE(up_ok);
	EXPECT_TRUE(down_ok);
	EXPECT_EQ(1, up + down) TH_LOG("ours %llu, theirs %llu: met %d up, %d down",
				       (unsigned long long)mine, (unsigned long long)theirs,
				       up, down);
	EXPECT_EQ(theirs > mine, up);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* What NS_MNT_GET_NEXT and NS_MNT_GET_PREV gave in a child PID namespace: 0 (an fd) or -errno. */
struct walk_outside {
	int next, prev;
};

/* One step from the mount namespace of @fd: the new fd closed, 0; or -errno. */
static int step_once(int fd, int req)
{
	struct nsc_mnt_ns_info info = { .size = sizeof(info) };
	int r = ioctl(fd, req, &info);

	if (r < 0)
		return -errno;
	close(r);
	return 0;
}

/* In a PID namespace of its own (ns_run(CLONE_NEWPID)): one step each way. */
static int walk_outside_worker(void *arg)
{
	struct walk_outside *w = arg;
	int fd;

	if (ns_in_initial_pidns())
		return child_fail("still in the initial PID namespace");
	fd = ns_open(0, "mnt");
	if (fd < 0)
		return child_fail("open ns/mnt: %m");
	w->next = step_once(fd, NS_MNT_GET_NEXT);
	w->prev = step_once(fd, NS_MNT_GET_PREV);
	close(fd);
	return 0;
}

/*
 * Root outside the initial PID namespace is refused NS_MNT_GET_NEXT and NS_MNT_GET_PREV with
 * EPERM (linux:e6b899f08066 "nsfs: tighten permission checks for ns iteration ioctls").
 *
 * linux:e6b899f08066 (7.0, Cc: stable v6.12+; CVE-2026-43403) restricts the
 * walk to may_see_all_namespaces(): CAP_SYS_ADMIN in the initial user and
 * PID namespaces.  The test makes the child PID namespace itself, so the
 * refusal is observed wherever the runner puts the case: real root (all
 * capabilities in the initial user namespace) in a PID namespace of its
 * own, with a newer mount namespace (a holder) and an older one (the
 * initial) to step to.  Before the fix a step succeeds.
 */
TEST(ns_mnt_next_prev_refused_outside_initial_pid_ns)
{
	struct walk_outside *w = ns_shared_page(sizeof(*w));
	struct ns_holder h;

	NS_NEED(NS_F_NS_MNT_ITER);
	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	ASSERT_NE(NULL, w);
	w->next = w->prev = -ENODATA;	/* not reached */
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWNS, NULL, NULL));
	EXPECT_EQ(0, ns_run(CLONE_NEWPID, walk_outside_worker, w));
	EXPECT_EQ(-EPERM, w->next) TH_LOG("NS_MNT_GET_NEXT from a child PID ns: %s",
					  w->next ? strerror(-w->next) : "an fd");
	EXPECT_EQ(-EPERM, w->prev) TH_LOG("NS_MNT_GET_PREV from a child PID ns: %s",
					  w->prev ? strerror(-w->prev) : "an fd");
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* What root of a user namespace got: NS_MNT_GET_INFO's and one step each way, 0 or -errno. */
struct walk_userns_root {
	int info, next, prev;
	uint64_t mine, theirs;	/* its mount namespace's id and the newer one's */
	uint64_t info_id;	/* the id NS_MNT_GET_INFO gave for its own */
};

/* In ns_run(): root of a new user namespace with a mount namespace it owns, and a newer one. */
static int walk_userns_root_worker(void *arg)
{
	struct nsc_mnt_ns_info info = { .size = sizeof(info) };
	struct walk_userns_root *w = arg;
	struct ns_holder h;
	int fd, err;

	err = ns_unshare_userns_root(CLONE_NEWNS);
	if (err) {
		errno = -err;
		return child_fail("root of a user namespace with a mount namespace: %m");
	}
	/* Made after ours, owned by the same user namespace: the next one we may act on. */
	if (ns_holder_start(&h, CLONE_NEWNS, NULL, NULL))
		return child_fail("a holder in a newer mount namespace");
	err = mntns_id(0, &w->mine) ?: mntns_id(h.pid, &w->theirs);
	fd = ns_open(0, "mnt");
	if (!err && fd >= 0) {
		w->info = ioctl(fd, NS_MNT_GET_INFO, &info) ? -errno : 0;
		w->info_id = info.mnt_ns_id;
		w->next = step_once(fd, NS_MNT_GET_NEXT);
		w->prev = step_once(fd, NS_MNT_GET_PREV);
	}
	if (fd >= 0)
		close(fd);
	if (ns_holder_stop(&h) && !err)
		return child_fail("the holder failed");
	if (err || fd < 0)
		return child_fail("the ids or ns/mnt: %s", strerror(err ? -err : -fd));
	return 0;
}

/*
 * Root of a user namespace is refused NS_MNT_GET_NEXT and NS_MNT_GET_PREV with EPERM, even from
 * a mount namespace it owns towards a newer one it owns (linux:e6b899f08066 "nsfs: tighten
 * permission checks for ns iteration ioctls").
 *
 * The fix limits the walk to may_see_all_namespaces(): CAP_SYS_ADMIN in the
 * initial user namespace, from the initial PID namespace.  Before it the
 * walk went to every mount namespace whose user namespace the caller had
 * CAP_SYS_ADMIN in, so its owner, unprivileged, stepped to the newer one;
 * the part of the fix about the PID namespace needs real root (the test
 * above).  Both sides: NS_MNT_GET_INFO on the same fd answers with our
 * namespace's id (only the walk is refused), and the newer namespace is
 * there (its id is greater) for a step to reach.
 */
TEST(ns_mnt_next_prev_refused_to_root_of_user_namespace)
{
	struct walk_userns_root *w = ns_shared_page(sizeof(*w));

	NS_NEED(NS_F_NS_MNT_ITER);
	NS_NEED_USERNS();
	ASSERT_NE(NULL, w);
	w->info = w->next = w->prev = -ENODATA;	/* not reached */
	ASSERT_EQ(0, ns_run(0, walk_userns_root_worker, w));
	EXPECT_EQ(0, w->info) TH_LOG("NS_MNT_GET_INFO on our own: %s", strerror(-w->info));
	EXPECT_EQ(w->mine, w->info_id);
	EXPECT_LT(w->mine, w->theirs);
	EXPECT_EQ(-EPERM, w->next) TH_LOG("NS_MNT_GET_NEXT as root of a user ns: %s",
					  w->next ? strerror(-w->next) : "an fd");
	EXPECT_EQ(-EPERM, w->prev) TH_LOG("NS_MNT_GET_PREV as root of a user ns: %s",
					  w->prev ? strerror(-w->prev) : "an fd");
}

/* After setns() into @nsfd: the root holds @marker (NULL: is empty), is tmpfs if @tmpfs. */
static int enter_and_look(int nsfd, uint64_t old_id, const char *marker, bool tmpfs)
{
	uint64_t id = 0;
	struct statfs sf;
	struct dirent *d;
	int entries = 0;
	DIR *dir;

	if (ioctl(nsfd, NS_GET_NSTYPE) != CLONE_NEWNS)
		return child_fail("the fd is not a mount namespace: %m");
	if (mntns_id_of_fd(nsfd, &id) || id == old_id)
		return child_fail("not a new mount namespace (%llu)", (unsigned long long)id);
	if (setns(nsfd, CLONE_NEWNS))
		return child_fail("setns: %m");
	if (chdir("/"))
		return child_fail("chdir: %m");
	if (tmpfs && (statfs("/", &sf) || sf.f_type != TMPFS_MAGIC))
		return child_fail("the root is not the tmpfs");
	dir = opendir("/");
	if (!dir)
		return child_fail("opendir /: %m");
	while ((d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			entries++;
	closedir(dir);
	if (marker ? access(marker, F_OK) != 0 : entries != 0)
		return child_fail("the new namespace's root shows %d entries, marker %s", entries,
				  marker ?: "none");
	return 0;
}

static int open_tree_worker(void *arg)
{
	uint64_t mine;
	int fd;

	(void)arg;
	if (tmpfs_on_tmp(NULL) || mntns_id(0, &mine))
		return child_fail("setup");
	if (mknod("/tmp/nsc-marker", S_IFREG | 0600, 0))
		return child_fail("marker: %m");
	fd = ns_open_tree(AT_FDCWD, "/tmp", NSC_OPEN_TREE_NAMESPACE | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open_tree(OPEN_TREE_NAMESPACE): %m");
	return enter_and_look(fd, mine, "/nsc-marker", true);
}

/*
 * open_tree(path, OPEN_TREE_NAMESPACE) returns a new mount namespace whose root is a copy of that
 * tree; setns() enters it (open_tree(2), mount.h; linux:9b8a0ba68246 "mount: add
 * OPEN_TREE_NAMESPACE", 7.0).
 */
TEST(open_tree_namespace_roots_new_ns_at_tree)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &test_mnt));
	NS_NEED(NS_F_OPEN_TREE_NS);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, open_tree_worker, NULL));
}

static int fsmount_worker(void *arg)
{
	uint64_t mine;
	int fs, fd;

	(void)arg;
	if (tmpfs_on_tmp(NULL) || mntns_id(0, &mine))
		return child_fail("setup");
	fs = ns_fsopen("tmpfs", 0);
	if (fs < 0 || ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return child_fail("fsopen/fsconfig tmpfs: %m");
	fd = ns_fsmount(fs, NSC_FSMOUNT_NAMESPACE, 0);
	if (fd < 0)
		return child_fail("fsmount(FSMOUNT_NAMESPACE): %m");
	close(fs);
	return enter_and_look(fd, mine, NULL, true);
}

/*
 * fsmount(FSMOUNT_NAMESPACE) returns a new mount namespace whose root is the new, empty filesystem
 * (fsmount(2) call; the flag only in include/uapi/linux/mount.h, 7.1).
 */
TEST(fsmount_namespace_roots_new_ns_at_new_fs)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &test_mnt));
	NS_NEED(NS_F_FSMOUNT_NS);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, fsmount_worker, NULL));
}

static int count_entries(int dirfd)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return d ? n : -1;
}

/*
 * clone3(CLONE_EMPTY_MNTNS) starts the child in a new mount namespace whose root, its cwd, is
 * empty, as unshare(UNSHARE_EMPTY_MNTNS) does (clone(2) call; the flag only in
 * include/uapi/linux/sched.h, 7.1).
 */
TEST(clone3_empty_mntns_gives_empty_root)
{
	struct ns_ident before;
	char cwd[64];
	pid_t pid;

	NS_NEED(NS_F_CLONE_EMPTY_MNTNS);
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &before));
	pid = ns_clone3(NSC_CLONE_EMPTY_MNTNS | (ns_have_sys_admin() ? 0 : CLONE_NEWUSER));
	ASSERT_LE(0, pid) TH_LOG("clone3: %s", strerror(errno));
	if (pid == 0) {
		struct ns_ident now;
		int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (ns_ident_of(0, "mnt", &now) == 0 && ns_ident_eq(&now, &before))
			_exit(child_fail("still in the parent's mount namespace"));
		if (!getcwd(cwd, sizeof(cwd)) || strcmp(cwd, "/"))
			_exit(child_fail("cwd is not the root"));
		if (fd < 0)
			_exit(child_fail("open /: %m"));
		_exit(count_entries(fd) ? child_fail("the root is not empty") : 0);
	}
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
}

static int pidns_mount_worker(void *arg)
{
	struct ns_holder h;
	struct ns_ident want, got;
	struct stat st;
	int fs, pidns, mnt, rc = 0;

	(void)arg;
	if (ns_holder_start(&h, CLONE_NEWPID, NULL, NULL))
		return child_fail("holder");
	pidns = ns_open(h.pid, "pid");
	fs = ns_fsopen("proc", 0);
	if (pidns < 0 || fs < 0 || ns_ident_of(h.pid, "pid", &want))
		rc = child_fail("fsopen proc / open pid ns: %m");
	else if (ns_fsconfig(fs, NSC_FSCONFIG_SET_FD, "pidns", NULL, pidns) ||
		 ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		rc = child_fail("fsconfig pidns=: %m");
	else if ((mnt = ns_fsmount(fs, 0, 0)) < 0)
		rc = child_fail("fsmount proc: %m");
	else {
		/* pid 1 there is the holder; nothing else lives in its namespace */
		if (fstatat(mnt, "1/ns/pid", &st, 0))
			rc = child_fail("no 1/ns/pid in the new proc: %m");
		got.dev = st.st_dev;
		got.ino = st.st_ino;
		if (!rc && !ns_ident_eq(&want, &got))
			rc = child_fail("pid 1 of that proc is not in the given PID namespace");
		if (!rc && fstatat(mnt, "2", &st, 0) == 0)
			rc = child_fail("that proc shows a pid 2");
		close(mnt);
	}
	close(fs);
	close(pidns);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * A proc instance made with pidns=<fd> shows that PID namespace, not the mounter's (proc(5);
 * linux:fe49652e36bb "procfs: add "pidns" mount option", 6.18).
 */
TEST(proc_pidns_option_shows_that_namespace)
{
	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_PROC_PIDNS);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, pidns_mount_worker, NULL));
}

TEST_HARNESS_MAIN
