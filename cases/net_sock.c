// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces, the socket side: per-namespace ports, abstract Unix
 * socket names (pathname ones cross namespaces), /proc/sys/net settings,
 * privileged ports in a namespace owned by an unprivileged user namespace,
 * and setns(2) changing what new sockets see.  network_namespaces(7),
 * unix(7), setns(2), the article's "Network namespaces" paragraph.
 * Devices, addresses, routes and veth pairs (netlink, libnl) are in net.c.
 *
 * Everything that changes state runs in a child that first checked it is
 * in a network namespace other than the test's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

#define PORT_START "/proc/sys/net/ipv4/ip_unprivileged_port_start"
#define IP_FORWARD "/proc/sys/net/ipv4/ip_forward"

static bool ns_differ(pid_t a, pid_t b)
{
	struct ns_ident ia, ib;

	if (ns_ident_of(a, "net", &ia) || ns_ident_of(b, "net", &ib))
		return false;
	return !ns_ident_eq(&ia, &ib);
}

/* --- ports ----------------------------------------------------------------- */

static int listen_fd = -1;

/* lo up, listen on 127.0.0.1:80, and show a second bind there collides. */
static int listen_80(void *arg)
{
	int err, again;

	(void)arg;
	err = netns_lo_up();
	if (err)
		return child_fail("bringing lo up: %s", strerror(-err));
	listen_fd = tcp_listen_on("127.0.0.1", 80);
	if (listen_fd < 0)
		return child_fail("listen on 127.0.0.1:80: %s", strerror(-listen_fd));
	again = tcp_listen_on("127.0.0.1", 80);
	if (again != -EADDRINUSE)
		return child_fail("second bind of 127.0.0.1:80 in one netns: %s, not EADDRINUSE",
				  again < 0 ? strerror(-again) : "succeeded");
	return 0;
}

/* Connect to 127.0.0.1:80 and check that our own listener answers, once. */
static int connect_own_listener(void *arg)
{
	struct pollfd pfd = { .fd = listen_fd, .events = POLLIN };
	pid_t me = getpid(), got = 0;
	int c, s;

	(void)arg;
	c = tcp_connect_to("127.0.0.1", 80);
	if (c < 0)
		return child_fail("connect 127.0.0.1:80: %s", strerror(-c));
	if (poll(&pfd, 1, NS_WAIT_MS) != 1)
		return child_fail("own listener got no connection");
	s = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0)
		return child_fail("accept: %m");
	if (write(s, &me, sizeof(me)) != sizeof(me) || read(c, &got, sizeof(got)) != sizeof(got))
		return child_fail("exchanging the tag: %m");
	if (got != me)
		return child_fail("answered by listener %d, not by own %d", got, me);
	fcntl(listen_fd, F_SETFL, O_NONBLOCK);
	if (accept(listen_fd, NULL, NULL) >= 0 || errno != EAGAIN)
		return child_fail("own listener has a second connection");
	return 0;
}

/*
 * The same address and port are bound in two namespaces at once (network_namespaces(7), article:
 * two web servers on port 80).
 */
TEST(same_port_bound_in_two_netns_at_once)
{
	struct ns_holder a = { .flags = CLONE_NEWNET, .setup = listen_80 };
	struct ns_holder b = { .flags = CLONE_NEWNET, .setup = listen_80 };

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_EQ(0, ns_holder_begin(&b));
	EXPECT_TRUE(ns_differ(a.pid, b.pid));
	EXPECT_TRUE(ns_differ(a.pid, 0));
	EXPECT_TRUE(ns_differ(b.pid, 0));
	/* Seen from outside: each namespace's own /proc/PID/net/tcp lists a listener. */
	EXPECT_EQ(1, proc_net_tcp_listens(a.pid, 80));
	EXPECT_EQ(1, proc_net_tcp_listens(b.pid, 80));
	EXPECT_EQ(0, ns_holder_stop(&a));
	EXPECT_EQ(0, ns_holder_stop(&b));
}

/*
 * A connection made in one namespace reaches only that namespace's listener (network_namespaces(7):
 * port numbers are per namespace).
 */
