// SPDX-License-Identifier: GPL-2.0
/*
 * Creating namespaces: the rules of unshare(2), and clone(2), clone3(2)
 * and unshare(2) giving the same namespaces for the same flags
 * (namespaces(7), clone(2), unshare(2); the article's part 2, unshare.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

/*
 * 7.1 gave CLONE_PARENT_SETTID's bit a meaning for unshare():
 * UNSHARE_EMPTY_MNTNS (commit 9d4e752a24 "namespace: allow creating empty
 * mount namespaces", include/uapi/linux/sched.h).
 */

/*
 * Flags that unshare(2) does not know on any kernel from 5.10 to 7.3 (they
 * mean something only to clone): check_unshare_flags() accepts only
 * CLONE_THREAD, _FS, _SIGHAND, _VM, _FILES, _SYSVSEM, the CLONE_NEW* bits
 * and, since 7.1, UNSHARE_EMPTY_MNTNS (== CLONE_PARENT_SETTID, so that one
 * is not here: unshare_empty_mntns_gives_empty_root checks it).
 */
static const struct {
	const char *name;
	unsigned long flag;
} not_for_unshare[] = {
	{ "CLONE_PIDFD", CLONE_PIDFD },
	{ "CLONE_PTRACE", CLONE_PTRACE },
	{ "CLONE_VFORK", CLONE_VFORK },
	{ "CLONE_PARENT", CLONE_PARENT },
	{ "CLONE_SETTLS", CLONE_SETTLS },
	{ "CLONE_CHILD_CLEARTID", CLONE_CHILD_CLEARTID },
	{ "CLONE_DETACHED", CLONE_DETACHED },
	{ "CLONE_UNTRACED", CLONE_UNTRACED },
	{ "CLONE_CHILD_SETTID", CLONE_CHILD_SETTID },
	{ "CLONE_IO", CLONE_IO },
};

static int unknown_flags(void *arg)
{
	struct ns_ident before, after;

	(void)arg;
	if (ns_ident_of(0, "uts", &before))
		return child_fail("stat uts: %m");
	for (size_t i = 0; i < sizeof(not_for_unshare) / sizeof(not_for_unshare[0]); i++) {
		errno = 0;
		if (unshare(CLONE_NEWUTS | not_for_unshare[i].flag) != -1 || errno != EINVAL)
			return child_fail("unshare(CLONE_NEWUTS | %s): %m, not EINVAL",
					  not_for_unshare[i].name);
	}
	if (ns_ident_of(0, "uts", &after) || !ns_ident_eq(&before, &after))
		return child_fail("a refused unshare() changed the UTS namespace");
	/* the same call without the unknown bit works, so EINVAL was for it */
	if (unshare(CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUTS): %m");
	if (ns_ident_of(0, "uts", &after) || ns_ident_eq(&before, &after))
		return child_fail("unshare(CLONE_NEWUTS) returned 0, same namespace");
	return 0;
}

/*
 * unshare() with a flag it does not know fails with EINVAL and creates nothing (unshare(2) ERRORS).
 */
TEST(unshare_unknown_flag_fails_einval)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, unknown_flags, NULL));
}

/* --- UNSHARE_EMPTY_MNTNS (7.1) ------------------------------------------- */

/* Entries of @dir other than . and ..; -1 when it cannot be read. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

struct mounts_seen {
	int n;
	char first_point[MNT_PATH_MAX];
};

static int count_mount(const struct mnt_info *mi, void *arg)
{
	struct mounts_seen *m = arg;

	if (!m->n++)
		snprintf(m->first_point, sizeof(m->first_point), "%s", mi->point);
	return 0;
}

/* The mounts of /proc/@pid/mountinfo (0 = self), and the first one's point. */
static int mountinfo_lines(pid_t pid, char *first_point, size_t len)
{
	struct mounts_seen m = { 0 };
	int err = mnt_info_each(pid, count_mount, &m);

	if (err)
		return err;
	if (first_point)
		snprintf(first_point, len, "%s", m.first_point);
	return m.n;
}

/* The child: unshare, tell the parent errno, look around inside, wait. */
static int empty_child(struct ns_sync *s)
{
	struct stat root, cwd;
	int err = 0, n;

	if (unshare(UNSHARE_EMPTY_MNTNS))
		err = errno;
	if (ns_sync_tell(s, true, &err, sizeof(err)))
		return child_fail("tell: %m");
	if (err) {
		ns_sync_wait(s, true, NULL, 0, 2 * NS_WAIT_MS);
		return 0;
	}
	n = dir_entries("/");
	if (n)
		return child_fail("/ of the empty mount namespace: %d entries (%m)", n);
	if (stat("/", &root) || stat(".", &cwd))
		return child_fail("stat / or .: %m");
	if (root.st_dev != cwd.st_dev || root.st_ino != cwd.st_ino)
		return child_fail("the cwd is not the new root");
	if (access("/proc", F_OK) == 0 || errno != ENOENT)
		return child_fail("/proc still reachable in the empty namespace: %m");
	if (ns_sync_tell(s, true, NULL, 0))
		return child_fail("tell: %m");
	ns_sync_wait(s, true, NULL, 0, 2 * NS_WAIT_MS);
	return 0;
}

