// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces: a new namespace's loopback is down and traffic fails
 * until it is up; /sys/class/net shows the namespace of the sysfs mount;
 * root of a user namespace has no power over the devices and sysctls of a
 * network namespace its user namespace does not own; a socket stays in the
 * namespace it was made in; /proc/net follows the reader; mounting sysfs
 * and SIOCGSKNS need privilege over the netns's owner, whose root owns
 * the netns's /proc/sys/net files.
 * Sources: network_namespaces(7), user_namespaces(7), sysfs(5),
 * the article's part 1 ("network namespaces").
 *
 * Devices (a veth pair, through libnl-route-3) are created only in network
 * namespaces the test created; a netns a test only looks at is never
 * changed (a write that a lying kernel could let through writes back the
 * value just read).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "net_route.h"
#include "kselftest_harness.h"


/* Declares R, a test's record shared with its children; skips without a way to a new netns. */
#define NET_REC(type, r)							\
	type *r = ns_shared_page(1 << 16);					\
	NS_NEED_ADMIN_OR_USERNS();						\
	ASSERT_NE(NULL, r)

/* veth_pair()'s answer when the kernel has no veth driver. */
#define VETH_ABSENT 2

/*
 * Open an rtnetlink socket (*@sk) and make the veth pair @va/@vb in our
 * netns: 0, VETH_ABSENT, or 1 after child_fail().
 */
static int veth_pair(struct nl_sock **sk, const char *va, const char *vb)
{
	int err;

	*sk = rt_open();
	if (!*sk)
		return child_fail("rtnetlink socket");
	err = veth_add(*sk, va, vb);
	if (veth_missing(err))
		return VETH_ABSENT;
	return err ? child_fail("creating veth: %s", nl_geterror(err)) : 0;
}

/* --- loopback down ---------------------------------------------------------- */

struct lo_rec {
	int lo_flags;		/* IFF_* of lo in the new namespace */
	int udp_down, tcp_down;	/* -errno of sendto()/connect() to 127.0.0.1 while down */
	int udp_up, tcp_up;	/* the same once lo is up (a listener waits for TCP) */
};

static int udp_send_errno(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9) };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	if (s < 0)
		return -EBADF;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) == 1 ? 0 : -errno;
	close(s);
	return r;
}

static int lo_traffic(void *arg)
{
	struct lo_rec *r = arg;
	int l, c;

	if (netdev_flags("lo", &r->lo_flags))
		return child_fail("SIOCGIFFLAGS lo: %m");
	r->udp_down = udp_send_errno();
	c = tcp_connect_to("127.0.0.1", 4242);
	r->tcp_down = c < 0 ? c : 0;
	if (c >= 0)
		close(c);
	if (netns_lo_up())
		return child_fail("bring lo up: %m");
	r->udp_up = udp_send_errno();
	l = tcp_listen_on("127.0.0.1", 4242);
	if (l < 0)
		return child_fail("listen: %s", strerror(-l));
	c = tcp_connect_to("127.0.0.1", 4242);
	r->tcp_up = c < 0 ? c : 0;
	return 0;
}

/*
 * In a new netns lo is down and traffic to 127.0.0.1 fails with ENETUNREACH until lo is brought up
 * (network_namespaces(7), article part 1).
 *
 * Until lo is up the new namespace has no route at all, not even to
 * 127.0.0.1: sending fails with ENETUNREACH; bringing lo up is enough.
 */
TEST(loopback_down_traffic_is_enetunreach)
{
	NET_REC(struct lo_rec, r);
	r->udp_down = r->tcp_down = r->udp_up = r->tcp_up = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET, lo_traffic, r));
	EXPECT_EQ(0, r->lo_flags & IFF_UP);
	EXPECT_EQ(-ENETUNREACH, r->udp_down);
	EXPECT_EQ(-ENETUNREACH, r->tcp_down);
	EXPECT_EQ(0, r->udp_up);
	EXPECT_EQ(0, r->tcp_up);
}

/* --- sysfs ------------------------------------------------------------------ */

