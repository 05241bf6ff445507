// SPDX-License-Identifier: GPL-2.0
/*
 * What setns(2) must refuse: joining without CAP_SYS_ADMIN in the caller's
 * own user namespace (though it has it over the target), or with it in its
 * own user namespace but not in the one owning the target (each of the
 * seven non-user types); a mount namespace without CAP_SYS_CHROOT or while
 * the caller shares its filesystem context; a pidfd with nstype 0, stray
 * bits, or of a reaped process.  And pidfd_open(2): close-on-exec, ESRCH
 * for a PID the caller's namespace does not have.
 *
 * Every worker first becomes root of a user namespace of its own (in both
 * passes), so that the refusal tested is the only thing missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/*
 * setns(@fd, @flags): 0 when the caller is then in @target's @t namespace,
 * a child_fail() code when it returned 0 and is not.
 */
static int join(const struct ns_type *t, int fd, unsigned long flags,
		const struct ns_ident *target)
{
	struct ns_ident now;

	if (setns(fd, flags))
		return child_fail("setns(%#lx) into the %s namespace: %m", flags, t->name);
	if (ns_ident_of(0, t->for_children, &now) || !ns_ident_eq(&now, target))
		return child_fail("setns(%#lx) returned 0, not in the target %s namespace",
				  flags, t->name);
	return 0;
}

/* setns(@fd) must fail with @want and leave the caller's @t namespace alone. */
static int refused(const struct ns_type *t, int fd, unsigned long flags, int want,
		   const char *why)
{
	struct ns_ident before, now;
	int err;

	if (ns_ident_of(0, t->for_children, &before))
		return child_fail("stat %s: %m", t->name);
	errno = 0;
	err = setns(fd, flags) ? errno : 0;
	if (err != want)
		return child_fail("setns(%#lx) %s: %s, not %s", flags, why,
				  err ? strerror(err) : "joined", strerror(want));
	if (ns_ident_of(0, t->for_children, &now) || !ns_ident_eq(&now, &before))
		return child_fail("the refused setns changed the %s namespace", t->name);
	return 0;
}

/* --- CAP_SYS_ADMIN in the own user namespace and over the target ---------- */

/*
 * The target is owned by a child user namespace we created, so we have
 * every capability in it; we only lack @drop in our own.
 */
static int own_cap_worker(void *arg)
{
	struct nsfs_req *r = arg;
	cap_value_t drop = r->how;	/* the capability the caller lacks in its own userns */
	struct ns_holder h;
	struct ns_ident target;
	int fd, rc;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (nsfs_hold(&h, CLONE_NEWUSER | r->t->flag))
		return child_fail("no holder in new user and %s namespaces", r->t->name);
	fd = ns_open(h.pid, r->t->name);
	if (fd < 0 || ns_ident_of_fd(fd, &target))
		rc = child_fail("open the holder's %s namespace: %m", r->t->name);
	else if (ns_cap_set(drop, CAP_EFFECTIVE, false))
		rc = child_fail("cannot drop capability %d: %m", drop);
	else
		rc = refused(r->t, fd, r->t->flag, EPERM,
			     "lacking a capability in the own user namespace");
	/* the control: with it back the same call joins */
	if (!rc && ns_cap_set(drop, CAP_EFFECTIVE, true))
		rc = child_fail("cannot raise capability %d again: %m", drop);
	if (!rc)
		rc = join(r->t, fd, r->t->flag, &target);
	if (fd >= 0)
		close(fd);
	ns_holder_stop(&h);
	return rc;
}

struct join_req {
	const struct ns_type *t;
	int fd;
	struct ns_ident target;
};

static int join_in_child(void *arg)
{
	struct join_req *j = arg;

	return join(j->t, j->fd, j->t->flag, &j->target);
}

/*
 * The target is owned by our user namespace; we then move to a child user
 * namespace: every capability there, none over the target.
 */
static int child_userns_worker(void *arg)
{
	struct nsfs_req *r = arg;
	struct join_req j = { .t = r->t, .fd = -1 };
	struct ns_holder h;
	int rc;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	if (nsfs_hold(&h, r->t->flag))
		return child_fail("no holder in a new %s namespace", r->t->name);
	j.fd = ns_open(h.pid, r->t->name);
	if (j.fd < 0 || ns_ident_of_fd(j.fd, &j.target))
		rc = child_fail("open the holder's %s namespace: %m", r->t->name);
	else	/* the control: from the owning user namespace it works */
		rc = ns_run(0, join_in_child, &j);
	if (!rc && ns_unshare_userns_root(0))
		rc = child_fail("cannot become root of a child user namespace: %m");
	if (!rc && !ns_caps_all_effective())
		rc = child_fail("not every capability in the child user namespace");
	if (!rc)
		rc = refused(r->t, j.fd, r->t->flag, EPERM,
			     "from a child of the target's owner");
	if (j.fd >= 0)
		close(j.fd);
	ns_holder_stop(&h);
	return rc;
}

NS_TYPE_FIXTURE(setns_caps, NS_TYPE_VARIANTS_BUT_USER);

/*
 * setns() without CAP_SYS_ADMIN in the caller's own user ns fails with EPERM though it has it over
 * the target; with it, it joins (setns(2)).
 */
TEST_F(setns_caps, without_cap_sys_admin_in_own_userns_eperm)
{
	ASSERT_EQ(0, nsfs_run(variant->flag, own_cap_worker, CAP_SYS_ADMIN));
}

/*
 * setns() from a child user ns (all caps there) into a namespace its parent owns fails with EPERM;
 * from the owner it joins (setns(2)).
 */
TEST_F(setns_caps, from_child_userns_into_parents_ns_eperm)
{
	ASSERT_EQ(0, nsfs_run(variant->flag, child_userns_worker, CAP_SYS_ADMIN));
}

/*
 * Joining a mount namespace also needs CAP_SYS_CHROOT in the own user ns: without it EPERM, with it
 * joined (setns(2) "mount namespaces").
 */
TEST(setns_mntns_without_cap_sys_chroot_eperm)
{
	const char *why = ns_userns_blocker(false);

	NS_NEED_WHY(why);
	ASSERT_EQ(0, nsfs_run(CLONE_NEWNS, own_cap_worker, CAP_SYS_CHROOT));
}

TEST_HARNESS_MAIN
