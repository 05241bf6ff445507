// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace references (issue 17, item 3): a network namespace with no
 * processes stays reachable through a socket (the user namespace kept by a
 * namespace it owns is nsfs_lifetime's) and, since 6.19,
 * which such namespaces are "active" and so listed by listns() and
 * reopened by file handle: an open fd or a bind mount makes a namespace
 * active, a socket or a child namespace's passive reference does not,
 * SIOCGSKNS brings the namespace back.  Source: linux:76b6f5dfb3fd
 * ("nstree: add listns()": "Only active namespaces are listed") and the
 * active reference series of 6.19; listing another namespace needs the
 * global view (linux:8d76afe84fa2), so those tests SKIP in the runner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* Which namespaces a caller may see depends on it: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;

/* Global view: listns() and handles reach namespaces the caller is not in. */
static bool global_view(void)
{
	return ns_in_initial_userns() && ns_have_sys_admin() && ns_in_initial_pidns();
}

/* A child in a new network namespace: sends a socket of it, then exits. */
static int socket_of_new_netns(struct ns_ident *id)
{
	int sv[2], fd = -1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = ns_clone(CLONE_NEWNET);
	if (pid == 0) {
		int s = socket(AF_INET, SOCK_DGRAM, 0);

		ns_ident_of(0, "net", id);
		_exit(s < 0 || write(sv[1], id, sizeof(*id)) != sizeof(*id) ||
		      ns_send_fd(sv[1], s));
	}
	if (pid > 0 && read(sv[0], id, sizeof(*id)) == sizeof(*id))
		fd = ns_recv_fd(sv[0]);
	if (pid > 0 && ns_wait(pid, NS_WAIT_MS))
		fd = -1;
	close(sv[0]);
	close(sv[1]);
	return fd;
}

static int join_net(int nsfd, const struct ns_ident *want)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct ns_ident now;

		if (setns(nsfd, CLONE_NEWNET))
			_exit(child_fail("setns into the socket's netns: %m"));
		if (ns_ident_of(0, "net", &now) || !ns_ident_eq(&now, want))
			_exit(child_fail("joined another network namespace"));
		_exit(0);
	}
	return pid < 0 ? -1 : ns_wait(pid, NS_WAIT_MS);
}

static int socket_worker(void *arg)
{
	struct ns_ident id, got;
	bool global = *(bool *)arg;
	uint64_t ns_id = 0;
	int sock, nsfd, rc = 0;

	sock = socket_of_new_netns(&id);
	if (sock < 0)
		return child_fail("no socket from the new network namespace");
	/* no process, no fd, no mount: only the socket references it */
	nsfd = ioctl(sock, SIOCGSKNS);
	if (nsfd < 0)
		return child_fail("SIOCGSKNS: %m");
	if (ns_ident_of_fd(nsfd, &got) || !ns_ident_eq(&id, &got))
		rc = child_fail("SIOCGSKNS gave another namespace");
	else if (join_net(nsfd, &id))
		rc = child_fail("cannot join the namespace kept by the socket");
	/* listing needs listns() (6.19); the joins above hold from 4.9 */
	if (!rc && global && !ns_feature_missing(NS_F_LISTNS) && ns_get_id(nsfd, &ns_id) == 0 &&
	    ns_listed(ns_id, 0, 0) != 1)
		rc = child_fail("the resurrected network namespace is not listed");
	close(nsfd);
	close(sock);
	return rc;
}

/*
 * A network namespace whose processes are gone but a socket remains is reached by SIOCGSKNS on the
 * socket and can be joined (socket(7) SIOCGSKNS, 4.9; 6.19 resurrects it as active).
 *
 * The socket's reference is passive since 6.19 (the namespace is not
 * listed); SIOCGSKNS opens an nsfs inode, which makes it active again:
 * fs/nsfs.c nsfs_init_inode() "The SIOCGSKNS ioctl on such a socket will
 * resurrect the relevant namespace subtree".
 */
TEST(netns_kept_by_a_socket_is_reached_by_siocgskns)
{
	bool global = global_view();

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_run_admin(0, socket_worker, &global));
}

/* --- active references, seen through listns() (6.19) -------------------- */

