// SPDX-License-Identifier: GPL-2.0
/*
 * IPC namespaces, POSIX message queues and IPC sysctls: ipc_namespaces(7),
 * mq_overview(7), and the article's part 1 ("IPC namespaces isolate ...
 * POSIX message queues").  System V objects are in ipc_sysv.c.
 *
 * Every test first moves into an IPC namespace of its own, so that no
 * object it makes can land among the host's, even when a kernel ignores
 * CLONE_NEWIPC.  Keys and names are derived from the test's PID.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* Move the caller into an IPC namespace of its own (and a user namespace when unprivileged). */
static int private_ipc(void)
{
	return ns_unshare_admin(CLONE_NEWIPC);
}

/* --- POSIX message queues ------------------------------------------------- */

static void queue_name(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/nsconform-%s-%d", tag, getpid());
}

static mqd_t queue_create(const char *name, long maxmsg, long msgsize)
{
	struct mq_attr attr = { .mq_maxmsg = maxmsg, .mq_msgsize = msgsize };

	return mq_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, &attr);
}

static long queue_maxmsg(mqd_t q)
{
	struct mq_attr attr;

	return mq_getattr(q, &attr) ? -errno : attr.mq_maxmsg;
}

static int mq_distinct_child(void *p)
{
	const char *name = p;
	mqd_t q;

	if (mq_open(name, O_RDONLY) != (mqd_t)-1 || errno != ENOENT)
		return child_fail("the parent's queue %s opens in a new IPC namespace (%m)", name);
	q = queue_create(name, 2, 64);
	if (q == (mqd_t)-1)
		return child_fail("create %s in the new namespace: %m", name);
	if (queue_maxmsg(q) != 2)
		return child_fail("the child's queue is not its own");
	return 0;
}

/*
 * POSIX message queue names are per IPC namespace (mq_overview(7), ipc_namespaces(7); LTP mqns_02).
 */
TEST(posix_mq_names_per_namespace)
{
	char name[64];
	mqd_t q;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_ipc());
	queue_name(name, sizeof(name), "q");
	q = queue_create(name, 3, 64);
	ASSERT_NE((mqd_t)-1, q) TH_LOG("mq_open: %s", strerror(errno));
	EXPECT_EQ(0, ns_run(CLONE_NEWIPC, mq_distinct_child, name));
	/* The parent's queue is still its own after the child made one. */
	EXPECT_EQ(3, queue_maxmsg(q));
	mq_close(q);
	q = mq_open(name, O_RDONLY);
	EXPECT_NE((mqd_t)-1, q);
	EXPECT_EQ(3, queue_maxmsg(q));
}

/* 1 when directory @dir holds an entry named @name (without its '/'). */
static int dir_has(const char *dir, const char *name)
{
	struct dirent *d;
	int found = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		if (!strcmp(d->d_name, name + 1))
			found = 1;
	closedir(dp);
	return found;
}

static int mount_mqueue(const char *dir)
{
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return mount("mqueue", dir, "mqueue", 0, NULL) ? -errno : 0;
}

struct mq_fs_arg {
	char parent_q[64];
	char child_q[64];
	char parent_dir[128];
	char child_dir[128];
	struct ns_sync sync;
};

