// SPDX-License-Identifier: GPL-2.0
/*
 * IPC namespaces: ipc_namespaces(7), mq_overview(7), sysvipc(7), and the
 * article's part 1 ("IPC namespaces isolate System V IPC objects and POSIX
 * message queues").
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
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* --- System V objects: one fixture, a variant per object type ------------ */

/*
 * A System V object type: create one with a "size" that tells it apart
 * (segment pages, semaphores in the set, queued messages), read it back.
 */
struct sysv_kind {
	const char *proc;	/* /proc/sysvipc/<proc> */
	int (*create)(key_t key, int size);
	int (*get)(key_t key);
	int (*size)(int id);	/* -errno when @id is not valid here */
};

static int shm_create(key_t key, int size)
{
	return shmget(key, size * 4096, IPC_CREAT | IPC_EXCL | 0600);
}

static int shm_get(key_t key)
{
	return shmget(key, 0, 0);
}

static int shm_size(int id)
{
	struct shmid_ds ds;

	if (shmctl(id, IPC_STAT, &ds))
		return -errno;
	return ds.shm_segsz / 4096;
}

static int sem_create(key_t key, int size)
{
	return semget(key, size, IPC_CREAT | IPC_EXCL | 0600);
}

static int sem_get(key_t key)
{
	return semget(key, 0, 0);
}

static int sem_size(int id)
{
	struct semid_ds ds;

	if (semctl(id, 0, IPC_STAT, &ds))
		return -errno;
	return ds.sem_nsems;
}

static int msg_create(key_t key, int size)
{
	struct { long type; char text[8]; } m = { 1, "x" };
	int id = msgget(key, IPC_CREAT | IPC_EXCL | 0600);

	for (int i = 0; id >= 0 && i < size; i++)
		if (msgsnd(id, &m, sizeof(m.text), IPC_NOWAIT))
			return -1;
	return id;
}

static int msg_get(key_t key)
{
	return msgget(key, 0);
}

static int msg_size(int id)
{
	struct msqid_ds ds;

	if (msgctl(id, IPC_STAT, &ds))
		return -errno;
	return ds.msg_qnum;
}

static const struct sysv_kind shm_kind = { "shm", shm_create, shm_get, shm_size };
static const struct sysv_kind sem_kind = { "sem", sem_create, sem_get, sem_size };
static const struct sysv_kind msg_kind = { "msg", msg_create, msg_get, msg_size };

/* 1 when /proc/sysvipc/<proc> lists @key, 0 when not, -1 on error. */
static int proc_lists_key(const char *proc, key_t key)
{
	char path[64], line[512];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sysvipc/%s", proc);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (strtol(line, NULL, 10) == key)
			found = 1;
	fclose(f);
	return found;
}

static key_t test_key(int n)
{
	return 0x6e000000 | ((getpid() & 0xffff) << 4) | n;
}

/* Move the caller into an IPC namespace of its own (and a user namespace when unprivileged). */
static int private_ipc(void)
{
	return ns_unshare_admin(CLONE_NEWIPC);
}

FIXTURE(sysv) {
	key_t key;
	int id;		/* the parent's object */
	struct ns_sync sync;
};

FIXTURE_VARIANT(sysv) {
	const struct sysv_kind *kind;
};

FIXTURE_VARIANT_ADD(sysv, shm) { .kind = &shm_kind };
FIXTURE_VARIANT_ADD(sysv, sem) { .kind = &sem_kind };
FIXTURE_VARIANT_ADD(sysv, msg) { .kind = &msg_kind };

FIXTURE_SETUP(sysv)
{
	ASSERT_EQ(0, private_ipc());
	self->key = test_key(1);
	self->id = variant->kind->create(self->key, 3);
	ASSERT_GE(self->id, 0) TH_LOG("create %s: %s", variant->kind->proc, strerror(errno));
	ASSERT_EQ(3, variant->kind->size(self->id));
	ASSERT_EQ(0, ns_sync_init(&self->sync));
}

FIXTURE_TEARDOWN(sysv)
{
	ns_sync_close(&self->sync);
}

