// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for the ip6_vti network namespace fixes that Debian's
 * kernels ship (issue 27, item 2; the rows "ip6: vti: Use ip6_tnl.net in
 * vti6_changelink()", "ip6: vti: Use ip6_tnl.net in vti6_siocdevprivate()"
 * and "ip6_vti: set netns_immutable on the fallback device." of
 * fixtures/data/fixes.tsv), and the fallback device rule of the other
 * tunnel drivers.  A vti6 tunnel is kept in the table of the network
 * namespace it was made in (ip6_tnl.net, its link netns), wherever the
 * device moves; an unfixed kernel relinks a tunnel changed from the
 * device's netns into that netns's table instead, where its netns
 * cleanup later oopses.  The tests see the table from outside: a new
 * tunnel with the same ends is refused (EEXIST) in the netns whose table
 * has one.  A kernel without the fix can oops at the netns teardown after
 * them, so the binary is guest-only (fixtures/data/guest-only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>		/* before the linux/ headers: their if.h yields to it */
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/if_tunnel.h>
#include <linux/ip6_tunnel.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* The worker's answers when the kernel has no such tunnel driver, or no fallback devices here. */
#define NO_DRIVER 3
#define NO_FALLBACK 4

#define TUN "nsct0"
#define PROBE "nsct1"

static const struct ns_tunnel vti6 = { "vti6", AF_INET6, IFLA_VTI_LOCAL, IFLA_VTI_REMOTE };

/*
 * A second network namespace B, made by the caller (so the caller's user
 * namespace owns both it and the caller's own netns A).  Returns an fd of
 * B, the caller back in A (@here), or -1 after child_fail().
 */
static int other_netns(int here)
{
	int there;

	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET): %m");
	there = ns_open(0, "net");
	if (there < 0) {
		errno = -there;
		child_fail("open the new netns: %m");
	}
	if (setns(here, CLONE_NEWNET))
		_exit(child_fail("setns() back: %m"));		/* not home: stop */
	return there;
}

/* SIOCCHGTUNNEL on vti6 tunnel @name of the caller's netns: ends @local and @remote. */
static int vti6_ioctl_change(const char *name, int local, int remote)
{
	struct ip6_tnl_parm2 p = { .proto = IPPROTO_IPV6 };
	struct ifreq ifr = { 0 };
	char text[32];
	int s, err = 0;

	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(text, sizeof(text), "2001:db8::%d", local);
	inet_pton(AF_INET6, text, &p.laddr);
	snprintf(text, sizeof(text), "2001:db8::%d", remote);
	inet_pton(AF_INET6, text, &p.raddr);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (void *)&p;
	s = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	if (ioctl(s, SIOCCHGTUNNEL, &ifr))
		err = -errno;
	close(s);
	return err;
}

/* How the moved tunnel is changed from the netns it is in. */
enum change_by { BY_NETLINK, BY_IOCTL };

/*
 * In netns A: a vti6 tunnel from 2001:db8::1 to 2001:db8::2, moved to a
 * netns B of ours, changed from B to 2001:db8::3 (netlink or
 * SIOCCHGTUNNEL by @arg).  Then a new tunnel with the changed ends must be
 * refused in A (EEXIST: the tunnel is there, in its own netns's table)
 * and made in B (no tunnel of B has those ends).
 */
static int vti6_change_worker(void *arg)
{
	enum change_by by = (enum change_by)(long)arg;
	const char *how = by == BY_NETLINK ? "RTM_NEWLINK" : "SIOCCHGTUNNEL";
	int here, there, err, in_a, in_b;

	err = ns_tunnel_link(&vti6, TUN, true, 1, 2);
	if (err == -EOPNOTSUPP)
		return NO_DRIVER;
	if (err) {
		errno = -err;
		return child_fail("make a vti6 tunnel: %m");
	}
	here = ns_open(0, "net");
	if (here < 0) {
		errno = -here;
		return child_fail("open our netns: %m");
	}
	there = other_netns(here);
	if (there < 0)
		return 1;
	err = ns_link_move(TUN, there, NULL);
	if (err) {
		errno = -err;
		return child_fail("move the vti6 tunnel to the other netns: %m");
	}
	if (setns(there, CLONE_NEWNET))
		return child_fail("setns() to the other netns: %m");
	if (by == BY_NETLINK)
		err = ns_tunnel_link(&vti6, TUN, false, 1, 3);
	else
		err = vti6_ioctl_change(TUN, 1, 3);
	if (setns(here, CLONE_NEWNET))
		_exit(child_fail("setns() back: %m"));
	if (err) {
		errno = -err;
		return child_fail("change the moved vti6 tunnel with %s from its netns: %m", how);
	}
	in_a = ns_tunnel_link(&vti6, PROBE, true, 1, 3);
	in_b = ns_tunnel_link_in(&vti6, there, here, PROBE, true, 1, 3);
	if (in_a == -EEXIST && in_b == 0)
		return 0;
	child_fail("after a %s change from the device's netns, a new vti6 tunnel with the "
		   "changed ends: %s in the tunnel's own netns (expected EEXIST), %s in the "
		   "device's (expected made)", how, in_a ? strerror(-in_a) : "made",
		   in_b ? strerror(-in_b) : "made");
	if (in_b == -EEXIST)
		ns_vti6_untangle(&vti6, TUN, here, there, 1, 2);
	return 1;
}

