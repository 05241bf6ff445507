// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_ns(2): NS_GET_NSTYPE, NS_GET_PARENT, NS_GET_USERNS,
 * NS_GET_OWNER_UID, and the later additions (pid translation 6.11,
 * NS_GET_MNTNS_ID 6.11, NS_MNT_GET_INFO 6.12, NS_GET_ID 6.18), each probed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* true when the fd @fd names the namespace @type of @pid. */
static bool fd_is_ns_of(int fd, pid_t pid, const char *type)
{
	struct ns_ident id;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || ns_ident_of(pid, type, &id))
		return false;
	return st.st_dev == id.dev && st.st_ino == id.ino;
}

/* ioctl @req on our own @type namespace; -errno on failure. */
static long self_ioctl(const char *type, unsigned long req, unsigned long arg)
{
	int fd = ns_open(0, type);
	long r;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, req, arg);
	if (r < 0)
		r = -errno;
	close(fd);
	return r;
}

/* NS_GET_NSTYPE returns the CLONE_NEW* value of each type (ioctl_ns(2), 4.11). */
TEST(ns_get_nstype_names_each_type)
{
	NS_NEED(NS_F_NS_GET_NSTYPE);
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];

		if (!ns_type_available(t->name))
			continue;
		EXPECT_EQ((long)t->flag, self_ioctl(t->name, NS_GET_NSTYPE, 0))
			TH_LOG("NS_GET_NSTYPE of %s", t->name);
	}
	/* the _for_children files name namespaces of the same types */
	EXPECT_EQ(CLONE_NEWPID, self_ioctl("pid_for_children", NS_GET_NSTYPE, 0));
	if (ns_type_available("time_for_children"))
		EXPECT_EQ(CLONE_NEWTIME, self_ioctl("time_for_children", NS_GET_NSTYPE, 0));
}

/* An nsfs ioctl on a file that is not a namespace fails with ENOTTY (ioctl_ns(2)). */
TEST(ns_ioctl_on_other_file_fails_enotty)
{
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, NS_GET_USERNS));
	EXPECT_EQ(ENOTTY, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, NS_GET_PARENT));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/* Inside the holder: the parents of its own pid and user ns are out of scope. */
static int parent_out_of_scope(void *arg)
{
	(void)arg;
	if (self_ioctl("user", NS_GET_PARENT, 0) != -EPERM)
		return child_fail("NS_GET_PARENT of the own user ns did not fail EPERM");
	if (self_ioctl("pid", NS_GET_PARENT, 0) != -EPERM)
		return child_fail("NS_GET_PARENT of the own pid ns did not fail EPERM");
	return 0;
}

static int get_parent_worker(void *arg)
{
	static const char *const types[] = { "pid", "user" };
	struct ns_holder h;
	int rc = 0;

	(void)arg;
	if (ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWPID, parent_out_of_scope, NULL))
		return child_fail("holder: its own parents were reachable, or no holder");
	for (int i = 0; i < 2 && !rc; i++) {
		int fd = ns_open(h.pid, types[i]);
		int pfd = fd < 0 ? -1 : ioctl(fd, NS_GET_PARENT);

		if (pfd < 0)
			rc = child_fail("NS_GET_PARENT of the child's %s ns: %m", types[i]);
		else if (!fd_is_ns_of(pfd, 0, types[i]))
			rc = child_fail("NS_GET_PARENT of the child's %s ns is not ours",
					types[i]);
		else if (fd_is_ns_of(fd, 0, types[i]))
			rc = child_fail("the child's %s ns is ours", types[i]);
		close(fd);
		close(pfd);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_PARENT of a child's PID and user ns is the caller's; from inside the parent is out of
 * scope: EPERM (ioctl_ns(2), 4.9).
 */
TEST(ns_get_parent_of_pid_and_user_ns)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, get_parent_worker, NULL));
	/* the test's own PID namespace: the initial one or nsrun's */
	EXPECT_EQ(-EPERM, self_ioctl("pid", NS_GET_PARENT, 0));
}

/* NS_GET_PARENT of a non-hierarchical namespace fails with EINVAL (ioctl_ns(2)). */
TEST(ns_get_parent_non_hierarchical_fails_einval)
{
	static const char *const flat[] = { "uts", "ipc", "net", "mnt", "cgroup", "time" };

	for (size_t i = 0; i < sizeof(flat) / sizeof(flat[0]); i++) {
		if (!ns_type_available(flat[i]))
			continue;
		EXPECT_EQ(-EINVAL, self_ioctl(flat[i], NS_GET_PARENT, 0))
			TH_LOG("NS_GET_PARENT of %s", flat[i]);
	}
}