struct sysv_child {
	const struct sysv_kind *kind;
	key_t key;
	int parent_id;
	struct ns_sync *sync;
};

static int same_key_is_distinct(void *p)
{
	struct sysv_child *c = p;
	int id;

	if (c->kind->get(c->key) >= 0 || errno != ENOENT)
		return child_fail("the parent's key is visible in a new IPC namespace (%m)");
	id = c->kind->create(c->key, 1);
	if (id < 0)
		return child_fail("create with the parent's key in a new IPC namespace: %m");
	if (c->kind->size(id) != 1)
		return child_fail("the new object is not the child's own (size %d)",
				  c->kind->size(id));
	return 0;
}

/* The same key names distinct System V objects in two IPC namespaces (ipc_namespaces(7), sysvipc(7)). */
TEST_F(sysv, same_key_is_distinct_object)
{
	struct sysv_child c = { variant->kind, self->key, self->id, &self->sync };

	EXPECT_EQ(0, ns_run(CLONE_NEWIPC, same_key_is_distinct, &c));
	/* The parent's object is untouched by the child's creation. */
	EXPECT_EQ(self->id, variant->kind->get(self->key));
	EXPECT_EQ(3, variant->kind->size(self->id));
}

static int parent_id_invalid(void *p)
{
	struct sysv_child *c = p;
	int size = c->kind->size(c->parent_id);

	if (size != -EINVAL)
		return child_fail("the parent's id %d reads as %d in a new IPC namespace, expected EINVAL",
				  c->parent_id, size);
	return 0;
}

/* An identifier from one IPC namespace is not valid in another (ipc_namespaces(7)). */
TEST_F(sysv, id_invalid_in_other_namespace)
{
	struct sysv_child c = { variant->kind, self->key, self->id, &self->sync };

	EXPECT_EQ(0, ns_run(CLONE_NEWIPC, parent_id_invalid, &c));
	EXPECT_EQ(3, variant->kind->size(self->id));
}

