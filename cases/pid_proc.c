// SPDX-License-Identifier: GPL-2.0
/*
 * PID namespaces and proc: a proc mount shows the PID namespace of the
 * process that mounted it, to every reader, and /proc/self is the
 * reader's PID there; who may mount proc.
 * Sources: pid_namespaces(7) "/proc and PID namespaces", user_namespaces(7).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "nsconform.h"
#include "pid.h"
#include "kselftest_harness.h"

FIXTURE(pidns) {};

/*
 * A shared record @r of @type for a proc-mount worker, the probe @need, and the test's mount
 * namespace in @r->test_mnt (to tell the worker's own mount namespace from it).
 */
#define PROC_REC(type, r, need)							\
	type *r = ns_shared_page(4096);						\
	need();									\
	ASSERT_NE(NULL, r);							\
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r->test_mnt))

FIXTURE_SETUP(pidns)
{
}

FIXTURE_TEARDOWN(pidns)
{
	pidns_kill_tracked();
}

struct proc_view {
	char self_new[32];	/* readlink("/proc/self") on the new mount */
	char self_old[32];	/* readlinkat(old proc, "self") */
	pid_t old_pid;		/* NSpid[0] read through the old mount */
	int new_count;		/* PID directories on the new mount */
	int old_has_parent;	/* the old mount shows the test process */
};

static int count_pids(int dirfd, pid_t want, int *found)
{
	struct dirent *d;
	int n = 0, fd = dup(dirfd);
	DIR *dp = fd < 0 ? NULL : fdopendir(fd);

	if (!dp)
		return -1;
	rewinddir(dp);
	while ((d = readdir(dp))) {
		char *end;
		long v = strtol(d->d_name, &end, 10);

		if (*end || end == d->d_name)
			continue;
		n++;
		if (found && v == want)
			*found = 1;
	}
	closedir(dp);
	return n;
}

struct proc_req {
	struct proc_view *v;
	struct ns_ident test_mnt;
	pid_t test_pid;
	struct ns_sync s;
};

static int proc_view_init(struct proc_req *q)
{
	struct proc_view *v = q->v;
	char status[8192];
	pid_t ids[PIDNS_MAX_LEVELS];
	int old, fd;
	ssize_t n;

	ns_sync_child_side(&q->s);
	old = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (old < 0)
		return child_fail("open /proc: %m");
	if (pidns_mount_own_proc(&q->test_mnt))
		return 1;
	n = readlink("/proc/self", v->self_new, sizeof(v->self_new) - 1);
	if (n < 0)
		return child_fail("readlink /proc/self: %m");
	n = readlinkat(old, "self", v->self_old, sizeof(v->self_old) - 1);
	if (n < 0)
		return child_fail("readlink self on the old proc: %m");
	fd = openat(old, "self/status", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);
	if (n <= 0)
		return child_fail("read self/status on the old proc: %m");
	status[n] = '\0';
	close(fd);
	if (pidns_parse_nspid(status, ids, PIDNS_MAX_LEVELS) < 2)
		return child_fail("no NSpid on the old proc");
	v->old_pid = ids[0];
	fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	v->new_count = count_pids(fd, 0, NULL);
	close(fd);
	count_pids(old, q->test_pid, &v->old_has_parent);
	ns_sync_tell(&q->s, true, NULL, 0);
	return ns_sync_wait(&q->s, true, NULL, 0, NS_WAIT_MS) ? 1 : 0;
}

/*
 * A proc mount shows the PIDs of the mounter's namespace, whoever reads it; /proc/self gives the
 * reader's PID there (pid_namespaces(7)).
 *
 * Inside: /proc/self on the namespace's own mount is "1"; on the mount made
 * in the parent namespace it is the process's PID there (NSpid's first
 * entry).  Outside: the parent reads the child's mount through
 * /proc/PID/root and finds only PID 1 and no /proc/self for itself.
 */