struct ids {
	uint64_t uts, ipc, net, user;
	struct nsc_nsfs_fh uts_fh, ipc_fh;
};

static int handle_of(pid_t pid, const char *type, struct nsc_nsfs_fh *fh)
{
	int fd = ns_open(pid, type), t, r;

	if (fd < 0)
		return -1;
	r = ns_nsfs_handle(fd, &t, fh);
	close(fd);
	return r == 16 ? 0 : -1;
}

static int hold_ids(struct ns_holder *h, struct ids *ids)
{
	if (ns_holder_start(h, CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET,
			    NULL, NULL))
		return -1;
	if (ns_get_id_of(h->pid, "uts", &ids->uts) || ns_get_id_of(h->pid, "ipc", &ids->ipc) ||
	    ns_get_id_of(h->pid, "net", &ids->net) || ns_get_id_of(h->pid, "user",
			   &ids->user) ||
	    handle_of(h->pid, "uts", &ids->uts_fh) || handle_of(h->pid, "ipc", &ids->ipc_fh))
		return -1;
	return 0;
}

/* A bind mount of @path on a file of a private tmpfs, kept by a child until told. */
static pid_t bind_keeper(const char *path, struct ns_sync *s)
{
	struct ns_ident test_mnt;
	pid_t pid;

	/* Called by the test: its mount namespace is never to be changed. */
	if (ns_ident_of(0, "mnt", &test_mnt))
		return -1;
	pid = ns_clone_synced(ns_clone, CLONE_NEWNS, s);
	if (pid == 0) {
		struct ns_ident mnt;
		int fd;

		if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, &test_mnt))
			_exit(child_fail("not in a mount namespace of our own"));
		if (ns_private_tmp("size=1m"))
			_exit(1);
		fd = open("/tmp/ns", O_CREAT | O_RDWR, 0600);
		if (fd < 0 || mount(path, "/tmp/ns", NULL, MS_BIND, NULL))
			_exit(child_fail("bind mount %s: %m", path));
		ns_sync_tell(s, true, NULL, 0);
		ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
		if (umount("/tmp/ns"))
			_exit(child_fail("umount: %m"));
		ns_sync_tell(s, true, NULL, 0);
		ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
		_exit(0);
	}
	if (pid > 0 && ns_sync_wait(s, false, NULL, 0, NS_WAIT_MS))
		return -1;
	return pid;
}

static int reopen(const struct nsc_nsfs_fh *fh)
{
	int fd = ns_nsfs_open(fh);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

/*
 * With no process left, a namespace held by an fd or a bind mount stays listed; once only passive
 * references remain it is neither listed nor reopened by handle (listns(2); open_by_handle_at(2);
 * 6.19).
 *
 * linux:76b6f5dfb3fd: "Only 'active' namespaces are listed ... used by
 * running processes, held by open file descriptors, or kept active by
 * bind mounts"; a handle of an inactive namespace does not open
 * (nsfs_fh_to_dentry(): ns_get_unless_inactive()).
 */
TEST(listed_while_an_fd_or_a_bind_mount_keeps_it_active)
{
	struct ns_holder h;
	struct ns_sync s;
	struct ids ids;
	char path[64];
	pid_t keeper;
	int uts;

	NS_NEED(NS_F_LISTNS);
	NS_NEED_ENV(global_view(), NS_WHY_REAL_ROOT_PIDNS,
		    "listns() of other namespaces, linux:8d76afe84fa2");
	ASSERT_EQ(0, hold_ids(&h, &ids));
	EXPECT_EQ(1, ns_listed(ids.uts, 0, 0));
	EXPECT_EQ(1, ns_listed(ids.net, CLONE_NEWNET, 0));
	uts = ns_open(h.pid, "uts");
	ASSERT_LE(0, uts);
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", h.pid);
	keeper = bind_keeper(path, &s);
	ASSERT_LT(0, keeper);
	ASSERT_EQ(0, ns_holder_stop(&h));
	/* fd: uts; bind mount: ipc; the user namespace owns both; net: nothing */
	EXPECT_EQ(1, ns_listed(ids.uts, 0, 0));
	EXPECT_EQ(1, ns_listed(ids.ipc, 0, 0));
	EXPECT_EQ(1, ns_listed(ids.user, CLONE_NEWUSER, 0));
	EXPECT_EQ(0, ns_listed(ids.net, 0, 0));
	EXPECT_EQ(0, reopen(&ids.uts_fh));
	/* the bind mount goes: ipc is inactive */
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS));
	EXPECT_EQ(0, ns_listed(ids.ipc, 0, 0));
	EXPECT_EQ(-ESTALE, reopen(&ids.ipc_fh));
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(keeper, NS_WAIT_MS));
	ns_sync_close(&s);
	/* the fd goes: uts and, owning nothing active, the user namespace */
	close(uts);
	EXPECT_EQ(0, ns_listed(ids.uts, 0, 0));
	EXPECT_EQ(0, ns_listed(ids.user, 0, 0));
	EXPECT_EQ(-ESTALE, reopen(&ids.uts_fh));
}

