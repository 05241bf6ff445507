// SPDX-License-Identifier: GPL-2.0
/*
 * mutant - run a case binary on a "lying kernel": a ptrace supervisor that
 * applies one mutation to the case and to every process it starts.
 *
 *   mutant --clear CLONE_NEWUTS -- CASE [ARGS...]
 *	clear that bit from the flags of clone(), of clone3() (in the
 *	struct clone_args in the tracee's memory) and of unshare() before
 *	the kernel sees them; CLONE_NEWTIME only from clone3() and unshare()
 *	(in clone()'s flags 0x80 is part of the exit signal).
 *   mutant --fake SYSCALL -- CASE [ARGS...]
 *	make SYSCALL return 0 without executing it.
 *   mutant --none -- CASE [ARGS...]
 *	trace but change nothing (the baseline of make mutate).
 *   mutant --strace --fake SYSCALL -- CASE
 *	the same fake through strace's --inject (a cross-check).
 *   mutant --trace-all ...
 *	stop the tracee at every system call (the slow way of old).
 *
 * The tracee stops only at the calls the mutation changes: before it
 * runs the case, the child installs a seccomp filter that returns
 * SECCOMP_RET_TRACE for those calls (clone, clone3 and unshare for
 * --clear; the faked calls for --fake) and lets every other call through
 * without a stop.  Where a change must be undone at the call's exit, that
 * one call is resumed with PTRACE_SYSCALL.  Without CAP_SYS_ADMIN the
 * filter needs no_new_privs, which an exec of a set-id or file-capability
 * program notices: harness/mutate's traced baseline leaves such tests out.
 * With --none the filter traces every call a mutant can change and one
 * more TAP line names the mutants that would have changed something:
 *	# mutant: profile: clear-uts clear-user fake-sethostname
 * (harness/mutate runs a mutant only on the binaries whose profile names it).
 *
 * Every descendant is traced (PTRACE_O_TRACEFORK|VFORK|CLONE|EXEC), and
 * PTRACE_O_EXITKILL kills them all if the supervisor dies.  Whatever the
 * mutation changes in the tracee (a register, the clone_args flags word)
 * is put back at syscall exit, in the caller and in the new child, so the
 * only lie is the kernel's behaviour.  At the end one TAP comment line says
 * how often the mutation was applied:
 *	# mutant: clear CLONE_NEWUTS: applied 3
 * The exit status is the case's (128 + signal when it was killed).
 *
 * Run it where the case would run, after any privilege drop (nsrun --pass
 * user -- mutant ... -- CASE): the tracer then has exactly the case's
 * credentials, and it does not mutate nsrun's own namespace set-up.
 *
 * A lie told to a privileged case changes whatever namespace the case
 * thought it had left: the hostname, the mount table, the links of the
 * namespaces it runs in.  So with CAP_SYS_ADMIN the supervisor first puts
 * itself in fresh mount (all private), UTS, IPC, network and cgroup
 * namespaces, even when a caller forgot harness/mutate's sandbox; only
 * --no-sandbox (inside a sandbox of your own) skips that.  Without the
 * capability no lie can reach further than the case's own privileges.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "nsconform.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef AUDIT_ARCH_X86_64
#define AUDIT_ARCH_X86_64 0xc000003e
#endif

#define MAX_NR 1024

struct sys_name {
	const char *name;
	long nr;
};

/* The calls a fake-success mutant may replace (extend as cases need). */
static const struct sys_name sys_names[] = {
	{ "sethostname", SYS_sethostname },
	{ "setdomainname", SYS_setdomainname },
	{ "setns", SYS_setns },
	{ "mount", SYS_mount },
	{ "umount2", SYS_umount2 },
	{ "pivot_root", SYS_pivot_root },
	{ "kill", SYS_kill },
	{ "tgkill", SYS_tgkill },
	{ "setgroups", SYS_setgroups },
	{ "bind", SYS_bind },
	{ "connect", SYS_connect },
	{ "prctl", SYS_prctl },
	{ "unshare", SYS_unshare },
	{ "ioctl", SYS_ioctl },
	{ "chroot", SYS_chroot },
	{ "setuid", SYS_setuid },
	{ "setgid", SYS_setgid },
	{ "setresuid", SYS_setresuid },
	{ "setresgid", SYS_setresgid },
	{ "mkdir", SYS_mkdir },
	{ "mkdirat", SYS_mkdirat },
	{ "msgget", SYS_msgget },
	{ "shmget", SYS_shmget },
	{ "semget", SYS_semget },
	{ "mq_open", SYS_mq_open },
	{ "getpid", SYS_getpid },
	{ "getppid", SYS_getppid },
};

