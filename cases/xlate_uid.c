// SPDX-License-Identifier: GPL-2.0
/*
 * The translation matrix, the user dimension: the target's uid and gid (the
 * one kernel id of the test: 0 in anc's user namespace, 1000 in same's,
 * 2000 in desc's, 3000 in sib's, unmapped in unm's) as each observer reads
 * it through /proc, stat(2), the nsfs ioctls and /proc/net (fixtures/xlate.h
 * draws the world).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/msg.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "nsconform.h"
#include "xlate.h"

XLATE_FIXTURE();

/* In anc: the target's /proc directory in anc's /proc (PA), to pass. */
static int make_proc_dir(struct xlate_world *w)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", w->nspid[XL_TGT][0]);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* In an observer: the owner of the fd, or of the file named @arg in it: v[0] uid, v[1] gid. */
static int owner(int fd, const void *arg, struct xlate_ans *a)
{
	struct stat st;

	if (fstatat(fd, arg ? arg : "", &st, arg ? 0 : AT_EMPTY_PATH))
		return -errno;
	a->v[0] = st.st_uid;
	a->v[1] = st.st_gid;
	return 0;
}

/*
 * Server @from makes an fd with @make and passes it to observer @pos, whose
 * @use (given the name @name, or NULL) answers: v[0] to v[@n - 1] must each
 * be the test's id as @pos sees it.
 */
static void expect_ids(struct __test_metadata *_metadata, struct xlate_world *w, int pos,
		       int from, xlate_make_fn make, xlate_use_fn use, const char *name, int n)
{
	struct xlate_ans a;
	int r = xlate_pass(w, from, make, pos, use, name, name ? strlen(name) + 1 : 0, &a);

	ASSERT_EQ(0, r) TH_LOG("%s -> %s: %s", xlate_pos_name[from], xlate_pos_name[pos],
			       r == XL_NOT_MADE ? "no fd made" : strerror(-r));
	for (int i = 0; i < n; i++)
		EXPECT_EQ(xlate_id_seen(pos), a.v[i]);
}

/* The first number after @key in @text, or -1. */
static long field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/*
 * In an observer: status read through the directory sent to it: v[0] Uid:
 * (real), v[1] Gid:, v[2] Pid:, v[3] the second NSpid: entry.
 */
static int read_status(int dir, const void *arg, struct xlate_ans *a)
{
	int fd = openat(dir, "status", O_RDONLY | O_CLOEXEC);
	char buf[4096];
	ssize_t n;
	char *p;

	(void)arg;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	a->v[0] = field(buf, "\nUid:");
	a->v[1] = field(buf, "\nGid:");
	a->v[2] = field(buf, "\nPid:");
	p = strstr(buf, "\nNSpid:");
	a->v[3] = -1;
	if (p) {
		strtol(p + 7, &p, 10);
		a->v[3] = strtol(p, NULL, 10);
	}
	return 0;
}

/*
 * /proc/PID/status shows the ids (Uid:, Gid:) in the user namespace of the
 * process that opened the file, and the pids (Pid:, NSpid:) in the PID
 * namespace of the /proc mount, whoever reads it: one file, two rules
 * (proc(5) /proc/pid/status "NSpid"; user_namespaces(7) "Interaction with
 * system calls": ids are translated for the reading process).
 */
TEST_F(xlate, proc_status_ids_via_ancestor_proc)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_PASS(XL_ANC, make_proc_dir, pos, read_status, NULL, 0, &a);
	EXPECT_EQ(xlate_id_seen(pos), a.v[0]);
	EXPECT_EQ(xlate_id_seen(pos), a.v[1]);
	EXPECT_EQ(self->w->nspid[XL_TGT][0], a.v[2]);
	EXPECT_EQ(self->w->nspid[XL_TGT][1], a.v[3]);
}

/*
 * stat(2) of /proc/PID shows the owner (the process's euid and egid while
 * it is dumpable) in the caller's user namespace, the overflow id where it
 * is unmapped (proc(5) /proc/pid "owned by the effective user and group ID
 * of the process"; user_namespaces(7) "Unmapped user and group IDs").
 */
TEST_F(xlate, proc_pid_dir_owner)
{
	expect_ids(_metadata, self->w, variant->pos, XL_ANC, make_proc_dir, owner, NULL, 2);
}

/* In the target: a file of its own (a memfd), to pass. */
static int make_memfd(struct xlate_world *w)
{
	(void)w;
	return memfd_create("xlate", MFD_CLOEXEC);
}

