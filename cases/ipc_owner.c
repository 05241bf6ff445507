// SPDX-License-Identifier: GPL-2.0
/*
 * IPC objects across user namespaces and the limits of a new IPC
 * namespace: System V owner and creator ids as each user namespace maps
 * them, the owner of a POSIX queue's file, CAP_IPC_OWNER counted in the
 * user namespace that owns the IPC namespace, and the documented defaults
 * of the per-namespace limits (and that they, and shm_rmid_forced, bind
 * only their namespace, whose limits and counts the *_INFO calls report).
 * Sources: ipc_namespaces(7), svipc(7), mq_overview(7), proc(5),
 * capabilities(7), user_namespaces(7).
 *
 * Every object lives in an IPC namespace the test made (ns_clone_admin:
 * with a user namespace first when unprivileged).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/*
 * Unprivileged, the limits are written as root of a user namespace: that
 * needs the IPC sysctls owned by the IPC namespace's owner, decided by the
 * probe before the run; a refused write is then a failure.  The owner got
 * them in 6.9 (linux:50ec499b9a43 "sysctl: allow change system v ipc
 * sysctls inside ipc namespace", linux:f9436a5d0497 for fs.mqueue): first
 * posted in September 2022, merged for 6.9, backported to 6.6.y and 6.1.y
 * (Debian 6.1.106 lists it); 5.10 has not.
 */
#define NEED_IPC_SYSCTL_OWNER(path) do {					\
	int owned_ = ns_have_sys_admin() ? 1 :					\
		     ns_ipc_sysctl_owned_by_ns_root(path);			\
	ASSERT_LE(0, owned_);							\
	NS_NEED_FEATURE(NS_F_IPC_SYSCTL_OWNER, !owned_);		\
} while (0)

#define KEY 0x6e73636f		/* "nsco": only ever in IPC namespaces of the test */

enum { SHM, SEM, MSG, NTYPES };

/*
 * The test's IPC namespace (each TEST sets it before forking) and, in a
 * two-level test, the intermediate one: a child that creates objects or
 * writes limits first checks that it is in neither, so that a kernel
 * ignoring CLONE_NEWIPC fails the test instead of changing the host.
 */
static struct ns_ident test_ipc, outer_ipc;

static bool in_ipc_ns_other_than(const struct ns_ident *than)
{
	struct ns_ident me;

	return !ns_ident_of(0, "ipc", &me) && !ns_ident_eq(&me, than);
}

#define NEED_OWN_IPC_NS(than) do {						\
	if (!in_ipc_ns_other_than(than))					\
		return child_fail("not in an IPC namespace of our own");	\
} while (0)

/* Record the test's IPC namespace: for a TEST, before its first fork. */
#define TEST_IPC_NS() ASSERT_EQ(0, ns_ident_of(0, "ipc", &test_ipc))
static const char *const type_name[NTYPES] = { "shm", "sem", "msg" };

/*
 * From an IPC namespace of the test's (recorded as outer_ipc): @child(@arg)
 * in a new one below it.  ns_run()'s result.
 */
static int run_in_child_ipc_ns(int (*child)(void *), void *arg)
{
	NEED_OWN_IPC_NS(&test_ipc);
	if (ns_ident_of(0, "ipc", &outer_ipc))
		return child_fail("stat our IPC namespace: %m");
	return ns_run(CLONE_NEWIPC, child, arg);
}

/* Create an object of @type under @key with @mode; its id or -errno. */
static int sysv_create_key(int type, key_t key, int mode)
{
	int id = -1;

	switch (type) {
	case SHM:
		id = shmget(key, 4096, IPC_CREAT | IPC_EXCL | mode);
		break;
	case SEM:
		id = semget(key, 1, IPC_CREAT | IPC_EXCL | mode);
		break;
	case MSG:
		id = msgget(key, IPC_CREAT | IPC_EXCL | mode);
		break;
	}
	return id < 0 ? -errno : id;
}

static int sysv_create(int type, int mode)
{
	return sysv_create_key(type, KEY, mode);
}

/* Look the object up asking for read permission: its id or -errno. */
static int sysv_get(int type)
{
	int id = -1;

	switch (type) {
	case SHM:
		id = shmget(KEY, 0, 0400);
		break;
	case SEM:
		id = semget(KEY, 0, 0400);
		break;
	case MSG:
		id = msgget(KEY, 0400);
		break;
	}
	return id < 0 ? -errno : id;
}

struct owner_ids {
	int err;
	unsigned int uid, gid, cuid, cgid;
};