/*
 * A user namespace with no processes is listed while a namespace it owns is active, and no longer
 * once that one is not (linux:76b6f5dfb3fd, 6.19: active references propagate to the owner;
 * user_namespaces(7)).
 */
TEST(owner_listed_while_an_owned_namespace_is_active)
{
	struct ns_holder h;
	struct ids ids;
	int net;

	NS_NEED(NS_F_LISTNS);
	NS_NEED_ENV(global_view(), NS_WHY_REAL_ROOT_PIDNS,
		    "listns() of other namespaces, linux:8d76afe84fa2");
	ASSERT_EQ(0, hold_ids(&h, &ids));
	net = ns_open(h.pid, "net");
	ASSERT_LE(0, net);
	ASSERT_EQ(0, ns_holder_stop(&h));
	EXPECT_EQ(1, ns_listed(ids.net, 0, 0));
	EXPECT_EQ(1, ns_listed(ids.user, 0, 0));
	EXPECT_EQ(1, ns_listed(ids.net, 0, ids.user));
	EXPECT_EQ(0, ns_listed(ids.uts, 0, 0));
	close(net);
	EXPECT_EQ(0, ns_listed(ids.net, 0, 0));
	EXPECT_EQ(0, ns_listed(ids.user, 0, 0));
}

/* --- a namespace only a thread is in ------------------------------------------ */

struct thread_ns {
	int ready[2], go[2];	/* pipes: the thread reports, then waits for the word */
	pid_t tid;
	uint64_t id;
	struct nsc_nsfs_fh fh;
	int err;		/* 0, or the errno of the step that failed */
};

/* A thread: its own network namespace, then it waits to be told to exit. */
static void *netns_thread(void *arg)
{
	struct thread_ns *t = arg;
	int fd, type, r;
	char c = 0;

	t->tid = syscall(SYS_gettid);
	fd = unshare(CLONE_NEWNET) ? -1 : open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		t->err = errno;
	} else {
		r = ns_get_id(fd, &t->id);
		if (!r)
			r = ns_nsfs_handle(fd, &type, &t->fh);
		if (r != 16)
			t->err = r < 0 ? -r : EIO;
		close(fd);
	}
	if (write(t->ready[1], &c, 1) != 1 || read(t->go[0], &c, 1) != 1)
		t->err = EPIPE;
	return NULL;
}

/*
 * One round: a thread makes a network namespace and exits; 1 when @hold,
 * an fd opened by handle while the thread lives is kept over its exit.
 * The exit is seen through a pidfd of the thread (PIDFD_THREAD), readable
 * once the thread has left its namespaces (exit_notify() runs after
 * exit_nsproxy_namespaces()); the thread's pthread_join() returns before
 * that (CLONE_CHILD_CLEARTID is cleared in exit_mm()), so it tells nothing.
 */
