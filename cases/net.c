// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces: a new namespace's own devices, addresses, routes and
 * /proc/net/dev, compared with its parent's.  network_namespaces(7), the
 * article's "Network namespaces" paragraph.  Netlink goes through
 * libnl-route-3 (fixtures/net_route.h).  veth pairs are in net_veth.c,
 * sockets and sysctls in net_sock.c.
 *
 * Every change happens in a child that first checked it is in a network
 * namespace the test created (an ns_holder), so a kernel that ignores
 * CLONE_NEWNET cannot make the case touch the host.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "net_route.h"
#include "kselftest_harness.h"

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

/*
 * A new network namespace has only a loopback device, and it is down (network_namespaces(7),
 * article).
 */
TEST(new_netns_has_only_loopback_down)
{
	struct ns_ident outer;

	NS_NEED_ADMIN_OR_USERNS();

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

/*
 * A new netns has no addresses; bringing its lo up adds 127.0.0.1 there only
 * (network_namespaces(7)).
 */
TEST(new_netns_addresses_differ_from_parent)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = no_addrs_until_lo_up };
	struct nl_sock *sk = rt_open();
	int lo, before, flags0 = 0, flags1 = 0;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_NE(NULL, sk);
	/* Only our lo's addresses: other devices' may change on their own. */
	lo = link_index(sk, "lo");
	ASSERT_LT(0, lo);
	before = addr_count_on(sk, lo);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, netdev_flags("lo", &flags0));
	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(before, addr_count_on(sk, lo));
	ASSERT_EQ(0, netdev_flags("lo", &flags1));
	EXPECT_EQ(flags0 & IFF_UP, flags1 & IFF_UP);
	EXPECT_EQ(0, ns_holder_stop(&h));
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

/*
 * A new netns starts with no routes; a route added inside is not in the parent's table
 * (network_namespaces(7)).
 */
TEST(route_added_inside_not_in_parent)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = route_inside };
	char dst[24];

	NS_NEED_ADMIN_OR_USERNS();

	snprintf(dst, sizeof(dst), "10.%d.%d.0", (getpid() >> 8) & 255, getpid() & 255);
	snprintf(route_dst, sizeof(route_dst), "%s/24", dst);
	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(1, proc_route_has(h.pid, dst));
	EXPECT_EQ(0, proc_route_has(getpid(), dst));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

static int proc_dev_only_lo(void *arg)
{
	(void)arg;
	if (proc_net_dev_count(0) != 1 || proc_net_dev_has(0, "lo") != 1)
		return child_fail("/proc/self/net/dev inside lists more than lo");
	return 0;
}

/*
 * /proc/net/dev is per namespace: a new one lists only lo, inside and via /proc/PID/net from
 * outside (network_namespaces(7)).
 */
TEST(proc_net_dev_differs_from_parent)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = proc_dev_only_lo };
	int own = proc_net_dev_count(0);

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_LE(1, own);
	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(1, proc_net_dev_count(h.pid));
	EXPECT_EQ(1, proc_net_dev_has(h.pid, "lo"));
	EXPECT_EQ(own, proc_net_dev_count(0));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

TEST_HARNESS_MAIN