/* From outside: @pid is in a new mount namespace, of one mount, and no other. */
static int empty_seen_from_outside(pid_t pid)
{
	const struct ns_type *t;
	char path[64], point[256];
	int n, err;

	t = ns_first_unexpected(pid, CLONE_NEWNS, &err);
	if (t && err)
		return child_fail("compare %s: %s", t->name, strerror(-err));
	if (t)
		return child_fail("after unshare(UNSHARE_EMPTY_MNTNS) the %s namespace is %s",
				  t->name, t->flag == CLONE_NEWNS ? "not new" : "new");
	n = mountinfo_lines(pid, point, sizeof(point));
	if (n != 1 || strcmp(point, "/"))
		return child_fail("its mountinfo: %d lines, the first on \"%s\", want 1 on /",
				  n, point);
	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	n = dir_entries(path);
	if (n)
		return child_fail("its root seen from outside: %d entries (%m)", n);
	return 0;
}

static int empty_mntns_worker(void *arg)
{
	struct ns_ident before, after;
	struct ns_sync s;
	int lines, err, rc;
	pid_t pid;

	(void)arg;
	if (ns_ident_of(0, "mnt", &before))
		return child_fail("stat mnt: %m");
	lines = mountinfo_lines(0, NULL, 0);
	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(empty_child(&s));
	rc = ns_sync_wait(&s, false, &err, sizeof(err), NS_WAIT_MS) ? -1 : 0;
	if (!rc && err == EINVAL)
		rc = NS_CHILD_SKIP;
	else if (!rc && err)
		rc = child_fail("unshare(UNSHARE_EMPTY_MNTNS): %s", strerror(err));
	else if (!rc && ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS))
		rc = -1;	/* the child failed inside: its exit code says so */
	if (!rc)
		rc = empty_seen_from_outside(pid);
	if (!rc && (ns_ident_of(0, "mnt", &after) || !ns_ident_eq(&before, &after)))
		rc = child_fail("the caller's own mount namespace changed");
	if (!rc && mountinfo_lines(0, NULL, 0) != lines)
		rc = child_fail("the caller's own mounts changed");
	if (rc != -1)	/* the child waits to be let go (else it is gone) */
		ns_sync_tell(&s, false, NULL, 0);
	err = ns_wait(pid, NS_WAIT_MS);
	ns_sync_close(&s);
	if (rc == -1)
		return err ? err : child_fail("the child stopped talking");
	return rc ? rc : err;
}

/*
 * unshare(UNSHARE_EMPTY_MNTNS) puts the caller alone in a new mount ns of one mount, an empty root
 * that is its cwd (sched.h, 7.1; not in unshare(2)).
 */
TEST(unshare_empty_mntns_gives_empty_root)
{
	NS_RUN_ADMIN_WORKER(empty_mntns_worker, NULL, NS_F_UNSHARE_EMPTY_MNTNS);
}

/* --- implied CLONE_FS ---------------------------------------------------- */

struct fs_req {
	unsigned long flags;	/* what the CLONE_FS sibling unshares */
	const char *type;	/* the namespace it must then be in anew */
	struct ns_ident before;	/* that namespace before */
};

static int chdir_child(void *arg)
{
	struct fs_req *r = arg;
	struct ns_ident mine;

	if (r->flags) {
		if (unshare(r->flags))
			return child_fail("unshare(%#lx): %m", r->flags);
		if (ns_ident_of(0, r->type, &mine))
			return child_fail("stat %s: %m", r->type);
		if (ns_ident_eq(&mine, &r->before))
			return child_fail("unshare(%#lx) returned 0, same %s namespace",
					  r->flags, r->type);
	}
	if (chdir("/dev"))
		return child_fail("chdir /dev: %m");
	return 0;
}

/* Run chdir_child in a child sharing our fs context (CLONE_FS). */
static int run_fs_sharer(struct fs_req *r)
{
	pid_t pid;

	if (r->flags && ns_ident_of(0, r->type, &r->before))
		return child_fail("stat %s: %m", r->type);
	fflush(stdout);
	fflush(stderr);
	pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid < 0)
		return child_fail("clone(CLONE_FS): %m");
	if (pid == 0)
		_exit(chdir_child(r));
	return ns_wait(pid, NS_WAIT_MS);
}

