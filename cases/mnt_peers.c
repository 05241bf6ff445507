// SPDX-License-Identifier: GPL-2.0
/*
 * Mount propagation beyond the four types: peer groups that mounts join by
 * bind and leave by umount, a type change or the end of their namespace,
 * MS_SLAVE on the last member, the table of propagation type transitions,
 * a bind onto a shared mount, a propagated umount that spares a copy with
 * submounts, a propagation type that governs only the mounts directly under
 * it, MS_MOVE rules under shared mounts, "propagate_from:" in mountinfo,
 * and unlink/rmdir/rename of a mount point of another namespace
 * (mount_namespaces(7) "Shared subtrees", "Peer groups", "Propagation type
 * transitions", "Bind (MS_BIND) semantics", "Unmount semantics",
 * "/proc/PID/mountinfo", "Restrictions on MS_MOVE", mount(2) ERRORS,
 * rmdir(2), unlink(2), rename(2); the two articles on mount namespaces and
 * shared subtrees).
 *
 * Each test works on a tmpfs in a private mount namespace of its own
 * (fixtures/mnt.h); where a second namespace is needed it is a peer
 * child that makes mount events on request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

FIXTURE(peers) {
	struct mnt_base b;
	char s[MNT_PATH_MAX];	/* a tmpfs under the base */
	char d[MNT_PATH_MAX];	/* an empty directory */
};

FIXTURE_SETUP(peers)
{
	NS_NEED_WHY(mnt_base_enter(&self->b) && self->b.skip ? self->b.why : NULL);
	ASSERT_STREQ("", self->b.why);
	ASSERT_EQ(0, mnt_make(&self->b, "s", self->s, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/x"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/y"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "d"));
	mnt_path(self->d, &self->b, "d");
}

FIXTURE_TEARDOWN(peers)
{
}

/*
 * A bind mount of a shared mount joins its peer group (same "shared:N"), and events then travel
 * both ways between them (mount_namespaces(7) "Peer groups").
 */
TEST_F(peers, bind_of_shared_mount_joins_its_peer_group)
{
	char sx[MNT_PATH_MAX], dx[MNT_PATH_MAX], sy[MNT_PATH_MAX], dy[MNT_PATH_MAX];
	struct mnt_info s, d;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	s = mnt_info_at(0, self->s);
	d = mnt_info_at(0, self->d);
	EXPECT_LT(0, s.shared);
	EXPECT_EQ(s.shared, d.shared);
	EXPECT_NE(s.id, d.id);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(dx, self->d, "x")));
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(dy, self->d, "y"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(sy, self->s, "y")));
}

/*
 * A mount leaves its peer group when unmounted or made private; the members left keep the group id
 * and still propagate to each other (mount_namespaces(7) "Peer groups").
 */
TEST_F(peers, umount_and_private_leave_the_peer_group)
{
	char sx[MNT_PATH_MAX], px[MNT_PATH_MAX], e[MNT_PATH_MAX], ex[MNT_PATH_MAX];
	struct mnt_peer p;
	int group;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "e"));
	mnt_path(e, &self->b, "e");
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(self->s, e, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	group = mnt_info_at(0, self->s).shared;
	ASSERT_LT(0, group);
	EXPECT_EQ(group, mnt_info_at(p.pid, self->d).shared);
	/* d leaves by umount (here: the peer's copy stays), e by MS_PRIVATE. */
	ASSERT_EQ(0, umount2(self->d, 0));
	ASSERT_EQ(0, mnt_set_propagation(e, MS_PRIVATE));
	EXPECT_EQ(0, mnt_info_at(0, e).shared);
	EXPECT_EQ(group, mnt_info_at(0, self->s).shared);
	EXPECT_EQ(group, mnt_info_at(p.pid, self->s).shared);
	EXPECT_EQ(group, mnt_info_at(p.pid, self->d).shared);
	/* s and the peer's copies still propagate; e does not receive. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	EXPECT_EQ(1, mnt_peer_sees(&p, mnt_subpath(px, self->d, "x")));
	EXPECT_EQ(0, mnt_we_see(mnt_subpath(ex, e, "x")));
	EXPECT_EQ(0, mnt_info_has(0, mnt_subpath(px, self->d, "x")));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * MS_SLAVE on a shared mount that is the only member of its peer group makes it private: neither
 * "shared:" nor "master:" (mount_namespaces(7) MS_SLAVE).
 */
TEST_F(peers, make_slave_of_lone_peer_gives_private)
{
	struct mnt_info s;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(NULL, self->s, NULL, MS_SLAVE, NULL));
	s = mnt_info_at(0, self->s);
	EXPECT_EQ(0, s.shared);
	EXPECT_EQ(0, s.master);
	EXPECT_FALSE(s.unbindable);
}

/*
 * A mount's propagation type governs only events directly under it: under a private child of a
 * shared mount nothing propagates, beside it everything does (mount_namespaces(7)).
 */
TEST_F(peers, propagation_type_governs_only_immediate_children)
{
	char sc[MNT_PATH_MAX], dc[MNT_PATH_MAX], scx[MNT_PATH_MAX], dcx[MNT_PATH_MAX];
	char sy[MNT_PATH_MAX], dy[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_mkdir(&self->b, "s/c"));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	/* A child mount: propagates to d/c; then made private on the s side. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sc, self->s, "c"), 0));
	ASSERT_EQ(1, mnt_we_see(mnt_subpath(dc, self->d, "c")));
	ASSERT_EQ(0, mkdir(mnt_subpath(scx, sc, "x"), 0755));
	ASSERT_EQ(0, mnt_set_propagation(sc, MS_PRIVATE));
	EXPECT_EQ(0, mnt_info_at(0, sc).shared);
	/* s itself is still shared: its direct children still propagate. */
	EXPECT_LT(0, mnt_info_at(0, self->s).shared);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sy, self->s, "y"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(dy, self->d, "y")));
	/* Under the private child: no propagation to its copy at d/c. */
	ASSERT_EQ(0, mnt_tmpfs(scx, 0));
	EXPECT_EQ(0, mnt_we_see(mnt_subpath(dcx, dc, "x")));
}