TEST(connection_reaches_only_own_listener)
{
	struct ns_holder a = {
		.flags = CLONE_NEWNET, .setup = listen_80, .release = connect_own_listener,
	};
	struct ns_holder b = {
		.flags = CLONE_NEWNET, .setup = listen_80, .release = connect_own_listener,
	};

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_EQ(0, ns_holder_begin(&b));
	/* Released together: both connect while both listeners exist. */
	EXPECT_EQ(0, ns_holder_stop(&a));
	EXPECT_EQ(0, ns_holder_stop(&b));
}

static int connect_refused(void *arg)
{
	int err, c;

	if (!netns_is_not(arg))
		return child_fail("in the listener's network namespace");
	err = netns_lo_up();
	if (err)
		return child_fail("bringing lo up: %s", strerror(-err));
	c = tcp_connect_to("127.0.0.1", 80);
	if (c != -ECONNREFUSED)
		return child_fail("connect 127.0.0.1:80 from another netns: %s, not ECONNREFUSED",
				  c < 0 ? strerror(-c) : "connected");
	return 0;
}

/* A listener is not reachable from another namespace's loopback (network_namespaces(7)). */
TEST(listener_unreachable_from_another_netns)
{
	struct ns_holder a = {
		.flags = CLONE_NEWNET, .setup = listen_80, .release = connect_own_listener,
	};
	struct ns_ident a_net;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_EQ(0, ns_ident_of(a.pid, "net", &a_net));
	EXPECT_EQ(0, ns_run_admin(CLONE_NEWNET, connect_refused, &a_net));
	/* ... while inside its own namespace it is still there. */
	EXPECT_EQ(0, ns_holder_stop(&a));
}

/* --- abstract Unix sockets ------------------------------------------------- */

static char abstract_name[64];

static void set_abstract_name(void)
{
	snprintf(abstract_name, sizeof(abstract_name), "nsconform-net-%d", getpid());
}

/* Bind the abstract name and show a second bind in the same netns collides. */
static int bind_abstract(void *arg)
{
	int again;

	(void)arg;
	listen_fd = unix_abstract_listen(abstract_name);
	if (listen_fd < 0)
		return child_fail("bind @%s: %s", abstract_name, strerror(-listen_fd));
	again = unix_abstract_listen(abstract_name);
	if (again != -EADDRINUSE)
		return child_fail("second bind of @%s in one netns: %s, not EADDRINUSE",
				  abstract_name, again < 0 ? strerror(-again) : "succeeded");
	return 0;
}

static int connect_abstract(void *arg)
{
	int c, s;

	(void)arg;
	c = unix_abstract_connect(abstract_name);
	if (c < 0)
		return child_fail("connect @%s in its own netns: %s", abstract_name, strerror(-c));
	s = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (s < 0)
		return child_fail("accept: %m");
	return 0;
}

/*
 * One abstract Unix socket name is bound in two namespaces at once (network_namespaces(7),
 * unix(7)).
 */
TEST(abstract_unix_name_bound_in_two_netns_at_once)
{
	struct ns_holder a = { .flags = CLONE_NEWNET, .setup = bind_abstract };
	struct ns_holder b = { .flags = CLONE_NEWNET, .setup = bind_abstract };

	NS_NEED_ADMIN_OR_USERNS();

	set_abstract_name();
	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_EQ(0, ns_holder_begin(&b));
	EXPECT_TRUE(ns_differ(a.pid, b.pid));
	EXPECT_EQ(1, proc_net_unix_has(a.pid, abstract_name));
	EXPECT_EQ(1, proc_net_unix_has(b.pid, abstract_name));
	EXPECT_EQ(0, proc_net_unix_has(0, abstract_name));
	EXPECT_EQ(0, ns_holder_stop(&a));
	EXPECT_EQ(0, ns_holder_stop(&b));
}

/*
 * An abstract name bound in one namespace cannot be connected to from another
 * (network_namespaces(7), unix(7)).
 */