/* Number of entries in @dir/class/net, and whether @name is among them. */
static int class_net(const char *sys, const char *name, int *has)
{
	char path[256];
	struct dirent *d;
	int n = 0;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/class/net", sys);
	dp = opendir(path);
	if (!dp)
		return -errno;
	if (has)
		*has = 0;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		n++;
		if (has && !strcmp(d->d_name, name))
			*has = 1;
	}
	closedir(dp);
	return n;
}

struct sysfs_rec {
	struct ns_ident test_mnt, test_net;
	char va[IFNAMSIZ], vb[IFNAMSIZ];
	int skip;
	int a_count, a_has_va, a_has_vb;	/* sysfs mounted in A, read in A */
	int old_has_va;				/* the test's sysfs, read in A */
	int b_count, b_has_va;			/* A's sysfs read after moving to B */
	int b2_count, b2_has_va;		/* a second sysfs mounted in B */
};

/* A private mount namespace with a tmpfs at /tmp to mount sysfs instances on. */
static int private_tmp(const struct ns_ident *test_mnt)
{
	struct ns_ident mnt;

	if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, test_mnt))
		return child_fail("not in a mount namespace of our own");
	if (ns_private_tmp("size=64k"))
		return 1;
	if (mkdir("/tmp/a", 0755) || mkdir("/tmp/b", 0755))
		return child_fail("mkdir: %m");
	return 0;
}

static int sysfs_views(void *arg)
{
	struct sysfs_rec *r = arg;
	struct nl_sock *sk;
	int err;

	if (!netns_is_not(&r->test_net))
		return child_fail("not in a netns of our own");
	if (private_tmp(&r->test_mnt))
		return 1;
	err = veth_pair(&sk, r->va, r->vb);
	if (err == VETH_ABSENT)
		r->skip = 1;
	if (err)
		return err == VETH_ABSENT ? 0 : err;
	if (mount("sysfs", "/tmp/a", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return child_fail("mount sysfs in the new netns: %m");
	r->a_count = class_net("/tmp/a", r->va, &r->a_has_va);
	class_net("/tmp/a", r->vb, &r->a_has_vb);
	class_net("/sys", r->va, &r->old_has_va);
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET): %m");
	r->b_count = class_net("/tmp/a", r->va, &r->b_has_va);
	if (mount("sysfs", "/tmp/b", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return child_fail("mount sysfs in the second netns: %m");
	r->b2_count = class_net("/tmp/b", r->va, &r->b2_has_va);
	return 0;
}

/*
 * /sys/class/net shows the devices of the netns the sysfs was mounted in, whoever reads it
 * (network_namespaces(7), sysfs(5)).
 *
 * A sysfs mounted in namespace A lists lo and A's veth pair; the test's
 * own /sys does not list them.  After the process moves to B the same
 * mount still shows A's devices; a sysfs mounted in B shows only B's lo.
 */
TEST(sys_class_net_follows_netns_of_sysfs_mount)
{
	NET_REC(struct sysfs_rec, r);
	NS_NEED_ENV(!access("/sys/class/net", R_OK), NS_WHY_NO_SYSFS);
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r->test_mnt));
	ASSERT_EQ(0, ns_ident_of(0, "net", &r->test_net));
	snprintf(r->va, sizeof(r->va), "nsrA%d", getpid());
	snprintf(r->vb, sizeof(r->vb), "nsrB%d", getpid());
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET | CLONE_NEWNS, sysfs_views, r));
	NS_NEED_FEATURE(NS_F_VETH, r->skip);
	EXPECT_EQ(3, r->a_count);
	EXPECT_EQ(1, r->a_has_va);
	EXPECT_EQ(1, r->a_has_vb);
	EXPECT_EQ(0, r->old_has_va);
	EXPECT_EQ(3, r->b_count);
	EXPECT_EQ(1, r->b_has_va);
	EXPECT_EQ(1, r->b2_count);
	EXPECT_EQ(0, r->b2_has_va);
}

/* --- root of a user namespace and a netns it does not own ------------------ */

