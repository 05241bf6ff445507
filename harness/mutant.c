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
 *   mutant --lie pid|uid|ident|proc -- CASE [ARGS...]
 *	a translation lie: at the exit of a call that returns an id the
 *	kernel translates between namespaces (pids; uids and gids; the ids
 *	that must not be translated; /proc text, listings and lookups), move
 *	the id by 1 to 997, an amount chosen from the caller's PID and user
 *	namespaces, and leave it so (lie_exit() has the list of calls).
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
 *	# mutant: profile: clear-uts clear-user fake-sethostname lie-uid
 * (harness/mutate runs a mutant only on the binaries whose profile names it).
 *
 * Every descendant is traced (PTRACE_O_TRACEFORK|VFORK|CLONE|EXEC), and
 * PTRACE_O_EXITKILL kills them all if the supervisor dies.  Whatever the
 * mutation changes in the tracee (a register, the clone_args flags word)
 * is put back at syscall exit, in the caller and in the new child, so the
 * only lie is the kernel's behaviour (--lie changes what the kernel
 * returned, and that stays; the one input it changes, a /proc path, is
 * put back).  At the end one TAP comment line says
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
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>
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

/*
 * The translation lies (--lie): at the exit of a call that returns a
 * translated id, the id plus an amount that depends on the caller's PID and
 * user namespaces, as a kernel that translates for the wrong observer.
 */
enum {
	LIE_PID = 1,	/* pids in structs, siginfo and return values */
	LIE_UID = 2,	/* uids and gids */
	LIE_IDENT = 4,	/* ids that must not be translated: nsfs inode, ns id, mount ids */
	LIE_PROC = 8,	/* /proc text, /proc readdir and pid lookup */
};

static const struct { const char *name; unsigned int lie; } lie_names[] = {
	{ "pid", LIE_PID }, { "uid", LIE_UID }, { "ident", LIE_IDENT }, { "proc", LIE_PROC },
};

/* The calls each lie stops at (at entry, lie_wanted() looks at the arguments). */
static const struct { long nr; unsigned int lie; } lie_calls[] = {
	{ SYS_getsockopt, LIE_PID | LIE_UID }, { SYS_recvmsg, LIE_PID | LIE_UID },
	{ SYS_rt_sigtimedwait, LIE_PID | LIE_UID }, { SYS_waitid, LIE_PID | LIE_UID },
	{ SYS_msgctl, LIE_PID | LIE_UID }, { SYS_shmctl, LIE_PID | LIE_UID },
	{ SYS_semctl, LIE_PID | LIE_UID }, { SYS_ioctl, LIE_PID | LIE_UID | LIE_IDENT },
	{ SYS_fcntl, LIE_PID }, { SYS_pidfd_send_signal, LIE_PID },
#ifdef SYS_stat		/* not on arm64 */
	{ SYS_stat, LIE_UID | LIE_IDENT }, { SYS_lstat, LIE_UID | LIE_IDENT },
#endif
	{ SYS_fstat, LIE_UID | LIE_IDENT }, { SYS_newfstatat, LIE_UID | LIE_IDENT },
	{ SYS_statx, LIE_UID | LIE_IDENT }, { SYS_getsockname, LIE_IDENT },
	{ __NR_statmount, LIE_IDENT }, { SYS_openat, LIE_PROC },
	/* not profiled (every case reads): --none names lie-proc by openat("/proc/...") */
	{ SYS_read, LIE_PROC }, { SYS_getdents64, LIE_PROC },
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
	bool lying;		/* --lie: alter what the current syscall returns */
	long lie_nr;		/* ... the call, and its arguments at entry */
	uint64_t lie_args[6];
	unsigned long path_addr;	/* --lie proc: a path rewritten at entry */
	size_t path_len;		/* ... its original bytes, put back at exit */
	char path[80];
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
	unsigned int lie;	/* --lie: LIE_PID | LIE_UID | LIE_IDENT | LIE_PROC */
	const char *lie_name;
	dev_t nsfs_dev;		/* st_dev of nsfs files (--lie ident) */
	unsigned long applied;
	/* --none: what the case did that a mutant could change */
	unsigned long seen[MAX_NR];	/* calls made, by number */
	unsigned long flags_new;	/* CLONE_NEW* seen in unshare() and clone3() */
	unsigned long flags_clone;	/* ... and in clone() */
	unsigned long ns_calls[NS_NTYPES];	/* calls a --clear of that type would change */
	unsigned int seen_lie;		/* calls a --lie would have altered */
	unsigned long lie_hits[sizeof(lie_names) / sizeof(lie_names[0])];	/* ... how often */
} mut;