TEST(abstract_unix_name_unreachable_from_another_netns)
{
	struct ns_holder a = {
		.flags = CLONE_NEWNET, .setup = bind_abstract, .release = connect_abstract,
	};
	int c;

	NS_NEED_ADMIN_OR_USERNS();

	set_abstract_name();
	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_TRUE(ns_differ(a.pid, 0));
	c = unix_abstract_connect(abstract_name);
	EXPECT_EQ(-ECONNREFUSED, c);
	if (c >= 0)
		close(c);
	EXPECT_EQ(0, ns_holder_stop(&a));
}

/* --- /proc/sys/net ----------------------------------------------------------- */

static int flip_ip_forward(void *arg)
{
	long v, now = -1;
	int err;

	(void)arg;
	if (ns_read_long(IP_FORWARD, &v))
		return child_fail("read " IP_FORWARD ": %m");
	err = ns_write_long(IP_FORWARD, !v);
	if (err)
		return child_fail("write " IP_FORWARD ": %s", strerror(-err));
	if (ns_read_long(IP_FORWARD, &now) || now != !v)
		return child_fail(IP_FORWARD " reads %ld after writing %d", now, !v);
	return 0;
}

/*
 * net.ipv4.ip_forward changed inside a namespace is unchanged outside (network_namespaces(7):
 * /proc/sys/net is per namespace).
 */
TEST(ip_forward_change_inside_not_seen_outside)
{
	struct ns_holder a = { .flags = CLONE_NEWNET, .setup = flip_ip_forward };
	long before, after;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_read_long(IP_FORWARD, &before));
	ASSERT_EQ(0, ns_holder_begin(&a));
	/* Read while the changed namespace is alive. */
	ASSERT_EQ(0, ns_read_long(IP_FORWARD, &after));
	EXPECT_EQ(before, after);
	EXPECT_EQ(0, ns_holder_stop(&a));
}

/* Lower ip_unprivileged_port_start to 80, drop CAP_NET_BIND_SERVICE, bind. */
static int lowered_port_start_binds_80(void *arg)
{
	long now = 0;
	int err, s;

	(void)arg;
	err = ns_write_long(PORT_START, 80);
	if (err)
		return child_fail("write " PORT_START ": %s", strerror(-err));
	if (ns_read_long(PORT_START, &now) || now != 80)
		return child_fail(PORT_START " reads %ld after writing 80", now);
	err = ns_cap_set(CAP_NET_BIND_SERVICE, CAP_EFFECTIVE, false);
	if (err)
		return child_fail("dropping CAP_NET_BIND_SERVICE: %s", strerror(-err));
	s = tcp_bind_any(80);
	if (s < 0)
		return child_fail("bind port 80 with start 80: %s", strerror(-s));
	s = tcp_bind_any(79);
	if (s != -EACCES)
		return child_fail("bind port 79 with start 80: %s, not EACCES",
				  s < 0 ? strerror(-s) : "succeeded");
	return 0;
}

/* In a second new namespace the default holds: port 80 is privileged. */
static int default_port_start_refuses_80(void *arg)
{
	long now = 0;
	int err, s;

	if (!netns_is_not(arg))
		return child_fail("still in the test's network namespace");
	if (ns_read_long(PORT_START, &now) || now <= 80)
		return child_fail(PORT_START " is %ld in a fresh netns", now);
	err = ns_cap_set(CAP_NET_BIND_SERVICE, CAP_EFFECTIVE, false);
	if (err)
		return child_fail("dropping CAP_NET_BIND_SERVICE: %s", strerror(-err));
	s = tcp_bind_any(80);
	if (s != -EACCES)
		return child_fail("bind port 80 with start %ld: %s, not EACCES",
				  now, s < 0 ? strerror(-s) : "succeeded");
	return 0;
}

/*
 * net.ipv4.ip_unprivileged_port_start is per namespace and governs binds only there
 * (network_namespaces(7), ip(7)).
 */
TEST(unprivileged_port_start_is_per_netns)
{
	struct ns_holder a = { .flags = CLONE_NEWNET, .setup = lowered_port_start_binds_80 };
	struct ns_ident outer;
	long before, after;

	NS_NEED_ADMIN_OR_USERNS();

	NS_NEED(NS_F_UNPRIV_PORT_START);
	ASSERT_EQ(0, ns_read_long(PORT_START, &before));
	ASSERT_EQ(0, ns_ident_of(0, "net", &outer));
	ASSERT_EQ(0, ns_holder_begin(&a));
	ASSERT_EQ(0, ns_read_long(PORT_START, &after));
	EXPECT_EQ(before, after);
	EXPECT_EQ(0, ns_run_admin(CLONE_NEWNET, default_port_start_refuses_80, &outer));
	EXPECT_EQ(0, ns_holder_stop(&a));
}