TEST_F(pidns, proc_mount_shows_mounting_namespace_to_every_reader)
{
	struct proc_req q = { .test_pid = getpid() };
	char path[64], buf[32];
	int fd, found = 0;
	pid_t init;

	NS_NEED_ADMIN_OR_USERNS();

	q.v = ns_shared_page(4096);
	ASSERT_NE(NULL, q.v);
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &q.test_mnt));
	init = ns_clone_synced(pidns_new_child, CLONE_NEWNS, &q.s);
	ASSERT_GE(init, 0);
	if (init == 0)
		_exit(proc_view_init(&q));
	ASSERT_EQ(0, ns_sync_wait(&q.s, false, NULL, 0, NS_WAIT_MS));
	EXPECT_STREQ("1", q.v->self_new);
	snprintf(buf, sizeof(buf), "%d", q.v->old_pid);
	EXPECT_STREQ(buf, q.v->self_old);
	EXPECT_NE(1, q.v->old_pid);
	EXPECT_EQ(1, q.v->new_count);
	EXPECT_EQ(1, q.v->old_has_parent);
	/* From outside, through the child's root. */
	snprintf(path, sizeof(path), "/proc/%d/root/proc", init);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	EXPECT_EQ(1, count_pids(fd, getpid(), &found));
	EXPECT_EQ(0, found);
	EXPECT_EQ(-1, readlinkat(fd, "self", buf, sizeof(buf)));
	EXPECT_EQ(ENOENT, errno);
	close(fd);
	ns_sync_tell(&q.s, false, NULL, 0);
	EXPECT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	ns_sync_close(&q.s);
}

struct mount_try {
	struct ns_ident test_mnt;
	int without_pidns;	/* -errno of mounting proc with the old PID namespace */
	int with_pidns;		/* -errno of mounting proc as init of a new one */
};

static int try_mount_proc(struct mount_try *t)
{
	struct ns_ident mnt;

	if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, &t->test_mnt))
		return child_fail("not in a mount namespace of our own");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return child_fail("make / private: %m");
	return mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ? -errno : 0;
}