/*
 * stat(2) of a file the target created shows its owner (the target's
 * fsuid and fsgid) in the caller's user namespace, the overflow id where
 * unmapped (stat(2), user_namespaces(7) "Unmapped user and group IDs").
 */
TEST_F(xlate, stat_owner_of_targets_file)
{
	expect_ids(_metadata, self->w, variant->pos, XL_TGT, make_memfd, owner, NULL, 2);
}

/* In the target: its user namespace (/proc/self/ns/user), to pass. */
static int make_userns(struct xlate_world *w)
{
	(void)w;
	return ns_open(0, "user");
}

/* In an observer: NS_GET_OWNER_UID of the namespace sent to it, in v[0]. */
static int owner_uid(int fd, const void *arg, struct xlate_ans *a)
{
	uid_t uid;

	(void)arg;
	if (ioctl(fd, NS_GET_OWNER_UID, &uid))
		return -errno;
	a->v[0] = uid;
	return 0;
}

/*
 * NS_GET_OWNER_UID gives the user namespace's creator (the euid at
 * creation) in the caller's user namespace, the overflow id where unmapped
 * (ioctl_nsfs(2) NS_GET_OWNER_UID).
 */
TEST_F(xlate, ns_get_owner_uid)
{
	expect_ids(_metadata, self->w, variant->pos, XL_TGT, make_userns, owner_uid, NULL, 1);
}

#define XL_UDP_PORT 40321

/* In the target: a UDP socket bound to 0.0.0.0:XL_UDP_PORT (kept open). */
static int udp_bind(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(XL_UDP_PORT) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	(void)w, (void)self, (void)arg, (void)a;
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		return -errno;
	return 0;
}

/* The uid column of the line of local port @port in the udp table @path, or -ENOENT. */
static long udp_line_uid(const char *path, int port)
{
	char want[16], line[512];
	FILE *f = fopen(path, "r");
	long ret = -ENOENT;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), ":%04X ", port);
	while (fgets(line, sizeof(line), f)) {
		unsigned long uid;
		char *p = strstr(line, want);

		/* sl local rem st tx:rx tr:tm retrnsmt uid */
		if (!p || p > line + 30)
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %*s %lu", &uid) == 1)
			ret = uid;
	}
	fclose(f);
	return ret;
}

#define XL_UDP_PORT2 (XL_UDP_PORT + 1)

/*
 * In an observer: a child in a network namespace of its own binds a UDP
 * socket to port XL_UDP_PORT2 and reads /proc/net/udp: v[0] the uid column
 * of its own socket there, v[1] of the target's (XL_UDP_PORT); then the
 * observer's own view: v[2] the child's socket, v[3] the target's.  -ENOENT
 * where the line is missing.
 */
static int netns_views(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	long seen[2] = { -EIO, -EIO };
	int p[2], q[2], st, err = 0;
	pid_t pid;

	(void)w, (void)self, (void)arg;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	if (pipe2(q, O_CLOEXEC)) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	pid = ns_clone(CLONE_NEWNET);
	if (pid < 0) {
		err = -errno;
		for (int i = 0; i < 2; i++)
			close(p[i]), close(q[i]);
		return err;
	}
	if (pid == 0) {
		struct sockaddr_in sin = { .sin_family = AF_INET,
					   .sin_port = htons(XL_UDP_PORT2) };
		int fd = socket(AF_INET, SOCK_DGRAM, 0);
		char go;

		if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
			_exit(child_fail("UDP socket in a new network namespace: %m"));
		seen[0] = udp_line_uid("/proc/net/udp", XL_UDP_PORT2);
		seen[1] = udp_line_uid("/proc/net/udp", XL_UDP_PORT);
		if (write(p[1], seen, sizeof(seen)) != sizeof(seen))
			_exit(child_fail("write: %m"));
		/* keep the socket until the observer has read its own view */
		close(q[1]);
		if (read(q[0], &go, 1) < 0)
			_exit(child_fail("read: %m"));
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	if (read(p[0], seen, sizeof(seen)) != sizeof(seen))
		err = -EPIPE;
	a->v[0] = seen[0];
	a->v[1] = seen[1];
	a->v[2] = udp_line_uid("/proc/net/udp", XL_UDP_PORT2);
	a->v[3] = udp_line_uid("/proc/net/udp", XL_UDP_PORT);
	close(p[0]);
	close(q[1]);	/* the child may go */
	st = ns_wait(pid, NS_WAIT_MS);
	return err ? err : st ? -ECHILD : 0;
}

/*
 * /proc/net/udp shows a socket's owner in the user namespace of the process
 * that opened the file (proc(5) /proc/net/udp; the uid column is
 * from_kuid_munged(seq_user_ns())), and /proc/net, a link to
 * /proc/self/net, lists the network namespace of the reader, not of the
 * PID namespace the /proc mount belongs to (proc(5) /proc/net: the files of
 * the network namespace the process is a member of; network_namespaces(7)).
 * From every position a child in a new network namespace reads its own
 * socket there and not the target's, and its parent, in the world's
 * network namespace, reads the reverse; each uid column is the test's id as
 * that position's user namespace sees it.
 */
TEST_F(xlate, proc_net_udp_uid)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_ASK(XL_TGT, udp_bind, NULL, 0, &a);
	XLATE_ASK(pos, netns_views, NULL, 0, &a);
	EXPECT_EQ(xlate_id_seen(pos), a.v[0]);
	EXPECT_EQ(-ENOENT, a.v[1]);
	EXPECT_EQ(-ENOENT, a.v[2]);
	EXPECT_EQ(xlate_id_seen(pos), a.v[3]);
}