/*
 * A bind mount of a slave mount is a slave of the same master, not shared: events from the master
 * reach it (mount_namespaces(7), the article on shared subtrees).
 */
TEST_F(peers, bind_of_slave_is_slave_of_same_master)
{
	char e[MNT_PATH_MAX], sx[MNT_PATH_MAX], ex[MNT_PATH_MAX];
	struct mnt_info mi;
	int group;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "e"));
	mnt_path(e, &self->b, "e");
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	group = mnt_info_at(0, self->s).shared;
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mnt_set_propagation(self->d, MS_SLAVE));
	ASSERT_EQ(group, mnt_info_at(0, self->d).master);
	ASSERT_EQ(0, mount(self->d, e, NULL, MS_BIND, NULL));
	mi = mnt_info_at(0, e);
	EXPECT_EQ(0, mi.shared);
	EXPECT_EQ(group, mi.master);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(ex, e, "x")));
}

/*
 * Under a slave mount, a new mount is private, while a mount propagated from the master arrives as
 * a slave of the master's new mount (mount_namespaces(7)).
 */
TEST_F(peers, mounts_under_slave_private_or_slave_copies)
{
	char sx[MNT_PATH_MAX], dx[MNT_PATH_MAX], dy[MNT_PATH_MAX];
	struct mnt_info mi;
	int group;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mnt_set_propagation(self->d, MS_SLAVE));
	/* Made in the slave: private. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(dy, self->d, "y"), 0));
	mi = mnt_info_at(0, dy);
	EXPECT_EQ(0, mi.shared);
	EXPECT_EQ(0, mi.master);
	/* Made in the master: shared there, a slave of it in d. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	group = mnt_info_at(0, sx).shared;
	EXPECT_LT(0, group);
	mi = mnt_info_at(0, mnt_subpath(dx, self->d, "x"));
	EXPECT_EQ(0, mi.shared);
	EXPECT_EQ(group, mi.master);
}

/*
 * A mount moved under a shared mount propagates to its peers like a new mount would
 * (mount_namespaces(7) MS_MOVE, the article on shared subtrees).
 */
TEST_F(peers, move_under_shared_mount_propagates)
{
	char t[MNT_PATH_MAX], sx[MNT_PATH_MAX], dx[MNT_PATH_MAX], m[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_make(&self->b, "t", t, 0));
	ASSERT_EQ(0, mnt_touch(mnt_subpath(m, t, "marker")));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(t, mnt_subpath(sx, self->s, "x"), NULL, MS_MOVE, NULL));
	EXPECT_EQ(0, mnt_we_see(t));
	EXPECT_EQ(1, mnt_we_see(sx));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(dx, self->d, "x")));
	EXPECT_EQ(0, access(mnt_subpath(m, dx, "marker"), F_OK));
	/* Moved in, it joined a peer group with its copy. */
	EXPECT_LT(0, mnt_info_at(0, sx).shared);
	EXPECT_EQ(mnt_info_at(0, sx).shared, mnt_info_at(0, dx).shared);
}

/*
 * MS_MOVE of a mount whose parent mount is shared fails with EINVAL; from a private parent the same
 * move works (mount(2) EINVAL, mount_namespaces(7)).
 */
TEST_F(peers, move_from_shared_parent_einval)
{
	char sx[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	EXPECT_EQ(-1, mount(sx, self->d, NULL, MS_MOVE, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, mnt_we_see(sx));
	EXPECT_EQ(0, mnt_we_see(self->d));
	/* Control: with s private again, the move goes through. */
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_PRIVATE));
	EXPECT_EQ(0, mount(sx, self->d, NULL, MS_MOVE, NULL));
	EXPECT_EQ(1, mnt_we_see(self->d));
	EXPECT_EQ(0, mnt_we_see(sx));
}

/*
 * MS_MOVE of a tree containing an unbindable mount onto a shared mount fails with EINVAL; onto a
 * private one it works (mount(2) EINVAL, mount_namespaces(7)).
 */
