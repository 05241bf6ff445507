// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces and veth(4) pairs: one end moved to another
 * namespace (by namespace fd or by process ID), traffic across,
 * per-namespace device names, what a dying namespace takes with it, and
 * the loopback device that cannot move.
 * network_namespaces(7), veth(4).  Netlink through libnl-route-3
 * (fixtures/net_route.h).  veth is a module in Debian kernels: creating one
 * answers EOPNOTSUPP when the driver is absent, and the tests SKIP.
 *
 * Every change happens in namespaces the test created: the holder child
 * checked it is in a new one, and two_ns_make() checks the second.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "net_route.h"
#include "kselftest_harness.h"

#define ADDR_A "10.199.0.1"
#define ADDR_B "10.199.0.2"

/* --- two namespaces in one process --------------------------------------- */

/*
 * The holder child's first namespace A (made by an ns_holder) and a second
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
		return NS_CHILD_SKIP;
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
	uint64_t rx0 = link_rx_packets(tn.sk[1], tn.vb);
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
	if (link_rx_packets(tn.sk[1], tn.vb) <= rx0)
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
	int rc_ = ns_holder_begin(h);				\
	if (rc_ == NS_CHILD_SKIP) {					\
		ns_holder_stop(h);					\
		NS_FEATURE_ABSENT_(NS_F_VETH);				\
	}								\
	ASSERT_EQ(0, rc_);						\
} while (0)

/* --- veth pairs ------------------------------------------------------------ */

/*
 * A veth end moved to another netns vanishes from the source's device list (network_namespaces(7),
 * veth(4)).
 */
TEST(veth_end_moved_vanishes_from_source)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = veth_moved };
	struct nl_sock *sk = rt_open();
	char va[IFNAMSIZ], vb[IFNAMSIZ];

	NS_NEED_ADMIN_OR_USERNS();

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
	EXPECT_EQ(0, ns_holder_stop(&h));
	nl_socket_free(sk);
}

/*
 * UDP crosses a veth pair whose ends are in two namespaces (network_namespaces(7): veth as a
 * tunnel).
 */
TEST(veth_udp_crosses_namespaces)
{
	struct ns_holder h = {
		.flags = CLONE_NEWNET, .setup = veth_addressed, .release = udp_ping,
	};

	NS_NEED_ADMIN_OR_USERNS();

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/*
 * TCP connects across a veth pair to a listener in the other namespace (network_namespaces(7),
 * veth(4)).
 */
TEST(veth_tcp_crosses_namespaces)
{
	struct ns_holder h = {
		.flags = CLONE_NEWNET, .setup = veth_addressed, .release = tcp_exchange,
	};

	NS_NEED_ADMIN_OR_USERNS();

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, ns_holder_stop(&h));
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

/*
 * Device names are per namespace: a name in use in B can be created in A (network_namespaces(7)).
 */
TEST(device_name_reusable_in_another_netns)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = same_names };

	NS_NEED_ADMIN_OR_USERNS();

	START_VETH_HOLDER(&h);
	EXPECT_EQ(0, ns_holder_stop(&h));
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
		return NS_CHILD_SKIP;
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

/*
 * When a netns dies its veth end is destroyed and the peer in the other netns goes too
 * (network_namespaces(7), veth(4)).
 */
TEST(netns_death_destroys_veth_and_peer)
{
	struct ns_holder h = {
		.flags = CLONE_NEWNET, .setup = veth_to_dying_ns, .release = kill_b_and_watch,
	};
	char va[IFNAMSIZ];

	NS_NEED_ADMIN_OR_USERNS();

	START_VETH_HOLDER(&h);
	snprintf(va, sizeof(va), "nscA%d", h.pid);
	/* While B lives, A's end is there, seen from outside. */
	EXPECT_EQ(1, proc_net_dev_has(h.pid, va));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

static int move_lo(void *arg)
{
	int err;

	(void)arg;
	if (two_ns_make())
		return 1;
	err = link_move(tn.sk[0], "lo", tn.fd[1]);
	if (err != -NLE_INVAL)
		return child_fail("moving lo to B: %s, not EINVAL",
				  err ? nl_geterror(err) : "moved");
	if (expect_link(0, "lo", 1) || link_count(tn.sk[1]) != 1)
		return child_fail("lo moved or B gained a device");
	return 0;
}

/*
 * A namespace's loopback stays in it: moving lo to another netns fails with EINVAL
 * (network_namespaces(7), rtnetlink(7)).
 */
TEST(loopback_cannot_move_to_another_netns)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = move_lo };

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* The process whose netns the device goes to: pid of a child in a netns of its own. */
static int move_by_pid(void *arg)
{
	struct ns_holder b = { .flags = CLONE_NEWNET, .plain = true };
	char va[IFNAMSIZ], vb[IFNAMSIZ];
	struct nl_sock *sk = rt_open();
	int err, rc = 0;
	pid_t pid;

	(void)arg;
	if (!sk)
		return child_fail("rtnetlink socket: %m");
	snprintf(va, sizeof(va), "nspA%d", getpid());
	snprintf(vb, sizeof(vb), "nspB%d", getpid());
	err = veth_add(sk, va, vb);
	if (veth_missing(err))
		return NS_CHILD_SKIP;
	if (err)
		return child_fail("creating veth: %s", nl_geterror(err));
	if (ns_holder_begin(&b))
		return child_fail("a process in a netns of its own: %m");
	pid = b.pid;
	if (ns_same_as_self(pid, "net") != 0)
		rc = child_fail("the child is not in a netns of its own");
	err = rc ? 0 : link_move_to_pid(sk, vb, pid);
	if (err)
		rc = child_fail("moving %s to the netns of pid %d: %s", vb, pid, nl_geterror(err));
	if (!rc && (link_has(sk, vb) != 0 || link_has(sk, va) != 1))
		rc = child_fail("%s still here, or %s gone", vb, va);
	if (!rc && (proc_net_dev_has(pid, vb) != 1 || proc_net_dev_has(pid, va) != 0 ||
		    proc_net_dev_count(pid) != 2))
		rc = child_fail("the netns of pid %d does not list %s alone besides lo", pid, vb);
	ns_holder_stop(&b);
	return rc;
}

/*
 * A device moved with a process ID (IFLA_NET_NS_PID) lands in that process's netns (ip-link(8)
 * "netns NETNSNAME | PID").
 *
 * The veth end leaves the caller's netns and is listed, besides lo, in
 * /proc/PID/net/dev of the process named.
 */
TEST(device_moved_by_pid_lands_in_its_netns)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, move_by_pid, NULL);
	NS_NEED_FEATURE(NS_F_VETH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