/*
 * Run @fn(@arg) as root of a user namespace made by nobody, in a netns the
 * test made first (owned by an ancestor user namespace): never the test's
 * own netns, which may be the host's.  @after(@arg), when given, runs in
 * that netns once @fn's process has exited.  ns_wait()'s result.
 */
static int as_foreign_root(int (*fn)(void *), int (*after)(void *), void *arg)
{
	pid_t pid = ns_clone_admin(CLONE_NEWNET);

	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid_t inner = ns_clone(0);
		int rc;

		if (inner < 0)
			_exit(child_fail("fork: %m"));
		if (inner == 0) {
			/*
			 * Real root becomes nobody.  In a user namespace whose
			 * only id is 0 the ids stay (mapping 0 to 0 needs
			 * CAP_SETFCAP, linux:db2e718a4798); a process in the
			 * new user namespace has no capability in any ancestor.
			 */
			if ((ns_in_initial_userns() && ns_become_nobody()) ||
			    ns_unshare_userns_root(0))
				_exit(child_fail("nobody, then root of a new user namespace: %m"));
			_exit(fn(arg));
		}
		rc = ns_wait(inner, NS_WAIT_MS);
		if (rc == 0 && after)
			rc = after(arg);
		_exit(rc);
	}
	return ns_wait(pid, 2 * NS_WAIT_MS);
}

struct foreign_rec {
	int mtu_foreign;	/* -errno of SIOCSIFMTU on lo of the test-made outer netns */
	int sysctl_foreign;	/* -errno of opening a net sysctl of it for writing */
	int mtu_own;		/* the same in a netns of the user namespace */
	int sysctl_own;
	int caps_all;		/* root inside the user namespace had every capability */
};

static int set_same_mtu(void)
{
	int mtu, err;

	err = netdev_mtu("lo", &mtu);
	if (err)
		return err;
	err = netdev_set_mtu("lo", mtu);
	return err;
}

static int open_sysctl_for_write(void)
{
	int fd = open("/proc/sys/net/ipv4/ip_default_ttl", O_WRONLY | O_CLOEXEC);
	char buf[16];
	int r = 0;

	if (fd < 0)
		return -errno;
	/* Write back what is there: a lying kernel changes nothing either. */
	if (ns_read_file("/proc/sys/net/ipv4/ip_default_ttl", buf, sizeof(buf)) < 0 ||
	    write(fd, buf, strlen(buf)) < 0)
		r = -errno;
	close(fd);
	return r;
}

static int foreign_netns(void *arg)
{
	struct foreign_rec *r = arg;
	struct ns_ident net;

	r->caps_all = ns_caps_all_effective();
	if (ns_ident_of(0, "net", &net))
		return child_fail("stat: %m");
	r->mtu_foreign = set_same_mtu();
	r->sysctl_foreign = open_sysctl_for_write();
	if (unshare(CLONE_NEWNET) || !netns_is_not(&net))
		return child_fail("unshare(CLONE_NEWNET): %m");
	r->mtu_own = set_same_mtu();
	r->sysctl_own = open_sysctl_for_write();
	return 0;
}

/*
 * Root of a user namespace cannot configure devices or write sysctls of a netns owned by an
 * ancestor user namespace (user_namespaces(7), network_namespaces(7)).
 *
 * The user namespace is made by nobody, so its root is nobody outside:
 * the device ioctl needs CAP_NET_ADMIN in the netns's owner (EPERM); the
 * sysctl file is root's and writable only by the owner's privileged
 * (EACCES on open).  In a netns the user namespace owns both work.
 */
TEST(userns_root_refused_on_foreign_netns_devices_and_sysctls)
{
	struct foreign_rec *r = ns_shared_page(1 << 16);

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	r->mtu_foreign = r->sysctl_foreign = r->mtu_own = r->sysctl_own = 1;
	ASSERT_EQ(0, as_foreign_root(foreign_netns, NULL, r));
	EXPECT_EQ(1, r->caps_all);
	EXPECT_EQ(-EPERM, r->mtu_foreign);
	EXPECT_EQ(-EACCES, r->sysctl_foreign);
	EXPECT_EQ(0, r->mtu_own);
	EXPECT_EQ(0, r->sysctl_own);
}