TEST_F(peers, move_unbindable_tree_to_shared_einval)
{
	char t[MNT_PATH_MAX], tu[MNT_PATH_MAX], sx[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_make(&self->b, "t", t, 0));
	ASSERT_EQ(0, mkdir(mnt_subpath(tu, t, "u"), 0755));
	ASSERT_EQ(0, mnt_tmpfs(tu, 0));
	ASSERT_EQ(0, mnt_set_propagation(tu, MS_UNBINDABLE));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	EXPECT_EQ(-1, mount(t, mnt_subpath(sx, self->s, "x"), NULL, MS_MOVE, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, mnt_we_see(t));
	EXPECT_EQ(0, mnt_we_see(sx));
	/* Control: the same tree moves onto a private mount. */
	EXPECT_EQ(0, mount(t, self->d, NULL, MS_MOVE, NULL));
	EXPECT_EQ(1, mnt_we_see(self->d));
}

/* A child that chroots to @root and waits, so that its mountinfo is read from @root. */
static pid_t chrooted_child(const char *root, struct ns_sync *s)
{
	pid_t pid;
	int ok;

	pid = ns_clone_synced(ns_clone, 0, s);
	if (pid == 0) {
		ok = !chroot(root) && !chdir("/");
		ns_sync_tell(s, true, &ok, sizeof(ok));
		ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
		_exit(ok ? 0 : 1);
	}
	if (pid < 0 || ns_sync_wait(s, false, &ok, sizeof(ok), NS_WAIT_MS) || !ok) {
		if (pid > 0)
			ns_wait(pid, NS_WAIT_MS);
		ns_sync_close(s);
		return -1;
	}
	return pid;
}

/*
 * "propagate_from:N" in mountinfo names the closest dominant peer group under the reader's root
 * when a slave's master group has no mount there (proc(5), mount_namespaces(7)).
 */
TEST_F(peers, propagate_from_shown_when_master_unreachable)
{
	/*
	 * h (group H) is shared under the new root r; g outside r is a slave of
	 * H and shared (group G); x under r is a slave of G.  Seen from r, the
	 * master G has no member, and H is the closest dominant group that does.
	 */
	char r[MNT_PATH_MAX], h[MNT_PATH_MAX], g[MNT_PATH_MAX], x[MNT_PATH_MAX];
	struct ns_sync sync;
	int hid, gid;
	pid_t c;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "r"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "r/x"));
	ASSERT_EQ(0, mnt_make(&self->b, "r/h", h, 0));
	mnt_path(r, &self->b, "r");
	mnt_path(g, &self->b, "g");
	mnt_path(x, &self->b, "r/x");
	ASSERT_EQ(0, mkdir(g, 0755));
	/* r is a mount, so that it can be a root. */
	ASSERT_EQ(0, mount(r, r, NULL, MS_BIND | MS_REC, NULL));
	ASSERT_EQ(0, mnt_set_propagation(h, MS_SHARED));
	hid = mnt_info_at(0, h).shared;
	ASSERT_EQ(0, mount(h, g, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(NULL, g, NULL, MS_SLAVE, NULL));
	ASSERT_EQ(0, mount(NULL, g, NULL, MS_SHARED, NULL));
	gid = mnt_info_at(0, g).shared;
	ASSERT_EQ(hid, mnt_info_at(0, g).master);
	ASSERT_NE(hid, gid);
	ASSERT_EQ(0, mount(g, x, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(NULL, x, NULL, MS_SLAVE, NULL));
	ASSERT_EQ(0, mnt_info_at(0, x).shared);
	ASSERT_EQ(gid, mnt_info_at(0, x).master);
	/* From our root, g is visible: no propagate_from field. */
	EXPECT_EQ(0, mnt_propagate_from(0, x));
	/* mountinfo shows mount points relative to the reading task's root. */
	c = chrooted_child(r, &sync);
	ASSERT_LT(0, c);
	EXPECT_EQ(gid, mnt_info_at(c, "/x").master);
	EXPECT_EQ(hid, mnt_propagate_from(c, "/x"));
	EXPECT_EQ(0, mnt_info_at(c, "/h").master);
	EXPECT_EQ(0, mnt_propagate_from(c, "/h"));
	ns_sync_tell(&sync, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(c, NS_WAIT_MS));
	ns_sync_close(&sync);
}

/*
 * rmdir() of a directory that is a mount point only in another mount namespace succeeds and takes
 * that mount away there; of our own mount point it fails with EBUSY (rmdir(2),
 * mount_namespaces(7); linux:8ed936b5671b ("vfs: Lazily remove mounts on unlinked files and
 * directories"), 3.18).
 */
TEST_F(peers, rmdir_of_mount_point_in_other_ns_detaches_it_there)
{
	char e[MNT_PATH_MAX];
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_mkdir(&self->b, "e"));
	mnt_path(e, &self->b, "e");
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(0, mnt_peer_do(&p, MNT_OP_TMPFS, self->d, NULL, 0));
	ASSERT_EQ(1, mnt_peer_sees(&p, self->d));
	ASSERT_EQ(0, mnt_we_see(self->d));
	EXPECT_EQ(0, rmdir(self->d));
	EXPECT_EQ(0, mnt_info_has(p.pid, self->d));
	EXPECT_EQ(0, mnt_peer_do(&p, MNT_OP_EXISTS, self->d, NULL, 0));
	/* Our own mount point: EBUSY. */
	ASSERT_EQ(0, mnt_tmpfs(e, 0));
	EXPECT_EQ(-1, rmdir(e));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(1, mnt_we_see(e));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/* Files src, f and g in the base; a peer @p that bind-mounts src on f, which only it sees. */
static void peer_binds_file(struct __test_metadata *_metadata, const struct mnt_base *b,
			    struct mnt_peer *p, char *src, char *f, char *g)
{
	ASSERT_EQ(0, mnt_touch(mnt_path(src, b, "src")));
	ASSERT_EQ(0, mnt_touch(mnt_path(f, b, "f")));
	ASSERT_EQ(0, mnt_touch(mnt_path(g, b, "g")));
	ASSERT_EQ(0, mnt_peer_start(p, false));
	ASSERT_EQ(0, mnt_peer_do(p, MNT_OP_BIND, src, f, 0));
	ASSERT_EQ(1, mnt_info_has(p->pid, f));
	ASSERT_EQ(0, mnt_info_has(0, f));
}

/*
 * unlink() of a file that is a bind-mount point only in another mount namespace succeeds and takes
 * that mount away there; our own gives EBUSY (unlink(2), mount_namespaces(7)).
 */
TEST_F(peers, unlink_of_mount_point_in_other_ns_detaches_it_there)
{
	char src[MNT_PATH_MAX], f[MNT_PATH_MAX], g[MNT_PATH_MAX];
	struct mnt_peer p;

	peer_binds_file(_metadata, &self->b, &p, src, f, g);
	EXPECT_EQ(0, unlink(f));
	EXPECT_EQ(0, mnt_info_has(p.pid, f));
	EXPECT_EQ(0, mnt_peer_do(&p, MNT_OP_EXISTS, f, NULL, 0));
	ASSERT_EQ(0, mount(src, g, NULL, MS_BIND, NULL));
	EXPECT_EQ(-1, unlink(g));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(1, mnt_info_has(0, g));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * rename() over a file that is a bind-mount point only in another mount namespace succeeds and
 * takes that mount away there; over our own mount point it fails with EBUSY (mount_namespaces(7)
 * "may be renamed, unlinked, or removed", rename(2); linux:8ed936b5671b, 3.18).
 */
TEST_F(peers, rename_over_mount_point_in_other_ns_detaches_it_there)
{
	char src[MNT_PATH_MAX], f[MNT_PATH_MAX], g[MNT_PATH_MAX], n1[MNT_PATH_MAX];
	char n2[MNT_PATH_MAX];
	struct mnt_peer p;

	ASSERT_EQ(0, mnt_touch(mnt_path(n1, &self->b, "n1")));
	ASSERT_EQ(0, mnt_touch(mnt_path(n2, &self->b, "n2")));
	peer_binds_file(_metadata, &self->b, &p, src, f, g);
	EXPECT_EQ(0, rename(n1, f));
	EXPECT_EQ(0, mnt_info_has(p.pid, f));
	EXPECT_EQ(-1, access(n1, F_OK));
	EXPECT_EQ(1, mnt_peer_do(&p, MNT_OP_EXISTS, f, NULL, 0));
	/* Our own mount point: EBUSY, and both names stay. */
	ASSERT_EQ(0, mount(src, g, NULL, MS_BIND, NULL));
	EXPECT_EQ(-1, rename(n2, g));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(1, mnt_info_has(0, g));
	EXPECT_EQ(0, access(n2, F_OK));
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * A mount leaves its peer group when its mount namespace is removed: with its copy gone, MS_SLAVE
 * on our former peer gives private, while a peer still alive makes it a slave (mount_namespaces(7)
 * "ceases to be a member of a peer group ... a mount namespace is removed").
 */
TEST_F(peers, namespace_removal_ends_peer_group_membership)
{
	char t[MNT_PATH_MAX];
	struct mnt_info mi;
	struct mnt_peer p;
	int group;

	ASSERT_EQ(0, mnt_make(&self->b, "t", t, 0));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_set_propagation(t, MS_SHARED));
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(mnt_info_at(0, self->s).shared, mnt_info_at(p.pid, self->s).shared);
	/* While the copy lives, t has a peer: MS_SLAVE makes it its slave. */
	group = mnt_info_at(0, t).shared;
	ASSERT_EQ(0, mount(NULL, t, NULL, MS_SLAVE, NULL));
	mi = mnt_info_at(0, t);
	EXPECT_EQ(0, mi.shared);
	EXPECT_EQ(group, mi.master);
	/* The peer's namespace goes away with its only process. */
	ASSERT_EQ(0, mnt_peer_stop(&p));
	ASSERT_EQ(0, mount(NULL, self->s, NULL, MS_SLAVE, NULL));
	mi = mnt_info_at(0, self->s);
	EXPECT_EQ(0, mi.shared);
	EXPECT_EQ(0, mi.master);
	/* t's master group went with it too: t is private now. */
	EXPECT_EQ(0, mnt_info_at(0, t).master);
}

/* A mount's propagation state: shared group, master group, unbindable. */
struct pstate {
	int shared, master;
	bool unbindable;
};

enum { ST_SHARED, ST_SLAVE, ST_SLAVE_SHARED, ST_PRIVATE, ST_UNBINDABLE, ST_N };
static const unsigned long pops[4] = { MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE };

/* Expected shared field: 0 none, SAME as before, NEW a group other than before and G. */
#define SAME (-1)
#define NEW (-2)
/* Expected master field: 0 none, G the master group. */
#define G (-3)

/*
 * The result of each of make-shared, make-slave, make-private and make-unbindable on a shared (with
 * a peer), slave, slave+shared, private and unbindable mount is the one in the table
 * (mount_namespaces(7) "Propagation type transitions", notes [1] and [2]).
 */
TEST_F(peers, propagation_type_transitions_follow_the_table)
{
	/* Columns: make-shared, -slave, -private, -unbindable; { shared, master, unbindable }. */
	static const struct { int shared, master; bool unbindable; } want[ST_N][4] = {
		[ST_SHARED] = { { SAME, 0, 0 }, { 0, G, 0 }, { 0, 0, 0 }, { 0, 0, 1 } },
		[ST_SLAVE] = { { NEW, G, 0 }, { 0, G, 0 }, { 0, 0, 0 }, { 0, 0, 1 } },
		[ST_SLAVE_SHARED] = { { SAME, G, 0 }, { 0, G, 0 }, { 0, 0, 0 }, { 0, 0, 1 } },
		[ST_PRIVATE] = { { NEW, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 1 } },
		[ST_UNBINDABLE] = { { NEW, 0, 0 }, { 0, 0, 1 }, { 0, 0, 0 }, { 0, 0, 1 } },
	};
	static const char *const names[ST_N] = {
		"shared", "slave", "slave+shared", "private", "unbindable"
	};
	char x[MNT_PATH_MAX], rel[32];
	struct mnt_info before, after;
	int st, op, group, ws, wm;

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	group = mnt_info_at(0, self->s).shared;
	ASSERT_LT(0, group);
	for (st = 0; st < ST_N; st++) {
		for (op = 0; op < 4; op++) {
			/* A bind of s: a peer of s, then brought to the state. */
			snprintf(rel, sizeof(rel), "x%d%d", st, op);
			ASSERT_EQ(0, mnt_mkdir(&self->b, rel));
			mnt_path(x, &self->b, rel);
			ASSERT_EQ(0, mount(self->s, x, NULL, MS_BIND, NULL));
			ASSERT_EQ(group, mnt_info_at(0, x).shared);
			if (st == ST_SLAVE || st == ST_SLAVE_SHARED)
				ASSERT_EQ(0, mount(NULL, x, NULL, MS_SLAVE, NULL));
			if (st == ST_SLAVE_SHARED)
				ASSERT_EQ(0, mount(NULL, x, NULL, MS_SHARED, NULL));
			if (st == ST_PRIVATE)
				ASSERT_EQ(0, mount(NULL, x, NULL, MS_PRIVATE, NULL));
			if (st == ST_UNBINDABLE)
				ASSERT_EQ(0, mount(NULL, x, NULL, MS_UNBINDABLE, NULL));
			before = mnt_info_at(0, x);
			ASSERT_EQ(0, mount(NULL, x, NULL, pops[op], NULL));
			after = mnt_info_at(0, x);
			ws = want[st][op].shared;
			wm = want[st][op].master == G ? group : want[st][op].master;
			if (ws == SAME) {
				EXPECT_EQ(before.shared, after.shared)
					TH_LOG("%s, op %d", names[st], op);
			} else if (ws == NEW) {
				EXPECT_TRUE(after.shared > 0 && after.shared != group &&
					    after.shared != before.shared)
					TH_LOG("%s, op %d: shared:%d", names[st], op, after.shared);
			} else {
				EXPECT_EQ(0, after.shared) TH_LOG("%s, op %d", names[st], op);
			}
			EXPECT_EQ(wm, after.master) TH_LOG("%s, op %d", names[st], op);
			EXPECT_EQ(want[st][op].unbindable, after.unbindable)
				TH_LOG("%s, op %d", names[st], op);
		}
	}
}

/* A shared tmpfs @m (base/m, with m/z) and @sl (base/sl), a slave of it; m's group. */
static int slave_of_m(struct __test_metadata *_metadata, const struct mnt_base *b, char *m,
		      char *sl)
{
	int group;

	ASSERT_EQ(0, mnt_make(b, "m", m, 0));
	ASSERT_EQ(0, mnt_mkdir(b, "m/z"));
	ASSERT_EQ(0, mnt_mkdir(b, "sl"));
	mnt_path(sl, b, "sl");
	ASSERT_EQ(0, mnt_set_propagation(m, MS_SHARED));
	group = mnt_info_at(0, m).shared;
	ASSERT_LT(0, group);
	ASSERT_EQ(0, mount(m, sl, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mnt_set_propagation(sl, MS_SLAVE));
	ASSERT_EQ(group, mnt_info_at(0, sl).master);
	return group;
}

/*
 * @at and its copy @copy (under the destination's peer) are slave and shared: in one new peer
 * group, slaves of @mgroup, @m's group; a mount on @m/z reaches both.
 */
static void expect_slave_and_shared(struct __test_metadata *_metadata, const char *at,
				    const char *copy, const char *m, int mgroup)
{
	char mz[MNT_PATH_MAX], atz[MNT_PATH_MAX], copyz[MNT_PATH_MAX];
	struct mnt_info a = mnt_info_at(0, at), b = mnt_info_at(0, copy);

	EXPECT_LT(0, a.shared);
	EXPECT_NE(mgroup, a.shared);
	EXPECT_EQ(mgroup, a.master);
	EXPECT_EQ(a.shared, b.shared);
	EXPECT_EQ(mgroup, b.master);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(mz, m, "z"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(atz, at, "z")));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(copyz, copy, "z")));
}

