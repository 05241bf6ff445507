// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces, the device side: a new namespace's loopback,
 * addresses, routes and /proc/net/dev, veth pairs across namespaces and
 * what happens to them when a namespace dies.  network_namespaces(7),
 * veth(4), the article's "Network namespaces" paragraph.  Netlink goes
 * through libnl-route-3.  Sockets and sysctls are in net_sock.c.
 *
 * Every change happens in a child that first checked it is in a network
 * namespace the test created (netns_holder, or the checks in two_ns_make()),
 * so a kernel that ignores CLONE_NEWNET cannot make the case touch the host.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <linux/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/route.h>

#include "nsconform.h"
#include "netns.h"
#include "kselftest_harness.h"

#define VETH_MISSING "veth driver not available"
#define ADDR_A "10.199.0.1"
#define ADDR_B "10.199.0.2"

/* --- libnl helpers ------------------------------------------------------- */

static struct nl_sock *rt_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_ROUTE)) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* 1 when @sk's namespace has device @name, 0 if not, or a -NLE_* error. */
static int link_has(struct nl_sock *sk, const char *name)
{
	struct rtnl_link *l;
	int err = rtnl_link_get_kernel(sk, 0, name, &l);

	if (!err) {
		rtnl_link_put(l);
		return 1;
	}
	return (err == -NLE_NODEV || err == -NLE_OBJ_NOTFOUND) ? 0 : err;
}

static int link_index(struct nl_sock *sk, const char *name)
{
	struct rtnl_link *l;
	int err = rtnl_link_get_kernel(sk, 0, name, &l);

	if (err)
		return err;
	err = rtnl_link_get_ifindex(l);
	rtnl_link_put(l);
	return err;
}

static int cache_count(struct nl_cache *c, int err)
{
	if (err)
		return err;
	err = nl_cache_nitems(c);
	nl_cache_free(c);
	return err;
}

static int link_count(struct nl_sock *sk)
{
	struct nl_cache *c = NULL;

	return cache_count(c, rtnl_link_alloc_cache(sk, AF_UNSPEC, &c));
}

static int addr_count(struct nl_sock *sk)
{
	struct nl_cache *c = NULL;

	return cache_count(c, rtnl_addr_alloc_cache(sk, &c));
}

static int route_count(struct nl_sock *sk)
{
	struct nl_cache *c = NULL;

	return cache_count(c, rtnl_route_alloc_cache(sk, AF_UNSPEC, 0, &c));
}

/* Apply @chg to device @name. */
static int link_change(struct nl_sock *sk, const char *name, struct rtnl_link *chg)
{
	struct rtnl_link *l;
	int err = rtnl_link_get_kernel(sk, 0, name, &l);

	if (!err) {
		err = rtnl_link_change(sk, l, chg, 0);
		rtnl_link_put(l);
	}
	rtnl_link_put(chg);
	return err;
}

static int link_up(struct nl_sock *sk, const char *name)
{
	struct rtnl_link *chg = rtnl_link_alloc();
	struct rtnl_link *l;
	int err;

	rtnl_link_set_flags(chg, IFF_UP);
	err = link_change(sk, name, chg);
	if (err || (err = rtnl_link_get_kernel(sk, 0, name, &l)))
		return err;
	err = (rtnl_link_get_flags(l) & IFF_UP) ? 0 : -NLE_FAILURE;
	rtnl_link_put(l);
	return err;
}

/* Move device @name to the network namespace open as @nsfd. */
static int link_move(struct nl_sock *sk, const char *name, int nsfd)
{
	struct rtnl_link *chg = rtnl_link_alloc();

	rtnl_link_set_ns_fd(chg, nsfd);
	return link_change(sk, name, chg);
}

