// SPDX-License-Identifier: GPL-2.0
/*
 * What clone(2), clone3() and unshare(2) must refuse: creating a namespace
 * without CAP_SYS_ADMIN (each of the seven non-user types), the flag
 * combinations clone(2) ERRORS lists, CLONE_PARENT from a namespace's init;
 * and the CLONE_PARENT pairs the page lists but the kernel allows.
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes), so that the refusal tested is the only thing missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "pid.h"
#include "kselftest_harness.h"

/* --- creation needs CAP_SYS_ADMIN, type by type --------------------------- */

static const char *const how_name[] = { "clone", "clone3" };

/*
 * Make a child by @how with @flags: 0 when its @t namespace differs from
 * @before, else a child_fail() code.
 */
static int child_in_new(const struct ns_type *t, int how, unsigned long flags,
			const struct ns_ident *before)
{
	pid_t pid = nsfs_spawn(how, flags);

	if (pid < 0)
		return child_fail("%s(%#lx) with CAP_SYS_ADMIN: %m", how_name[how], flags);
	if (pid == 0) {
		struct ns_ident now;

		if (ns_ident_of(0, t->name, &now))
			_exit(child_fail("stat %s: %m", t->name));
		_exit(ns_ident_eq(&now, before) ? 3 : 0);
	}
	switch (ns_wait(pid, NS_WAIT_MS)) {
	case 0:
		return 0;
	case 3:
		return child_fail("after %s(%#lx) a child is in the old %s namespace",
				  how_name[how], flags, t->name);
	default:
		return child_fail("the child of %s(%#lx) failed", how_name[how], flags);
	}
}

/* Without CAP_SYS_ADMIN @how must fail with EPERM and make no child; 2: no clone3. */
static int clone_refused(const struct ns_type *t, int how)
{
	pid_t pid;
	int err;

	errno = 0;
	pid = nsfs_spawn(how, t->flag);
	if (pid == 0)
		_exit(0);
	err = errno;
	if (pid > 0) {
		ns_wait(pid, NS_WAIT_MS);
		return child_fail("%s(CLONE_NEW%s) without CAP_SYS_ADMIN made a child",
				  how_name[how], t->name);
	}
	if (how && err == ENOSYS)
		return 2;
	if (err != EPERM)
		return child_fail("%s(CLONE_NEW%s) without CAP_SYS_ADMIN: %s, not EPERM",
				  how_name[how], t->name, strerror(err));
	return 0;
}


static int create_worker(void *arg)
{
	struct nsfs_req *r = arg;
	const struct ns_type *t = r->t;
	bool by_clone = r->how;		/* clone()/clone3() instead of unshare() */
	const char *file = t->for_children;
	bool legacy = t->flag != CLONE_NEWTIME, have_clone3 = true;
	struct ns_ident before, now;
	int rc;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (ns_ident_of(0, t->name, &before))
		return child_fail("stat %s: %m", t->name);
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, false))
		return child_fail("cannot drop CAP_SYS_ADMIN: %m");
	if (!by_clone) {
		errno = 0;
		if (unshare(t->flag) != -1 || errno != EPERM)
			return child_fail("unshare(CLONE_NEW%s) without CAP_SYS_ADMIN: %m, not "
					  "EPERM",
					  t->name);
		if (ns_ident_of(0, file, &now) || !ns_ident_eq(&now, &before))
			return child_fail("the refused unshare changed %s", file);
	} else {
		/* legacy clone() has no CLONE_NEWTIME: 0x80 is in the exit signal byte */
		rc = legacy ? clone_refused(t, 0) : 0;
		if (!rc)
			rc = clone_refused(t, 1);
		have_clone3 = rc != 2;
		if (rc == 2 && !legacy)
			return NS_CHILD_SKIP;
		if (rc && rc != 2)
			return rc;
	}
	/* the control: CAP_SYS_ADMIN alone is enough */
	if (ns_caps_effective_only(CAP_SYS_ADMIN))
		return child_fail("cannot keep CAP_SYS_ADMIN alone: %m");
	if (by_clone) {
		rc = legacy ? child_in_new(t, 0, t->flag, &before) : 0;
		return rc ?: have_clone3 ? child_in_new(t, 1, t->flag, &before) : 0;
	}
	if (unshare(t->flag))
		return child_fail("unshare(CLONE_NEW%s) with CAP_SYS_ADMIN alone: %m", t->name);
	/* pid and time: the caller stays, its next child is in the new one */
	if (t->flag == CLONE_NEWPID || t->flag == CLONE_NEWTIME)
		return child_in_new(t, 0, 0, &before);
	if (ns_ident_of(0, file, &now) || ns_ident_eq(&now, &before))
		return child_fail("unshare(CLONE_NEW%s) returned 0, same namespace", t->name);
	return 0;
}

