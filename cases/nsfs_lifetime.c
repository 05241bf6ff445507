// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace lifetime (namespaces(7) "Namespace lifetime"): what keeps a
 * namespace alive after its last member process is gone.  A child PID or
 * user namespace keeps its parent, a namespace keeps its owning user
 * namespace, pid_for_children and time_for_children keep theirs, an open
 * fd or a bind mount keeps a namespace of any type (the proc and mqueue
 * mounts are in nsfs_lifetime_mounts.c); and
 * NS_GET_PARENT / NS_GET_USERNS still answer with the same namespace once
 * every member has exited (ioctl_ns(2)).
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes).  "Still alive" is shown by more than an inode number where the
 * namespace can be used: a kept user namespace is joined and its uid map
 * works, a kept time namespace still applies its offset to a new child, a
 * namespace kept by an fd or a bind mount still shows what its member left
 * there.  Last, the loop check that lets a mount namespace file be bound
 * only into an older mount namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/msg.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
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

static int pidns_parent_worker(void *arg)
{
	unsigned long child_pidns = CLONE_NEWPID;
	struct ns_ident parent;
	struct ns_holder h;
	int fd, rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	/* the holder moves on to a child PID namespace and starts its init */
	if (ns_holder_start(&h, CLONE_NEWPID, nsfs_unshare_and_fork, &child_pidns))
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

	NS_NEED_WHY(why);
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
	if (ns_sync_init(&h.sync))
		return child_fail("pipe: %m");
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	if (pid == 0) {
		char r;

		ns_sync_child_side(&h.sync);
		r = nest_userns(&s);
		ns_sync_tell(&h.sync, true, &r, 1);
		ns_sync_wait(&h.sync, true, NULL, 0, 3 * NS_WAIT_MS);
		_exit(r);
	}
	h.pid = pid;
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

	NS_NEED_WHY(why);
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
	if (nsfs_hold(&h, CLONE_NEWUSER | t->flag))
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
	if (unshare(CLONE_NEWPID))
		return child_fail("unshare(CLONE_NEWPID): %m");
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
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

	NS_NEED_WHY(why);
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

/* unshare(CLONE_NEWTIME) and give the new namespace CLOCK_MONOTONIC + OFFSET_S. */
static int timens_with_offset(void)
{
	char line[64];
	int err;

	if (unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	snprintf(line, sizeof(line), "monotonic %d 0", OFFSET_S);
	err = ns_write_proc(0, "timens_offsets", line);
	if (err) {
		errno = -err;
		return child_fail("write timens_offsets: %m");
	}
	return 0;
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
	int rc;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (timens_with_offset())
		return 1;
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

	NS_NEED_TYPE("time");
	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, time_for_children_worker, NULL));
}

/* --- an open fd or a bind mount keeps a namespace of every type ----------- */

#define MARK_KEY 0x6e73636b		/* the SysV key of the marker message queue */
#define MARK_MTU 1234			/* the mtu of lo in the marked net namespace */

/* What a holder leaves in its new namespace of type @t, and how we find it again. */
struct mark {
	const struct ns_type *t;
	char name[48];			/* hostname; marker file under /tmp */
	uid_t uid;			/* for a user namespace: who maps it */
	int fd;				/* the namespace, for the joiner */
	struct ns_ident id;		/* its identity */
};

/* Holder setup: leave @arg's mark in the new namespace, one only this namespace shows. */
static int leave_mark(void *arg)
{
	struct mark *m = arg;
	struct ifreq ifr = { .ifr_name = "lo" };
	char path[80];
	int fd;

	switch (m->t->flag) {
	case CLONE_NEWUTS:
		if (sethostname(m->name, strlen(m->name)))
			return child_fail("sethostname: %m");
		break;
	case CLONE_NEWIPC:
		if (msgget(MARK_KEY, IPC_CREAT | IPC_EXCL | 0600) < 0)
			return child_fail("msgget: %m");
		break;
	case CLONE_NEWNET:
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		ifr.ifr_mtu = MARK_MTU;
		if (fd < 0 || ioctl(fd, SIOCSIFMTU, &ifr))
			return child_fail("set the mtu of lo: %m");
		close(fd);
		break;
	case CLONE_NEWNS:
		snprintf(path, sizeof(path), "/tmp/%s", m->name);
		if (ns_private_tmp("size=64k"))
			return 1;
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return child_fail("create %s: %m", path);
		close(fd);
		break;
	case CLONE_NEWTIME:
		/* the holder stays outside; time_for_children is the namespace */
		return timens_with_offset();
	}
	return 0;
}