/* --- port 80 in a namespace owned by an unprivileged user namespace ------- */

static int port_80_as_nobody(struct ns_sync *sync)
{
	struct ns_ident user0, net0;
	int s;

	ns_sync_child_side(sync);
	if (geteuid() == 0 && ns_drop_privileges(ns_nobody_uid(), ns_nobody_gid()))
		return child_fail("cannot drop privileges: %m");
	if (ns_cap_effective(CAP_NET_BIND_SERVICE))
		return child_fail("still has CAP_NET_BIND_SERVICE");
	s = tcp_bind_any(80);
	if (s != -EACCES)
		return child_fail("unprivileged bind of port 80 outside: %s, not EACCES",
				  s < 0 ? strerror(-s) : "succeeded");
	if (ns_ident_of(0, "user", &user0) || ns_ident_of(0, "net", &net0))
		return child_fail("ns_ident_of: %m");
	s = ns_unshare_userns_root(CLONE_NEWNET);
	if (s)
		return child_fail("unshare(CLONE_NEWUSER|CLONE_NEWNET): %s", strerror(-s));
	if (!netns_is_not(&net0))
		return child_fail("network namespace unchanged by unshare");
	if (ns_ident_of(0, "user", &net0) || ns_ident_eq(&net0, &user0))
		return child_fail("user namespace unchanged by unshare");
	s = tcp_bind_any(80);
	if (s < 0)
		return child_fail("bind port 80 in the new netns: %s", strerror(-s));
	if (listen(s, 1))
		return child_fail("listen: %m");
	if (ns_sync_tell(sync, true, NULL, 0) || ns_sync_wait(sync, true, NULL, 1, NS_WAIT_MS))
		return child_fail("sync with the parent failed");
	return 0;
}

/*
 * Port 80 binds in a netns owned by an unprivileged user's user namespace, not in the parent's for
 * the same user (user_namespaces(7), network_namespaces(7)).
 */
TEST(port_80_binds_in_own_userns_netns_not_outside)
{
	struct ns_sync sync;
	long start;
	pid_t pid;

	NS_NEED_UNPRIV_USERNS();
	NS_NEED_ENV(ns_read_long(PORT_START, &start) || start > 80, NS_WHY_PORT_80_UNPRIVILEGED,
		    start);
	pid = ns_clone_synced(ns_clone, 0, &sync);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(port_80_as_nobody(&sync));
	if (ns_sync_wait(&sync, false, NULL, 1, NS_WAIT_MS) == 0) {
		/* Outside view: the child's own namespace has the listener. */
		EXPECT_TRUE(ns_differ(pid, 0));
		EXPECT_EQ(1, proc_net_tcp_listens(pid, 80));
		ns_sync_tell(&sync, false, NULL, 0);
	}
	ns_sync_close(&sync);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
}

/* --- setns --------------------------------------------------------------- */

static int lo_up_with_mtu(void *arg)
{
	int err = netns_lo_up();

	if (err)
		return child_fail("bringing lo up: %s", strerror(-err));
	err = netdev_set_mtu("lo", *(int *)arg);
	if (err)
		return child_fail("setting lo's mtu to %d: %s", *(int *)arg, strerror(-err));
	return 0;
}

static int sock_lo_mtu(int s, int *mtu)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFMTU, &ifr))
		return -1;
	*mtu = ifr.ifr_mtu;
	return 0;
}

struct joiner {
	pid_t holder;
	int old_mtu, new_mtu;
};