static void sysv_stat(int type, int id, struct owner_ids *o)
{
	struct ipc_perm *p = NULL;
	struct shmid_ds shm;
	struct semid_ds sem;
	struct msqid_ds msg;
	int r = -1;

	switch (type) {
	case SHM:
		r = shmctl(id, IPC_STAT, &shm);
		p = &shm.shm_perm;
		break;
	case SEM:
		r = semctl(id, 0, IPC_STAT, &sem);
		p = &sem.sem_perm;
		break;
	case MSG:
		r = msgctl(id, IPC_STAT, &msg);
		p = &msg.msg_perm;
		break;
	}
	o->err = r ? -errno : 0;
	if (!r) {
		o->uid = p->uid;
		o->gid = p->gid;
		o->cuid = p->cuid;
		o->cgid = p->cgid;
	}
}

static void rm_sysv(int type, int id)
{
	if (type == SHM)
		shmctl(id, IPC_RMID, NULL);
	else if (type == SEM)
		semctl(id, 0, IPC_RMID);
	else
		msgctl(id, IPC_RMID, NULL);
}

/* --- owner and creator ids ---------------------------------------------------- */

struct ids_rec {
	int type;
	struct owner_ids creator;	/* IPC_STAT in the creator's user namespace */
	struct owner_ids mapped;	/* from a child user ns mapping 1000 to the creator */
	struct owner_ids unmapped;	/* from a child user ns with no map */
	long overflow;			/* /proc/sys/kernel/overflowuid */
	int proc_uid;			/* uid column of /proc/sysvipc/<type> in the mapped one */
};

/* The uid column of the line of our object in /proc/sysvipc/@type, or -1. */
static int proc_sysvipc_uid(int type)
{
	char path[64], buf[4096], *line, *save;
	/* Columns: key id ... then uid at index 4 (shm: 7), and for all "uid gid cuid cgid". */
	static const int uid_col[NTYPES] = { 7, 4, 7 };

	snprintf(path, sizeof(path), "/proc/sysvipc/%s", type_name[type]);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tok, *ts;
		int col = 0, uid = -1;

		if (strtol(line, NULL, 10) != KEY)
			continue;
		for (tok = strtok_r(line, " \t", &ts); tok; tok = strtok_r(NULL, " \t", &ts), col++)
			if (col == uid_col[type])
				uid = atoi(tok);
		return uid;
	}
	return -1;
}

/* In a new user namespace: map @inside to the caller's ids outside (or nothing). */
static int own_userns(const char *inside)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (unshare(CLONE_NEWUSER))
		return -errno;
	if (!inside)
		return 0;
	snprintf(map, sizeof(map), "%s %u 1\n", inside, uid);
	if (ns_write_proc(0, "uid_map", map) || ns_write_proc(0, "setgroups", "deny"))
		return -EPERM;
	snprintf(map, sizeof(map), "%s %u 1\n", inside, gid);
	return ns_write_proc(0, "gid_map", map);
}

static int view_from(struct ids_rec *r, int id, bool mapped)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		if (own_userns(mapped ? "1000" : NULL))
			_exit(child_fail("new user namespace: %m"));
		sysv_stat(r->type, id, mapped ? &r->mapped : &r->unmapped);
		if (mapped)
			r->proc_uid = proc_sysvipc_uid(r->type);
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int owner_views(void *arg)
{
	struct ids_rec *r = arg;
	int id, rc;

	NEED_OWN_IPC_NS(&test_ipc);
	id = sysv_create(r->type, 0600);
	if (id < 0)
		return child_fail("create %s: %s", type_name[r->type], strerror(-id));
	if (ns_read_long("/proc/sys/kernel/overflowuid", &r->overflow))
		return child_fail("overflowuid: %m");
	sysv_stat(r->type, id, &r->creator);
	rc = view_from(r, id, true) || view_from(r, id, false);
	rm_sysv(r->type, id);
	return rc;
}

static void check_owner_views(struct __test_metadata *_metadata, int type)
{
	struct ids_rec *r = ns_shared_page(1 << 16);

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	r->type = type;
	r->mapped.err = r->unmapped.err = r->creator.err = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, owner_views, r));
	/* The creator is root (of the test's user namespace or of its own). */
	EXPECT_EQ(0, r->creator.err);
	EXPECT_EQ(0, r->creator.uid);
	EXPECT_EQ(0, r->creator.cuid);
	EXPECT_EQ(0, r->creator.gid);
	EXPECT_EQ(0, r->creator.cgid);
	EXPECT_EQ(0, r->mapped.err);
	EXPECT_EQ(1000, r->mapped.uid);
	EXPECT_EQ(1000, r->mapped.cuid);
	EXPECT_EQ(1000, r->mapped.gid);
	EXPECT_EQ(1000, r->mapped.cgid);
	EXPECT_EQ(1000, r->proc_uid);
	EXPECT_EQ(0, r->unmapped.err);
	EXPECT_EQ(r->overflow, r->unmapped.uid);
	EXPECT_EQ(r->overflow, r->unmapped.cuid);
}