static struct tracee *tracees;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mutant (--clear CLONE_NEWxxx | --fake SYSCALL | --lie KIND | --none)\n"
		"              [--strace] [--no-sandbox] [--trace-all] -- CASE [ARGS...]\n"
		"Runs CASE and all its descendants under ptrace with one lie of the\n"
		"kernel: --clear drops that namespace flag from clone(), clone3() and\n"
		"unshare(); --fake makes SYSCALL return 0 without running it (may be\n"
		"repeated); --lie pid|uid|ident|proc alters the ids the kernel returns\n"
		"(pids, uids and gids, namespace and mount ids, /proc text and\n"
		"listings) by an amount that depends on the caller's namespaces;\n"
		"--none changes nothing.  --strace does --fake through\n"
		"strace --inject instead of this supervisor.  With CAP_SYS_ADMIN it\n"
		"first enters fresh mnt/uts/ipc/net/cgroup namespaces, so that no lie\n"
		"reaches the caller's (--no-sandbox: only inside your own sandbox).\n"
		"The case stops only at the calls the lie changes (a seccomp filter;\n"
		"--trace-all: at every call).  --none also prints the mutants that\n"
		"would have changed something: '# mutant: profile: clear-uts ...'.\n"
		"x86_64 only.\n"
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
		{ "lie", required_argument, NULL, 'l' },
		/* switches */
		{ "none", no_argument, NULL, 'n' }, { "strace", no_argument, NULL, 's' },
		{ "no-sandbox", no_argument, NULL, 'S' }, { "help", no_argument, NULL, 'h' },
		{ "trace-all", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const struct ns_type *f;
	int c, kinds = 0;
	long nr;

	while ((c = getopt_long(argc, argv, "+c:f:l:nsShA", lo, NULL)) != -1) {
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
		case 'l':
			for (size_t i = 0; i < sizeof(lie_names) / sizeof(lie_names[0]); i++)
				if (!strcmp(optarg, lie_names[i].name))
					mut.lie = lie_names[i].lie, mut.lie_name = lie_names[i].name;
			if (!mut.lie_name || kinds) {
				fprintf(stderr, "mutant: bad or second --lie '%s'\n", optarg);
				exit(2);
			}
			kinds++;
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

/* --- the translation lies (--lie, x86_64) --------------------------------- */

/* @len bytes of the tracee's memory at @addr (word by word: no access check). */
static int peek(pid_t pid, unsigned long addr, void *buf, size_t len)
{
	char *out = buf;

	for (unsigned long a = addr & ~7UL; a < addr + len; a += 8) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, (void *)a, NULL);
		if (errno)
			return -1;
		for (unsigned long i = 0; i < 8; i++)
			if (a + i >= addr && a + i < addr + len)
				out[a + i - addr] = ((char *)&w)[i];
	}
	return 0;
}

static int poke(pid_t pid, unsigned long addr, const void *buf, size_t len)
{
	const char *in = buf;

	for (unsigned long a = addr & ~7UL; a < addr + len; a += 8) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, (void *)a, NULL);
		if (errno)
			return -1;
		for (unsigned long i = 0; i < 8; i++)
			if (a + i >= addr && a + i < addr + len)
				((char *)&w)[i] = in[a + i - addr];
		if (ptrace(PTRACE_POKEDATA, pid, (void *)a, (void *)w))
			return -1;
	}
	return 0;
}

/*
 * The lie: 1 to 997, from the caller's PID and user namespaces, so that
 * two callers in the same namespaces are told the same and callers in
 * different ones (almost always) different amounts.  64-bit identities
 * (nsfs inodes, ns and mount ids) move by that times 2^32, so that two
 * real ones never collide under it (ns_clone() compares inodes).
 */
static unsigned long lie_delta(pid_t pid)
{
	static const char *const type[] = { "pid", "user" };
	unsigned long h = 0;

	for (int i = 0; i < 2; i++) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, type[i]);
		if (!stat(path, &st))
			h = h * 1000003 + st.st_ino;
	}
	return 1 + h % 997;
}

/* Add @d to the 4-byte (@size 4) or 8-byte id at @addr. */
static void add_id(pid_t pid, unsigned long addr, int size, unsigned long d)
{
	uint64_t v = 0;

	if (peek(pid, addr, &v, size))
		return;
	v += d;
	poke(pid, addr, &v, size);
}

#define NS_IOCTL_MAGIC 0xb7
#define IOC_NR(cmd) ((cmd) & 0xff)
#define IOC_TYPE(cmd) (((cmd) >> 8) & 0xff)

