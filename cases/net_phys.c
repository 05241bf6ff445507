// SPDX-License-Identifier: GPL-2.0
/*
 * A physical network device outlives the network namespace it was moved
 * to: when that namespace is freed the device goes back to the initial
 * namespace, not to the namespace of the freed one's creator
 * (network_namespaces(7); default_device_exit_net() in net/core/dev.c moves
 * every device without rtnl_link_ops, or with netns_refund, to init_net).
 *
 * The claim is about the initial network namespace and needs real root
 * there, and a physical device nobody uses: one with a bus device
 * (/sys/class/net/NAME/device) that is down.  The QEMU guests have one (a
 * PCI e1000, harness/guest/modules); on a host whose devices are all in
 * use the test SKIPs rather than take one away.  Only such a device is
 * ever moved, and its namespace is freed before the test ends.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "net_route.h"
#include "kselftest_harness.h"

/* Being in the initial network namespace is known from kthreadd: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;


struct phys {
	char name[IFNAMSIZ];
	char bus[PATH_MAX];	/* where /sys/class/net/NAME/device leads */
};

/* The bus device behind @name, or -1 for a virtual device. */
static int bus_device(const char *name, char *out)
{
	char link[64 + IFNAMSIZ];

	snprintf(link, sizeof(link), "/sys/class/net/%s/device", name);
	return realpath(link, out) ? 0 : -1;
}

/* The first physical device of our namespace that is down: 0, or -1. */
static int spare_physical_device(struct phys *p)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int flags, rc = -1;

	while (d && rc && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= IFNAMSIZ)
			continue;
		if (!bus_device(e->d_name, p->bus) && !netdev_flags(e->d_name, &flags) &&
		    !(flags & IFF_UP)) {
			snprintf(p->name, sizeof(p->name), "%s", e->d_name);
			rc = 0;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

/* Wait up to @ms for @name to be in @sk's namespace: 1, 0, or -NLE_*. */
static int wait_link(struct nl_sock *sk, const char *name, int ms)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	long end = ns_now_ms() + ms;
	int has;

	while ((has = link_has(sk, name)) == 0 && ns_now_ms() < end)
		nanosleep(&tick, NULL);
	return has;
}

/*
 * In a worker: keep a rtnetlink socket in the initial namespace, move to a
 * new namespace N1, start a holder in N2 (its creator, the worker, is in
 * N1), move the device into N2, free N2.
 */
static int device_comes_home(void *arg)
{
	struct phys *p = arg;
	struct nl_sock *sk = rt_open();
	char bus[PATH_MAX];
	struct ns_holder h;
	int fd, err, has;

	if (!sk)
		return child_fail("rtnetlink socket in the initial namespace");
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET): %m");
	if (ns_holder_start(&h, CLONE_NEWNET, NULL, NULL))
		return child_fail("holder in a second new network namespace");
	fd = ns_open(h.pid, "net");
	err = fd < 0 ? fd : link_move(sk, p->name, fd);
	if (fd >= 0)
		close(fd);
	if (err) {
		ns_holder_stop(&h);
		return child_fail("move %s to the holder's namespace: %d", p->name, err);
	}
	/* Seen from both sides: gone from the initial namespace, in the holder's. */
	if (link_has(sk, p->name) != 0 || proc_net_dev_has(h.pid, p->name) != 1)
		err = child_fail("after the move %s is not (only) in the holder's namespace",
				 p->name);
	if (ns_holder_stop(&h))
		err = child_fail("holder failed");
	/* Its last process gone, the namespace is freed (by a workqueue, later). */
	has = wait_link(sk, p->name, NS_WAIT_MS);
	if (has != 1)
		return child_fail("%s not back in the initial namespace 10 s after its namespace "
				  "died (%d)", p->name, has);
	if (proc_net_dev_has(0, p->name) != 0)
		err = child_fail("%s also in the creator's namespace", p->name);
	if (bus_device(p->name, bus) || strcmp(bus, p->bus))
		err = child_fail("%s came back on another bus device: %s, was %s", p->name,
				 bus, p->bus);
	nl_socket_free(sk);
	return err ? 1 : 0;
}

/*
 * When a network namespace is freed, its physical devices move back to the initial network
 * namespace, not to that of the parent of the process (network_namespaces(7)).
 *
 * The device keeps its name (nothing took it meanwhile) and its bus device,
 * so it is the same hardware; the creator's namespace N1 never has it.
 */
TEST(physical_device_returns_to_initial_netns)
{
	struct phys p;

	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_cap_effective(CAP_NET_ADMIN));
	NS_NEED_ENV(ns_in_initial_pidns() && ns_same_as_self(2, "net") == 1,
		    NS_WHY_INITIAL_NETNS);
	NS_NEED_ENV(!spare_physical_device(&p), NS_WHY_NO_SPARE_NETDEV);
	TH_LOG("moving %s (%s)", p.name, p.bus);
	EXPECT_EQ(0, ns_run(0, device_comes_home, &p));
}

TEST_HARNESS_MAIN
