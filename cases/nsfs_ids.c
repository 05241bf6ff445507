// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace ids and handles (issue 17, item 1): NS_GET_ID against the
 * network namespace cookie, the fixed inode numbers of the initial
 * namespaces, and nsfs file handles (name_to_handle_at(2) and
 * open_by_handle_at(2) with FD_NSFS_ROOT).  Every feature is probed
 * (fixtures/core_features.c).  NS_GET_ID equal-iff-shared is in nsfs_ioctl.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* Which namespaces a caller may see depends on it: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;

/* --- NS_GET_ID and the network namespace cookie -------------------------- */

static int net_cookie(uint64_t *cookie)
{
	socklen_t len = sizeof(*cookie);
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	if (s < 0)
		return -errno;
	r = getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, cookie, &len) ? -errno : 0;
	close(s);
	return r;
}

/* In a new network namespace: its id and its cookie, sent to the parent. */
static int cookie_inside(void *arg)
{
	uint64_t v[2];
	int fd = *(int *)arg;

	if (ns_get_id_of(0, "net", &v[0]) || net_cookie(&v[1]))
		return child_fail("NS_GET_ID or SO_NETNS_COOKIE inside: %m");
	return write(fd, v, sizeof(v)) == sizeof(v) ? 0 : child_fail("write: %m");
}

/*
 * NS_GET_ID of a network namespace equals SO_NETNS_COOKIE of its sockets, ours and a new one's
 * (socket(7) SO_NETNS_COOKIE; NS_GET_ID only in include/uapi/linux/nsfs.h, 6.18).
 */
TEST(net_ns_id_is_its_socket_cookie)
{
	uint64_t id, cookie, in[2];
	int p[2];

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_NS_GET_ID);
	NS_NEED(NS_F_SO_NETNS_COOKIE);
	ASSERT_EQ(0, ns_get_id_of(0, "net", &id));
	ASSERT_EQ(0, net_cookie(&cookie));
	EXPECT_EQ(id, cookie);
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET, cookie_inside, &p[1]));
	ASSERT_EQ(sizeof(in), read(p[0], in, sizeof(in)));
	close(p[0]);
	close(p[1]);
	EXPECT_EQ(in[0], in[1]);
	EXPECT_NE(id, in[0]);
}

/* --- fixed inode numbers ------------------------------------------------- */

static bool reserved_ino(ino_t ino)
{
	return ino >= NSC_MNT_INIT_INO && ino <= NSC_IPC_INIT_INO;
}

/*
 * The initial user namespace's inode is 0xEFFFFFFD (namespaces(7) inode identity; nsfs.h enum
 * init_ns_ino; fixed since 3.8, linux:98f842e675f9).
 *
 * linux:98f842e675f9 ("proc: Usable inode numbers for the namespace file
 * descriptors.", 3.8) gave the initial ipc, uts, user and pid namespaces
 * fixed numbers (cgroup 4.6, time 5.6); net and mnt followed in 6.18
 * (linux:7cf730321132 "ns: use inode initializer for initial namespaces").
 */
TEST(initial_user_ns_has_fixed_inode)
{
	struct ns_ident id;

	NS_NEED_INITIAL_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "user", &id));
	EXPECT_EQ(NSC_USER_INIT_INO, (unsigned long)id.ino);
}

static const struct {
	const char *type;
	unsigned int ino;
	bool since_6_17;
} init_inodes[] = {
	{ "ipc", NSC_IPC_INIT_INO, false },
	{ "uts", NSC_UTS_INIT_INO, false },
	{ "user", NSC_USER_INIT_INO, false },
	{ "pid", NSC_PID_INIT_INO, false },
	{ "cgroup", NSC_CGROUP_INIT_INO, false },
	{ "time", NSC_TIME_INIT_INO, false },
	{ "net", NSC_NET_INIT_INO, true },
	{ "mnt", NSC_MNT_INIT_INO, true },
};