/* Which lie applies to this call (decided at entry, by number and arguments). */
static bool lie_wanted(long nr, const uint64_t *a)
{
	unsigned int l = mut.lie;
	unsigned long cmd = a[1];

	switch (nr) {
	case SYS_getsockopt:
		return (l & (LIE_PID | LIE_UID)) && a[1] == SOL_SOCKET && a[2] == SO_PEERCRED;
	case SYS_recvmsg:
	case SYS_rt_sigtimedwait:
	case SYS_waitid:
		return l & (LIE_PID | LIE_UID);
	case SYS_msgctl:
	case SYS_shmctl:
		return l & (LIE_PID | LIE_UID);
	case SYS_semctl:
		return l & (LIE_PID | LIE_UID);
	case SYS_ioctl:
		if (cmd == NSC_PIDFD_GET_INFO)
			return l & (LIE_PID | LIE_UID);
		if (IOC_TYPE(cmd) != NS_IOCTL_MAGIC)
			return false;
		if (IOC_NR(cmd) >= 6 && IOC_NR(cmd) <= 9)	/* NS_GET_{PID,TGID}_{FROM,IN}_PIDNS */
			return l & LIE_PID;
		if (cmd == NS_GET_OWNER_UID)
			return l & LIE_UID;
		return cmd == NS_GET_ID && (l & LIE_IDENT);
	case SYS_fcntl:
		return (l & LIE_PID) && (a[1] == F_GETOWN || a[1] == F_GETOWN_EX);
	case SYS_pidfd_send_signal:
		return l & LIE_PID;
	case SYS_stat:
	case SYS_fstat:
	case SYS_lstat:
	case SYS_newfstatat:
	case SYS_statx:
		return l & (LIE_UID | LIE_IDENT);
	case SYS_getsockname:
	case __NR_statmount:
		return l & LIE_IDENT;
	case SYS_read:
	case SYS_getdents64:
	case SYS_openat:
		return l & LIE_PROC;
	}
	return false;
}

/* SCM_CREDENTIALS in the control buffer of the struct msghdr at @addr. */
static bool lie_cmsg(pid_t pid, unsigned long addr, unsigned long d)
{
	struct msghdr m;
	unsigned long p, end;
	bool done = false;

	if (peek(pid, addr, &m, sizeof(m)) || !m.msg_control)
		return false;
	p = (unsigned long)m.msg_control;
	end = p + m.msg_controllen;
	while (p + sizeof(struct cmsghdr) <= end) {
		struct cmsghdr c;
		unsigned long data = p + CMSG_LEN(0);

		if (peek(pid, p, &c, sizeof(c)) || c.cmsg_len < sizeof(c))
			break;
		if (c.cmsg_level == SOL_SOCKET && c.cmsg_type == SCM_CREDENTIALS &&
		    c.cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
			if (mut.lie & LIE_PID)
				add_id(pid, data + offsetof(struct ucred, pid), 4, d);
			if (mut.lie & LIE_UID) {
				add_id(pid, data + offsetof(struct ucred, uid), 4, d);
				add_id(pid, data + offsetof(struct ucred, gid), 4, d);
			}
			done = true;
		}
		p += CMSG_ALIGN(c.cmsg_len);
	}
	return done;
}

/* si_pid and si_uid of a siginfo that carries them (a sender's, or SIGCHLD's). */
static bool lie_siginfo(pid_t pid, unsigned long addr, unsigned long d)
{
	siginfo_t si;

	if (!addr || peek(pid, addr, &si, sizeof(si)))
		return false;
	if (si.si_signo != SIGCHLD && si.si_code != SI_USER && si.si_code != SI_QUEUE &&
	    si.si_code != SI_TKILL && si.si_code != SI_MESGQ)
		return false;
	if (si.si_signo == SIGCHLD && !si.si_pid)
		return false;	/* waitid(WNOHANG) found nothing */
	if (mut.lie & LIE_PID)
		add_id(pid, addr + offsetof(siginfo_t, si_pid), 4, d);
	if (mut.lie & LIE_UID)
		add_id(pid, addr + offsetof(siginfo_t, si_uid), 4, d);
	return true;
}