static int proc_shows_own(void *p)
{
	struct sysv_child *c = p;
	key_t mine = c->key + 1;

	if (c->kind->create(mine, 1) < 0)
		return child_fail("create: %m");
	if (proc_lists_key(c->kind->proc, mine) != 1)
		return child_fail("/proc/sysvipc/%s misses the child's own key", c->kind->proc);
	if (proc_lists_key(c->kind->proc, c->key) != 0)
		return child_fail("/proc/sysvipc/%s lists the parent's key", c->kind->proc);
	ns_sync_tell(c->sync, true, NULL, 0);
	return ns_sync_wait(c->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/* /proc/sysvipc files list only the objects of the reader's IPC namespace (ipc_namespaces(7), proc(5)). */
TEST_F(sysv, proc_sysvipc_lists_only_own)
{
	struct sysv_child c = { variant->kind, self->key, self->id, &self->sync };
	pid_t pid = ns_clone(CLONE_NEWIPC);

	if (pid == 0) {
		ns_sync_child_side(&self->sync);
		_exit(proc_shows_own(&c));
	}
	ASSERT_GT(pid, 0);
	ns_sync_parent_side(&self->sync);
	EXPECT_EQ(0, ns_sync_wait(&self->sync, false, NULL, 0, NS_WAIT_MS));
	/* While the child's object exists, the parent sees only its own. */
	EXPECT_EQ(1, proc_lists_key(variant->kind->proc, self->key));
	EXPECT_EQ(0, proc_lists_key(variant->kind->proc, self->key + 1));
	ns_sync_tell(&self->sync, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
}

static int hold_own_object(void *p)
{
	struct sysv_child *c = p;

	if (c->kind->create(c->key + 2, 2) < 0)
		return child_fail("create: %m");
	ns_sync_tell(c->sync, true, NULL, 0);
	return ns_sync_wait(c->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

static int join_ipc_of(pid_t pid)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWIPC))
		err = -errno;
	close(fd);
	return err;
}

/* setns() into an IPC namespace gives access to its objects, in the calls and in /proc/sysvipc (setns(2); selftests proc/setns-sysvipc). */
TEST_F(sysv, setns_reaches_target_objects)
{
	struct sysv_child c = { variant->kind, self->key, self->id, &self->sync };
	pid_t pid = ns_clone(CLONE_NEWIPC);
	int id;

	if (pid == 0) {
		ns_sync_child_side(&self->sync);
		_exit(hold_own_object(&c));
	}
	ASSERT_GT(pid, 0);
	ns_sync_parent_side(&self->sync);
	ASSERT_EQ(0, ns_sync_wait(&self->sync, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, proc_lists_key(variant->kind->proc, self->key + 2));
	EXPECT_EQ(0, join_ipc_of(pid));
	id = variant->kind->get(self->key + 2);
	EXPECT_GE(id, 0);
	EXPECT_EQ(2, variant->kind->size(id));
	EXPECT_EQ(1, proc_lists_key(variant->kind->proc, self->key + 2));
	/* ...and the object of the namespace left behind is gone from view. */
	EXPECT_EQ(0, proc_lists_key(variant->kind->proc, self->key));
	ns_sync_tell(&self->sync, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
}

/* After unshare(CLONE_NEWIPC) the caller no longer sees the objects it made before (unshare(2); LTP shmnstest). */
TEST_F(sysv, unshare_hides_earlier_objects)
{
	ASSERT_EQ(0, unshare(CLONE_NEWIPC));
	EXPECT_EQ(-1, variant->kind->get(self->key));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, proc_lists_key(variant->kind->proc, self->key));
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

/* POSIX message queue names are per IPC namespace (mq_overview(7), ipc_namespaces(7); LTP mqns_02). */
TEST(posix_mq_names_per_namespace)
{
	char name[64];
	mqd_t q;

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
	struct ns_sync sync;
};

static int mq_fs_child(void *p)
{
	struct mq_fs_arg *a = p;

	ns_sync_child_side(&a->sync);
	if (queue_create(a->child_q, 1, 16) == (mqd_t)-1)
		return child_fail("mq_open: %m");
	if (mount_mqueue("/tmp/mq-child"))
		return child_fail("mount mqueue in the new IPC namespace: %m");
	if (dir_has("/tmp/mq-child", a->child_q) != 1)
		return child_fail("the child's mqueue mount misses its own queue");
	if (dir_has("/tmp/mq-child", a->parent_q) != 0)
		return child_fail("the child's mqueue mount shows the parent's queue");
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/* An mqueue filesystem mounted in an IPC namespace shows that namespace's queues only (mq_overview(7), ipc_namespaces(7)). */
TEST(mqueue_fs_shows_own_queues)
{
	struct statfs sfs;
	struct mq_fs_arg a;
	pid_t pid;

	ASSERT_EQ(0, ns_unshare_admin(CLONE_NEWIPC | CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("tmpfs", "/tmp", "tmpfs", 0, "mode=0700"));
	/* Never create directories on the host's /tmp. */
	ASSERT_EQ(0, statfs("/tmp", &sfs));
	ASSERT_EQ(TMPFS_MAGIC, sfs.f_type);
	queue_name(a.parent_q, sizeof(a.parent_q), "parent");
	queue_name(a.child_q, sizeof(a.child_q), "child");
	ASSERT_NE((mqd_t)-1, queue_create(a.parent_q, 1, 16));
	ASSERT_EQ(0, mount_mqueue("/tmp/mq-parent"));
	ASSERT_EQ(1, dir_has("/tmp/mq-parent", a.parent_q));
	ASSERT_EQ(0, ns_sync_init(&a.sync));
	pid = ns_clone(CLONE_NEWIPC | CLONE_NEWNS);
	if (pid == 0)
		_exit(mq_fs_child(&a));
	ASSERT_GT(pid, 0);
	ns_sync_parent_side(&a.sync);
	EXPECT_EQ(0, ns_sync_wait(&a.sync, false, NULL, 0, NS_WAIT_MS));
	/* While the child's queue exists, the parent's mount does not show it. */
	EXPECT_EQ(0, dir_has("/tmp/mq-parent", a.child_q));
	EXPECT_EQ(1, dir_has("/tmp/mq-parent", a.parent_q));
	ns_sync_tell(&a.sync, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&a.sync);
}

/* --- lifetime ------------------------------------------------------------- */

struct lifetime_arg {
	key_t key;
	struct ns_sync sync;
};

static int make_object_and_exit(void *p)
{
	struct lifetime_arg *a = p;

	ns_sync_child_side(&a->sync);
	if (shm_create(a->key, 2) < 0)
		return child_fail("shmget: %m");
	ns_sync_tell(&a->sync, true, NULL, 0);
	return ns_sync_wait(&a->sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

/* IPC objects live as long as their namespace, which an open /proc/PID/ns/ipc fd keeps alive (namespaces(7), ipc_namespaces(7)). */
TEST(objects_live_while_namespace_referenced)
{
	struct lifetime_arg a;
	char path[64];
	int fd, id;
	pid_t pid;

	ASSERT_EQ(0, private_ipc());
	a.key = test_key(5);
	ASSERT_EQ(0, ns_sync_init(&a.sync));
	pid = ns_clone(CLONE_NEWIPC);
	if (pid == 0)
		_exit(make_object_and_exit(&a));
	ASSERT_GT(pid, 0);
	ns_sync_parent_side(&a.sync);
	ASSERT_EQ(0, ns_sync_wait(&a.sync, false, NULL, 0, NS_WAIT_MS));
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ns_sync_tell(&a.sync, false, NULL, 0);
	ASSERT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	/* Its last process is gone, but the namespace and its segment remain. */
	EXPECT_EQ(-1, shm_get(a.key));
	ASSERT_EQ(0, setns(fd, CLONE_NEWIPC));
	id = shm_get(a.key);
	EXPECT_GE(id, 0);
	EXPECT_EQ(2, shm_size(id));
	close(fd);
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

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A namespace's message queues are destroyed with it: their RLIMIT_MSGQUEUE charge is released (ipc_namespaces(7), mq_overview(7)). */
TEST(queues_destroyed_with_namespace)
{
	struct rlimit rl = { MQ_LIMIT, MQ_LIMIT };
	char name[64];
	long deadline;
	mqd_t held;
	int rc;

	ASSERT_EQ(0, private_ipc());
	ASSERT_EQ(0, setrlimit(RLIMIT_MSGQUEUE, &rl));
	/* Proof that the charge is shared: a live queue leaves no room for a second. */
	queue_name(name, sizeof(name), "held");
	held = queue_create(name, MQ_MAXMSG, MQ_MSGSIZE);
	ASSERT_NE((mqd_t)-1, held) TH_LOG("mq_open: %s", strerror(errno));
	ASSERT_EQ(3, ns_run(CLONE_NEWIPC, make_big_queue, NULL));
	ASSERT_EQ(0, mq_close(held));
	ASSERT_EQ(0, mq_unlink(name));
	/* A namespace that dies with its queue still linked releases it. */
	ASSERT_EQ(0, ns_run(CLONE_NEWIPC, make_big_queue, NULL));
	deadline = ms_now() + 5000;
	do {
		rc = ns_run(CLONE_NEWIPC, make_big_queue, NULL);
		if (rc != 3)
			break;
		usleep(10000);	/* the namespace is freed from a work queue */
	} while (ms_now() < deadline);
	EXPECT_EQ(0, rc) TH_LOG("the queue of a dead IPC namespace is still charged");
}

/* --- sysctls -------------------------------------------------------------- */

static const char *const ipc_sysctls[] = {
	"/proc/sys/kernel/msgmax",
	"/proc/sys/kernel/shmmax",
	"/proc/sys/fs/mqueue/msg_max",
};

/* kernel.shmmax does not fit a long: these sysctls are read as unsigned. */
static int read_ulong(const char *path, unsigned long *v)
{
	char buf[32], *end;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*v = strtoul(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

static int write_ulong(const char *path, unsigned long v)
{
	char buf[32];
	int fd, err = 0;

	snprintf(buf, sizeof(buf), "%lu", v);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, strlen(buf)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int sysctl_child(void *p)
{
	const unsigned long *vals = p;

	for (size_t i = 0; i < sizeof(ipc_sysctls) / sizeof(ipc_sysctls[0]); i++) {
		unsigned long v;
		int err;

		/* A new namespace does not inherit the creator's changed values. */
		if (read_ulong(ipc_sysctls[i], &v) || v == vals[i])
			return child_fail("%s is %lu in a new namespace, the creator's value", ipc_sysctls[i], v);
		err = write_ulong(ipc_sysctls[i], vals[i] - 1);
		if (err == -EACCES || err == -EPERM)
			return 4;
		if (err)
			return child_fail("write %s: %s", ipc_sysctls[i], strerror(-err));
		if (read_ulong(ipc_sysctls[i], &v) || v != vals[i] - 1)
			return child_fail("%s reads %lu after writing %lu", ipc_sysctls[i], v, vals[i] - 1);
	}
	return 0;
}

/* IPC sysctls (kernel.msgmax, kernel.shmmax, fs.mqueue.msg_max) are per IPC namespace (ipc_namespaces(7), mq_overview(7)). */
TEST(sysctls_per_namespace)
{
	unsigned long vals[3];
	int rc;

	ASSERT_EQ(0, private_ipc());
	for (int i = 0; i < 3; i++) {
		unsigned long v;

		if (read_ulong(ipc_sysctls[i], &v))
			SKIP(return, "%s missing", ipc_sysctls[i]);
		vals[i] = v / 2 + 7;
		if (write_ulong(ipc_sysctls[i], vals[i]))
			SKIP(return, "this kernel does not let the owner of an IPC namespace write %s (%s)",
			     ipc_sysctls[i], have_sys_admin() && !in_initial_userns() ?
			     "root of a user namespace" : "no privilege");
	}
	rc = ns_run(CLONE_NEWIPC, sysctl_child, vals);
	if (rc == 4)
		SKIP(return, "this kernel refuses IPC sysctl writes in a child IPC namespace");
	EXPECT_EQ(0, rc);
	/* The child's writes did not reach the parent's namespace. */
	for (int i = 0; i < 3; i++) {
		unsigned long v = 0;

		EXPECT_EQ(0, read_ulong(ipc_sysctls[i], &v));
		EXPECT_EQ(vals[i], v);
	}
}

/* --- creation rules ------------------------------------------------------- */

static int unprivileged_unshare_ipc(void *p)
{
	struct ns_ident before, after;
	uid_t uid;
	gid_t gid;

	(void)p;
	if (become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	if (unshare(CLONE_NEWIPC) == 0 || errno != EPERM)
		return child_fail("unshare(CLONE_NEWIPC) without CAP_SYS_ADMIN: %m, expected EPERM");
	uid = geteuid();
	gid = getegid();
	ns_ident_of(0, "ipc", &before);
	if (unshare(CLONE_NEWUSER | CLONE_NEWIPC))
		return child_fail("unshare(CLONE_NEWUSER|CLONE_NEWIPC) unprivileged: %m");
	ns_ident_of(0, "ipc", &after);
	if (ns_ident_eq(&before, &after))
		return child_fail("still in the old IPC namespace");
	/* Root of the new user namespace can use the new IPC namespace. */
	if (ns_map_root(0, uid, gid) == 0 && shm_create(test_key(9), 1) < 0)
		return child_fail("shmget in the new IPC namespace: %m");
	return 0;
}

/* Creating an IPC namespace needs CAP_SYS_ADMIN, and works unprivileged together with a new user namespace (clone(2), user_namespaces(7)). */
TEST(create_needs_cap_sys_admin)
{
	const char *why = userns_unprivileged_blocker();

	if (why)
		SKIP(return, "unprivileged user namespaces unavailable: %s", why);
	if (have_sys_admin())
		ASSERT_EQ(0, private_ipc());
	EXPECT_EQ(0, ns_run(0, unprivileged_unshare_ipc, NULL));
}

TEST_HARNESS_MAIN