/*
 * The initial namespaces, kthreadd's, have the fixed inode numbers of nsfs.h (ipc, uts, user, pid
 * since 3.8, cgroup 4.6, time 5.6; net and mnt 6.17) and no others (namespaces(7)).
 *
 * Kernel threads live in the initial namespaces of every type, so those of
 * kthreadd (pid 2 of the initial PID namespace) are the initial ones.  The
 * net and mnt numbers came one release before NS_GET_ID (6.18,
 * linux:7cf730321132): the archive sweep sees them on every 6.17 release
 * (6.17.8, 6.17.13) and dynamic numbers on every 6.16.  No call tells the
 * two generations apart, so the release chooses which one is asserted.
 */
TEST(initial_namespaces_have_the_fixed_inodes)
{
	bool new_series = ns_release_at_least(6, 17);

	/* reading another user's /proc/PID/ns links is a ptrace read check */
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_cap_effective(CAP_SYS_PTRACE));
	NS_NEED_INITIAL_PIDNS();
	for (size_t i = 0; i < sizeof(init_inodes) / sizeof(init_inodes[0]); i++) {
		struct ns_ident id;
		int err;

		if (!ns_type_available(init_inodes[i].type))
			continue;
		err = ns_ident_of(2, init_inodes[i].type, &id);
		ASSERT_EQ(0, err) TH_LOG("%s: %s", init_inodes[i].type, strerror(-err));
		if (!init_inodes[i].since_6_17 || new_series) {
			EXPECT_EQ(init_inodes[i].ino, (unsigned long)id.ino)
				TH_LOG("initial %s namespace", init_inodes[i].type);
		} else {
			EXPECT_FALSE(reserved_ino(id.ino))
				TH_LOG("initial %s namespace has %#lx before 6.17",
				       init_inodes[i].type, (unsigned long)id.ino);
		}
	}
}

static int report_inodes(void *arg)
{
	int fd = *(int *)arg;
	unsigned long ino[NS_NTYPES] = { 0 };

	for (int i = 0; i < NS_NTYPES; i++) {
		struct ns_ident id;

		if (ns_type_available(ns_types[i].name) &&
		    !ns_ident_of(0, ns_types[i].name, &id))
			ino[i] = id.ino;
	}
	return write(fd, ino, sizeof(ino)) == sizeof(ino) ? 0 : child_fail("write: %m");
}

/*
 * A namespace created later never gets a number of enum init_ns_ino (0xEFFFFFF8-0xEFFFFFFF, nsfs.h;
 * namespaces(7) inode identity).
 */
TEST(new_namespaces_never_get_initial_inodes)
{
	unsigned long all = CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS |
			    CLONE_NEWCGROUP | CLONE_NEWPID;
	unsigned long ino[NS_NTYPES];
	int p[2];

	NS_NEED_USERNS();

	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	ASSERT_EQ(0, ns_run(all | CLONE_NEWUSER, report_inodes, &p[1]));
	ASSERT_EQ(sizeof(ino), read(p[0], ino, sizeof(ino)));
	close(p[0]);
	close(p[1]);
	for (int i = 0; i < NS_NTYPES; i++) {
		if (!ino[i] || ns_types[i].flag == CLONE_NEWTIME)
			continue;	/* time: the child stays in ours */
		EXPECT_FALSE(reserved_ino(ino[i]))
			TH_LOG("new %s namespace has inode %#lx", ns_types[i].name, ino[i]);
	}
}

/* Walk every mount namespace we may see; count those with @ino. */
static int count_mntns_with_inode(unsigned long ino, int *seen)
{
	int found = 0;

	*seen = 0;
	for (int dir = 0; dir < 2; dir++) {
		int fd = ns_open(0, "mnt");

		if (fd < 0)
			return -errno;
		if (dir == 0) {
			struct ns_ident id;

			ns_ident_of_fd(fd, &id);
			found += id.ino == ino;
			(*seen)++;
		}
		for (int n = 0; n < 100000; n++) {
			struct nsc_mnt_ns_info info = { .size = sizeof(info) };
			int next = ioctl(fd, dir ? NS_MNT_GET_NEXT : NS_MNT_GET_PREV, &info);
			struct ns_ident id;

			if (next < 0)
				break;
			ns_ident_of_fd(next, &id);
			found += id.ino == ino;
			(*seen)++;
			close(fd);
			fd = next;
		}
		close(fd);
	}
	return found;
}