/* struct ipc_perm owner and creator, and the pids of the IPC_STAT buffer at @addr. */
static bool lie_ipc(pid_t pid, long nr, unsigned long addr, unsigned long d)
{
	static const size_t pids[][2] = {
		[0] = { offsetof(struct msqid_ds, msg_lspid), offsetof(struct msqid_ds, msg_lrpid) },
		[1] = { offsetof(struct shmid_ds, shm_cpid), offsetof(struct shmid_ds, shm_lpid) },
	};
	/* msg_perm, shm_perm and sem_perm all come first */
	static const size_t ids[] = {
		offsetof(struct ipc_perm, uid), offsetof(struct ipc_perm, gid),
		offsetof(struct ipc_perm, cuid), offsetof(struct ipc_perm, cgid),
	};

	if (!addr)
		return false;
	if (mut.lie & LIE_UID)
		for (int i = 0; i < 4; i++)
			add_id(pid, addr + ids[i], 4, d);
	if ((mut.lie & LIE_PID) && nr != SYS_semctl)
		for (int i = 0; i < 2; i++)
			add_id(pid, addr + pids[nr == SYS_shmctl][i], 4, d);
	return (mut.lie & LIE_UID) || nr != SYS_semctl;
}

/* The pid of @fd's process as the supervisor sees it (its fdinfo), or 0. */
static long global_pid_of_pidfd(pid_t pid, int fd)
{
	char path[64], buf[1024], *p;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nPid:");
	return p ? strtol(p + 5, NULL, 10) : 0;
}

/* PIDFD_GET_INFO: the pids and the credentials the call filled in. */
static bool lie_pidfd_info(pid_t pid, const uint64_t *a, struct user_regs_struct *r,
			   unsigned long d)
{
	struct nsc_pidfd_info info;
	unsigned long addr = a[2];

	if (peek(pid, addr, &info, sizeof(info)))
		return false;
	if ((long)r->rax == -ESRCH || (long)r->rax == -EREMOTE) {
		/* not visible: the untranslated pid, as a kernel that skips the check */
		long g = (mut.lie & LIE_PID) ? global_pid_of_pidfd(pid, (int)a[0]) : 0;

		if (g <= 0)
			return false;
		info.mask |= NSC_PIDFD_MASK_PID;
		info.pid = info.tgid = g;
		info.ppid = ppid_of(g);
		if (poke(pid, addr, &info, sizeof(info)))
			return false;
		r->rax = 0;
		return !set_regs(pid, r);
	}
	if (r->rax)
		return false;
	if ((mut.lie & LIE_PID) && (info.mask & NSC_PIDFD_MASK_PID)) {
		info.pid += d;
		info.tgid += d;
		info.ppid += d;
	}
	if ((mut.lie & LIE_UID) && (info.mask & NSC_PIDFD_MASK_CREDS)) {
		info.ruid += d, info.euid += d, info.suid += d, info.fsuid += d;
		info.rgid += d, info.egid += d, info.sgid += d, info.fsgid += d;
	}
	return !poke(pid, addr, &info, sizeof(info));
}

/* struct stat / struct statx at @addr: owner (LIE_UID), inode of an nsfs file (LIE_IDENT). */
static bool lie_stat(pid_t pid, long nr, unsigned long addr, unsigned long d)
{
	bool done = false;

	if (nr == SYS_statx) {
		struct statx sx;

		if (peek(pid, addr, &sx, sizeof(sx)))
			return false;
		if ((mut.lie & LIE_UID) && (sx.stx_mask & (STATX_UID | STATX_GID))) {
			sx.stx_uid += d;
			sx.stx_gid += d;
			done = true;
		}
		if ((mut.lie & LIE_IDENT) && (sx.stx_mask & STATX_INO) &&
		    makedev(sx.stx_dev_major, sx.stx_dev_minor) == mut.nsfs_dev) {
			sx.stx_ino += d << 32;
			done = true;
		}
		return done && !poke(pid, addr, &sx, sizeof(sx));
	} else {
		struct stat st;

		if (peek(pid, addr, &st, sizeof(st)))
			return false;
		if (mut.lie & LIE_UID) {
			st.st_uid += d;
			st.st_gid += d;
			done = true;
		}
		if ((mut.lie & LIE_IDENT) && st.st_dev == mut.nsfs_dev) {
			st.st_ino += d << 32;
			done = true;
		}
		return done && !poke(pid, addr, &st, sizeof(st));
	}
}

/*
 * Copy @n bytes of @s to @o, adding @d to each blank-separated number whose
 * index (from 0) is a bit of @mask; returns the bytes written.
 */
static size_t shift_tokens(const char *s, size_t n, unsigned long mask, unsigned long d, char *o)
{
	size_t i = 0, w = 0;
	int idx = 0;

	while (i < n) {
		size_t j = i;

		if (s[i] == ' ' || s[i] == '\t') {
			o[w++] = s[i++];
			continue;
		}
		while (j < n && s[j] != ' ' && s[j] != '\t')
			j++;
		if (idx < 64 && (mask >> idx & 1) && strspn(s + i, "0123456789") == j - i) {
			w += sprintf(o + w, "%lu", strtoul(s + i, NULL, 10) + d);
		} else {
			memcpy(o + w, s + i, j - i);
			w += j - i;
		}
		i = j;
		idx++;
	}
	return w;
}

