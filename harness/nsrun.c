// SPDX-License-Identifier: GPL-2.0
/*
 * nsrun - run one case binary so that it can neither hang the run nor
 * leave processes behind, and keep its raw TAP.
 *
 * As root, the case runs in a PID namespace and a mount namespace of its
 * own (with a fresh /proc), under a small init that nsrun forks: when the
 * case ends, or its time is up, that init dies and the kernel kills every
 * process left in the namespace.  Without CAP_SYS_ADMIN (a non-root user
 * running make check) the case runs in a session of its own and the whole
 * process group is killed instead.
 *
 * With --pass user the case itself runs as an unprivileged uid/gid with no
 * capabilities (the PID namespace still belongs to the initial user
 * namespace, so the case gains nothing from it).
 *
 * Standard output and error of the case are merged, copied to our stdout
 * (for prove) and to the TAP file.  When the case times out, the result
 * lines it still owed are written as "not ok ... # TIMEOUT" so that the
 * plan is met and the failure is named.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "pidns.h"

struct opts {
	const char *pass;
	const char *tap_dir;
	int timeout;
	uid_t uid;
	gid_t gid;
	char **argv;
};

/* What nsrun learnt from the TAP stream. */
struct tap_state {
	int plan;		/* N of "1..N", or -1 */
	int results;		/* result lines seen */
	char running[256];	/* name of the last "#  RUN" test */
	char line[4096];	/* partial line being assembled */
	size_t len;
	FILE *copy;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nsrun [--pass root|user] [--timeout SECS] [--tap-dir DIR]\n"
		"             [--uid UID] [--gid GID] [--] CASE [ARGS...]\n"
		"Runs CASE in its own PID and mount namespaces (as root) or process\n"
		"group, bounded by --timeout (default 120 s), copying its TAP to\n"
		"stdout and to DIR/<case>.tap.  --pass user drops to UID/GID\n"
		"(default 65534) with no capabilities before running CASE.\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "pass", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "tap-dir", required_argument, NULL, 'd' },
		{ "uid", required_argument, NULL, 'u' },
		{ "gid", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->pass = "root";
	o->tap_dir = NULL;
	o->timeout = 120;
	o->uid = ns_nobody_uid();
	o->gid = ns_nobody_gid();
	while ((c = getopt_long(argc, argv, "+p:t:d:u:g:h", lo, NULL)) != -1) {
		switch (c) {
		case 'p': o->pass = optarg; break;
		case 't': o->timeout = atoi(optarg); break;
		case 'd': o->tap_dir = optarg; break;
		case 'u': o->uid = strtoul(optarg, NULL, 10); break;
		case 'g': o->gid = strtoul(optarg, NULL, 10); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (strcmp(o->pass, "root") && strcmp(o->pass, "user")) {
		fprintf(stderr, "nsrun: unknown pass '%s' (root or user)\n", o->pass);
		exit(2);
	}
	if (optind >= argc || o->timeout <= 0) {
		usage(stderr);
		exit(2);
	}
	o->argv = argv + optind;
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

static void note_line(struct tap_state *t, const char *l)
{
	const char *p;

	if (!strncmp(l, "1..", 3) && t->plan < 0)
		t->plan = atoi(l + 3);
	else if (!strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7))
		t->results++;
	else if (!strncmp(l, "#  RUN ", 7)) {
		p = l + 7;
		while (*p == ' ')
			p++;
		snprintf(t->running, sizeof(t->running), "%s", p);
		t->running[strcspn(t->running, " \n")] = '\0';
	}
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

/* Write the result lines a timed-out or crashed case still owed. */
static void owe_results(struct tap_state *t, const char *name, const char *why)
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
			snprintf(l, sizeof(l), "not ok %d %s # %s\n", n, t->running, why);
		else
			snprintf(l, sizeof(l), "not ok %d %s.not_run_%d # %s before this test ran\n",
				 n, name, n, why);
		emit(t, l);
	}
	t->results = t->plan;
}

/* The child side: become the case, with the privileges of the pass. */
static void exec_case(const struct opts *o, int out)
{
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	if (out > STDERR_FILENO)
		close(out);
	if (!strcmp(o->pass, "user") && geteuid() == 0 &&
	    ns_drop_privileges(o->uid, o->gid)) {
		fprintf(stderr, "nsrun: cannot drop to uid %u gid %u: %m\n", o->uid, o->gid);
		_exit(126);
	}
	execv(o->argv[0], o->argv);
	fprintf(stderr, "nsrun: cannot run %s: %m\n", o->argv[0]);
	_exit(127);
}

/* PID 1 of the case's namespace: set up /proc, run the case, reap all. */
static int ns_init(const struct opts *o, int out)
{
	int status = 0, code = 1;
	pid_t c, r;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		fprintf(stderr, "nsrun: cannot mount a private /proc: %m\n");
		return 125;
	}
	c = fork();
	if (c < 0)
		return 125;
	if (c == 0)
		exec_case(o, out);
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

	*own_ns = ns_have_sys_admin();
	pid = ns_clone(*own_ns ? CLONE_NEWPID | CLONE_NEWNS : 0);
	if (pid < 0 && *own_ns) {
		*own_ns = false;
		pid = ns_clone(0);
	}
	if (pid != 0)
		return pid;
	export_proc_pidns_level(base, own_levels, *own_ns);
	if (*own_ns)
		_exit(ns_init(o, out));
	setsid();
	exec_case(o, out);
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

int main(int argc, char **argv)
{
	struct tap_state t = { .plan = -1 };
	const char *name;
	struct opts o;
	long deadline;
	bool own_ns, timed_out = false;
	int p[2], code;
	pid_t pid;

	parse_opts(argc, argv, &o);
	name = strrchr(o.argv[0], '/') ? strrchr(o.argv[0], '/') + 1 : o.argv[0];
	t.copy = open_tap(&o);
	if (pipe2(p, O_CLOEXEC)) {
		perror("nsrun: pipe");
		return 2;
	}
	fcntl(p[1], F_SETFD, 0);
	pid = start(&o, p[1], &own_ns);
	if (pid < 0) {
		perror("nsrun: clone");
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
		if (code < 0 && !own_ns)
			code = reap_if_done(pid);
		if (poll(&pfd, 1, left < 200 ? left : 200) <= 0)
			continue;
		n = read(p[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		feed(&t, buf, n);
	}
	kill_tree(pid, own_ns, timed_out);
	if (code < 0) {
		long left = deadline - now_ms();

		code = ns_wait(pid, left > 1000 ? left : 1000);
		if (code == NS_TIMEDOUT)
			timed_out = true;
	}
	flush_partial(&t);
	if (timed_out) {
		char why[128];

		snprintf(why, sizeof(why), "TIMEOUT %s exceeded %d s", name, o.timeout);
		owe_results(&t, name, why);
		code = 1;
	} else if (t.results < t.plan || t.plan < 0) {
		char why[128];

		snprintf(why, sizeof(why), "%s ended early (status %d)", name, code);
		owe_results(&t, name, why);
		if (!code)
			code = 1;
	}
	if (t.copy)
		fclose(t.copy);
	return code;
}
