// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace API: /proc/PID/ns files, keeping a namespace alive, and the
 * rules of setns(2) (namespaces(7), setns(2), the article's part 2,
 * ns_exec.c).  unshare(2) and clone(2)/clone3(2) are in nsfs_create.c,
 * ioctl_ns(2) in nsfs_ioctl.c, the max_*_namespaces limits in nsfs_limits.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

static int set_hostname(void *arg)
{
	if (sethostname(arg, strlen(arg)))
		return child_fail("sethostname: %m");
	return 0;
}

/* In a fresh child: setns(@fd, @flag), then uname() must say @name. */
static int join_and_expect_hostname(int fd, int flag, const char *name)
{
	struct utsname u;
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		if (setns(fd, flag))
			_exit(child_fail("setns: %m"));
		if (uname(&u))
			_exit(child_fail("uname: %m"));
		if (strcmp(u.nodename, name))
			_exit(child_fail("after setns the hostname is '%s', not '%s'",
					 u.nodename, name));
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * Each /proc/self/ns link reads "type:[inode]" with stat()'s inode, on nsfs; distinct namespaces,
 * distinct inodes (namespaces(7)).
 *
 * The page's section is "The /proc/[pid]/ns/ directory".
 */
TEST(proc_ns_links_read_type_and_inode)
{
	const char *missing = NULL;
	ino_t seen[NS_NTYPES];
	int n = 0;

	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		char path[64], link[128], want[128];
		struct statfs sfs;
		struct stat st;
		ssize_t len;
		int fd;

		snprintf(path, sizeof(path), "/proc/self/ns/%s", t->name);
		if (!ns_type_available(t->name)) {
			missing = t->name;
			continue;
		}
		len = readlink(path, link, sizeof(link) - 1);
		ASSERT_LT(0, len) TH_LOG("readlink %s: %m", path);
		link[len] = '\0';
		ASSERT_EQ(0, stat(path, &st));
		snprintf(want, sizeof(want), "%s:[%lu]", t->name, (unsigned long)st.st_ino);
		EXPECT_STREQ(want, link);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, fstatfs(fd, &sfs));
		EXPECT_EQ(NSFS_MAGIC, (unsigned long)sfs.f_type);
		close(fd);
		for (int j = 0; j < n; j++)
			EXPECT_NE(seen[j], st.st_ino) TH_LOG("%s shares an inode", t->name);
		seen[n++] = st.st_ino;
	}
	if (missing)
		NS_NEED_TYPE(missing);
	EXPECT_EQ(NS_NTYPES, n);
}

struct join_arg {
	struct ns_holder h;
	char name[64];
};

static int join_then_set(void *arg)
{
	struct join_arg *a = arg;
	struct ns_ident mine, theirs, parent;
	int fd;

	if (ns_ident_of(a->h.pid, "uts", &theirs) || ns_ident_of(0, "uts", &parent))
		return child_fail("stat ns: %m");
	fd = ns_open(a->h.pid, "uts");
	if (fd < 0)
		return child_fail("open uts: %m");
	if (setns(fd, CLONE_NEWUTS))
		return child_fail("setns: %m");
	if (ns_ident_of(0, "uts", &mine))
		return child_fail("stat own uts: %m");
	if (!ns_ident_eq(&mine, &theirs) || ns_ident_eq(&mine, &parent))
		return child_fail("after setns dev/ino are not the holder's");
	return set_hostname(a->name);
}