/*
 * Exactly one mount namespace, the initial one, has inode 0xEFFFFFF8 (namespaces(7); nsfs.h;
 * linux:7cf730321132 "ns: use inode initializer for initial namespaces", 6.18).
 *
 * The mount namespace of the initial mount tree is not reachable by name
 * from inside the runner's mount namespace; NS_MNT_GET_PREV/NEXT walk
 * every mount namespace for real root in the initial PID namespace
 * (linux:e6b899f08066 "nsfs: tighten permission checks for ns iteration
 * ioctls"): exactly one has the number.  Inside the runner this SKIPs.
 */
TEST(exactly_one_mount_ns_has_the_initial_inode)
{
	int seen, n;

	NS_NEED(NS_F_NS_GET_ID);
	NS_NEED(NS_F_NS_MNT_ITER);
	NS_NEED_ENV(ns_in_initial_userns() && ns_have_sys_admin() && ns_in_initial_pidns(),
		    NS_WHY_REAL_ROOT_PIDNS, "NS_MNT_GET_NEXT/PREV since linux:e6b899f08066");
	n = count_mntns_with_inode(NSC_MNT_INIT_INO, &seen);
	TH_LOG("%d mount namespaces seen", seen);
	EXPECT_EQ(1, n);
}

/* --- nsfs file handles --------------------------------------------------- */

/*
 * name_to_handle_at() of a namespace file: FILEID_NSFS, 16 bytes of ns_id (NS_GET_ID), ns_type
 * (CLONE_NEW*), ns_inum; FD_NSFS_ROOT reopens it (open_by_handle_at(2); linux:5222470b2fbb "nsfs:
 * support file handles", 6.18).
 */
TEST(nsfs_handle_describes_and_reopens_each_type)
{
	NS_NEED(NS_F_NSFS_HANDLES);
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		struct nsc_nsfs_fh fh;
		struct ns_ident id, back;
		uint64_t ns_id;
		int fd, type, len, nfd;

		if (!ns_type_available(t->name))
			continue;
		fd = ns_open(0, t->name);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ns_get_id(fd, &ns_id));
		ASSERT_EQ(0, ns_ident_of_fd(fd, &id));
		len = ns_nsfs_handle(fd, &type, &fh);
		EXPECT_EQ(16, len) TH_LOG("%s", t->name);
		EXPECT_EQ(NSC_FILEID_NSFS, type);
		EXPECT_EQ(ns_id, fh.ns_id) TH_LOG("%s", t->name);
		EXPECT_EQ(t->flag, fh.ns_type) TH_LOG("%s", t->name);
		EXPECT_EQ((unsigned long)id.ino, fh.ns_inum) TH_LOG("%s", t->name);
		nfd = ns_nsfs_open(&fh);
		EXPECT_LE(0, nfd) TH_LOG("%s: open_by_handle_at: %s", t->name, strerror(-nfd));
		if (nfd >= 0) {
			ASSERT_EQ(0, ns_ident_of_fd(nfd, &back));
			EXPECT_TRUE(ns_ident_eq(&id, &back)) TH_LOG("%s", t->name);
			close(nfd);
		}
		close(fd);
	}
}

/* A handle whose ns_type or ns_inum does not match the id's namespace opens nothing. */
static int open_wrong(const struct nsc_nsfs_fh *good, int what)
{
	struct nsc_nsfs_fh fh = *good;
	int fd;

	if (what == 0)
		fh.ns_type = CLONE_NEWIPC;
	else if (what == 1)
		fh.ns_inum ^= 1;
	else
		fh.ns_id = ~0ULL - 1;
	fd = ns_nsfs_open(&fh);
	if (fd >= 0)
		close(fd);
	return fd;
}