NS_TYPE_FIXTURE(create, NS_TYPE_VARIANTS_BUT_USER);

/*
 * unshare(CLONE_NEWX) by a process without CAP_SYS_ADMIN (all else kept) fails with EPERM;
 * CAP_SYS_ADMIN alone suffices (unshare(2) ERRORS).
 */
TEST_F(create, unshare_without_cap_sys_admin_eperm)
{
	ASSERT_EQ(0, nsfs_run(variant->flag, create_worker, false));
}

/*
 * clone() and clone3() with CLONE_NEWX and no CAP_SYS_ADMIN fail with EPERM; CAP_SYS_ADMIN alone
 * suffices (clone(2) ERRORS).
 */
TEST_F(create, clone_without_cap_sys_admin_eperm)
{
	int rc = nsfs_run(variant->flag, create_worker, true);

	NS_NEED_FEATURE(NS_F_CLONE3, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* --- flag combinations clone(2) refuses ----------------------------------- */

struct combo {
	unsigned long bad;		/* refused together */
	unsigned long part[2];		/* each granted alone */
	bool fork_like;			/* no CLONE_VM: clone3() may try it too */
};

static int combo_worker(void *arg)
{
	const struct combo *c = arg;
	int err, status;
	pid_t pid;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	err = nsfs_try_clone(c->bad);
	if (err != -EINVAL)
		return child_fail("clone(%#lx): %s, not EINVAL", c->bad,
				  err ? strerror(-err) : "granted");
	if (c->fork_like) {
		/* clone3() (5.3) is there unless a plain one says ENOSYS */
		bool have_clone3;

		pid = ns_clone3(0);
		if (pid == 0)
			_exit(0);
		have_clone3 = pid > 0 || errno != ENOSYS;
		if (pid > 0)
			ns_wait(pid, NS_WAIT_MS);
		errno = 0;
		pid = ns_clone3(c->bad);
		if (pid == 0)
			_exit(0);
		err = errno;
		if (pid > 0)
			ns_wait(pid, NS_WAIT_MS);
		if (pid > 0 || err != (have_clone3 ? EINVAL : ENOSYS))
			return child_fail("clone3(%#lx): %s, not %s", c->bad,
					  pid > 0 ? "granted" : strerror(err),
					  have_clone3 ? "EINVAL" : "ENOSYS");
	}
	if (waitpid(-1, &status, WNOHANG | __WALL) != -1 || errno != ECHILD)
		return child_fail("a refused clone left a child behind");
	for (int i = 0; i < 2; i++) {
		err = nsfs_try_clone(c->part[i]);
		if (err)
			return child_fail("clone(%#lx) alone: %s", c->part[i], strerror(-err));
	}
	return 0;
}

#define THREAD_SET (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)

FIXTURE(combo) {};

FIXTURE_VARIANT(combo) {
	struct combo c;
};

FIXTURE_VARIANT_ADD(combo, newns_with_fs) {
	.c = { CLONE_NEWNS | CLONE_FS, { CLONE_NEWNS, CLONE_FS }, true },
};
FIXTURE_VARIANT_ADD(combo, newuser_with_fs) {
	.c = { CLONE_NEWUSER | CLONE_FS, { CLONE_NEWUSER, CLONE_FS }, true },
};
FIXTURE_VARIANT_ADD(combo, newuser_with_thread) {
	.c = { CLONE_NEWUSER | THREAD_SET, { CLONE_NEWUSER, THREAD_SET }, false },
};
FIXTURE_VARIANT_ADD(combo, newipc_with_sysvsem) {
	.c = { CLONE_NEWIPC | CLONE_SYSVSEM, { CLONE_NEWIPC, CLONE_SYSVSEM }, true },
};
FIXTURE_VARIANT_ADD(combo, newpid_with_thread) {
	.c = { CLONE_NEWPID | THREAD_SET, { CLONE_NEWPID, THREAD_SET }, false },
};

FIXTURE_SETUP(combo)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
}

FIXTURE_TEARDOWN(combo)
{
}

/*
 * clone() (and clone3()) with a refused pair fails with EINVAL and makes nothing; each flag alone
 * works (clone(2) ERRORS).
 */
TEST_F(combo, clone_refuses_pair_with_einval)
{
	ASSERT_EQ(0, ns_run(0, combo_worker, (void *)&variant->c));
}

/* --- CLONE_PARENT ---------------------------------------------------------- */

/* A CLONE_PARENT child: its getppid() as its parent sees it, to the pipe @arg. */
static int report_ppid(void *arg)
{
	pid_t ppid = getppid();

	return write(*(int *)arg, &ppid, sizeof(ppid)) == sizeof(ppid) ? 0 : 1;
}

/* In a new PID namespace: init may not use CLONE_PARENT; its child may. */
static int parent_from_init(void *arg)
{
	struct ns_sync s;
	pid_t ppid = -1, pid;
	int err, code;

	(void)arg;
	if (getpid() != 1)
		return child_fail("not the init of a new PID namespace (pid %d)", getpid());
	err = nsfs_try_clone(CLONE_PARENT);
	if (err != -EINVAL)
		return child_fail("clone(CLONE_PARENT) by init: %s, not EINVAL",
				  err ? strerror(-err) : "granted");
	/*
	 * The control: pid 2 may, and its new sibling is init's child.  The
	 * sibling's getppid() is read while pid 2 still lives: once pid 2 has
	 * exited, a child of its own would be reparented to init as well.
	 */
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		struct pollfd pfd = { .events = POLLIN };
		pid_t sib, sib_ppid = -1;
		int q[2];

		ns_sync_child_side(&s);
		if (pipe2(q, O_CLOEXEC))
			_exit(child_fail("pipe: %m"));
		sib = nsfs_clone_on_stack(CLONE_PARENT, report_ppid, &q[1]);
		if (sib < 0)
			_exit(child_fail("clone(CLONE_PARENT) by pid %d: %m", getpid()));
		close(q[1]);
		pfd.fd = q[0];
		if (poll(&pfd, 1, NS_WAIT_MS) != 1 ||
		    read(q[0], &sib_ppid, sizeof(sib_ppid)) != sizeof(sib_ppid))
			sib_ppid = -1;	/* never ran */
		ns_sync_tell(&s, true, &sib_ppid, sizeof(sib_ppid));
		_exit(0);
	}
	if (ns_sync_wait(&s, false, &ppid, sizeof(ppid), NS_WAIT_MS))
		return child_fail("no word from pid 2");
	if (ppid != 1)
		return child_fail("the CLONE_PARENT child of pid 2 has parent %d, not init (1)%s",
				  ppid, ppid == -1 ? ": it never ran" : "");
	/* both are init's children: it reaps them */
	if (pidns_wait_any(&code, NS_WAIT_MS) <= 0 || pidns_wait_any(&code, NS_WAIT_MS) <= 0)
		return child_fail("init could not reap its two children: %m");
	ns_sync_close(&s);
	return 0;
}

