// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the generic netlink fix that made joining an
 * admin-only multicast group take CAP_NET_ADMIN over the socket's network
 * namespace (issue 27, item 2; the row of fixtures/data/fixes.tsv whose
 * test names this binary): the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone.  Plain netlink sockets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

/* An admin-only group (GENL_MCAST_CAP_NET_ADMIN) of a family Debian builds in. */
#define FAMILY "mptcp_pm"
#define GROUP "mptcp_pm_events"

/* Join group @gid on a new generic netlink socket: 0 or -errno. */
static int join(int gid)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC), err = 0;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &gid, sizeof(gid)))
		err = -errno;
	close(fd);
	return err;
}

/* Without capabilities: EPERM. */
static int unpriv_join(void *arg)
{
	int err = join(*(int *)arg);

	if (err == -EPERM)
		return 0;
	errno = -err;
	return child_fail("joining %s without CAP_NET_ADMIN: %s, expected EPERM", GROUP,
			  err ? strerror(-err) : "joined");
}

/* Root of the user namespace that owns our netns: joined. */
static int admin_join(void *arg)
{
	int err = join(*(int *)arg);

	if (!err)
		return 0;
	errno = -err;
	return child_fail("joining %s with CAP_NET_ADMIN over the netns: %m", GROUP);
}

/*
 * A generic netlink multicast group flagged GENL_MCAST_CAP_NET_ADMIN is
 * joined only with CAP_NET_ADMIN in the user namespace that owns the
 * socket's network namespace, else EPERM (linux:4d54cc32112d "genetlink:
 * add CAP_NET_ADMIN test for multicast bind", Debian 5.10.205; mptcp_pm's
 * event group is one, network_namespaces(7) for the owner rule).  Both
 * sides: root of a user namespace in a network namespace it owns joins.
 */
TEST(admin_multicast_group_needs_cap_net_admin)
{
	int gid = ns_genl_group(FAMILY, GROUP), rc;

	NS_NEED_ENV(gid != -ENOENT, NS_WHY_FEATURE_CONFIG, "the " GROUP " generic netlink group",
		    "CONFIG_MPTCP, 5.12 or later");
	ASSERT_LT(0, gid);
	ASSERT_EQ(0, ns_run_unpriv(unpriv_join, &gid));
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, admin_join, &gid);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