/* The file naming the holder's namespace of @m's type. */
static const char *marked_file(const struct mark *m)
{
	return m->t->flag == CLONE_NEWTIME ? "time_for_children" : m->t->name;
}

/* In a fresh child: join @m->fd, be in it, and find the mark (pid and cgroup have none). */
static int find_mark(void *arg)
{
	struct mark *m = arg;
	struct ifreq ifr = { .ifr_name = "lo" };
	char path[80];
	struct utsname u;
	struct ns_ident now;
	long before = mono_s(), d;
	int fd;

	snprintf(path, sizeof(path), "/tmp/%s", m->name);
	if (m->t->flag == CLONE_NEWNS && !access(path, F_OK))
		return child_fail("%s exists outside the kept mount namespace", path);
	if (m->t->flag == CLONE_NEWUSER)
		return join_userns_reads_uid(m->fd, 0);
	if (setns(m->fd, (int)m->t->flag))
		return child_fail("setns into the kept %s namespace: %m", m->t->name);
	if (ns_ident_of(0, m->t->flag == CLONE_NEWPID ? "pid_for_children" : m->t->name, &now) ||
	    !ns_ident_eq(&now, &m->id))
		return child_fail("setns() returned 0, not in the kept %s namespace", m->t->name);
	switch (m->t->flag) {
	case CLONE_NEWUTS:
		if (uname(&u) || strcmp(u.nodename, m->name))
			return child_fail("the kept uts namespace has lost its hostname");
		break;
	case CLONE_NEWIPC:
		if (msgget(MARK_KEY, 0) < 0)
			return child_fail("the kept ipc namespace has lost its queue: %m");
		break;
	case CLONE_NEWNET:
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || ioctl(fd, SIOCGIFMTU, &ifr))
			return child_fail("mtu of lo: %m");
		if (ifr.ifr_mtu != MARK_MTU)
			return child_fail("lo of the kept net namespace has mtu %d, not %d",
					  ifr.ifr_mtu, MARK_MTU);
		break;
	case CLONE_NEWNS:
		if (access(path, F_OK))
			return child_fail("%s of the kept mount namespace: %m", path);
		break;
	case CLONE_NEWTIME:
		d = mono_s() - before;
		if (d < OFFSET_S - 1 || d > OFFSET_S + 5)
			return child_fail("in the kept time namespace CLOCK_MONOTONIC moved by "
					  "%ld s, not %d", d, OFFSET_S);
		break;
	}
	return 0;
}

/*
 * Start a holder leaving @m's mark, in a new namespace of @m's type; its
 * namespace's identity to @m->id.
 */
static int start_marked(struct ns_holder *h, struct mark *m)
{
	unsigned long flags = m->t->flag == CLONE_NEWTIME ? 0 : m->t->flag;

	if (ns_holder_start(h, flags, leave_mark, m))
		return child_fail("no holder in a new %s namespace", m->t->name);
	if (m->t->flag == CLONE_NEWUSER && map_as(h->pid, 0)) {
		ns_holder_stop(h);
		return 1;
	}
	if (ns_ident_of(h->pid, marked_file(m), &m->id)) {
		ns_holder_stop(h);
		return child_fail("stat the holder's %s: %m", marked_file(m));
	}
	return 0;
}

/* The holder exits and is reaped: no process is left in its namespace. */
static int end_marked(struct ns_holder *h)
{
	if (ns_holder_stop(h))
		return child_fail("holder failed");
	if (!kill(h->pid, 0) || errno != ESRCH)
		return child_fail("the holder %d still exists", h->pid);
	return 0;
}

/* @m->fd names the kept namespace: it still answers and shows its mark. */
static int kept_alive(struct mark *m)
{
	struct ns_ident got, ours;

	if (ns_ident_of_fd(m->fd, &got) || !ns_ident_eq(&got, &m->id))
		return child_fail("the fd does not name the %s namespace kept", m->t->name);
	/* pid and cgroup have no mark: their links still answer */
	if (m->t->flag == CLONE_NEWPID &&
	    (ns_ident_of(0, "pid", &ours) || ioctl_answers(m->fd, NS_GET_PARENT, &ours,
							   "NS_GET_PARENT", NULL)))
		return 1;
	if (m->t->flag == CLONE_NEWCGROUP &&
	    (ns_ident_of(0, "user", &ours) || ioctl_answers(m->fd, NS_GET_USERNS, &ours,
							    "NS_GET_USERNS", NULL)))
		return 1;
	return ns_run(0, find_mark, m);
}

