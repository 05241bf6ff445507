// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the netlink nsid fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names
 * this binary): the fixed kernel's answer for the input that tells it from
 * the last kernel without the fixes, and the answer the fixes leave alone.
 * Plain rtnetlink sockets, so the binary needs no library beyond the
 * fixtures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* The id the second netns gives the test's netns. */
#define NSID_A 7

/* A link-event listener with NETLINK_LISTEN_ALL_NSID in the caller's netns, or -errno. */
static int all_nsid_listener(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	int one = 1, err;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_LISTEN_ALL_NSID, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* What one listener got: messages, those with a nsid cmsg, the last such nsid. */
struct got {
	int msgs, with_nsid, nsid;
};

/* Read what @fd gets within @ms (then 100 ms after each message) into @g. */
static void drain(int fd, int ms, struct got *g)
{
	char buf[8192], cbuf[CMSG_SPACE(sizeof(int)) * 4];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	memset(g, 0, sizeof(*g));
	while (poll(&p, 1, ms) > 0) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c;

		if (recvmsg(fd, &m, 0) < 0)
			break;
		g->msgs++;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_NETLINK &&
			    c->cmsg_type == NETLINK_LISTEN_ALL_NSID) {
				g->with_nsid++;
				memcpy(&g->nsid, CMSG_DATA(c), sizeof(int));
			}
		ms = 100;
	}
}

/* In the netns open as @nsfd: a listener, then back to @homefd; the listener or -errno. */
static int listener_in(int nsfd, int homefd)
{
	int fd;

	if (setns(nsfd, CLONE_NEWNET))
		return -errno;
	fd = all_nsid_listener();
	if (setns(homefd, CLONE_NEWNET))
		_exit(child_fail("setns() back to the test's netns: %m"));	/* not home: stop */
	return fd;
}

static int nsid_order_worker(void *arg)
{
	int afd, bfd, there1 = -1, here = -1, there2 = -1, rc = 1, err;
	struct got g1, g2, gh;
	struct ns_holder b;

	(void)arg;
	if (ns_holder_start(&b, CLONE_NEWNET, NULL, NULL))
		return child_fail("a holder of a second network namespace");
	afd = ns_open(0, "net");
	bfd = ns_open(b.pid, "net");
	if (afd < 0 || bfd < 0) {
		child_fail("open the network namespaces");
		goto out;
	}
	/*
	 * A listener in the second netns bound first and one bound last, the
	 * local one between them: whichever end of the list the kernel
	 * delivers from, a remote listener with an nsid comes first and the
	 * local one after it.
	 */
	there1 = listener_in(bfd, afd);
	here = all_nsid_listener();
	there2 = listener_in(bfd, afd);
	if (there1 < 0 || here < 0 || there2 < 0) {
		child_fail("listeners: second netns %d and %d, here %d", there1, there2, here);
		goto out;
	}
	if (setns(bfd, CLONE_NEWNET)) {
		child_fail("setns() to the second netns: %m");
		goto out;
	}
	err = ns_nsid_assign(afd, NSID_A);
	if (setns(afd, CLONE_NEWNET))
		_exit(child_fail("setns() back to the test's netns: %m"));
	if (err) {
		errno = -err;
		child_fail("in the second netns, id %d for ours: %m", NSID_A);
		goto out;
	}
	err = netns_lo_up();
	if (err) {
		errno = -err;
		child_fail("set lo up: %m");
		goto out;
	}
	drain(there1, 2000, &g1);
	drain(there2, 2000, &g2);
	drain(here, 2000, &gh);
	/* The side the fixes leave alone: a listener elsewhere learns the source's id. */
	if (g1.msgs < 1 || g1.with_nsid != g1.msgs || g1.nsid != NSID_A ||
	    g2.msgs < 1 || g2.with_nsid != g2.msgs || g2.nsid != NSID_A) {
		child_fail("the second netns' listeners: %d and %d messages, %d and %d with an "
			   "nsid (last %d and %d), expected all with %d", g1.msgs, g2.msgs,
			   g1.with_nsid, g2.with_nsid, g1.nsid, g2.nsid, NSID_A);
		goto out;
	}
	/* The side the fixes are about: the local listener, delivered to after them. */
	if (gh.msgs < 1 || gh.with_nsid) {
		child_fail("the local listener: %d messages, %d with an nsid (last %d), "
			   "expected none with one", gh.msgs, gh.with_nsid, gh.nsid);
		goto out;
	}
	rc = 0;
out:
	if (there1 >= 0)
		close(there1);
	if (there2 >= 0)
		close(there2);
	if (here >= 0)
		close(here);
	if (afd >= 0)
		close(afd);
	if (bfd >= 0)
		close(bfd);
	ns_holder_stop(&b);
	return rc;
}

/*
 * A NETLINK_LISTEN_ALL_NSID listener learns where a notification came from
 * by a NETLINK_LISTEN_ALL_NSID control message holding the id its netns
 * gives the source netns; a notification of its own netns, which has no
 * such id, carries none (linux:59324cf35aba "netlink: allow to listen
 * "all" netns"), whatever listeners elsewhere got first.  The broadcast
 * reuses one buffer while it is not shared, so the first listener's id
 * stayed on it: fixes linux:70f8592ee905 "net: netlink: fix sending
 * unassigned nsid after assigned one" and "net: netlink: don't set nsid on
 * local notifications", both Debian 5.10.259, 6.1.176 and 6.12.94 (before
 * them the local listener got the other netns' id, or -1).  Both sides:
 * the listeners in the other netns get the id it has for ours.
 */
TEST(local_listener_after_remote_one_gets_no_nsid)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, nsid_order_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