/* What the supervisor changed in one tracee and must put back. */
enum restore_kind { R_NONE, R_ARG0, R_MEM };

struct restore {
	enum restore_kind kind;
	unsigned long addr;	/* R_MEM: address of clone_args.flags */
	unsigned long val;	/* the original value */
};

enum tracee_state {
	T_RUNNING,
	T_NEW_HELD,	/* new child stopped before its parent's event */
	T_NEW_CLAIMED,	/* parent's event seen, child's first stop not yet */
};

struct tracee {
	pid_t pid;
	enum tracee_state state;
	bool faking;		/* the current syscall is being faked */
	struct restore pending;	/* to undo at this syscall's exit */
	struct restore child;	/* to undo in a new child at its first stop */
	pid_t ppid;		/* T_NEW_HELD: its parent, as /proc says */
	struct tracee *next;
};

static struct {
	unsigned long clear;
	bool clear_in_clone;
	const char *clear_name;
	bool fake[MAX_NR];
	char fake_names[256];
	bool none;
	bool use_strace;
	bool no_sandbox;
	bool trace_all;		/* stop at every call, not only the filter's */
	unsigned long applied;
	/* --none: what the case did that a mutant could change */
	bool seen[MAX_NR];
	unsigned long flags_new;	/* CLONE_NEW* seen in unshare() and clone3() */
	unsigned long flags_clone;	/* ... and in clone() */
} mut;

static struct tracee *tracees;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mutant (--clear CLONE_NEWxxx | --fake SYSCALL | --none)\n"
		"              [--strace] [--no-sandbox] [--trace-all] -- CASE [ARGS...]\n"
		"Runs CASE and all its descendants under ptrace with one lie of the\n"
		"kernel: --clear drops that namespace flag from clone(), clone3() and\n"
		"unshare(); --fake makes SYSCALL return 0 without running it (may be\n"
		"repeated); --none changes nothing.  --strace does --fake through\n"
		"strace --inject instead of this supervisor.  With CAP_SYS_ADMIN it\n"
		"first enters fresh mnt/uts/ipc/net/cgroup namespaces, so that no lie\n"
		"reaches the caller's (--no-sandbox: only inside your own sandbox).\n"
		"The case stops only at the calls the lie changes (a seccomp filter;\n"
		"--trace-all: at every call).  --none also prints the mutants that\n"
		"would have changed something: '# mutant: profile: clear-uts ...'.\n"
		"Flags: CLONE_NEWNS NEWUTS NEWIPC NEWUSER NEWPID NEWNET NEWCGROUP\n"
		"NEWTIME (or mnt uts ipc user pid net cgroup time).\n");
}

static long find_sys(const char *s)
{
	for (size_t i = 0; i < sizeof(sys_names) / sizeof(sys_names[0]); i++)
		if (!strcmp(s, sys_names[i].name))
			return sys_names[i].nr;
	return -1;
}