/*
 * The owner and creator ids of a System V shm segment are shown as the reader's user namespace maps
 * them (svipc(7), user_namespaces(7)).
 *
 * One shared memory segment seen from three user namespaces sharing its
 * IPC namespace: the creator's (root), one mapping 1000 to the creator
 * (IPC_STAT and /proc/sysvipc/shm say 1000) and one with no map (the
 * overflow uid).
 */
TEST(shm_owner_ids_mapped_per_user_namespace)
{
	NS_NEED_USERNS();
	check_owner_views(_metadata, SHM);
}

/*
 * The owner and creator ids of a System V semaphore set are shown as the reader's user namespace
 * maps them (svipc(7), user_namespaces(7)).
 */
TEST(sem_owner_ids_mapped_per_user_namespace)
{
	NS_NEED_USERNS();
	check_owner_views(_metadata, SEM);
}

/*
 * The owner and creator ids of a System V message queue are shown as the reader's user namespace
 * maps them (svipc(7), user_namespaces(7)).
 */
TEST(msg_owner_ids_mapped_per_user_namespace)
{
	NS_NEED_USERNS();
	check_owner_views(_metadata, MSG);
}

struct mq_rec {
	struct ns_ident test_mnt;
	int creator_uid, mapped_uid;
	int stat_err;
};

static int mq_owner_views(void *arg)
{
	struct mq_rec *r = arg;
	struct ns_ident mnt;
	struct stat st;
	pid_t pid;
	mqd_t q;

	NEED_OWN_IPC_NS(&test_ipc);
	if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, &r->test_mnt))
		return child_fail("not in a mount namespace of our own");
	if (ns_private_tmp("size=64k"))
		return 1;
	if (mkdir("/tmp/mq", 0755) || mount("mqueue", "/tmp/mq", "mqueue", 0, NULL))
		return child_fail("mount mqueue: %m");
	q = mq_open("/nsc-owner", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, NULL);
	if (q == (mqd_t)-1)
		return child_fail("mq_open: %m");
	if (stat("/tmp/mq/nsc-owner", &st))
		return child_fail("stat the queue: %m");
	r->creator_uid = st.st_uid;
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		if (own_userns("1000"))
			_exit(child_fail("new user namespace: %m"));
		r->stat_err = stat("/tmp/mq/nsc-owner", &st) ? -errno : 0;
		r->mapped_uid = st.st_uid;
		_exit(0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * The file of a POSIX message queue on an mqueue mount is owned by its creator, as the reader's
 * user namespace maps it (mq_overview(7), user_namespaces(7)).
 */
TEST(mq_file_owner_mapped_per_user_namespace)
{
	struct mq_rec *r = ns_shared_page(1 << 16);

	NS_NEED_USERNS();

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r->test_mnt));
	TEST_IPC_NS();
	r->creator_uid = r->mapped_uid = -1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC | CLONE_NEWNS, mq_owner_views, r));
	EXPECT_EQ(0, r->creator_uid);
	EXPECT_EQ(0, r->stat_err);
	EXPECT_EQ(1000, r->mapped_uid);
}

/* --- CAP_IPC_OWNER ------------------------------------------------------------ */

struct perm_rec {
	int owner_ns[NTYPES];	/* root of the IPC namespace's owner, mode 0000 */
	int no_cap[NTYPES];	/* the same without CAP_IPC_OWNER */
	int child_ns[NTYPES];	/* root of a child user namespace */
};