/*
 * A bind onto a shared mount is shared: from a private source in a new peer group with its copies
 * under the destination's peers, from a slave source slave and shared, still receiving from the
 * master (mount_namespaces(7) "Bind (MS_BIND) semantics").
 */
TEST_F(peers, bind_onto_shared_mount_is_shared_or_slave_and_shared)
{
	char pv[MNT_PATH_MAX], m[MNT_PATH_MAX], sl[MNT_PATH_MAX], sx[MNT_PATH_MAX];
	char sy[MNT_PATH_MAX], dx[MNT_PATH_MAX], dy[MNT_PATH_MAX];
	struct mnt_info a, b;
	int mgroup;

	ASSERT_EQ(0, mnt_make(&self->b, "pv", pv, 0));
	mgroup = slave_of_m(_metadata, &self->b, m, sl);
	/* The destination s, shared, with its peer d. */
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	/* Private source. */
	ASSERT_EQ(0, mount(pv, mnt_subpath(sx, self->s, "x"), NULL, MS_BIND, NULL));
	a = mnt_info_at(0, sx);
	b = mnt_info_at(0, mnt_subpath(dx, self->d, "x"));
	EXPECT_LT(0, a.shared);
	EXPECT_NE(mnt_info_at(0, self->s).shared, a.shared);
	EXPECT_EQ(0, a.master);
	EXPECT_EQ(a.shared, b.shared);
	EXPECT_EQ(0, mnt_info_at(0, pv).shared);
	/* Slave source. */
	ASSERT_EQ(0, mount(sl, mnt_subpath(sy, self->s, "y"), NULL, MS_BIND, NULL));
	expect_slave_and_shared(_metadata, sy, mnt_subpath(dy, self->d, "y"), m, mgroup);
}

