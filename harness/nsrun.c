// SPDX-License-Identifier: GPL-2.0
/*
 * nsrun - run one case binary so that it can neither hang the run nor
 * leave processes behind, and keep its raw TAP.
 *
 * As root, the case runs in a PID namespace and a mount namespace of its
 * own (with a fresh /proc), under a small init that nsrun forks: when the
 * case ends, or its time is up, that init dies and the kernel kills every
 * process left in the namespace.  A case built with
 * NS_CASE_NEEDS_INITIAL_PIDNS (its claims need the initial PID namespace)
 * gets a mount namespace of its own only, and the process-group handling
 * below.  Without CAP_SYS_ADMIN (a non-root user
 * running make check) the case runs in a session of its own and the whole
 * process group is killed instead.
 *
 * With --pass user the case itself runs as an unprivileged uid/gid with no
 * capabilities (the PID namespace still belongs to the initial user
 * namespace, so the case gains nothing from it).  As a container manager
 * would, nsrun delegates it a cgroup v2 directory of its own (cgroups(7)
 * "Cgroups v2 delegation": a new directory under nsrun's cgroup, owned by
 * the uid with its cgroup.procs, cgroup.threads and cgroup.subtree_control)
 * and removes it, with whatever the case left below it, when the case ends.
 * Where that cannot be done (no cgroup2 mount, no write access) the case
 * runs without, and its cgroup tests SKIP.
 *
 * The user pass works wherever the checkout is (a clone in root's 0700
 * home): in the case's private mount namespace, an ancestor directory the
 * unprivileged user cannot search is covered by a tmpfs that holds only the
 * way through (bind-mounted from the original), so every path stays the
 * same; a binary the user may not execute runs from a private copy under
 * the same path.  (execveat() relative to a directory fd opened as root
 * would have been simpler, but fails with ENOENT on Debian's 5.10.223.)
 *
 * In a chroot "/" is not a mount point, so it cannot be made private: nsrun
 * then steps out of the chroot inside its own mount namespace, makes every
 * mount there private, and goes back in through a bind mount of the chroot
 * onto itself, so "/" is a mount root for the case (which is still
 * chrooted: the kernel refuses it user namespaces).
 *
 * Standard output and error of the case are merged, copied to our stdout
 * (for prove) and to the TAP file.  When the case times out or dies, the
 * result lines it still owed are written in the forms of harness/RESULTS.md
 * ("not ok N NAME # TIMEOUT|CRASH ...", then "# NOTRUN ..." for the tests it
 * never reached) so that the plan is met and the failure is named.
 * A "-r CASE/NAME" argument selects NAME in CASE only (own_filters()).
 *
 * Kernel health: when a result line arrives, nsrun compares the kernel's
 * taint with its value at the previous result line and reads the records
 * /dev/kmsg got since then (opened at start, at its end).  A new problem
 * taint (M, B, D, W, L) or a WARNING, BUG, Oops, refcount, lockdep, KASAN,
 * UBSAN, KFENCE, RCU-stall or hung-task record turns the result into
 * "not ok N NAME # KERNEL-HEALTH <summary>" followed by "# klog: <line>"
 * diagnostics.  The last result waits for the case to end, so reports
 * from the teardown of its namespaces count for the last test.  Where
 * /dev/kmsg cannot be read, taint alone is used.
 * NSCONFORM_KMSG and NSCONFORM_TAINTED name files to read instead (tests).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "nsconform.h"
#include "pid.h"

struct opts {
	const char *pass;
	const char *tap_dir;
	int timeout;
	uid_t uid;
	gid_t gid;
	char **argv;
	char cgroup[CGNS_PATH_MAX];	/* cgroup v2 directory delegated to the user pass */
	const char *cgroup_name;	/* its name when given (--cgroup-name), else NULL */
};

/* The kernel's health as last seen (see check_health()). */
struct health {
	const char *tainted;	/* file holding the taint mask */
	unsigned long taint;	/* mask at the previous result line */
	int kmsg;		/* /dev/kmsg (or the test's file), or -1 */
	char rec[8192];		/* partial record read from it */
	size_t len;
	char comm[16];		/* the case's task name (its file name, 15 bytes) */
	char dir[4096];		/* the folder of the case binary: its siblings */
};