static int nothing(void *arg)
{
	(void)arg;
	return 0;
}

/*
 * In the target: a file it creates on a tmpfs of its own (U1 its superblock's
 * user namespace; the file owned by its ids, 1000 in U1), opened through that
 * detached mount once idmapped with a user namespace mapping 0 -> U1's 1000,
 * in which U1's 1000 is not mapped.
 */
static int make_idmapped_file(struct xlate_world *w)
{
	struct nsc_mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	int fs = -1, mnt = -1, userns = -1, fd = -1, err;
	struct ns_holder h;
	char path[64];

	(void)w;
	fs = ns_fsopen("tmpfs", 0);
	if (fs < 0 || ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		goto out;
	mnt = ns_fsmount(fs, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		goto out;
	fd = openat(mnt, "file", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	close(fd);
	fd = -1;
	if (ns_holder_start(&h, CLONE_NEWUSER, nothing, NULL)) {
		errno = EAGAIN;
		goto out;
	}
	err = ns_map_root(h.pid, geteuid(), getegid());
	snprintf(path, sizeof(path), "/proc/%d/ns/user", h.pid);
	userns = err ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (err)
		errno = -err;
	err = errno;
	ns_holder_stop(&h);
	errno = err;
	if (userns < 0)
		goto out;
	attr.userns_fd = userns;
	if (ns_mount_setattr(mnt, "", AT_EMPTY_PATH, &attr))
		goto out;
	fd = openat(mnt, "file", O_RDONLY | O_CLOEXEC);
out:
	err = errno;
	if (fd < 0)
		fprintf(stderr, "# xlate: tgt: idmapped tmpfs file: %m\n");
	if (userns >= 0)
		close(userns);
	if (mnt >= 0)
		close(mnt);
	if (fs >= 0)
		close(fs);
	errno = err;
	return fd;
}

/*
 * Through an idmapped mount the owner is first mapped through the mount's
 * idmapping, then into the caller's user namespace: the file's owner, 1000
 * in the superblock's user namespace, has no mapping in the idmapping (it
 * maps only 0), so every observer reads the overflow id 65534 for uid and
 * gid, where without the idmapping anc would read 0, same 1000, desc 2000
 * and sib 3000 (mount_setattr(2) MOUNT_ATTR_IDMAP; user_namespaces(7)
 * "Unmapped user and group IDs").
 */
TEST_F(xlate, idmapped_mount_owner)
{
	struct xlate_ans a;

	NS_NEED(NS_F_TMPFS_IDMAP);
	XLATE_PASS(XL_TGT, make_idmapped_file, variant->pos, owner, NULL, 0, &a);
	EXPECT_EQ(65534, a.v[0]);
	EXPECT_EQ(65534, a.v[1]);
}

/* The file @name in directory @dir, read as ns_read_file() does: its length or -errno. */
static int read_at(int dir, const char *name, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dir, name);
	return ns_read_file(path, buf, len);
}

/*
 * In an observer, with the target's /proc directory: s the target's cgroup
 * file as a child in a new cgroup namespace reads it; v[0] 1 when the
 * observer itself (in the test's cgroup namespace) reads what its own
 * /proc/self/cgroup says (every process of the world is in one cgroup).
 */
static int cgroup_views(int dir, const void *arg, struct xlate_ans *a)
{
	char mine[sizeof(a->s)], theirs[sizeof(a->s)];
	int p[2], n, st;
	pid_t pid;

	(void)arg;
	n = ns_read_file("/proc/self/cgroup", mine, sizeof(mine));
	if (n >= 0)
		n = read_at(dir, "cgroup", theirs, sizeof(theirs));
	if (n < 0)
		return n;
	a->v[0] = !strcmp(mine, theirs);
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = ns_clone(CLONE_NEWCGROUP);
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid == 0) {
		n = read_at(dir, "cgroup", theirs, sizeof(theirs));
		if (n < 0)
			_exit(child_fail("read the target's cgroup: %s", strerror(-n)));
		if (write(p[1], theirs, n) != n)
			_exit(child_fail("write: %m"));
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], a->s, sizeof(a->s) - 1);
	close(p[0]);
	st = ns_wait(pid, NS_WAIT_MS);
	if (n < 0 || st)
		return -ECHILD;
	a->s[n] = 0;
	return 0;
}