/*
 * A propagated unmount takes away the copies that have nothing mounted under them and leaves a copy
 * with a submount (MNT_DETACH; mount_namespaces(7) "Unmount semantics").
 */
TEST_F(peers, propagated_umount_spares_copy_with_submounts)
{
	char sx[MNT_PATH_MAX], sy[MNT_PATH_MAX], dx[MNT_PATH_MAX], dy[MNT_PATH_MAX];
	char dxz[MNT_PATH_MAX];

	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mount(self->s, self->d, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sy, self->s, "y"), 0));
	ASSERT_EQ(1, mnt_we_see(mnt_subpath(dx, self->d, "x")));
	ASSERT_EQ(1, mnt_we_see(mnt_subpath(dy, self->d, "y")));
	/* Under the copy d/x only (private, so it does not propagate back to s/x). */
	ASSERT_EQ(0, mnt_set_propagation(dx, MS_PRIVATE));
	ASSERT_EQ(0, mkdir(mnt_subpath(dxz, dx, "z"), 0755));
	ASSERT_EQ(0, mnt_tmpfs(dxz, 0));
	/* Control: s/y's copy has no submount and goes with it. */
	ASSERT_EQ(0, umount2(sy, 0));
	EXPECT_EQ(0, mnt_we_see(dy));
	ASSERT_EQ(0, umount2(sx, MNT_DETACH));
	EXPECT_EQ(0, mnt_we_see(sx));
	EXPECT_EQ(1, mnt_we_see(dx));
	EXPECT_EQ(1, mnt_we_see(dxz));
}