static int join_worker(void *arg)
{
	struct join_arg a;
	int rc, fd;

	(void)arg;
	snprintf(a.name, sizeof(a.name), "nsc-join-%d", getpid());
	if (ns_holder_start(&a.h, CLONE_NEWUTS, NULL, NULL))
		return child_fail("cannot start a UTS holder");
	rc = ns_run(0, join_then_set, &a);
	/* a fresh process joining the holder's namespace sees that name */
	fd = ns_open(a.h.pid, "uts");
	if (!rc && fd < 0)
		rc = child_fail("open uts: %m");
	if (!rc)
		rc = join_and_expect_hostname(fd, CLONE_NEWUTS, a.name);
	if (ns_holder_stop(&a.h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * A process joining another's UTS namespace with setns() gets its dev/inode and sets the other's
 * hostname (namespaces(7), setns(2)).
 */
TEST(setns_joiner_shares_ident_and_hostname)
{
	struct utsname before, after;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, uname(&before));
	ASSERT_EQ(0, ns_run_admin(0, join_worker, NULL));
	ASSERT_EQ(0, uname(&after));
	EXPECT_STREQ(before.nodename, after.nodename);
}

/* Start a UTS holder with hostname @name; open its uts file into *@fd. */
static int uts_holder_with_name(struct ns_holder *h, char *name, int *fd,
				struct ns_ident *id)
{
	if (ns_holder_start(h, CLONE_NEWUTS, set_hostname, name))
		return child_fail("cannot start a UTS holder");
	*fd = ns_open(h->pid, "uts");
	if (*fd < 0 || ns_ident_of(h->pid, "uts", id))
		return child_fail("open the holder's uts: %m");
	if (ns_holder_stop(h))
		return child_fail("holder failed");
	/* it is reaped: its /proc entry is gone */
	if (!kill(h->pid, 0) || errno != ESRCH)
		return child_fail("the holder %d still exists", h->pid);
	return 0;
}

static int keep_by_fd(void *arg)
{
	char name[64];
	struct ns_holder h;
	struct ns_ident id;
	struct stat st;
	int fd = -1, rc;

	(void)arg;
	snprintf(name, sizeof(name), "nsc-fd-%d", getpid());
	rc = uts_holder_with_name(&h, name, &fd, &id);
	if (rc)
		return rc;
	if (fstat(fd, &st) || st.st_ino != id.ino || st.st_dev != id.dev)
		return child_fail("the open fd no longer names the namespace");
	return join_and_expect_hostname(fd, CLONE_NEWUTS, name);
}

/*
 * An open /proc/PID/ns fd keeps a namespace alive after its last process exits; setns() through it
 * works (namespaces(7); ns_exec.c).
 */
TEST(ns_fd_keeps_namespace_alive_after_exit)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, keep_by_fd, NULL));
}

static int keep_by_bind(void *arg)
{
	char name[64], file[64];
	struct ns_holder h;
	struct ns_ident id, st_id;
	struct stat st;
	int fd, nfd, rc;

	(void)arg;
	if (ns_ident_of(0, "mnt", &id) || unshare(CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWNS): %m");
	/* never mount anything unless the mount namespace really is new */
	if (ns_ident_of(0, "mnt", &st_id) ||
	    ns_ident_eq(&id, &st_id))
		return child_fail("unshare(CLONE_NEWNS) returned 0, same mount namespace");
	if (ns_private_tmp("mode=0700"))
		return 1;
	snprintf(file, sizeof(file), "/tmp/uts-%d", getpid());
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return child_fail("create %s: %m", file);
	close(fd);
	snprintf(name, sizeof(name), "nsc-bind-%d", getpid());
	if (ns_holder_start(&h, CLONE_NEWUTS, set_hostname, name))
		return child_fail("cannot start a UTS holder");
	rc = 0;
	{
		char src[64];

		snprintf(src, sizeof(src), "/proc/%d/ns/uts", h.pid);
		if (ns_ident_of(h.pid, "uts", &id) || mount(src, file, NULL, MS_BIND, NULL))
			rc = child_fail("bind %s on %s: %m", src, file);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	if (rc)
		return rc;
	if (stat(file, &st) || st.st_ino != id.ino || st.st_dev != id.dev)
		return child_fail("%s is not the holder's namespace", file);
	nfd = open(file, O_RDONLY | O_CLOEXEC);
	if (nfd < 0)
		return child_fail("open %s: %m", file);
	return join_and_expect_hostname(nfd, CLONE_NEWUTS, name);
}

/*
 * A bind mount of /proc/PID/ns/X keeps the namespace alive with no process left; setns() via it
 * works (namespaces(7), article part 2).
 */
TEST(bind_mount_keeps_namespace_alive_after_exit)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, keep_by_bind, NULL));
}

/* --- who may read a process's ns links ---------------------------------- */

/*
 * readlink() and open() of every ns link of @pid: 0, or the errno both gave (-1: they differ).  A
 * readlink() that succeeds must give "TYPE:[INODE]" (an empty link is a failure of its own).
 */
