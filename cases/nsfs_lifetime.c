// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace lifetime (namespaces(7) "Namespace lifetime"): what keeps a
 * namespace alive after its last member process is gone.  A child PID or
 * user namespace keeps its parent, a namespace keeps its owning user
 * namespace, pid_for_children and time_for_children keep theirs, a proc
 * mount keeps its PID namespace and an mqueue mount its IPC namespace; and
 * NS_GET_PARENT / NS_GET_USERNS still answer with the same namespace once
 * every member has exited (ioctl_ns(2)).
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes).  "Still alive" is shown by more than an inode number where the
 * namespace can be used: a kept user namespace is joined and its uid map
 * works, a kept time namespace still applies its offset to a new child,
 * and a namespace kept by a mount still counts against max_*_namespaces.
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
#include <time.h>
#include <unistd.h>

#include "nserrors.h"
#include "pidns.h"
#include "userns.h"
#include "kselftest_harness.h"

/* ioctl(@fd, @req) gives an fd of the namespace @want.  0 or child_fail(). */
static int ioctl_answers(int fd, unsigned long req, const struct ns_ident *want,
			 const char *what, int *out)
{
	struct ns_ident got;
	int nfd = ioctl(fd, req);

	if (nfd < 0)
		return child_fail("%s after every member exited: %m", what);
	if (ns_ident_of_fd(nfd, &got) || !ns_ident_eq(&got, want)) {
		close(nfd);
		return child_fail("%s after every member exited: another namespace", what);
	}
	if (out)
		*out = nfd;
	else
		close(nfd);
	return 0;
}

/* In a child: join the user namespace @fd; 0 when getuid() is then @uid. */
static int join_userns_reads_uid(int fd, uid_t uid)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		if (setns(fd, CLONE_NEWUSER))
			_exit(child_fail("setns into the kept user namespace: %m"));
		if (getuid() != uid)
			_exit(child_fail("in the kept user namespace uid %u, its map says %u",
					 getuid(), uid));
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

/* Map @id inside @pid's user namespace to our uid and gid (0 of our own). */
static int map_as(pid_t pid, unsigned int id)
{
	char line[32];
	int err;

	snprintf(line, sizeof(line), "%u %u 1\n", id, geteuid());
	err = ns_write_proc(pid, "uid_map", line);
	snprintf(line, sizeof(line), "%u %u 1\n", id, getegid());
	if (!err)
		err = ns_write_proc(pid, "gid_map", line);
	if (err)
		errno = -err;
	return err ? child_fail("write the id maps of %d: %m", pid) : 0;
}

/* --- hierarchical: a child keeps its parent ---------------------------------- */

/* Holder prep: move on to a child PID namespace and start its init. */
static int nest_pidns(void *arg)
{
	pid_t pid;

	(void)arg;
	if (unshare(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	return 0;
}

static int pidns_parent_worker(void *arg)
{
	struct ns_ident parent;
	struct ns_holder h;
	int fd, rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_holder_start(&h, CLONE_NEWPID, nest_pidns, NULL))
		return child_fail("no holder with a nested PID namespace");
	fd = ns_open(h.pid, "pid_for_children");
	rc = fd < 0 || ns_ident_of(h.pid, "pid", &parent) ?
	     child_fail("open the holder's PID namespaces: %m") : 0;
	/* the holder is init of the parent: its exit empties both */
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	if (!rc)
		rc = ioctl_answers(fd, NS_GET_PARENT, &parent, "NS_GET_PARENT of the child", NULL);
	if (fd >= 0)
		close(fd);
	return rc;
}

/*
 * A PID namespace is kept by its child: with no process left in either, NS_GET_PARENT of the child
 * answers the same parent (namespaces(7), ioctl_ns(2)).
 */
TEST(pidns_kept_by_child_pidns)
{
	const char *why = ns_userns_blocker(false);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ns_run(0, pidns_parent_worker, NULL));
}

