// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the fanotify mount-event fix Debian's kernels ship
 * (issue 27, item 2; the row of fixtures/data/fixes.tsv whose test names
 * this binary): "namespace: queue a mount only once for mount
 * notifications".  Without it a mount that one umount reparents and then
 * unmounts is put on the notification list twice, which corrupts it: some
 * detach events are lost and the next mount operation anywhere on the
 * machine loops for ever in notify_mnt_list().  That hangs an unfixed
 * kernel, so this binary is guest-only (fixtures/data/guest-only): the host
 * passes never run it, the guests run it last.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mnt.h"
#include "kselftest_harness.h"

/* The mounts the umount takes, in the order of names[]. */
enum { M_T, M_B, M_P, M_Q, M_X, M_Y, M_C, M_R, M_N };
static const char *const names[M_N] = {
	"T (the tmpfs unmounted)", "B (bind of the automount, slave of Q)",
	"P (peer of B)", "Q (master of B and P)", "X (on P/options)", "Y (on Q/options)",
	"C (X's copy on B/options)", "R (tmpfs on C)",
};

/* The child's set-up, sent up when it is ready for the umount. */
struct notify_setup {
	uint64_t ids[M_N];		/* the unique mount ids (statx STATX_MNT_ID_UNIQUE) */
	char why[200];			/* a set-up failure, else "" */
};

/* What the parent's fanotify group read back. */
struct notify_events {
	int events;			/* events read back */
	int other;			/* events that were not FAN_MNT_DETACH of one of ours */
	uint64_t other_mask;		/* the first such event: its mask, */
	uint64_t other_id;		/* the mount id it names (0: none) */
	int seen[M_N];			/* FAN_MNT_DETACH events per mount */
};

static struct ns_sync sync_;

static uint64_t mnt_id_of(const char *path)
{
	struct statx sx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID_UNIQUE, &sx) ||
	    !(sx.stx_mask & STATX_MNT_ID_UNIQUE))
		return 0;
	return sx.stx_mnt_id;
}

/* Read every queued event of @fan into @r (FAN_NONBLOCK: EAGAIN ends it). */
static void read_events(int fan, const uint64_t *ids, struct notify_events *r)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	struct nsc_fan_info_mnt *info;
	ssize_t n;
	int i;

	while ((n = read(fan, buf, sizeof(buf))) > 0) {
		for (ev = (void *)buf; FAN_EVENT_OK(ev, n); ev = FAN_EVENT_NEXT(ev, n)) {
			r->events++;
			info = (void *)((char *)ev + ev->metadata_len);
			i = M_N;
			if (ev->event_len >= ev->metadata_len + sizeof(*info) &&
			    info->info_type == NSC_FAN_EVENT_INFO_TYPE_MNT) {
				for (i = 0; i < M_N && ids[i] != info->mnt_id; i++)
					;
			}
			if (i < M_N && ev->mask == FAN_MNT_DETACH) {
				r->seen[i]++;
				continue;
			}
			if (!r->other++) {
				r->other_mask = ev->mask;
				r->other_id = ev->event_len >= ev->metadata_len + sizeof(*info) ?
					      info->mnt_id : 0;
			}
		}
	}
}

static int say(struct notify_setup *r, const char *what)
{
	snprintf(r->why, sizeof(r->why), "%s: %s", what, strerror(errno));
	return 1;
}

/*
 * T, a tmpfs, holds B, P and Q, binds of the tracefs automount (shrinkable): Q the master of
 * B and P, which are peers.  X on P/options has its copy C on B/options, covered by R, a
 * tmpfs; Y sits on Q/options alone.  umount2(T) unmounts the shrinkable submounts first: X
 * with C, which reparents R onto B/options; then Y, whose propagation reaches B/options and
 * takes R there; then B, P, Q, and T.  R is reparented and unmounted under one namespace_sem
 * hold: the notification list gets it twice on a kernel without the fix.
 */