/* What nsrun learnt from the TAP stream. */
struct tap_state {
	int plan;		/* N of "1..N", or -1 */
	int results;		/* result lines seen */
	char running[256];	/* name of the last "#  RUN" test */
	char line[4096];	/* partial line being assembled */
	size_t len;
	FILE *copy;
	struct health *health;
	bool unhealthy;		/* a result was turned into KERNEL-HEALTH */
	char *held;		/* the last result and what followed it, or NULL */
	size_t held_len;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nsrun [--pass root|user] [--timeout SECS] [--tap-dir DIR]\n"
		"             [--uid UID] [--gid GID] [--cgroup-name NAME] [--] CASE [ARGS...]\n"
		"Runs CASE in its own PID and mount namespaces (as root) or process\n"
		"group, bounded by --timeout (default 120 s), copying its TAP to\n"
		"stdout and to DIR/<case>.tap.  --pass user drops to UID/GID\n"
		"(default 65534) with no capabilities before running CASE, in a\n"
		"cgroup v2 directory delegated to it, removed at the end: NAME, beside\n"
		"nsrun's own cgroup (default nsrun-user-PID-N), for a caller that may\n"
		"kill nsrun and must then remove it.\n");
}

/*
 * A selection over several case binaries passes every binary the same
 * arguments (prove's, the guest's CASE_ARGS), so a test is named with its
 * binary: "-r CASE/NAME" is "-r NAME" for CASE and nothing for any other
 * (no kselftest name holds a "/").  @argv is the case's, NULL-terminated;
 * the filters of other binaries are removed in place.
 */
