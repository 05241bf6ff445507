// SPDX-License-Identifier: GPL-2.0
/*
 * Time namespaces (5.6): when a process enters the namespace that
 * unshare(CLONE_NEWTIME) made for its children.  Two generations, both
 * designed (a documentation finding, not a kernel bug):
 *
 * - 5.6-6.1 (time_namespaces(7)): only a child made by fork() enters;
 *   copy_process() refuses CLONE_VM and CLONE_THREAD (threads, vfork) with
 *   EINVAL while time_for_children differs, and execve() keeps the caller's
 *   namespace.
 * - 6.2+ (linux:2b5f9dad32ed "fs/exec: switch timens when a task gets a new
 *   mm", merged as "execve updates for v6.2-rc1: Add timens support"): a task
 *   enters time_for_children when it gets a new mm, by fork() or execve(); a
 *   thread or a vfork child, sharing the caller's mm, is allowed and stays.
 *
 * time_namespaces(7) (man-pages 6.03) still shows the first: its example
 * writes timens_offsets from the shell that `unshare -T -- bash --norc`
 * started and says "the shell is a member of the initial time namespace,
 * but its children are created in the new namespace".  Since 6.2 that shell
 * is already a member: the write fails with EACCES and ns/time names the new
 * namespace.  The page is stale from 6.2 (README).
 *
 * Each test asks the kernel which generation it has: clone(CLONE_VM) (no
 * vfork, no thread) after unshare(CLONE_NEWTIME) is refused with EINVAL by
 * the first and allowed by the second (new_mm_generation()), and asserts that
 * generation exactly.
 *
 * The case re-executes itself (/proc/self/exe) for the execve() test: a
 * constructor reports before main() when TIMENS_EXEC_ENV is set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* A 10-day monotonic offset, written before anyone enters. */
#define MONO_OFF 864000LL
#define OFFSETS "monotonic 864000 0\n"
#define NSEC 1000000000LL

#define TIMENS_EXEC_ENV "NSCONFORM_TIMENS_EXEC_FD"

/* What one task sees: its time namespace and CLOCK_MONOTONIC (vDSO and system call). */
struct time_view {
	struct ns_ident time, for_children;
	long long vdso, sys;
	int ok;
};