static int proc_mounter(struct mount_try *t)
{
	pid_t init;

	/* Root of a new user namespace; the PID namespace is still the test's. */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("new user and mount namespace: %m");
	t->without_pidns = try_mount_proc(t);
	if (unshare(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	init = ns_clone(CLONE_NEWNS);
	if (init < 0)
		return child_fail("fork: %m");
	if (init == 0) {
		t->with_pidns = try_mount_proc(t);
		_exit(0);
	}
	return ns_wait(init, NS_WAIT_MS);
}

/*
 * Mounting proc needs CAP_SYS_ADMIN in the user namespace owning the caller's PID namespace
 * (user_namespaces(7)).
 */
TEST_F(pidns, proc_mount_needs_admin_in_pidns_owner)
{
	pid_t pid;

	PROC_REC(struct mount_try, t, NS_NEED_USERNS);
	t->without_pidns = t->with_pidns = 1;
	pid = pidns_track(ns_clone(0));
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(proc_mounter(t));
	ASSERT_EQ(0, pidns_reap(pid, NS_WAIT_MS));
	EXPECT_EQ(-EPERM, t->without_pidns);
	EXPECT_EQ(0, t->with_pidns);
}

struct active_rec {
	struct ns_ident test_mnt;
	char self_creator[32];	/* /proc/self of the mounter, after its unshare */
	char self_child[32];	/* /proc/self of its first child, PID 1 of the new namespace */
	pid_t child_getpid;
	int entries;		/* PID directories the mounter sees */
};

static int read_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self", buf, len - 1);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* O, init of a namespace of the test: unshare(CLONE_NEWPID), mount proc, fork. */
static int mount_after_unshare(struct active_rec *r)
{
	pid_t x;
	int fd;

	if (unshare(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	if (pidns_mount_own_proc(&r->test_mnt))
		return 1;
	if (read_self(r->self_creator, sizeof(r->self_creator)))
		return child_fail("readlink /proc/self: %m");
	x = ns_clone(0);
	if (x < 0)
		return child_fail("fork: %m");
	if (x == 0) {
		r->child_getpid = getpid();
		_exit(read_self(r->self_child, sizeof(r->self_child)) ?
		      child_fail("readlink /proc/self in the child: %m") : 0);
	}
	if (ns_wait(x, NS_WAIT_MS))
		return child_fail("child failed");
	fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	r->entries = count_pids(fd, 0, NULL);
	close(fd);
	return 0;
}

/*
 * proc mounted after unshare(CLONE_NEWPID) shows the mounter's own PID namespace, not the one its
 * children enter (pid_namespaces(7)).
 *
 * The mounter's own PID namespace counts, not pid_for_children: O (PID 1)
 * unshares, mounts proc and forks X.  On that mount /proc/self is "1" for
 * O and "2" for X, which is PID 1 of the new namespace; O sees 1 entry.
 */
TEST_F(pidns, proc_mount_after_unshare_shows_callers_namespace)
{
	pid_t o;

	PROC_REC(struct active_rec, r, NS_NEED_ADMIN_OR_USERNS);
	o = pidns_new_child(CLONE_NEWNS);
	ASSERT_GE(o, 0);
	if (o == 0)
		_exit(mount_after_unshare(r));
	ASSERT_EQ(0, pidns_reap(o, NS_WAIT_MS));
	EXPECT_STREQ("1", r->self_creator);
	EXPECT_EQ(1, r->child_getpid);
	EXPECT_STREQ("2", r->self_child);
	EXPECT_EQ(1, r->entries);
}

struct nspid_rec {
	struct ns_ident test_mnt;
	int n_new, n_old;		/* NSpid entries through the new and the old mount */
	pid_t new_ids[PIDNS_MAX_LEVELS], old_ids[PIDNS_MAX_LEVELS];
};

static int nspid_at(int dirfd, const char *file, pid_t *ids)
{
	char buf[8192];
	int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return pidns_parse_nspid(buf, ids, PIDNS_MAX_LEVELS);
}

static int nspid_views(struct nspid_rec *r)
{
	int old = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), new;

	if (old < 0)
		return child_fail("open /proc: %m");
	if (pidns_mount_own_proc(&r->test_mnt))
		return 1;
	new = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (new < 0)
		return child_fail("open the new /proc: %m");
	r->n_new = nspid_at(new, "self/status", r->new_ids);
	r->n_old = nspid_at(old, "self/status", r->old_ids);
	return 0;
}

/*
 * The NSpid line starts at the PID namespace of the proc mount it is read through (proc(5),
 * pid_namespaces(7)).
 *
 * The same process (init of a new namespace, one level below the test)
 * read through its own proc mount has one entry, 1; through the test's
 * mount one entry more, the first being its PID in the test's namespace.
 */
TEST_F(pidns, nspid_starts_at_namespace_of_proc_mount)
{
	int levels;
	pid_t init;

	PROC_REC(struct nspid_rec, r, NS_NEED_ADMIN_OR_USERNS);
	levels = pidns_self_levels();
	ASSERT_LE(1, levels);
	init = pidns_new_child(CLONE_NEWNS);
	ASSERT_GE(init, 0);
	if (init == 0)
		_exit(nspid_views(r));
	ASSERT_EQ(0, pidns_reap(init, NS_WAIT_MS));
	EXPECT_EQ(1, r->n_new);
	EXPECT_EQ(1, r->new_ids[0]);
	EXPECT_EQ(levels + 1, r->n_old);
	EXPECT_EQ(init, r->old_ids[r->n_old - 2 >= 0 ? r->n_old - 2 : 0]);
	EXPECT_EQ(1, r->old_ids[r->n_old > 0 ? r->n_old - 1 : 0]);
}

/* --- NStgid, NSpgid and NSsid ------------------------------------------- */

/* The four per-level lines of one status file, as read through the test's /proc. */
struct ns_lines {
	int n[4];
	pid_t ids[4][PIDNS_MAX_LEVELS];
};

static const char *const ns_fields[4] = { "NSpid:", "NStgid:", "NSpgid:", "NSsid:" };

struct idlines_rec {
	struct ns_lines init, thread, child;	/* H (PID 1), its thread, its child G */
	int tid;				/* the thread's gettid() inside */
	int ready;				/* the thread has read its lines */
};

static int read_ns_lines(const char *path, struct ns_lines *l)
{
	char buf[8192];

	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return child_fail("read %s: %m", path);
	for (int i = 0; i < 4; i++)
		l->n[i] = pidns_parse_nsfield(buf, ns_fields[i], l->ids[i], PIDNS_MAX_LEVELS);
	return 0;
}

static void *idlines_thread(void *arg)
{
	struct idlines_rec *r = arg;

	r->tid = gettid();
	if (read_ns_lines("/proc/thread-self/status", &r->thread) == 0)
		__atomic_store_n(&r->ready, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* H, PID 1 of a new namespace: new session, child G (PID 2), thread (TID 3). */
static int idlines_init(struct idlines_rec *r)
{
	struct ns_sync s;
	pthread_t th;
	pid_t g;
	int rc;

	if (setsid() < 0)
		return child_fail("setsid: %m");
	g = ns_clone_synced(ns_clone, 0, &s);
	if (g < 0)
		return child_fail("fork: %m");
	if (g == 0) {
		rc = read_ns_lines("/proc/self/status", &r->child);
		ns_sync_tell(&s, true, NULL, 0);
		/* Stay until H has read everything. */
		ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS);
		_exit(rc);
	}
	if (ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS))
		return child_fail("no word from the child");
	if (pthread_create(&th, NULL, idlines_thread, r))
		return child_fail("pthread_create failed");
	pthread_join(th, NULL);
	rc = read_ns_lines("/proc/self/status", &r->init);
	ns_sync_tell(&s, false, NULL, 0);
	if (ns_wait(g, NS_WAIT_MS))
		return child_fail("the child failed");
	return rc || !r->ready ? child_fail("the thread read nothing") : 0;
}

/* The last two entries of line @f of @l: the test's level, then the new namespace's. */
#define LAST2(l, f, outer, inner) do {						\
	ASSERT_EQ(levels + 1, (l)->n[f]) TH_LOG("%s", ns_fields[f]);		\
	EXPECT_EQ(outer, (l)->ids[f][levels - 1]) TH_LOG("%s", ns_fields[f]);	\
	EXPECT_EQ(inner, (l)->ids[f][levels]) TH_LOG("%s", ns_fields[f]);	\
} while (0)

/*
 * NStgid, NSpgid and NSsid give the thread group, process group and session ID at each level, as
 * NSpid does for the PID (proc(5) /proc/pid/status, 4.1+).
 *
 * H (PID 1 of a new namespace, pid X for the test) calls setsid() and
 * forks G (PID 2); a thread of H gets TID 3.  Read through the test's
 * /proc, every line has one entry per level: the thread's NStgid is H's
 * (X, 1) while its NSpid is its own; G's NSpgid and NSsid are H's.
 */
TEST_F(pidns, status_nstgid_nspgid_nssid_list_ids_per_level)
{
	struct idlines_rec *r = ns_shared_page(4096);
	pid_t x, y, z;
	int levels;

	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	levels = pidns_self_levels();
	NS_NEED_FEATURE(NS_F_NSPID, levels == -ENODATA);
	ASSERT_LE(1, levels);
	x = pidns_new_child(0);
	ASSERT_GE(x, 0);
	if (x == 0)
		_exit(idlines_init(r));
	ASSERT_EQ(0, pidns_reap(x, NS_WAIT_MS));
	EXPECT_EQ(3, r->tid);
	for (int f = 0; f < 4; f++)
		LAST2(&r->init, f, x, 1);
	y = r->thread.ids[0][levels - 1];
	z = r->child.ids[0][levels - 1];
	EXPECT_NE(x, y);
	EXPECT_NE(x, z);
	LAST2(&r->thread, 0, y, 3);
	LAST2(&r->thread, 1, x, 1);
	LAST2(&r->thread, 2, x, 1);
	LAST2(&r->thread, 3, x, 1);
	LAST2(&r->child, 0, z, 2);
	LAST2(&r->child, 1, z, 2);
	LAST2(&r->child, 2, x, 1);
	LAST2(&r->child, 3, x, 1);
}

TEST_HARNESS_MAIN