/*
 * /proc/PID/cgroup shows each path relative to the root of the reader's
 * cgroup namespace, whatever /proc it is read through (cgroup_namespaces(7):
 * paths in /proc/PID/cgroup are relative to the reading process's cgroup
 * namespace root).  From every position the target's file, read through
 * anc's /proc, says what the observer's own file says; a child of the
 * observer in a new cgroup namespace (rooted at the one cgroup of the
 * world) reads "/" on every line.  It can fail only where the test does not
 * run at the root of its cgroup namespace in some hierarchy.
 */
TEST_F(xlate, proc_cgroup_relative_to_readers_cgroupns)
{
	char mine[sizeof(((struct xlate_ans *)0)->s)], want[sizeof(mine)] = "";
	struct xlate_ans a;
	char *line, *save = NULL;

	NS_NEED_TYPE("cgroup");
	ASSERT_LT(0, ns_read_file("/proc/self/cgroup", mine, sizeof(mine)));
	for (line = strtok_r(mine, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* hierarchy-ID:controller-list:cgroup-path */
		char *path = strchr(line, ':');

		ASSERT_NE(NULL, path);
		path = strchr(path + 1, ':');
		ASSERT_NE(NULL, path);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%.*s/\n",
			 (int)(path - line + 1), line);
	}
	XLATE_PASS(XL_ANC, make_proc_dir, variant->pos, cgroup_views, NULL, 0, &a);
	EXPECT_EQ(1, a.v[0]);
	EXPECT_STREQ(want, a.s);
}

struct ipcset_q {
	int id;
	unsigned int uid;
};

/* In the target: a message queue (v[0] its id). */
static int make_msgq(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);

	(void)w, (void)self, (void)arg;
	if (id < 0)
		return -errno;
	a->v[0] = id;
	return 0;
}

/* In an observer: IPC_SET of the queue's owner to q->uid (and gid). */
static int msgq_set(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	const struct ipcset_q *q = arg;
	struct msqid_ds ds;

	(void)w, (void)self, (void)a;
	if (msgctl(q->id, IPC_STAT, &ds))
		return -errno;
	ds.msg_perm.uid = q->uid;
	ds.msg_perm.gid = q->uid;
	return msgctl(q->id, IPC_SET, &ds) ? -errno : 0;
}

/* In the target: IPC_STAT of the queue, v[0] uid, v[1] gid. */
static int msgq_owner(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	struct msqid_ds ds;

	(void)w, (void)self;
	if (msgctl(*(const int *)arg, IPC_STAT, &ds))
		return -errno;
	a->v[0] = ds.msg_perm.uid;
	a->v[1] = ds.msg_perm.gid;
	return 0;
}

/*
 * IPC_SET takes the new owner in the caller's user namespace: the id each
 * observer sees as the target's sets the same kernel id (the target reads
 * 1000 back); the overflow id, unmapped, is refused with EINVAL (msgctl(2)
 * IPC_SET; ipc/util.c ipc_update_perm() "!uid_valid(uid)").
 */