static int perm_views(void *arg)
{
	struct perm_rec *r = arg;
	int id[NTYPES], rc = 0;
	pid_t pid;

	NEED_OWN_IPC_NS(&test_ipc);
	for (int t = 0; t < NTYPES; t++) {
		id[t] = sysv_create(t, 0);
		if (id[t] < 0)
			return child_fail("create %s: %s", type_name[t], strerror(-id[t]));
		r->owner_ns[t] = sysv_get(t) < 0 ? sysv_get(t) : 0;
	}
	pid = ns_clone(0);
	if (pid == 0) {
		if (ns_cap_set(CAP_IPC_OWNER, CAP_EFFECTIVE, false))
			_exit(child_fail("drop CAP_IPC_OWNER: %m"));
		for (int t = 0; t < NTYPES; t++)
			r->no_cap[t] = sysv_get(t) < 0 ? sysv_get(t) : 0;
		_exit(0);
	}
	rc |= pid < 0 || ns_wait(pid, NS_WAIT_MS);
	pid = ns_clone(0);
	if (pid == 0) {
		if (own_userns("0") || !ns_cap_effective(CAP_IPC_OWNER))
			_exit(child_fail("root of a new user namespace: %m"));
		for (int t = 0; t < NTYPES; t++)
			r->child_ns[t] = sysv_get(t) < 0 ? sysv_get(t) : 0;
		_exit(0);
	}
	rc |= pid < 0 || ns_wait(pid, NS_WAIT_MS);
	for (int t = 0; t < NTYPES; t++)
		rm_sysv(t, id[t]);
	return rc ? child_fail("a viewer failed") : 0;
}

/*
 * Bypassing System V IPC permissions needs CAP_IPC_OWNER in the user namespace owning the IPC
 * namespace; elsewhere EACCES (ipc_namespaces(7), capabilities(7)).
 *
 * Objects with mode 0000: only CAP_IPC_OWNER lets even their owner in.
 * Root of the user namespace owning the IPC namespace has it; without it,
 * EACCES; root of a child user namespace (same uid outside, every
 * capability there) is refused like an unprivileged process.
 */
