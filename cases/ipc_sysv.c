// SPDX-License-Identifier: GPL-2.0
/*
 * IPC namespaces and System V IPC objects: ipc_namespaces(7), sysvipc(7),
 * and the article's part 1 ("IPC namespaces isolate System V IPC objects").
 * POSIX message queues and IPC sysctls are in ipc.c.
 *
 * Every test first moves into an IPC namespace of its own, so that no
 * object it makes can land among the host's, even when a kernel ignores
 * CLONE_NEWIPC.  Keys and names are derived from the test's PID.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
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
	NS_NEED_ADMIN_OR_USERNS();
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

/*
 * The same key names distinct System V objects in two IPC namespaces (ipc_namespaces(7),
 * sysvipc(7)).
 */
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
		return child_fail("the parent's id %d reads as %d in a new IPC namespace, "
				  "expected EINVAL",
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

/*
 * /proc/sysvipc files list only the objects of the reader's IPC namespace (ipc_namespaces(7),
 * proc(5)).
 */
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
	int fd = ns_open(pid, "ipc"), err = 0;

	if (fd < 0)
		return fd;
	if (setns(fd, CLONE_NEWIPC))
		err = -errno;
	close(fd);
	return err;
}

/*
 * setns() into an IPC namespace gives access to its objects, in the calls and in /proc/sysvipc
 * (setns(2); selftests proc/setns-sysvipc).
 */
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

/*
 * After unshare(CLONE_NEWIPC) the caller no longer sees the objects it made before (unshare(2); LTP
 * shmnstest).
 */
TEST_F(sysv, unshare_hides_earlier_objects)
{
	ASSERT_EQ(0, unshare(CLONE_NEWIPC));
	EXPECT_EQ(-1, variant->kind->get(self->key));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, proc_lists_key(variant->kind->proc, self->key));
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

/*
 * IPC objects live as long as their namespace, which an open /proc/PID/ns/ipc fd keeps alive
 * (namespaces(7), ipc_namespaces(7)).
 */
TEST(objects_live_while_namespace_referenced)
{
	struct lifetime_arg a;
	int fd, id;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, private_ipc());
	a.key = test_key(5);
	pid = ns_clone_synced(ns_clone, CLONE_NEWIPC, &a.sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(make_object_and_exit(&a));
	ASSERT_EQ(0, ns_sync_wait(&a.sync, false, NULL, 0, NS_WAIT_MS));
	fd = ns_open(pid, "ipc");
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

struct locked_rec {
	int child_lock;		/* -errno of SHM_LOCK in the namespace that dies */
	int while_alive;	/* -errno of the second SHM_LOCK while it lives */
	int after;		/* -errno of the second SHM_LOCK after it died */
};

/* Not in the shared record: each side closes its own copy's other end. */
static struct ns_sync lock_sync;

/* A new shm segment of @size locked with SHM_LOCK: its id, or -errno (the lock's). */
static int locked_segment(size_t size, int *id)
{
	*id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	if (*id < 0)
		return -errno;
	return shmctl(*id, SHM_LOCK, NULL) ? -errno : 0;
}

static int lock_and_wait(void *arg)
{
	struct locked_rec *r = arg;
	int id;

	ns_sync_child_side(&lock_sync);
	r->child_lock = locked_segment(2 * sysconf(_SC_PAGESIZE), &id);
	ns_sync_tell(&lock_sync, true, NULL, 0);
	/* exits, leaving the locked segment (shm_rmid_forced 0) to its namespace */
	return ns_sync_wait(&lock_sync, true, NULL, 0, NS_WAIT_MS) ? 2 : 0;
}

static int lock_in_dying_ns(void *arg)
{
	struct locked_rec *r = arg;
	long page = sysconf(_SC_PAGESIZE), deadline;
	struct rlimit lim = { 3 * page, 3 * page };
	int id, rc;
	pid_t pid;

	if (setrlimit(RLIMIT_MEMLOCK, &lim))
		return child_fail("setrlimit(RLIMIT_MEMLOCK): %m");
	/* in a user namespace even real root has no CAP_IPC_LOCK over the limit */
	if (ns_unshare_userns_root(CLONE_NEWIPC))
		return child_fail("new user and IPC namespace: %m");
	pid = ns_clone_synced(ns_clone, CLONE_NEWIPC, &lock_sync);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWIPC): %m");
	if (pid == 0)
		_exit(lock_and_wait(r));
	if (ns_sync_wait(&lock_sync, false, NULL, 0, NS_WAIT_MS))
		return child_fail("the child did not lock its segment");
	r->while_alive = locked_segment(2 * page, &id);
	ns_sync_tell(&lock_sync, false, NULL, 0);
	rc = ns_wait(pid, NS_WAIT_MS);
	ns_sync_close(&lock_sync);
	if (rc)
		return child_fail("the child exited %d", rc);
	/* the namespace is freed after its last process, asynchronously */
	deadline = ns_now_ms() + 8000;
	do {
		struct timespec tick = { 0, 10000000 };

		r->after = shmctl(id, SHM_LOCK, NULL) ? -errno : 0;
		if (r->after != -ENOMEM)
			break;
		nanosleep(&tick, NULL);
	} while (ns_now_ms() < deadline);
	return 0;
}

/*
 * When an IPC namespace is destroyed its System V objects are destroyed: a segment's SHM_LOCK
 * charge against RLIMIT_MEMLOCK is released (ipc_namespaces(7), shmctl(2) SHM_LOCK).
 *
 * RLIMIT_MEMLOCK is 3 pages; a child in its own IPC namespace locks a
 * 2-page segment and exits without removing it, so only the end of its
 * namespace can free it.  While it lives our own 2-page lock is ENOMEM;
 * once its namespace is gone the same lock works.
 */
TEST(sysv_objects_destroyed_with_namespace)
{
	struct locked_rec *r = ns_shared_page(1 << 16);

	NS_NEED_USERNS();
	ASSERT_NE(NULL, r);
	r->child_lock = r->while_alive = r->after = 1;
	ASSERT_EQ(0, ns_run(0, lock_in_dying_ns, r));
	ASSERT_EQ(0, r->child_lock) TH_LOG("%s", strerror(-r->child_lock));
	EXPECT_EQ(-ENOMEM, r->while_alive);
	EXPECT_EQ(0, r->after) TH_LOG("%s", strerror(-r->after));
}

/* --- creation rules ------------------------------------------------------- */

static int unprivileged_unshare_ipc(void *p)
{
	struct ns_ident before, after;
	uid_t uid;
	gid_t gid;

	(void)p;
	if (ns_become_unprivileged())
		return child_fail("cannot drop privileges: %m");
	if (unshare(CLONE_NEWIPC) == 0 || errno != EPERM)
		return child_fail("unshare(CLONE_NEWIPC) without CAP_SYS_ADMIN: %m, "
				  "expected EPERM");
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

/*
 * Creating an IPC namespace needs CAP_SYS_ADMIN, and works unprivileged together with a new user
 * namespace (clone(2), user_namespaces(7)).
 */
TEST(create_needs_cap_sys_admin)
{
	NS_NEED_UNPRIV_USERNS();
	if (ns_have_sys_admin())
		ASSERT_EQ(0, private_ipc());
	EXPECT_EQ(0, ns_run(0, unprivileged_unshare_ipc, NULL));
}

TEST_HARNESS_MAIN