/* The numbers to change on a line of /proc/PID/status or a pidfd's fdinfo. */
static unsigned long status_mask(const char *line, bool fdinfo)
{
	static const char *const st[] = { "Tgid:", "Pid:", "PPid:", "Uid:", "Gid:",
					  "NStgid:", "NSpgid:", "NSsid:", NULL };
	static const char *const fi[] = { "Pid:", "NSpid:", NULL };

	for (const char *const *k = fdinfo ? fi : st; *k; k++)
		if (!strncmp(line, *k, strlen(*k)))
			return ~1UL;
	return 0;
}

enum text_kind { TX_NONE, TX_STATUS, TX_FDINFO, TX_STAT, TX_NET, TX_MOUNTINFO, TX_CGROUP };

/* Which /proc file a read() returned, by its text. */
static enum text_kind text_kind(const char *s)
{
	unsigned int a, b, c, e;
	char slash;

	if (!strncmp(s, "Name:\t", 6))
		return TX_STATUS;
	if (!strncmp(s, "pos:\t", 5) && strstr(s, "\nPid:\t"))
		return TX_FDINFO;
	if (sscanf(s, "%u %u %u:%u %c", &a, &b, &c, &e, &slash) == 5 && slash == '/')
		return TX_MOUNTINFO;
	if (strspn(s, "0123456789") && s[strspn(s, "0123456789")] == ' ' &&
	    s[strspn(s, "0123456789") + 1] == '(' && strrchr(s, ')'))
		return TX_STAT;
	if (!strncmp(s + strspn(s, " "), "sl ", 3) && strstr(s, " uid "))
		return TX_NET;
	if (sscanf(s, "%u:%*[^:\n]:%c", &a, &slash) == 2 && slash == '/')
		return TX_CGROUP;
	if (sscanf(s, "%u::%c", &a, &slash) == 2 && slash == '/')
		return TX_CGROUP;
	return TX_NONE;
}

/*
 * read() of /proc text: the pids of status, stat and a pidfd's fdinfo (not
 * NSpid: of status, from which harness code learns the pids), the uids and
 * gids of status and the uid column of /proc/net/{tcp,udp}*, the mount ids
 * of mountinfo, the paths of /proc/PID/cgroup (below /lieD, as read against
 * the wrong cgroup namespace root).  The text may grow up to the size the
 * caller asked for.
 */
static bool lie_text(pid_t pid, const uint64_t *a, struct user_regs_struct *r, unsigned long d)
{
	static char in[65536 + 1], out[65536 + 8192];
	size_t n = r->rax, w = 0;
	enum text_kind k;

	if ((long)r->rax <= 0 || n > sizeof(in) - 1 || peek(pid, a[1], in, n))
		return false;
	in[n] = 0;
	k = text_kind(in);
	if (k == TX_NONE)
		return false;
	for (size_t i = 0; i < n;) {
		size_t e = i + strcspn(in + i, "\n"), len = e - i;
		unsigned long mask = 0;

		if (k == TX_STATUS || k == TX_FDINFO)
			mask = status_mask(in + i, k == TX_FDINFO);
		else if (k == TX_MOUNTINFO)
			mask = 3;
		else if (k == TX_NET && i)
			mask = 1UL << 7;
		if (k == TX_CGROUP && memchr(in + i, ':', len)) {
			/* hierarchy:controllers:path, the path seen from the wrong root */
			const char *p = memchr(in + i, ':', len);

			p = memchr(p + 1, ':', in + e - p - 1);
			if (!p || p[1] != '/') {
				memcpy(out + w, in + i, len);
				w += len;
			} else {
				memcpy(out + w, in + i, p + 1 - (in + i));
				w += p + 1 - (in + i);
				w += sprintf(out + w, "/lie%lu", d);
				if (in + e - (p + 1) > 1) {
					memcpy(out + w, p + 1, in + e - (p + 1));
					w += in + e - (p + 1);
				}
			}
		} else if (k == TX_STAT && !i && memchr(in, ')', len)) {
			/* pid (comm) state ppid pgrp session ... */
			const char *rp = in;

			for (const char *p = in; p < in + len; p++)
				if (*p == ')')
					rp = p;
			w += shift_tokens(in, rp - in, 1, d, out + w);
			w += shift_tokens(rp, in + len - rp, 0x1c, d, out + w);
		} else {
			w += shift_tokens(in + i, len, mask, d, out + w);
		}
		if (e < n)
			out[w++] = '\n';
		i = e + 1;
		if (w > sizeof(out) - 512)
			return false;
	}
	if (w > a[2] || poke(pid, a[1], out, w))
		return false;
	r->rax = w;
	return !set_regs(pid, r);
}