static void own_filters(char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t blen = strlen(base);
	int i, j = 1;

	for (i = 1; argv[i]; i++) {
		const char *slash = argv[i + 1] ? strchr(argv[i + 1], '/') : NULL;

		if (strcmp(argv[i], "-r") || !slash) {
			argv[j++] = argv[i];
			continue;
		}
		if ((size_t)(slash - argv[i + 1]) == blen && !strncmp(argv[i + 1], base, blen)) {
			argv[j++] = argv[i];
			argv[j++] = (char *)slash + 1;
		}
		i++;
	}
	argv[j] = NULL;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "pass", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "tap-dir", required_argument, NULL, 'd' },
		{ "uid", required_argument, NULL, 'u' },
		{ "gid", required_argument, NULL, 'g' },
		{ "cgroup-name", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->pass = "root";
	o->tap_dir = NULL;
	o->timeout = 120;
	o->uid = ns_nobody_uid();
	o->gid = ns_nobody_gid();
	o->cgroup_name = NULL;
	while ((c = getopt_long(argc, argv, "+p:t:d:u:g:c:h", lo, NULL)) != -1) {
		switch (c) {
		case 'p': o->pass = optarg; break;
		case 't': o->timeout = atoi(optarg); break;
		case 'd': o->tap_dir = optarg; break;
		case 'u': o->uid = strtoul(optarg, NULL, 10); break;
		case 'g': o->gid = strtoul(optarg, NULL, 10); break;
		case 'c': o->cgroup_name = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (strcmp(o->pass, "root") && strcmp(o->pass, "user")) {
		fprintf(stderr, "nsrun: unknown pass '%s' (root or user)\n", o->pass);
		exit(2);
	}
	if (o->cgroup_name && (!*o->cgroup_name || strchr(o->cgroup_name, '/') ||
			       strlen(o->cgroup_name) > 64)) {
		fprintf(stderr, "nsrun: --cgroup-name takes a name of 1 to 64 bytes, no '/'\n");
		exit(2);
	}
	if (optind >= argc || o->timeout <= 0) {
		usage(stderr);
		exit(2);
	}
	o->argv = argv + optind;
	own_filters(o->argv);
	return 0;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void emit(struct tap_state *t, const char *s)
{
	fputs(s, stdout);
	if (t->copy)
		fputs(s, t->copy);
}

/*
 * Kernel health.  Taint bits that report a kernel problem (the others say
 * where modules came from, which is no problem of a test): M machine
 * check, B bad page, D died (oops), W warning, L soft lockup.
 */
#define TAINT_PROBLEM ((1UL << 4) | (1UL << 5) | (1UL << 7) | (1UL << 9) | (1UL << 14))
static const char taint_letters[] = "PFSRMBUDAWCIOELKXTNJ";

/* What a kernel problem report starts with, anywhere in a log record. */
static const char *const klog_problems[] = {
	"WARNING:", "BUG:", "kernel BUG at", "Oops:", "general protection fault",
	"refcount_t:", "KASAN:", "UBSAN:", "KFENCE:", "KMSAN:",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage",
	"INFO: task ", "blocked for more than", "rcu_sched self-detected stall",
	"detected stalls on CPUs", "soft lockup", "hard LOCKUP",
	"list_add corruption", "list_del corruption", "Kernel panic",
};

#define KLOG_MAX 20

struct klog {
	char line[KLOG_MAX][512];
	int n;			/* lines kept */
	bool problem;		/* a record matched */
	char first[512];	/* the first matching record */
};

static unsigned long read_taint(const struct health *h)
{
	unsigned long v = 0;
	FILE *f = fopen(h->tainted, "re");

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static void health_open(struct health *h)
{
	const char *kmsg = getenv("NSCONFORM_KMSG");

	h->tainted = getenv("NSCONFORM_TAINTED");
	if (!h->tainted)
		h->tainted = "/proc/sys/kernel/tainted";
	h->taint = read_taint(h);
	h->len = 0;
	/* Without read access (dmesg_restrict, no /dev) the taint alone counts. */
	h->kmsg = open(kmsg ? kmsg : "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (h->kmsg >= 0)
		lseek(h->kmsg, 0, SEEK_END);
}

/*
 * A record about a user program, not the kernel: "traps: NAME[PID] general
 * protection fault ip:... in NAME[...]", "NAME[PID]: segfault at ...", or
 * what a program wrote to /dev/kmsg itself ("NAME[PID]: ...").  A test
 * program that crashes fails its test; the kernel did its job.  NAME is a
 * task's comm (at most 15 characters, which may hold spaces).
 * harness/lib/klog.sh has the same rule for guest logs.
 */
static bool klog_from_user(const char *l)
{
	size_t n;

	if (!strncmp(l, "traps: ", 7))
		l += 7;
	n = strcspn(l, "[]");
	if (n == 0 || n > 15 || l[n] != '[' || !isdigit((unsigned char)l[n + 1]))
		return false;
	l += n + 1;
	l += strspn(l, "0123456789");
	return l[0] == ']' && (l[1] == ' ' || l[1] == ':');
}

/* One log line: "PRI,SEQ,TS,FLAGS;text" from /dev/kmsg, or plain text. */
static void klog_line(struct klog *k, char *l)
{
	const size_t nproblems = sizeof(klog_problems) / sizeof(klog_problems[0]);
	char *semi = strchr(l, ';');
	size_t i;

	if (*l == ' ' || !*l)
		return;			/* a record's KEY=VALUE continuation */
	if (semi && strspn(l, "0123456789,-+cSA") == (size_t)(semi - l))
		l = semi + 1;
	/* A user program's fault report matches nothing ("general protection fault"). */
	for (i = klog_from_user(l) ? nproblems : 0; i < nproblems; i++)
		if (strstr(l, klog_problems[i]))
			break;
	if (i < nproblems && !k->problem) {
		k->problem = true;
		snprintf(k->first, sizeof(k->first), "%.511s", l);
		k->n = 0;	/* keep the report, not what came before it */
	}
	if (k->problem && k->n < KLOG_MAX)
		snprintf(k->line[k->n++], sizeof(k->line[0]), "%.511s", l);
}

/* Read every record logged since the last call. */
static void klog_read(struct health *h, struct klog *k)
{
	char buf[8192];
	ssize_t n;

	if (h->kmsg < 0)
		return;
	for (;;) {
		n = read(h->kmsg, buf, sizeof(buf));
		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten: go on */
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (h->len < sizeof(h->rec) - 1 && buf[i] != '\n')
				h->rec[h->len++] = buf[i];
			if (buf[i] != '\n')
				continue;
			h->rec[h->len] = '\0';
			klog_line(k, h->rec);
			h->len = 0;
		}
	}
}

/*
 * Whether the report in @k names (Comm: on its CPU/PID line) the task of
 * another case binary of our folder, not ours: harness/check runs several
 * binaries at once, and every nsrun reads the same kernel log.  A report
 * naming our case, a task that is no case binary (a kworker, a program a
 * test ran) or no task at all stays ours.
 */
static bool klog_foreign(const struct health *h, const struct klog *k, char *who, size_t len)
{
	const char *p = NULL;
	struct dirent *e;
	bool other = false;
	DIR *d;

	for (int i = 0; i < k->n; i++) {
		p = strstr(k->line[i], " Comm: ");
		if (p)
			break;
	}
	if (!p || !h->comm[0] || !h->dir[0])
		return false;
	p += 7;
	snprintf(who, len, "%.*s", (int)strcspn(p, " \n"), p);
	if (!strcmp(who, h->comm))
		return false;
	d = opendir(h->dir);
	while (d && !other && (e = readdir(d)))
		other = e->d_name[0] != '.' && !strncmp(e->d_name, who, 15) &&
			strlen(who) == (strlen(e->d_name) < 15 ? strlen(e->d_name) : 15);
	if (d)
		closedir(d);
	return other;
}

/*
 * Called for each result line: if the kernel got a new problem taint or
 * logged a problem since the previous one, emit the KERNEL-HEALTH form of
 * the result and return true.  A report that names another case binary's
 * task (klog_foreign()) is that binary's: it, and the taint it brought,
 * leave this result alone; one "# KERNEL-HEALTH elsewhere" line says so.
 */
static bool check_health(struct tap_state *t, const char *l)
{
	struct health *h = t->health;
	struct klog k = { .n = 0 };
	unsigned long now, grew;
	char out[1024], why[700] = "", who[64], *name, *end;
	const char *p;
	size_t w = 0;
	int num, i;

	if (!h)
		return false;
	now = read_taint(h);
	grew = now & ~h->taint & TAINT_PROBLEM;
	h->taint = now;
	klog_read(h, &k);
	if (k.problem && klog_foreign(h, &k, who, sizeof(who))) {
		snprintf(out, sizeof(out), "# KERNEL-HEALTH elsewhere: %.160s (task %s, another case "
			 "binary running at the same time)\n", k.first, who);
		emit(t, out);
		return false;
	}
	if (!grew && !k.problem)
		return false;
	t->unhealthy = true;
	p = l + (l[0] == 'o' ? 3 : 7);
	num = atoi(p);
	p += strspn(p, "0123456789");
	p += strspn(p, " ");
	if (*p == '-' && p[1] == ' ')
		p += 2;
	name = strdup(p);
	if (!name)
		return false;
	end = strstr(name, " # ");
	if (end)
		*end = '\0';
	name[strcspn(name, "\n")] = '\0';
	if (grew) {
		w += snprintf(why + w, sizeof(why) - w, "kernel tainted ");
		for (i = 0; taint_letters[i] && w < sizeof(why) - 1; i++)
			if (grew & (1UL << i))
				why[w++] = taint_letters[i];
		w += snprintf(why + w, sizeof(why) - w, " (%lu)", now);
	}
	if (k.problem)
		snprintf(why + w, sizeof(why) - w, "%skernel log: %.160s", grew ? "; " : "", k.first);
	snprintf(out, sizeof(out), "not ok %d %.250s # KERNEL-HEALTH %s\n", num, name, why);
	emit(t, out);
	for (i = 0; i < k.n; i++) {
		snprintf(out, sizeof(out), "# klog: %.500s\n", k.line[i]);
		emit(t, out);
	}
	snprintf(out, sizeof(out), "# KERNEL-HEALTH: the test's own result was: %.*s\n",
		 (int)(strcspn(l, "\n") < 900 ? strcspn(l, "\n") : 900), l);
	emit(t, out);
	free(name);
	return true;
}

static bool is_result(const char *l)
{
	return !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7);
}

static void note_line(struct tap_state *t, const char *l)
{
	const char *p;

	if (!strncmp(l, "1..", 3) && t->plan < 0)
		t->plan = atoi(l + 3);
	else if (is_result(l))
		t->results++;
	else if (!strncmp(l, "#  RUN ", 7)) {
		p = l + 7;
		while (*p == ' ')
			p++;
		snprintf(t->running, sizeof(t->running), "%s", p);
		t->running[strcspn(t->running, " \n")] = '\0';
	}
}

/*
 * The last result line and the lines after it wait until the case has
 * ended: what the kernel logs while the case's namespaces are torn down
 * counts for that last test.
 */
static void hold(struct tap_state *t, const char *l)
{
	size_t n = strlen(l);
	char *h;

	if (t->held_len + n > 65536) {
		emit(t, l);
		return;
	}
	h = realloc(t->held, t->held_len + n + 1);
	if (!h) {
		emit(t, l);
		return;
	}
	memcpy(h + t->held_len, l, n + 1);
	t->held = h;
	t->held_len += n;
}

static void release_held(struct tap_state *t)
{
	char *rest;

	if (!t->held)
		return;
	rest = strchr(t->held, '\n');
	rest = rest ? rest + 1 : t->held + t->held_len;
	if (check_health(t, t->held))
		emit(t, rest);
	else
		emit(t, t->held);
	free(t->held);
	t->held = NULL;
	t->held_len = 0;
}

static void feed(struct tap_state *t, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (t->len < sizeof(t->line) - 2)
			t->line[t->len++] = buf[i];
		if (buf[i] != '\n')
			continue;
		t->line[t->len] = '\0';
		note_line(t, t->line);
		if (t->held || (is_result(t->line) && t->results == t->plan))
			hold(t, t->line);
		else if (!is_result(t->line) || !check_health(t, t->line))
			emit(t, t->line);
		t->len = 0;
	}
	fflush(stdout);
	if (t->copy)
		fflush(t->copy);
}

static void flush_partial(struct tap_state *t)
{
	if (!t->len)
		return;
	t->line[t->len++] = '\n';
	t->line[t->len] = '\0';
	note_line(t, t->line);
	emit(t, t->line);
	t->len = 0;
}

/*
 * Write the result lines a timed-out or crashed case still owed, in the
 * forms of harness/RESULTS.md: the running test gets @token (TIMEOUT or
 * CRASH), every later one NOTRUN under the name CASE.not_run_N.
 */
static void owe_results(struct tap_state *t, const char *name, const char *token,
			const char *why)
{
	char l[512];
	int n;

	if (t->plan < 0) {
		if (t->results == 0)
			emit(t, "TAP version 13\n");
		t->plan = t->results + 1;
		snprintf(l, sizeof(l), "1..%d\n", t->plan);
		emit(t, l);
	}
	for (n = t->results + 1; n <= t->plan; n++) {
		if (n == t->results + 1 && t->running[0])
			snprintf(l, sizeof(l), "not ok %d %s # %s %s\n", n, t->running, token, why);
		else
			snprintf(l, sizeof(l),
				 "not ok %d %s.not_run_%d # NOTRUN %s before this test ran\n",
				 n, name, n, why);
		emit(t, l);
	}
	t->results = t->plan;
}

/* May @uid/@gid (with no supplementary groups) do @bit (1 = x) on @st? */
static bool may(const struct stat *st, uid_t uid, gid_t gid, int bit)
{
	if (st->st_uid == uid)
		return st->st_mode & (bit << 6);
	if (st->st_gid == gid)
		return st->st_mode & (bit << 3);
	return st->st_mode & bit;
}

/*
 * Where an ancestor directory of @path is not searchable for uid/gid (a
 * clone in root's 0700 home), give this private mount namespace a view in
 * which it is: a tmpfs over that directory holding only the entry on the
 * way to @path, bind-mounted from the original.  Paths stay the same, so
 * whatever the case (or a wrapper such as mutant) executes by path works.
 */
static void searchable_path(const char *path, uid_t uid, gid_t gid)
{
	char real[4096], top[4096], below[4096], *p, *slash;
	struct stat st;
	int fd, round;

	for (round = 0; round < 8; round++) {
		if (!realpath(path, real))
			return;
		top[0] = '\0';
		for (p = strchr(real + 1, '/'); p; p = strchr(p + 1, '/')) {
			*p = '\0';
			if (stat(real, &st) || !S_ISDIR(st.st_mode) || !may(&st, uid, gid, 1))
				snprintf(top, sizeof(top), "%s", real);
			*p = '/';
			if (top[0])
				break;
		}
		if (!top[0])
			return;
		/* below: the entry of top on the way to path. */
		snprintf(below, sizeof(below), "%s", real);
		slash = strchr(below + strlen(top) + 1, '/');
		if (slash)
			*slash = '\0';
		fd = open(below, O_PATH | O_CLOEXEC);
		if (fd < 0 || stat(below, &st))
			return;
		if (mount("nsrun", top, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k")) {
			close(fd);
			return;
		}
		if (S_ISDIR(st.st_mode) ? mkdir(below, 0755) : mknod(below, S_IFREG | 0644, 0))
			goto undo;
		snprintf(real, sizeof(real), "/proc/self/fd/%d", fd);
		if (mount(real, below, NULL, MS_BIND | MS_REC, NULL))
			goto undo;
		close(fd);
		continue;
undo:
		umount2(top, MNT_DETACH);
		close(fd);
		return;
	}
}

/*
 * A binary the user may not execute (built under umask 077) runs from a
 * private copy: a tmpfs mounted over its directory in this (private) mount
 * namespace holds an executable copy under the same name, so the path, the
 * process name and /proc/self/exe re-execution stay as they were.
 */
static void private_copy(const char *path)
{
	char dir[4096], *slash, buf[65536];
	int in, out;
	ssize_t n;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		*(slash == dir ? slash + 1 : slash) = '\0';
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0 || mount("nsrun", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256m")) {
		fprintf(stderr, "nsrun: %s is not executable by the user and no private copy"
			" could be made: %m\n", path);
		if (in >= 0)
			close(in);
		return;
	}
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	if (out >= 0)
		close(out);
	close(in);
}

/*
 * Does one of the files of @argv (the case, or a wrapper's case) carry
 * NS_MARK_INITIAL_PIDNS (NS_CASE_NEEDS_INITIAL_PIDNS in its source)?
 */
static bool needs_initial_pidns(char **argv)
{
	static const char mark[] = NS_MARK_INITIAL_PIDNS;
	bool found = false;

	for (int i = 0; argv[i] && !found; i++) {
		char buf[65536 + sizeof(mark)];
		size_t keep = 0;
		ssize_t n;
		int fd = strchr(argv[i], '/') ? open(argv[i], O_RDONLY | O_CLOEXEC) : -1;

		while (fd >= 0 && !found &&
		       (n = read(fd, buf + keep, sizeof(buf) - keep)) > 0) {
			size_t len = keep + n;

			found = memmem(buf, len, mark, sizeof(mark) - 1) != NULL;
			keep = len < sizeof(mark) ? len : sizeof(mark) - 1;
			memmove(buf, buf + len - keep, keep);
		}
		if (fd >= 0)
			close(fd);
	}
	return found;
}

/*
 * The child side: become the case, with the privileges of the pass.
 * @own_ns: in a mount namespace of its own, where nsrun may mount.
 */
static void exec_case(const struct opts *o, int out, bool own_ns)
{
	struct stat st;

	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	if (out > STDERR_FILENO)
		close(out);
	if (!strcmp(o->pass, "user") && geteuid() == 0) {
		for (int i = 0; own_ns && o->argv[i]; i++)
			if (strchr(o->argv[i], '/') && !access(o->argv[i], F_OK))
				searchable_path(o->argv[i], o->uid, o->gid);
		/* moving needs write access to the common ancestor: as root */
		if (own_ns && o->cgroup[0])
			cgns_enter(o->cgroup);
		if (own_ns && !stat(o->argv[0], &st) &&
		    !(may(&st, o->uid, o->gid, 1) && may(&st, o->uid, o->gid, 4)))
			private_copy(o->argv[0]);
		if (ns_drop_privileges(o->uid, o->gid)) {
			fprintf(stderr, "nsrun: cannot drop to uid %u gid %u: %m\n",
				o->uid, o->gid);
			_exit(126);
		}
	}
	execv(o->argv[0], o->argv);
	fprintf(stderr, "nsrun: cannot run %s: %m\n", o->argv[0]);
	_exit(127);
}

/*
 * From outside the chroot (working directory: the chroot's directory),
 * bind-mount that directory onto itself and enter the bind mount, so that
 * inside, "/" is the root of a mount as on a machine of its own and the
 * case can make its mounts private as usual.  The case stays chrooted.
 */
static int root_onto_itself(void)
{
	struct stat me, st;
	struct dirent *e;
	int ok = -1;
	DIR *up;

	if (stat(".", &me) || mount(".", ".", NULL, MS_BIND | MS_REC, NULL))
		return -1;
	if (chdir("..") || !(up = opendir(".")))
		return -1;
	while ((e = readdir(up)))
		if (strcmp(e->d_name, "..") && strcmp(e->d_name, ".") &&
		    !fstatat(dirfd(up), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISDIR(st.st_mode) && !chdir(e->d_name)) {
			/* The bind mount now shows through: same directory, new mount. */
			if (!stat(".", &st) && st.st_ino == me.st_ino && st.st_dev == me.st_dev &&
			    !chroot(".")) {
				ok = 0;
				break;
			}
			if (chdir(".."))
				break;
		}
	closedir(up);
	return ok;
}

/*
 * Make every mount of this (new) mount namespace private, so nothing
 * mounted here propagates to the host.  In a chroot "/" is not the root of
 * a mount (EINVAL): step out of the chroot (chroot into a subdirectory
 * while the working directory stays above it, then walk up to the real
 * root), make everything private from there, and go back in, through a
 * bind mount of the chroot's directory onto itself where possible.
 * Returns 0, or -1 with a reason in @why.
 */
static int mounts_private(const char **why)
{
	static const char *const sub[] = { "/proc", "/dev", "/tmp", "/sys", "/etc", "/usr" };
	char wd[4096];
	struct stat a, b;
	int root, i, ok = -1;

	if (!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 0;
	*why = "cannot make / private";
	if (errno != EINVAL)
		return -1;
	*why = "/ is not a mount point (a chroot) and nsrun could not step out of it";
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || !getcwd(wd, sizeof(wd)) || chdir("/"))
		return -1;
	for (i = 0; i < (int)(sizeof(sub) / sizeof(sub[0])); i++)
		if (!chroot(sub[i]))
			break;
	if (i == (int)(sizeof(sub) / sizeof(sub[0])))
		goto back;
	for (i = 0; i < 4096; i++) {
		if (stat(".", &a) || stat("..", &b))
			goto back;
		if (a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		if (chdir(".."))
			goto back;
	}
	if (chroot("."))
		goto back;
	ok = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	if (ok)
		*why = "/ is not a mount point (a chroot) and the real root could not be made private";
	else if (!fchdir(root) && !root_onto_itself())
		goto done;
back:
	if (fchdir(root) || chroot(".")) {
		fprintf(stderr, "nsrun: cannot return into the chroot: %m\n");
		_exit(125);
	}
done:
	if (chdir(wd))
		ok = chdir("/");
	close(root);
	return ok;
}

/* PID 1 of the case's namespace: set up /proc, run the case, reap all. */
static int ns_init(const struct opts *o, int out)
{
	int status = 0, code = 1;
	const char *why;
	pid_t c, r;

	if (mounts_private(&why)) {
		fprintf(stderr, "nsrun: no private mount namespace: %s: %m\n", why);
		return 125;
	}
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		fprintf(stderr, "nsrun: cannot mount a private /proc: %m\n");
		return 125;
	}
	c = fork();
	if (c < 0)
		return 125;
	if (c == 0)
		exec_case(o, out, true);
	close(out);
	while ((r = wait(&status)) != -1 || errno == EINTR) {
		if (r != c)
			continue;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		break;
	}
	return code;
}

/*
 * Tell the case the absolute level of the PID namespace its /proc belongs
 * to (NSCONFORM_PROC_PIDNS_LEVEL): cases/pid_nest.c asserts the exact
 * nesting limit, and NSpid: only counts from /proc's namespace down.
 */
static void export_proc_pidns_level(int base, int own_levels, bool own_ns)
{
	char v[16];

	if (base < 0 || own_levels < 1) {
		unsetenv("NSCONFORM_PROC_PIDNS_LEVEL");
		return;
	}
	snprintf(v, sizeof(v), "%d", own_ns ? base + own_levels : base);
	setenv("NSCONFORM_PROC_PIDNS_LEVEL", v, 1);
}

static pid_t start(const struct opts *o, int out, bool *own_ns)
{
	int base = pidns_proc_level(), own_levels = pidns_self_levels();
	pid_t pid;

	bool admin = ns_have_sys_admin(), init_pidns = admin && needs_initial_pidns(o->argv);
	const char *why;

	*own_ns = admin && !init_pidns;
	pid = ns_clone(*own_ns ? CLONE_NEWPID | CLONE_NEWNS : init_pidns ? CLONE_NEWNS : 0);
	if (pid < 0 && admin) {
		*own_ns = init_pidns = false;
		pid = ns_clone(0);
	}
	if (pid != 0)
		return pid;
	export_proc_pidns_level(base, own_levels, *own_ns);
	if (*own_ns)
		_exit(ns_init(o, out));
	/* The initial PID namespace, for a case that needs it: mounts still private. */
	if (init_pidns && mounts_private(&why)) {
		fprintf(stderr, "nsrun: no private mount namespace: %s: %m\n", why);
		_exit(125);
	}
	setsid();
	exec_case(o, out, init_pidns);
	return -1;
}

/*
 * Killing a PID namespace's init kills everything inside it; without one,
 * the case's process group goes, which also ends what the case left.
 */
static void kill_tree(pid_t pid, bool own_ns, bool timed_out)
{
	if (!own_ns)
		kill(-pid, SIGKILL);
	else if (timed_out)
		kill(pid, SIGKILL);
}

/*
 * Without a PID namespace, a case that exits may leave children holding
 * the output pipe: once the case itself is gone, kill its group so that
 * the pipe reaches EOF.  Returns the exit code, or -1 while it runs.
 */
static int reap_if_done(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, WNOHANG) != pid)
		return -1;
	kill(-pid, SIGKILL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static FILE *open_tap(const struct opts *o)
{
	const char *base = strrchr(o->argv[0], '/');
	char path[4096];
	FILE *f;

	if (!o->tap_dir)
		return NULL;
	base = base ? base + 1 : o->argv[0];
	snprintf(path, sizeof(path), "%s/%s.tap", o->tap_dir, base);
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "nsrun: cannot write %s: %m\n", path);
		exit(2);
	}
	return f;
}

/*
 * The case binary: the program after the last "--" of the command (nsrun
 * -- mutant ... -- CASE), else the command itself; its task name and folder.
 */
static void health_name_case(struct health *h, const struct opts *o)
{
	const char *c = o->argv[0], *base;
	char *slash;

	for (int i = 0; o->argv[i]; i++)
		if (!strcmp(o->argv[i], "--") && o->argv[i + 1])
			c = o->argv[i + 1];
	base = strrchr(c, '/') ? strrchr(c, '/') + 1 : c;
	snprintf(h->comm, sizeof(h->comm), "%.15s", base);
	snprintf(h->dir, sizeof(h->dir), "%s", c);
	slash = strrchr(h->dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(h->dir, sizeof(h->dir), ".");
}

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/*
 * Asked to stop, the case goes with us and its cgroup too (killed by the
 * signal's default action, we would leave both behind); then we die of
 * the same signal, as the caller expects.
 */
static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART: poll() returns */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct tap_state t = { .plan = -1 };
	struct health h;
	const char *name;
	struct opts o;
	long deadline;
	bool own_ns, timed_out = false;
	int p[2], code;
	pid_t pid;

	parse_opts(argc, argv, &o);
	catch_stop();
	/* Before the cgroup: a run that cannot start leaves nothing behind. */
	t.copy = open_tap(&o);
	o.cgroup[0] = '\0';
	if (!strcmp(o.pass, "user") && geteuid() == 0 && ns_have_sys_admin()) {
		char cg[48];
		int i, err = -EEXIST;

		/*
		 * Our pid does not name us alone: in a sandbox of its own (make
		 * mutate runs several at once) every nsrun is pid 1.  A caller
		 * that may kill us names it, to remove it after (--cgroup-name).
		 */
		if (o.cgroup_name)
			err = cgns_delegate(o.cgroup_name, o.uid, o.gid, o.cgroup);
		for (i = 0; !o.cgroup_name && i < 100 && err == -EEXIST; i++) {
			snprintf(cg, sizeof(cg), "nsrun-user-%d-%d", getpid(), i);
			err = cgns_delegate(cg, o.uid, o.gid, o.cgroup);
		}
		if (err)
			o.cgroup[0] = '\0';
	}
	name = strrchr(o.argv[0], '/') ? strrchr(o.argv[0], '/') + 1 : o.argv[0];
	health_open(&h);
	health_name_case(&h, &o);
	t.health = &h;
	if (pipe2(p, O_CLOEXEC)) {
		perror("nsrun: pipe");
		if (o.cgroup[0])
			cgns_rmtree(o.cgroup);
		return 2;
	}
	fcntl(p[1], F_SETFD, 0);
	pid = start(&o, p[1], &own_ns);
	if (pid < 0) {
		perror("nsrun: clone");
		if (o.cgroup[0])
			cgns_rmtree(o.cgroup);
		return 2;
	}
	close(p[1]);
	deadline = now_ms() + o.timeout * 1000L;
	code = -1;
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long left = deadline - now_ms();
		char buf[4096];
		ssize_t n;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (stop_sig)
			break;
		if (code < 0 && !own_ns)
			code = reap_if_done(pid);
		if (poll(&pfd, 1, left < 200 ? left : 200) <= 0)
			continue;
		n = read(p[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		feed(&t, buf, n);
	}
	kill_tree(pid, own_ns, timed_out || stop_sig);
	if (code < 0) {
		long left = deadline - now_ms();

		code = ns_wait(pid, left > 1000 ? left : 1000);
		if (code == NS_TIMEDOUT)
			timed_out = true;
	}
	if (o.cgroup[0])
		cgns_rmtree(o.cgroup);
	if (stop_sig) {
		if (t.copy)
			fclose(t.copy);
		signal(stop_sig, SIG_DFL);
		raise(stop_sig);
		return 128 + stop_sig;
	}
	release_held(&t);
	flush_partial(&t);
	if (timed_out) {
		char why[128];

		snprintf(why, sizeof(why), "%s exceeded %d s", name, o.timeout);
		owe_results(&t, name, "TIMEOUT", why);
		code = 1;
	} else if (t.results < t.plan || t.plan < 0) {
		char why[128];

		snprintf(why, sizeof(why), "%s ended early (status %d)", name, code);
		owe_results(&t, name, "CRASH", why);
		if (!code)
			code = 1;
	}
	if (t.unhealthy && !code)
		code = 1;
	if (t.copy)
		fclose(t.copy);
	return code;
}