static int thread_round(bool hold)
{
	struct thread_ns t = { .err = 0 };
	struct pollfd p = { .events = POLLIN };
	const char *what = hold ? "held by an fd" : "not held";
	int nsfd = -1, rc = 0, n;
	pthread_t th;
	char c = 0;

	if (pipe2(t.ready, O_CLOEXEC) || pipe2(t.go, O_CLOEXEC))
		return child_fail("pipe: %m");
	if (pthread_create(&th, NULL, netns_thread, &t))
		return child_fail("pthread_create failed");
	if (read(t.ready[0], &c, 1) != 1 || t.err) {
		errno = t.err;
		rc = child_fail("the thread's network namespace, its id and handle: %m");
		goto join;
	}
	p.fd = syscall(__NR_pidfd_open, t.tid, PIDFD_THREAD);
	if (p.fd < 0) {
		rc = child_fail("pidfd_open(thread %d, PIDFD_THREAD): %m", t.tid);
		goto join;
	}
	/* While the thread is in it, the namespace is listed and reopened. */
	n = ns_listed(t.id, CLONE_NEWNET, 0);
	nsfd = ns_nsfs_open(&t.fh);
	if (n != 1 || nsfd < 0) {
		rc = child_fail("the thread's namespace while it lives: listed %d, reopened %d", n,
				nsfd);
		goto join;
	}
	if (!hold) {
		close(nsfd);
		nsfd = -1;
	}
	if (write(t.go[1], &c, 1) != 1) {
		rc = child_fail("telling the thread to exit: %m");
		goto join;
	}
	n = poll(&p, 1, NS_WAIT_MS);
	if (n != 1) {
		rc = child_fail("the thread's pidfd: %s after %d ms", n ? strerror(errno) :
				"not readable", NS_WAIT_MS);
		goto join;
	}
	/* The thread is gone: only our fd, if any, keeps the namespace active. */
	n = ns_listed(t.id, CLONE_NEWNET, 0);
	if (n != (hold ? 1 : 0)) {
		rc = child_fail("after the thread's exit, its namespace (%s) is listed: %d, "
				"expected %d", what, n, hold ? 1 : 0);
		goto join;
	}
	n = ns_nsfs_open(&t.fh);
	if (n >= 0)
		close(n);
	if (hold ? n < 0 : n != -ESTALE) {
		rc = child_fail("after the thread's exit, its namespace (%s) reopened by handle: "
				"%s, expected %s", what, n >= 0 ? "an fd" : strerror(-n),
				hold ? "an fd" : "ESTALE");
		goto join;
	}
	if (hold) {
		close(nsfd);
		nsfd = -1;
		n = ns_listed(t.id, CLONE_NEWNET, 0);
		if (n != 0)
			rc = child_fail("the fd closed, the thread's namespace is listed: %d, "
					"expected 0", n);
		else if ((n = ns_nsfs_open(&t.fh)) != -ESTALE)
			rc = child_fail("the fd closed, the thread's namespace reopened by handle: "
					"%s, expected ESTALE", n >= 0 ? "an fd" : strerror(-n));
		if (n >= 0)
			close(n);
	}
join:
	if (rc && write(t.go[1], &c, 1) != 1)
		rc = child_fail("telling the thread to exit: %m");
	pthread_join(th, NULL);
	if (nsfd >= 0)
		close(nsfd);
	if (p.fd >= 0)
		close(p.fd);
	close(t.ready[0]);
	close(t.ready[1]);
	close(t.go[0]);
	close(t.go[1]);
	return rc;
}

static int thread_worker(void *arg)
{
	(void)arg;
	return thread_round(false) || thread_round(true);
}

/*
 * A namespace only a thread is in is active while the thread is in it and
 * stops being active when the thread exits, unless an open fd keeps it
 * active, and then until that fd is closed: listns() lists only active
 * namespaces and a handle of an inactive one does not open (ESTALE)
 * (linux:76b6f5dfb3fd "nstree: add listns()", 6.19; a thread's namespaces
 * are its own, unshare(2) "CLONE_NEWNET").  The peer selftest
 * ns_active_ref_test thread_* judges the exit by pthread_join(), which
 * returns before the thread leaves its namespaces.
 */
TEST(thread_namespace_active_until_the_thread_and_its_fd_are_gone)
{
	NS_NEED(NS_F_LISTNS);
	NS_NEED_ENV(global_view(), NS_WHY_REAL_ROOT_PIDNS,
		    "listns() of other namespaces, linux:8d76afe84fa2");
	ASSERT_EQ(0, ns_run(0, thread_worker, NULL));
}

TEST_HARNESS_MAIN