static char **parse_opts(int argc, char **argv)
{
	static const struct option lo[] = {
		/* with an argument */
		{ "clear", required_argument, NULL, 'c' }, { "fake", required_argument, NULL, 'f' },
		/* switches */
		{ "none", no_argument, NULL, 'n' }, { "strace", no_argument, NULL, 's' },
		{ "no-sandbox", no_argument, NULL, 'S' }, { "help", no_argument, NULL, 'h' },
		{ "trace-all", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const struct ns_type *f;
	int c, kinds = 0;
	long nr;

	while ((c = getopt_long(argc, argv, "+c:f:nsShA", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			f = ns_type_named(optarg);
			if (!f || mut.clear) {
				fprintf(stderr, "mutant: bad or second --clear '%s'\n", optarg);
				exit(2);
			}
			mut.clear = f->flag;
			mut.clear_in_clone = f->legacy_clone;
			mut.clear_name = f->flag_name;
			kinds++;
			break;
		case 'f':
			nr = find_sys(optarg);
			if (nr < 0 || nr >= MAX_NR) {
				fprintf(stderr, "mutant: cannot fake '%s'\n", optarg);
				exit(2);
			}
			if (!mut.fake_names[0])
				kinds++;
			mut.fake[nr] = true;
			snprintf(mut.fake_names + strlen(mut.fake_names),
				 sizeof(mut.fake_names) - strlen(mut.fake_names),
				 "%s%s", mut.fake_names[0] ? "," : "", optarg);
			break;
		case 'n': mut.none = true; kinds++; break;
		case 's': mut.use_strace = true; break;
		case 'S': mut.no_sandbox = true; break;
		case 'A': mut.trace_all = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (kinds != 1 || optind >= argc ||
	    (mut.use_strace && !mut.fake_names[0])) {
		usage(stderr);
		exit(2);
	}
	return argv + optind;
}

/* --- tracee bookkeeping -------------------------------------------------- */

static struct tracee *find_tracee(pid_t pid)
{
	for (struct tracee *t = tracees; t; t = t->next)
		if (t->pid == pid)
			return t;
	return NULL;
}

static struct tracee *add_tracee(pid_t pid, enum tracee_state state)
{
	struct tracee *t = calloc(1, sizeof(*t));

	if (!t) {
		perror("mutant: calloc");
		exit(2);
	}
	t->pid = pid;
	t->state = state;
	t->next = tracees;
	tracees = t;
	return t;
}

static pid_t ppid_of(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

static void drop_tracee(pid_t pid)
{
	for (struct tracee **p = &tracees; *p; p = &(*p)->next) {
		if ((*p)->pid == pid) {
			struct tracee *t = *p;

			*p = t->next;
			free(t);
			return;
		}
	}
}

/* --- the lies (x86_64) --------------------------------------------------- */

#if defined(__x86_64__)
#define ARCH_OK 1

static int get_regs(pid_t pid, struct user_regs_struct *r)
{
	return ptrace(PTRACE_GETREGS, pid, NULL, r);
}

static int set_regs(pid_t pid, struct user_regs_struct *r)
{
	return ptrace(PTRACE_SETREGS, pid, NULL, r);
}

static void put_back(pid_t pid, const struct restore *r)
{
	struct user_regs_struct regs;

	if (r->kind == R_ARG0 && !get_regs(pid, &regs)) {
		regs.rdi = r->val;
		set_regs(pid, &regs);
	} else if (r->kind == R_MEM) {
		ptrace(PTRACE_POKEDATA, pid, (void *)r->addr, (void *)r->val);
	}
}

/* Clear the bit in clone_args.flags (the first u64 of the struct). */
static void lie_clone3(struct tracee *t, unsigned long addr, unsigned long size)
{
	unsigned long w;

	if (size < sizeof(uint64_t) || !addr)
		return;
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, t->pid, (void *)addr, NULL);
	if (errno || !(w & mut.clear))
		return;
	if (ptrace(PTRACE_POKEDATA, t->pid, (void *)addr, (void *)(w & ~mut.clear)))
		return;
	t->pending = (struct restore){ R_MEM, addr, w };
	mut.applied++;
}

static void lie_arg0(struct tracee *t, struct user_regs_struct *r)
{
	if (!(r->rdi & mut.clear))
		return;
	t->pending = (struct restore){ R_ARG0, 0, r->rdi };
	r->rdi &= ~mut.clear;
	if (set_regs(t->pid, r))
		t->pending.kind = R_NONE;
	else
		mut.applied++;
}

/* --none: note what a mutant could have changed in this call. */
static void profile(struct tracee *t, long nr, const uint64_t *args)
{
	unsigned long w;

	if (nr < MAX_NR)
		mut.seen[nr] = true;
	if (nr == SYS_unshare) {
		mut.flags_new |= args[0];
	} else if (nr == SYS_clone) {
		mut.flags_clone |= args[0] & ~0xffUL;	/* the low byte: exit signal */
	} else if (nr == SYS_clone3 && args[0] && args[1] >= sizeof(uint64_t)) {
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, t->pid, (void *)(unsigned long)args[0], NULL);
		if (!errno)
			mut.flags_new |= w;
	}
}

/* At a syscall-entry stop or at the filter's stop (the same layout). */
static void syscall_entry(struct tracee *t, const struct __ptrace_syscall_info *si)
{
	struct user_regs_struct r;
	long nr = si->entry.nr;

	t->pending.kind = R_NONE;
	t->faking = false;
	if (si->arch != AUDIT_ARCH_X86_64 || nr < 0)
		return;
	if (mut.none) {
		profile(t, nr, si->entry.args);
		return;
	}
	if (get_regs(t->pid, &r))
		return;
	if (nr < MAX_NR && mut.fake[nr]) {
		r.orig_rax = -1;	/* skip the call ... */
		r.rax = 0;		/* ... and say it succeeded */
		if (!set_regs(t->pid, &r)) {
			t->faking = true;
			mut.applied++;
		}
	} else if (mut.clear && nr == SYS_clone && mut.clear_in_clone) {
		lie_arg0(t, &r);
	} else if (mut.clear && nr == SYS_unshare) {
		lie_arg0(t, &r);
	} else if (mut.clear && nr == SYS_clone3) {
		lie_clone3(t, si->entry.args[0], si->entry.args[1]);
	}
}

static void syscall_exit(struct tracee *t)
{
	struct user_regs_struct r;

	if (t->faking && !get_regs(t->pid, &r)) {
		r.rax = 0;
		set_regs(t->pid, &r);
	}
	t->faking = false;
	if (t->pending.kind != R_NONE)
		put_back(t->pid, &t->pending);
	t->pending.kind = R_NONE;
}
#else
#define ARCH_OK 0
static void put_back(pid_t pid, const struct restore *r) { (void)pid; (void)r; }
static void syscall_entry(struct tracee *t, const struct __ptrace_syscall_info *si)
{
	(void)t; (void)si;
}
static void syscall_exit(struct tracee *t) { (void)t; }
#endif

/* --- the supervisor loop ------------------------------------------------- */

/*
 * Resume a tracee: to its next stop of any kind with --trace-all, else to
 * the filter's next stop, except that a call with something to undo at
 * its exit (t->pending, t->faking) runs on to its syscall-exit stop.
 */
static void resume(pid_t pid, struct tracee *t, int sig)
{
	bool exit_stop = mut.trace_all ||
			 (t && (t->faking || t->pending.kind != R_NONE));

	ptrace(exit_stop ? PTRACE_SYSCALL : PTRACE_CONT, pid, NULL, (void *)(long)sig);
}

/* A syscall-entry or -exit stop, or the filter's stop at a call's entry. */
static void on_syscall_stop(struct tracee *t)
{
	struct __ptrace_syscall_info si;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof(si), &si) > 0) {
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY || si.op == PTRACE_SYSCALL_INFO_SECCOMP)
			syscall_entry(t, &si);
		else if (si.op == PTRACE_SYSCALL_INFO_EXIT)
			syscall_exit(t);
	}
	resume(t->pid, t, 0);
}

/* The parent's fork/vfork/clone event: the new child is now known. */
static void on_new_child(struct tracee *parent)
{
	unsigned long msg;
	struct tracee *c;

	if (ptrace(PTRACE_GETEVENTMSG, parent->pid, NULL, &msg) == 0) {
		c = find_tracee((pid_t)msg);
		if (!c)
			c = add_tracee((pid_t)msg, T_NEW_CLAIMED);
		c->child = parent->pending;
		if (c->state == T_NEW_HELD) {
			put_back(c->pid, &c->child);
			c->state = T_RUNNING;
			resume(c->pid, c, 0);
		} else {
			c->state = T_NEW_CLAIMED;
		}
	}
	resume(parent->pid, parent, 0);
}

/* A PTRACE_EVENT_STOP: a new child's first stop, a group-stop or an interrupt. */
static void on_event_stop(pid_t pid, struct tracee *t, int sig)
{
	if (!t) {
		/* Wait for the parent's event, which says what to put back. */
		add_tracee(pid, T_NEW_HELD)->ppid = ppid_of(pid);
		return;
	}
	if (t->state == T_NEW_CLAIMED) {
		put_back(pid, &t->child);
		t->state = T_RUNNING;
		resume(pid, t, 0);
		return;
	}
	if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
		ptrace(PTRACE_LISTEN, pid, NULL, NULL);
	else
		resume(pid, t, 0);
}

static void on_stop(pid_t pid, int status)
{
	struct tracee *t = find_tracee(pid);
	int sig = WSTOPSIG(status), event = status >> 16;

	if (event == PTRACE_EVENT_STOP) {
		on_event_stop(pid, t, sig);
		return;
	}
	if (!t)
		t = add_tracee(pid, T_RUNNING);
	if (sig == (SIGTRAP | 0x80) || event == PTRACE_EVENT_SECCOMP) {
		on_syscall_stop(t);
	} else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		   event == PTRACE_EVENT_CLONE) {
		on_new_child(t);
	} else if (event == PTRACE_EVENT_EXEC) {
		unsigned long old;

		/* A non-leader thread that execs takes over the leader's pid. */
		if (!ptrace(PTRACE_GETEVENTMSG, pid, NULL, &old) && (pid_t)old != pid)
			drop_tracee((pid_t)old);
		resume(pid, t, 0);
	} else if (event) {
		resume(pid, t, 0);
	} else {
		resume(pid, t, sig);	/* signal-delivery-stop: deliver it */
	}
}