static int links_answer(pid_t pid, int *err, const char **which)
{
	*err = -1;
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		char path[64], link[128];
		int rl_err = 0, fd;
		ssize_t n;

		if (!ns_type_available(t->name))
			continue;
		*which = t->name;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, t->name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			rl_err = errno;
		else
			link[n] = '\0';
		fd = ns_open(pid, t->name);
		if (fd >= 0)
			close(fd);
		if (rl_err != (fd < 0 ? -fd : 0))
			return child_fail("%s: readlink() %s (%zd bytes), open() %s", path,
					  strerror(rl_err), n, strerror(fd < 0 ? -fd : 0));
		if (n >= 0 && (strncmp(link, t->name, strlen(t->name)) ||
			       link[strlen(t->name)] != ':'))
			return child_fail("%s: readlink() gave %zd bytes \"%s\", not %s:[inode]",
					  path, n, link, t->name);
		if (*err != -1 && rl_err != *err)
			return child_fail("%s: %s, the other links %s", path, strerror(rl_err),
					  strerror(*err));
		*err = rl_err;
	}
	return 0;
}

static int links_of_undumpable(void *arg)
{
	const char *which = "";
	struct ns_sync s;
	int err, rc;
	pid_t pid;

	(void)arg;
	if (ns_become_unprivileged())
		return child_fail("cannot give up privileges: %m");
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		/* non-dumpable, then dumpable again, each once the other looked */
		for (int dumpable = 0; dumpable < 2; dumpable++)
			if (prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0) ||
			    ns_sync_tell(&s, true, NULL, 0) ||
			    ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
				_exit(1);
		_exit(0);
	}
	rc = ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS) ? child_fail("no word") : 0;
	if (!rc)
		rc = links_answer(pid, &err, &which);
	if (!rc && err != EACCES)
		rc = child_fail("%s link of a non-dumpable process of our uid: %s, not EACCES",
				which, strerror(err));
	/* the control: dumpable, the same links read and open */
	if (!rc && (ns_sync_tell(&s, false, NULL, 0) ||
		    ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS)))
		rc = child_fail("no word from the target");
	if (!rc)
		rc = links_answer(pid, &err, &which);
	if (!rc && err)
		rc = child_fail("%s link of a dumpable process of our uid: %s", which,
				strerror(err));
	/* after a failure the target would wait out its bound for a word that never comes */
	if (rc || ns_sync_tell(&s, false, NULL, 0))
		kill(pid, SIGKILL);
	if (ns_wait(pid, NS_WAIT_MS) && !rc)
		rc = child_fail("the target failed");
	ns_sync_close(&s);
	return rc;
}

/*
 * Reading or following another process's /proc/PID/ns links takes a ptrace read check: without
 * CAP_SYS_PTRACE, a non-dumpable process of the same uid gives EACCES (namespaces(7)).
 *
 * namespaces(7): "Permission to dereference or read (readlink(2)) these
 * symbolic links is governed by a ptrace access mode PTRACE_MODE_READ_FSCREDS
 * check"; a non-dumpable target fails that check for a caller without
 * CAP_SYS_PTRACE in its mm's user namespace (ptrace(2)).  readlink() and
 * open() must agree, and a readlink() that succeeds gives "TYPE:[INODE]".
 * 5.10.261's backport of "proc: protect ptrace_may_access() with
 * exec_update_lock (part 1)" (CVE-2026-64371) lets proc_ns_readlink() return
 * the 0 of down_read_killable() when the check fails: readlink() "succeeds"
 * with 0 bytes while open() gives EACCES (expectations).
 */
TEST(ns_links_of_non_dumpable_process_eacces)
{
	ASSERT_EQ(0, ns_run(0, links_of_undumpable, NULL));
}

/* --- setns type rules -------------------------------------------------- */

#define HOLD_ALL (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | \
		  CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWCGROUP)