static int veth_add(struct nl_sock *sk, const char *name, const char *peer_name)
{
	struct rtnl_link *l = rtnl_link_veth_alloc(), *peer;
	int err;

	if (!l)
		return -NLE_NOMEM;
	peer = rtnl_link_veth_get_peer(l);
	rtnl_link_set_name(l, name);
	rtnl_link_set_name(peer, peer_name);
	rtnl_link_put(peer);
	err = rtnl_link_add(sk, l, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_link_veth_release(l);
	return err;
}

/* The kernel's answer to an unknown link kind (veth(4) not built or loadable). */
static bool veth_missing(int err)
{
	return err == -NLE_OPNOTSUPP || err == -NLE_NODEV;
}

static int addr_add(struct nl_sock *sk, const char *name, const char *cidr)
{
	int idx = link_index(sk, name), err;
	struct rtnl_addr *a;
	struct nl_addr *local;

	if (idx < 0)
		return idx;
	err = nl_addr_parse(cidr, AF_INET, &local);
	if (err)
		return err;
	a = rtnl_addr_alloc();
	rtnl_addr_set_ifindex(a, idx);
	err = rtnl_addr_set_local(a, local);
	if (!err)
		err = rtnl_addr_add(sk, a, 0);
	nl_addr_put(local);
	rtnl_addr_put(a);
	return err;
}

/* 1 when @sk's namespace has the local address @ip (no prefix), 0 if not. */
static int addr_has(struct nl_sock *sk, const char *ip)
{
	struct nl_cache *c;
	struct nl_object *o;
	struct nl_addr *want;
	int found = 0, err;

	err = nl_addr_parse(ip, AF_UNSPEC, &want);
	if (err)
		return err;
	err = rtnl_addr_alloc_cache(sk, &c);
	if (err) {
		nl_addr_put(want);
		return err;
	}
	for (o = nl_cache_get_first(c); o; o = nl_cache_get_next(o)) {
		struct nl_addr *l = rtnl_addr_get_local((struct rtnl_addr *)o);

		if (l && nl_addr_get_family(l) == nl_addr_get_family(want) &&
		    nl_addr_get_len(l) == nl_addr_get_len(want) &&
		    !memcmp(nl_addr_get_binary_addr(l), nl_addr_get_binary_addr(want),
			    nl_addr_get_len(want)))
			found = 1;
	}
	nl_cache_free(c);
	nl_addr_put(want);
	return found;
}

/* Add the route @cidr via device index @idx in the main table. */
static int route_add_dev(struct nl_sock *sk, const char *cidr, int idx)
{
	struct rtnl_route *r;
	struct rtnl_nexthop *nh;
	struct nl_addr *dst;
	int err;

	err = nl_addr_parse(cidr, AF_INET, &dst);
	if (err)
		return err;
	r = rtnl_route_alloc();
	nh = rtnl_route_nh_alloc();
	rtnl_route_set_dst(r, dst);
	rtnl_route_set_scope(r, RT_SCOPE_LINK);
	rtnl_route_set_table(r, RT_TABLE_MAIN);
	rtnl_route_nh_set_ifindex(nh, idx);
	rtnl_route_add_nexthop(r, nh);
	err = rtnl_route_add(sk, r, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_route_put(r);
	nl_addr_put(dst);
	return err;
}

/* Wait (bounded) until device @name reports operstate UP. */
static int wait_oper_up(struct nl_sock *sk, const char *name)
{
	for (int tries = 0; tries < 500; tries++) {
		struct rtnl_link *l;
		int up;

		if (rtnl_link_get_kernel(sk, 0, name, &l))
			return -1;
		up = rtnl_link_get_operstate(l) == IF_OPER_UP;
		rtnl_link_put(l);
		if (up)
			return 0;
		poll(NULL, 0, 10);
	}
	return -1;
}

/* --- two namespaces in one process --------------------------------------- */

/*
 * The holder child's first namespace A (made by netns_holder) and a second
 * one, B, made by unshare(); the child can switch between them with
 * setns() and keeps a rtnetlink socket in each.
 */
struct two_ns {
	int fd[2];
	struct ns_ident id[2];
	struct nl_sock *sk[2];
	char va[IFNAMSIZ], vb[IFNAMSIZ];
};

static struct two_ns tn = { .fd = { -1, -1 } };

static int open_own_netns(int i)
{
	tn.fd[i] = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (tn.fd[i] < 0 || ns_ident_of(0, "net", &tn.id[i]))
		return -1;
	tn.sk[i] = rt_open();
	return tn.sk[i] ? 0 : -1;
}

/* setns() to namespace @i and check we really are there. */
static int enter(int i)
{
	struct ns_ident now;

	if (setns(tn.fd[i], CLONE_NEWNET) || ns_ident_of(0, "net", &now))
		return child_fail("setns: %m");
	if (!ns_ident_eq(&now, &tn.id[i]))
		return child_fail("setns returned 0 but the netns did not change");
	return 0;
}

static int two_ns_make(void)
{
	if (open_own_netns(0))
		return child_fail("namespace A: %m");
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET): %m");
	if (!netns_is_not(&tn.id[0]))
		return child_fail("unshare(CLONE_NEWNET) left the netns unchanged");
	if (open_own_netns(1))
		return child_fail("namespace B: %m");
	snprintf(tn.va, sizeof(tn.va), "nscA%d", getpid());
	snprintf(tn.vb, sizeof(tn.vb), "nscB%d", getpid());
	return enter(0);
}

/* 0 when @sk's namespace has (@want 1) or lacks (@want 0) device @name. */
static int expect_link(int i, const char *name, int want)
{
	int got = link_has(tn.sk[i], name);

	if (got == want)
		return 0;
	return child_fail("namespace %c: device %s %s (%d)", 'A' + i, name,
			  want ? "missing" : "present", got);
}

/* A veth pair in A, then its end vb moved to B. */
static int veth_moved(void *arg)
{
	int err;

	(void)arg;
	if (two_ns_make())
		return 1;
	err = veth_add(tn.sk[0], tn.va, tn.vb);
	if (veth_missing(err)) {
		fprintf(stderr, "# creating a veth pair: %s\n", nl_geterror(err));
		return NETNS_CHILD_SKIP;
	}
	if (err)
		return child_fail("creating veth %s/%s: %s", tn.va, tn.vb, nl_geterror(err));
	if (expect_link(0, tn.vb, 1) || expect_link(1, tn.vb, 0))
		return 1;
	err = link_move(tn.sk[0], tn.vb, tn.fd[1]);
	if (err)
		return child_fail("moving %s to namespace B: %s", tn.vb, nl_geterror(err));
	if (expect_link(0, tn.va, 1) || expect_link(0, tn.vb, 0) ||
	    expect_link(1, tn.vb, 1) || expect_link(1, tn.va, 0))
		return 1;
	if (proc_net_dev_has(0, tn.va) != 1 || proc_net_dev_has(0, tn.vb) != 0)
		return child_fail("/proc/self/net/dev in A disagrees with netlink");
	return 0;
}

/* The moved pair, with ADDR_A on A's end and ADDR_B on B's, both up. */
static int veth_addressed(void *arg)
{
	int err = veth_moved(arg);

	if (err)
		return err;
	err = addr_add(tn.sk[0], tn.va, ADDR_A "/24");
	if (!err)
		err = addr_add(tn.sk[1], tn.vb, ADDR_B "/24");
	if (!err)
		err = link_up(tn.sk[0], tn.va);
	if (!err)
		err = link_up(tn.sk[1], tn.vb);
	if (err)
		return child_fail("addressing the veth ends: %s", nl_geterror(err));
	if (addr_has(tn.sk[0], ADDR_B) != 0 || addr_has(tn.sk[1], ADDR_B) != 1)
		return child_fail(ADDR_B " is not local to B alone");
	if (wait_oper_up(tn.sk[0], tn.va) || wait_oper_up(tn.sk[1], tn.vb))
		return child_fail("veth ends did not come up");
	return 0;
}

static uint64_t rx_packets(int i, const char *name)
{
	struct rtnl_link *l;
	uint64_t n;

	if (rtnl_link_get_kernel(tn.sk[i], 0, name, &l))
		return 0;
	n = rtnl_link_get_stat(l, RTNL_LINK_RX_PACKETS);
	rtnl_link_put(l);
	return n;
}

/* A socket of @type made in namespace @i, bound to @ip:@port. */
static int sock_in(int i, int type, const char *ip, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	int s;

	if (enter(i))
		return -1;
	inet_pton(AF_INET, ip, &sin.sin_addr);
	s = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sin, sizeof(sin)))
		s = -1;
	if (enter(0))
		return -1;
	return s;
}