/* Inside: the owner of the parent's UTS namespace is out of scope. */
static int owner_out_of_scope(void *arg)
{
	int fd = *(int *)arg;

	/* a time namespace for children, owned by the holder's user ns too */
	if (ns_type_available("time") && unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	errno = 0;
	if (ioctl(fd, NS_GET_USERNS) != -1 || errno != EPERM)
		return child_fail("NS_GET_USERNS of the outer uts ns: %m, not EPERM");
	return 0;
}

static int get_userns_worker(void *arg)
{
	static const char *const owned[] = { "uts", "ipc", "net", "mnt", "cgroup", "pid",
					     "time_for_children" };
	int outer_uts = ns_open(0, "uts"), rc = 0;
	struct ns_holder h;

	if (outer_uts < 0)
		return child_fail("open uts: %m");
	if (ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
			 CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWPID, owner_out_of_scope,
			 &outer_uts))
		return child_fail("holder failed");
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]) && !rc; i++) {
		int fd = ns_type_available(owned[i]) ? ns_open(h.pid, owned[i]) : -1;
		int ufd = fd < 0 ? -1 : ioctl(fd, NS_GET_USERNS);

		if (!ns_type_available(owned[i]))
			continue;

		if (ufd < 0)
			rc = child_fail("NS_GET_USERNS of the child's %s: %m", owned[i]);
		else if (!fd_is_ns_of(ufd, h.pid, "user") || fd_is_ns_of(ufd, 0, "user"))
			rc = child_fail("NS_GET_USERNS of the child's %s is not its user ns",
					owned[i]);
		close(fd);
		close(ufd);
	}
	/*
	 * The uts namespace we started in is owned by our user namespace
	 * when the test runs privileged; unprivileged, ns_run_admin() put us
	 * in a new user namespace and its owner is an ancestor: EPERM.
	 */
	{
		int ufd = ioctl(outer_uts, NS_GET_USERNS);

		if (!rc && *(bool *)arg && !fd_is_ns_of(ufd, 0, "user"))
			rc = child_fail("NS_GET_USERNS of our uts is not our user ns: %m");
		if (!rc && !*(bool *)arg && (ufd != -1 || errno != EPERM))
			rc = child_fail("NS_GET_USERNS of the outer uts: %m, not EPERM");
		close(ufd);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_USERNS returns the owning user ns; an owner outside the caller's user namespace gives
 * EPERM (ioctl_ns(2), 4.9).
 *
 * Asked of the seven types a user namespace owns; for a user namespace
 * itself see ns_get_userns_of_user_ns_is_its_parent.
 */
TEST(ns_get_userns_returns_owner)
{
	bool owner_is_ours = ns_have_sys_admin();

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, get_userns_worker, &owner_is_ours));
}

/* Inside the user namespace the owner (mapped to root) reads as 0. */
static int owner_uid_inside(void *arg)
{
	uid_t uid = 12345;

	(void)arg;
	if (self_ioctl("user", NS_GET_OWNER_UID, (unsigned long)&uid))
		return child_fail("NS_GET_OWNER_UID inside: %m");
	if (uid != 0)
		return child_fail("inside, the owner reads as %u, not 0", uid);
	return 0;
}

static int owner_uid_creator(void *arg)
{
	struct ns_holder h;
	uid_t uid = 12345;
	int rc = 0, fd;

	(void)arg;
	if (geteuid() == 0 && ns_drop_privileges(ns_nobody_uid(), ns_nobody_gid()))
		return child_fail("drop privileges: %m");
	if (ns_holder_start(&h, 0, owner_uid_inside, NULL))
		return child_fail("holder failed");
	fd = ns_open(h.pid, "user");
	if (fd < 0 || ioctl(fd, NS_GET_OWNER_UID, &uid))
		rc = child_fail("NS_GET_OWNER_UID: %m");
	else if (uid != geteuid())
		rc = child_fail("owner uid %u, created by %u", uid, geteuid());
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_OWNER_UID gives the creator's euid as the caller maps it: uid outside, 0 inside; other
 * types: EINVAL (ioctl_ns(2), 4.11).
 */
TEST(ns_get_owner_uid_outside_and_inside)
{
	uid_t uid;

	NS_NEED(NS_F_NS_GET_OWNER_UID);
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];

		if (t->flag != CLONE_NEWUSER && ns_type_available(t->name))
			EXPECT_EQ(-EINVAL, self_ioctl(t->name, NS_GET_OWNER_UID,
						      (unsigned long)&uid))
				TH_LOG("NS_GET_OWNER_UID of %s", t->name);
	}
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run(0, owner_uid_creator, NULL));
}