static int build_tree(struct notify_setup *r)
{
	const char *am = "/tmp/dbg/tracing";
	uint64_t *ids = r->ids;
	int err;

	if (ns_private_tmp("size=1m"))
		return say(r, "a private /tmp");
	if (mkdir("/tmp/dbg", 0755) || mkdir("/tmp/t", 0755) || mkdir("/tmp/q", 0755))
		return say(r, "mkdir");
	err = mnt_debugfs_automount("/tmp/dbg", 0);
	if (err == -ENODEV || err == -ENOENT)
		return ns_child_lacks(NS_F_TRACEFS_AUTOMOUNT);
	errno = -err;
	if (err)
		return say(r, "debugfs on /tmp/dbg");
	if (access("/tmp/dbg/tracing/options", F_OK))
		return say(r, "trigger the tracefs automount");
	if (mount("T", "/tmp/t", "tmpfs", 0, "size=64k") || mkdir("/tmp/t/b", 0755) ||
	    mkdir("/tmp/t/p", 0755) || mkdir("/tmp/t/q", 0755))
		return say(r, "T on /tmp/t");
	/* Q shared; B its peer turned slave and shared again; P a peer of B. */
	if (mount(am, "/tmp/q", NULL, MS_BIND, NULL) || mnt_set_propagation("/tmp/q", MS_SHARED) ||
	    mount("/tmp/q", "/tmp/t/b", NULL, MS_BIND, NULL) ||
	    mnt_set_propagation("/tmp/t/b", MS_SLAVE) ||
	    mnt_set_propagation("/tmp/t/b", MS_SHARED) ||
	    mount("/tmp/t/b", "/tmp/t/p", NULL, MS_BIND, NULL))
		return say(r, "Q, B and P");
	/* Y on Q/options; its copies on B and P go again (P's umount propagates to B). */
	if (mount(am, "/tmp/q/options", NULL, MS_BIND, NULL) ||
	    umount2("/tmp/t/p/options", 0) || mnt_we_see("/tmp/t/b/options") != 0)
		return say(r, "Y on Q/options alone");
	/* X on P/options, its copy C on B/options, R on C (C private: R stays there). */
	if (mount(am, "/tmp/t/p/options", NULL, MS_BIND, NULL) ||
	    mnt_we_see("/tmp/t/b/options") != 1 ||
	    mnt_set_propagation("/tmp/t/b/options", MS_PRIVATE))
		return say(r, "X on P/options and its copy C on B/options");
	ids[M_C] = mnt_id_of("/tmp/t/b/options");
	if (mount("R", "/tmp/t/b/options", "tmpfs", 0, "size=64k"))
		return say(r, "R on C");
	/* Q last among T's children, so that X is unmounted before Y. */
	if (mount("/tmp/q", "/tmp/t/q", NULL, MS_MOVE, NULL))
		return say(r, "move Q to /tmp/t/q");
	ids[M_T] = mnt_id_of("/tmp/t");
	ids[M_B] = mnt_id_of("/tmp/t/b");
	ids[M_P] = mnt_id_of("/tmp/t/p");
	ids[M_Q] = mnt_id_of("/tmp/t/q");
	ids[M_X] = mnt_id_of("/tmp/t/p/options");
	ids[M_Y] = mnt_id_of("/tmp/t/q/options");
	ids[M_R] = mnt_id_of("/tmp/t/b/options");
	for (int i = 0; i < M_N; i++) {
		errno = EINVAL;
		if (!ids[i])
			return say(r, "statx(STATX_MNT_ID_UNIQUE) of a mount");
	}
	return 0;
}

/* Set up, let the parent watch our mount namespace, umount T, say how it went. */
static int notify_child(void *arg)
{
	struct notify_setup r = { 0 };
	int rc, err = 0;

	(void)arg;
	rc = build_tree(&r);
	if (rc == NS_CHILD_SKIP)
		return rc;
	if (ns_sync_tell(&sync_, true, &r, sizeof(r)) || rc)
		return rc ? rc : child_fail("send the set-up: %m");
	if (ns_sync_wait(&sync_, true, NULL, 0, NS_WAIT_MS))
		return child_fail("the parent did not watch our mount namespace");
	if (umount2("/tmp/t", 0))
		err = errno;
	if (ns_sync_tell(&sync_, true, &err, sizeof(err)))
		return child_fail("send the umount's answer: %m");
	/* Our exit detaches every mount of our namespace: the parent reads the events first. */
	ns_sync_wait(&sync_, true, NULL, 0, NS_WAIT_MS);
	return 0;
}