/* Holder prep: leave the user namespace for a child of it. */
static int nest_userns(void *arg)
{
	struct ns_sync *s = arg;

	/* wait until the parent mapped us, then move on */
	if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("no go from the parent");
	return unshare(CLONE_NEWUSER) ? child_fail("unshare(CLONE_NEWUSER): %m") : 0;
}

static int userns_parent_worker(void *arg)
{
	struct ns_ident parent;
	struct ns_sync s;
	struct ns_holder h;
	int fd = -1, pfd = -1, rc = 0;
	pid_t pid;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	/* the holder is made by hand: its map is written between two steps */
	if (ns_sync_init(&s) || ns_sync_init(&h.sync))
		return child_fail("pipe: %m");
	pid = ns_clone(CLONE_NEWUSER);
	if (pid == 0) {
		char r;

		ns_sync_child_side(&s);
		ns_sync_child_side(&h.sync);
		r = nest_userns(&s);
		ns_sync_tell(&h.sync, true, &r, 1);
		ns_sync_wait(&h.sync, true, NULL, 0, 3 * NS_WAIT_MS);
		_exit(r);
	}
	h.pid = pid;
	ns_sync_parent_side(&s);
	ns_sync_parent_side(&h.sync);
	if (pid < 0 || map_as(pid, 7) || ns_ident_of(pid, "user", &parent))
		rc = child_fail("cannot set up the holder: %m");
	else if (ns_sync_tell(&s, false, NULL, 0) || ns_sync_wait(&h.sync, false, NULL, 0,
		 NS_WAIT_MS))
		rc = child_fail("the holder did not move on");
	else if ((fd = ns_open(pid, "user")) < 0)
		rc = child_fail("open the child user namespace: %m");
	if (pid > 0 && ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	ns_sync_close(&s);
	if (!rc)
		rc = ioctl_answers(fd, NS_GET_PARENT, &parent, "NS_GET_PARENT of the child", &pfd);
	/* the parent is alive: joined, its map "7 <us> 1" still works */
	if (!rc)
		rc = join_userns_reads_uid(pfd, 7);
	if (fd >= 0)
		close(fd);
	if (pfd >= 0)
		close(pfd);
	return rc;
}

/*
 * A user namespace is kept by its child: with no process left, NS_GET_PARENT of the child answers
 * it, and it can be joined with its map (namespaces(7)).
 */
TEST(userns_kept_by_child_userns)
{
	const char *why = ns_userns_blocker(false);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ns_run(0, userns_parent_worker, NULL));
}

/* --- a user namespace is kept by the namespaces it owns -------------------- */

static int owner_worker(void *arg)
{
	const struct ns_type *t = arg;
	struct ns_ident owner;
	struct ns_holder h;
	int fd = -1, ufd = -1, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (nserr_hold(&h, CLONE_NEWUSER | t->flag))
		return child_fail("no holder in new user and %s namespaces", t->name);
	if (map_as(h.pid, 5) || ns_ident_of(h.pid, "user", &owner))
		rc = child_fail("cannot map the holder: %m");
	else if ((fd = ns_open(h.pid, t->name)) < 0)
		rc = child_fail("open the holder's %s namespace: %m", t->name);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	if (!rc)
		rc = ioctl_answers(fd, NS_GET_USERNS, &owner, "NS_GET_USERNS", &ufd);
	if (!rc)
		rc = join_userns_reads_uid(ufd, 5);
	if (fd >= 0)
		close(fd);
	if (ufd >= 0)
		close(ufd);
	return rc;
}

NS_TYPE_FIXTURE(owner, NS_TYPE_VARIANTS_BUT_USER);

/*
 * A user namespace is kept by a namespace it owns: with no process left, NS_GET_USERNS answers it
 * and it can be joined with its map (namespaces(7)).
 */