/* Inside the holder: its own user ns has no reachable parent, by either ioctl. */
static int user_parent_out_of_scope(void *arg)
{
	(void)arg;
	if (self_ioctl("user", NS_GET_USERNS, 0) != -EPERM)
		return child_fail("NS_GET_USERNS of the own user ns did not fail EPERM");
	if (self_ioctl("user", NS_GET_PARENT, 0) != -EPERM)
		return child_fail("NS_GET_PARENT of the own user ns did not fail EPERM");
	return 0;
}

static int user_parent_synonym(void *arg)
{
	struct ns_holder h;
	int fd, ufd = -1, pfd = -1, rc = 0;

	(void)arg;
	if (ns_holder_start(&h, CLONE_NEWUSER, user_parent_out_of_scope, NULL))
		return child_fail("holder: its parent user ns was reachable, or no holder");
	fd = ns_open(h.pid, "user");
	if (fd < 0)
		rc = child_fail("open the holder's user ns: %m");
	else if ((ufd = ioctl(fd, NS_GET_USERNS)) < 0 || (pfd = ioctl(fd, NS_GET_PARENT)) < 0)
		rc = child_fail("NS_GET_USERNS or NS_GET_PARENT of a child user ns: %m");
	else if (!fd_is_ns_of(ufd, 0, "user") || !fd_is_ns_of(pfd, 0, "user"))
		rc = child_fail("NS_GET_USERNS %s and NS_GET_PARENT %s our user ns",
				fd_is_ns_of(ufd, 0, "user") ? "is" : "is not",
				fd_is_ns_of(pfd, 0, "user") ? "is" : "is not");
	else if (fd_is_ns_of(fd, 0, "user"))
		rc = child_fail("the holder's user ns is ours");
	close(fd);
	close(ufd);
	close(pfd);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * For a user namespace NS_GET_PARENT is synonymous with NS_GET_USERNS: both answer its parent, and
 * from inside it both fail with EPERM (ioctl_ns(2) NS_GET_PARENT).
 */
TEST(ns_get_userns_of_user_ns_is_its_parent)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, user_parent_synonym, NULL));
}

/* The fd an nsfs ioctl returned: 0 when O_RDONLY and close-on-exec, else child_fail(). */
static int rdonly_cloexec(int fd, const char *what)
{
	int fdfl = fcntl(fd, F_GETFD), fl = fcntl(fd, F_GETFL);

	if (fd < 0 || fdfl < 0 || fl < 0)
		return child_fail("%s: %m", what);
	if (!(fdfl & FD_CLOEXEC))
		return child_fail("the fd of %s is not close-on-exec", what);
	if ((fl & O_ACCMODE) != O_RDONLY)
		return child_fail("the fd of %s has access mode %#o, not O_RDONLY", what,
				  fl & O_ACCMODE);
	return 0;
}

static int new_fds_flags(void *arg)
{
	static const struct {
		const char *type;
		unsigned long req;
		const char *what;
	} asks[] = {
		{ "uts", NS_GET_USERNS, "NS_GET_USERNS of a uts ns" },
		{ "user", NS_GET_USERNS, "NS_GET_USERNS of a user ns" },
		{ "user", NS_GET_PARENT, "NS_GET_PARENT of a user ns" },
		{ "pid", NS_GET_PARENT, "NS_GET_PARENT of a pid ns" },
	};
	struct ns_holder h;
	int rc = 0;

	(void)arg;
	if (ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWPID, NULL, NULL))
		return child_fail("holder failed");
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]) && !rc; i++) {
		char path[64];
		int fd, nfd;

		/* opened without O_CLOEXEC: the new fd's flags are not copied from it */
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", h.pid, asks[i].type);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			rc = child_fail("open %s: %m", path);
		nfd = fd < 0 ? -1 : ioctl(fd, asks[i].req);
		if (!rc)
			rc = rdonly_cloexec(nfd, asks[i].what);
		if (nfd >= 0)
			close(nfd);
		if (fd >= 0)
			close(fd);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * The fd NS_GET_USERNS or NS_GET_PARENT returns is opened O_RDONLY and close-on-exec (ioctl_ns(2)
 * "opened with the O_RDONLY and O_CLOEXEC").
 */
TEST(ns_get_userns_and_parent_fds_are_rdonly_cloexec)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, new_fds_flags, NULL));
}