/*
 * A handle with the wrong type or inode for its id, or an id no namespace has, fails ESTALE
 * (open_by_handle_at(2); linux:5222470b2fbb "nsfs: support file handles", 6.18).
 */
TEST(nsfs_handle_mismatch_or_unknown_id_fails)
{
	struct nsc_nsfs_fh fh;
	int fd, type;

	NS_NEED(NS_F_NSFS_HANDLES);
	fd = ns_open(0, "uts");
	ASSERT_LE(0, fd);
	ASSERT_EQ(16, ns_nsfs_handle(fd, &type, &fh));
	close(fd);
	EXPECT_EQ(-ESTALE, open_wrong(&fh, 0));
	EXPECT_EQ(-ESTALE, open_wrong(&fh, 1));
	EXPECT_EQ(-ESTALE, open_wrong(&fh, 2));
}

struct perm_view {
	struct nsc_nsfs_fh fh;	/* of the holder's uts namespace */
	struct ns_ident id;
};

/* In a sibling user namespace: not in the holder's uts, no privilege over it. */
static int stranger_opens(void *arg)
{
	struct perm_view *v = arg;
	struct nsc_nsfs_fh own;
	int fd, type;

	fd = ns_nsfs_open(&v->fh);
	if (fd >= 0)
		return child_fail("a stranger opened the holder's uts namespace");
	if (fd != -ESTALE)
		return child_fail("a stranger's open failed with %s, not ESTALE", strerror(-fd));
	fd = ns_open(0, "uts");
	if (fd < 0 || ns_nsfs_handle(fd, &type, &own) != 16)
		return child_fail("handle of own uts: %m");
	close(fd);
	fd = ns_nsfs_open(&own);
	if (fd < 0)
		return child_fail("cannot reopen the uts namespace we are in: %s", strerror(-fd));
	close(fd);
	return 0;
}

static int perm_worker(void *arg)
{
	struct perm_view v;
	struct ns_holder h;
	struct ns_ident back;
	int fd, type, rc = 0;

	(void)arg;
	if (ns_become_nobody())
		return child_fail("cannot become unprivileged: %m");
	if (ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWUTS, NULL, NULL))
		return child_fail("holder failed");
	fd = ns_open(h.pid, "uts");
	if (fd < 0 || ns_nsfs_handle(fd, &type, &v.fh) != 16 || ns_ident_of_fd(fd, &v.id))
		rc = child_fail("handle of the holder's uts: %m");
	close(fd);
	/* the owner of the holder's user namespace, but not in its uts */
	if (!rc) {
		fd = ns_nsfs_open(&v.fh);
		if (fd >= 0 && (ns_ident_of_fd(fd, &back) || !ns_ident_eq(&back, &v.id)))
			rc = child_fail("the handle opened another namespace");
		else if (fd != -ESTALE)
			rc = child_fail("the owner's open gave %d (%s), not ESTALE", fd,
					fd < 0 ? strerror(-fd) : "an fd");
		if (fd >= 0)
			close(fd);
	}
	if (!rc) {
		int r = ns_run(CLONE_NEWUSER | CLONE_NEWUTS, stranger_opens, &v);

		if (r)
			rc = child_fail("stranger: %d", r);
	}
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * Unprivileged, an nsfs handle opens a namespace the caller is in; one it only owns, or a
 * sibling's, gives ESTALE (open_by_handle_at(2); linux:5222470b2fbb "nsfs: support file handles",
 * 6.18).
 *
 * The merge message of the series (linux:3ab378cfa793 "Merge patch series
 * \"ns: support file handles\"") says a caller may open a namespace it is
 * located in or is "privileged over the owning user namespace" of.  What the
 * kernel does: without CAP_DAC_READ_SEARCH in the initial user namespace the
 * decoded nsfs inode (owned by the host's root) is not acceptable unless it
 * is the caller's own namespace, so even the owner of the namespace's user
 * namespace gets ESTALE (6.18 and 7.3).
 */
TEST(nsfs_handle_opens_only_own_namespace_unprivileged)
{
	const char *why = ns_userns_blocker(true);

	NS_NEED(NS_F_NSFS_HANDLES);
	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run(0, perm_worker, NULL));
}