/*
 * A parent killed between creating a child and reporting the event never
 * reports it: do not hold its children for ever.
 */
static void release_orphans(pid_t dead)
{
	for (struct tracee *t = tracees; t; t = t->next) {
		if (t->state == T_NEW_HELD && t->ppid == dead) {
			t->state = T_RUNNING;
			resume(t->pid, t, 0);
		}
	}
}

static int supervise(pid_t child)
{
	int status, code = -1;
	pid_t pid;

	while (code < 0) {
		pid = waitpid(-1, &status, __WALL);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			perror("mutant: waitpid");
			return 2;
		}
		if (WIFSTOPPED(status)) {
			on_stop(pid, status);
			continue;
		}
		drop_tracee(pid);
		release_orphans(pid);
		if (pid != child)
			continue;
		if (WIFEXITED(status))
			code = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			code = 128 + WTERMSIG(status);
	}
	return code;
}

/* --none: the mutants that would have changed a call the case made. */
static void report_profile(void)
{
	fprintf(stderr, "# mutant: profile:");
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *n = &ns_types[i];
		unsigned long f = mut.flags_new | (n->legacy_clone ? mut.flags_clone : 0);

		if (f & n->flag)
			fprintf(stderr, " clear-%s", n->name);
	}
	for (size_t i = 0; i < sizeof(sys_names) / sizeof(sys_names[0]); i++)
		if (mut.seen[sys_names[i].nr])
			fprintf(stderr, " fake-%s", sys_names[i].name);
	fprintf(stderr, "\n");
}

