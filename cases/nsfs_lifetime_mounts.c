// SPDX-License-Identifier: GPL-2.0
/*
 * Namespaces kept by a filesystem mount (namespaces(7) "Namespace
 * lifetime"): a proc mount keeps its PID namespace after every member
 * process is gone.  The page says the same of an mqueue mount and its IPC
 * namespace; the kernel does not do that (see the last test).
 *
 * A namespace that is alive counts against max_<type>_namespaces of its
 * creator's user namespace; one that was freed does not.  So the worker
 * lowers that limit to 1 in a user namespace of its own, lets a holder
 * create the namespace and mount the filesystem in a mount namespace of its
 * own (kept by an fd), and lets the holder exit: while the mount exists a
 * second namespace of the type gets ENOSPC, once the mount namespace (and
 * with it the mount) is gone it fits.  The control is the same holder
 * without the mount: its namespace is freed as soon as it exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/* A namespace without members or mounts is freed within this. */
#define FREED_WITHIN_MS 1000

struct pin_req {
	const struct ns_type *t;
	const char *fstype;	/* what keeps it: "proc" or "mqueue" */
	bool mount_it;		/* false: the control */
	struct ns_ident test_mnt;
};

/* Holder prep, in new @t and mount namespaces: mount @fstype on /tmp/pin. */
static int mount_pin(void *arg)
{
	struct pin_req *r = arg;
	struct ns_ident mnt;

	if (ns_ident_of(0, "mnt", &mnt) || ns_ident_eq(&mnt, &r->test_mnt))
		return child_fail("not in a mount namespace of our own");
	if (ns_private_tmp("size=64k"))
		return 1;
	if (mkdir("/tmp/pin", 0700))
		return child_fail("mkdir /tmp/pin: %m");
	if (r->mount_it && mount(r->fstype, "/tmp/pin", r->fstype, 0, NULL))
		return child_fail("mount %s: %m", r->fstype);
	return 0;
}

/* In a child: unshare(@flag); 0 or errno. */
static int create_one(unsigned long flag)
{
	pid_t pid = ns_clone(0);
	int rc;

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(unshare(flag) ? errno : 0);
	rc = ns_wait(pid, NS_WAIT_MS);
	return rc;
}

static int create_one_of(void *arg)
{
	return create_one(*(unsigned long *)arg);
}

/* create_one() until it works or @ms passed (some namespaces are freed late). */
static int create_within(unsigned long flag, int ms)
{
	return nsfs_until_not_enospc(create_one_of, &flag, ms);
}

static int pin_worker(void *arg)
{
	struct pin_req *r = arg;
	struct ns_holder h;
	char path[96];
	int err, fd, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	snprintf(path, sizeof(path), "/proc/sys/user/max_%s_namespaces", r->t->sysctl);
	err = ns_write_file(path, "1");
	if (err) {
		errno = -err;
		return child_fail("lower %s in our own user namespace: %m", path);
	}
	if (ns_holder_start(&h, r->t->flag | CLONE_NEWNS, mount_pin, r))
		return child_fail("no holder with %s mounted", r->fstype);
	fd = ns_open(h.pid, "mnt");
	if (fd < 0)
		rc = child_fail("open the holder's mount namespace: %m");
	/* the limit works: with the holder's namespace alive there is no room */
	if (!rc && (err = create_one(r->t->flag)) != ENOSPC)
		rc = child_fail("a second %s namespace over max 1: %s, not ENOSPC", r->t->name,
				strerror(err));
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	if (rc)
		return rc;
	if (r->mount_it) {
		/* no member left; the mount keeps it past the control's bound */
		const struct timespec grace = { FREED_WITHIN_MS / 1000, 0 };

		nanosleep(&grace, NULL);
		err = create_one(r->t->flag);
		if (err != ENOSPC)
			rc = child_fail("with no member left but a %s mount, a second %s "
					"namespace: "
					"%s, not ENOSPC: the mount did not keep it", r->fstype,
					r->t->name, strerror(err));
		close(fd);	/* the mount namespace goes, and the mount with it */
		err = create_within(r->t->flag, 8000);
		if (err && !rc)
			rc = child_fail("after the %s mount went, a %s namespace: %s", r->fstype,
					r->t->name, strerror(err));
		return rc;
	}
	/* the control: freed within the bound the mount test waits */
	err = create_within(r->t->flag, FREED_WITHIN_MS);
	close(fd);
	if (err)
		rc = child_fail("%d ms after its last member exited (no mount), a %s namespace: %s",
				FREED_WITHIN_MS, r->t->name, strerror(err));
	return rc;
}