TEST(ipc_owner_capability_counts_in_owning_userns)
{
	struct perm_rec *r = ns_shared_page(1 << 16);

	NS_NEED_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	for (int t = 0; t < NTYPES; t++)
		r->owner_ns[t] = r->no_cap[t] = r->child_ns[t] = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, perm_views, r));
	for (int t = 0; t < NTYPES; t++) {
		EXPECT_EQ(0, r->owner_ns[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(-EACCES, r->no_cap[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(-EACCES, r->child_ns[t]) TH_LOG("%s", type_name[t]);
	}
}

/* --- limits -------------------------------------------------------------------- */

struct limit {
	const char *path;
	const char *want;	/* the documented default, as the file reads */
};

#define SHMMAX_DEFAULT "18446744073692774399"	/* ULONG_MAX - (1UL << 24) */

static const struct limit sysv_limits[] = {
	{ "/proc/sys/kernel/msgmax", "8192" },		/* MSGMAX */
	{ "/proc/sys/kernel/msgmnb", "16384" },		/* MSGMNB */
	{ "/proc/sys/kernel/msgmni", "32000" },		/* MSGMNI, since 3.19 */
	{ "/proc/sys/kernel/shmmni", "4096" },		/* SHMMNI */
	{ "/proc/sys/kernel/shmmax", SHMMAX_DEFAULT },	/* SHMMAX */
	{ "/proc/sys/kernel/shmall", SHMMAX_DEFAULT },	/* SHMALL */
	{ "/proc/sys/kernel/sem", "32000\t1024000000\t500\t32000" },
	{ "/proc/sys/kernel/shm_rmid_forced", "0" },
	{ NULL, NULL },
};

static const struct limit mq_limits[] = {
	{ "/proc/sys/fs/mqueue/msg_default", "10" },
	{ "/proc/sys/fs/mqueue/msg_max", "10" },
	{ "/proc/sys/fs/mqueue/msgsize_default", "8192" },
	{ "/proc/sys/fs/mqueue/msgsize_max", "8192" },
	{ "/proc/sys/fs/mqueue/queues_max", "256" },
	{ NULL, NULL },
};

struct limits_rec {
	char got[16][64];
};

static int read_limits(void *arg)
{
	struct limits_rec *r = arg;
	const struct limit *l = r->got[15][0] == 'm' ? mq_limits : sysv_limits;

	for (int i = 0; l[i].path; i++) {
		if (ns_read_file(l[i].path, r->got[i], sizeof(r->got[i])) < 0)
			snprintf(r->got[i], sizeof(r->got[i]), "(unreadable: %m)");
		r->got[i][strcspn(r->got[i], "\n")] = '\0';
	}
	return 0;
}

static void check_limits(struct __test_metadata *_metadata, const struct limit *l, bool mq)
{
	struct limits_rec *r = ns_shared_page(1 << 16);

	ASSERT_NE(NULL, r);
	r->got[15][0] = mq ? 'm' : 's';
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, read_limits, r));
	for (int i = 0; l[i].path; i++) {
		const char *path = l[i].path;

		EXPECT_STREQ(l[i].want, r->got[i]) TH_LOG("%s", path);
	}
}

/*
 * A new IPC namespace has the default System V limits: msgmax 8192, msgmnb 16384, msgmni 32000,
 * shmmni 4096, sem 32000 1024000000 500 32000 (ipc_namespaces(7), proc(5)).
 *
 * The figures are the kernel's compile-time defaults (include/uapi/linux
 * msg.h, shm.h, sem.h), which a new IPC namespace starts from whatever its
 * creator's namespace has.
 */
TEST(new_ipc_ns_sysv_limits_are_defaults)
{
	NS_NEED_ADMIN_OR_USERNS();
	check_limits(_metadata, sysv_limits, false);
}

/*
 * A new IPC namespace has the default POSIX queue limits: msg_default and msg_max 10,
 * msgsize_default and msgsize_max 8192, queues_max 256 (mq_overview(7)).
 */
TEST(new_ipc_ns_mqueue_limits_are_defaults)
{
	NS_NEED_ADMIN_OR_USERNS();
	check_limits(_metadata, mq_limits, true);
}

struct qmax_rec {
	int write_err;		/* -errno of writing queues_max = 1 in the child namespace */
	int first, second;	/* -errno of two mq_open(O_CREAT) there */
	int maxmsg_err;		/* -errno of mq_maxmsg 6 with msg_max 5 */
};

static int qmax_child(void *arg)
{
	struct qmax_rec *r = arg;
	struct mq_attr a = { .mq_maxmsg = 6, .mq_msgsize = 64 };
	mqd_t q, q1;

	NEED_OWN_IPC_NS(&test_ipc);
	NEED_OWN_IPC_NS(&outer_ipc);
	/* The limits bind only processes without CAP_SYS_RESOURCE. */
	if (ns_cap_set(CAP_SYS_RESOURCE, CAP_EFFECTIVE, false))
		return child_fail("drop CAP_SYS_RESOURCE: %m");
	r->write_err = ns_write_long("/proc/sys/fs/mqueue/queues_max", 1);
	if (!r->write_err)
		r->write_err = ns_write_long("/proc/sys/fs/mqueue/msg_max", 5);
	if (r->write_err)
		return 0;
	q1 = mq_open("/nsc-q1", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, NULL);
	r->first = q1 == (mqd_t)-1 ? -errno : 0;
	q = mq_open("/nsc-q2", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, NULL);
	r->second = q == (mqd_t)-1 ? -errno : 0;
	/* A queue counts until it is unlinked and its last descriptor closed. */
	mq_close(q1);
	mq_unlink("/nsc-q1");
	q = mq_open("/nsc-q3", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, &a);
	r->maxmsg_err = q == (mqd_t)-1 ? -errno : 0;
	return 0;
}

static int qmax_parent(void *arg)
{
	struct qmax_rec *r = arg;
	struct mq_attr a = { .mq_maxmsg = 6, .mq_msgsize = 64 };
	mqd_t q1, q2, q3;
	int rc;

	rc = run_in_child_ipc_ns(qmax_child, r);
	if (rc || r->write_err)
		return rc;
	/* The parent namespace keeps its defaults (10 and 256). */
	if (ns_cap_set(CAP_SYS_RESOURCE, CAP_EFFECTIVE, false))
		return child_fail("drop CAP_SYS_RESOURCE: %m");
	q1 = mq_open("/nsc-p1", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, NULL);
	q2 = mq_open("/nsc-p2", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, NULL);
	q3 = mq_open("/nsc-p3", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, &a);
	if (q1 == (mqd_t)-1 || q2 == (mqd_t)-1 || q3 == (mqd_t)-1)
		return child_fail("the parent namespace is bound by the child's limits: %m");
	return 0;
}

/*
 * queues_max and msg_max bind only their IPC namespace: over them mq_open fails with ENOSPC and
 * EINVAL (mq_overview(7), ipc_namespaces(7)).
 *
 * In a child IPC namespace queues_max 1 and msg_max 5: the second queue is
 * ENOSPC and mq_maxmsg 6 EINVAL; its parent (itself a new IPC namespace of
 * the test) still creates three queues, one with mq_maxmsg 6.
 */
TEST(mqueue_limits_bind_only_their_namespace)
{
	struct qmax_rec *r = ns_shared_page(1 << 16);

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	NEED_IPC_SYSCTL_OWNER("/proc/sys/fs/mqueue/queues_max");
	r->first = r->second = r->maxmsg_err = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, qmax_parent, r));
	ASSERT_EQ(0, r->write_err);
	EXPECT_EQ(0, r->first);
	EXPECT_EQ(-ENOSPC, r->second);
	EXPECT_EQ(-EINVAL, r->maxmsg_err);
}

