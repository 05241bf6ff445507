// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for the tunnel changelink fixes that Debian's kernels
 * ship (issue 27, item 2; the rows "net: <driver>: require CAP_NET_ADMIN
 * in the device netns for changelink" of fixtures/data/fixes.tsv): one
 * test per tunnel driver, the same input for each.  A tunnel keeps the
 * network namespace it was made in (its link netns: where its packets go
 * out) when the device moves to another; changing its parameters changes
 * that namespace's traffic, so it takes CAP_NET_ADMIN over the link
 * netns, not only over the one the device is in.  Plain rtnetlink
 * sockets, so the binary needs no library beyond the fixtures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>		/* before the linux/ headers: their if.h yields to it */
#include <linux/if_link.h>
#include <linux/if_tunnel.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* The worker's answer when the kernel has no such tunnel driver. */
#define NO_DRIVER 3

#define TUN "nsct0"

/* Our ids, set before the holder starts: its root is mapped to them. */
static uid_t our_uid;
static gid_t our_gid;

/* The holder: root of a user namespace of its own, mapped to our ids. */
static int holder_setup(void *arg)
{
	int err;

	(void)arg;
	err = ns_map_root(0, our_uid, our_gid);
	if (err) {
		errno = -err;
		return child_fail("map root of the holder's user namespace: %m");
	}
	return 0;
}

/* Released, the holder changes the tunnel it has: EPERM is the answer. */
static int holder_changes(void *arg)
{
	const struct ns_tunnel *t = arg;
	int err = ns_tunnel_link(t, TUN, false, 0, 4);

	if (err == -EPERM)
		return 0;
	errno = -err;
	return child_fail("root of the device's user namespace changed the %s tunnel: %s, "
			  "expected EPERM", t->kind, err ? strerror(-err) : "done");
}

static int tunnel_worker(void *arg)
{
	const struct ns_tunnel *t = arg;
	struct ns_holder h = { .flags = CLONE_NEWUSER | CLONE_NEWNET, .setup = holder_setup,
			       .release = holder_changes, .arg = arg };
	bool vti6 = !strcmp(t->kind, "vti6"), relinked = false;
	int here, there = -1, err, rc;

	err = ns_tunnel_link(t, TUN, true, 1, 2);
	if (err == -EOPNOTSUPP)
		return NO_DRIVER;
	if (err) {
		errno = -err;
		return child_fail("make a %s tunnel: %m", t->kind);
	}
	our_uid = geteuid();
	our_gid = getegid();
	here = ns_open(0, "net");
	if (here < 0 || ns_holder_begin(&h))
		return child_fail("a holder in a user and network namespace of its own");
	there = ns_open(h.pid, "net");
	err = there < 0 ? there : ns_link_move(TUN, there, NULL);
	if (err) {
		errno = -err;
		child_fail("move the %s tunnel to the holder's netns: %m", t->kind);
		goto fail;
	}
	/* The side the fix leaves alone: we hold CAP_NET_ADMIN over its link netns. */
	if (setns(there, CLONE_NEWNET)) {
		child_fail("setns() to the holder's netns: %m");
		goto fail;
	}
	err = ns_tunnel_link(t, TUN, false, 0, 3);
	if (setns(here, CLONE_NEWNET))
		_exit(child_fail("setns() back: %m"));		/* not home: stop */
	if (err) {
		errno = -err;
		child_fail("change the moved %s tunnel with CAP_NET_ADMIN over its link netns: %m",
			   t->kind);
		goto fail;
	}
	/*
	 * A vti6 tunnel changed from its device's netns is also linked in that
	 * netns's table on a kernel without "ip6: vti: Use ip6_tnl.net in
	 * vti6_changelink()" (net_fixes_vti6 tests that fix): a tunnel with the
	 * same ends cannot be made there.  Such a kernel oopses in the netns
	 * cleanup unless the tables are untangled at the end.
	 */
	if (vti6)
		relinked = ns_tunnel_link_in(t, there, here, "nsct1", true, 0, 3) == -EEXIST;
	/* The side the fix is about: the holder, root where the device is only. */
	rc = ns_holder_stop(&h);
	if (relinked)
		ns_vti6_untangle(t, TUN, here, there, 1, 2);	/* closes there */
	else
		close(there);
	close(here);
	return rc;
fail:
	ns_holder_stop(&h);
	if (there >= 0)
		close(there);
	close(here);
	return 1;
}

#define TUNNEL_TEST(name, what, config, ...)						\
	TEST(name)								\
	{									\
		static const struct ns_tunnel t = { __VA_ARGS__ };			\
		int rc;								\
										\
		NS_NEED_ADMIN_OR_USERNS();					\
		rc = ns_run_admin(CLONE_NEWNET, tunnel_worker, (void *)&t);	\
		NS_NEED_ENV(rc != NO_DRIVER, NS_WHY_FEATURE_CONFIG, what, config);	\
		ASSERT_EQ(0, rc);						\
	}

/*
 * A gre tunnel moved into a netns whose owner has no CAP_NET_ADMIN over
 * the tunnel's link netns cannot be changed from there: EPERM (fix "net:
 * ip_gre: require CAP_NET_ADMIN in the device netns for changelink",
 * Debian 5.10.262, 6.1.180, 6.12.95, 7.1.3; network_namespaces(7): a
 * device's netns is where it is, the capability is over the namespace the
 * resource belongs to).  Both sides: we, root over the link netns, change
 * it from there.
 */
TUNNEL_TEST(gre_changelink_needs_cap_over_link_netns, "the gre driver", "CONFIG_NET_IPGRE",
	    "gre", AF_INET, IFLA_GRE_LOCAL, IFLA_GRE_REMOTE)

/*
 * The same for an ip6gre tunnel: EPERM (fix "net: ip6_gre: require
 * CAP_NET_ADMIN in the device netns for changelink", network_namespaces(7),
 * Debian 5.10.262, 6.1.180, 6.12.100).
 */
TUNNEL_TEST(ip6gre_changelink_needs_cap_over_link_netns, "the ip6gre driver", "CONFIG_IPV6_GRE",
	    "ip6gre", AF_INET6, IFLA_GRE_LOCAL, IFLA_GRE_REMOTE)

/*
 * The same for a vti tunnel: EPERM (fix "net: ip_vti: require
 * CAP_NET_ADMIN in the device netns for changelink", network_namespaces(7),
 * Debian 5.10.262, 6.1.180, 6.12.100).
 */
TUNNEL_TEST(vti_changelink_needs_cap_over_link_netns, "the vti driver", "CONFIG_NET_IPVTI",
	    "vti", AF_INET, IFLA_VTI_LOCAL, IFLA_VTI_REMOTE)

/*
 * The same for a vti6 tunnel: EPERM (fix "net: ip6_vti: require
 * CAP_NET_ADMIN in the device netns for changelink", network_namespaces(7),
 * Debian 5.10.262, 6.1.180, 6.12.100).
 */
TUNNEL_TEST(vti6_changelink_needs_cap_over_link_netns, "the vti6 driver", "CONFIG_IPV6_VTI",
	    "vti6", AF_INET6, IFLA_VTI_LOCAL, IFLA_VTI_REMOTE)

/*
 * The same for an ipip tunnel: EPERM (fix "net: ipip: require
 * CAP_NET_ADMIN in the device netns for changelink", network_namespaces(7),
 * Debian 6.1.180, 6.12.100).
 */
TUNNEL_TEST(ipip_changelink_needs_cap_over_link_netns, "the ipip driver", "CONFIG_NET_IPIP",
	    "ipip", AF_INET, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

/*
 * The same for a sit tunnel: EPERM (fix "net: sit: require CAP_NET_ADMIN
 * in the device netns for changelink", network_namespaces(7), Debian
 * 5.10.262, 6.1.180, 6.12.100).
 */
TUNNEL_TEST(sit_changelink_needs_cap_over_link_netns, "the sit driver", "CONFIG_IPV6_SIT",
	    "sit", AF_INET, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

/*
 * The same for an ip6tnl tunnel: EPERM (fix "net: ip6_tunnel: require
 * CAP_NET_ADMIN in the device netns for changelink", network_namespaces(7),
 * Debian 6.1.187, 6.12.101).
 */
TUNNEL_TEST(ip6tnl_changelink_needs_cap_over_link_netns, "the ip6tnl driver", "CONFIG_IPV6_TUNNEL",
	    "ip6tnl", AF_INET6, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

TEST_HARNESS_MAIN