struct move_rec {
	char va[IFNAMSIZ], vb[IFNAMSIZ];
	int skip;
	int move_foreign;	/* libnl error of moving vb into the outer netns */
	int outer_has;		/* the outer netns lists vb afterwards */
	int still_here;		/* vb is still in the user namespace's own netns */
	int move_own;		/* moving it into a second netns of the user namespace */
};

static int outer_lists_vb(void *arg)
{
	struct move_rec *r = arg;

	r->outer_has = proc_net_dev_has(0, r->vb);
	return 0;
}

static int move_to_foreign(void *arg)
{
	struct move_rec *r = arg;
	struct ns_ident outer;
	struct nl_sock *sk;
	int outer_fd, own_fd, err;
	pid_t pid;

	outer_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (outer_fd < 0 || ns_ident_of(0, "net", &outer))
		return child_fail("open the outer netns: %m");
	if (unshare(CLONE_NEWNET) || !netns_is_not(&outer))
		return child_fail("new network namespace: %m");
	err = veth_pair(&sk, r->va, r->vb);
	if (err == VETH_ABSENT)
		r->skip = 1;
	if (err)
		return err == VETH_ABSENT ? 0 : err;
	r->move_foreign = link_move(sk, r->vb, outer_fd);
	r->still_here = link_has(sk, r->vb);
	/* The control: a second netns of the same user namespace. */
	pid = ns_clone(CLONE_NEWNET);
	if (pid < 0)
		return child_fail("clone(CLONE_NEWNET): %m");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	own_fd = ns_open(pid, "net");
	r->move_own = own_fd < 0 ? own_fd : link_move(sk, r->vb, own_fd);
	kill(pid, SIGKILL);
	ns_wait(pid, NS_WAIT_MS);
	return 0;
}

/*
 * Root of a user namespace cannot move a device into a netns owned by an ancestor user namespace:
 * EPERM (user_namespaces(7), network_namespaces(7)).
 *
 * The veth pair is made in a netns of the child user namespace; moving its
 * end into the outer netns the test made needs CAP_NET_ADMIN in that netns's owner.
 */
TEST(userns_root_cannot_move_device_into_foreign_netns)
{
	struct move_rec *r = ns_shared_page(1 << 16);

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	snprintf(r->va, sizeof(r->va), "nsmA%d", getpid());
	snprintf(r->vb, sizeof(r->vb), "nsmB%d", getpid());
	r->move_foreign = r->move_own = 1;
	r->outer_has = -1;
	ASSERT_EQ(0, as_foreign_root(move_to_foreign, outer_lists_vb, r));
	NS_NEED_FEATURE(NS_F_VETH, r->skip);
	EXPECT_EQ(-NLE_PERM, r->move_foreign) TH_LOG("%s", nl_geterror(r->move_foreign));
	EXPECT_EQ(1, r->still_here);
	EXPECT_EQ(0, r->outer_has);
	EXPECT_EQ(0, proc_net_dev_has(0, r->vb));
	EXPECT_EQ(0, r->move_own) TH_LOG("%s", nl_geterror(r->move_own));
}

/* --- a socket keeps its namespace ------------------------------------------- */

struct sock_rec {
	struct ns_ident a, b, sk_ns_before, sk_ns_after;
	int old_connect;	/* -errno: the socket made in A, connecting after setns to B */
	int new_connect;	/* -errno: a socket made in B, to the same address */
	int skns;		/* -errno of SIOCGSKNS */
};