static int mq_fs_child(void *p)
{
	struct mq_fs_arg *a = p;

	ns_sync_child_side(&a->sync);
	if (queue_create(a->child_q, 1, 16) == (mqd_t)-1)
		return child_fail("mq_open: %m");
	if (mount_mqueue(a->child_dir))
		return child_fail("mount mqueue in the new IPC namespace: %m");
	if (dir_has(a->child_dir, a->child_q) != 1)
		return child_fail("the child's mqueue mount misses its own queue");
	if (dir_has(a->child_dir, a->parent_q) != 0)
		return child_fail("the child's mqueue mount shows the parent's queue");
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/*
 * An mqueue filesystem mounted in an IPC namespace shows that namespace's queues only
 * (mq_overview(7), ipc_namespaces(7)).
 */
TEST(mqueue_fs_shows_own_queues)
{
	struct mnt_base base;
	struct mq_fs_arg a;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_ipc());
	/* A private mount namespace and tmpfs, checked before anything is mounted. */
	ASSERT_EQ(0, mnt_base_enter(&base)) TH_LOG("%s", base.why);
	mnt_path(a.parent_dir, &base, "mq-parent");
	mnt_path(a.child_dir, &base, "mq-child");
	queue_name(a.parent_q, sizeof(a.parent_q), "parent");
	queue_name(a.child_q, sizeof(a.child_q), "child");
	ASSERT_NE((mqd_t)-1, queue_create(a.parent_q, 1, 16));
	ASSERT_EQ(0, mount_mqueue(a.parent_dir));
	ASSERT_EQ(1, dir_has(a.parent_dir, a.parent_q));
	pid = ns_clone_synced(ns_clone, CLONE_NEWIPC | CLONE_NEWNS, &a.sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(mq_fs_child(&a));
	EXPECT_EQ(0, ns_sync_wait(&a.sync, false, NULL, 0, NS_WAIT_MS));
	/* While the child's queue exists, the parent's mount does not show it. */
	EXPECT_EQ(0, dir_has(a.parent_dir, a.child_q));
	EXPECT_EQ(1, dir_has(a.parent_dir, a.parent_q));
	ns_sync_tell(&a.sync, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&a.sync);
}

/*
 * Queue memory charged to RLIMIT_MSGQUEUE is maxmsg * msgsize plus some
 * overhead: one such queue fits in MQ_LIMIT, two do not.  The sizes stay
 * within the default fs.mqueue limits, which bind without CAP_SYS_RESOURCE.
 */
#define MQ_LIMIT	(100 * 1024)
#define MQ_MAXMSG	8
#define MQ_MSGSIZE	8192

static int make_big_queue(void *p)
{
	char name[64];

	(void)p;
	queue_name(name, sizeof(name), "big");
	if (queue_create(name, MQ_MAXMSG, MQ_MSGSIZE) == (mqd_t)-1)
		return errno == EMFILE ? 3 : child_fail("mq_open: %m");
	return 0;
}

/*
 * A namespace's message queues are destroyed with it: their RLIMIT_MSGQUEUE charge is released
 * (ipc_namespaces(7), mq_overview(7)).
 */
TEST(queues_destroyed_with_namespace)
{
	struct rlimit rl = { MQ_LIMIT, MQ_LIMIT };
	char name[64];
	long deadline;
	mqd_t held;
	int rc;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_ipc());
	ASSERT_EQ(0, setrlimit(RLIMIT_MSGQUEUE, &rl));
	/*
	 * Proof that the charge is shared: a live queue leaves no room for a second.
	 * The first may have to wait until the IPC namespaces of earlier tests are
	 * freed (from a work queue) and their charge released, as below.
	 */
	queue_name(name, sizeof(name), "held");
	deadline = ns_now_ms() + 5000;
	while ((held = queue_create(name, MQ_MAXMSG, MQ_MSGSIZE)) == (mqd_t)-1 &&
	       errno == EMFILE && ns_now_ms() < deadline)
		usleep(10000);
	ASSERT_NE((mqd_t)-1, held) TH_LOG("mq_open: %s", strerror(errno));
	ASSERT_EQ(3, ns_run(CLONE_NEWIPC, make_big_queue, NULL));
	ASSERT_EQ(0, mq_close(held));
	ASSERT_EQ(0, mq_unlink(name));
	/* A namespace that dies with its queue still linked releases it. */
	ASSERT_EQ(0, ns_run(CLONE_NEWIPC, make_big_queue, NULL));
	deadline = ns_now_ms() + 5000;
	do {
		rc = ns_run(CLONE_NEWIPC, make_big_queue, NULL);
		if (rc != 3)
			break;
		usleep(10000);	/* the namespace is freed from a work queue */
	} while (ns_now_ms() < deadline);
	EXPECT_EQ(0, rc) TH_LOG("the queue of a dead IPC namespace is still charged");
}

/* --- sysctls -------------------------------------------------------------- */

static const char *const ipc_sysctls[] = {
	"/proc/sys/kernel/msgmax",
	"/proc/sys/kernel/shmmax",
	"/proc/sys/fs/mqueue/msg_max",
};

/*
 * kernel.shmmax does not fit a long: these sysctls are read as unsigned, and
 * 64-bit: a 32-bit caller (the compat pass) reads the 64-bit kernel's value.
 */