/* Set kernel.shmmni, kernel.msgmni and the SEMMNI field of kernel.sem: 0 or -errno. */
static int set_id_limits(long shmmni, long msgmni, long semmni)
{
	char sem[64];
	int err;

	snprintf(sem, sizeof(sem), "250 32000 32 %ld", semmni);
	err = ns_write_long("/proc/sys/kernel/shmmni", shmmni);
	if (!err)
		err = ns_write_long("/proc/sys/kernel/msgmni", msgmni);
	return err ?: ns_write_file("/proc/sys/kernel/sem", sem);
}

struct mni_rec {
	int write_err;		/* -errno of lowering the limits in the child namespace */
	int first[NTYPES];	/* -errno of the first object of each type there */
	int second[NTYPES];	/* -errno of the second */
};

static int mni_child(void *arg)
{
	struct mni_rec *r = arg;

	NEED_OWN_IPC_NS(&test_ipc);
	NEED_OWN_IPC_NS(&outer_ipc);
	r->write_err = set_id_limits(1, 1, 1);
	if (r->write_err)
		return 0;
	for (int t = 0; t < NTYPES; t++) {
		int id = -1;

		r->first[t] = sysv_create(t, 0600);
		switch (t) {
		case SHM:
			id = shmget(KEY + 1, 4096, IPC_CREAT | IPC_EXCL | 0600);
			break;
		case SEM:
			id = semget(KEY + 1, 1, IPC_CREAT | IPC_EXCL | 0600);
			break;
		case MSG:
			id = msgget(KEY + 1, IPC_CREAT | IPC_EXCL | 0600);
			break;
		}
		r->second[t] = id < 0 ? -errno : 0;
	}
	return 0;
}

static int mni_parent(void *arg)
{
	int rc;

	rc = run_in_child_ipc_ns(mni_child, arg);
	if (rc)
		return rc;
	/* Our namespace kept its defaults: two of each type fit. */
	for (int t = 0; t < NTYPES; t++) {
		if (sysv_create(t, 0600) < 0)
			return child_fail("first %s in the parent namespace: %m", type_name[t]);
	}
	if (shmget(KEY + 1, 4096, IPC_CREAT | IPC_EXCL | 0600) < 0 ||
	    semget(KEY + 1, 1, IPC_CREAT | IPC_EXCL | 0600) < 0 ||
	    msgget(KEY + 1, IPC_CREAT | IPC_EXCL | 0600) < 0)
		return child_fail("a second object in the parent namespace: %m");
	return 0;
}

/*
 * The System V id limits (shmmni, SEMMNI, msgmni) are per IPC namespace: over them creation is
 * ENOSPC there only (ipc_namespaces(7), msgget(2)).
 *
 * kernel.shmmni, the SEMMNI field of kernel.sem and kernel.msgmni set to
 * 1 in a child IPC namespace: the second object of each type is ENOSPC
 * (shmget(2), semget(2), msgget(2)); the parent namespace, where the test
 * made its objects, still takes two of each.
 */