/* --- later additions ----------------------------------------------------- */

static int pid_translate_worker(void *arg)
{
	int fd, own, got;
	struct ns_holder h;
	int rc = 0;

	(void)arg;
	own = ns_open(0, "pid");
	if (ioctl(own, NS_GET_PID_IN_PIDNS, getpid()) < 0 && errno == ENOTTY)
		return NS_CHILD_SKIP;
	if (ns_holder_start(&h, CLONE_NEWPID, NULL, NULL))
		return child_fail("holder failed");
	fd = ns_open(h.pid, "pid");
	if ((got = ioctl(fd, NS_GET_PID_FROM_PIDNS, 1)) != h.pid)
		rc = child_fail("NS_GET_PID_FROM_PIDNS(1) = %d (%m), want %d", got, h.pid);
	else if ((got = ioctl(fd, NS_GET_TGID_FROM_PIDNS, 1)) != h.pid)
		rc = child_fail("NS_GET_TGID_FROM_PIDNS(1) = %d (%m), want %d", got, h.pid);
	else if ((got = ioctl(fd, NS_GET_PID_IN_PIDNS, h.pid)) != 1)
		rc = child_fail("NS_GET_PID_IN_PIDNS(%d) = %d (%m), want 1", h.pid, got);
	else if ((got = ioctl(fd, NS_GET_TGID_IN_PIDNS, h.pid)) != 1)
		rc = child_fail("NS_GET_TGID_IN_PIDNS(%d) = %d (%m), want 1", h.pid, got);
	else if (ioctl(fd, NS_GET_PID_IN_PIDNS, getpid()) != -1 || errno != ESRCH)
		rc = child_fail("we are visible in the child's pid ns: %m");
	else if (ioctl(fd, NS_GET_PID_FROM_PIDNS, 2) != -1 || errno != ESRCH)
		rc = child_fail("a pid 2 exists in the child's pid ns: %m");
	else if ((got = ioctl(own, NS_GET_PID_IN_PIDNS, getpid())) != getpid())
		rc = child_fail("NS_GET_PID_IN_PIDNS of self in own ns = %d", got);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_{PID,TGID}_{FROM,IN}_PIDNS translate pids to and from a child PID ns; invisible pids:
 * ESRCH (nsfs.h, 6.11; not in ioctl_ns(2)).
 *
 * ioctl_ns(2) (now ioctl_nsfs(2)) documents only NS_GET_USERNS,
 * NS_GET_PARENT, NS_GET_NSTYPE and NS_GET_OWNER_UID: the later ioctls are
 * described only in include/uapi/linux/nsfs.h.
 */
TEST(ns_pid_translation_ioctls)
{
	NS_RUN_ADMIN_WORKER(pid_translate_worker, NULL, NS_F_NS_GET_PID_IN_PIDNS);
}

static int one_more_mount(void *arg)
{
	(void)arg;
	/* never mount anything unless the mount namespace really is new */
	if (ns_same_as_self(getppid(), "mnt") != 0)
		return child_fail("the holder is in its parent's mount namespace");
	return ns_private_tmp("size=1m");
}

/*
 * How many mounts lie below our root mount (its parent, grandparent, ... up
 * to the namespace's root mount, which is its own parent): mountinfo does
 * not list them, as they are outside our root.  Walks up with statmount(2)
 * (6.8).  *exact is false when the walk stopped early: statmount() of a
 * mount we cannot reach needs CAP_SYS_ADMIN (EPERM), or there is no
 * statmount(); the count is then a lower bound.
 */
static int mounts_below_root(bool *exact)
{
	struct statx sx;
	uint64_t id;
	int n = 0;

	*exact = false;
	if (statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &sx) ||
	    !(sx.stx_mask & STATX_MNT_ID_UNIQUE))
		return 0;
	for (id = sx.stx_mnt_id; n < 64; n++) {
		struct nsc_statmount sm;

		if (ns_statmount(id, 0, NSC_STATMOUNT_MNT_BASIC, &sm) ||
		    !(sm.mask & NSC_STATMOUNT_MNT_BASIC))
			return n;
		if (sm.mnt_parent_id == sm.mnt_id) {
			*exact = true;
			return n;
		}
		id = sm.mnt_parent_id;
	}
	return n;
}

