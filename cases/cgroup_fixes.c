// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for cgroup-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsconform.h"
#include "cgroup.h"
#include "kselftest_harness.h"

/*
 * A v1 hierarchy of a controller whose root cgroup we are in (where its
 * release_agent file is), in @m; false when there is none.
 */
static bool v1_at_root(struct cgns_mount *m)
{
	struct cgns_mount all[CGNS_MOUNTS_MAX];
	char path[CGNS_PATH_MAX];
	int n = cgns_mounts(0, NULL, all, CGNS_MOUNTS_MAX), i;

	for (i = 0; i < n; i++) {
		if (!all[i].ctrl[0] || strncmp(all[i].ctrl, "name=", 5) == 0 ||
		    strcmp(all[i].root, "/") || cgns_path(0, all[i].ctrl, path) ||
		    strcmp(path, "/"))
			continue;
		*m = all[i];
		return true;
	}
	return false;
}

static int release_agent_worker(void *arg)
{
	const struct cgns_mount *m = arg;
	char agent[4096] = "", mounted[4096] = "";
	int fd, n, err;

	/* What the hierarchy's release_agent holds now: written back unchanged below. */
	snprintf(mounted, sizeof(mounted), "%s/release_agent", m->point);
	if (ns_read_file(mounted, agent, sizeof(agent)) < 0)
		return child_fail("read %s: %m", mounted);
	err = ns_unshare_userns_root(CLONE_NEWNS | CLONE_NEWCGROUP);
	if (err)
		return child_fail("unshare a user, mount and cgroup namespace: %m");
	if (ns_private_tmp(NULL))
		return 1;
	if (mkdir("/tmp/cg", 0755))
		return child_fail("mkdir /tmp/cg: %m");
	if (mount("cgroup", "/tmp/cg", "cgroup", 0, m->ctrl))
		return child_fail("mount the %s hierarchy as root of a user namespace: %m",
				  m->ctrl);
	/* The side the fix leaves alone: root of the user namespace reads the file. */
	if (ns_read_file("/tmp/cg/release_agent", mounted, sizeof(mounted)) < 0)
		return child_fail("read release_agent in the namespace's mount: %m");
	if (strcmp(mounted, agent))
		return child_fail("release_agent reads \"%s\" inside, \"%s\" outside", mounted,
				  agent);
	/* The side the fix is about: writing it (the same value: nothing changes). */
	fd = open("/tmp/cg/release_agent", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open release_agent for writing: %m");
	n = write(fd, agent[0] ? agent : "\n", agent[0] ? strlen(agent) : 1);
	close(fd);
	if (n >= 0)
		return child_fail("root of a user namespace wrote release_agent of %s", m->ctrl);
	if (errno != EPERM)
		return child_fail("write release_agent: %m, expected EPERM");
	return 0;
}

/*
 * release_agent, the program run when a cgroup v1 hierarchy's cgroup
 * empties, runs with full privileges in the initial namespaces
 * (cgroups(7) "Release notification"), so only CAP_SYS_ADMIN in the initial
 * user namespace may set it: root of a user namespace that mounted the
 * hierarchy in its own cgroup namespace gets EPERM (fix linux:24f600856418
 * "cgroup-v1: Require capabilities to set release_agent", CVE-2022-0492,
 * Debian 5.10.103: before it the write took).  Both sides: the file reads
 * the host's value there.  It needs a v1 controller hierarchy whose root
 * cgroup we are in, where the file is, and real root mapped to root of the
 * user namespace: the file is global root's, mode 0644, so anyone else is
 * refused the open (EACCES) before the capability check.
 */
TEST(release_agent_from_userns_eperm)
{
	struct cgns_mount m;

	NS_NEED_TYPE("cgroup");
	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED_ENV(v1_at_root(&m), NS_WHY_NO_CGROUP_V1);
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, release_agent_worker, &m));
}

TEST_HARNESS_MAIN