/*
 * A mount made under a shared mount is shared in a new peer group whose other members are its
 * copies under the parent's peers; under a private mount it is private (mount_namespaces(7) "A new
 * peer group is also created ...", NOTES).
 */
TEST_F(peers, new_mount_under_shared_starts_peer_group_of_its_copies)
{
	char sx[MNT_PATH_MAX], q[MNT_PATH_MAX], qx[MNT_PATH_MAX];
	struct mnt_info ours, theirs, priv;
	struct mnt_peer p;
	int group;

	ASSERT_EQ(0, mnt_make(&self->b, "q", q, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "q/x"));
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	group = mnt_info_at(0, self->s).shared;
	ASSERT_EQ(0, mnt_peer_start(&p, false));
	ASSERT_EQ(group, mnt_info_at(p.pid, self->s).shared);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(sx, self->s, "x"), 0));
	ours = mnt_info_at(0, sx);
	theirs = mnt_info_at(p.pid, sx);
	EXPECT_LT(0, ours.shared);
	EXPECT_NE(group, ours.shared);
	EXPECT_EQ(0, ours.master);
	EXPECT_EQ(ours.shared, theirs.shared);
	EXPECT_EQ(0, theirs.master);
	EXPECT_NE(ours.id, theirs.id);
	/* Under the private q: no optional fields. */
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(qx, q, "x"), 0));
	priv = mnt_info_at(0, qx);
	EXPECT_EQ(0, priv.shared);
	EXPECT_EQ(0, priv.master);
	EXPECT_FALSE(priv.unbindable);
	EXPECT_EQ(0, mnt_peer_stop(&p));
}

/*
 * MS_MOVE keeps a shared mount shared in its peer group, still propagating, when moved onto a
 * private mount; a slave moved under a shared mount becomes slave and shared, with copies under
 * the destination's peers (mount_namespaces(7) "Move (MS_MOVE) semantics").
 */