/*
 * getdents64() of a /proc root (it lists thread-self): one more pid, the
 * reader's own as the supervisor sees it, as a /proc that lists processes
 * of another namespace.
 */
static bool lie_readdir(pid_t pid, const uint64_t *a, struct user_regs_struct *r)
{
	static char buf[65536];
	size_t n = r->rax, last = 0, reclen;
	bool proc_root = false;
	char name[24];
	int want = pid;
	struct {
		uint64_t ino;
		int64_t off;
		unsigned short reclen;
		unsigned char type;
		char name[21];
	} __attribute__((packed)) e;

	if ((long)r->rax <= 0 || n > sizeof(buf) || peek(pid, a[1], buf, n))
		return false;
	for (bool again = true; again;) {
		again = false;
		snprintf(name, sizeof(name), "%d", want);
		for (size_t o = 0; o + 19 < n; o += *(unsigned short *)(buf + o + 16)) {
			const char *nm = buf + o + 19;

			if (*(unsigned short *)(buf + o + 16) == 0)
				return false;
			last = o;
			proc_root |= !strcmp(nm, "thread-self");
			if (!strcmp(nm, name))
				again = true;
		}
		want += again;
	}
	reclen = (19 + strlen(name) + 1 + 7) & ~7UL;
	if (!proc_root || n + reclen > a[2] || reclen > sizeof(e))
		return false;
	memset(&e, 0, sizeof(e));
	e.ino = 0x10000 + want;
	e.off = *(int64_t *)(buf + last + 8);
	e.reclen = reclen;
	e.type = DT_DIR;
	strcpy(e.name, name);
	if (poke(pid, a[1] + n, &e, reclen))
		return false;
	r->rax = n + reclen;
	return !set_regs(pid, r);
}

/*
 * openat() of /proc/N/stat or /proc/N/status where the caller's /proc has no
 * N: opens /proc/1/..., as a /proc that looks pids up in the wrong
 * namespace.  The path is rewritten in place (shorter) and put back at exit.
 */
static bool lie_lookup(struct tracee *t, const uint64_t *a)
{
	char path[sizeof(t->path)], *file, probe[128];
	size_t digits;
	struct stat st;

	if (peek(t->pid, a[1], path, sizeof(path)) || !memchr(path, 0, sizeof(path)) ||
	    strncmp(path, "/proc/", 6))
		return false;
	digits = strspn(path + 6, "0123456789");
	file = path + 6 + digits;
	if (!digits || (strcmp(file, "/stat") && strcmp(file, "/status")) ||
	    (digits == 1 && path[6] == '1'))
		return false;
	/* The caller's /proc, through its root: is there an N? */
	snprintf(probe, sizeof(probe), "/proc/%d/root/proc/1", t->pid);
	if (stat(probe, &st))
		return false;	/* (not self: that is the supervisor's, absent there) */
	snprintf(probe, sizeof(probe), "/proc/%d/root%s", t->pid, path);
	if (!stat(probe, &st) || errno != ENOENT)
		return false;
	t->path_len = strlen(path) + 1;
	memcpy(t->path, path, t->path_len);
	memmove(path + 7, file, strlen(file) + 1);
	path[6] = '1';
	if (poke(t->pid, a[1], path, strlen(path) + 1))
		return false;
	t->path_addr = a[1];
	return true;
}