TEST_F(owner, userns_kept_by_owned_namespace)
{
	ASSERT_EQ(0, ns_run(0, owner_worker, (void *)ns_type_of(variant->flag)));
}

/* --- pid_for_children and time_for_children ------------------------------- */

static int pid_for_children_worker(void *arg)
{
	struct ns_ident mine, made, now;
	struct ns_sync s;
	int fd, rc = 0;
	pid_t pid;

	(void)arg;
	if (ns_unshare_userns_root(0) || ns_ident_of(0, "pid", &mine))
		return child_fail("cannot become root of a new user namespace: %m");
	if (unshare(CLONE_NEWPID) || ns_sync_init(&s))
		return child_fail("unshare(CLONE_NEWPID): %m");
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		ns_sync_child_side(&s);
		ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	ns_sync_parent_side(&s);
	if (ns_ident_of(pid, "pid", &made))
		rc = child_fail("stat the child's pid namespace: %m");
	ns_sync_tell(&s, false, NULL, 0);
	if (ns_wait(pid, NS_WAIT_MS) && !rc)
		rc = child_fail("the only member failed");
	ns_sync_close(&s);
	if (rc)
		return rc;
	/* its only member is gone and reaped: our link still names it */
	if (ns_ident_of(0, "pid_for_children", &now) || !ns_ident_eq(&now, &made))
		return child_fail("pid_for_children no longer names the emptied namespace: %m");
	fd = ns_open(0, "pid_for_children");
	if (fd < 0)
		return child_fail("open pid_for_children: %m");
	rc = ioctl_answers(fd, NS_GET_PARENT, &mine, "NS_GET_PARENT of pid_for_children", NULL);
	close(fd);
	return rc;
}

/*
 * A PID namespace is kept by a process whose pid_for_children names it: after its only member was
 * reaped, the link and NS_GET_PARENT still answer (namespaces(7)).
 */
TEST(pidns_kept_by_pid_for_children)
{
	const char *why = ns_userns_blocker(false);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ns_run(0, pid_for_children_worker, NULL));
}

#define OFFSET_S 1000

struct time_probe {
	struct ns_ident want;	/* the time namespace the child must be in */
	long parent_s;		/* our CLOCK_MONOTONIC seconds before the fork */
};

static long mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* A child: in @p->want, with the offset applied to its clock. */
static int child_in_time_ns(const struct time_probe *p)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		struct ns_ident now;
		long d;

		if (ns_ident_of(0, "time", &now) || !ns_ident_eq(&now, &p->want))
			_exit(child_fail("not in the kept time namespace"));
		d = mono_s() - p->parent_s;
		if (d < OFFSET_S - 1 || d > OFFSET_S + 5)
			_exit(child_fail("CLOCK_MONOTONIC %ld s from the parent's, not %d",
					 d, OFFSET_S));
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int time_for_children_worker(void *arg)
{
	struct time_probe p;
	char line[64];
	int err, rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	snprintf(line, sizeof(line), "monotonic %d 0", OFFSET_S);
	err = ns_write_proc(0, "timens_offsets", line);
	if (err) {
		errno = -err;
		return child_fail("write timens_offsets: %m");
	}
	if (ns_ident_of(0, "time_for_children", &p.want))
		return child_fail("stat time_for_children: %m");
	p.parent_s = mono_s();
	rc = child_in_time_ns(&p);
	if (rc)
		return rc;
	/* its first member is gone: the next child enters the same one */
	p.parent_s = mono_s();
	return child_in_time_ns(&p);
}

/*
 * A time namespace is kept by a process whose time_for_children names it: after its member exited,
 * a new child enters it with its offsets (namespaces(7)).
 */
TEST(timens_kept_by_time_for_children)
{
	const char *why = ns_userns_blocker(false);

	if (!ns_type_available("time"))
		SKIP(return, "time namespaces not supported by this kernel (added in 5.6)");
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ns_run(0, time_for_children_worker, NULL));
}

TEST_HARNESS_MAIN