TEST_F(peers, move_of_shared_or_slave_mount_follows_the_table)
{
	char a[MNT_PATH_MAX], a2[MNT_PATH_MAX], m[MNT_PATH_MAX], sl[MNT_PATH_MAX];
	char sy[MNT_PATH_MAX], dy[MNT_PATH_MAX], dx[MNT_PATH_MAX], a2x[MNT_PATH_MAX];
	char e[MNT_PATH_MAX];
	int agroup, mgroup;

	/* a shared, with its peer a2; moved onto the private d. */
	ASSERT_EQ(0, mnt_make(&self->b, "a", a, 0));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "a/x"));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "a2"));
	mnt_path(a2, &self->b, "a2");
	ASSERT_EQ(0, mnt_set_propagation(a, MS_SHARED));
	agroup = mnt_info_at(0, a).shared;
	ASSERT_EQ(0, mount(a, a2, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(a, self->d, NULL, MS_MOVE, NULL));
	EXPECT_EQ(0, mnt_we_see(a));
	EXPECT_EQ(agroup, mnt_info_at(0, self->d).shared);
	ASSERT_EQ(0, mnt_tmpfs(mnt_subpath(dx, self->d, "x"), 0));
	EXPECT_EQ(1, mnt_we_see(mnt_subpath(a2x, a2, "x")));
	/* sl, a slave of m; moved under the shared s, whose peer is e. */
	mgroup = slave_of_m(_metadata, &self->b, m, sl);
	ASSERT_EQ(0, mnt_set_propagation(self->s, MS_SHARED));
	ASSERT_EQ(0, mnt_mkdir(&self->b, "e"));
	mnt_path(e, &self->b, "e");
	ASSERT_EQ(0, mount(self->s, e, NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(sl, mnt_subpath(sy, self->s, "y"), NULL, MS_MOVE, NULL));
	EXPECT_EQ(0, mnt_we_see(sl));
	expect_slave_and_shared(_metadata, sy, mnt_subpath(dy, e, "y"), m, mgroup);
}

/* --- a busy copy that a propagated umount would pull out ------------------- */

static int count_id(const struct mnt_info *m, void *arg)
{
	int *want = arg;

	if (m->id == want[0])
		want[1]++;
	return 0;
}

/* How many lines of our mountinfo carry mount id @id (0 or 1), or -errno. */
static int mounts_with_id(int id)
{
	int want[2] = { id, 0 }, err = mnt_info_each(0, count_id, want);

	return err ? err : want[1];
}

static int busy_copy_worker(void *arg)
{
	const char *base = "/tmp/base", *victim = "/tmp/base/victim";
	int ours = -1, other = -1, tree = -1, rc = 1, n;
	struct statx stx;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir(base, 0755) || mnt_tmpfs(base, 0) || mnt_set_propagation(base, MS_SHARED) ||
	    mkdir(victim, 0755) || mnt_tmpfs(victim, 0))
		return child_fail("a shared base with a victim tmpfs on it");
	ours = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (ours < 0)
		return child_fail("open our mount namespace: %m");
	/* The other namespace: base' and victim' are slaves of ours. */
	if (unshare(CLONE_NEWNS) || mount("", "/", NULL, MS_REC | MS_SLAVE, NULL)) {
		child_fail("a slave mount namespace: %m");
		goto out;
	}
	other = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (other < 0) {
		child_fail("open the other mount namespace: %m");
		goto out;
	}
	/* The probe: a known flag reaches the lookup of a missing source. */
	if (!syscall(__NR_move_mount, AT_FDCWD, "/tmp/nsconform-missing", AT_FDCWD, victim,
		     MOVE_MOUNT_BENEATH)) {
		child_fail("MOVE_MOUNT_BENEATH from a missing path succeeded");
		goto out;
	}
	if (errno == EINVAL || errno == ENOSYS) {
		rc = ns_child_lacks(NS_F_MOVE_MOUNT_BENEATH);
		goto out;
	}
	/* A copy T of base' goes beneath victim': the copy a umount of victim would take. */
	tree = ns_open_tree(AT_FDCWD, base, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (tree < 0 || syscall(__NR_move_mount, tree, "", AT_FDCWD, victim,
				MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_BENEATH)) {
		child_fail("a recursive copy of base moved beneath victim': %m");
		goto out;
	}
	if (statx(tree, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) || !(stx.stx_mask & STATX_MNT_ID)) {
		child_fail("statx(STATX_MNT_ID) of the copy: %m");
		goto out;
	}
	if (setns(ours, CLONE_NEWNS)) {
		child_fail("setns() back to our namespace: %m");
		goto out;
	}
	/* The input the fix refuses: T is held open by our descriptor. */
	if (!umount2(victim, 0)) {
		child_fail("umount2(victim) succeeded while the copy beneath victim' was open");
		goto out;
	}
	if (errno != EBUSY) {
		child_fail("umount2(victim) with the copy beneath victim' open: %m, expected EBUSY");
		goto out;
	}
	if (mnt_we_see(victim) != 1 || setns(other, CLONE_NEWNS)) {
		child_fail("victim gone after EBUSY, or setns() to the other namespace: %m");
		goto out;
	}
	n = mounts_with_id((int)stx.stx_mnt_id);
	if (n != 1) {
		child_fail("the open copy (mount %llu) after the refused umount: %d lines of "
			   "mountinfo, expected 1", (unsigned long long)stx.stx_mnt_id, n);
		goto out;
	}
	/* The input the fix leaves alone: closed, the umount goes through. */
	close(tree);
	tree = -1;
	if (setns(ours, CLONE_NEWNS)) {
		child_fail("setns() back to our namespace: %m");
		goto out;
	}
	if (umount2(victim, 0)) {
		child_fail("umount2(victim) once the copy was closed: %m");
		goto out;
	}
	if (mnt_we_see(victim) != 0) {
		child_fail("victim still mounted after its umount");
		goto out;
	}
	rc = 0;
out:
	if (tree >= 0)
		close(tree);
	if (other >= 0)
		close(other);
	close(ours);
	return rc;
}

/*
 * A umount fails with EBUSY when a mount it would take away is in use, and a propagated umount
 * takes the copies in the receiving mounts at the same mount point (umount(2) ERRORS: EBUSY
 * "target could not be unmounted because it is busy"; mount_namespaces(7) "Unmount
 * semantics"): with a recursive copy of the shared parent moved beneath the slave copy of the
 * victim and held open by a descriptor, umount2(victim) is EBUSY and the copy stays mounted;
 * closed, the umount succeeds (fix "fs: don't silently unmount busy mounts", Debian 7.2.11 and
 * 6.12.117: before it the open copy was pulled out and the umount succeeded, as the upstream
 * selftest umount_propagation/busy_copy_pulled_out finds; unfixed in 6.18.y as of 6.18.44).
 */
TEST(propagated_umount_of_busy_copy_ebusy)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNS, busy_copy_worker, NULL);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- a busy mount that unmounting shrinkable submounts moves into reach -------- */

static bool is_tmpfs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == 0x01021994 /* TMPFS_MAGIC */;
}

