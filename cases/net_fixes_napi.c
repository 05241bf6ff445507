// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for the NAPI fixes of the netdev generic netlink family
 * that Debian's kernels ship (issue 27, item 2; the rows of
 * fixtures/data/fixes.tsv whose test names this binary): the fixed
 * kernel's answer for the input that tells it from the last kernel
 * without the fix, and the answer for an input the fix leaves alone.  The
 * NAPI instance is the one of a veth with GRO on (veth's NAPI mode); the
 * requests are plain generic netlink.  The NAPI thread is a kernel thread,
 * seen only from the initial PID namespace: the binary asks to run there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

NS_CASE_NEEDS_INITIAL_PIDNS;

/* The veth pair; DEV gets the NAPI instance. */
#define DEV "nsn0"
#define PEER "nsn1"

/* napi_setup()'s answers when the kernel lacks what the tests need. */
#define NO_VETH 3
#define NO_NAPI_GET 4

/* One generic netlink request: header, family header, room for attributes. */
struct genl_req {
	struct nlmsghdr h;
	struct genlmsghdr g;
	char attrs[64];
};

/* Append a @len-byte attribute @type to @r. */
static void genl_attr(struct genl_req *r, int type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)((char *)&r->h + NLMSG_ALIGN(r->h.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void genl_start(struct genl_req *r, int family, int cmd, int flags)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->h.nlmsg_type = family;
	r->h.nlmsg_flags = NLM_F_REQUEST | flags;
	r->g.cmd = cmd;
	r->g.version = 1;
}

/* A generic netlink socket whose receives end within NS_WAIT_MS: the fd or -errno. */
static int genl_socket(void)
{
	struct timeval tv = { .tv_sec = NS_WAIT_MS / 1000 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* The attributes of generic netlink message @h: the first, and their length. */
static struct nlattr *genl_attrs(struct nlmsghdr *h, int *len)
{
	*len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	return (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
}

#define for_each_nlattr(a, len)							\
	for (; (len) >= NLA_HDRLEN && (a)->nla_len >= NLA_HDRLEN &&		\
	       (a)->nla_len <= (len);						\
	     (len) -= NLA_ALIGN((a)->nla_len),					\
	     (a) = (struct nlattr *)((char *)(a) + NLA_ALIGN((a)->nla_len)))

/* What NETDEV_CMD_NAPI_GET told of the NAPI instances of DEV. */
struct napi_seen {
	int count;		/* instances */
	uint32_t id;		/* the first one's NETDEV_A_NAPI_ID */
	int ifindex;		/* its NETDEV_A_NAPI_IFINDEX */
	bool has_pid;		/* NETDEV_A_NAPI_PID given */
	uint32_t pid;		/* its value */
};

/*
 * NETDEV_CMD_NAPI_GET of family @family: with @napi_id, the request for that
 * instance (doit), else the dump of those of device @ifindex.  0 with @out
 * filled in, or -errno (the kernel's error).
 */
static int napi_get(int family, int ifindex, uint32_t napi_id, struct napi_seen *out)
{
	struct genl_req r;
	char buf[16384];
	int fd = genl_socket(), err = 0, len;
	bool done = false;
	struct nlattr *a;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return fd;
	genl_start(&r, family, NSC_NETDEV_CMD_NAPI_GET, napi_id ? NLM_F_ACK : NLM_F_DUMP);
	if (napi_id)
		genl_attr(&r, NSC_NETDEV_A_NAPI_ID, &napi_id, sizeof(napi_id));
	else
		genl_attr(&r, NSC_NETDEV_A_NAPI_IFINDEX, &ifindex, sizeof(ifindex));
	if (send(fd, &r, r.h.nlmsg_len, 0) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	while (!done) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			err = -errno;
			break;
		}
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				done = true;
				break;
			}
			if (out->count++)
				continue;
			a = genl_attrs(h, &len);
			for_each_nlattr(a, len) {
				void *v = (char *)a + NLA_HDRLEN;

				if (a->nla_type == NSC_NETDEV_A_NAPI_ID)
					memcpy(&out->id, v, sizeof(out->id));
				else if (a->nla_type == NSC_NETDEV_A_NAPI_IFINDEX)
					memcpy(&out->ifindex, v, sizeof(out->ifindex));
				else if (a->nla_type == NSC_NETDEV_A_NAPI_PID) {
					memcpy(&out->pid, v, sizeof(out->pid));
					out->has_pid = true;
				}
			}
		}
	}
	close(fd);
	return err;
}

/* SIOCSIFFLAGS: device @name up.  0 or -errno. */
static int link_up(int sock, const char *name)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr))
		return -errno;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(sock, SIOCSIFFLAGS, &ifr) ? -errno : 0;
}