/*
 * A PID namespace's init calling clone(CLONE_PARENT) fails with EINVAL; a non-init's CLONE_PARENT
 * child becomes init's child (clone(2) ERRORS).
 */
TEST(clone_parent_from_namespace_init_einval)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWPID, parent_from_init, NULL));
}

/* The caller's child X made with CLONE_PARENT | @flag becomes our child, in a new namespace. */
static int parent_combo_worker(void *arg)
{
	unsigned long flag = *(unsigned long *)arg;
	const struct ns_type *t = ns_type_of(flag);
	struct ns_sync s;
	pid_t mid, x = -1;
	int err = 0, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	mid = ns_clone_synced(ns_clone, 0, &s);
	if (mid < 0)
		return child_fail("fork: %m");
	if (mid == 0) {
		x = nsfs_spawn(0, flag | CLONE_PARENT);
		if (x == 0) {
			pause();
			_exit(0);
		}
		err = x < 0 ? errno : 0;
		ns_sync_tell(&s, true, &x, sizeof(x));
		ns_sync_tell(&s, true, &err, sizeof(err));
		_exit(0);
	}
	if (ns_sync_wait(&s, false, &x, sizeof(x), NS_WAIT_MS) ||
	    ns_sync_wait(&s, false, &err, sizeof(err), NS_WAIT_MS))
		rc = child_fail("no word from the middle process");
	else if (x < 0)
		rc = child_fail("clone(CLONE_PARENT | CLONE_NEW%s) by a non-init: %s",
				t->name, strerror(err));
	else if (ns_same_as_self(x, t->name) != 0)
		rc = child_fail("the CLONE_PARENT child is not in a new %s namespace", t->name);
	else if (pidns_status_field(x, "PPid:") != getpid())
		rc = child_fail("the CLONE_PARENT child's parent is %ld, not %d (its creator's)",
				pidns_status_field(x, "PPid:"), getpid());
	ns_wait(mid, NS_WAIT_MS);
	if (x > 0) {
		kill(x, SIGKILL);
		/* reaping it works only because it is our child */
		if (ns_wait(x, NS_WAIT_MS) != 128 + SIGKILL && !rc)
			rc = child_fail("cannot reap the CLONE_PARENT child: not ours");
	}
	ns_sync_close(&s);
	return rc;
}