/* At a lied-to call's exit: alter what it returned. */
static void lie_exit(struct tracee *t)
{
	const uint64_t *a = t->lie_args;
	struct user_regs_struct r;
	unsigned long d = lie_delta(t->pid);
	unsigned long cmd = a[1];
	long rv;
	bool done = false;

	if (t->path_addr) {
		poke(t->pid, t->path_addr, t->path, t->path_len);
		t->path_addr = 0;
		mut.applied++;
	}
	if (get_regs(t->pid, &r))
		return;
	rv = r.rax;
	switch (t->lie_nr) {
	case SYS_getsockopt:
		if (!rv) {
			if (mut.lie & LIE_PID)
				add_id(t->pid, a[3] + offsetof(struct ucred, pid), 4, d);
			if (mut.lie & LIE_UID) {
				add_id(t->pid, a[3] + offsetof(struct ucred, uid), 4, d);
				add_id(t->pid, a[3] + offsetof(struct ucred, gid), 4, d);
			}
			done = true;
		}
		break;
	case SYS_recvmsg:
		done = rv >= 0 && lie_cmsg(t->pid, a[1], d);
		break;
	case SYS_rt_sigtimedwait:
		done = rv > 0 && lie_siginfo(t->pid, a[1], d);
		break;
	case SYS_waitid:
		done = !rv && lie_siginfo(t->pid, a[2], d);
		break;
	case SYS_msgctl:
	case SYS_shmctl:
	case SYS_semctl:
		cmd = t->lie_nr == SYS_semctl ? a[2] : a[1];
		cmd &= ~0x100UL;	/* IPC_64 */
		/* (MSG_STAT is GETPID's number: by call; *_STAT return an id) */
		if (rv >= 0 && (cmd == IPC_STAT ||
				(t->lie_nr == SYS_msgctl && cmd == MSG_STAT) ||
				(t->lie_nr == SYS_shmctl && cmd == SHM_STAT) ||
				(t->lie_nr == SYS_semctl && cmd == SEM_STAT))) {
			done = lie_ipc(t->pid, t->lie_nr, t->lie_nr == SYS_semctl ? a[3] : a[2], d);
		} else if (rv >= 0 && t->lie_nr == SYS_semctl && cmd == GETPID &&
			   (mut.lie & LIE_PID)) {
			r.rax += d;
			done = !set_regs(t->pid, &r);
		} else if (rv == -EINVAL && cmd == IPC_SET && (mut.lie & LIE_UID)) {
			/* an owner unmapped in the caller's namespace, taken */
			r.rax = 0;
			done = !set_regs(t->pid, &r);
		}
		break;
	case SYS_ioctl:
		if (cmd == NSC_PIDFD_GET_INFO) {
			done = lie_pidfd_info(t->pid, a, &r, d);
		} else if (cmd == NS_GET_OWNER_UID || cmd == NS_GET_ID) {
			if (!rv)
				add_id(t->pid, a[2], cmd == NS_GET_ID ? 8 : 4,
				       cmd == NS_GET_ID ? d << 32 : d);
			done = !rv;
		} else if (rv >= 0 || rv == -ESRCH) {
			/* NS_GET_*PID*: ESRCH becomes the pid untranslated */
			r.rax = rv >= 0 ? rv + (long)d : (long)a[2];
			done = !set_regs(t->pid, &r);
		}
		break;
	case SYS_fcntl:
		if (cmd == F_GETOWN && rv >= 0) {
			r.rax += d;
			done = !set_regs(t->pid, &r);
		} else if (cmd == F_GETOWN_EX && !rv) {
			add_id(t->pid, a[2] + offsetof(struct f_owner_ex, pid), 4, d);
			done = true;
		}
		break;
	case SYS_pidfd_send_signal:
		if (rv == -EINVAL && !a[2] && !a[3]) {
			/* a process outside the caller's namespaces, reached */
			r.rax = 0;
			done = !set_regs(t->pid, &r);
		}
		break;
	case SYS_stat:
	case SYS_fstat:
	case SYS_lstat:
		done = !rv && lie_stat(t->pid, t->lie_nr, a[1], d);
		break;
	case SYS_newfstatat:
		done = !rv && lie_stat(t->pid, t->lie_nr, a[2], d);
		break;
	case SYS_statx:
		done = !rv && lie_stat(t->pid, t->lie_nr, a[4], d);
		break;
	case SYS_getsockname:
		if (!rv) {
			unsigned short fam = 0;

			peek(t->pid, a[1], &fam, sizeof(fam));
			if (fam == AF_NETLINK) {
				add_id(t->pid, a[1] + 4, 4, d);	/* sockaddr_nl.nl_pid */
				done = true;
			}
		}
		break;
	case __NR_statmount:
		if (!rv) {
			add_id(t->pid, a[1] + offsetof(struct nsc_statmount, mnt_id), 8, d << 32);
			add_id(t->pid, a[1] + offsetof(struct nsc_statmount, mnt_parent_id), 8,
			       d << 32);
			add_id(t->pid, a[1] + offsetof(struct nsc_statmount, mnt_ns_id), 8, d << 32);
			done = true;
		}
		break;
	case SYS_read:
		done = lie_text(t->pid, a, &r, d);
		break;
	case SYS_getdents64:
		done = lie_readdir(t->pid, a, &r);
		break;
	}
	mut.applied += done;
}

