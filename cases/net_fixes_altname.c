// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the fix of a physical device coming home, from a
 * network namespace that dies, to an initial namespace where one of its
 * alternative names is taken (issue 27, item 2; the row of
 * fixtures/data/fixes.tsv whose test names this binary).
 *
 * Like cases/net_phys.c it needs real root in the initial namespaces and a
 * physical device nobody uses (down, with a bus device): the QEMU guests
 * have one (a PCI e1000); elsewhere the test SKIPs.  Only that device is
 * moved, and a dummy device of the test's own is made in the initial
 * namespace and deleted before the test ends.  Plain rtnetlink sockets.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <net/if.h>		/* before the linux/ headers: their if.h yields to it */
#include <limits.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/nl80211.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* Being in the initial network namespace is known from kthreadd: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;

#define ALT "nsc-home-alt"
#define DUMMY "nscd0"

/* A request of @type for the link @index, with @flags. */
static void link_req(struct ns_nlreq *r, int type, int flags, int index)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = index };

	ns_nl_start(r, type, flags, &ifi, sizeof(ifi));
}

/* Give the link @index the alternative name ALT: 0 or -errno. */
static int altname_add(int index)
{
	struct rtattr *list;
	struct ns_nlreq r;

	link_req(&r, RTM_NEWLINKPROP, NLM_F_CREATE | NLM_F_EXCL, index);
	list = ns_nl_attr(&r.h, IFLA_PROP_LIST | NLA_F_NESTED, NULL, 0);
	ns_nl_attr(&r.h, IFLA_ALT_IFNAME, ALT, sizeof(ALT));
	ns_nl_nest_end(&r.h, list);
	return ns_nl_talk(&r);
}

/* A dummy link DUMMY in the caller's netns: 0 or -errno. */
static int dummy_add(void)
{
	struct rtattr *info;
	struct ns_nlreq r;

	link_req(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	ns_nl_attr(&r.h, IFLA_IFNAME, DUMMY, sizeof(DUMMY));
	info = ns_nl_attr(&r.h, IFLA_LINKINFO, NULL, 0);
	ns_nl_attr(&r.h, IFLA_INFO_KIND, "dummy", sizeof("dummy"));
	ns_nl_nest_end(&r.h, info);
	return ns_nl_talk(&r);
}

/* Move the link @index into the netns open as @nsfd: 0 or -errno. */
static int link_move(int index, int nsfd)
{
	__u32 fd = nsfd;
	struct ns_nlreq r;

	link_req(&r, RTM_NEWLINK, 0, index);
	ns_nl_attr(&r.h, IFLA_NET_NS_FD, &fd, sizeof(fd));
	return ns_nl_talk(&r);
}

/* Delete the link @index: 0 or -errno. */
static int link_del(int index)
{
	struct ns_nlreq r;

	link_req(&r, RTM_DELLINK, 0, index);
	return ns_nl_talk(&r);
}

/* Whether the link @index has the altname ALT (RTM_GETLINK): 1, 0, or -errno. */
static int has_altname(int index)
{
	char buf[8192];
	struct ns_nlreq r;
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct rtattr *a, *b;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), len, blen;
	ssize_t n;

	if (fd < 0)
		return -errno;
	link_req(&r, RTM_GETLINK, 0, index);
	r.h.nlmsg_flags = NLM_F_REQUEST;
	if (send(fd, &r, r.h.nlmsg_len, 0) < 0 || (n = recv(fd, buf, sizeof(buf), 0)) < 0) {
		len = -errno;
		close(fd);
		return len;
	}
	close(fd);
	if (!NLMSG_OK(h, n) || h->nlmsg_type != RTM_NEWLINK)
		return h->nlmsg_type == NLMSG_ERROR ?
		       ((struct nlmsgerr *)NLMSG_DATA(h))->error : -EPROTO;
	len = IFLA_PAYLOAD(h);
	for (a = IFLA_RTA(NLMSG_DATA(h)); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if ((a->rta_type & ~NLA_F_NESTED) != IFLA_PROP_LIST)
			continue;
		blen = RTA_PAYLOAD(a);
		for (b = RTA_DATA(a); RTA_OK(b, blen); b = RTA_NEXT(b, blen))
			if (b->rta_type == IFLA_ALT_IFNAME && !strcmp(RTA_DATA(b), ALT))
				return 1;
	}
	return 0;
}