/*
 * Each mount an umount takes from a watched mount namespace is reported once, as a
 * FAN_MNT_DETACH event (fanotify_mark(2) FAN_MARK_MNTNS and FAN_MNT_DETACH; the uapi header:
 * "Mount was detached"), also a mount that the umount first reparents (the mount beneath it
 * goes) and then takes with a propagated umount: umount2() of T in a child's namespace takes
 * 8 mounts, and the parent's watch on that namespace reads back exactly 8 events, one per
 * mount; the child that did it exits (fix "namespace: queue a mount only once for mount
 * notifications", Debian 7.2.11: before it the reparented mount was queued twice, which
 * corrupted the list: X, C and Y were never reported and the next mount operation looped for
 * ever in notify_mnt_list(), here the child's exit).  Real root: debugfs mounts only in the
 * initial user namespace.
 */
TEST(umount_reports_each_mount_once)
{
	struct notify_setup r = { 0 };
	struct notify_events e = { 0 };
	char ns[64];
	int fan, nsfd, err = -1, rc, i, bound;
	pid_t pid;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED(NS_F_FANOTIFY_MNT);
	pid = ns_clone_synced(ns_clone, CLONE_NEWNS, &sync_);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(notify_child(NULL));
	if (ns_sync_wait(&sync_, false, &r, sizeof(r), NS_WAIT_MS)) {
		ns_sync_close(&sync_);
		rc = ns_wait(pid, NS_WAIT_MS);
		NS_NEED_FEATURE(NS_F_TRACEFS_AUTOMOUNT, rc == NS_CHILD_SKIP);
		TH_LOG("the child sent no set-up (exit %d)", rc);
		ASSERT_TRUE(false);
	}
	if (r.why[0])
		TH_LOG("set-up: %s", r.why);
	EXPECT_STREQ("", r.why);
	/* The child's mount namespace watched from outside, as a container manager does. */
	snprintf(ns, sizeof(ns), "/proc/%d/ns/mnt", pid);
	fan = fanotify_init(FAN_REPORT_MNT | FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY);
	nsfd = open(ns, O_RDONLY | O_CLOEXEC);
	if (fan < 0 || nsfd < 0 ||
	    fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MNTNS, FAN_MNT_ATTACH | FAN_MNT_DETACH,
			  nsfd, NULL)) {
		TH_LOG("watch %s with fanotify (FAN_MARK_MNTNS): %s", ns, strerror(errno));
		if (fan >= 0)
			close(fan);
		fan = -1;
	} else if (!r.why[0] && (ns_sync_tell(&sync_, false, NULL, 0) ||
				 ns_sync_wait(&sync_, false, &err, sizeof(err), NS_WAIT_MS))) {
		TH_LOG("umount2() did not return within %d ms", NS_WAIT_MS);
	}
	if (nsfd >= 0)
		close(nsfd);
	if (fan >= 0) {
		read_events(fan, r.ids, &e);
		close(fan);
	}
	ns_sync_close(&sync_);		/* the child may exit now */
	/*
	 * The next namespace_unlock(), the child's exit, returns.  Where the events already
	 * show the corrupted list, that exit loops for ever: a second tells as much as
	 * NS_WAIT_MS would, and the guest does not wait out the rest (fixtures/data/guest-only).
	 */
	bound = e.other || e.events != M_N ? 1000 : NS_WAIT_MS;
	for (i = 0; i < M_N; i++)
		if (e.seen[i] != 1)
			bound = 1000;
	rc = ns_wait(pid, bound);
	ASSERT_STREQ("", r.why);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, err);
	for (i = 0; i < M_N; i++) {
		if (e.seen[i] != 1)
			TH_LOG("%s: %d FAN_MNT_DETACH event(s), expected 1", names[i], e.seen[i]);
	}
	if (e.other)
		TH_LOG("%d other event(s), the first: mask %#llx, mount id %llu", e.other,
		       (unsigned long long)e.other_mask, (unsigned long long)e.other_id);
	EXPECT_EQ(0, e.other);
	EXPECT_EQ(M_N, e.events);
	for (i = 0; i < M_N; i++)
		EXPECT_EQ(1, e.seen[i]);
	if (rc == NS_TIMEDOUT)
		TH_LOG("the child did not exit within %d ms after the umount", bound);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