static bool from_ip(const struct sockaddr_in *sin, const char *ip)
{
	char buf[INET_ADDRSTRLEN];

	return inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof(buf)) && !strcmp(buf, ip);
}

/* Receive one datagram on @s within @ms, from @ip. */
static int recv_from(int s, const char *ip, int ms, char *buf, size_t len)
{
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return -1;
	n = recvfrom(s, buf, len - 1, 0, (struct sockaddr *)&from, &flen);
	if (n < 0 || !from_ip(&from, ip))
		return -1;
	buf[n] = '\0';
	return 0;
}

static int udp_ping(void *arg)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(5000) };
	int ua = sock_in(0, SOCK_DGRAM, ADDR_A, 5000);
	int ub = sock_in(1, SOCK_DGRAM, ADDR_B, 5000);
	uint64_t rx0 = rx_packets(1, tn.vb);
	char buf[64];
	int tries;

	(void)arg;
	if (ua < 0 || ub < 0)
		return child_fail("UDP sockets in A and B: %m");
	inet_pton(AF_INET, ADDR_B, &to.sin_addr);
	/* Resend until answered: the first datagram may wait for ARP. */
	for (tries = 0; tries < 25; tries++) {
		sendto(ua, "ping", 4, 0, (struct sockaddr *)&to, sizeof(to));
		if (!recv_from(ub, ADDR_A, 200, buf, sizeof(buf)))
			break;
	}
	if (tries == 25 || strcmp(buf, "ping"))
		return child_fail("B never received A's datagram");
	inet_pton(AF_INET, ADDR_A, &to.sin_addr);
	sendto(ub, "pong", 4, 0, (struct sockaddr *)&to, sizeof(to));
	if (recv_from(ua, ADDR_B, NS_WAIT_MS, buf, sizeof(buf)) || strcmp(buf, "pong"))
		return child_fail("A never received B's reply");
	if (rx_packets(1, tn.vb) <= rx0)
		return child_fail("%s in B counted no received packets", tn.vb);
	return 0;
}