/*
 * A PID namespace with no member left is kept by a proc mount of it; freed when the mount goes
 * (namespaces(7) "Namespace lifetime").
 */
TEST(proc_mount_keeps_pidns_without_members)
{
	struct pin_req r = { .t = ns_type_of(CLONE_NEWPID), .fstype = "proc", .mount_it = true };

	NS_NEED(NS_F_MAX_NS_SYSCTLS);
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r.test_mnt));
	ASSERT_EQ(0, ns_run(0, pin_worker, &r));
}

/*
 * Without a proc mount the PID namespace is freed when its last member exits: a new one fits under
 * max 1 (namespaces(7) "Namespace lifetime").
 */
TEST(pidns_freed_without_proc_mount)
{
	struct pin_req r = { .t = ns_type_of(CLONE_NEWPID), .fstype = "proc" };

	NS_NEED(NS_F_MAX_NS_SYSCTLS);
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r.test_mnt));
	ASSERT_EQ(0, ns_run(0, pin_worker, &r));
}

/* In a child: join the mount namespace @mntfd, create queue @name in /tmp/pin; 0 or errno. */
static int create_queue_in(int mntfd, const char *name)
{
	pid_t pid = ns_clone(0);

	if (pid < 0)
		return -1;
	if (pid == 0) {
		char path[64];
		int fd;

		if (setns(mntfd, CLONE_NEWNS))
			_exit(child_fail("setns into the holder's mount namespace: %m"));
		snprintf(path, sizeof(path), "/tmp/pin/%s", name);
		fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
		_exit(fd < 0 ? errno : 0);
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int mqueue_worker(void *arg)
{
	struct pin_req *r = arg;
	struct ns_holder h;
	int err, fd, rc = 0;

	if (ns_unshare_userns_root(0))
		return child_fail("cannot become root of a new user namespace: %m");
	err = ns_write_file("/proc/sys/user/max_ipc_namespaces", "1");
	if (err) {
		errno = -err;
		return child_fail("lower max_ipc_namespaces in our own user namespace: %m");
	}
	if (ns_holder_start(&h, CLONE_NEWIPC | CLONE_NEWNS, mount_pin, r))
		return child_fail("no holder with mqueue mounted");
	fd = ns_open(h.pid, "mnt");
	if (fd < 0)
		rc = child_fail("open the holder's mount namespace: %m");
	/* the controls: while it has a member, the mount creates queues and the limit holds */
	else if ((err = create_queue_in(fd, "alive")))
		rc = child_fail("a queue in the mqueue mount of a live namespace: %s",
				strerror(err));
	else if ((err = create_one(CLONE_NEWIPC)) != ENOSPC)
		rc = child_fail("a second ipc namespace over max 1: %s, not ENOSPC",
				strerror(err));
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("the holder failed");
	if (rc)
		return rc;
	/* the mount stays, yet the namespace is freed: it no longer counts... */
	err = create_within(CLONE_NEWIPC, 8000);
	if (err)
		rc = child_fail("with the mqueue mount left, a new ipc namespace: %s",
				strerror(err));
	/* ...and the orphaned mount refuses new queues */
	else if ((err = create_queue_in(fd, "orphan")) != EACCES)
		rc = child_fail("a queue in the mqueue mount of a freed namespace: %s, not EACCES",
				err ? strerror(err) : "created");
	close(fd);
	return rc;
}

/*
 * An mqueue mount does not keep its IPC ns: freed with its last member; the mount then refuses new
 * queues with EACCES (ipc/mqueue.c; namespaces(7) says it keeps it).
 *
 * namespaces(7) lists an mqueue mount among what keeps an IPC namespace
 * alive.  It does not: the mount holds no reference, and when the last
 * member goes put_ipc_ns() detaches the superblock from the namespace
 * (mq_clear_sbinfo()), after which creating a queue there fails with EACCES.
 */
TEST(mqueue_mount_does_not_keep_ipcns)
{
	struct pin_req r = { .t = ns_type_of(CLONE_NEWIPC), .fstype = "mqueue", .mount_it = true };

	NS_NEED(NS_F_MAX_NS_SYSCTLS);
	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_ident_of(0, "mnt", &r.test_mnt));
	ASSERT_EQ(0, ns_run(0, mqueue_worker, &r));
}

TEST_HARNESS_MAIN