static int socket_stays(void *arg)
{
	struct sock_rec *r = arg;
	int a_fd, s, l, n, nsfd;

	if (netns_lo_up() || ns_ident_of(0, "net", &r->a))
		return child_fail("lo up in A: %m");
	a_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	l = tcp_listen_on("127.0.0.1", 4243);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (a_fd < 0 || l < 0 || s < 0)
		return child_fail("set up A: %m");
	nsfd = ioctl(s, SIOCGSKNS);
	r->skns = nsfd < 0 ? -errno : 0;
	if (nsfd >= 0) {
		ns_ident_of_fd(nsfd, &r->sk_ns_before);
		close(nsfd);
	}
	if (unshare(CLONE_NEWNET) || netns_lo_up() || ns_ident_of(0, "net", &r->b))
		return child_fail("move to B: %m");
	if (ns_ident_eq(&r->a, &r->b))
		return child_fail("unshare(CLONE_NEWNET) left the netns unchanged");
	nsfd = ioctl(s, SIOCGSKNS);
	if (nsfd >= 0) {
		ns_ident_of_fd(nsfd, &r->sk_ns_after);
		close(nsfd);
	}
	{
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(4243) };

		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		r->old_connect = connect(s, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	}
	n = tcp_connect_to("127.0.0.1", 4243);
	r->new_connect = n < 0 ? n : 0;
	return 0;
}

/*
 * A socket stays in the netns it was created in after its process moves to another
 * (network_namespaces(7), setns(2)).
 *
 * A socket made in A, after its process moved to B, still reaches A's
 * listener on 127.0.0.1 and SIOCGSKNS still names A; a socket made in B
 * finds no listener there (ECONNREFUSED).
 */
TEST(socket_keeps_netns_after_process_moves)
{
	NET_REC(struct sock_rec, r);
	r->old_connect = r->new_connect = 1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET, socket_stays, r));
	ASSERT_EQ(0, r->skns) TH_LOG("SIOCGSKNS: %s", strerror(-r->skns));
	EXPECT_TRUE(ns_ident_eq(&r->a, &r->sk_ns_before));
	EXPECT_TRUE(ns_ident_eq(&r->a, &r->sk_ns_after));
	EXPECT_EQ(0, r->old_connect);
	EXPECT_EQ(-ECONNREFUSED, r->new_connect);
}

/* --- /proc/net -------------------------------------------------------------- */

struct procnet_rec {
	char va[IFNAMSIZ], vb[IFNAMSIZ];
	int skip;
	char link[64];
	int count, has_va;	/* /proc/net/dev of the inner netns: devices, lists va */
	int outer_has_va;	/* /proc/OUTER/net/dev, read from the inner netns, lists va */
	pid_t outer;
};

static int procnet_inner(void *arg)
{
	struct procnet_rec *r = arg;
	ssize_t n = readlink("/proc/net", r->link, sizeof(r->link) - 1);

	if (n < 0)
		return child_fail("readlink /proc/net: %m");
	/* /proc is the test's mount, made in another netns: /proc/net is still ours. */
	r->count = proc_net_dev_count(0);
	r->has_va = proc_net_dev_has(0, r->va);
	r->outer_has_va = proc_net_dev_has(r->outer, r->va);
	return 0;
}

/* In a netns the test made: a veth pair, then a child in a netns of its own. */
static int procnet_outer(void *arg)
{
	struct procnet_rec *r = arg;
	struct nl_sock *sk;
	int err;

	err = veth_pair(&sk, r->va, r->vb);
	if (err == VETH_ABSENT)
		r->skip = 1;
	if (err)
		return err == VETH_ABSENT ? 0 : err;
	r->outer = getpid();
	return ns_run(CLONE_NEWNET, procnet_inner, r);
}

/*
 * /proc/net is a link to self/net: it shows the reader's netns, /proc/PID/net that of PID
 * (network_namespaces(7)).
 *
 * The page: "/proc/net (which is a symbolic link to /proc/PID/net)" - the
 * link is "self/net", so it shows the reader's netns (here a new one with
 * only lo) even through a /proc mounted elsewhere; /proc/PID/net of the
 * process in the outer netns, read from the same place, lists that
 * netns's veth.
 */