static int fs_worker(void *arg)
{
	struct fs_req control = { 0 };
	char cwd[256];
	int rc;

	if (chdir("/"))
		return child_fail("chdir /: %m");
	/* control: a CLONE_FS sibling's chdir() moves us too */
	rc = run_fs_sharer(&control);
	if (rc)
		return rc;
	if (!getcwd(cwd, sizeof(cwd)) || strcmp(cwd, "/dev"))
		return child_fail("CLONE_FS sibling's chdir did not move us (cwd %s)", cwd);
	if (chdir("/"))
		return child_fail("chdir /: %m");
	rc = run_fs_sharer(arg);
	if (rc)
		return rc;
	if (!getcwd(cwd, sizeof(cwd)) || strcmp(cwd, "/"))
		return child_fail("after unshare the sibling's chdir still moved us (cwd %s)",
				  cwd);
	return 0;
}

/*
 * unshare(CLONE_NEWNS) implies CLONE_FS: a process sharing fs context gets its own; its chdir()
 * stops moving the other (unshare(2)).
 */
TEST(unshare_newns_implies_clone_fs)
{
	struct fs_req r = { CLONE_NEWNS, "mnt", { 0 } };

	NS_NEED_ADMIN_OR_USERNS();

	ASSERT_EQ(0, ns_run_admin(0, fs_worker, &r));
}

/*
 * unshare(CLONE_NEWUSER) implies CLONE_FS as well (unshare(2), "Since Linux 3.9, CLONE_NEWUSER
 * automatically implies CLONE_FS").
 */
TEST(unshare_newuser_implies_clone_fs)
{
	struct fs_req r = { CLONE_NEWUSER, "user", { 0 } };

	NS_NEED_USERNS();
	ASSERT_EQ(0, ns_run(0, fs_worker, &r));
}

/* --- one check, three entry points --------------------------------------- */

enum entry { BY_CLONE, BY_CLONE3, BY_UNSHARE };

static const char *const entry_name[] = { "clone", "clone3", "unshare" };

/*
 * Start a process in new namespaces @flags through @how; it waits for a
 * byte on @s.  For unshare() the process is a child forked after the
 * unshare (so that CLONE_NEWPID takes effect).  Returns its pid as seen
 * here, 0 when the entry point is missing (clone3: ENOSYS), -1 on error.
 */
static pid_t start_in(enum entry how, unsigned long flags, struct ns_sync *s,
		      pid_t *helper)
{
	pid_t pid, inner;

	*helper = 0;
	if (how == BY_CLONE)
		pid = ns_clone(flags);
	else if (how == BY_CLONE3)
		pid = ns_clone3(flags);
	else
		pid = ns_clone(0);
	if (pid < 0)
		return how == BY_CLONE3 && errno == ENOSYS ? 0 : -1;
	if (pid == 0) {
		ns_sync_child_side(s);
		if (how != BY_UNSHARE) {
			ns_sync_wait(s, true, NULL, 0, 2 * NS_WAIT_MS);
			_exit(0);
		}
		inner = -1;
		if (!unshare(flags))
			inner = ns_clone(0);
		if (inner == 0) {
			ns_sync_wait(s, true, NULL, 0, 2 * NS_WAIT_MS);
			_exit(0);
		}
		if (inner < 0)
			child_fail("unshare(%#lx) or fork: %m", flags);
		ns_sync_tell(s, true, &inner, sizeof(inner));
		_exit(inner < 0 ? 1 : ns_wait(inner, 3 * NS_WAIT_MS));
	}
	if (how != BY_UNSHARE)
		return pid;
	*helper = pid;
	if (ns_sync_wait(s, false, &inner, sizeof(inner), NS_WAIT_MS) || inner < 0)
		return -1;
	/* the helper is in our PID namespace: its child's pid is ours too */
	return inner;
}

/* The shared check: @pid is in a new namespace exactly for the flags. */
static void expect_new_exactly(struct __test_metadata *_metadata, pid_t pid,
			       unsigned long flags, const char *how)
{
	int err;
	const struct ns_type *t = ns_first_unexpected(pid, flags, &err);

	ASSERT_EQ(0, err) TH_LOG("%s: compare %s: %s", how, t->name, strerror(-err));
	EXPECT_EQ(NULL, t)
		TH_LOG("%s(%#lx): %s namespace %s", how, flags, t->name,
		       flags & t->flag ? "not new" : "new though not asked for");
}

static const unsigned long flag_sets[] = {
	CLONE_NEWUTS | CLONE_NEWIPC,
	CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWPID,
	CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS |
		CLONE_NEWCGROUP | CLONE_NEWPID,
};

/*
 * clone(), clone3() and unshare() give new namespaces exactly for the CLONE_NEW* bits given
 * (clone(2), unshare(2), namespaces(7)).
 *
 * All three are run with the same flags and must agree.
 */