#define VTI6_CHANGE_TEST(name, by)							\
	TEST(name)								\
	{									\
		int rc;								\
										\
		NS_NEED_ADMIN_OR_USERNS();					\
		rc = ns_run_admin(CLONE_NEWNET, vti6_change_worker, (void *)(long)(by)); \
		NS_NEED_ENV(rc != NO_DRIVER, NS_WHY_FEATURE_CONFIG, "the vti6 driver",	\
			    "CONFIG_IPV6_VTI");					\
		ASSERT_EQ(0, rc);						\
	}

/* A driver's fallback device: the one it puts into every network namespace. */
struct fallback {
	const char *name;	/* its name */
	struct ns_tunnel t;	/* the driver (its kind answers the probe) */
};

#define FB_MOVED "nsfb0"
#define FB_ONLY_INIT "/proc/sys/net/core/fb_tunnels_only_for_init_net"

/*
 * Move the fallback device of our netns A into a netns B of ours, under a
 * name B has free: refused with EINVAL, the device still in A and not in
 * B.  An unfixed kernel moves it; it is moved back.
 */
static int fallback_worker(void *arg)
{
	const struct fallback *fb = arg;
	int here, there, err, rc = 0;

	if (!if_nametoindex(fb->name)) {
		long only_init = 0;

		err = ns_tunnel_link(&fb->t, TUN, true, 1, 2);
		if (err == -EOPNOTSUPP)
			return NO_DRIVER;
		if (!ns_read_long(FB_ONLY_INIT, &only_init) && only_init)
			return NO_FALLBACK;
		return child_fail("no %s in a new netns, with the %s driver here and %s %ld",
				  fb->name, fb->t.kind, FB_ONLY_INIT, only_init);
	}
	here = ns_open(0, "net");
	if (here < 0) {
		errno = -here;
		return child_fail("open our netns: %m");
	}
	there = other_netns(here);
	if (there < 0)
		return 1;
	err = ns_link_move(fb->name, there, FB_MOVED);
	if (err != -EINVAL) {
		rc = child_fail("moving the fallback device %s to another netns: %s, "
				"expected EINVAL", fb->name, err ? strerror(-err) : "moved");
		if (!err && !setns(there, CLONE_NEWNET)) {
			ns_link_move(FB_MOVED, here, fb->name);
			if (setns(here, CLONE_NEWNET))
				_exit(child_fail("setns() back: %m"));
		}
		return rc;
	}
	if (!if_nametoindex(fb->name))
		rc = child_fail("%s is gone from its netns after the refused move", fb->name);
	if (setns(there, CLONE_NEWNET))
		return child_fail("setns() to the other netns: %m");
	if (if_nametoindex(FB_MOVED))
		rc = child_fail("%s is in the other netns after the refused move", FB_MOVED);
	if (setns(here, CLONE_NEWNET))
		_exit(child_fail("setns() back: %m"));
	return rc;
}

#define FALLBACK_TEST(test, what, config, dev, ...)					\
	TEST(test)								\
	{									\
		static const struct fallback fb = { dev, { __VA_ARGS__ } };	\
		int rc;								\
										\
		NS_NEED_ADMIN_OR_USERNS();					\
		rc = ns_run_admin(CLONE_NEWNET, fallback_worker, (void *)&fb);	\
		NS_NEED_ENV(rc != NO_DRIVER, NS_WHY_FEATURE_CONFIG, what, config);	\
		NS_NEED_ENV(rc != NO_FALLBACK, NS_WHY_FB_TUNNELS_INIT_NET);	\
		ASSERT_EQ(0, rc);						\
	}