static int tcp_exchange(void *arg)
{
	int l = sock_in(1, SOCK_STREAM, ADDR_B, 80), c, s;
	struct pollfd pfd = { .fd = l, .events = POLLIN };
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	char b = 0;

	(void)arg;
	if (l < 0 || listen(l, 1))
		return child_fail("listening in B on " ADDR_B ":80: %m");
	c = tcp_connect_to(ADDR_B, 80);
	if (c < 0)
		return child_fail("connect from A to " ADDR_B ":80: %s", strerror(-c));
	if (poll(&pfd, 1, NS_WAIT_MS) != 1)
		return child_fail("B's listener saw no connection");
	s = accept4(l, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
	if (s < 0 || !from_ip(&peer, ADDR_A))
		return child_fail("accepted connection is not from " ADDR_A);
	if (write(s, "B", 1) != 1 || read(c, &b, 1) != 1 || b != 'B')
		return child_fail("no data from B over the connection");
	return 0;
}

/* Start a holder running @setup/@release; SKIP when veth is missing. */
#define START_VETH_HOLDER(h) do {					\
	int rc_ = netns_holder_start(h);				\
	if (rc_ == NETNS_CHILD_SKIP) {					\
		netns_holder_stop(h);					\
		SKIP(return, VETH_MISSING);				\
	}								\
	ASSERT_EQ(0, rc_);						\
} while (0)

/* --- a new namespace's own devices, addresses and routes ------------------ */

static int only_lo_down(void *arg)
{
	struct nl_sock *sk = rt_open();
	struct nl_cache *c;
	struct rtnl_link *lo;
	unsigned int flags;

	if (!netns_is_not(arg))
		return child_fail("still in the test's network namespace");
	if (!sk || rtnl_link_alloc_cache(sk, AF_UNSPEC, &c))
		return child_fail("listing links");
	if (nl_cache_nitems(c) != 1)
		return child_fail("%d devices in a new netns", nl_cache_nitems(c));
	lo = (struct rtnl_link *)nl_cache_get_first(c);
	flags = rtnl_link_get_flags(lo);
	if (strcmp(rtnl_link_get_name(lo), "lo") || !(flags & IFF_LOOPBACK))
		return child_fail("the one device is %s, not loopback", rtnl_link_get_name(lo));
	if (flags & IFF_UP)
		return child_fail("lo is up in a new netns");
	return 0;
}