TEST(sysv_id_limits_bind_only_their_namespace)
{
	struct mni_rec *r = ns_shared_page(1 << 16);

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	for (int t = 0; t < NTYPES; t++)
		r->first[t] = r->second[t] = 1;
	NEED_IPC_SYSCTL_OWNER("/proc/sys/kernel/shmmni");
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, mni_parent, r));
	ASSERT_EQ(0, r->write_err);
	for (int t = 0; t < NTYPES; t++) {
		EXPECT_LE(0, r->first[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(-ENOSPC, r->second[t]) TH_LOG("%s", type_name[t]);
	}
}

struct mq_perm_rec {
	int owner;		/* root of the creator's user namespace */
	int no_dac;		/* the same without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH */
	int mapped;		/* root of a child user ns in which the queue's owner is mapped */
	int unmapped;		/* root of a child user ns with no map */
};

/*
 * -errno of opening the queue for reading in a child: in a new user
 * namespace when @map is set (mapping @map to our uid, "-" for no map),
 * without the DAC capabilities when @drop_dac.
 */
static int mq_try(const char *map, bool drop_dac)
{
	pid_t pid = ns_clone(0);
	mqd_t q;

	if (pid < 0)
		return -ECHILD;
	if (pid == 0) {
		if (map && own_userns(strcmp(map, "-") ? map : NULL)) {
			child_fail("new user namespace: %m");
			_exit(100);
		}
		if (drop_dac && (ns_cap_set(CAP_DAC_OVERRIDE, CAP_EFFECTIVE, false) ||
				 ns_cap_set(CAP_DAC_READ_SEARCH, CAP_EFFECTIVE, false)))
			_exit(100);
		q = mq_open("/nsc-perm", O_RDONLY | O_CLOEXEC);
		_exit(q == (mqd_t)-1 ? (errno == EACCES ? 13 : 101) : 0);
	}
	switch (ns_wait(pid, NS_WAIT_MS)) {
	case 0:
		return 0;
	case 13:
		return -EACCES;
	default:
		return -EIO;
	}
}

static int mq_perm_views(void *arg)
{
	struct mq_perm_rec *r = arg;
	mqd_t q;

	NEED_OWN_IPC_NS(&test_ipc);
	umask(0);
	q = mq_open("/nsc-perm", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0, NULL);
	if (q == (mqd_t)-1)
		return child_fail("mq_open: %m");
	r->owner = mq_try(NULL, false);
	r->no_dac = mq_try(NULL, true);
	r->mapped = mq_try("0", false);
	r->unmapped = mq_try("-", false);
	mq_unlink("/nsc-perm");
	return 0;
}

/*
 * POSIX queue permissions are file permissions: a capability counts in a user namespace where the
 * queue's owner is mapped (mq_overview(7), user_namespaces(7)).
 *
 * A queue with mode 0000 is a file: CAP_DAC_OVERRIDE opens it for root of
 * any user namespace in which the file's owner and group are mapped
 * (unlike System V objects, which want CAP_IPC_OWNER in the IPC
 * namespace's owner); without a map, or without the capability, EACCES.
 */
TEST(mq_permission_override_needs_owner_mapped_in_userns)
{
	struct mq_perm_rec *r = ns_shared_page(1 << 16);

	NS_NEED_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	r->owner = r->no_dac = r->mapped = r->unmapped = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, mq_perm_views, r));
	EXPECT_EQ(0, r->owner);
	EXPECT_EQ(-EACCES, r->no_dac);
	EXPECT_EQ(0, r->mapped);
	EXPECT_EQ(-EACCES, r->unmapped);
}

#define RMID_FORCED "/proc/sys/kernel/shm_rmid_forced"

struct rmid_rec {
	int write_err;		/* -errno of setting shm_rmid_forced to 1 in the child namespace */
	int child_left;		/* a segment of an exited creator is left there */
	int parent_left;	/* the same in the parent namespace */
	long parent_forced;	/* shm_rmid_forced of the parent afterwards */
};

/*
 * A child in our IPC namespace creates a segment, never attaches it and
 * exits: 1 when the segment is still there (then removed), 0 when it is
 * gone, -1 after child_fail().
 */
static int orphan_segment_left(void)
{
	pid_t pid = ns_clone(0);
	int id;

	if (pid < 0)
		return child_fail("fork: %m"), -1;
	if (pid == 0)
		_exit(shmget(KEY + 2, 4096, IPC_CREAT | IPC_EXCL | 0600) < 0 ?
		      child_fail("shmget: %m") : 0);
	if (ns_wait(pid, NS_WAIT_MS))
		return -1;
	id = shmget(KEY + 2, 0, 0);
	if (id < 0)
		return errno == ENOENT ? 0 : (child_fail("shmget: %m"), -1);
	shmctl(id, IPC_RMID, NULL);
	return 1;
}

static int rmid_child(void *arg)
{
	struct rmid_rec *r = arg;

	NEED_OWN_IPC_NS(&test_ipc);
	NEED_OWN_IPC_NS(&outer_ipc);
	r->write_err = ns_write_long(RMID_FORCED, 1);
	if (r->write_err)
		return 0;
	r->child_left = orphan_segment_left();
	return r->child_left < 0;
}

static int rmid_parent(void *arg)
{
	struct rmid_rec *r = arg;
	int rc;

	rc = run_in_child_ipc_ns(rmid_child, arg);
	if (rc || r->write_err)
		return rc;
	if (ns_read_long(RMID_FORCED, &r->parent_forced))
		return child_fail("read %s: %m", RMID_FORCED);
	r->parent_left = orphan_segment_left();
	return r->parent_left < 0;
}

/*
 * kernel.shm_rmid_forced is per IPC namespace: set to 1 it destroys the never-attached segment
 * of an exiting creator there only (ipc_namespaces(7), proc(5) shm_rmid_forced).
 *
 * In a child IPC namespace with shm_rmid_forced 1 the segment a process
 * made and never attached is gone when it has exited; in the parent
 * namespace, still at 0, the same segment outlives its creator.
 */