static int read_u64(const char *path, unsigned long long *v)
{
	char buf[32], *end;

	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

static int write_u64(const char *path, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	return ns_write_file(path, buf);
}

static int sysctl_child(void *p)
{
	const unsigned long long *vals = p;

	for (size_t i = 0; i < sizeof(ipc_sysctls) / sizeof(ipc_sysctls[0]); i++) {
		unsigned long long v;
		int err;

		/* A new namespace does not inherit the creator's changed values. */
		if (read_u64(ipc_sysctls[i], &v) || v == vals[i])
			return child_fail("%s is %llu in a new namespace, the creator's value",
					  ipc_sysctls[i], v);
		err = write_u64(ipc_sysctls[i], vals[i] - 1);
		if (err)
			return child_fail("write %s: %s", ipc_sysctls[i], strerror(-err));
		if (read_u64(ipc_sysctls[i], &v) || v != vals[i] - 1)
			return child_fail("%s reads %llu after writing %llu",
					  ipc_sysctls[i], v, vals[i] - 1);
	}
	return 0;
}

/*
 * IPC sysctls (kernel.msgmax, kernel.shmmax, fs.mqueue.msg_max) are per IPC namespace
 * (ipc_namespaces(7), mq_overview(7)).
 *
 * The owner of an IPC namespace writes them there: real root always, root
 * of a user namespace since linux:50ec499b9a43 "sysctl: allow change
 * system v ipc sysctls inside ipc namespace" and linux:f9436a5d0497 for
 * fs.mqueue (6.9; stable 6.6.y, 6.1.y),
 * probed by the owner of the file in a new user and IPC namespace, never by
 * the write under test: a refused write fails the test.
 */
TEST(sysctls_per_namespace)
{
	unsigned long long vals[3];
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	for (int i = 0; i < 3 && !ns_have_sys_admin(); i++) {
		int owned = ns_ipc_sysctl_owned_by_ns_root(ipc_sysctls[i]);

		ASSERT_LE(0, owned) TH_LOG("the owner probe of %s failed", ipc_sysctls[i]);
		NS_NEED_FEATURE(NS_F_IPC_SYSCTL_OWNER, !owned);
	}
	ASSERT_EQ(0, private_ipc());
	for (int i = 0; i < 3; i++) {
		unsigned long long v;
		int err;

		ASSERT_EQ(0, read_u64(ipc_sysctls[i], &v)) TH_LOG("read %s", ipc_sysctls[i]);
		vals[i] = v / 2 + 7;
		err = write_u64(ipc_sysctls[i], vals[i]);
		ASSERT_EQ(0, err) TH_LOG("the owner of the IPC namespace (%s) writes %s: %s",
					 ns_in_initial_userns() ? "real root" :
					 "root of a user namespace", ipc_sysctls[i], strerror(-err));
	}
	rc = ns_run(CLONE_NEWIPC, sysctl_child, vals);
	EXPECT_EQ(0, rc);
	/* The child's writes did not reach the parent's namespace. */
	for (int i = 0; i < 3; i++) {
		unsigned long long v = 0;

		EXPECT_EQ(0, read_u64(ipc_sysctls[i], &v));
		EXPECT_EQ(vals[i], v);
	}
}

struct mq_mount_rec {
	char q[64];		/* a queue made in the IPC namespace of the user namespace */
	int foreign;		/* -errno of mounting mqueue in the test's IPC namespace */
	int own;		/* -errno of mounting it in one of the user namespace */
	int lists_q;		/* that mount lists q */
};

static int mq_mount_as_userns_root(void *arg)
{
	struct mq_mount_rec *r = arg;
	char a[MNT_PATH_MAX], b[MNT_PATH_MAX];
	struct mnt_base base;
	struct ns_ident ipc;

	if (ns_unshare_userns_root(0))
		return child_fail("root of a new user namespace: %m");
	if (mnt_base_enter(&base))
		return child_fail("%s", base.why);
	if (ns_ident_of(0, "ipc", &ipc))
		return child_fail("stat: %m");
	r->foreign = mount_mqueue(mnt_path(a, &base, "a"));
	if (ns_unshare_admin(CLONE_NEWIPC))
		return child_fail("unshare(CLONE_NEWIPC): %m");
	if (queue_create(r->q, 1, 16) == (mqd_t)-1)
		return child_fail("mq_open: %m");
	r->own = mount_mqueue(mnt_path(b, &base, "b"));
	if (!r->own)
		r->lists_q = dir_has(b, r->q);
	return 0;
}

/*
 * Mounting mqueue needs CAP_SYS_ADMIN in the user namespace owning the caller's IPC namespace:
 * EPERM in one owned by an ancestor (user_namespaces(7): the page names only the mount
 * namespace's owner).
 *
 * Root of a user namespace with a mount namespace of its own, still in
 * the test's IPC namespace, is refused; after unshare(CLONE_NEWIPC) the
 * mount works and lists the queue made there.  The kernel checks the owner
 * of the IPC namespace the mount will show (mqueue_init_fs_context())
 * besides the mount namespace's owner the page names.
 */
TEST(mqueue_mount_needs_cap_in_ipcns_owner)
{
	struct mq_mount_rec *r = ns_shared_page(1 << 16);

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, private_ipc());
	queue_name(r->q, sizeof(r->q), "own");
	r->foreign = r->own = 1;
	ASSERT_EQ(0, ns_run(0, mq_mount_as_userns_root, r));
	EXPECT_EQ(-EPERM, r->foreign);
	EXPECT_EQ(0, r->own);
	EXPECT_EQ(1, r->lists_q);
}

TEST_HARNESS_MAIN