/* A new network namespace has only a loopback device, and it is down (network_namespaces(7), article). */
TEST(new_netns_has_only_loopback_down)
{
	struct ns_ident outer;

	ASSERT_EQ(0, ns_ident_of(0, "net", &outer));
	EXPECT_EQ(0, ns_run_admin(CLONE_NEWNET, only_lo_down, &outer));
}

static int no_addrs_until_lo_up(void *arg)
{
	struct nl_sock *sk = rt_open();
	int n, err;

	(void)arg;
	if (!sk)
		return child_fail("netlink socket");
	n = addr_count(sk);
	if (n != 0)
		return child_fail("%d addresses in a new netns", n);
	err = link_up(sk, "lo");
	if (err)
		return child_fail("lo up: %s", nl_geterror(err));
	if (addr_has(sk, "127.0.0.1") != 1)
		return child_fail("no 127.0.0.1 on lo once up");
	return 0;
}

/* A new netns has no addresses; bringing its lo up adds 127.0.0.1 there only (network_namespaces(7)). */
TEST(new_netns_addresses_differ_from_parent)
{
	struct netns_holder h = { .setup = no_addrs_until_lo_up };
	struct nl_sock *sk = rt_open();
	int before, flags0 = 0, flags1 = 0;

	ASSERT_NE(NULL, sk);
	before = addr_count(sk);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, netdev_flags("lo", &flags0));
	ASSERT_EQ(0, netns_holder_start(&h));
	EXPECT_EQ(before, addr_count(sk));
	ASSERT_EQ(0, netdev_flags("lo", &flags1));
	EXPECT_EQ(flags0 & IFF_UP, flags1 & IFF_UP);
	EXPECT_EQ(0, netns_holder_stop(&h));
	nl_socket_free(sk);
}

static char route_dst[32];

static int route_inside(void *arg)
{
	struct nl_sock *sk = rt_open();
	int n, err;

	(void)arg;
	if (!sk)
		return child_fail("netlink socket");
	n = route_count(sk);
	if (n != 0)
		return child_fail("%d routes in a new netns", n);
	err = link_up(sk, "lo");
	if (!err)
		err = route_add_dev(sk, route_dst, link_index(sk, "lo"));
	if (err)
		return child_fail("adding %s dev lo: %s", route_dst, nl_geterror(err));
	return 0;
}

/* 1 when /proc/@pid/net/route has a route to @dst (dotted quad) via lo. */
static int proc_route_has(pid_t pid, const char *dst)
{
	char path[64], line[256], want[16];
	struct in_addr a;
	int found = 0;
	FILE *f;

	inet_pton(AF_INET, dst, &a);
	snprintf(want, sizeof(want), "%08X", a.s_addr);
	snprintf(path, sizeof(path), "/proc/%d/net/route", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "lo\t", 3) && !strncmp(line + 3, want, 8))
			found = 1;
	fclose(f);
	return found;
}

/* A new netns starts with no routes; a route added inside is not in the parent's table (network_namespaces(7)). */
TEST(route_added_inside_not_in_parent)
{
	struct netns_holder h = { .setup = route_inside };
	char dst[24];

	snprintf(dst, sizeof(dst), "10.%d.%d.0", (getpid() >> 8) & 255, getpid() & 255);
	snprintf(route_dst, sizeof(route_dst), "%s/24", dst);
	ASSERT_EQ(0, netns_holder_start(&h));
	EXPECT_EQ(1, proc_route_has(h.pid, dst));
	EXPECT_EQ(0, proc_route_has(getpid(), dst));
	EXPECT_EQ(0, netns_holder_stop(&h));
}