/*
 * ip6_vti0, the fallback device the vti6 driver puts into every network
 * namespace, cannot be moved to another: EINVAL, and it stays where it is
 * (fix "ip6_vti: set netns_immutable on the fallback device."
 * (CVE-2026-52909), Debian 5.10.259, 6.1.176, 6.12.94: the rule of every
 * other tunnel driver's fallback device, below).  An unfixed kernel moves
 * it (the test moves it back).
 */
FALLBACK_TEST(fallback_ip6_vti0_stays_in_its_netns, "the vti6 driver", "CONFIG_IPV6_VTI",
	      "ip6_vti0", "vti6", AF_INET6, IFLA_VTI_LOCAL, IFLA_VTI_REMOTE)

/*
 * The same for ip_vti0, the fallback device of the vti driver: EINVAL
 * (net/ipv4/ip_tunnel.c, ip_tunnel_init_net(), for the fallback device of
 * every ip_tunnel driver: "FB netdevice is special: we have one, and only
 * one per netns.  Allowing to move it to another netns is clearly unsafe.").
 */
FALLBACK_TEST(fallback_ip_vti0_stays_in_its_netns, "the vti driver", "CONFIG_NET_IPVTI",
	      "ip_vti0", "vti", AF_INET, IFLA_VTI_LOCAL, IFLA_VTI_REMOTE)

/* The same for gre0, the fallback device of the gre driver: EINVAL (as ip_vti0's). */
FALLBACK_TEST(fallback_gre0_stays_in_its_netns, "the gre driver", "CONFIG_NET_IPGRE",
	      "gre0", "gre", AF_INET, IFLA_GRE_LOCAL, IFLA_GRE_REMOTE)

/* The same for tunl0, the fallback device of the ipip driver: EINVAL (as ip_vti0's). */
FALLBACK_TEST(fallback_tunl0_stays_in_its_netns, "the ipip driver", "CONFIG_NET_IPIP",
	      "tunl0", "ipip", AF_INET, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

/* The same for sit0, the fallback device of the sit driver: EINVAL (sit_init_net()). */
FALLBACK_TEST(fallback_sit0_stays_in_its_netns, "the sit driver", "CONFIG_IPV6_SIT",
	      "sit0", "sit", AF_INET, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

/* The same for ip6tnl0, the fallback device of the ip6tnl driver: EINVAL (ip6_tnl_init_net()). */
FALLBACK_TEST(fallback_ip6tnl0_stays_in_its_netns, "the ip6tnl driver", "CONFIG_IPV6_TUNNEL",
	      "ip6tnl0", "ip6tnl", AF_INET6, IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE)

/* The same for ip6gre0, the fallback device of the ip6gre driver: EINVAL (ip6gre_init_net()). */
FALLBACK_TEST(fallback_ip6gre0_stays_in_its_netns, "the ip6gre driver", "CONFIG_IPV6_GRE",
	      "ip6gre0", "ip6gre", AF_INET6, IFLA_GRE_LOCAL, IFLA_GRE_REMOTE)

/*
 * A vti6 tunnel made in netns A, moved to netns B and changed there with
 * RTM_NEWLINK stays in A's table with its new ends: a new tunnel with them
 * is refused in A (EEXIST) and made in B (fix "ip6: vti: Use ip6_tnl.net
 * in vti6_changelink()", Debian 5.10.259, 6.1.176, 6.12.94; an unfixed
 * kernel links it into B's table, refuses the one in B, and can oops at
 * the netns cleanup, in vti6_exit_batch_rtnl() or, 6.16 on,
 * vti6_exit_rtnl_net()).  The caller has CAP_NET_ADMIN over both
 * namespaces: allowed on every kernel.
 */
VTI6_CHANGE_TEST(vti6_changelink_relinks_in_the_tunnel_netns, BY_NETLINK)

/*
 * The same change with SIOCCHGTUNNEL on the device, from B: the tunnel
 * stays in A's table (fix "ip6: vti: Use ip6_tnl.net in
 * vti6_siocdevprivate()", Debian 5.10.259, 6.1.176, 6.12.94, the same
 * releases as the changelink fix).
 */
VTI6_CHANGE_TEST(vti6_siocchgtunnel_relinks_in_the_tunnel_netns, BY_IOCTL)

TEST_HARNESS_MAIN