/* A handle of a new network namespace (a holder's) and its identity. */
static int holder_net_handle(struct ns_holder *h, struct nsc_nsfs_fh *fh, struct ns_ident *id)
{
	int fd, type, r = 0;

	if (ns_holder_start(h, CLONE_NEWUTS | CLONE_NEWNET, NULL, NULL))
		return -1;
	fd = ns_open(h->pid, "net");
	if (fd < 0 || ns_nsfs_handle(fd, &type, fh) != 16 || ns_ident_of_fd(fd, id))
		r = -1;
	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * Root in the initial PID namespace opens by handle a namespace it is not in (open_by_handle_at(2);
 * linux:5222470b2fbb "nsfs: support file handles", 6.18).
 *
 * nsrun keeps the case in the initial PID namespace
 * (NS_CASE_NEEDS_INITIAL_PIDNS); a runner that puts it elsewhere makes the
 * test skip.  The refusal outside is the next test.
 */
TEST(nsfs_handle_other_namespace_opens_for_root)
{
	struct nsc_nsfs_fh fh;
	struct ns_ident id, back;
	struct ns_holder h;
	int nfd;

	NS_NEED(NS_F_NSFS_HANDLES);
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_have_sys_admin());
	NS_NEED_INITIAL_PIDNS();
	ASSERT_EQ(0, holder_net_handle(&h, &fh, &id));
	nfd = ns_nsfs_open(&fh);
	EXPECT_LE(0, nfd) TH_LOG("open by handle: %s", strerror(-nfd));
	if (nfd >= 0) {
		EXPECT_EQ(0, ns_ident_of_fd(nfd, &back));
		EXPECT_TRUE(ns_ident_eq(&id, &back));
		close(nfd);
	}
	EXPECT_EQ(0, ns_holder_stop(&h));
}

struct handle_outside {
	struct nsc_nsfs_fh fh;
	int nfd;			/* 0: opened (closed again), or -errno */
};

/* In a PID namespace of its own (ns_run(CLONE_NEWPID)): open the handle. */
static int open_outside_worker(void *arg)
{
	struct handle_outside *o = arg;
	int fd;

	if (ns_in_initial_pidns())
		return child_fail("still in the initial PID namespace");
	fd = ns_nsfs_open(&o->fh);
	o->nfd = fd < 0 ? fd : 0;
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * Root outside the initial PID namespace opening by handle a namespace it is not in gets ESTALE
 * (open_by_handle_at(2); linux:d2324a9317f0 "nsfs: tighten permission checks for handle opening").
 *
 * linux:d2324a9317f0 (7.0, stable 6.18+): a namespace the caller is not in
 * opens only for may_see_all_namespaces(), CAP_SYS_ADMIN in the initial
 * user and PID namespaces.  The test makes the child PID namespace itself,
 * so the refusal is observed wherever the runner puts the case: real root
 * (all capabilities in the initial user namespace) in a PID namespace of
 * its own opens the handle of a holder's network namespace.  Before the fix
 * it opens.
 */
TEST(nsfs_handle_other_namespace_needs_initial_pid_ns)
{
	struct handle_outside *o = ns_shared_page(sizeof(*o));
	struct ns_ident id;
	struct ns_holder h;

	NS_NEED(NS_F_NSFS_HANDLES);
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_have_sys_admin());
	ASSERT_NE(NULL, o);
	ASSERT_EQ(0, holder_net_handle(&h, &o->fh, &id));
	o->nfd = -ENODATA;	/* not reached */
	EXPECT_EQ(0, ns_run(CLONE_NEWPID, open_outside_worker, o));
	EXPECT_EQ(-ESTALE, o->nfd) TH_LOG("open by handle from a child PID ns: %s",
					  o->nfd ? strerror(-o->nfd) : "opened");
	EXPECT_EQ(0, ns_holder_stop(&h));
}

TEST_HARNESS_MAIN
