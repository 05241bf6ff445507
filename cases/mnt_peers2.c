// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace behaviours that the kernel's own 7.3 selftests flag on a Debian
 * release and pass on another release of the same series, where no other
 * case checked them (issue 27, item 3; fixtures/data/peers.tsv maps each
 * peer test to its nsconform test).
 *
 * MOVE_MOUNT_BENEATH below a locked mount (the behaviour the selftests
 * umount_propagation/locked_mount and move_mount/beneath_*_locked_* start
 * from).  A mount inherited by a less privileged mount namespace is locked
 * (mount_namespaces(7) "Restrictions on mount namespaces"); whether a mount
 * can be put beneath it changed on purpose upstream, so each generation is
 * asserted exactly:
 *
 *   6.5 to 7.0: refused with EINVAL (can_move_mount_beneath() checked
 *                IS_MNT_LOCKED() of the mount on top);
 *   7.1 and later: allowed, and the lock moves down: the mount put beneath
 *                takes over the job of hiding what is under it, the one on
 *                top may then be unmounted ("mount: transfer MNT_LOCKED
 *                when mounting beneath", Christian Brauner's series
 *                "work-mount-beneath-rootfs", 2026-02-24, merged
 *                for 7.1: Debian 7.0.4 refuses, 7.1.3 allows; 7.3.4
 *                fs/namespace.c attach_recursive_mnt()).
 *
 * Which generation a kernel has comes from the other half of that series,
 * MOVE_MOUNT_BENEATH onto the caller's root (beneath_root_generation()),
 * never from the call under test or the release.
 *
 * A file handle below a locked mount, decoded while the mount goes away.
 * The peers' tests of the root of an empty mount namespace are in
 * cases/mnt_empty_root.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "mnt.h"
#include "kselftest_harness.h"

static int move_beneath_fd(int fd, const char *to)
{
	return syscall(__NR_move_mount, fd, "", AT_FDCWD, to,
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_BENEATH);
}

/*
 * In a child: 1 when move_mount() knows MOVE_MOUNT_BENEATH (a missing source
 * is ENOENT), 0 when it does not (EINVAL for the unknown flag, ENOSYS);
 * -1 after child_fail() on anything else.
 */
static int have_beneath(const char *to)
{
	if (!syscall(__NR_move_mount, AT_FDCWD, "/tmp/nsconform-missing", AT_FDCWD, to,
		     MOVE_MOUNT_BENEATH))
		return child_fail("MOVE_MOUNT_BENEATH from a missing path succeeded"), -1;
	if (errno == EINVAL || errno == ENOSYS)
		return 0;
	if (errno != ENOENT)
		return child_fail("MOVE_MOUNT_BENEATH from a missing path: %m, expected ENOENT"),
		       -1;
	return 1;
}