TEST(proc_net_shows_readers_netns)
{
	NET_REC(struct procnet_rec, r);
	snprintf(r->va, sizeof(r->va), "nspA%d", getpid());
	snprintf(r->vb, sizeof(r->vb), "nspB%d", getpid());
	r->count = r->has_va = r->outer_has_va = -1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET, procnet_outer, r));
	NS_NEED_FEATURE(NS_F_VETH, r->skip);
	EXPECT_STREQ("self/net", r->link);
	EXPECT_EQ(1, r->count);
	EXPECT_EQ(0, r->has_va);
	EXPECT_EQ(1, r->outer_has_va);
}

/* --- the netns owner decides: a sysfs mount, SIOCGSKNS -------------------- */

struct owner_rec {
	int foreign;		/* -errno of the operation in the test-made outer netns */
	int own;		/* -errno of it in a netns of the user namespace */
	int own_devices;	/* devices in /sys/class/net of that sysfs */
	int same_ns;		/* SIOCGSKNS named the socket's netns */
};

/* A new mount namespace, private, with a tmpfs on /tmp and /tmp/a, /tmp/b. */
static int own_private_tmp(void)
{
	struct ns_ident mnt;

	if (ns_ident_of(0, "mnt", &mnt))
		return child_fail("stat: %m");
	if (unshare(CLONE_NEWNS))
		return child_fail("unshare(CLONE_NEWNS): %m");
	return private_tmp(&mnt);
}