/* ETHTOOL_SGRO: GRO on for @name (a veth then polls with NAPI).  0 or -errno. */
static int gro_on(int sock, const char *name)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_SGRO, .data = 1 };
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (void *)&ev;
	return ioctl(sock, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/*
 * In the caller's new network namespace: the veth pair, GRO on and up, so
 * that DEV has a NAPI instance; its id in @out.  When @threaded, its
 * poll moves to a kernel thread (/sys/class/net/DEV/threaded, on a sysfs
 * of this namespace mounted on the private /tmp).  0, NO_VETH,
 * NO_NAPI_GET, or the value of child_fail().
 */
static int napi_setup(bool threaded, int *family, struct napi_seen *out)
{
	int sock, err, ifindex;

	err = ns_private_tmp(NULL);
	if (err)
		return err;
	*family = ns_genl_family("netdev");
	if (*family == -ENOENT)
		return NO_NAPI_GET;
	if (*family < 0) {
		errno = -*family;
		return child_fail("the id of the netdev generic netlink family: %m");
	}
	err = ns_veth_add(DEV, PEER);
	if (err == -EOPNOTSUPP || err == -ENODEV)
		return NO_VETH;
	if (err) {
		errno = -err;
		return child_fail("veth pair %s/%s: %m", DEV, PEER);
	}
	ifindex = if_nametoindex(DEV);
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!ifindex || sock < 0)
		return child_fail("index of %s, a socket: %m", DEV);
	err = gro_on(sock, DEV) ?: link_up(sock, PEER) ?: link_up(sock, DEV);
	close(sock);
	if (err) {
		errno = -err;
		return child_fail("GRO on and both ends up: %m");
	}
	if (threaded) {
		if (mkdir("/tmp/sys", 0755) || mount("sysfs", "/tmp/sys", "sysfs", 0, NULL))
			return child_fail("a sysfs of this network namespace: %m");
		err = ns_write_file("/tmp/sys/class/net/" DEV "/threaded", "1");
		if (err) {
			errno = -err;
			return child_fail("threaded NAPI for %s: %m", DEV);
		}
	}
	err = napi_get(*family, ifindex, 0, out);
	if (err == -EOPNOTSUPP)
		return NO_NAPI_GET;
	if (err) {
		errno = -err;
		return child_fail("NETDEV_CMD_NAPI_GET dump of %s: %m", DEV);
	}
	if (out->count != 1 || out->ifindex != ifindex)
		return child_fail("the dump of %s: %d NAPI instances, the first of ifindex %d "
				  "(expected 1, of %d)", DEV, out->count, out->ifindex, ifindex);
	return 0;
}

/* The NAPI thread's pid as the dump gives it in a new PID namespace. */
static int pidns_pid_worker(int family)
{
	struct napi_seen s;
	int err = napi_get(family, if_nametoindex(DEV), 0, &s);

	if (err) {
		errno = -err;
		return child_fail("NETDEV_CMD_NAPI_GET dump in a new PID namespace: %m");
	}
	if (!s.has_pid || s.pid != 0)
		return child_fail("the NAPI thread's pid in a PID namespace that cannot see it: "
				  "%s%u, expected 0", s.has_pid ? "" : "none ", s.pid);
	return 0;
}

/*
 * Whether kernel threads are visible in our PID namespace (the initial one):
 * pid 2 is kthreadd, child of no process.
 */
static bool kthreads_visible(void)
{
	char buf[4096];

	return ns_read_file("/proc/2/status", buf, sizeof(buf)) >= 0 &&
	       strstr(buf, "Name:\tkthreadd\n") && strstr(buf, "PPid:\t0\n");
}