static int join_and_look(struct joiner *j)
{
	int userfd, netfd, old, new, mtu = 0;
	struct stat st;
	struct ns_ident now;

	if (!ns_have_sys_admin()) {
		userfd = ns_open(j->holder, "user");
		if (userfd < 0 || setns(userfd, CLONE_NEWUSER))
			return child_fail("joining the holder's user namespace: %m");
	}
	netfd = ns_open(j->holder, "net");
	old = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (netfd < 0 || old < 0 || fstat(netfd, &st))
		return child_fail("open: %m");
	if (setns(netfd, CLONE_NEWNET))
		return child_fail("setns(CLONE_NEWNET): %m");
	if (ns_ident_of(0, "net", &now) || now.ino != st.st_ino || now.dev != st.st_dev)
		return child_fail("not in the holder's netns after setns");
	new = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (new < 0 || sock_lo_mtu(new, &mtu))
		return child_fail("SIOCGIFMTU on a new socket: %m");
	if (mtu != j->new_mtu)
		return child_fail("new socket sees lo mtu %d, not the joined %d", mtu, j->new_mtu);
	if (proc_net_dev_count(0) != 1 || proc_net_dev_has(0, "lo") != 1)
		return child_fail("/proc/self/net/dev does not list only lo after setns");
	if (sock_lo_mtu(old, &mtu))
		return child_fail("SIOCGIFMTU on the old socket: %m");
	if (mtu != j->old_mtu)
		return child_fail("old socket sees lo mtu %d, not its own netns's %d",
				  mtu, j->old_mtu);
	return 0;
}

/*
 * After setns(2) to another netns new sockets see its devices, old ones keep their own (setns(2),
 * network_namespaces(7)).
 */
TEST(setns_changes_devices_new_sockets_see)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = lo_up_with_mtu };
	struct joiner j;
	pid_t pid;

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, netdev_mtu("lo", &j.old_mtu));
	j.new_mtu = 1280 + getpid() % 1000;
	if (j.new_mtu == j.old_mtu)
		j.new_mtu++;
	h.arg = &j.new_mtu;
	ASSERT_EQ(0, ns_holder_begin(&h));
	j.holder = h.pid;
	pid = ns_clone(0);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(join_and_look(&j));
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	/* The test's own view is untouched. */
	ASSERT_EQ(0, netdev_mtu("lo", &j.new_mtu));
	EXPECT_EQ(j.old_mtu, j.new_mtu);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

static int setns_unprivileged(void *arg)
{
	struct ns_ident before;
	int fd;

	fd = ns_open(*(pid_t *)arg, "net");
	if (fd < 0 || ns_ident_of(0, "net", &before))
		return child_fail("open the holder's netns: %m");
	if (geteuid() == 0 && ns_drop_privileges(ns_nobody_uid(), ns_nobody_gid()))
		return child_fail("cannot drop privileges: %m");
	if (setns(fd, CLONE_NEWNET) == 0)
		return child_fail("setns into a netns whose owner we have no caps in succeeded");
	if (errno != EPERM)
		return child_fail("setns: %m, not EPERM");
	if (netns_is_not(&before))
		return child_fail("network namespace changed by a failed setns");
	return 0;
}

/*
 * setns(2) into a netns needs CAP_SYS_ADMIN in its owning user namespace (setns(2)): EPERM
 * otherwise.
 */
TEST(setns_into_netns_needs_caps_in_its_owner)
{
	struct ns_holder h = { .flags = CLONE_NEWNET, .setup = lo_up_with_mtu };
	int mtu = 1500;

	NS_NEED_USERNS();

	h.arg = &mtu;
	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(0, ns_run(0, setns_unprivileged, &h.pid));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

struct path_rec {
	char path[100];			/* the socket file, on a tmpfs of the test */
	int connected;			/* -errno of connect() from the other netns */
	int got;			/* the byte the listener read */
	int listed_here, listed_there;	/* /proc/net/unix of either netns lists it */
};

static int connect_path_from_other_netns(void *arg)
{
	struct path_rec *r = arg;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", r->path);
	if (c < 0)
		return child_fail("socket: %m");
	/* before connecting: the embryo socket connect() makes is the client's netns's */
	r->listed_there = proc_net_unix_has(0, r->path);
	r->connected = connect(c, (struct sockaddr *)&sun, sizeof(sun)) ? -errno : 0;
	if (!r->connected && write(c, "x", 1) != 1)
		return child_fail("write: %m");
	close(c);
	return 0;
}

static int pathname_across(void *arg)
{
	struct path_rec *r = arg;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct mnt_base b;
	char byte = 0;
	int l, s, rc;

	if (mnt_base_enter(&b))
		return child_fail("%s", b.why);
	snprintf(r->path, sizeof(r->path), "%s/sock", b.dir);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", r->path);
	l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sun, sizeof(sun)) || listen(l, 4))
		return child_fail("bind %s: %m", r->path);
	r->listed_here = proc_net_unix_has(0, r->path);
	rc = ns_run(CLONE_NEWNET, connect_path_from_other_netns, r);
	if (rc)
		return child_fail("the client in a second netns: %d", rc);
	if (r->connected)
		return 0;
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0 || read(s, &byte, 1) != 1)
		return child_fail("accept/read: %m");
	r->got = byte;
	return 0;
}