FIXTURE(parent_combo) {};

FIXTURE_VARIANT(parent_combo) {
	unsigned long flag;
};

FIXTURE_VARIANT_ADD(parent_combo, newpid) { .flag = CLONE_NEWPID };
FIXTURE_VARIANT_ADD(parent_combo, newuser) { .flag = CLONE_NEWUSER };

FIXTURE_SETUP(parent_combo)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
}

FIXTURE_TEARDOWN(parent_combo)
{
}

/*
 * CLONE_NEWPID or CLONE_NEWUSER with CLONE_PARENT from a non-init works (linux:1f7f4dde5c94 (3.13);
 * clone(2) ERRORS still lists EINVAL).
 */
TEST_F(parent_combo, clone_parent_with_new_namespace_accepted)
{
	ASSERT_EQ(0, ns_run(0, parent_combo_worker, (void *)&variant->flag));
}

/* --- CLONE_NEWUSER from a chroot ------------------------------------------ */

/* clone() (@how 0) or clone3() (1) of a child in a new user ns: 0 or the errno. */
static int clone_newuser_errno(int how)
{
	pid_t pid = nsfs_spawn(how, CLONE_NEWUSER);
	int err = errno;

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return err;
	return ns_wait(pid, NS_WAIT_MS) ? -1 : 0;
}

static int clone_chrooted(void *arg)
{
	int root, err;

	(void)arg;
	/* root of a user + mount namespace of its own may chroot */
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("user + mount namespace: %m");
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || chroot("/proc") || chdir("/"))
		return child_fail("chroot /proc: %m");
	for (int how = 0; how < 2; how++) {
		err = clone_newuser_errno(how);
		if (how && err == ENOSYS)
			break;		/* no clone3() (5.3): clone() was enough */
		if (err != EPERM)
			return child_fail("%s(CLONE_NEWUSER) in a chroot: %s, not EPERM",
					  how_name[how], err > 0 ? strerror(err) : "granted");
	}
	/* the control: back at the mount namespace's root both work */
	if (fchdir(root) || chroot("."))
		return child_fail("leave the chroot: %m");
	for (int how = 0; how < 2; how++) {
		err = clone_newuser_errno(how);
		if (err && !(how && err == ENOSYS))
			return child_fail("%s(CLONE_NEWUSER) out of the chroot: %s", how_name[how],
					  err > 0 ? strerror(err) : "the child failed");
	}
	return 0;
}

/*
 * clone() and clone3() with CLONE_NEWUSER by a chrooted caller (root not its mount ns's root) fail
 * with EPERM; unchrooted they work (clone(2) ERRORS, since 3.9).
 *
 * user_setns.c checks the same rule for unshare(2).
 */
TEST(clone_newuser_in_chroot_eperm)
{
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, clone_chrooted, NULL));
}

TEST_HARNESS_MAIN
