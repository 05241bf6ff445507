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
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
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

/* --- cgroup.procs written through a file opened in another cgroup namespace */

struct procs_req {
	char a[CGNS_PATH_MAX + 24], b[CGNS_PATH_MAX + 24];
	int sock;		/* where the holder sends its fd */
};

/* The holder: in a, a cgroup namespace rooted there, b's cgroup.procs open. */
static int procs_opener(void *arg)
{
	struct procs_req *r = arg;
	char path[CGNS_PATH_MAX + 48];
	int fd, err;

	err = cgns_enter(r->a);
	if (err) {
		errno = -err;
		return child_fail("enter a: %m");
	}
	err = ns_unshare_admin(CLONE_NEWCGROUP);
	if (err) {
		errno = -err;
		return child_fail("unshare(CLONE_NEWCGROUP) in a: %m");
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", r->b);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open %s from the namespace rooted at a: %m", path);
	err = ns_send_fd(r->sock, fd);
	close(fd);
	return err ? child_fail("send the cgroup.procs fd: %m") : 0;
}

/* true when @pid's v2 cgroup path ends in "/@leaf". */
static bool in_leaf(pid_t pid, const char *leaf)
{
	char path[CGNS_PATH_MAX];
	size_t n = strlen(leaf), len;

	if (cgns_path(pid, "", path))
		return false;
	len = strlen(path);
	return len > n && path[len - n - 1] == '/' && !strcmp(path + len - n, leaf);
}

/*
 * With the nsdelegate mount option a cgroup namespace is a delegation
 * boundary: writing a pid to cgroup.procs is refused with ENOENT unless
 * the source and the destination cgroup are both inside the namespace's
 * root (Documentation/admin-guide/cgroup-v2.rst "Delegation Containment"),
 * and the namespace that counts is the one of the process that opened the
 * file, not the writer's (fix "cgroup: Use open-time cgroup namespace for
 * process migration perm checks", linux:e57457641613, Debian 5.10.113:
 * before it the writer's namespace decided, so a file opened inside a
 * namespace could move processes outside it when written by a process
 * outside).  A holder in a/ with a cgroup namespace rooted there opens
 * b/cgroup.procs; we, in the namespace above, write the holder's pid to
 * it: ENOENT, the holder stays in a/.  Both sides: the same write through
 * b/cgroup.procs opened by us moves it.
 */
TEST(procs_write_checked_in_openers_cgroupns)
{
	struct procs_req *r = calloc(1, sizeof(*r));
	struct ns_holder h = { .plain = true, .setup = procs_opener, .arg = r };
	struct timeval tv = { .tv_sec = NS_WAIT_MS / 1000 };
	struct cgns_mount m[CGNS_MOUNTS_MAX];
	char dir[CGNS_PATH_MAX], base[CGNS_PATH_MAX + 16], pid[16];
	int n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX), i, sv[2], fd, err, own, rc;

	NS_NEED_TYPE("cgroup");
	ASSERT_NE(NULL, r);
	for (i = 0; i < n && m[i].ctrl[0]; i++)
		;
	NS_NEED_ENV(i < n && !cgns_dir(&m[i], dir), NS_WHY_NO_CGROUP2);
	NS_NEED_ENV(cgns_v2_nsdelegate(), NS_WHY_NO_NSDELEGATE);
	NS_NEED_ENV(!access(dir, W_OK), NS_WHY_CGROUP_NO_WRITE);
	NS_NEED_ADMIN_OR_USERNS();
	snprintf(base, sizeof(base), "%s/nsc-%d", dir, getpid());
	snprintf(r->a, sizeof(r->a), "%s/a", base);
	snprintf(r->b, sizeof(r->b), "%s/b", base);
	ASSERT_EQ(0, mkdir(base, 0755));
	ASSERT_EQ(0, mkdir(r->a, 0755));
	ASSERT_EQ(0, mkdir(r->b, 0755));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ASSERT_EQ(0, setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	r->sock = sv[1];
	rc = ns_holder_begin(&h);
	fd = rc ? -1 : ns_recv_fd(sv[0]);
	snprintf(pid, sizeof(pid), "%d", rc ? 0 : (int)h.pid);
	/* The side the fix is about: the opener's namespace cannot see b/. */
	err = fd < 0 ? -EBADF : write(fd, pid, strlen(pid)) < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-ENOENT, err) TH_LOG("b/cgroup.procs opened in a namespace rooted at a/, the "
				       "holder's pid written from above: %s",
				       err ? strerror(-err) : "moved");
	EXPECT_TRUE(rc == 0 && in_leaf(h.pid, "a"));
	/* The side the fix leaves alone: opened here, the same write moves it. */
	own = rc ? -1 : cgns_write(r->b, "cgroup.procs", pid);
	EXPECT_EQ(0, own) TH_LOG("b/cgroup.procs opened and written from above: %s",
				 strerror(-own));
	EXPECT_TRUE(rc == 0 && in_leaf(h.pid, "b"));
	if (rc == 0)
		EXPECT_EQ(0, ns_holder_stop(&h));
	close(sv[0]);
	close(sv[1]);
	cgns_rmdir_wait(r->a);
	cgns_rmdir_wait(r->b);
	cgns_rmdir_wait(base);
	free(r);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