TEST(clone_clone3_unshare_give_same_namespaces)
{
	unsigned long extra = ns_have_sys_admin() ? 0 : CLONE_NEWUSER;
	int ran_clone3 = 0;

	NS_NEED_USERNS();
	for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
		for (enum entry how = BY_CLONE; how <= BY_UNSHARE; how++) {
			unsigned long flags = flag_sets[f] | extra;
			struct ns_sync s;
			pid_t pid, helper;

			ASSERT_EQ(0, ns_sync_init(&s));
			pid = start_in(how, flags, &s, &helper);
			if (pid == 0) {
				ns_sync_close(&s);
				continue;	/* no clone3 */
			}
			ran_clone3 += how == BY_CLONE3;
			ns_sync_parent_side(&s);
			if (pid > 0)
				expect_new_exactly(_metadata, pid, flags, entry_name[how]);
			ns_sync_tell(&s, false, NULL, 0);
			if (helper || pid > 0) {
				EXPECT_EQ(0, ns_wait(helper ?: pid, NS_WAIT_MS));
			}
			ns_sync_close(&s);
			ASSERT_LT(0, pid) TH_LOG("%s(%#lx) failed", entry_name[how], flags);
		}
	}
	if (!ran_clone3)
		TH_LOG("no clone3() on this kernel: compared clone() and unshare() only");
}

/* --- unshare(CLONE_NEWIPC) and the semaphore undo list -------------------- */

/*
 * A child raises semaphore @semid by one with SEM_UNDO, then unshare(@flag)s
 * and waits: the value the parent reads after that unshare (into
 * *@at_unshare) and after the child ended (*@at_exit).  0 or child_fail().
 */
static int undo_after_unshare(int semid, int flag, int *at_unshare, int *at_exit)
{
	struct ns_sync s;
	int rc = 0;
	pid_t pid;

	pid = ns_clone_synced(ns_clone, 0, &s);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0) {
		struct sembuf up = { .sem_num = 0, .sem_op = 1, .sem_flg = SEM_UNDO };

		if (semop(semid, &up, 1))
			_exit(child_fail("semop +1 SEM_UNDO: %m"));
		if (unshare(flag))
			_exit(child_fail("unshare(%#x): %m", flag));
		if (ns_sync_tell(&s, true, NULL, 0))
			_exit(1);
		ns_sync_wait(&s, true, NULL, 0, NS_WAIT_MS);	/* until the parent lets go */
		_exit(0);
	}
	if (ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS))
		rc = child_fail("no word from the child after unshare(%#x)", flag);
	*at_unshare = semctl(semid, 0, GETVAL);
	ns_sync_tell(&s, false, NULL, 0);
	if (ns_wait(pid, NS_WAIT_MS) && !rc)
		rc = child_fail("the child failed");
	*at_exit = semctl(semid, 0, GETVAL);
	ns_sync_close(&s);
	return rc;
}

static int newipc_sysvsem(void *arg)
{
	static const struct {
		int flag;
		int at_unshare;		/* the undo applied: 0; not yet: 1 */
	} steps[] = {
		{ CLONE_NEWUTS, 1 },	/* the control: the undo waits for the exit */
		{ CLONE_SYSVSEM, 0 },
		{ CLONE_NEWIPC, 0 },
	};
	int semid, rc = 0;

	(void)arg;
	/* in the IPC namespace ns_run_admin() made: the host's keeps no semaphore */
	semid = semget(IPC_PRIVATE, 1, 0600);
	if (semid < 0)
		return child_fail("semget: %m");
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && !rc; i++) {
		int at_unshare = -1, at_exit = -1;

		rc = undo_after_unshare(semid, steps[i].flag, &at_unshare, &at_exit);
		if (!rc && at_unshare != steps[i].at_unshare)
			rc = child_fail("after unshare(%#x) by the only holder of its undo list "
					"the semaphore is %d, not %d", steps[i].flag, at_unshare,
					steps[i].at_unshare);
		else if (!rc && at_exit != 0)
			rc = child_fail("after the exit of the unshare(%#x) caller the semaphore "
					"is %d, not 0", steps[i].flag, at_exit);
	}
	semctl(semid, 0, IPC_RMID);
	return rc;
}

/*
 * unshare(CLONE_NEWIPC) implies CLONE_SYSVSEM: the only holder of a semadj list applies it at that
 * unshare, not at its exit (unshare(2) CLONE_NEWIPC, CLONE_SYSVSEM).
 *
 * The control, unshare(CLONE_NEWUTS), leaves the adjustment to the exit.
 */
TEST(unshare_newipc_implies_clone_sysvsem)
{
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWIPC, newipc_sysvsem, NULL));
}

TEST_HARNESS_MAIN