static int shrink_busy_worker(void *arg)
{
	const char *am = "/tmp/dbg/tracing", *r = "/tmp/p2/options";
	char cwd[MNT_PATH_MAX];
	struct stat st;
	int err;

	(void)arg;
	if (ns_private_tmp("size=1m"))
		return 1;
	if (mkdir("/tmp/dbg", 0755) || mkdir("/tmp/p", 0755) || mkdir("/tmp/p1", 0755) ||
	    mkdir("/tmp/p2", 0755))
		return child_fail("mkdir: %m");
	err = mnt_debugfs_automount("/tmp/dbg", 0);
	if (err == -ENODEV || err == -ENOENT)
		return ns_child_lacks(NS_F_TRACEFS_AUTOMOUNT);
	if (err) {
		errno = -err;
		return child_fail("debugfs on /tmp/dbg: %m");
	}
	if (stat("/tmp/dbg/tracing/.", &st))
		return child_fail("trigger the automount: %m");
	/* P shared, P1 its slave and shared, P2 a peer of P1: all binds of the automount. */
	if (mount(am, "/tmp/p", NULL, MS_BIND, NULL) || mnt_set_propagation("/tmp/p", MS_SHARED) ||
	    mount("/tmp/p", "/tmp/p1", NULL, MS_BIND, NULL) ||
	    mnt_set_propagation("/tmp/p1", MS_SLAVE) || mnt_set_propagation("/tmp/p1", MS_SHARED) ||
	    mount("/tmp/p1", "/tmp/p2", NULL, MS_BIND, NULL))
		return child_fail("P, P1 and P2");
	/* B, shrinkable, on P/options: its copies land on P1/options and P2/options. */
	if (mount(am, "/tmp/p/options", NULL, MS_BIND, NULL) || mnt_we_see(r) != 1)
		return child_fail("B on /tmp/p/options and its copy on %s: %m", r);
	/* R, a tmpfs on the copy in P2, made busy as our working directory. */
	if (mnt_set_propagation(r, MS_PRIVATE) || mount("R", r, "tmpfs", 0, NULL) || chdir(r))
		return child_fail("R on %s as our working directory: %m", r);
	/* P, with B on it, moved into P1. */
	if (mount("/tmp/p", "/tmp/p1/instances", NULL, MS_MOVE, NULL))
		return child_fail("move P to /tmp/p1/instances: %m");
	if (!is_tmpfs(r))
		return child_fail("R is not on %s before the umount", r);
	if (!umount2("/tmp/p1", 0))
		return child_fail("umount2(/tmp/p1) succeeded with R, our working directory, "
				  "in reach");
	if (errno != EBUSY)
		return child_fail("umount2(/tmp/p1) with R busy: %m, expected EBUSY");
	if (!is_tmpfs(r) || !getcwd(cwd, sizeof(cwd)) || strcmp(cwd, r))
		return child_fail("R, our working directory, did not stay on %s after EBUSY", r);
	return 0;
}

/*
 * A umount that would unmount a busy mount fails with EBUSY and unmounts nothing in use
 * (umount(2) ERRORS: EBUSY), also when the unmounting of shrinkable submounts (automounts and
 * their binds) first moves a busy mount into the reach of a propagated umount: R, our working
 * directory, on a copy of such a submount in a peer of the target stays mounted (fix
 * "namespace: check a submount for references right before unmounting it", Debian 6.1.192,
 * 6.12.113 and 7.2.11: before it the umount succeeded and took R with it, as the upstream
 * selftest umount_propagation/shrink_submounts busy_mount_moved_into_reach finds; unfixed in
 * 6.18.y as of 6.18.44).  Real root: debugfs mounts only in the initial user namespace.
 */
TEST(umount_of_shrinkable_tree_keeps_busy_mount_ebusy)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	rc = ns_run_admin(CLONE_NEWNS, shrink_busy_worker, NULL);
	NS_NEED_FEATURE(NS_F_TRACEFS_AUTOMOUNT, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- a recursive bind that would carry a namespace's own file into it ------ */

static int rbind_loop_worker(void *arg)
{
	struct ns_sync s;
	char src[64];
	int fd, rc;
	pid_t pid;

	(void)arg;
	/* The child's namespace must be the newer one. */
	if (mnt_own_ns_on_one_cpu())
		return 1;
	if (mnt_touch("/tmp/x") || mkdir("/tmp/y", 0755) ||
	    mount("/proc/self/ns/net", "/tmp/x", NULL, MS_BIND, NULL))
		return child_fail("M, our network namespace file bound on /tmp/x: %m");
	fd = open("/tmp/x", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open /tmp/x: %m");
	pid = ns_clone_synced(ns_clone, CLONE_NEWNS, &s);
	if (pid == 0) {
		/* In the newer namespace, once its own file sits on M in ours. */
		if (ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS))
			_exit(child_fail("no word from the parent"));
		snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
		if (mnt_tmpfs("/tmp/y", 0) || mnt_touch("/tmp/y/f"))
			_exit(child_fail("a tmpfs on /tmp/y with a file f"));
		if (!mount(src, "/tmp/y/f", NULL, MS_BIND | MS_REC, NULL))
			_exit(child_fail("a recursive bind of M, with our own mount namespace file "
					 "on top, succeeded"));
		if (errno != EINVAL)
			_exit(child_fail("a recursive bind of M with our own mount namespace file "
					 "on top: %m, expected EINVAL"));
		if (mount(src, "/tmp/y/f", NULL, MS_BIND, NULL))
			_exit(child_fail("a plain bind of M: %m"));
		_exit(0);
	}
	if (pid < 0) {
		close(fd);
		return child_fail("a child in a new mount namespace: %m");
	}
	snprintf(src, sizeof(src), "/proc/%d/ns/mnt", pid);
	rc = mount(src, "/tmp/x", NULL, MS_BIND, NULL);
	if (rc)
		child_fail("bind the newer mount namespace's file on M: %m");
	else
		ns_sync_tell(&s, false, NULL, 0);
	ns_sync_close(&s);
	if (rc) {
		ns_wait(pid, NS_WAIT_MS);
		close(fd);
		return 1;
	}
	rc = ns_wait(pid, NS_WAIT_MS);
	close(fd);
	return rc ? child_fail("the child in the newer namespace failed (exit %d)", rc) : 0;
}

/*
 * A mount namespace file binds only into an older mount namespace than its own, so that no
 * namespace pins itself (linux:4ce5d2b1a8fd "vfs: Don't copy mount bind mounts of
 * /proc/<pid>/ns/mnt between namespaces", mnt_ns_loop()); a recursive bind of a mount from
 * another namespace copies what is stacked on it there, and is refused with EINVAL when that
 * includes the file of the caller's own namespace, while a plain bind of the same mount works
 * (fix "namespace: check a recursive bind mount for mount namespace loops", Debian 7.2.11 and
 * a 6.18.y after 6.18.15: before it the recursive bind succeeded, as the upstream selftest
 * mount_cycle/nsfs_rbind_loop own_ns_file_below_foreign_source finds on 6.18.15).
 */
TEST(recursive_bind_carrying_own_ns_file_einval)
{
	int rc;

	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, rbind_loop_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
