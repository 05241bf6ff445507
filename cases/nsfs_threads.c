// SPDX-License-Identifier: GPL-2.0
/*
 * Namespaces belong to threads: setns(2) and unshare(2) change those of the
 * calling thread only, the other threads of its process keep theirs, as
 * /proc/PID/task/TID/ns shows from outside the thread.
 *
 * The types tested are those a thread may change while other threads share
 * its process: uts, ipc, net and cgroup (a mount namespace needs an
 * unshared fs context, a user namespace a single thread, a time namespace
 * gives EUSERS to a threaded caller: nsfs_errors_pidfd.c, user_setns.c,
 * time.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsconform.h"
#include "nsfs.h"
#include "kselftest_harness.h"

static const char *const per_thread[] = { "uts", "ipc", "net", "cgroup" };
#define N_PER_THREAD (sizeof(per_thread) / sizeof(per_thread[0]))

/* The flag of type @name. */
static int flag_of(const char *name)
{
	return (int)ns_type_named(name)->flag;
}

/* The namespace @type of thread @tid of our process, read from outside it. */
static int thread_ns(pid_t tid, const char *type, struct ns_ident *id)
{
	char path[80];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/self/task/%d/ns/%s", tid, type);
	if (stat(path, &st))
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

struct thread_job {
	int fds[N_PER_THREAD];		/* setns() into these; -1: unshare() instead */
	bool use_unshare;
	pid_t tid;
	int err;			/* errno of the failed call, 0 */
	int done[2];			/* the thread says it did it */
	int go[2];			/* the main thread says it may end */
};

static void *changer(void *arg)
{
	struct thread_job *j = arg;
	char c = 0;

	j->tid = (pid_t)syscall(SYS_gettid);
	if (j->use_unshare) {
		int flags = 0;

		for (size_t i = 0; i < N_PER_THREAD; i++)
			flags |= flag_of(per_thread[i]);
		if (unshare(flags))
			j->err = errno;
	} else {
		for (size_t i = 0; i < N_PER_THREAD && !j->err; i++)
			if (setns(j->fds[i], flag_of(per_thread[i])))
				j->err = errno;
	}
	/* stay alive, in the new namespaces, until the main thread has looked */
	if (write(j->done[1], &c, 1) != 1 || read(j->go[0], &c, 1) < 0)
		j->err = j->err ?: EPIPE;
	return NULL;
}

/*
 * Run changer() in a second thread: while it waits, each per_thread type of
 * it (through /proc/self/task/TID/ns) must be @want's (or, @want NULL, new),
 * and the main thread's still @before's.
 */
static int one_thread_changes(struct thread_job *j, const struct ns_ident *want,
			      const struct ns_ident *before)
{
	pthread_t th;
	char c = 0;
	int rc = 0;

	if (pipe2(j->done, O_CLOEXEC) || pipe2(j->go, O_CLOEXEC))
		return child_fail("pipe: %m");
	if (pthread_create(&th, NULL, changer, j))
		return child_fail("pthread_create failed");
	if (!nsfs_readable_within(j->done[0], NS_WAIT_MS))
		rc = child_fail("the thread never finished its call");
	else if (j->err)
		rc = child_fail("%s in a thread: %s", j->use_unshare ? "unshare" : "setns",
				strerror(j->err));
	for (size_t i = 0; i < N_PER_THREAD && !rc; i++) {
		const char *t = per_thread[i];
		struct ns_ident th_id, main_id;

		if (thread_ns(j->tid, t, &th_id) || thread_ns(getpid(), t, &main_id))
			rc = child_fail("stat task ns %s: %m", t);
		else if (want && !ns_ident_eq(&th_id, &want[i]))
			rc = child_fail("the thread is not in the %s namespace it joined", t);
		else if (!want && ns_ident_eq(&th_id, &before[i]))
			rc = child_fail("after unshare the thread is still in our %s namespace", t);
		else if (!ns_ident_eq(&main_id, &before[i]))
			rc = child_fail("the main thread moved to another %s namespace", t);
	}
	if (write(j->go[1], &c, 1) != 1 && !rc)
		rc = child_fail("cannot release the thread: %m");
	pthread_join(th, NULL);
	close(j->done[0]);
	close(j->done[1]);
	close(j->go[0]);
	close(j->go[1]);
	return rc;
}

/* Our namespace of each per_thread type into @ids. */
static int own_ids(struct ns_ident *ids)
{
	for (size_t i = 0; i < N_PER_THREAD; i++)
		if (ns_ident_of(0, per_thread[i], &ids[i]))
			return child_fail("stat own %s: %m", per_thread[i]);
	return 0;
}

static int setns_in_thread(void *arg)
{
	struct thread_job j = { .use_unshare = false };
	struct ns_ident before[N_PER_THREAD], want[N_PER_THREAD];
	struct ns_holder h;
	int rc;

	(void)arg;
	if (own_ids(before))
		return 1;
	if (ns_holder_start(&h, CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWCGROUP,
			    NULL, NULL))
		return child_fail("holder failed");
	for (size_t i = 0; i < N_PER_THREAD; i++) {
		j.fds[i] = ns_open(h.pid, per_thread[i]);
		if (j.fds[i] < 0 || ns_ident_of(h.pid, per_thread[i], &want[i]))
			return child_fail("open the holder's %s: %m", per_thread[i]);
	}
	rc = one_thread_changes(&j, want, before);
	if (ns_holder_stop(&h) && !rc)
		rc = child_fail("holder failed");
	return rc;
}

/*
 * setns() moves only the calling thread: the other threads of the process stay in their uts, ipc,
 * net and cgroup namespaces (setns(2) "reassociate the calling thread").
 */
TEST(setns_moves_only_the_calling_thread)
{
	NS_NEED_TYPE("cgroup");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, setns_in_thread, NULL));
}

static int unshare_in_thread(void *arg)
{
	struct thread_job j = { .use_unshare = true };
	struct ns_ident before[N_PER_THREAD];

	(void)arg;
	if (own_ids(before))
		return 1;
	return one_thread_changes(&j, NULL, before);
}

/*
 * unshare() by one thread gives that thread new uts, ipc, net and cgroup namespaces; the other
 * threads keep the old ones (unshare(2) "a process (or thread)").
 */
TEST(unshare_moves_only_the_calling_thread)
{
	NS_NEED_TYPE("cgroup");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, ns_run_admin(0, unshare_in_thread, NULL));
}

TEST_HARNESS_MAIN