/*
 * The first physical device of our namespace that is down (a bus device), in
 * @name; not a wireless one.
 */
static int spare_physical_device(char *name)
{
	DIR *d = opendir("/sys/class/net");
	char link[64 + NAME_MAX], bus[PATH_MAX];
	struct dirent *e;
	int flags, rc = -1;

	while (d && rc && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= IFNAMSIZ)
			continue;
		/* A wiphy's device moves only with its wiphy (nl80211): not one of ours. */
		snprintf(link, sizeof(link), "/sys/class/net/%s/phy80211", e->d_name);
		if (realpath(link, bus))
			continue;
		snprintf(link, sizeof(link), "/sys/class/net/%s/device", e->d_name);
		if (realpath(link, bus) && !netdev_flags(e->d_name, &flags) && !(flags & IFF_UP)) {
			snprintf(name, IFNAMSIZ, "%s", e->d_name);
			rc = 0;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

/* Take the altname ALT from the link @index: 0 or -errno. */
static int altname_del(int index)
{
	struct rtattr *list;
	struct ns_nlreq r;

	link_req(&r, RTM_DELLINKPROP, 0, index);
	list = ns_nl_attr(&r.h, IFLA_PROP_LIST | NLA_F_NESTED, NULL, 0);
	ns_nl_attr(&r.h, IFLA_ALT_IFNAME, ALT, sizeof(ALT));
	ns_nl_nest_end(&r.h, list);
	return ns_nl_talk(&r);
}

/* A device of ours that goes into a network namespace and comes home when it dies. */
struct homing {
	const char *dev;			/* its network device */
	const char *what;			/* it, for messages */
	int (*move)(struct homing *m, int nsfd);	/* into @nsfd: 0 or -errno */
	bool (*home)(struct homing *m);		/* back in our netns */
	int wait_ms;				/* bound on its coming back */
	void *arg;				/* the move's own data */
};

/*
 * The device, given the altname ALT, moved into the netns of a holder; a
 * dummy of ours takes ALT; the holder gone, the device must come back within
 * wait_ms, without ALT, which stays the dummy's.  0, or child_fail()'s 1.
 */
static int home_with_altname_taken(struct homing *m)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int idx = if_nametoindex(m->dev), didx = 0, nsfd = -1, err, rc = 1, alt;
	struct ns_holder h;
	long end;

	if (!idx)
		return child_fail("if_nametoindex(%s): %m", m->dev);
	err = altname_add(idx);
	if (err) {
		errno = -err;
		return child_fail("altname %s for %s: %m", ALT, m->dev);
	}
	if (ns_holder_start(&h, CLONE_NEWNET, NULL, NULL)) {
		child_fail("a holder of a new network namespace");
		goto out;
	}
	nsfd = ns_open(h.pid, "net");
	err = nsfd < 0 ? nsfd : m->move(m, nsfd);
	if (nsfd >= 0)
		close(nsfd);
	if (err || if_nametoindex(m->dev)) {
		ns_holder_stop(&h);
		errno = -err;
		child_fail("move %s to the holder's netns: %m", m->what);
		goto out;
	}
	/* Its altname, free here now, taken by a dummy of ours. */
	err = dummy_add();
	didx = err ? 0 : (int)if_nametoindex(DUMMY);
	err = err ?: didx ? altname_add(didx) : -errno;
	if (err) {
		ns_holder_stop(&h);
		errno = -err;
		child_fail("a dummy %s with the altname %s: %m", DUMMY, ALT);
		goto out;
	}
	/* Its last process gone, the namespace is freed (by a workqueue, later). */
	if (ns_holder_stop(&h)) {
		child_fail("the holder failed");
		goto out;
	}
	end = ns_now_ms() + m->wait_ms;
	while (!m->home(m) && ns_now_ms() < end)
		nanosleep(&tick, NULL);
	/* The side the fix leaves alone: the device is back, under its name. */
	if (!m->home(m)) {
		child_fail("%s not back in the initial netns %d s after its netns died", m->what,
			   m->wait_ms / 1000);
		goto out;
	}
	/* The side the fix is about: without the altname the dummy holds. */
	alt = has_altname(if_nametoindex(m->dev));
	if (alt) {
		child_fail("%s came back with the altname %s the dummy holds (%d)", m->dev, ALT,
			   alt);
		goto out;
	}
	if (has_altname(didx) != 1 || (int)if_nametoindex(ALT) != didx) {
		child_fail("%s is no longer the dummy's", ALT);
		goto out;
	}
	rc = 0;
out:
	if (didx && link_del(didx))
		rc = child_fail("delete %s: %m", DUMMY);
	/* On a failure, the altname may still be the device's. */
	if (has_altname(idx) == 1)
		altname_del(idx);
	return rc;
}

static int phys_move(struct homing *m, int nsfd)
{
	return link_move(if_nametoindex(m->dev), nsfd);
}

static bool phys_home(struct homing *m)
{
	return if_nametoindex(m->dev);
}

static int come_home_worker(void *arg)
{
	struct homing m = { .dev = arg, .what = arg, .move = phys_move, .home = phys_home,
			    .wait_ms = NS_WAIT_MS };

	return home_with_altname_taken(&m);
}

/*
 * When a network namespace is freed its physical devices move back to the
 * initial one (network_namespaces(7)); an alternative name that is taken
 * there meanwhile is dropped from the returning device, which comes back
 * (fix linux:d09486a04f5d "net: fix removing a namespace with conflicting
 * altnames", Debian 6.1.76: before it the move failed and
 * default_device_exit_net() hit BUG(); "net: Remove conflicting altnames
 * for dying netns in __dev_change_net_namespace()", Debian 6.12.115 and
 * 7.2.7, moved the dropping, and this input finds 6.12.113 right too).
 * An altname moves with its device (linux:8e15aee62161, 6.7 and 6.1.64),
 * so the dummy can take it meanwhile.  Both sides: the device is back
 * under its name, and the altname stays the dummy's.
 */
TEST(device_home_with_altname_taken_drops_it)
{
	char phys[IFNAMSIZ];

	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_cap_effective(CAP_NET_ADMIN));
	NS_NEED_ENV(ns_in_initial_pidns() && ns_same_as_self(2, "net") == 1,
		    NS_WHY_INITIAL_NETNS);
	NS_NEED_ENV(!spare_physical_device(phys), NS_WHY_NO_SPARE_NETDEV);
	TH_LOG("moving %s", phys);
	EXPECT_EQ(0, ns_run(0, come_home_worker, phys));
}