static long long mono_vdso(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static long long mono_sys(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* Fill @v for the calling task (thread-self: a thread's own namespaces). */
static void view_self(struct time_view *v)
{
	struct stat a, b;

	v->ok = !stat("/proc/thread-self/ns/time", &a) &&
		!stat("/proc/thread-self/ns/time_for_children", &b);
	v->time.dev = a.st_dev;
	v->time.ino = a.st_ino;
	v->for_children.dev = b.st_dev;
	v->for_children.ino = b.st_ino;
	v->vdso = mono_vdso();
	v->sys = mono_sys();
}

/* @t is within 5 s after @base plus @off seconds. */
static bool clock_near(long long t, long long base, long long off)
{
	return t >= base + off * NSEC && t <= base + (off + 5) * NSEC;
}

/* --- the generation ------------------------------------------------------- */

static int probe_vm_child(void *arg)
{
	(void)arg;
	return 0;
}

/* After unshare(CLONE_NEWTIME): @arg gets clone(CLONE_VM)'s errno, 0 when it made the child. */
static int probe_worker(void *arg)
{
	int *err = arg;
	size_t size = 64 * 1024;
	char *stack;
	pid_t pid;

	if (unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
		     -1, 0);
	if (stack == MAP_FAILED)
		return child_fail("mmap: %m");
	pid = clone(probe_vm_child, stack + size, CLONE_VM | SIGCHLD, NULL);
	*err = pid < 0 ? errno : 0;
	return pid < 0 ? 0 : ns_wait(pid, NS_WAIT_MS);
}

/*
 * Which generation the kernel has (the header): 1 when clone(CLONE_VM) after
 * unshare(CLONE_NEWTIME) makes the child (6.2+, linux:2b5f9dad32ed), 0 when it
 * is refused with EINVAL (5.6-6.1); -1, logged, on anything else.
 */
static int new_mm_generation(void)
{
	int *err = ns_shared_page(sizeof(*err)), r;

	if (!err)
		return -1;
	*err = -1;
	r = ns_run_admin(0, probe_worker, err);
	if (r || (*err && *err != EINVAL)) {
		fprintf(stderr, "# probe: worker %d, clone(CLONE_VM) after unshare: %s\n", r,
			*err > 0 ? strerror(*err) : "not reached");
		return -1;
	}
	fprintf(stderr, "# generation: %s\n", *err ? "5.6-6.1 (CLONE_VM refused)" :
		"6.2+ (a new mm enters time_for_children)");
	return !*err;
}

/* --- threads and vfork children ------------------------------------------ */

struct shared_vm_rec {
	struct time_view caller, thread, vchild, fchild;
	struct ns_ident target;
	long long base;			/* the caller's clock before anything */
	int thread_err;			/* pthread_create() result */
	int vfork_err;			/* errno of clone(CLONE_VM | CLONE_VFORK) */
	int rewrite_err;		/* timens_offsets write after both */
};

static void *thread_view(void *arg)
{
	view_self(arg);
	return NULL;
}

static int vchild_view(void *arg)
{
	view_self(arg);
	return 0;
}

static int shared_vm_worker(void *arg)
{
	struct shared_vm_rec *r = arg;
	size_t size = 256 * 1024;
	pthread_t th;
	char *stack;
	pid_t pid;
	int err;

	r->base = mono_sys();
	if (unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	err = ns_write_proc(0, "timens_offsets", OFFSETS);
	if (err)
		return child_fail("write timens_offsets: %s", strerror(-err));
	if (ns_ident_of(0, "time_for_children", &r->target))
		return child_fail("stat time_for_children: %m");
	view_self(&r->caller);

	r->thread_err = pthread_create(&th, NULL, thread_view, &r->thread);
	if (!r->thread_err)
		pthread_join(th, NULL);

	stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
		     -1, 0);
	if (stack == MAP_FAILED)
		return child_fail("mmap: %m");
	pid = clone(vchild_view, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, &r->vchild);
	if (pid < 0)
		r->vfork_err = errno;
	else if (ns_wait(pid, NS_WAIT_MS))
		return child_fail("the vfork child failed");

	/* Nobody has entered yet: the offsets may still be written. */
	r->rewrite_err = -ns_write_proc(0, "timens_offsets", OFFSETS);

	/* A plain fork enters (the control). */
	pid = ns_clone(0);
	if (pid == 0) {
		view_self(&r->fchild);
		_exit(0);
	}
	return pid < 0 ? child_fail("fork: %m") : ns_wait(pid, NS_WAIT_MS);
}

/*
 * After unshare(CLONE_NEWTIME) a thread and a vfork child stay in the caller's time ns (6.2+,
 * linux:2b5f9dad32ed) or are refused with EINVAL (5.6-6.1, time_namespaces(7)); a fork child
 * enters in both.
 *
 * The generation comes from new_mm_generation() (clone(CLONE_VM) alone),
 * and the test asserts it exactly.  6.2+: the thread and the vfork child
 * share the caller's mm, whose vDSO shows the caller's clocks, and stay in
 * its namespace.  5.6-6.1: copy_process() refuses CLONE_VM and CLONE_THREAD
 * while time_for_children differs, so pthread_create() and
 * clone(CLONE_VM | CLONE_VFORK) fail with EINVAL.  In both the namespace
 * still has no member after them (its offsets can be rewritten), and a fork
 * child enters it with the offsets.
 */
TEST(thread_and_vfork_child_after_unshare)
{
	struct shared_vm_rec *r = ns_shared_page(sizeof(*r));
	int gen, want;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	gen = new_mm_generation();
	ASSERT_LE(0, gen);
	want = gen ? 0 : EINVAL;
	ASSERT_EQ(0, ns_run_admin(0, shared_vm_worker, r));
	ASSERT_TRUE(r->caller.ok);
	EXPECT_EQ(want, r->thread_err) TH_LOG("pthread_create: %s", strerror(r->thread_err));
	EXPECT_EQ(want, r->vfork_err) TH_LOG("clone(CLONE_VM | CLONE_VFORK): %s",
					     strerror(r->vfork_err));
	EXPECT_EQ(0, r->rewrite_err) TH_LOG("rewrite: %s", strerror(r->rewrite_err));
	if (gen && !r->thread_err) {
		ASSERT_TRUE(r->thread.ok);
		EXPECT_TRUE(ns_ident_eq(&r->thread.time, &r->caller.time));
		EXPECT_TRUE(clock_near(r->thread.vdso, r->base, 0));
		EXPECT_TRUE(clock_near(r->thread.sys, r->base, 0));
	}
	if (gen && !r->vfork_err) {
		ASSERT_TRUE(r->vchild.ok);
		EXPECT_TRUE(ns_ident_eq(&r->vchild.time, &r->caller.time));
		EXPECT_TRUE(clock_near(r->vchild.vdso, r->base, 0));
		EXPECT_TRUE(clock_near(r->vchild.sys, r->base, 0));
	}
	ASSERT_TRUE(r->fchild.ok);
	EXPECT_TRUE(ns_ident_eq(&r->fchild.time, &r->target));
	EXPECT_TRUE(clock_near(r->fchild.vdso, r->base, MONO_OFF));
	EXPECT_TRUE(clock_near(r->fchild.sys, r->base, MONO_OFF));
}

/* --- execve() --------------------------------------------------------------- */

/*
 * In the re-executed program, before main(): report our view on the socket
 * named by TIMENS_EXEC_ENV, then stay until the test has looked at us from
 * outside (it closes its end).
 */
__attribute__((constructor)) static void timens_exec_report(void)
{
	const char *fd_s = getenv(TIMENS_EXEC_ENV);
	struct pollfd pfd;
	struct time_view v;
	char c;
	int fd;

	if (!fd_s)
		return;
	fd = atoi(fd_s);
	view_self(&v);
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(3);
	pfd.fd = fd;
	pfd.events = POLLIN;
	poll(&pfd, 1, NS_WAIT_MS);
	_exit(read(fd, &c, 1) < 0 ? 4 : 0);
}

struct exec_before {
	struct ns_ident time, target;
	long long base;
};

/* Unshare, write the offsets, tell what we were, and become /proc/self/exe. */
static int exec_worker(void *arg)
{
	int sock = *(int *)arg, fd, err;
	char env[64], *argv[] = { "timens-exec", NULL }, *envp[] = { env, NULL };
	struct exec_before b;

	b.base = mono_sys();
	if (unshare(CLONE_NEWTIME))
		return child_fail("unshare(CLONE_NEWTIME): %m");
	err = ns_write_proc(0, "timens_offsets", OFFSETS);
	if (err)
		return child_fail("write timens_offsets: %s", strerror(-err));
	if (ns_ident_of(0, "time", &b.time) || ns_ident_of(0, "time_for_children", &b.target))
		return child_fail("stat ns: %m");
	if (write(sock, &b, sizeof(b)) != sizeof(b))
		return child_fail("write: %m");
	fd = dup(sock);		/* without O_CLOEXEC: survives execve() */
	snprintf(env, sizeof(env), "%s=%d", TIMENS_EXEC_ENV, fd);
	execve("/proc/self/exe", argv, envp);
	return child_fail("execve /proc/self/exe: %m");
}

/*
 * execve() after unshare(CLONE_NEWTIME) moves the caller into time_for_children, the new program
 * running with its offsets (6.2+, linux:2b5f9dad32ed), or keeps it in its namespace (5.6-6.1,
 * time_namespaces(7) EXAMPLES).
 *
 * The generation comes from new_mm_generation(), and the test asserts it
 * exactly, seen from outside (the program's ns/time) and inside (its
 * ns/time, ns/time_for_children and CLOCK_MONOTONIC through the vDSO and the
 * system call).  time_namespaces(7)'s example (`unshare -T -- bash --norc`,
 * then writing timens_offsets from that shell, which "is a member of the
 * initial time namespace") shows 5.6-6.1; since 6.2 the shell is a member
 * of the new namespace and the write fails with EACCES (README).
 */
TEST(execve_after_unshare)
{
	struct exec_before b;
	struct time_view v;
	struct ns_ident seen;
	struct pollfd pfd;
	int sv[2], err, gen;
	long long off;
	pid_t pid;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	gen = new_mm_generation();
	ASSERT_LE(0, gen);
	off = gen ? MONO_OFF : 0;
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	pid = ns_clone_admin(0);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		_exit(exec_worker(&sv[1]));
	}
	close(sv[1]);
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, NS_WAIT_MS));
	ASSERT_EQ(sizeof(b), read(sv[0], &b, sizeof(b)));
	ASSERT_EQ(1, poll(&pfd, 1, NS_WAIT_MS));
	ASSERT_EQ(sizeof(v), read(sv[0], &v, sizeof(v)));
	/* From outside, while the program waits for us. */
	err = ns_ident_of(pid, "time", &seen);
	close(sv[0]);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ASSERT_EQ(0, err);
	ASSERT_TRUE(v.ok);
	EXPECT_FALSE(ns_ident_eq(&b.time, &b.target));
	EXPECT_TRUE(ns_ident_eq(&seen, gen ? &b.target : &b.time));
	EXPECT_TRUE(ns_ident_eq(&v.time, gen ? &b.target : &b.time));
	EXPECT_TRUE(ns_ident_eq(&v.for_children, &b.target));
	EXPECT_TRUE(clock_near(v.vdso, b.base, off));
	EXPECT_TRUE(clock_near(v.sys, b.base, off));
}

TEST_HARNESS_MAIN