/* The holder's namespace kept by an open fd: into @m->fd; the holder ends. */
static int keep_by_fd(struct ns_holder *h, struct mark *m)
{
	m->fd = ns_open(h->pid, marked_file(m));
	if (m->fd < 0) {
		ns_holder_stop(h);
		errno = -m->fd;
		return child_fail("open the holder's %s: %m", marked_file(m));
	}
	return end_marked(h);
}

/* The holder's namespace kept by a bind mount on @dir/<type> alone; then opened into @m->fd. */
static int keep_by_bind(struct ns_holder *h, struct mark *m, const char *dir)
{
	char file[96], src[64];
	int fd;

	snprintf(file, sizeof(file), "%s/%s", dir, m->t->name);
	snprintf(src, sizeof(src), "/proc/%d/ns/%s", h->pid, marked_file(m));
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd) || mount(src, file, NULL, MS_BIND, NULL)) {
		ns_holder_stop(h);
		return child_fail("bind %s on %s: %m", src, file);
	}
	/* no fd is open while the holder goes: only the mount keeps it */
	if (end_marked(h))
		return 1;
	m->fd = open(file, O_RDONLY | O_CLOEXEC);
	return m->fd < 0 ? child_fail("open %s: %m", file) : 0;
}

/* For each type: a marked namespace, kept by an fd or (@arg true) a bind mount, still alive. */
static int keep_each(void *arg)
{
	bool by_bind = *(bool *)arg;
	cpu_set_t one;
	char dir[64];

	/*
	 * Our mount namespace and each holder's are made on one CPU, so that
	 * the holder's id is the higher one: mnt_ns_loop() compares ids, which
	 * since 6.18 come from per-CPU batches (see mnt_ns_file_binds_into_older_ns).
	 */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (by_bind && sched_setaffinity(0, sizeof(one), &one))
		return child_fail("sched_setaffinity: %m");
	if (ns_unshare_userns_root(by_bind ? CLONE_NEWNS : 0))
		return child_fail("cannot become root of a new user namespace: %m");
	snprintf(dir, sizeof(dir), "/tmp/nsc-keep-%d", getpid());
	if (by_bind && ns_private_tmp("size=64k"))
		return 1;
	if (by_bind && mkdir(dir, 0700))
		return child_fail("mkdir %s: %m", dir);
	for (int i = 0; i < NS_NTYPES; i++) {
		struct mark m = { .t = &ns_types[i], .fd = -1 };
		struct ns_holder h;
		int rc;

		if (!ns_type_available(m.t->name))
			continue;
		snprintf(m.name, sizeof(m.name), "nsc-mark-%d-%s", getpid(), m.t->name);
		if (start_marked(&h, &m))
			return 1;
		rc = by_bind ? keep_by_bind(&h, &m, dir) : keep_by_fd(&h, &m);
		if (!rc)
			rc = kept_alive(&m);
		if (m.fd >= 0)
			close(m.fd);
		if (rc)
			return child_fail("%s namespace kept by %s", m.t->name,
					  by_bind ? "a bind mount" : "an open fd");
	}
	return 0;
}

/*
 * An open /proc/PID/ns fd keeps a namespace of each of the eight types alive with no process left:
 * joined, it still has what its member left there (namespaces(7) "Namespace lifetime").
 *
 * The marks: a hostname, a SysV queue, the mtu of lo, a file on a tmpfs, a uid
 * map that works, a CLOCK_MONOTONIC offset; a pid and a cgroup namespace
 * are joined and still name their parent and owner.
 * ns_fd_keeps_namespace_alive_after_exit (nsfs.c) checks uts alone.
 */
TEST(open_fd_keeps_every_type_alive)
{
	bool by_bind = false;

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, keep_each, &by_bind));
}

/*
 * A bind mount of /proc/PID/ns/X keeps a namespace of each type alive the same way, with no fd open
 * (namespaces(7) "Namespace lifetime"; nsfs.c's bind mount test checks uts alone).
 */
TEST(bind_mount_keeps_every_type_alive)
{
	bool by_bind = true;

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, keep_each, &by_bind));
}