/*
 * A pathname Unix socket is reached through the file system from any netns: only the abstract
 * socket namespace is per netns (network_namespaces(7), unix(7)).
 *
 * A listener bound to a file in netns A takes a connection from a process
 * in netns B and reads its byte; /proc/net/unix lists the listener in A
 * only.
 */
TEST(pathname_unix_socket_reachable_from_another_netns)
{
	struct path_rec *r = ns_shared_page(1 << 16);

	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	r->connected = r->listed_here = r->listed_there = -1;
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNET, pathname_across, r));
	EXPECT_EQ(0, r->connected) TH_LOG("connect: %s", strerror(-r->connected));
	EXPECT_EQ('x', r->got);
	EXPECT_EQ(1, r->listed_here);
	EXPECT_EQ(0, r->listed_there);
}

/* Bind INADDR_ANY:@port and close: 0, or -errno. */
static int binds(int port)
{
	int s = tcp_bind_any(port);

	if (s < 0)
		return s;
	close(s);
	return 0;
}

static int ports_follow_netns_owner(void *arg)
{
	struct ns_ident net1;
	long start = 0;
	int err;

	(void)arg;
	err = ns_unshare_userns_root(CLONE_NEWNET);
	if (err)
		return child_fail("unshare(CLONE_NEWUSER|CLONE_NEWNET): %s", strerror(-err));
	if (ns_read_long(PORT_START, &start) || start != 1024)
		return child_fail(PORT_START " is %ld in a new netns, expected 1024", start);
	/* Root of U1 in N1, which U1 owns: port 1023 binds. */
	err = binds(1023);
	if (err)
		return child_fail("root of the owner binds port 1023: %s", strerror(-err));
	if (ns_ident_of(0, "net", &net1))
		return child_fail("ns_ident_of(net): %m");
	/* Root of U2, a child of U1, every capability in U2, still in N1. */
	err = ns_unshare_userns_root(0);
	if (err)
		return child_fail("unshare(CLONE_NEWUSER) inside: %s", strerror(-err));
	err = binds(1023);
	if (err != -EACCES)
		return child_fail("root of a child user namespace binds port 1023 in its parent's "
				  "netns: %s, expected EACCES", err ? strerror(-err) : "bound");
	err = binds(1024);
	if (err)
		return child_fail("the same binds port 1024: %s", strerror(-err));
	/* N2, owned by U2: the same process binds port 1023 there. */
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET) as root of U2: %m");
	if (!netns_is_not(&net1))
		return child_fail("network namespace unchanged by unshare");
	err = binds(1023);
	if (err)
		return child_fail("root of U2 binds port 1023 in the netns U2 owns: %s",
				  strerror(-err));
	return 0;
}

/*
 * Binding a port below ip_unprivileged_port_start (1024 in a new netns) needs
 * CAP_NET_BIND_SERVICE in the user namespace that owns the network namespace:
 * root of a child user namespace, with every capability there, is refused
 * with EACCES in its parent's netns and binds in a netns of its own
 * (user_namespaces(7) "Interaction of user namespaces and other types of
 * namespaces", ip(7) ip_unprivileged_port_start).
 */
TEST(privileged_port_needs_cap_in_netns_owner)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, ports_follow_netns_owner, NULL));
}

TEST_HARNESS_MAIN