/* In the holder: also create a time namespace (for its children). */
static int hold_time_too(void *arg)
{
	(void)arg;
	if (ns_type_available("time") && unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	return 0;
}

/* The file that names the holder's namespace of type @t. */
static const char *held_file(const struct ns_type *t)
{
	if (t->flag == CLONE_NEWTIME)
		return "time_for_children";
	return t->name;
}

/* What a joiner compares after setns() into @t. */
static const char *joined_file(const struct ns_type *t)
{
	if (t->flag == CLONE_NEWPID)
		return "pid_for_children";
	return t->name;
}

struct join_req {
	pid_t holder;
	const struct ns_type *t;
	int flag;
};

static int join_one(void *arg)
{
	struct join_req *r = arg;
	struct ns_ident want, got;
	int fd;

	fd = ns_open(r->holder, held_file(r->t));
	if (fd < 0 || ns_ident_of(r->holder, held_file(r->t), &want))
		return child_fail("open %s of %d: %m", held_file(r->t), r->holder);
	if (setns(fd, r->flag))
		return child_fail("setns(%s fd, %#x): %m", r->t->name, r->flag);
	if (ns_ident_of(0, joined_file(r->t), &got))
		return child_fail("stat own %s: %m", joined_file(r->t));
	if (!ns_ident_eq(&want, &got))
		return child_fail("setns(%s fd, %#x) returned 0 but did not join",
				  r->t->name, r->flag);
	return 0;
}

static int setns_each_type(void *arg)
{
	int *use_flag = arg;
	struct ns_holder h;
	int rc = 0;

	if (ns_holder_start(&h, HOLD_ALL, hold_time_too, NULL))
		return child_fail("cannot start a holder in 7 new namespaces");
	for (int i = 0; i < NS_NTYPES && !rc; i++) {
		struct join_req r = { h.pid, &ns_types[i], 0 };

		if (!ns_type_available(r.t->name))
			continue;
		r.flag = *use_flag ? (int)r.t->flag : 0;
		rc = ns_run(0, join_one, &r);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/* setns(fd, 0) joins a namespace of any type (setns(2) "nstype"). */
TEST(setns_flag_zero_joins_every_type)
{
	int use_flag = 0;

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, setns_each_type, &use_flag));
}

/* setns(fd, CLONE_NEWX) joins when the fd is of type X (setns(2)). */
TEST(setns_matching_flag_joins_every_type)
{
	int use_flag = 1;

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, setns_each_type, &use_flag));
}

static int setns_mismatch(void *arg)
{
	struct ns_ident before[NS_NTYPES], after;
	struct ns_holder h;
	int rc = 0;

	(void)arg;
	if (ns_holder_start(&h, HOLD_ALL, hold_time_too, NULL))
		return child_fail("cannot start a holder");
	for (int i = 0; i < NS_NTYPES; i++)
		if (ns_type_available(ns_types[i].name) &&
		    ns_ident_of(0, ns_types[i].name, &before[i]))
			rc = child_fail("stat own ns: %m");
	for (int i = 0; i < NS_NTYPES && !rc; i++) {
		const struct ns_type *t = &ns_types[i];
		int fd;

		if (!ns_type_available(t->name))
			continue;
		fd = ns_open(h.pid, held_file(t));
		if (fd < 0) {
			rc = child_fail("open %s: %m", t->name);
			break;
		}
		for (int j = 0; j < NS_NTYPES && !rc; j++) {
			int f = ns_types[j].flag;

			if (j == i)
				continue;
			errno = 0;
			if (setns(fd, f) != -1 || errno != EINVAL)
				rc = child_fail("setns(%s fd, CLONE_NEW%s): %m, not EINVAL",
						t->name, ns_types[j].name);
		}
		close(fd);
	}
	for (int i = 0; i < NS_NTYPES && !rc; i++)
		if (ns_type_available(ns_types[i].name) &&
		    (ns_ident_of(0, ns_types[i].name, &after) ||
		     !ns_ident_eq(&before[i], &after)))
			rc = child_fail("a refused setns changed the %s namespace",
					ns_types[i].name);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * setns(fd, CLONE_NEWX) with an fd of another namespace type fails with EINVAL and changes nothing
 * (setns(2) ERRORS).
 */
TEST(setns_mismatched_type_fails_einval)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, setns_mismatch, NULL));
}

/*
 * setns() on a non-namespace fd (/proc file, directory, pipe) fails with EINVAL; on a closed fd
 * with EBADF (setns(2) ERRORS).
 */