TEST(shm_rmid_forced_applies_per_namespace)
{
	struct rmid_rec *r = ns_shared_page(1 << 16);

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	r->child_left = r->parent_left = r->parent_forced = -1;
	NEED_IPC_SYSCTL_OWNER(RMID_FORCED);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, rmid_parent, r));
	ASSERT_EQ(0, r->write_err);
	EXPECT_EQ(0, r->child_left);
	EXPECT_EQ(0, r->parent_forced);
	EXPECT_EQ(1, r->parent_left);
}

/* What the *_INFO calls of each type report: the id limit and the ids in use. */
struct sysv_info {
	long mni[NTYPES];
	long used[NTYPES];
};

struct info_rec {
	int write_err;		/* -errno of setting the child's limits */
	struct sysv_info child, parent;
};

static int sysv_info_read(struct sysv_info *in)
{
	struct shminfo shmi;
	struct shm_info shmu;
	struct msginfo msgi, msgu;
	struct seminfo semi, semu;

	if (shmctl(0, IPC_INFO, (struct shmid_ds *)&shmi) < 0 ||
	    shmctl(0, SHM_INFO, (struct shmid_ds *)&shmu) < 0 ||
	    msgctl(0, IPC_INFO, (struct msqid_ds *)&msgi) < 0 ||
	    msgctl(0, MSG_INFO, (struct msqid_ds *)&msgu) < 0 ||
	    semctl(0, 0, IPC_INFO, &semi) < 0 || semctl(0, 0, SEM_INFO, &semu) < 0)
		return child_fail("the *_INFO calls: %m");
	in->mni[SHM] = shmi.shmmni;
	in->used[SHM] = shmu.used_ids;
	in->mni[MSG] = msgi.msgmni;
	in->used[MSG] = msgu.msgpool;	/* MSG_INFO: the queues in use */
	in->mni[SEM] = semi.semmni;
	in->used[SEM] = semu.semusz;	/* SEM_INFO: the sets in use */
	return 0;
}

static int info_child(void *arg)
{
	struct info_rec *r = arg;

	NEED_OWN_IPC_NS(&test_ipc);
	NEED_OWN_IPC_NS(&outer_ipc);
	r->write_err = set_id_limits(7, 5, 6);
	if (r->write_err)
		return 0;
	for (int t = 0; t < NTYPES; t++)
		if (sysv_create_key(t, IPC_PRIVATE, 0600) < 0)
			return child_fail("a %s object: %m", type_name[t]);
	return sysv_info_read(&r->child);
}

static int info_parent(void *arg)
{
	struct info_rec *r = arg;
	int rc;

	NEED_OWN_IPC_NS(&test_ipc);
	for (int t = 0; t < NTYPES; t++)
		if (sysv_create_key(t, IPC_PRIVATE, 0600) < 0 ||
		    sysv_create_key(t, IPC_PRIVATE, 0600) < 0)
			return child_fail("two %s objects: %m", type_name[t]);
	rc = run_in_child_ipc_ns(info_child, arg);
	if (rc || r->write_err)
		return rc;
	return sysv_info_read(&r->parent);
}

/*
 * IPC_INFO and the SHM_INFO, MSG_INFO, SEM_INFO counts describe the caller's IPC namespace, not
 * the system (ipc_namespaces(7); shmctl(2), msgctl(2), semctl(2) say "system-wide").
 *
 * The test's namespace holds two objects of each type, a child namespace
 * with its limits lowered to 7, 5 and 6 holds one: each reports its own
 * count and limits.
 */
TEST(sysv_info_reports_callers_namespace)
{
	struct info_rec *r = ns_shared_page(1 << 16);
	static const long child_mni[NTYPES] = { [SHM] = 7, [MSG] = 5, [SEM] = 6 };
	static const long default_mni[NTYPES] = { [SHM] = 4096, [MSG] = 32000, [SEM] = 32000 };

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_NE(NULL, r);
	TEST_IPC_NS();
	NEED_IPC_SYSCTL_OWNER("/proc/sys/kernel/shmmni");
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, info_parent, r));
	ASSERT_EQ(0, r->write_err);
	for (int t = 0; t < NTYPES; t++) {
		EXPECT_EQ(child_mni[t], r->child.mni[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(1, r->child.used[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(default_mni[t], r->parent.mni[t]) TH_LOG("%s", type_name[t]);
		EXPECT_EQ(2, r->parent.used[t]) TH_LOG("%s", type_name[t]);
	}
}

TEST_HARNESS_MAIN