/* A detached tmpfs with an empty file @mark in it: its fd, or -1 after child_fail(). */
static int detached_tmpfs(const char *mark)
{
	int fs, mnt, fd;

	fs = ns_fsopen("tmpfs", 0);
	if (fs < 0)
		return child_fail("fsopen(tmpfs): %m"), -1;
	if (ns_fsconfig(fs, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		close(fs);
		return child_fail("fsconfig(FSCONFIG_CMD_CREATE): %m"), -1;
	}
	mnt = ns_fsmount(fs, FSMOUNT_CLOEXEC, 0);
	close(fs);
	if (mnt < 0)
		return child_fail("fsmount: %m"), -1;
	fd = openat(mnt, mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		close(mnt);
		return child_fail("create %s in the detached tmpfs: %m", mark), -1;
	}
	close(fd);
	return mnt;
}

/* --- the generation ------------------------------------------------------- */

/* In a mount namespace of its own: *@arg gets move_mount()'s errno beneath our root, 0 if done. */
static int root_probe_worker(void *arg)
{
	int *err = arg, tree, rc;

	if (ns_private_tmp("size=1m"))
		return 1;
	rc = have_beneath("/tmp");
	if (rc <= 0)
		return rc ? 1 : ns_child_lacks(NS_F_MOVE_MOUNT_BENEATH);
	/* A root that is the root of a mount of its own: a tmpfs, chrooted into. */
	if (mkdir("/tmp/r", 0755) || mnt_tmpfs("/tmp/r", 0) || chdir("/tmp/r") || chroot("."))
		return child_fail("chroot into a tmpfs on /tmp/r: %m");
	tree = ns_open_tree(AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0 || fchdir(tree))
		return child_fail("a clone of our root as working directory: %m");
	*err = move_beneath_fd(tree, "/") ? errno : 0;
	close(tree);
	return 0;
}

/*
 * Which generation the kernel has: 1 when MOVE_MOUNT_BENEATH onto the caller's root (chrooted
 * into a mount of its own) succeeds (7.1+: "move_mount: allow MOVE_MOUNT_BENEATH on the rootfs",
 * the series that made a locked mount hand its lock down), 0 when it is refused with EINVAL (6.5
 * to 7.0: "mounting beneath the rootfs only makes sense when the semantics of
 * pivot_root(".", ".") are used"), NS_CHILD_SKIP without MOVE_MOUNT_BENEATH (before 6.5); -1,
 * logged, on anything else.
 */
static int beneath_root_generation(void)
{
	int *err = ns_shared_page(sizeof(*err)), rc;

	if (!err)
		return -1;
	*err = -1;
	rc = ns_run_admin(CLONE_NEWNS, root_probe_worker, err);
	if (rc == NS_CHILD_SKIP)
		return rc;
	if (rc || (*err && *err != EINVAL)) {
		fprintf(stderr, "# probe: worker %d, MOVE_MOUNT_BENEATH onto our root: %s\n", rc,
			*err > 0 ? strerror(*err) : "not reached");
		return -1;
	}
	fprintf(stderr, "# generation: %s\n", *err ?
		"6.5-7.0 (nothing goes beneath our root, nor beneath a locked mount)" :
		"7.1+ (a mount goes beneath our root, and beneath a locked mount, taking its lock)");
	return !*err;
}

/* --- a mount put beneath a locked mount ------------------------------------ */

static int beneath_locked_worker(void *arg)
{
	const char *l = "/tmp/l";
	int gen = *(int *)arg, n, rc;

	if (ns_private_tmp("size=1m"))
		return 1;
	/* L, a tmpfs made in our user namespace, covers l/hidden. */
	if (mkdir(l, 0755) || mnt_touch("/tmp/l/hidden") || mnt_tmpfs(l, 0))
		return child_fail("a tmpfs L on %s over a file hidden: %m", l);
	/* A less privileged mount namespace: L is locked there. */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("a user namespace with a mount namespace: %m");
	if (!umount2(l, 0) || errno != EINVAL)
		return child_fail("umount2 of the inherited L: %m, expected EINVAL (locked)");
	rc = have_beneath(l);
	if (rc <= 0)
		return rc ? 1 : ns_child_lacks(NS_F_MOVE_MOUNT_BENEATH);
	n = detached_tmpfs("n-mark");
	if (n < 0)
		return 1;
	rc = move_beneath_fd(n, l);
	close(n);
	if (!gen) {
		if (!rc)
			return child_fail("N went beneath the locked L (6.5-7.0 refuse it)");
		if (errno != EINVAL)
			return child_fail("N beneath the locked L: %m, expected EINVAL");
		if (!umount2(l, MNT_DETACH) || errno != EINVAL)
			return child_fail("umount2 of L after the refusal: %m, expected EINVAL");
		if (!access("/tmp/l/hidden", F_OK) || !access("/tmp/l/n-mark", F_OK))
			return child_fail("after the refusal, hidden or N's mark is visible");
		return 0;
	}
	if (rc)
		return child_fail("N beneath the locked L: %m (7.1+ allow it)");
	/* L handed its lock to N: L may go now, N may not, and hidden stays covered. */
	if (umount2(l, 0))
		return child_fail("umount2 of L once N is beneath it: %m (the lock is N's now)");
	if (access("/tmp/l/n-mark", F_OK))
		return child_fail("N is not on %s once L is gone: %m", l);
	if (!umount2(l, 0) || errno != EINVAL)
		return child_fail("umount2 of N, which took L's lock: %m, expected EINVAL");
	if (!umount2(l, MNT_DETACH) || errno != EINVAL)
		return child_fail("umount2(MNT_DETACH) of N: %m, expected EINVAL");
	if (!access("/tmp/l/hidden", F_OK))
		return child_fail("what L covered is visible after the moves");
	return 0;
}

/*
 * A mount inherited by a less privileged mount namespace is locked and cannot be taken away to
 * reveal what it covers (mount_namespaces(7) "Restrictions on mount namespaces"; umount2
 * EINVAL).  move_mount(MOVE_MOUNT_BENEATH) below such a mount is refused with EINVAL on 6.5 to
 * 7.0 and leaves it locked; on 7.1+ it succeeds and the lock moves down: the mount on top then
 * unmounts, the one put beneath does not (EINVAL, with and without MNT_DETACH), and what was
 * covered stays covered (deliberate change "mount: transfer MNT_LOCKED when mounting beneath",
 * series "work-mount-beneath-rootfs", 2026; the generation from beneath_root_generation(); the
 * upstream selftests locked_mount expiry_leaves_a_locked_mount_alone and
 * mount_namespace_file_cant_take_the_lock need the 7.1+ generation to reach their steps).
 */
TEST(beneath_locked_mount_takes_its_lock_or_einval)
{
	int *gen, rc;

	NS_NEED_ADMIN_OR_USERNS();
	gen = ns_shared_page(sizeof(*gen));
	ASSERT_NE(NULL, gen);
	*gen = beneath_root_generation();
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, *gen == NS_CHILD_SKIP);
	ASSERT_LE(0, *gen);
	rc = ns_run_admin(CLONE_NEWNS, beneath_locked_worker, gen);
	NS_NEED_FEATURE(NS_F_MOVE_MOUNT_BENEATH, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- a file handle below a locked mount, through a lazy umount -------------- */

#define FH_ROUNDS	32	/* lazy umounts raced */
#define FH_RACERS	3	/* threads in open_by_handle_at() */
#define FH_EXTRA	64	/* more mounts in the tree: a longer umount */
/*
 * The racers spin only around the umount: up to FH_PRE_US before it (a different point of
 * their loop each round), FH_POST_US after it.  Rounds of 3000 and 2000 us, 100 of each kind,
 * took ~2.7 s of CPU a pass on a busy two-core host; these, 32 of each, ~0.7 s, and 7.1.3
 * still oopses in its first rounds.
 */
#define FH_PRE_US	400
#define FH_POST_US	200

struct fh_buf {
	struct file_handle fh;
	unsigned char bytes[MAX_HANDLE_SZ];
};

struct fh_race {
	int dfd;
	struct fh_buf *h;
	atomic_int go, stop, decoded;
};

static int fh_decode(int dfd, struct fh_buf *h)
{
	return open_by_handle_at(dfd, &h->fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void *fh_racer(void *arg)
{
	struct fh_race *r = arg;

	while (!atomic_load(&r->go))
		;
	while (!atomic_load(&r->stop)) {
		int fd = fh_decode(r->dfd, r->h);

		if (fd >= 0) {
			atomic_fetch_add(&r->decoded, 1);
			close(fd);
		}
	}
	return NULL;
}

/*
 * One round: a recursive bind of H on W (or, @dissolve, a detached recursive copy of H), and a
 * decode below its locked cover while W is lazily unmounted (the copy dissolved by its close).
 */
static int fh_round(struct fh_buf *h, unsigned int seed, bool dissolve)
{
	struct fh_race r = { .h = h };
	pthread_t th[FH_RACERS];
	int i, n = 0, fd, rc = 0, tree = -1;

	if (dissolve) {
		tree = ns_open_tree(AT_FDCWD, "/tmp/h",
				    OPEN_TREE_CLONE | AT_RECURSIVE | OPEN_TREE_CLOEXEC);
		if (tree < 0)
			return child_fail("a detached recursive copy of /tmp/h: %m");
		r.dfd = openat(tree, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		if (mount("/tmp/h", "/tmp/w", NULL, MS_BIND | MS_REC, NULL))
			return child_fail("bind /tmp/h recursively on /tmp/w: %m");
		r.dfd = open("/tmp/w", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (r.dfd < 0) {
		if (tree >= 0)
			close(tree);
		return child_fail("a directory descriptor on the copy: %m");
	}
	fd = fh_decode(r.dfd, h);
	if (fd >= 0 || errno != EPERM) {
		rc = fd >= 0 ? child_fail("a handle below the locked cover decoded while mounted") :
		     child_fail("a handle below the locked cover, mounted: %m, expected EPERM");
		if (fd >= 0)
			close(fd);
		if (tree >= 0)
			close(tree);
		close(r.dfd);
		return rc;
	}
	for (; n < FH_RACERS; n++)
		if (pthread_create(&th[n], NULL, fh_racer, &r)) {
			rc = child_fail("pthread_create");
			break;
		}
	atomic_store(&r.go, 1);
	if (!rc) {
		usleep(seed % FH_PRE_US);
		if (dissolve) {
			close(tree);
			tree = -1;
		} else if (umount2("/tmp/w", MNT_DETACH)) {
			rc = child_fail("umount2(/tmp/w, MNT_DETACH): %m");
		}
		usleep(FH_POST_US);
	}
	atomic_store(&r.stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (!rc && atomic_load(&r.decoded))
		rc = child_fail("a handle below the locked cover decoded %d times during the lazy "
				"umount", atomic_load(&r.decoded));
	if (!rc) {
		fd = fh_decode(r.dfd, h);
		if (fd >= 0) {
			close(fd);
			rc = child_fail("a handle below the locked cover decoded once unmounted");
		} else if (errno != EPERM) {
			rc = child_fail("a handle below the locked cover, unmounted: %m, "
					"expected EPERM");
		}
	}
	if (tree >= 0)
		close(tree);
	close(r.dfd);
	return rc;
}

static int fh_worker(void *arg)
{
	struct fh_buf *h = arg;
	char p[64];
	int mnt_id, i;

	if (ns_private_tmp("size=4m"))
		return 1;
	/* H: a tmpfs with top/secret/inner, whose handle we take before covering secret. */
	if (mkdir("/tmp/h", 0755) || mkdir("/tmp/w", 0755) || mnt_tmpfs("/tmp/h", 0) ||
	    mkdir("/tmp/h/top", 0755) || mkdir("/tmp/h/top/secret", 0755) ||
	    mkdir("/tmp/h/top/secret/inner", 0755) || mkdir("/tmp/h/empty", 0755))
		return child_fail("the tree /tmp/h: %m");
	h->fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, "/tmp/h/top/secret/inner", &h->fh, &mnt_id, 0))
		return child_fail("name_to_handle_at(inner): %m");
	if (mnt_tmpfs("/tmp/h/top/secret", 0))
		return child_fail("the cover on /tmp/h/top/secret: %m");
	for (i = 0; i < FH_EXTRA; i++) {
		snprintf(p, sizeof(p), "/tmp/h/c%d", i);
		if (mkdir(p, 0755) || mount("/tmp/h/empty", p, NULL, MS_BIND, NULL))
			return child_fail("bind %d of /tmp/h/empty: %m", i);
	}
	/* Less privileged: the cover, and every mount of the tree, is locked here. */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("a user namespace with a mount namespace: %m");
	for (i = 0; i < 2 * FH_ROUNDS; i++)
		if (fh_round(h, (unsigned int)getpid() * 7919u + (unsigned int)i * 104729u,
			     i >= FH_ROUNDS))
			return 1;
	return 0;
}

/*
 * open_by_handle_at(2) by root of a user namespace refuses, with EPERM, a handle of a file below
 * a mount whose children are locked in the caller's mount namespace: what the locked mount
 * covers stays hidden (mount_namespaces(7) "Restrictions on mount namespaces"; linux:620c266f3949
 * "fhandle: relax open_by_handle_at() permission checks", may_decode_fh()).  It must hold while
 * the mount the handle is decoded through goes away: in 32 rounds of three threads decoding
 * during umount2(MNT_DETACH) of a recursive bind, and 32 during the close that dissolves a
 * detached recursive copy, no handle decodes, the calls after the umount fail with EPERM, and
 * the kernel stays healthy (the upstream selftest mount_cycle/locked_handle lazy_umount and
 * dissolve oopsed Debian 7.1.3 in do_handle_open(), a NULL mnt_ns read; 7.1.13, 7.0.4 and 7.2.6
 * pass; fixes of linux:620c266f3949: "fhandle: fix UAF due to unlocked ->mnt_ns read in
 * may_decode_fh()", Debian 6.12.95, and one for a mnt_ns read as NULL once detached, 2026).
 */
TEST(handle_below_locked_mount_refused_through_lazy_umount)
{
	struct fh_buf *h;

	NS_NEED_ADMIN_OR_USERNS();
	h = ns_shared_page(sizeof(*h));
	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWNS, fh_worker, h));
}

TEST_HARNESS_MAIN