static int napi_pid_worker(void *arg)
{
	struct napi_seen s;
	char comm[32], want[32], path[64];
	int family, err;
	pid_t pid;

	(void)arg;
	err = napi_setup(true, &family, &s);
	if (err)
		return err;
	if (!s.has_pid)
		return child_fail("no NETDEV_A_NAPI_PID for the threaded NAPI of %s", DEV);
	if (kthreads_visible()) {
		/* The side the fix leaves alone: seen from here, the pid of the thread. */
		snprintf(path, sizeof(path), "/proc/%u/comm", s.pid);
		snprintf(want, 16, "napi/%s-%u", DEV, s.id);
		err = ns_read_file(path, comm, sizeof(comm));
		if (err < 0) {
			errno = -err;
			return child_fail("pid %u, the NAPI thread: %s: %m", s.pid, path);
		}
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, want))
			return child_fail("pid %u, the NAPI thread: %s is \"%s\", expected \"%s\"",
					  s.pid, path, comm, want);
	} else if (s.pid != 0) {
		return child_fail("the NAPI thread's pid here, where kernel threads are not "
				  "visible: %u, expected 0", s.pid);
	}
	/* The side the fix is about: from a PID namespace where it is not, 0. */
	pid = ns_clone(CLONE_NEWPID);
	if (pid < 0)
		return child_fail("a child in a new PID namespace: %m");
	if (pid == 0)
		_exit(pidns_pid_worker(family));
	err = ns_wait(pid, NS_WAIT_MS);
	return err ? child_fail("the child in the new PID namespace: %d", err) : 0;
}

/*
 * NETDEV_CMD_NAPI_GET of the netdev generic netlink family
 * (Documentation/netlink/specs/netdev.yaml, "napi-get") reports in
 * NETDEV_A_NAPI_PID the pid of the kernel thread that polls a threaded
 * NAPI instance (linux:db4704f4e4df, 6.8), in the PID namespace of the
 * caller: 0 where the thread is not visible (fix "netdev-genl: report
 * NAPI thread PID in the caller's pid namespace", Debian 6.12.100: before
 * it the pid in the initial PID namespace was given everywhere).  A veth
 * with GRO on and /sys/class/net/DEV/threaded 1, dumped from a new PID
 * namespace: 0.  Both sides: from the initial PID namespace the pid is
 * that of the thread, "napi/DEV-<id>" (from another, where the harness
 * runs the case there, 0 too).
 */
TEST(napi_thread_pid_in_callers_pidns)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET | CLONE_NEWNS, napi_pid_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NO_VETH);
	NS_NEED_ENV(rc != NO_NAPI_GET, NS_WHY_FEATURE, "NETDEV_CMD_NAPI_GET", "6.8");
	ASSERT_EQ(0, rc);
}

/* NETDEV_CMD_NAPI_GET of NAPI instance @id from a new network namespace. */
static int other_netns_worker(int family, uint32_t id)
{
	struct napi_seen s;
	int err = napi_get(family, 0, id, &s);

	if (err != -ENOENT)
		return child_fail("NETDEV_CMD_NAPI_GET of NAPI %u of another network namespace: "
				  "%s, expected ENOENT", id, err ? strerror(-err) : "answered");
	return 0;
}

static int napi_netns_worker(void *arg)
{
	struct napi_seen s, here;
	int family, err;
	pid_t pid;

	(void)arg;
	err = napi_setup(false, &family, &s);
	if (err)
		return err;
	/* The side the fix leaves alone: the instance by its id, from its netns. */
	err = napi_get(family, 0, s.id, &here);
	if (err || here.count != 1 || here.id != s.id || here.ifindex != s.ifindex) {
		errno = -err;
		return child_fail("NETDEV_CMD_NAPI_GET of NAPI %u from its network namespace: "
				  "%d instances, id %u (%m)", s.id, here.count, here.id);
	}
	/* The side the fix is about: from another network namespace, none. */
	pid = ns_clone(CLONE_NEWNET);
	if (pid < 0)
		return child_fail("a child in a new network namespace: %m");
	if (pid == 0)
		_exit(other_netns_worker(family, s.id));
	err = ns_wait(pid, NS_WAIT_MS);
	return err ? child_fail("the child in the new network namespace: %d", err) : 0;
}

/*
 * NETDEV_CMD_NAPI_GET (Documentation/netlink/specs/netdev.yaml,
 * "napi-get") answers for the NAPI instances of the caller's network
 * namespace: a NAPI id of another namespace is refused with ENOENT (fix
 * "netdev: prevent accessing NAPI instances from another namespace",
 * linux:d1cacd747768, Debian 6.12.10: before it any instance could be
 * read by its id).  The NAPI instance of a veth with GRO on, asked for by
 * id from a new network namespace: ENOENT.  Both sides: the same request
 * from its own namespace gives it.
 */
TEST(napi_of_other_netns_enoent)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET | CLONE_NEWNS, napi_netns_worker, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NO_VETH);
	NS_NEED_ENV(rc != NO_NAPI_GET, NS_WHY_FEATURE, "NETDEV_CMD_NAPI_GET", "6.8");
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