TEST(setns_non_namespace_fd_fails_einval)
{
	const char *paths[] = { "/proc/self/status", "/proc/self/ns", "/" };
	int p[2], fd;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		fd = open(paths[i], O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		errno = 0;
		EXPECT_EQ(-1, setns(fd, 0)) TH_LOG("setns(%s) succeeded", paths[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("setns(%s): %m", paths[i]);
		close(fd);
	}
	ASSERT_EQ(0, pipe(p));
	errno = 0;
	EXPECT_EQ(-1, setns(p[0], CLONE_NEWUTS));
	EXPECT_EQ(EINVAL, errno);
	close(p[1]);
	errno = 0;
	EXPECT_EQ(-1, setns(p[1], 0));
	EXPECT_EQ(EBADF, errno);
	close(p[0]);
}

/* --- setns(pidfd, flags) ------------------------------------------------- */

#define PIDFD_SET (CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWCGROUP)

struct pidfd_req {
	pid_t holder;
	int pidfd;
	int flags;		/* passed to setns */
	int want_errno;		/* 0: must join; else must fail so */
	bool threaded;		/* run a second thread during setns */
};

/* Count the types in @mask where the caller is in the holder's namespace. */
static int count_joined(pid_t holder, int mask, int *joined, int *other)
{
	*joined = *other = 0;
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		int same;

		if (!(mask & t->flag))
			continue;
		same = ns_same_as_self(holder, t->name);
		if (same < 0)
			return child_fail("compare %s: %s", t->name, strerror(-same));
		if (same)
			(*joined)++;
		else
			(*other)++;
	}
	return 0;
}

static int pidfd_join(void *arg)
{
	struct pidfd_req *r = arg;
	struct ns_thread th;
	int joined, other, stray, unused, ret, err;

	if (r->threaded && ns_thread_start(&th))
		return 1;
	ret = setns(r->pidfd, r->flags);
	err = errno;
	if (r->threaded && ns_thread_stop(&th))
		return 1;
	if (count_joined(r->holder, r->flags & PIDFD_SET, &joined, &other) ||
	    count_joined(r->holder, PIDFD_SET & ~r->flags, &stray, &unused))
		return 1;
	if (stray)
		return child_fail("setns(pidfd, %#x) joined %d namespaces not asked for",
				  r->flags, stray);
	if (!r->want_errno) {
		if (ret)
			return child_fail("setns(pidfd, %#x): %s", r->flags, strerror(err));
		if (other)
			return child_fail("setns(pidfd, %#x) returned 0, %d not joined",
					  r->flags, other);
		return 0;
	}
	if (ret != -1 || err != r->want_errno)
		return child_fail("setns(pidfd, %#x) = %d (%s), want %s", r->flags,
				  ret, strerror(err), strerror(r->want_errno));
	if (joined)
		return child_fail("failed setns(pidfd, %#x) joined %d of the others",
				  r->flags, joined);
	return 0;
}

/* A worker: holder in PIDFD_SET namespaces, then each request in a child. */
static int pidfd_worker(void *arg)
{
	struct pidfd_req *reqs = arg;
	struct ns_holder h;
	int rc = 0, pidfd;

	if (ns_holder_start(&h, PIDFD_SET, hold_time_too, NULL))
		return child_fail("cannot start a holder");
	/* the tests probed NS_F_SETNS_PIDFD (5.8): pidfd_open() (5.3) is there */
	pidfd = ns_pidfd_open(h.pid);
	if (pidfd < 0)
		rc = child_fail("pidfd_open: %m");
	for (; !rc && reqs->flags; reqs++) {
		reqs->holder = h.pid;
		reqs->pidfd = pidfd;
		rc = ns_run(0, pidfd_join, reqs);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/* setns(pidfd, flags) joins several namespaces of the process at once (setns(2), 5.8). */
TEST(setns_pidfd_joins_several_at_once)
{
	struct pidfd_req reqs[] = {
		{ .flags = PIDFD_SET },
		{ .flags = CLONE_NEWUTS | CLONE_NEWNET },
		{ 0 },
	};

	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_SETNS_PIDFD);
	ASSERT_EQ(0, ns_run_admin(0, pidfd_worker, reqs));
}

/*
 * setns(pidfd, flags) is atomic: if one namespace cannot be joined, none is (setns(2) "changes ...
 * atomically").
 *
 * The refusals used: re-entering the own user namespace (EINVAL), and a time
 * namespace from a threaded process (EUSERS).
 */
TEST(setns_pidfd_all_or_nothing)
{
	struct pidfd_req reqs[] = {
		{ .flags = PIDFD_SET | CLONE_NEWUSER, .want_errno = EINVAL },
		{ .flags = PIDFD_SET | CLONE_NEWTIME, .want_errno = EUSERS,
		  .threaded = true },
		/* the same without the bad part must work, threads or not */
		{ .flags = PIDFD_SET, .threaded = true },
		{ 0 },
	};

	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_SETNS_PIDFD);
	if (!ns_type_available("time"))
		reqs[1] = reqs[2];
	ASSERT_EQ(0, ns_run_admin(0, pidfd_worker, reqs));
}

/*
 * A holder made by ns_holder_start(@flags, @setup, @arg), and @join run in a
 * child (ns_run()) with its pidfd; with @new_userns the holder must be in a
 * user namespace of its own.
 */
static int join_holder_by_pidfd(unsigned long flags, int (*setup)(void *), void *arg,
				int (*join)(void *), bool new_userns)
{
	struct pidfd_req r = { 0 };
	struct ns_holder h;
	int rc;

	if (ns_holder_start(&h, flags, setup, arg))
		return child_fail("cannot start a holder");
	r.holder = h.pid;
	r.pidfd = ns_pidfd_open(h.pid);
	if (new_userns && ns_same_as_self(h.pid, "user") != 0)
		rc = child_fail("the holder is not in a new user namespace");
	else if (r.pidfd < 0)
		rc = child_fail("pidfd_open: %m");
	else
		rc = ns_run(0, join, &r);
	if (r.pidfd >= 0)
		close(r.pidfd);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/* Without CAP_SYS_ADMIN of its own: UTS|NET alone refused, with USER all three joined. */
static int join_owned_by_pidfd(void *arg)
{
	const int others = CLONE_NEWUTS | CLONE_NEWNET;
	struct pidfd_req *r = arg;
	int joined, other;

	errno = 0;
	if (setns(r->pidfd, others) != -1 || errno != EPERM)
		return child_fail("setns(pidfd, UTS|NET) without CAP_SYS_ADMIN: %m, not EPERM");
	if (count_joined(r->holder, CLONE_NEWUSER | others, &joined, &other))
		return 1;
	if (joined)
		return child_fail("the refused setns(pidfd, UTS|NET) joined %d namespaces",
				  joined);
	if (setns(r->pidfd, CLONE_NEWUSER | others))
		return child_fail("setns(pidfd, USER|UTS|NET): %m");
	if (count_joined(r->holder, CLONE_NEWUSER | others, &joined, &other))
		return 1;
	if (other)
		return child_fail("setns(pidfd, USER|UTS|NET) returned 0, %d not joined", other);
	return 0;
}

static int pidfd_user_worker(void *arg)
{
	(void)arg;
	if (ns_become_unprivileged())
		return child_fail("cannot give up privileges: %m");
	/* without CAP_SYS_ADMIN the holder is in a user namespace of its own too */
	return join_holder_by_pidfd(CLONE_NEWUTS | CLONE_NEWNET, NULL, NULL, join_owned_by_pidfd,
				    true);
}

/*
 * setns(pidfd) with CLONE_NEWUSER joins the other namespaces with the capabilities of the user ns
 * joined: a caller without CAP_SYS_ADMIN joins UTS and net namespaces it owns (setns(2) example).
 *
 * The same call without CLONE_NEWUSER is the control: EPERM, nothing
 * joined.  setns(2): "the following code would move the caller into the
 * same user, network, and UTS namespaces as PID 1234".
 */
TEST(setns_pidfd_with_user_ns_joins_what_it_owns)
{
	NS_NEED_UNPRIV_USERNS();
	NS_NEED(NS_F_SETNS_PIDFD);
	ASSERT_EQ(0, ns_run(0, pidfd_user_worker, NULL));
}

/* Our link @file names the holder's @its, not its @not_its (a different one). */
static int names(const char *file, pid_t holder, const char *its, const char *not_its)
{
	struct ns_ident got, want, other;

	if (ns_ident_of(0, file, &got) || ns_ident_of(holder, its, &want) ||
	    ns_ident_of(holder, not_its, &other))
		return child_fail("stat %s, %s or %s: %m", file, its, not_its);
	if (ns_ident_eq(&want, &other))
		return child_fail("the holder's %s is its %s", its, not_its);
	if (ns_ident_eq(&got, &other))
		return child_fail("after setns(pidfd) our %s is the holder's %s, not its %s",
				  file, not_its, its);
	if (!ns_ident_eq(&got, &want))
		return child_fail("after setns(pidfd) our %s is not the holder's %s", file, its);
	return 0;
}

static int join_active_by_pidfd(void *arg)
{
	struct pidfd_req *r = arg;
	bool time = ns_type_available("time");

	if (setns(r->pidfd, CLONE_NEWPID | (time ? CLONE_NEWTIME : 0)))
		return child_fail("setns(pidfd, CLONE_NEWPID | CLONE_NEWTIME): %m");
	return names("pid_for_children", r->holder, "pid", "pid_for_children") ?:
	       (time ? names("time", r->holder, "time", "time_for_children") : 0);
}

static int pidfd_active_worker(void *arg)
{
	unsigned long flags = CLONE_NEWPID | (ns_type_available("time") ? CLONE_NEWTIME : 0);

	(void)arg;
	/* the holder, init of new PID and time namespaces, makes others for its children */
	return join_holder_by_pidfd(flags, nsfs_unshare_and_fork, &flags, join_active_by_pidfd,
				    false);
}

/*
 * setns(pidfd, CLONE_NEWPID | CLONE_NEWTIME) joins the PID and time namespaces the target is in,
 * not those of its *_for_children links (setns(2) "the same namespaces as the thread").
 *
 * The target unshared both after it started, so each pair differs.  After
 * the call our pid_for_children is its pid, our time its time.
 */
TEST(setns_pidfd_joins_the_targets_own_pid_and_time_ns)
{
	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_SETNS_PIDFD);
	ASSERT_EQ(0, ns_run_admin(0, pidfd_active_worker, NULL));
}

static int join_all_by_pidfd(void *arg)
{
	struct pidfd_req *r = arg;
	unsigned long all = HOLD_ALL | (ns_type_available("time") ? CLONE_NEWTIME : 0);
	struct ns_ident before[NS_NTYPES], pid_before, now, want;
	int n = 0;

	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];

		if (!(all & t->flag))
			continue;
		if (ns_ident_of(0, joined_file(t), &before[i]) ||
		    ns_ident_of(r->holder, t->name, &want))
			return child_fail("stat %s: %m", t->name);
		if (ns_ident_eq(&before[i], &want))
			return child_fail("the holder's %s namespace is ours before setns",
					  t->name);
	}
	if (ns_ident_of(0, "pid", &pid_before))
		return child_fail("stat pid: %m");
	if (setns(r->pidfd, all))
		return child_fail("setns(pidfd, %#lx): %m", all);
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];

		if (!(all & t->flag))
			continue;
		if (ns_ident_of(0, joined_file(t), &now) ||
		    ns_ident_of(r->holder, t->name, &want))
			return child_fail("stat %s after setns: %m", t->name);
		if (!ns_ident_eq(&now, &want))
			return child_fail("after setns(pidfd, %#lx) our %s is not the holder's %s",
					  all, joined_file(t), t->name);
		n++;
	}
	/* the caller's own PID namespace never changes (pid_namespaces(7)) */
	if (ns_ident_of(0, "pid", &now) || !ns_ident_eq(&now, &pid_before))
		return child_fail("setns(pidfd) moved the caller's own pid link");
	return n == __builtin_popcountl(all) ? 0 :
	       child_fail("compared %d of %d types", n, __builtin_popcountl(all));
}

static int pidfd_all_worker(void *arg)
{
	unsigned long flags = HOLD_ALL | (ns_type_available("time") ? CLONE_NEWTIME : 0);

	(void)arg;
	return join_holder_by_pidfd(flags, NULL, NULL, join_all_by_pidfd, true);
}

/*
 * setns(pidfd, flags) with every CLONE_NEW* type at once puts the caller in
 * each of the target's namespaces: every type, compared by identity
 * (dev, inode of /proc/self/ns/<type>), is the target's afterwards and was
 * not before; for PID the caller's pid_for_children is the target's pid
 * namespace and its own pid link stays (setns(2) "setns() with a PID file
 * descriptor", 5.8; time since 5.8 too).  The target was made with all the
 * types (clone3() for time), so each is its own active one.
 */
TEST(setns_pidfd_all_types_each_joined_by_identity)
{
	NS_NEED_ADMIN_OR_USERNS();
	NS_NEED(NS_F_SETNS_PIDFD);
	ASSERT_EQ(0, ns_run(0, pidfd_all_worker, NULL));
}

TEST_HARNESS_MAIN