static void report(void)
{
	if (mut.none)
		report_profile();
	if (mut.none)
		fprintf(stderr, "# mutant: none: applied 0\n");
	else if (mut.clear)
		fprintf(stderr, "# mutant: clear %s: applied %lu\n", mut.clear_name, mut.applied);
	else
		fprintf(stderr, "# mutant: fake %s: applied %lu\n", mut.fake_names, mut.applied);
}

/* Fresh namespaces for the supervisor and the case: see the top comment. */
static int sandbox(void)
{
	if (mut.no_sandbox || !ns_have_sys_admin())
		return 0;
	if (unshare(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
		    CLONE_NEWCGROUP)) {
		fprintf(stderr, "mutant: cannot enter a sandbox of fresh namespaces: %m\n");
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		fprintf(stderr, "mutant: cannot make the sandbox's mounts private: %m\n");
		return -1;
	}
	return 0;
}

static void exec_strace(char **argv)
{
	char inject[300];
	char *args[64] = { "strace", "-f", "-qq", "-o", "/dev/null", inject, "--" };
	int n = 7;

	snprintf(inject, sizeof(inject), "--inject=%s:retval=0", mut.fake_names);
	for (; *argv && n < 63; argv++)
		args[n++] = *argv;
	args[n] = NULL;
	execvp(args[0], args);
	fprintf(stderr, "mutant: cannot run strace: %m\n");
	exit(127);
}