static int mount_sysfs(const char *dir)
{
	return mount("sysfs", dir, "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ? -errno : 0;
}

static int sysfs_as_foreign_root(void *arg)
{
	struct owner_rec *r = arg;
	struct ns_ident net;

	if (ns_ident_of(0, "net", &net) || own_private_tmp())
		return child_fail("set-up: %m");
	r->foreign = mount_sysfs("/tmp/a");
	if (unshare(CLONE_NEWNET) || !netns_is_not(&net))
		return child_fail("unshare(CLONE_NEWNET): %m");
	r->own = mount_sysfs("/tmp/b");
	if (!r->own)
		r->own_devices = class_net("/tmp/b", "lo", NULL);
	return 0;
}

/*
 * Mounting sysfs needs CAP_SYS_ADMIN in the user namespace owning the caller's netns: EPERM in
 * one owned by an ancestor (user_namespaces(7): the page names only the mount namespace's owner).
 *
 * Root of a user namespace, with a mount namespace of its own, in a netns
 * the test made: mount(sysfs) is EPERM; after unshare(CLONE_NEWNET) the
 * same mount works and lists only that netns's lo.  The kernel checks the
 * owner of the netns the sysfs will show (kobj_ns_current_may_mount()),
 * besides the mount namespace's owner the page names.
 */
TEST(sysfs_mount_needs_cap_in_netns_owner)
{
	struct owner_rec *r = ns_shared_page(1 << 16);

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	NS_NEED_ENV(!access("/sys/class/net", R_OK), NS_WHY_NO_SYSFS);
	r->foreign = r->own = 1;
	ASSERT_EQ(0, as_foreign_root(sysfs_as_foreign_root, NULL, r));
	EXPECT_EQ(-EPERM, r->foreign);
	EXPECT_EQ(0, r->own);
	EXPECT_EQ(1, r->own_devices);
}

/* SIOCGSKNS on a new UDP socket: the netns fd, or -errno. */
static int socket_netns_fd(int *sock)
{
	int fd;

	*sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (*sock < 0)
		return -errno;
	fd = ioctl(*sock, SIOCGSKNS);
	return fd < 0 ? -errno : fd;
}

static int skns_as_foreign_root(void *arg)
{
	struct owner_rec *r = arg;
	struct ns_ident net, got;
	int s1, s2, fd;

	if (ns_ident_of(0, "net", &net))
		return child_fail("stat: %m");
	fd = socket_netns_fd(&s1);
	r->foreign = fd < 0 ? fd : 0;
	if (unshare(CLONE_NEWNET) || !netns_is_not(&net))
		return child_fail("unshare(CLONE_NEWNET): %m");
	fd = socket_netns_fd(&s2);
	r->own = fd < 0 ? fd : 0;
	if (fd >= 0 && !ns_ident_of_fd(fd, &got) && !ns_ident_of(0, "net", &net))
		r->same_ns = ns_ident_eq(&got, &net);
	/* the old socket's netns stays refused after the move */
	if (r->foreign == -EPERM && ioctl(s1, SIOCGSKNS) >= 0)
		r->foreign = 0;
	return 0;
}

/*
 * SIOCGSKNS needs CAP_NET_ADMIN in the user namespace owning the socket's netns: EPERM otherwise
 * (linux:c62cce2caee5 ("net: add an ioctl to get a socket network namespace"), 4.9).
 *
 * Root of a user namespace (every capability there) is refused the netns
 * of a socket made in a netns the test made; the socket of a netns its
 * user namespace owns gives an fd of that netns.
 */
TEST(siocgskns_needs_cap_net_admin_in_netns_owner)
{
	struct owner_rec *r = ns_shared_page(1 << 16);

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	r->foreign = r->own = 1;
	ASSERT_EQ(0, as_foreign_root(skns_as_foreign_root, NULL, r));
	EXPECT_EQ(-EPERM, r->foreign);
	EXPECT_EQ(0, r->own);
	EXPECT_EQ(1, r->same_ns);
}

struct sysctl_owner_rec {
	uid_t me;			/* the unprivileged uid that made the user namespace */
	gid_t my_gid;
	uid_t uid_foreign, uid_own;	/* owner of net.ipv4.ip_forward, as root of the userns sees */
	gid_t gid_foreign, gid_own;
};

static int stat_ip_forward(uid_t *uid, gid_t *gid)
{
	struct stat st;

	if (stat("/proc/sys/net/ipv4/ip_forward", &st))
		return child_fail("stat ip_forward: %m");
	*uid = st.st_uid;
	*gid = st.st_gid;
	return 0;
}

/* Unprivileged, in the test's netns: root of a new user namespace, then of a netns of its own. */
static int sysctl_owner_views(void *arg)
{
	struct sysctl_owner_rec *r = arg;
	struct ns_ident net;

	r->me = geteuid();
	r->my_gid = getegid();
	if (ns_ident_of(0, "net", &net) || ns_unshare_userns_root(0))
		return child_fail("root of a new user namespace: %m");
	/* only looked at: the test's netns may be the host's */
	if (stat_ip_forward(&r->uid_foreign, &r->gid_foreign))
		return 1;
	if (unshare(CLONE_NEWNET) || !netns_is_not(&net))
		return child_fail("unshare(CLONE_NEWNET): %m");
	return stat_ip_forward(&r->uid_own, &r->gid_own);
}

/*
 * The /proc/sys/net files of a netns belong to root of the user namespace owning it
 * (linux:e79c6a4fc923 ("net: make net namespace sysctls belong to container's owner"), 4.8).
 *
 * Root of a user namespace an unprivileged process made sees
 * net.ipv4.ip_forward of a netns it owns as its own (uid and gid 0); that
 * of the test's netns belongs to the root the test sees there, which the
 * user namespace does not map (the overflow ids) unless it is the
 * unprivileged uid itself.
 */
TEST(netns_sysctls_owned_by_root_of_netns_owner)
{
	struct sysctl_owner_rec *r = ns_shared_page(1 << 16);
	long overflow_uid, overflow_gid;
	uid_t test_uid;
	gid_t test_gid;

	NS_NEED_UNPRIV_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ns_read_long("/proc/sys/kernel/overflowuid", &overflow_uid));
	ASSERT_EQ(0, ns_read_long("/proc/sys/kernel/overflowgid", &overflow_gid));
	ASSERT_EQ(0, stat_ip_forward(&test_uid, &test_gid));
	r->uid_own = r->gid_own = 12345;
	ASSERT_EQ(0, ns_run_unpriv(sysctl_owner_views, r));
	EXPECT_EQ(test_uid == r->me ? 0 : overflow_uid, (long)r->uid_foreign);
	EXPECT_EQ(test_gid == r->my_gid ? 0 : overflow_gid, (long)r->gid_foreign);
	EXPECT_EQ(0, r->uid_own);
	EXPECT_EQ(0, r->gid_own);
}

TEST_HARNESS_MAIN