struct mntns_view {
	uint64_t id;
	struct nsc_mnt_ns_info info;
	int info_rc;
	int next_rc;		/* NS_MNT_GET_NEXT's errno, asked when info_rc is ENOTTY */
	int lines;
};

static int view_mntns(pid_t pid, struct mntns_view *v)
{
	int fd = ns_open(pid, "mnt");

	if (fd < 0)
		return child_fail("open mnt: %m");
	if (ioctl(fd, NS_GET_MNTNS_ID, &v->id))
		return errno == ENOTTY ? NS_CHILD_SKIP : child_fail("NS_GET_MNTNS_ID: %m");
	v->info.size = sizeof(v->info);
	v->info_rc = ioctl(fd, NS_MNT_GET_INFO, &v->info) ? errno : 0;
	if (v->info_rc == ENOTTY) {
		/* NS_MNT_GET_NEXT came with NS_MNT_GET_INFO (6.12): is it there? */
		struct nsc_mnt_ns_info next = { .size = sizeof(next) };
		int nfd = ioctl(fd, NS_MNT_GET_NEXT, &next);

		v->next_rc = nfd < 0 ? errno : 0;
		if (nfd >= 0)
			close(nfd);
	}
	v->lines = mnt_info_count(pid);
	close(fd);
	return 0;
}

/*
 * nr_mounts counts the mounts of the namespace except its root mount (seen
 * on 6.12, 6.18 and 7.2: a namespace made by UNSHARE_EMPTY_MNTNS, one
 * mount, has nr_mounts 0); mountinfo lists the mounts under our root.
 * Until 6.19 the namespace's root mount is rootfs, and a root switched to
 * with switch_root sits right on it: nr_mounts == mountinfo lines.  Since
 * 7.0 (nullfs, linux:c84bb79f70c6 "Merge tag 'vfs-7.0-rc1.nullfs'") the
 * namespace's root mount is an empty nullfs with rootfs on top of it, so
 * one more mount (rootfs) is counted but not listed: nr_mounts == lines + 1.
 * Hence expect nr_mounts == lines + (mounts below our root) - 1, that
 * number probed, not inferred from the version.  Where the walk cannot
 * reach the namespace's root mount (no CAP_SYS_ADMIN there), or in a chroot
 * (mountinfo hides every mount outside our root), only the exact
 * differences between the two namespaces are checked, never a lower bound.
 */
static int check_nr_mounts(const struct mntns_view *me, const struct mntns_view *it)
{
	bool exact;
	int below = mounts_below_root(&exact);
	int want = me->lines + below - 1;

	if (exact && !ns_chrooted() && ((int)me->info.nr_mounts != want ||
		      (int)it->info.nr_mounts != it->lines + below - 1))
		return child_fail("nr_mounts %u/%u, mountinfo lines %d/%d, "
				  "%d mounts below our root",
				  me->info.nr_mounts, it->info.nr_mounts, me->lines,
				  it->lines, below);
	/* the copy has the same mounts below the root, all else is listed */
	if (me->info.nr_mounts - me->lines != it->info.nr_mounts - it->lines)
		return child_fail("nr_mounts %u/%u, mountinfo lines %d/%d: the copy differs",
				  me->info.nr_mounts, it->info.nr_mounts, me->lines, it->lines);
	if (it->info.nr_mounts != me->info.nr_mounts + 1)
		return child_fail("the child mounted one more, nr_mounts %u vs %u",
				  it->info.nr_mounts, me->info.nr_mounts);
	return 0;
}

