// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for user-namespace fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the answer for an
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/*
 * --- an overlayfs context completed from another user namespace ---------
 * First in the binary: nsrun charges a kernel WARNING to the first result
 * line it reads after it, and a line of an earlier test that reached it
 * late took the WARNING of this one (6.18.15, user pass).
 */

/*
 * The overlay holder's answers: the kernel has no overlayfs, none in a user namespace, or one
 * on the legacy mount path (its options read only when the mount is made, in the namespaces of
 * whoever completes it).
 */
#define NO_OVERLAY 3
#define NO_USERNS_OVERLAY 4
#define LEGACY_OVERLAY 5

/* An overlay context of the two lower layers on /tmp: the fd, or -1. */
static int overlay_context(void)
{
	int fd = ns_fsopen("overlay", FSOPEN_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ns_fsconfig(fd, FSCONFIG_SET_STRING, "lowerdir", "/tmp/l1:/tmp/l2", 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The holder, root of a user namespace below the worker's: an overlay context. */
static int ovl_open(void *arg, int *ctx)
{
	(void)arg;
	*ctx = overlay_context();
	if (*ctx < 0)
		return errno == ENODEV ? NO_OVERLAY :
		       child_fail("an overlay context as root of a user namespace: %m");
	return 0;
}

/*
 * The same, where fsconfig() looks the layers up (since linux:1784fbc2ed9c, 6.5): a missing
 * one fails with ENOENT; before, the legacy path takes any.
 */
static int ovl_open_new_api(void *arg, int *ctx)
{
	int fd = ns_fsopen("overlay", FSOPEN_CLOEXEC), err;

	if (fd < 0)
		return errno == ENODEV ? NO_OVERLAY :
		       child_fail("fsopen(\"overlay\") as root of a user namespace: %m");
	err = ns_fsconfig(fd, FSCONFIG_SET_STRING, "lowerdir", "/tmp/none:/tmp/l2", 0) ? errno : 0;
	close(fd);
	if (err == 0)
		return LEGACY_OVERLAY;
	if (err != ENOENT) {
		errno = err;
		return child_fail("overlay lowerdir of a missing directory: %m, expected ENOENT");
	}
	return ovl_open(arg, ctx);
}

/* Released: the same context, completed in its own namespace, mounts. */
static int ovl_own_create(void *arg)
{
	int fd = overlay_context(), rc = 0;

	(void)arg;
	if (fd < 0)
		return child_fail("a second overlay context: %m");
	if (ns_fsconfig(fd, NSC_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		rc = errno == EPERM ? NO_USERNS_OVERLAY :
		     child_fail("FSCONFIG_CMD_CREATE of overlay in its own user namespace: %m");
	close(fd);
	return rc;
}

/* What ovl_worker() saw: ns_fsctx_create_from_holder()'s answer, errno and release. */
struct ovl_seen {
	int (*open)(void *arg, int *ctx);	/* the holder's: ovl_open or ovl_open_new_api */
	int rc;
	int err;
	int released;
};

/*
 * With CAP_SYS_ADMIN (ns_run_admin()), lower layers on a /tmp of its own, which the holder's
 * mount namespace copies: the holder's context completed here.
 */
static int ovl_worker(void *arg)
{
	struct ovl_seen *seen = arg;
	int err = ns_private_tmp("size=1m");

	if (err)
		return err;
	if (mkdir("/tmp/l1", 0755) || mkdir("/tmp/l2", 0755))
		return child_fail("the lower layers /tmp/l1 and /tmp/l2: %m");
	seen->rc = ns_fsctx_create_from_holder(seen->open, ovl_own_create, NULL, &seen->err,
					       &seen->released);
	return 0;
}

/* ovl_worker() with the holder's OPEN, in a mount namespace of its own: what it saw. */
static struct ovl_seen *ovl_run(int (*open)(void *arg, int *ctx))
{
	struct ovl_seen *seen = ns_shared_page(sizeof(*seen));

	if (!seen)
		return NULL;
	*seen = (struct ovl_seen){ .open = open, .rc = -1, .err = -1, .released = -1 };
	if (ns_run_admin(CLONE_NEWNS, ovl_worker, seen))
		seen->rc = -1;
	return seen;
}

/*
 * Completing an overlay fs context (FSCONFIG_CMD_CREATE, fsconfig(2)) from a process of
 * another user namespace than the one it was opened in (fsopen(2)), here an ancestor that
 * holds CAP_SYS_ADMIN over it, is refused, quietly: fix "ovl: don't warn when the mount is
 * completed from another user namespace", linux:63981fc786da, Debian 6.12.105 (before it the
 * refusal came with a kernel WARNING, which the harness's kernel health check turns into a
 * failure, harness/lib/klog.sh).  Which errno is the claim of the next test,
 * overlay_created_from_other_userns_einval, a fix of its own (7.2.7): this one holds the
 * refusal and the quiet, so each fix has the test that flips at it.  First of the two: the
 * WARNING may be a once-only one.  Overlayfs on the new mount API only (6.5): before, the
 * legacy path reads the layers when the mount is made.  Both sides: the same context
 * completed in its own namespace mounts.
 */
TEST(overlay_created_from_other_userns_refused_quietly)
{
	struct ovl_seen *seen;

	NS_NEED_USERNS();
	seen = ovl_run(ovl_open_new_api);
	ASSERT_NE(NULL, seen);
	NS_NEED_ENV(seen->rc != NO_OVERLAY, NS_WHY_FEATURE_CONFIG, "overlayfs",
		    "CONFIG_OVERLAY_FS");
	NS_NEED_ENV(seen->rc != LEGACY_OVERLAY, NS_WHY_FEATURE,
		    "overlayfs on the new mount API (layers looked up by fsconfig())", "6.5");
	ASSERT_EQ(0, seen->rc);
	NS_NEED_ENV(seen->released != NO_USERNS_OVERLAY, NS_WHY_FEATURE,
		    "overlayfs in a user namespace", "5.11");
	ASSERT_NE(-1, seen->err) TH_LOG("no fs context came back from the holder");
	EXPECT_NE(0, seen->err) TH_LOG("completing from another user namespace mounted");
	EXPECT_EQ(0, seen->released);
}

/*
 * An overlay fs context belongs to the user namespace it was opened in
 * (fsopen(2)); completing it (FSCONFIG_CMD_CREATE, fsconfig(2)) from a
 * process of another user namespace, here an ancestor that holds
 * CAP_SYS_ADMIN over it, is refused with EINVAL, quietly, while the same
 * context completed in its own user namespace makes the overlay.  Two
 * fixes: "ovl: return EINVAL instead of EIO in case of mismatched
 * user_ns", Debian 7.2.7 (before it EIO, and 6.1, whose overlayfs reads
 * its options only when the mount is made, even makes the overlay); "ovl:
 * don't warn when the mount is completed from another user namespace",
 * linux:63981fc786da, Debian 6.12.105 (before it the refusal came with a
 * kernel WARNING, which the harness's kernel health check turns into a
 * failure, harness/lib/klog.sh).  The upstream selftest fscontext_ns
 * overlay create_from_descendant_userns still expects EIO, so it passes on
 * 7.2.6 and fails on 7.2.12 and 7.3.4.  Both sides: the context comes from
 * root of a user namespace below ours, over two lower layers both
 * namespaces see; the same completed in that namespace mounts.
 */
TEST(overlay_created_from_other_userns_einval)
{
	struct ovl_seen *seen;

	NS_NEED_USERNS();
	seen = ovl_run(ovl_open);
	ASSERT_NE(NULL, seen);
	NS_NEED_ENV(seen->rc != NO_OVERLAY, NS_WHY_FEATURE_CONFIG, "overlayfs",
		    "CONFIG_OVERLAY_FS");
	ASSERT_EQ(0, seen->rc);
	NS_NEED_ENV(seen->released != NO_USERNS_OVERLAY, NS_WHY_FEATURE,
		    "overlayfs in a user namespace", "5.11");
	ASSERT_NE(-1, seen->err) TH_LOG("no fs context came back from the holder");
	EXPECT_EQ(EINVAL, seen->err);
	EXPECT_EQ(0, seen->released);
}

/*
 * The exec securebits of 6.14 (SECBIT_EXEC_RESTRICT_FILE, bit 8, and
 * SECBIT_EXEC_DENY_INTERACTIVE, bit 10, of <linux/securebits.h>; older
 * headers lack them).
 */
#define EXEC_BITS ((1UL << 8) | (1UL << 10))

/* The worker's answer when the kernel has no exec securebits. */
#define NO_EXEC_BITS 3

static int securebits_worker(void *arg)
{
	int got;

	(void)arg;
	/* Setting the bits takes CAP_SETPCAP: the worker has it, here or as userns root. */
	if (prctl(PR_SET_SECUREBITS, 0UL, 0UL, 0UL, 0UL))
		return child_fail("prctl(PR_SET_SECUREBITS, 0): %m");
	if (prctl(PR_SET_SECUREBITS, EXEC_BITS, 0UL, 0UL, 0UL))
		return errno == EPERM ? NO_EXEC_BITS :
		       child_fail("prctl(PR_SET_SECUREBITS, %#lx): %m", EXEC_BITS);
	/* The side the fix leaves alone: the bits hold in the caller's namespace. */
	got = prctl(PR_GET_SECUREBITS, 0UL, 0UL, 0UL, 0UL);
	if (got != (int)EXEC_BITS)
		return child_fail("PR_GET_SECUREBITS after setting %#lx: %#x (%m)", EXEC_BITS,
				  got);
	/* The side the fix is about: they survive the move into a new user namespace. */
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	got = prctl(PR_GET_SECUREBITS, 0UL, 0UL, 0UL, 0UL);
	if (got != (int)EXEC_BITS)
		return child_fail("PR_GET_SECUREBITS in the new user namespace: %#x (%m), "
				  "expected %#lx", got, EXEC_BITS);
	return 0;
}

/*
 * SECBIT_EXEC_RESTRICT_FILE and SECBIT_EXEC_DENY_INTERACTIVE
 * (linux:a0623b2a1d59, 6.14) tell a script interpreter how to treat what
 * it is asked to run; unlike the other securebits, which a new user
 * namespace resets, they are kept when the process creates a user
 * namespace, so that unshare(CLONE_NEWUSER) does not lift the restriction
 * (fix "userns: don't drop the exec securebits", Debian 7.3.4: before it
 * create_user_ns() reset them too).  Both sides: the bits read back as
 * set before the unshare.
 */
TEST(exec_securebits_kept_in_new_userns)
{
	int rc;

	NS_NEED_USERNS();
	rc = ns_run_admin(0, securebits_worker, NULL);
	NS_NEED_ENV(rc != NO_EXEC_BITS, NS_WHY_FEATURE, "SECBIT_EXEC_RESTRICT_FILE", "6.14");
	ASSERT_EQ(0, rc);
}

/* The holder's ids outside (its root's), and the socket its tmpfs's context goes back over. */
struct tmpfs_holder {
	uid_t uid;
	gid_t gid;
	int sock;
};

/*
 * The holder: root of its user namespace is the caller's uid, alone; its /tmp a tmpfs of its
 * own.  fspick(2) takes CAP_SYS_ADMIN over the mount namespace, which the holder has: it sends
 * the caller a reconfiguration context of that tmpfs.
 */
static int tmpfs_holder_setup(void *arg)
{
	const struct tmpfs_holder *t = arg;
	int fd, err;

	err = ns_map_root(0, t->uid, t->gid);
	if (err) {
		errno = -err;
		return child_fail("map root to uid %u in the holder's user namespace: %m", t->uid);
	}
	if (ns_private_tmp(NULL))
		return 1;
	fd = fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC);
	if (fd < 0)
		return errno == ENOSYS ? ns_child_lacks(NS_F_FSOPEN) : child_fail("fspick(/tmp): %m");
	if (ns_send_fd(t->sock, fd))
		return child_fail("send the context: %m");
	close(fd);
	return 0;
}

/* fsconfig() of "uid" to @id on @fd: 0 or -errno. */
static int set_uid(int fd, uid_t id)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", id);
	return ns_fsconfig(fd, FSCONFIG_SET_STRING, "uid", val, 0) ? -errno : 0;
}

static int tmpfs_uid_worker(void *arg)
{
	struct tmpfs_holder t = { .uid = geteuid(), .gid = getegid() };
	struct ns_holder h = { .flags = CLONE_NEWUSER | CLONE_NEWNS, .plain = true,
			       .setup = tmpfs_holder_setup, .arg = &t };
	uid_t unmapped = t.uid == 5 ? 6 : 5;
	int sv[2], fd, err, rc;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return child_fail("socketpair: %m");
	t.sock = sv[1];
	rc = ns_holder_begin(&h);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return rc == NS_CHILD_SKIP ? rc :
		       child_fail("a holder with a tmpfs in a user namespace of its own");
	}
	/* Sent before the holder said it was ready: there already. */
	fd = ns_recv_fd(sv[0]);
	close(sv[0]);
	if (fd < 0) {
		rc = child_fail("receive the holder's tmpfs context: %m");
		goto out;
	}
	/* The input the fix leaves alone: our uid, mapped there (its root). */
	err = set_uid(fd, t.uid);
	if (err) {
		errno = -err;
		rc = child_fail("uid=%u (the holder's root) for its tmpfs: %m", t.uid);
		goto out;
	}
	/* The input the fix is about: valid here, in the initial user namespace; unmapped there. */
	err = set_uid(fd, unmapped);
	if (err != -EINVAL) {
		errno = -err;
		rc = child_fail("uid=%u (unmapped in the tmpfs's user namespace): %s, expected "
				"EINVAL", unmapped, err ? strerror(-err) : "accepted");
	}
out:
	if (fd >= 0)
		close(fd);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	return rc;
}

/*
 * tmpfs(5) uid= and gid= set the owner of the root directory; the ids are
 * read in the user namespace of the caller and must have a mapping in the
 * user namespace the tmpfs was mounted in, else the option is refused with
 * EINVAL (fix "tmpfs: verify {g,u}id mount options correctly",
 * linux:0200679fc795, Debian 5.10.197 and 6.1.55: before it an id the
 * tmpfs's namespace cannot represent was accepted).  The caller is in the
 * initial user namespace, where every id is valid; the tmpfs is a holder's,
 * mounted in a user namespace that maps only its root, our uid.  The ids
 * are read by fsconfig(2), so the holder opens the reconfiguration context
 * (fspick(2) takes CAP_SYS_ADMIN over its mount namespace, which real root
 * and root of a user namespace have) and we set the option.  Both sides:
 * our uid, its root, is accepted; 5, which it does not map, is refused.
 */
TEST(tmpfs_uid_unmapped_in_its_userns_einval)
{
	int rc;

	NS_NEED_INITIAL_USERNS();
	NS_NEED_USERNS();
	rc = ns_run(0, tmpfs_uid_worker, NULL);
	NS_NEED_FEATURE(NS_F_FSOPEN, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- RLIMIT_SIGPENDING counted in every user namespace up the chain ------- */

/* The RLIMIT_SIGPENDING of the test, and the refused queues in between. */
#define SIGQ_LIMIT 4
#define SIGQ_REFUSED 3

/* sigqueue() of SIGRTMIN to ourselves: 0 or -errno. */
static int queue_rt(void)
{
	union sigval v = { .sival_int = 0 };

	return sigqueue(getpid(), SIGRTMIN, v) ? -errno : 0;
}

/* Queue SIGRTMIN to ourselves until refused: the number queued, or -errno. */
static int queue_until_refused(void)
{
	int n, err;

	for (n = 0; n <= SIGQ_LIMIT; n++) {
		err = queue_rt();
		if (err == -EAGAIN)
			return n;
		if (err)
			return err;
	}
	return n;
}

/* Take @n pending SIGRTMIN off the queue, without waiting: 0 or child_fail(). */
static int drain_rt(int n)
{
	struct timespec zero = { 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	while (n--)
		if (sigtimedwait(&set, NULL, &zero) != SIGRTMIN)
			return child_fail("take a pending SIGRTMIN: %m");
	return 0;
}

static int sigpending_leak_worker(void *arg)
{
	struct rlimit rl = { SIGQ_LIMIT, SIGQ_LIMIT };
	sigset_t set;
	int n, i, err;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return child_fail("block SIGRTMIN: %m");
	/* The outer namespace: ours, so that whatever it counts goes with it. */
	if (ns_unshare_userns_root(0))
		return child_fail("root of a new user namespace: %m");
	if (setrlimit(RLIMIT_SIGPENDING, &rl))
		return child_fail("RLIMIT_SIGPENDING %d: %m", SIGQ_LIMIT);
	/* The side the fix leaves alone: the limit of the queuer's own namespace. */
	n = queue_until_refused();
	if (n != SIGQ_LIMIT)
		return child_fail("%d signals queued under RLIMIT_SIGPENDING %d (%s)", n,
				  SIGQ_LIMIT, n < 0 ? strerror(-n) : "refused after");
	/* The inner namespace: its limit, the creator's, counts in the outer one. */
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) inside: %m");
	for (i = 0; i < SIGQ_REFUSED; i++) {
		err = queue_rt();
		if (err != -EAGAIN)
			return child_fail("queue %d from the inner namespace with the outer full: "
					  "%s, expected EAGAIN", i + 1,
					  err ? strerror(-err) : "queued");
	}
	if (drain_rt(SIGQ_LIMIT))
		return NS_CHILD_FAIL;
	/* The side the fix is about: the refusals left nothing counted. */
	n = queue_until_refused();
	if (n != SIGQ_LIMIT)
		return child_fail("%d signals queued from the inner namespace after %d refusals, "
				  "expected %d (%s)", n, SIGQ_REFUSED, SIGQ_LIMIT,
				  n < 0 ? strerror(-n) : "the refusals were left counted");
	return drain_rt(n);
}

/*
 * RLIMIT_SIGPENDING (getrlimit(2)) counts the signals queued for a real
 * user ID; since 5.14 the count is kept per user namespace, in the
 * namespace of the queuer and each one above it, each bounded by the
 * limit its creator had (linux:d64696905554 "Reimplement RLIMIT_SIGPENDING
 * on top of ucounts").  A queue refused by a namespace above gives back
 * every count it took (fix "ucounts: fix counter leak in
 * inc_rlimit_get_ucounts()", linux:432dc0654c61, Debian 6.1.119: before
 * it the count of the refusing namespace was kept, one per refusal, so
 * the limit shrank).  RLIMIT_SIGPENDING 4 in a user namespace of ours,
 * its 4 queued there, 3 refused from a namespace created under that
 * limit, the 4 taken: 4 queue again.  Both sides: 4 queue, then a 5th is
 * refused, in the outer namespace.
 */
TEST(sigpending_refused_above_gives_back_its_count)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, sigpending_leak_worker, NULL));
}

/* --- file handles decoded by root of a user namespace -------------------- */

/* Owner of the mount fd's directory and of the directory the fix leaves alone. */
#define FH_MAPPED 1000
/* Owner of the directory the fix is about: no id of the user namespace. */
#define FH_UNMAPPED 2000
/* fhandle_worker()'s answer when a user namespace cannot decode handles (6.10). */
#define NO_USERNS_FH 3

struct fh_buf {
	union {
		struct file_handle fh;
		char raw[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	};
};

/* A directory @path, mode 0755, owned by @id:@id.  0 or -errno. */
static int owned_dir(const char *path, unsigned int id)
{
	if (mkdir(path, 0755) || chown(path, id, id) || chmod(path, 0755))
		return -errno;
	return 0;
}

/* name_to_handle_at() of @path into @b: 0 or -errno. */
static int handle_of(const char *path, struct fh_buf *b)
{
	int mnt_id;

	b->fh.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(AT_FDCWD, path, &b->fh, &mnt_id, 0) ? -errno : 0;
}

/* open_by_handle_at(@root, @b, O_RDONLY | O_DIRECTORY): 0 (closed again) or -errno. */
static int open_handle(int root, struct fh_buf *b)
{
	int fd = open_by_handle_at(root, &b->fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int fhandle_worker(void *arg)
{
	struct fh_buf mapped, unmapped;
	int root, err;

	(void)arg;
	err = ns_private_tmp(NULL);
	if (err)
		return err;
	if (owned_dir("/tmp/r", FH_MAPPED) || owned_dir("/tmp/r/m", FH_MAPPED) ||
	    owned_dir("/tmp/r/u", FH_UNMAPPED))
		return child_fail("directories on the private /tmp: %m");
	if (handle_of("/tmp/r/m", &mapped) || handle_of("/tmp/r/u", &unmapped))
		return child_fail("name_to_handle_at() on tmpfs: %m");
	/* Root of a user namespace that maps FH_MAPPED alone, owning a mount namespace. */
	err = ns_drop_privileges(FH_MAPPED, FH_MAPPED);
	if (err) {
		errno = -err;
		return child_fail("become %d: %m", FH_MAPPED);
	}
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("root of a user namespace with a mount namespace: %m");
	root = open("/tmp/r", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return child_fail("open /tmp/r in the new mount namespace: %m");
	/* The side the fix leaves alone: a directory of a mapped owner opens. */
	err = open_handle(root, &mapped);
	if (err) {
		close(root);
		errno = -err;
		return err == -EPERM ? NO_USERNS_FH :
		       child_fail("open_by_handle_at() of a directory owned by a mapped id: %m");
	}
	/* The side the fix is about: one of an unmapped owner, its parent mapped. */
	err = open_handle(root, &unmapped);
	close(root);
	if (err != -ESTALE)
		return child_fail("open_by_handle_at() of a directory owned by an unmapped id: "
				  "%s, expected ESTALE", err ? strerror(-err) : "opened");
	return 0;
}

/*
 * open_by_handle_at(2) without CAP_DAC_READ_SEARCH in the initial user
 * namespace: since linux:620c266f3949 "fhandle: relax
 * open_by_handle_at() permission checks" (6.10) root of the user
 * namespace that owns the mount namespace of the mount fd decodes a
 * directory handle when every directory on the way from the mount fd to
 * it has an owner mapped in its namespace, and since the fix "fhandle:
 * use more consistent rules for decoding file handle from userns"
 * (linux:bb585591ebf0, Debian 6.12.48 and 6.16.8) the directory itself
 * too: otherwise the handle is stale (ESTALE); before it the directory
 * itself was not checked.  Real root, for files of an id the user
 * namespace lacks: a tmpfs with /r (owner 1000) holding /r/u (owner 2000,
 * mode 0755), opened from /r by root of a user namespace mapping 1000
 * alone.  Both sides: /r/m, owner 1000, opens.
 */
TEST(fhandle_userns_unmapped_directory_estale)
{
	int rc;

	NS_NEED_REAL_ROOT(ns_have_sys_admin() && ns_in_initial_userns());
	NS_NEED_USERNS();
	rc = ns_run(CLONE_NEWNS, fhandle_worker, NULL);
	NS_NEED_ENV(rc != NO_USERNS_FH, NS_WHY_FEATURE,
		    "open_by_handle_at() by root of a user namespace", "6.10");
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