/* --none: note what a mutant could have changed in this call, and how often. */
static void profile(struct tracee *t, long nr, const uint64_t *args)
{
	unsigned long w = 0, legacy = 0;

	if (nr < MAX_NR)
		mut.seen[nr]++;
	for (size_t i = 0; i < sizeof(lie_names) / sizeof(lie_names[0]); i++) {
		unsigned int saved = mut.lie, hit = 0;
		char path[8] = "";

		mut.lie = lie_names[i].lie;
		if (nr == SYS_openat)
			hit = (mut.lie & LIE_PROC) && !peek(t->pid, args[1], path, 6) &&
			      !strncmp(path, "/proc", 5) ? LIE_PROC : 0;
		else if (lie_wanted(nr, args))
			hit = mut.lie;
		mut.seen_lie |= hit;
		mut.lie_hits[i] += !!hit;
		mut.lie = saved;
	}
	if (nr == SYS_unshare) {
		w = args[0];
	} else if (nr == SYS_clone) {
		legacy = args[0] & ~0xffUL;	/* the low byte: exit signal */
	} else if (nr == SYS_clone3 && args[0] && args[1] >= sizeof(uint64_t)) {
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, t->pid, (void *)(unsigned long)args[0], NULL);
		if (errno)
			w = 0;
	}
	mut.flags_new |= w;
	mut.flags_clone |= legacy;
	for (int i = 0; i < NS_NTYPES; i++)
		mut.ns_calls[i] += !!((w | (ns_types[i].legacy_clone ? legacy : 0)) &
				      ns_types[i].flag);
}

/* At a syscall-entry stop or at the filter's stop (the same layout). */
static void syscall_entry(struct tracee *t, const struct __ptrace_syscall_info *si)
{
	struct user_regs_struct r;
	long nr = si->entry.nr;

	t->pending.kind = R_NONE;
	t->faking = false;
	t->lying = false;
	if (si->arch != AUDIT_ARCH_X86_64 || nr < 0)
		return;
	if (mut.none) {
		profile(t, nr, si->entry.args);
		return;
	}
	if (mut.lie) {
		/* Only at the exit: the lie is in what the kernel returned. */
		if (nr == SYS_openat)
			t->lying = (mut.lie & LIE_PROC) && lie_lookup(t, si->entry.args);
		else
			t->lying = lie_wanted(nr, si->entry.args);
		t->lie_nr = nr;
		memcpy(t->lie_args, si->entry.args, sizeof(t->lie_args));
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
	if (t->lying)
		lie_exit(t);
	t->lying = false;
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
			 (t && (t->faking || t->lying || t->pending.kind != R_NONE));

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

/*
 * --none: the mutants that would have changed a call the case made, then
 * how many calls each would have changed (harness/mutate tries the binaries
 * that made the most first).
 */
static void report_profile(void)
{
	size_t nsys = sizeof(sys_names) / sizeof(sys_names[0]);
	size_t nlie = sizeof(lie_names) / sizeof(lie_names[0]);

	for (int counts = 0; counts < 2; counts++) {
		fprintf(stderr, counts ? "# mutant: calls:" : "# mutant: profile:");
		for (int i = 0; i < NS_NTYPES; i++) {
			const struct ns_type *n = &ns_types[i];
			unsigned long f = mut.flags_new | (n->legacy_clone ? mut.flags_clone : 0);

			if (!(f & n->flag))
				continue;
			fprintf(stderr, " clear-%s", n->name);
			if (counts)
				fprintf(stderr, "=%lu", mut.ns_calls[i]);
		}
		for (size_t i = 0; i < nsys; i++) {
			if (!mut.seen[sys_names[i].nr])
				continue;
			fprintf(stderr, " fake-%s", sys_names[i].name);
			if (counts)
				fprintf(stderr, "=%lu", mut.seen[sys_names[i].nr]);
		}
		for (size_t i = 0; i < nlie; i++) {
			if (!(mut.seen_lie & lie_names[i].lie))
				continue;
			fprintf(stderr, " lie-%s", lie_names[i].name);
			if (counts)
				fprintf(stderr, "=%lu", mut.lie_hits[i]);
		}
		fprintf(stderr, "\n");
	}
}

static void report(void)
{
	if (mut.none)
		report_profile();
	if (mut.none)
		fprintf(stderr, "# mutant: none: applied 0\n");
	else if (mut.clear)
		fprintf(stderr, "# mutant: clear %s: applied %lu\n", mut.clear_name, mut.applied);
	else if (mut.lie)
		fprintf(stderr, "# mutant: lie %s: applied %lu\n", mut.lie_name, mut.applied);
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
	for (size_t i = 0; i < sizeof(lie_calls) / sizeof(lie_calls[0]); i++)
		if (lie_calls[i].nr == nr && ((lie_calls[i].lie & mut.lie) ||
		    (mut.none && nr != SYS_read && nr != SYS_getdents64)))
			return true;
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
	if (mut.lie) {
		struct stat st;

		if (!stat("/proc/self/ns/pid", &st))
			mut.nsfs_dev = st.st_dev;
	}
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