static int mntns_worker(void *arg)
{
	struct mntns_view me, it;
	struct ns_holder h;
	int rc;

	(void)arg;
	rc = view_mntns(0, &me);
	if (rc)
		return rc;
	if (ns_holder_start(&h, CLONE_NEWNS, one_more_mount, NULL))
		return child_fail("holder failed");
	rc = view_mntns(h.pid, &it);
	if (!rc && (!me.id || !it.id || me.id == it.id))
		rc = child_fail("mnt ns ids %llu and %llu", (unsigned long long)me.id,
				(unsigned long long)it.id);
	/*
	 * No ordering check: from 6.18 ids come from per-CPU batches
	 * (linux/cookie.h), a newer namespace can have a smaller id.
	 */
	if (!rc && me.info_rc == ENOTTY && me.next_rc != ENOTTY)
		rc = child_fail("NS_MNT_GET_INFO: ENOTTY, yet NS_MNT_GET_NEXT (both 6.12) gave %s",
				me.next_rc ? strerror(me.next_rc) : "an fd");
	else if (!rc && me.info_rc == ENOTTY && ns_feature_regressed(NS_F_NS_MNT_ITER))
		rc = child_fail("%s", ns_feature_regressed(NS_F_NS_MNT_ITER));
	else if (!rc && me.info_rc == ENOTTY)
		fprintf(stderr,
			"# no NS_MNT_GET_INFO nor NEXT (6.12): checked NS_GET_MNTNS_ID only\n");
	else if (!rc && me.info_rc)
		rc = child_fail("NS_MNT_GET_INFO: %s", strerror(me.info_rc));
	if (!rc && !me.info_rc) {
		if (it.info_rc)
			rc = child_fail("NS_MNT_GET_INFO on the child's: %s", strerror(it.info_rc));
		else if (me.info.mnt_ns_id != me.id || it.info.mnt_ns_id != it.id)
			rc = child_fail("NS_MNT_GET_INFO ids differ from NS_GET_MNTNS_ID");
		else
			rc = check_nr_mounts(&me, &it);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_MNTNS_ID: distinct non-zero id per mount ns; NS_MNT_GET_INFO: that id and mount count
 * (nsfs.h, 6.11/6.12; not in ioctl_ns(2)).
 *
 * From 6.18 the ids are not in creation order.  ENOTTY from NS_MNT_GET_INFO
 * is taken for "6.11" only when NS_MNT_GET_NEXT, added with it, is missing
 * too, and the kernel is not one that must have them (6.12 or later with
 * its config known: "feature missing", ns_feature_regressed()); else it fails.  NS_MNT_GET_INFO's number of
 * mounts: as many as mountinfo lists, plus the mounts below our root but
 * the namespace's root mount (one more since 7.0: see check_nr_mounts).
 */
TEST(ns_mntns_id_and_info)
{
	NS_RUN_ADMIN_WORKER(mntns_worker, NULL, NS_F_NS_GET_MNTNS_ID);
}

static int ns_id_of(pid_t pid, const char *type, uint64_t *id)
{
	int fd = ns_open(pid, type), r;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, NS_GET_ID, id) ? -errno : 0;
	close(fd);
	return r;
}

#define ID_NEW (CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET)

static int ns_id_worker(void *arg)
{
	uint64_t mine, theirs, mnt_id;
	struct ns_holder h;
	int rc = 0, fd;

	(void)arg;
	if (ns_id_of(0, "uts", &mine) == -ENOTTY)
		return NS_CHILD_SKIP;
	if (ns_holder_start(&h, ID_NEW, NULL, NULL))
		return child_fail("holder failed");
	for (int i = 0; i < NS_NTYPES && !rc; i++) {
		const struct ns_type *t = &ns_types[i];
		int e1, e2;

		if (!ns_type_available(t->name))
			continue;
		e1 = ns_id_of(0, t->name, &mine);
		e2 = ns_id_of(h.pid, t->name, &theirs);
		if (e1 || e2)
			rc = child_fail("NS_GET_ID on %s: %s", t->name, strerror(-(e1 ?: e2)));
		else if (!mine || !theirs)
			rc = child_fail("NS_GET_ID of %s is 0", t->name);
		else if ((mine == theirs) != !(ID_NEW & t->flag))
			rc = child_fail("%s: ids %llu and %llu, but the namespace is %s",
					t->name, (unsigned long long)mine,
					(unsigned long long)theirs,
					ID_NEW & t->flag ? "new" : "shared");
	}
	fd = ns_open(0, "mnt");
	if (!rc && (ioctl(fd, NS_GET_MNTNS_ID, &mnt_id) || ns_id_of(0, "mnt", &mine) ||
		    mine != mnt_id))
		rc = child_fail("NS_GET_ID of mnt differs from NS_GET_MNTNS_ID: %m");
	close(fd);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * NS_GET_ID: a non-zero 64-bit id, equal iff the namespace is shared; for mount ns
 * NS_GET_MNTNS_ID's (nsfs.h, 6.18; not in ioctl_ns(2)).
 */
TEST(ns_get_id_same_iff_shared)
{
	NS_RUN_ADMIN_WORKER(ns_id_worker, NULL, NS_F_NS_GET_ID);
}

TEST_HARNESS_MAIN