static int proc_dev_only_lo(void *arg)
{
	(void)arg;
	if (proc_net_dev_count(0) != 1 || proc_net_dev_has(0, "lo") != 1)
		return child_fail("/proc/self/net/dev inside lists more than lo");
	return 0;
}

/* /proc/net/dev is per namespace: a new one lists only lo, inside and via /proc/PID/net from outside (network_namespaces(7)). */
TEST(proc_net_dev_differs_from_parent)
{
	struct netns_holder h = { .setup = proc_dev_only_lo };
	int own = proc_net_dev_count(0);

	ASSERT_LE(1, own);
	ASSERT_EQ(0, netns_holder_start(&h));
	EXPECT_EQ(1, proc_net_dev_count(h.pid));
	EXPECT_EQ(1, proc_net_dev_has(h.pid, "lo"));
	EXPECT_EQ(own, proc_net_dev_count(0));
	EXPECT_EQ(0, netns_holder_stop(&h));
}

/* --- veth pairs ------------------------------------------------------------ */

/* A veth end moved to another netns vanishes from the source's device list (network_namespaces(7), veth(4)). */
TEST(veth_end_moved_vanishes_from_source)
{
	struct netns_holder h = { .setup = veth_moved };
	struct nl_sock *sk = rt_open();
	char va[IFNAMSIZ], vb[IFNAMSIZ];

	ASSERT_NE(NULL, sk);
	START_VETH_HOLDER(&h);
	snprintf(va, sizeof(va), "nscA%d", h.pid);
	snprintf(vb, sizeof(vb), "nscB%d", h.pid);
	/* Outside: A's /proc/PID/net/dev has one end only; ours has neither. */
	EXPECT_EQ(1, proc_net_dev_has(h.pid, va));
	EXPECT_EQ(0, proc_net_dev_has(h.pid, vb));
	EXPECT_EQ(0, proc_net_dev_has(0, va));
	EXPECT_EQ(0, proc_net_dev_has(0, vb));
	EXPECT_EQ(0, link_has(sk, va));
	EXPECT_EQ(0, link_has(sk, vb));
	EXPECT_EQ(0, netns_holder_stop(&h));
	nl_socket_free(sk);
}

/* UDP crosses a veth pair whose ends are in two namespaces (network_namespaces(7): veth as a tunnel). */
TEST(veth_udp_crosses_namespaces)
{
	struct netns_holder h = { .setup = veth_addressed, .release = udp_ping };

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, netns_holder_stop(&h));
}

/* TCP connects across a veth pair to a listener in the other namespace (network_namespaces(7), veth(4)). */
TEST(veth_tcp_crosses_namespaces)
{
	struct netns_holder h = { .setup = veth_addressed, .release = tcp_exchange };

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, netns_holder_stop(&h));
}

static int same_names(void *arg)
{
	char vc[IFNAMSIZ];
	int err = veth_moved(arg);

	if (err)
		return err;
	snprintf(vc, sizeof(vc), "nscC%d", getpid());
	err = veth_add(tn.sk[0], tn.va, vc);
	if (err != -NLE_EXIST)
		return child_fail("a second %s in A: %s, not EEXIST", tn.va,
				  err ? nl_geterror(err) : "created");
	err = veth_add(tn.sk[0], tn.vb, vc);
	if (err)
		return child_fail("creating %s in A while B has one: %s", tn.vb, nl_geterror(err));
	return expect_link(0, tn.vb, 1) || expect_link(1, tn.vb, 1);
}

/* Device names are per namespace: a name in use in B can be created in A (network_namespaces(7)). */
TEST(device_name_reusable_in_another_netns)
{
	struct netns_holder h = { .setup = same_names };

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, netns_holder_stop(&h));
}

/* --- namespace death ------------------------------------------------------- */

struct death {
	pid_t pid;
	int pipe_w;
	struct nl_sock *events;
};

static struct death dd = { .pipe_w = -1 };