/* --- a wiphy's device, moved home by cfg80211 ------------------------------ */

struct hwsim_radio {
	char phy[32];		/* /sys/class/ieee80211/<phy> */
	uint32_t index;		/* its wiphy index (NL80211_ATTR_WIPHY) */
	char dev[IFNAMSIZ];	/* a network device of it */
};

/* The last component of the symlink @path into @out (@len bytes): 0 or -1. */
static int link_base(const char *path, char *out, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *b;

	if (n < 0)
		return -1;
	target[n] = '\0';
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strlen(b) >= len)
		return -1;
	memcpy(out, b, strlen(b) + 1);
	return 0;
}

/* A mac80211_hwsim wiphy of our netns with a network device: 0 with @r filled in, or -1. */
static int hwsim_radio_find(struct hwsim_radio *r)
{
	DIR *d = opendir("/sys/class/ieee80211"), *nd;
	char path[64 + 2 * NAME_MAX], base[NAME_MAX + 1];
	struct dirent *e, *ne;
	long index;
	int rc = -1;

	while (d && rc && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(r->phy))
			continue;
		snprintf(path, sizeof(path), "/sys/class/ieee80211/%s/device/driver", e->d_name);
		if (link_base(path, base, sizeof(base)) || strcmp(base, "mac80211_hwsim"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/ieee80211/%s/index", e->d_name);
		if (ns_read_long(path, &index))
			continue;
		nd = opendir("/sys/class/net");
		while (nd && rc && (ne = readdir(nd))) {
			if (ne->d_name[0] == '.' || strlen(ne->d_name) >= IFNAMSIZ)
				continue;
			snprintf(path, sizeof(path), "/sys/class/net/%s/phy80211", ne->d_name);
			if (link_base(path, base, sizeof(base)) || strcmp(base, e->d_name))
				continue;
			snprintf(r->phy, sizeof(r->phy), "%s", e->d_name);
			snprintf(r->dev, sizeof(r->dev), "%s", ne->d_name);
			r->index = index;
			rc = 0;
		}
		if (nd)
			closedir(nd);
	}
	if (d)
		closedir(d);
	return rc;
}

/* NL80211_CMD_SET_WIPHY_NETNS: wiphy @index into the netns open as @nsfd.  0 or -errno. */
static int wiphy_move(int family, uint32_t index, int nsfd)
{
	struct genlmsghdr g = { .cmd = NL80211_CMD_SET_WIPHY_NETNS, .version = 1 };
	uint32_t fd = nsfd;
	struct ns_nlreq r;

	ns_nl_start(&r, family, 0, &g, sizeof(g));
	ns_nl_attr(&r.h, NL80211_ATTR_WIPHY, &index, sizeof(index));
	ns_nl_attr(&r.h, NL80211_ATTR_NETNS_FD, &fd, sizeof(fd));
	return ns_genl_talk(&r);
}

/* Whether wiphy @phy is in our netns (its class device is in our sysfs view). */
static bool phy_here(const char *phy)
{
	char path[64 + NAME_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/ieee80211/%s", phy);
	return stat(path, &st) == 0;
}

static int wiphy_move_nl(struct homing *m, int nsfd)
{
	struct hwsim_radio *radio = m->arg;
	int family = ns_genl_family("nl80211");

	return family < 0 ? family : wiphy_move(family, radio->index, nsfd);
}

/* The wiphy is back, its device under its name. */
static bool wiphy_home(struct homing *m)
{
	struct hwsim_radio *radio = m->arg;

	return phy_here(radio->phy) && if_nametoindex(radio->dev);
}

static int wiphy_home_worker(void *arg)
{
	struct hwsim_radio *radio = arg;
	char what[sizeof(radio->phy) + IFNAMSIZ + 4];
	/* Half the bound of the whole worker, which must still clean up after it. */
	struct homing m = { .dev = radio->dev, .what = what, .move = wiphy_move_nl,
			    .home = wiphy_home, .wait_ms = NS_WAIT_MS / 2, .arg = radio };

	snprintf(what, sizeof(what), "%s (%s)", radio->phy, radio->dev);
	return home_with_altname_taken(&m);
}

/*
 * A wiphy moved into a network namespace (NL80211_CMD_SET_WIPHY_NETNS,
 * nl80211.h) goes back to the initial one with its network devices when
 * that namespace is freed (cfg80211_pernet_exit()), like a physical device
 * (network_namespaces(7)), and an alternative name of such a device that
 * is taken there meanwhile is dropped, as default_device_exit_net() does
 * for a physical one since linux:d09486a04f5d (fix "net: Remove
 * conflicting altnames for dying netns in __dev_change_net_namespace()",
 * Debian 6.12.115 and 7.2.7: before it
 * only default_device_exit_net() dropped it, the wiphy's move failed with
 * EEXIST and cfg80211 warned, leaving it in the dead namespace).  A
 * mac80211_hwsim radio of the initial namespace, its device given an
 * altname, moved into a namespace of ours; a dummy takes the altname; the
 * namespace freed.  Both sides: the wiphy and its device are back, the
 * altname stays the dummy's.  Needs real root and a hwsim radio (the
 * guests load no mac80211_hwsim: SKIP there).
 */
TEST(wiphy_home_with_altname_taken_drops_it)
{
	struct hwsim_radio radio;

	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_cap_effective(CAP_NET_ADMIN));
	NS_NEED_ENV(ns_in_initial_pidns() && ns_same_as_self(2, "net") == 1,
		    NS_WHY_INITIAL_NETNS);
	NS_NEED_ENV(!hwsim_radio_find(&radio), NS_WHY_NO_HWSIM);
	TH_LOG("moving %s (%s)", radio.phy, radio.dev);
	EXPECT_EQ(0, ns_run(0, wiphy_home_worker, &radio));
}

TEST_HARNESS_MAIN