TEST_F(xlate, sysv_ipc_set_owner)
{
	int pos = variant->pos, r;
	struct ipcset_q q = { .uid = xlate_id_seen(pos) };
	struct xlate_ans a;

	XLATE_ASK(XL_TGT, make_msgq, NULL, 0, &a);
	q.id = a.v[0];
	r = xlate_ask(self->w, pos, msgq_set, &q, sizeof(q), &a);
	if (pos == XL_UNM) {
		EXPECT_EQ(-EINVAL, r);
		return;
	}
	ASSERT_EQ(0, r);
	XLATE_ASK(XL_TGT, msgq_owner, &q.id, sizeof(q.id), &a);
	EXPECT_EQ(1000, a.v[0]);
	EXPECT_EQ(1000, a.v[1]);
}

/* In the target: make itself non-dumpable (PR_SET_DUMPABLE 0). */
static int no_dump(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	(void)w, (void)self, (void)arg, (void)a;
	return prctl(PR_SET_DUMPABLE, 0) ? -errno : 0;
}

/*
 * The files of a non-dumpable process's /proc directory are owned by root of
 * the user namespace of its memory (the one it last exec()ed in: the test's,
 * where the case binary started), shown in the caller's user namespace: 0 of
 * the test is the world's own id in the root pass, unmapped (65534) from
 * everywhere in the user pass (proc(5) /proc/pid "not dumpable ... owned by
 * root"; prctl(2) PR_SET_DUMPABLE; linux:68eb94f16227 "proc: Better
 * ownership of files for non-dumpable tasks in user namespaces").
 */
TEST_F(xlate, proc_files_of_non_dumpable_owner)
{
	int pos = variant->pos;
	unsigned int want = geteuid() == 0 ? xlate_id_seen(pos) : 65534;
	struct xlate_ans a;

	XLATE_ASK(XL_TGT, no_dump, NULL, 0, &a);
	XLATE_PASS(XL_ANC, make_proc_dir, pos, owner, "status", sizeof("status"), &a);
	EXPECT_EQ(want, a.v[0]);
	EXPECT_EQ(want, a.v[1]);
}

/* In the target: a POSIX message queue of its own (unlinked), its fd to pass. */
static int make_mq(struct xlate_world *w)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	mqd_t q = mq_open("/xlate-owner", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);

	(void)w;
	if (q != (mqd_t)-1)
		mq_unlink("/xlate-owner");
	return q;
}

/*
 * A message queue's file is owned by its creator's fsuid and fsgid, shown by
 * fstat(2) in the caller's user namespace (mq_overview(7) "Linux
 * implementation of message queue descriptors"; stat(2)).
 */
TEST_F(xlate, mq_file_owner)
{
	expect_ids(_metadata, self->w, variant->pos, XL_TGT, make_mq, owner, NULL, 2);
}

/* A 32-bit FNV-1a hash of @len bytes of @p. */
static unsigned long hash(const char *p, size_t len)
{
	unsigned long h = 2166136261u;

	while (len--)
		h = ((h ^ (unsigned char)*p++) * 16777619u) & 0xffffffffu;
	return h;
}

/* v[0] the length and v[1] a hash of the mountinfo file @name in @dir. */
static int mountinfo_at(int dir, const char *name, struct xlate_ans *a)
{
	static char buf[65536];
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	if (n < 0)
		return -errno;
	a->v[0] = len;
	a->v[1] = hash(buf, len);
	return 0;
}

/* In the target: its own mountinfo. */
static int own_mountinfo(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	(void)w, (void)self, (void)arg;
	return mountinfo_at(AT_FDCWD, "/proc/self/mountinfo", a);
}

/* In an observer: the mountinfo in the /proc directory sent to it. */
static int dir_mountinfo(int dir, const void *arg, struct xlate_ans *a)
{
	(void)arg;
	return mountinfo_at(dir, "mountinfo", a);
}

/*
 * /proc/PID/mountinfo lists the process's mount namespace as seen from its
 * own root: mount ids are not translated and the paths do not depend on who
 * reads, so every observer reads what the target reads of itself (proc(5)
 * /proc/pid/mountinfo "relative to the process's root directory").
 */
TEST_F(xlate, proc_mountinfo_is_the_targets_view)
{
	int pos = variant->pos;
	struct xlate_ans a, mine;

	XLATE_ASK(XL_TGT, own_mountinfo, NULL, 0, &mine);
	XLATE_PASS(XL_ANC, make_proc_dir, pos, dir_mountinfo, NULL, 0, &a);
	EXPECT_LT(0, a.v[0]);
	EXPECT_EQ(mine.v[0], a.v[0]);
	EXPECT_EQ(mine.v[1], a.v[1]);
}

TEST_HARNESS_MAIN