/* --- the mount namespace loop check ---------------------------------------- */

/* In the holder, a new mount namespace: binding its creator's (older) one here is refused. */
static int bind_older_refused(void *arg)
{
	char src[64];

	snprintf(src, sizeof(src), "/proc/%d/ns/mnt", getppid());
	errno = 0;
	if (mount(src, arg, NULL, MS_BIND, NULL) != -1 || errno != EINVAL) {
		if (!errno)
			umount2(arg, MNT_DETACH);
		return child_fail("bind of the older mount ns %s on %s in a newer one: %m, not "
				  "EINVAL", src, (char *)arg);
	}
	return 0;
}

/* Run on @cpu alone from now on (our children too). */
static int pin_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? child_fail("pin to cpu %d: %m", cpu) : 0;
}

/*
 * NS_GET_ID of a uts namespace made now (every type draws from one id space); 0 where the
 * feature table's probe finds no NS_GET_ID (before 6.18), and only there.
 */
static int fresh_id(uint64_t *id)
{
	int fd, rc = 0;

	*id = 0;
	if (unshare(CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUTS): %m");
	fd = ns_open(0, "uts");
	if (fd < 0 || (ioctl(fd, NS_GET_ID, id) &&
		       !(errno == ENOTTY && ns_feature_missing(NS_F_NS_GET_ID))))
		rc = child_fail("NS_GET_ID: %m");
	if (fd >= 0)
		close(fd);
	return rc;
}

static int mnt_loop_worker(void *arg)
{
	char file[80], own[] = "/tmp/own";
	uint64_t id, top_id = 0;
	int top = -1, fd, rc = 0;
	cpu_set_t allowed;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return child_fail("sched_getaffinity: %m");
	/* the CPU whose ids are now the highest: our namespace is made there */
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &allowed))
			continue;
		if (pin_to(c) || fresh_id(&id))
			return 1;
		if (top < 0 || id > top_id) {
			top = c;
			top_id = id;
		}
	}
	if (pin_to(top))
		return 1;
	if (unshare(CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWNS): %m");
	if (ns_private_tmp("size=64k"))
		return 1;
	/* the control: our own namespace's file is refused in it */
	fd = open(own, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd))
		return child_fail("create %s: %m", own);
	errno = 0;
	if (mount("/proc/self/ns/mnt", own, NULL, MS_BIND, NULL) != -1 || errno != EINVAL)
		return child_fail("bind of our own mount ns into it: %m, not EINVAL");
	/* a namespace made later, on each CPU: its file binds here */
	for (int c = 0; c < CPU_SETSIZE && !rc; c++) {
		struct ns_holder h;
		char src[64];

		if (!CPU_ISSET(c, &allowed))
			continue;
		snprintf(file, sizeof(file), "/tmp/cpu%d", c);
		fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0 || close(fd))
			return child_fail("create %s: %m", file);
		if (pin_to(c))
			return 1;
		if (ns_holder_start(&h, CLONE_NEWNS, bind_older_refused, file))
			return child_fail("the holder made on cpu %d failed", c);
		snprintf(src, sizeof(src), "/proc/%d/ns/mnt", h.pid);
		if (mount(src, file, NULL, MS_BIND, NULL))
			rc = child_fail("bind of the mount ns made later on cpu %d into ours (made on "
					"cpu %d): %m", c, top);
		else
			umount2(file, MNT_DETACH);
		if (ns_holder_stop(&h) && !rc)
			rc = child_fail("holder failed");
	}
	return rc;
}

/*
 * A mount ns file binds only into an older mount namespace: a newer one's binds into ours, ours
 * is refused (EINVAL) in ours and in a newer one (linux:4ce5d2b1a8fd, mnt_ns_loop()).
 *
 * The check keeps a mount namespace from pinning itself through a chain of
 * bind mounts.  It compares namespace ids; since linux:7d7d16498958 ("mnt:
 * support ns lookup", 6.18) those come from per-CPU batches
 * (gen_cookie_next()), so a namespace made later on another CPU can have
 * the lower id.  Our namespace is made on the CPU whose ids are highest
 * and a newer one on every CPU: on two CPUs or more a kernel ordering by
 * those ids lets the newer one bind ours (fixtures/data/expectations).
 */
TEST(mnt_ns_file_binds_into_older_ns)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, mnt_loop_worker, NULL));
}

TEST_HARNESS_MAIN