/* Does the filter stop the case at @nr? */
static bool filtered(long nr)
{
	if (nr == SYS_clone || nr == SYS_clone3 || nr == SYS_unshare)
		return mut.clear || mut.none;
	if (mut.none) {
		for (size_t i = 0; i < sizeof(sys_names) / sizeof(sys_names[0]); i++)
			if (sys_names[i].nr == nr)
				return true;
		return false;
	}
	return nr < MAX_NR && mut.fake[nr];
}

/*
 * In the case's process, before its exec: SECCOMP_RET_TRACE for the calls
 * the mutation changes (or --none profiles), SECCOMP_RET_ALLOW for the rest.
 */
static int install_filter(void)
{
	struct sock_filter f[MAX_NR + 8];
	struct sock_fprog prog;
	int n = 0, nrs = 0;
	long nr;

	for (nr = 0; nr < MAX_NR; nr++)
		nrs += filtered(nr);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	/* Another ABI (x32, i386): let it through, as the supervisor does. */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64,
					      0, nrs + 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (nr = 0; nr < MAX_NR; nr++) {
		if (!filtered(nr))
			continue;
		/* To the RET_TRACE after the RET_ALLOW when equal. */
		nrs--;
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr,
						      nrs + 1, 0);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	prog = (struct sock_fprog){ .len = n, .filter = f };
	/* Without CAP_SYS_ADMIN a filter needs no_new_privs (seccomp(2)). */
	if (!ns_have_sys_admin() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "mutant: cannot set no_new_privs: %m\n");
		return -1;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		fprintf(stderr, "mutant: cannot install the seccomp filter: %m"
			" (--trace-all works without)\n");
		return -1;
	}
	return 0;
}

static void exec_case(char **argv, int go)
{
	char c;

	/* Stay traceable whatever nsrun's privilege drop did to dumpability. */
	prctl(PR_SET_DUMPABLE, 1);
	if (read(go, &c, 1) != 1)
		_exit(126);
	close(go);
	if (!mut.trace_all && install_filter())
		_exit(126);
	execv(argv[0], argv);
	fprintf(stderr, "mutant: cannot run %s: %m\n", argv[0]);
	_exit(127);
}

int main(int argc, char **argv)
{
	char **case_argv = parse_opts(argc, argv);
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL |
		    PTRACE_O_TRACESECCOMP;
	int go[2], code;
	pid_t child;

	if (sandbox())
		return 2;
	if (mut.use_strace)
		exec_strace(case_argv);
	if (!ARCH_OK) {
		fprintf(stderr, "mutant: this architecture is not supported (x86_64 only)\n");
		return 2;
	}
	if (pipe2(go, O_CLOEXEC)) {
		perror("mutant: pipe");
		return 2;
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		perror("mutant: fork");
		return 2;
	}
	if (child == 0) {
		close(go[1]);
		exec_case(case_argv, go[0]);
	}
	close(go[0]);
	if (ptrace(PTRACE_SEIZE, child, NULL, (void *)opts)) {
		fprintf(stderr, "mutant: cannot trace the case: %m\n");
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 2;
	}
	add_tracee(child, T_RUNNING);
	if (write(go[1], "g", 1) != 1) {
		perror("mutant: write");
		return 2;
	}
	close(go[1]);
	code = supervise(child);
	report();
	return code;
}
