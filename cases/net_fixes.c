// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for network-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.  Plain rtnetlink
 * sockets, so the binary needs no library beyond the fixtures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* veth_add()'s answer when the kernel has no veth driver. */
#define NO_VETH 1000

/* A veth pair @a and @b in the caller's netns: 0, NO_VETH or -errno. */
static int veth_add(const char *a, const char *b)
{
	int err = ns_veth_add(a, b);

	return err == -EOPNOTSUPP || err == -ENODEV ? NO_VETH : err;
}

/* RTM_DELLINK of @name, in the netns with id @nsid when it is >= 0: 0 or -errno. */
static int link_del(const char *name, int nsid)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct ns_nlreq r;
	__s32 id = nsid;

	ns_nl_start(&r, RTM_DELLINK, 0, &ifi, sizeof(ifi));
	ns_nl_attr(&r.h, IFLA_IFNAME, name, strlen(name) + 1);
	if (nsid >= 0)
		ns_nl_attr(&r.h, IFLA_TARGET_NETNSID, &id, sizeof(id));
	return ns_nl_talk(&r);
}

/* Give device @name the alternative name @alt: 0 or -errno. */
static int altname_add(const char *name, const char *alt)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = if_nametoindex(name) };
	struct rtattr *list;
	struct ns_nlreq r;

	if (!ifi.ifi_index)
		return -errno;
	ns_nl_start(&r, RTM_NEWLINKPROP, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	list = ns_nl_attr(&r.h, IFLA_PROP_LIST | NLA_F_NESTED, NULL, 0);
	ns_nl_attr(&r.h, IFLA_ALT_IFNAME, alt, strlen(alt) + 1);
	ns_nl_nest_end(&r.h, list);
	return ns_nl_talk(&r);
}

/*
 * A second network namespace, held by @b: an fd of it, or -1 after
 * child_fail() (the holder is stopped then).
 */
static int second_netns(struct ns_holder *b)
{
	int nsfd;

	if (ns_holder_start(b, CLONE_NEWNET, NULL, NULL)) {
		child_fail("a holder of a second network namespace");
		return -1;
	}
	nsfd = ns_open(b->pid, "net");
	if (nsfd < 0) {
		child_fail("open the second netns: %s", strerror(-nsfd));
		ns_holder_stop(b);
		return -1;
	}
	return nsfd;
}

/* --- RTM_DELLINK and IFLA_TARGET_NETNSID ------------------------------------ */

#define NSID_B 7