/* A child in a new netns B that lives until its pipe is closed. */
static int start_b(void)
{
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC) || ns_ident_of(0, "net", &tn.id[0]))
		return -1;
	dd.pid = ns_clone(CLONE_NEWNET);
	if (dd.pid < 0)
		return -1;
	if (dd.pid == 0) {
		close(p[1]);
		_exit(netns_is_not(&tn.id[0]) && read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	close(p[0]);
	dd.pipe_w = p[1];
	return 0;
}

static int veth_to_dying_ns(void *arg)
{
	char path[64];
	int fd, err;

	(void)arg;
	if (open_own_netns(0) || start_b())
		return child_fail("setting up namespace B: %m");
	snprintf(tn.va, sizeof(tn.va), "nscA%d", getpid());
	snprintf(tn.vb, sizeof(tn.vb), "nscB%d", getpid());
	err = veth_add(tn.sk[0], tn.va, tn.vb);
	if (veth_missing(err))
		return NETNS_CHILD_SKIP;
	if (err)
		return child_fail("creating veth: %s", nl_geterror(err));
	snprintf(path, sizeof(path), "/proc/%d/ns/net", dd.pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s: %m", path);
	err = link_move(tn.sk[0], tn.vb, fd);
	close(fd);
	if (err)
		return child_fail("moving %s: %s", tn.vb, nl_geterror(err));
	if (proc_net_dev_has(dd.pid, tn.vb) != 1 || expect_link(0, tn.vb, 0) ||
	    expect_link(0, tn.va, 1))
		return child_fail("%s is not in B alone", tn.vb);
	dd.events = rt_open();
	if (!dd.events || nl_socket_add_membership(dd.events, RTNLGRP_LINK))
		return child_fail("subscribing to link events");
	return 0;
}

/* Wait, on link events and bounded, until @name is gone from A. */
static int wait_link_gone(const char *name, int ms)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(dd.events), .events = POLLIN };
	char buf[8192];

	for (int waited = 0; waited < ms; waited += 100) {
		int r = link_has(tn.sk[0], name);

		if (r <= 0)
			return r;
		if (poll(&pfd, 1, 100) == 1)
			while (recv(pfd.fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
				;
	}
	return 1;
}

static int kill_b_and_watch(void *arg)
{
	int rc;

	(void)arg;
	close(dd.pipe_w);
	rc = ns_wait(dd.pid, NS_WAIT_MS);
	if (rc)
		return child_fail("namespace B's process exited %d", rc);
	rc = wait_link_gone(tn.va, 8000);
	if (rc)
		return child_fail("%s still in A after B died (%d)", tn.va, rc);
	if (proc_net_dev_has(0, tn.va) != 0 || proc_net_dev_has(0, tn.vb) != 0)
		return child_fail("/proc/self/net/dev still lists the veth");
	return 0;
}

/* When a netns dies its veth end is destroyed and the peer in the other netns goes too (network_namespaces(7), veth(4)). */
TEST(netns_death_destroys_veth_and_peer)
{
	struct netns_holder h = { .setup = veth_to_dying_ns, .release = kill_b_and_watch };
	char va[IFNAMSIZ];

	START_VETH_HOLDER(&h);
	snprintf(va, sizeof(va), "nscA%d", h.pid);
	/* While B lives, A's end is there, seen from outside. */
	EXPECT_EQ(1, proc_net_dev_has(h.pid, va));
	EXPECT_EQ(0, netns_holder_stop(&h));
}

static int move_lo(void *arg)
{
	int err;

	(void)arg;
	if (two_ns_make())
		return 1;
	err = link_move(tn.sk[0], "lo", tn.fd[1]);
	if (err != -NLE_INVAL)
		return child_fail("moving lo to B: %s, not EINVAL", err ? nl_geterror(err) : "moved");
	if (expect_link(0, "lo", 1) || link_count(tn.sk[1]) != 1)
		return child_fail("lo moved or B gained a device");
	return 0;
}

/* A namespace's loopback stays in it: moving lo to another netns fails with EINVAL (network_namespaces(7), rtnetlink(7)). */
TEST(loopback_cannot_move_to_another_netns)
{
	struct netns_holder h = { .setup = move_lo };

	ASSERT_EQ(0, netns_holder_start(&h));
	EXPECT_EQ(0, netns_holder_stop(&h));
}

TEST_HARNESS_MAIN