static int dellink_worker(void *arg)
{
	struct ns_holder b;
	int nsfd = -1, err, rc = 1;
	int here, there;

	(void)arg;
	nsfd = second_netns(&b);
	if (nsfd < 0)
		return 1;
	/* Before any device links the two: that would give it an id of its own. */
	err = ns_nsid_assign(nsfd, NSID_B);
	if (err) {
		child_fail("RTM_NEWNSID %d for the second netns: %s", NSID_B, strerror(-err));
		goto out;
	}
	/* "nsc1" in both namespaces: a pair moved there, a new pair here. */
	err = veth_add("nsc0", "nsc1");
	if (err == NO_VETH) {
		rc = ns_child_lacks(NS_F_VETH);
		goto out;
	}
	if (err || (err = ns_link_move("nsc1", nsfd, NULL)) || (err = veth_add("nsc1", "nsc2"))) {
		child_fail("veth pairs nsc0/nsc1 (nsc1 moved) and nsc1/nsc2: %s", strerror(-err));
		goto out;
	}
	/* The input the fix is about: a name and IFLA_TARGET_NETNSID. */
	err = link_del("nsc1", NSID_B);
	if (err) {
		child_fail("RTM_DELLINK nsc1 with IFLA_TARGET_NETNSID %d: %s", NSID_B,
			   strerror(-err));
		goto out;
	}
	here = proc_net_dev_has(0, "nsc1");
	there = proc_net_dev_has(b.pid, "nsc1");
	if (here != 1 || there != 0) {
		child_fail("after RTM_DELLINK nsc1 in netns id %d: nsc1 %s here and %s there, "
			   "expected only here", NSID_B, here == 1 ? "present" : "gone",
			   there == 1 ? "present" : "gone");
		goto out;
	}
	/* The input the fix leaves alone: the name alone names ours. */
	err = link_del("nsc1", -1);
	if (err || proc_net_dev_has(0, "nsc1") != 0) {
		child_fail("RTM_DELLINK nsc1 without a target: %s, nsc1 %s here",
			   strerror(-err), proc_net_dev_has(0, "nsc1") ? "still" : "not");
		goto out;
	}
	rc = 0;
out:
	if (nsfd >= 0)
		close(nsfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * RTM_DELLINK with IFLA_TARGET_NETNSID deletes the device of that name in
 * the network namespace the id names, as it does for an ifindex
 * (linux:9415d375d852 "rtnetlink: Don't ignore IFLA_TARGET_NETNSID when
 * ifname is specified in rtnl_dellink()": since linux:cc6090e985d7, 5.5,
 * the name was looked up in the caller's namespace and the caller's device
 * of that name went; Debian 6.1.106, no 5.10 changelog lists it).  Both
 * sides: without the attribute the same name deletes the caller's device.
 */
TEST(dellink_by_name_honours_target_netnsid)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, dellink_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- mounts on /proc/PID/net entries ---------------------------------------- */

static int procnet_worker(void *arg)
{
	int fd;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	fd = open("/tmp/f", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return child_fail("create /tmp/f: %m");
	close(fd);
	/* The input the fix leaves alone: a file of /proc outside /proc/PID/net. */
	if (mount("/tmp/f", "/proc/meminfo", NULL, MS_BIND, NULL))
		return child_fail("bind /tmp/f on /proc/meminfo: %m");
	/* The input the fix is about: an entry the netns of the reader decides. */
	if (!mount("/tmp/f", "/proc/self/net/dev", NULL, MS_BIND, NULL))
		return child_fail("bind /tmp/f on /proc/self/net/dev succeeded");
	if (errno != ENOENT)
		return child_fail("bind /tmp/f on /proc/self/net/dev: %m, expected ENOENT");
	return 0;
}

/*
 * The entries below /proc/PID/net are looked up anew for the reader's
 * network namespace (proc(5): /proc/PID/net shows the namespace of the
 * process), so none of them can be a mountpoint: a mount on one is refused
 * with ENOENT, as on /proc/PID/map_files entries (fix "proc: don't let an
 * entry below /proc/<pid>/net be a mountpoint", Debian 7.3.4: before it a
 * bind mount landed on a dentry the next lookup replaces).  Both sides: a
 * bind mount on /proc/meminfo works.
 */
TEST(mount_on_proc_pid_net_entry_enoent)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, procnet_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- moving a device into a netns with its name taken ----------------------- */

static int nametaken_worker(void *arg)
{
	struct ns_holder b;
	int nsfd, err, rc = 1;

	(void)arg;
	nsfd = second_netns(&b);
	if (nsfd < 0)
		return 1;
	/* nsm1 there (a pair moved over), then nsm1 and nsm2 here. */
	err = veth_add("nsm0", "nsm1");
	if (err == NO_VETH) {
		rc = ns_child_lacks(NS_F_VETH);
		goto out;
	}
	if (err || (err = ns_link_move("nsm1", nsfd, NULL)) || (err = veth_add("nsm1", "nsm2"))) {
		child_fail("veth pairs nsm0/nsm1 (nsm1 moved) and nsm1/nsm2: %s", strerror(-err));
		goto out;
	}
	/* The input the fix is about: the name is taken there. */
	err = ns_link_move("nsm1", nsfd, NULL);
	if (err != -EEXIST) {
		child_fail("move nsm1 into a netns that has an nsm1: %s, expected EEXIST",
			   err ? strerror(-err) : "success");
		goto out;
	}
	if (proc_net_dev_has(0, "nsm1") != 1) {
		child_fail("the refused move took nsm1 away");
		goto out;
	}
	/* The input the fix leaves alone: a free name moves. */
	err = ns_link_move("nsm2", nsfd, NULL);
	if (err || proc_net_dev_has(b.pid, "nsm2") != 1) {
		child_fail("move nsm2 into the second netns: %s", strerror(-err));
		goto out;
	}
	rc = 0;
out:
	if (nsfd >= 0)
		close(nsfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * Moving a device into a network namespace that already has a device of
 * its name is refused with EEXIST, the error of the name clash, and the
 * device stays (network_namespaces(7): a device lives in one namespace;
 * linux:96a6b93b6988 "rtnetlink: Return correct error on changing device
 * netns", Debian 5.10.70: before it every failure was EINVAL).  Both
 * sides: a device whose name is free there moves.
 */
TEST(move_into_netns_with_name_taken_eexist)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, nametaken_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- an altname taken in the target netns ----------------------------------- */

static int altname_worker(void *arg)
{
	struct ns_holder b;
	int nsfd, err, rc = 1;

	(void)arg;
	nsfd = second_netns(&b);
	if (nsfd < 0)
		return 1;
	/* nsa1 there; here nsa0, known also as nsa1, and nsa2, also nsfree. */
	err = veth_add("nsa0", "nsa1");
	if (err == NO_VETH) {
		rc = ns_child_lacks(NS_F_VETH);
		goto out;
	}
	if (err || (err = ns_link_move("nsa1", nsfd, NULL)) || (err = veth_add("nsa2", "nsa3"))) {
		child_fail("veth pairs nsa0/nsa1 (nsa1 moved) and nsa2/nsa3: %s", strerror(-err));
		goto out;
	}
	err = altname_add("nsa0", "nsa1");
	if (err == -EOPNOTSUPP) {
		rc = ns_child_lacks(NS_F_VETH_ALTNAMES);
		goto out;
	}
	if (err || (err = altname_add("nsa2", "nsfree"))) {
		child_fail("altnames nsa1 for nsa0, nsfree for nsa2: %s", strerror(-err));
		goto out;
	}
	/* The input the fix leaves alone: an altname free there moves along. */
	err = ns_link_move("nsa2", nsfd, NULL);
	if (err) {
		child_fail("move nsa2 (altname nsfree) into the second netns: %s",
			   strerror(-err));
		goto out;
	}
	/* The input the fix is about: the altname is a device's name there. */
	err = ns_link_move("nsa0", nsfd, NULL);
	if (err != -EEXIST) {
		child_fail("move nsa0, altname nsa1, into a netns that has an nsa1: %s, "
			   "expected EEXIST", err ? strerror(-err) : "success");
		goto out;
	}
	if (proc_net_dev_has(0, "nsa0") != 1) {
		child_fail("the refused move took nsa0 away");
		goto out;
	}
	rc = 0;
out:
	if (nsfd >= 0)
		close(nsfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * A device's names, its alternative names too, are unique in its network
 * namespace, so a device whose altname is taken in the target namespace
 * cannot move there: EEXIST, and it stays (network_namespaces(7): devices
 * belong to one namespace; linux:7663d522099e "net: check for altname
 * conflicts when changing netdev's netns", Debian 6.1.64, no 5.10
 * changelog lists it).  Both sides: a device whose altname is free there
 * moves.
 */
TEST(move_with_altname_taken_in_target_eexist)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, altname_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH_ALTNAMES, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- the name in the notification of a netns move -------------------------- */

/*
 * The IFLA_IFNAME of the RTM_DELLINK for @ifindex that @fd (a RTMGRP_LINK
 * listener) got within 2 s, into @name: 0, or -ENOENT when none came.
 */
static int dellink_name(int fd, int ifindex, char *name, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[16384];

	while (poll(&p, 1, 2000) > 0) {
		/*
		 * 64 bits on every ABI: NLMSG_OK compares it with a __u32, which a
		 * 32-bit ssize_t would make a signed/unsigned comparison.
		 */
		int64_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n <= 0)
			break;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			struct ifinfomsg *ifi = NLMSG_DATA(h);
			struct rtattr *a = IFLA_RTA(ifi);
			int alen = IFLA_PAYLOAD(h);

			if (h->nlmsg_type != RTM_DELLINK || ifi->ifi_index != ifindex)
				continue;
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen))
				if (a->rta_type == IFLA_IFNAME) {
					snprintf(name, len, "%s", (char *)RTA_DATA(a));
					return 0;
				}
		}
	}
	return -ENOENT;
}

static int rename_worker(void *arg)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	struct ns_holder b;
	int nsfd = -1, lfd = -1, idx, err, rc = 1;
	char name[IFNAMSIZ] = "";

	(void)arg;
	if (ns_holder_start(&b, CLONE_NEWNET, NULL, NULL))
		return child_fail("a holder of a second network namespace");
	nsfd = ns_open(b.pid, "net");
	lfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nsfd < 0 || lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa))) {
		child_fail("the second netns and a link listener here: %m");
		goto out;
	}
	err = veth_add("nsr0", "nsr1");
	if (err == NO_VETH) {
		rc = ns_child_lacks(NS_F_VETH);
		goto out;
	}
	idx = if_nametoindex("nsr0");
	if (err || !idx) {
		child_fail("veth pair nsr0/nsr1: %s", strerror(err ? -err : errno));
		goto out;
	}
	err = ns_link_move("nsr0", nsfd, "nsr9");
	if (err) {
		child_fail("move nsr0 into the second netns as nsr9: %s", strerror(-err));
		goto out;
	}
	/* The side the fix leaves alone: there the device has its new name. */
	if (proc_net_dev_has(b.pid, "nsr9") != 1) {
		child_fail("no nsr9 in the second netns after the move");
		goto out;
	}
	/* The side the fix is about: here it went by the name it had here. */
	err = dellink_name(lfd, idx, name, sizeof(name));
	if (err) {
		child_fail("no RTM_DELLINK for ifindex %d here within 2 s", idx);
		goto out;
	}
	if (strcmp(name, "nsr0")) {
		child_fail("RTM_DELLINK here names the moved device \"%s\", expected \"nsr0\"",
			   name);
		goto out;
	}
	rc = 0;
out:
	if (lfd >= 0)
		close(lfd);
	if (nsfd >= 0)
		close(nsfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * A device moved to another network namespace under a new name leaves the
 * old namespace with an RTM_DELLINK that names it as it was known there;
 * the new name belongs to the new namespace (network_namespaces(7);
 * linux:311cca40661f "net: fix ifname in netlink ntf during netns move",
 * Debian 6.1.64, no 5.10 changelog lists it: the notification carried the
 * name from the other namespace).  Both sides: there the device has its
 * new name.
 */
TEST(netns_move_notification_keeps_old_name)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, rename_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- FDB entries in a user namespace's network namespace --------------------- */

/* A device @name of kind @kind (no kind data): 0, NO_VETH when the kind is missing. */
static int link_add_kind(const char *name, const char *kind)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info;
	struct ns_nlreq r;
	int err;

	ns_nl_start(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	ns_nl_attr(&r.h, IFLA_IFNAME, name, strlen(name) + 1);
	info = ns_nl_attr(&r.h, IFLA_LINKINFO, NULL, 0);
	ns_nl_attr(&r.h, IFLA_INFO_KIND, kind, strlen(kind) + 1);
	ns_nl_nest_end(&r.h, info);
	err = ns_nl_talk(&r);
	return err == -EOPNOTSUPP || err == -ENODEV ? NO_VETH : err;
}

static int link_set_master(const char *name, const char *master)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = if_nametoindex(name) };
	__u32 m = if_nametoindex(master);
	struct ns_nlreq r;

	if (!ifi.ifi_index || !m)
		return -ENODEV;
	ns_nl_start(&r, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	ns_nl_attr(&r.h, IFLA_MASTER, &m, sizeof(m));
	return ns_nl_talk(&r);
}

/* RTM_NEWNEIGH or RTM_DELNEIGH of a static bridge FDB entry for @mac on port @dev. */
static int fdb_change(int type, const char *dev, const unsigned char mac[6])
{
	struct ndmsg nd = { .ndm_family = AF_BRIDGE, .ndm_ifindex = if_nametoindex(dev),
			    .ndm_state = NUD_NOARP, .ndm_flags = NTF_MASTER };
	struct ns_nlreq r;

	if (!nd.ndm_ifindex)
		return -ENODEV;
	ns_nl_start(&r, type, type == RTM_NEWNEIGH ? NLM_F_CREATE | NLM_F_EXCL : 0, &nd,
		 sizeof(nd));
	ns_nl_attr(&r.h, NDA_LLADDR, mac, 6);
	return ns_nl_talk(&r);
}

static int fdb_worker(void *arg)
{
	static const unsigned char mac[6] = { 0x02, 0x6e, 0x73, 0x63, 0x00, 0x01 };
	int err;

	(void)arg;
	/* Root of a user namespace, never of the initial one: the case the fix is about. */
	err = ns_unshare_userns_root(CLONE_NEWNET);
	if (err) {
		errno = -err;
		return child_fail("user and network namespace: %m");
	}
	err = link_add_kind("nsbr0", "bridge");
	if (err == NO_VETH)
		return ns_child_lacks(NS_F_BRIDGE_VETH);
	if (!err)
		err = veth_add("nsb0", "nsb1");
	if (err == NO_VETH)
		return ns_child_lacks(NS_F_BRIDGE_VETH);
	if (err || (err = link_set_master("nsb0", "nsbr0")))
		return child_fail("bridge nsbr0 with port nsb0: %s", strerror(-err));
	/* The side the fix leaves alone: the entry can be added. */
	err = fdb_change(RTM_NEWNEIGH, "nsb0", mac);
	if (err)
		return child_fail("add a static FDB entry on nsb0: %s", strerror(-err));
	/* The side the fix is about: and deleted. */
	err = fdb_change(RTM_DELNEIGH, "nsb0", mac);
	if (err)
		return child_fail("delete the FDB entry as root of the netns' user namespace: "
				  "%s, expected success", strerror(-err));
	err = fdb_change(RTM_DELNEIGH, "nsb0", mac);
	if (err != -ENOENT)
		return child_fail("delete it again: %s, expected ENOENT (it is gone)",
				  err ? strerror(-err) : "success");
	return 0;
}

/*
 * Root of the user namespace that owns a network namespace administers it
 * (network_namespaces(7), user_namespaces(7): CAP_NET_ADMIN in the owning
 * user namespace), bridge forwarding entries included: it adds and deletes
 * them (linux:bf29555f5bdc "rtnetlink: Allow deleting FDB entries in user
 * namespace", Debian 5.10.247, 6.1.158, 6.12.57 and 6.17.6: RTM_DELNEIGH
 * wanted CAP_NET_ADMIN in the initial user namespace, EPERM).  Both sides:
 * adding worked before.  Always in a user namespace of its own, also as
 * real root.
 */
TEST(fdb_entry_deleted_by_root_of_owning_userns)
{
	int rc;

	NS_NEED_USERNS();
	rc = ns_run(0, fdb_worker, NULL);
	NS_NEED_FEATURE(NS_F_BRIDGE_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- tcp_allowed_congestion_control in a new network namespace ------------ */

#define ALLOWED_CC "/proc/sys/net/ipv4/tcp_allowed_congestion_control"
#define DEFAULT_CC "/proc/sys/net/ipv4/tcp_congestion_control"

static int allowed_cc_worker(void *arg)
{
	int fd;

	(void)arg;
	/* The side the fix leaves alone: the namespace's own default is writable. */
	fd = open(DEFAULT_CC, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s for writing in a new netns: %m", DEFAULT_CC);
	close(fd);
	/* The side the fix is about: the list of allowed algorithms, global, is not. */
	fd = open(ALLOWED_CC, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return child_fail("%s opened for writing in a new netns", ALLOWED_CC);
	}
	if (errno != EACCES)
		return child_fail("open %s for writing in a new netns: %m, expected EACCES",
				  ALLOWED_CC);
	return 0;
}

/*
 * The sysctls of a network namespace belong to the root of its owning user
 * namespace (network_namespaces(7); user_namespaces(7)), but the list of
 * congestion control algorithms non-privileged sockets may pick is global:
 * in a network namespace other than the initial one it is read-only, and
 * opening it for writing fails with EACCES (linux:97684f0970f6 "net: Make
 * tcp_allowed_congestion_control readonly in non-init netns", Debian
 * 5.10.38).  Both sides: tcp_congestion_control, per namespace, opens for
 * writing there.
 */
TEST(allowed_congestion_control_readonly_in_new_netns)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, allowed_cc_worker, NULL);
	ASSERT_EQ(0, rc);
}

/* --- /proc/PID/net subdirectories after setns() ------------------------------ */

#define SNMP6 "/proc/self/net/dev_snmp6"

static int procnet_setns_worker(void *arg)
{
	struct ns_holder b;
	struct stat st;
	int nsfd = -1, err, rc = 1;

	(void)arg;
	if (stat(SNMP6, &st))
		return ns_child_lacks(NS_F_IPV6_VETH);
	nsfd = second_netns(&b);
	if (nsfd < 0)
		return 1;
	err = veth_add("nsp0", "nsp1");
	if (err == NO_VETH) {
		rc = ns_child_lacks(NS_F_IPV6_VETH);
		goto out;
	}
	if (err) {
		child_fail("veth pair nsp0/nsp1: %s", strerror(-err));
		goto out;
	}
	if (stat(SNMP6 "/nsp0", &st)) {
		child_fail("stat %s/nsp0 in the netns that has nsp0: %m", SNMP6);
		goto out;
	}
	if (setns(nsfd, CLONE_NEWNET)) {
		child_fail("setns() to the second netns: %m");
		goto out;
	}
	/* The side the fix leaves alone: what the new netns has is there. */
	if (stat(SNMP6 "/lo", &st)) {
		child_fail("stat %s/lo after setns(): %m", SNMP6);
		goto out;
	}
	/* The side the fix is about: what only the old netns had is gone. */
	if (!stat(SNMP6 "/nsp0", &st)) {
		child_fail("%s/nsp0 still there after setns() to a netns without nsp0", SNMP6);
		goto out;
	}
	if (errno != ENOENT) {
		child_fail("stat %s/nsp0 after setns(): %m, expected ENOENT", SNMP6);
		goto out;
	}
	rc = 0;
out:
	if (nsfd >= 0)
		close(nsfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * /proc/PID/net shows the network namespace of the process (proc(5)), its
 * subdirectories too, right after setns() moved it: an entry only the old
 * namespace had is gone (ENOENT), even one just looked up
 * (linux:c6c75deda813 "proc: fix lookup in /proc/net subdirectories after
 * setns(2)", Debian 5.10.4: the lookup cached in the subdirectory kept
 * answering).  Both sides: /proc/self/net/dev_snmp6/lo, which the new
 * namespace has, is there.
 */
TEST(proc_net_subdir_follows_setns)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, procnet_setns_worker, NULL);
	NS_NEED_FEATURE(NS_F_IPV6_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
