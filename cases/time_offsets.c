// SPDX-License-Identifier: GPL-2.0
/*
 * Time namespaces (5.6): the /proc/PID/timens_offsets file - its format,
 * inheritance, numeric clock ids, the bounds of an offset and who may
 * write it - and the clocks and /proc/uptime it sets for the members.
 * Source: time_namespaces(7).
 *
 * Every write goes to a time namespace the test created (unshare() in a
 * child, with a user namespace first when unprivileged); nothing enters it
 * before the offsets are written, unless the test says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

#define NSEC 1000000000LL
/* KTIME_SEC_MAX / 2: the largest clock value an offset may produce, in seconds. */
#define CLOCK_SEC_LIMIT 4611686018LL

/*
 * Declares R, a test's record shared with its children; skips without time namespaces or a way
 * to make one (CAP_SYS_ADMIN or a user namespace).
 */
#define TIME_REC(type, r)							\
	type *r = ns_shared_page(1 << 16);					\
	NS_NEED_TYPE("time");							\
	NS_NEED_ADMIN_OR_USERNS();						\
	ASSERT_NE(NULL, r)

static long long now_sec(clockid_t c)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, c, &ts);
	return ts.tv_sec;
}

static long long now_ns(clockid_t c)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, c, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* One parsed timens_offsets file: up to 4 lines of three fields. */
struct offsets {
	int lines;
	char clock[4][16];
	long long sec[4];
	long nsec[4];
	int fields_ok;		/* every line had exactly three fields */
};

static int parse_offsets(const char *text, struct offsets *o)
{
	const char *p = text;

	memset(o, 0, sizeof(*o));
	o->fields_ok = 1;
	while (*p && o->lines < 4) {
		const char *nl = strchr(p, '\n');
		char line[128], extra[16];
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len >= sizeof(line))
			return -1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (sscanf(line, "%15s %lld %ld %15s", o->clock[o->lines], &o->sec[o->lines],
			   &o->nsec[o->lines], extra) != 3)
			o->fields_ok = 0;
		o->lines++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static int read_offsets(pid_t pid, struct offsets *o)
{
	char path[64], buf[512];
	int err;

	snprintf(path, sizeof(path), "/proc/%s/timens_offsets", pid ? "" : "self");
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/timens_offsets", pid);
	err = ns_read_file(path, buf, sizeof(buf));
	if (err < 0)
		return err;
	return parse_offsets(buf, o);
}

/* Monotonic and boottime offsets (seconds) of @o, or -1 when the file is not as documented. */
static int offsets_of(const struct offsets *o, long long *mono, long long *boot)
{
	if (o->lines != 2 || !o->fields_ok || strcmp(o->clock[0], "monotonic") ||
	    strcmp(o->clock[1], "boottime"))
		return -1;
	*mono = o->sec[0];
	*boot = o->sec[1];
	return 0;
}

/* The test's own boottime offset in seconds (it may itself run in a time namespace). */
static long long own_boot_offset(void)
{
	struct offsets o;
	long long mono, boot;

	if (read_offsets(0, &o) || offsets_of(&o, &mono, &boot))
		return -1000000000LL;
	return boot;
}

/* In a child: a new time namespace for our children (a user namespace first when unprivileged). */
static int new_time_ns(void)
{
	int err = ns_unshare_admin(CLONE_NEWTIME);

	if (err)
		return child_fail("unshare(CLONE_NEWTIME): %s", strerror(-err));
	return 0;
}

/* -errno of one write(2) of @text to our own timens_offsets. */
static int write_offsets(const char *text)
{
	return ns_write_proc(0, "timens_offsets", text);
}

/*
 * A creator: a new time namespace, the 10/20-day offsets written, its own
 * file read back into *@self (when set), then @member(@arg) in its first
 * child, the first process to enter.
 */
struct creator_req {
	int (*member)(void *);
	void *arg;
	struct offsets *self;
};

static int offset_creator(void *p)
{
	struct creator_req *q = p;
	int err;
	pid_t pid;

	if (new_time_ns())
		return 1;
	err = write_offsets("monotonic 864000 0\nboottime 1728000 0\n");
	if (err)
		return child_fail("write offsets: %s", strerror(-err));
	if (q->self && read_offsets(0, q->self))
		return child_fail("read timens_offsets: %m");
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(q->member(q->arg));
	return ns_wait(pid, NS_WAIT_MS);
}

/* --- format, inheritance -------------------------------------------------- */

struct format_rec {
	struct offsets self;		/* the creator's file after writing */
	struct offsets member;		/* a member's own file */
	struct offsets outside;		/* the member's file read by the test */
};

/* The sync stays out of the shared page: each side closes its own ends. */
static struct ns_sync fsync_;

static int format_member(void *arg)
{
	struct format_rec *r = arg;

	ns_sync_child_side(&fsync_);
	if (read_offsets(0, &r->member))
		return child_fail("read timens_offsets: %m");
	ns_sync_tell(&fsync_, true, NULL, 0);
	return ns_sync_wait(&fsync_, true, NULL, 0, NS_WAIT_MS) ? 1 : 0;
}

/*
 * timens_offsets has one "<clock-id> <secs> <nanosecs>" line for monotonic, then boottime, inside
 * and from outside (time_namespaces(7)).
 *
 * The test reads the member's file from outside while it lives (through
 * /proc of the test, where the member has its own PID).
 */
TEST(offsets_file_format_read_inside_and_outside)
{
	struct format_rec *r = ns_shared_page(1 << 16);
	struct creator_req q = { format_member, r, NULL };
	long long mono, boot;
	pid_t creator;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	q.self = &r->self;
	creator = ns_clone_synced(ns_clone, 0, &fsync_);
	ASSERT_GE(creator, 0);
	if (creator == 0)
		_exit(offset_creator(&q));
	ASSERT_EQ(0, ns_sync_wait(&fsync_, false, NULL, 0, NS_WAIT_MS));
	/* The creator's only child is the member: find it through /proc/CREATOR/task/. */
	{
		char path[64], buf[64];
		pid_t member;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", creator, creator);
		ASSERT_LT(0, ns_read_file(path, buf, sizeof(buf)));
		member = atoi(buf);
		ASSERT_LT(0, member);
		EXPECT_EQ(0, read_offsets(member, &r->outside));
	}
	ns_sync_tell(&fsync_, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(creator, NS_WAIT_MS));
	ns_sync_close(&fsync_);
	EXPECT_EQ(0, offsets_of(&r->self, &mono, &boot));
	EXPECT_EQ(864000, mono);
	EXPECT_EQ(1728000, boot);
	EXPECT_EQ(0, offsets_of(&r->member, &mono, &boot));
	EXPECT_EQ(864000, mono);
	EXPECT_EQ(1728000, boot);
	EXPECT_EQ(0, offsets_of(&r->outside, &mono, &boot));
	EXPECT_EQ(864000, mono);
	EXPECT_EQ(1728000, boot);
}

struct nest_rec {
	struct offsets outer;			/* the outer namespace's file */
	long long outer_mono, outer_boot;
	long long inh_mono, inh_boot;		/* a nested namespace's file before writing */
	long long nested_mono;			/* CLOCK_MONOTONIC in the rewritten nested one */
	long long before, after;		/* CLOCK_MONOTONIC of the test around it */
	int parsed;
};

static int nested_reader(void *arg)
{
	struct nest_rec *r = arg;

	r->nested_mono = now_ns(CLOCK_MONOTONIC);
	return 0;
}

/* A member of the outer namespace: unshare again, read, then rewrite and enter. */
static int nest_member(void *arg)
{
	struct nest_rec *r = arg;
	struct offsets o;
	pid_t pid;
	int err;

	if (unshare(CLONE_NEWTIME))
		return child_fail("nested unshare(CLONE_NEWTIME): %m");
	if (read_offsets(0, &o) || offsets_of(&o, &r->inh_mono, &r->inh_boot))
		return child_fail("the nested namespace's timens_offsets is not as documented");
	err = write_offsets("monotonic 3600 0\n");
	if (err)
		return child_fail("write the nested offsets: %s", strerror(-err));
	pid = ns_clone(0);
	if (pid < 0)
		return child_fail("fork: %m");
	if (pid == 0)
		_exit(nested_reader(r));
	r->parsed = 1;
	return ns_wait(pid, NS_WAIT_MS);
}

/*
 * A new time namespace inherits its creator's offsets; offsets are relative to the initial
 * namespace, also when nested (time_namespaces(7)).
 *
 * The nested namespace first shows the outer one's offsets (inherited);
 * its own 1 h monotonic offset then counts from the initial namespace's
 * clock, not from the outer namespace's (10 days).
 */
TEST(nested_ns_inherits_offsets_relative_to_initial)
{
	struct nest_rec *r = ns_shared_page(1 << 16);
	struct creator_req q = { nest_member, NULL, NULL };

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	q.arg = r;
	q.self = &r->outer;
	r->before = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, ns_run(0, offset_creator, &q));
	r->after = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(1, r->parsed);
	ASSERT_EQ(0, offsets_of(&r->outer, &r->outer_mono, &r->outer_boot));
	EXPECT_EQ(864000, r->outer_mono);
	EXPECT_EQ(1728000, r->outer_boot);
	EXPECT_EQ(864000, r->inh_mono);
	EXPECT_EQ(1728000, r->inh_boot);
	/* The test may itself be in a time namespace: compare with its own clock. */
	{
		struct offsets o;
		long long mono = 0, boot = 0, base;

		ASSERT_EQ(0, read_offsets(0, &o));
		ASSERT_EQ(0, offsets_of(&o, &mono, &boot));
		base = 3600 - mono;
		EXPECT_TRUE(r->nested_mono >= r->before + base * NSEC &&
			    r->nested_mono <= r->after + base * NSEC)
			TH_LOG("nested CLOCK_MONOTONIC %lld not within [%lld, %lld]",
			       r->nested_mono, r->before + base * NSEC, r->after + base * NSEC);
	}
}

/* --- what may be written ---------------------------------------------------- */

struct write_case {
	const char *text;
	int err;		/* what the write returned */
	int read_ok;		/* the file afterwards */
	long long mono, boot;
	long mono_ns;
};

static int try_writes(void *arg)
{
	struct write_case *c = arg;
	struct offsets o;

	if (new_time_ns())
		return 1;
	for (; c->text; c++) {
		c->err = write_offsets(c->text);
		c->read_ok = !read_offsets(0, &o) && !offsets_of(&o, &c->mono, &c->boot);
		c->mono_ns = o.nsec[0];
	}
	return 0;
}

/* Run a list of writes (ended by a NULL text) in one new namespace; results in @c. */
static int run_writes(struct write_case *c, size_t n)
{
	struct write_case *shared = ns_shared_page(1 << 16);
	int rc;

	if (!shared)
		return -1;
	memcpy(shared, c, n * sizeof(*c));
	rc = ns_run(0, try_writes, shared);
	memcpy(c, shared, n * sizeof(*c));
	return rc;
}

/*
 * Numeric clock ids 1 (CLOCK_MONOTONIC) and 7 (CLOCK_BOOTTIME) are accepted in place of the names
 * (time_namespaces(7)).
 */
TEST(numeric_clock_ids_accepted)
{
	struct write_case c[] = {
		{ .text = "1 1000 0\n" }, { .text = "7 2000 0\n" }, { .text = NULL },
	};

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, run_writes(c, 3));
	EXPECT_EQ(0, c[0].err);
	EXPECT_EQ(0, c[1].err);
	EXPECT_TRUE(c[1].read_ok);
	EXPECT_EQ(1000, c[1].mono);
	EXPECT_EQ(2000, c[1].boot);
}

/*
 * A clock-id other than monotonic/boottime (1/7) is EINVAL and changes nothing (time_namespaces(7)
 * ERRORS).
 *
 * Numeric ids of clocks a time namespace does not offset (0 REALTIME,
 * 2 PROCESS_CPUTIME, 4 MONOTONIC_RAW, 9 BOOTTIME_ALARM) and unknown names.
 */
TEST(invalid_clock_id_is_einval)
{
	struct write_case c[] = {
		{ .text = "monotonic 100 0\n" }, { .text = "0 5 0\n" }, { .text = "2 5 0\n" },
		{ .text = "4 5 0\n" }, { .text = "9 5 0\n" }, { .text = "monotonic_raw 5 0\n" },
		{ .text = "uptime 5 0\n" }, { .text = NULL },
	};

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, run_writes(c, 8));
	EXPECT_EQ(0, c[0].err);
	for (int i = 1; i < 7; i++) {
		EXPECT_EQ(-EINVAL, c[i].err) TH_LOG("write \"%.*s\"", (int)strlen(c[i].text) - 1,
						    c[i].text);
		EXPECT_TRUE(c[i].read_ok);
		EXPECT_EQ(100, c[i].mono);
		EXPECT_EQ(0, c[i].boot);
	}
}

/*
 * offset-nanosecs above 999,999,999 is EINVAL; 999,999,999 is accepted (time_namespaces(7) ERRORS).
 */
TEST(nanoseconds_above_999999999_is_einval)
{
	struct write_case c[] = {
		{ .text = "monotonic 10 999999999\n" }, { .text = "monotonic 20 1000000000\n" },
		{ .text = NULL },
	};

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, run_writes(c, 3));
	EXPECT_EQ(0, c[0].err);
	EXPECT_EQ(10, c[0].mono);
	EXPECT_EQ(999999999, c[0].mono_ns);
	EXPECT_EQ(-EINVAL, c[1].err);
	EXPECT_EQ(10, c[1].mono);
	EXPECT_EQ(999999999, c[1].mono_ns);
}

/*
 * Later writes replace one clock's offset and leave the other: the file may be written many times
 * before entry (time_namespaces(7)).
 */
TEST(writes_before_entry_replace_per_clock)
{
	struct write_case c[] = {
		{ .text = "monotonic 100 0\n" }, { .text = "boottime 200 0\n" },
		{ .text = "monotonic 300 0\n" }, { .text = NULL },
	};

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_EQ(0, run_writes(c, 4));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(0, c[i].err);
	EXPECT_EQ(100, c[0].mono);
	EXPECT_EQ(0, c[0].boot);
	EXPECT_EQ(100, c[1].mono);
	EXPECT_EQ(200, c[1].boot);
	EXPECT_EQ(300, c[2].mono);
	EXPECT_EQ(200, c[2].boot);
}

struct range_rec {
	long long now_mono;	/* the initial namespace's CLOCK_MONOTONIC (s) */
	int neg_ok, neg_range, high_ok, high_range;
	long long neg_mono;	/* the file after the accepted negative offset */
};

static int ranges(void *arg)
{
	struct range_rec *r = arg;
	struct offsets o;
	long long mono, boot;
	char buf[96];

	if (new_time_ns())
		return 1;
	/* Our own offsets are relative to the initial namespace too. */
	if (read_offsets(0, &o) || offsets_of(&o, &mono, &boot))
		return child_fail("timens_offsets not as documented");
	r->now_mono = now_sec(CLOCK_MONOTONIC) - mono;
	snprintf(buf, sizeof(buf), "monotonic %lld 0\n", -(r->now_mono / 2));
	r->neg_ok = write_offsets(buf);
	if (!read_offsets(0, &o) && !offsets_of(&o, &mono, &boot))
		r->neg_mono = mono;
	snprintf(buf, sizeof(buf), "monotonic %lld 0\n", -(r->now_mono + 100));
	r->neg_range = write_offsets(buf);
	snprintf(buf, sizeof(buf), "boottime %lld 0\n", CLOCK_SEC_LIMIT - r->now_mono - 1000000);
	r->high_ok = write_offsets(buf);
	snprintf(buf, sizeof(buf), "boottime %lld 0\n", CLOCK_SEC_LIMIT + 10);
	r->high_range = write_offsets(buf);
	return 0;
}

/*
 * Negative offsets are allowed, but not below a clock value of 0 or above KTIME_SEC_MAX/2: ERANGE
 * (time_namespaces(7) ERRORS).
 *
 * Boot time is at least monotonic time, so the boottime offset that keeps
 * the clock 1e6 s under the limit is accepted for any uptime under a year.
 */
TEST(offset_bounds_are_erange)
{
	TIME_REC(struct range_rec, r);
	ASSERT_EQ(0, ns_run(0, ranges, r));
	ASSERT_LT(2, r->now_mono) TH_LOG("the machine is up for too short a time");
	EXPECT_EQ(0, r->neg_ok);
	EXPECT_EQ(-(r->now_mono / 2), r->neg_mono);
	EXPECT_EQ(-ERANGE, r->neg_range);
	EXPECT_EQ(0, r->high_ok);
	EXPECT_EQ(-ERANGE, r->high_range);
}

/* --- who may write ---------------------------------------------------------- */

struct perm_rec {
	int without_cap;	/* -errno of a write without CAP_SYS_TIME */
};

/* A child's two writes: a control that must succeed, then the write a test is about. */
struct write_pair {
	int control;		/* -errno of the control write */
	int tested;		/* -errno of the write under test */
};

/*
 * Runs FN with a fresh write_pair: its control must succeed, its tested write fail with ERR.
 * OWN_USERNS: FN makes a user namespace of its own, so even root needs one to be possible.
 */
static void check_write_pair(struct __test_metadata *_metadata, int (*fn)(void *), int err,
			     bool own_userns)
{
	struct write_pair *r = ns_shared_page(1 << 16);

	NS_NEED_TYPE("time");
	if (own_userns)
		NS_NEED_USERNS();
	else
		NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	r->control = r->tested = 1;
	ASSERT_EQ(0, ns_run(0, fn, r));
	EXPECT_EQ(0, r->control);
	EXPECT_EQ(err, r->tested);
}

/* The creator is not a member of its new namespace, so it may still write. */
static int perm_creator(void *arg)
{
	struct perm_rec *r = arg;

	if (new_time_ns())
		return 1;
	if (ns_cap_set(CAP_SYS_TIME, CAP_EFFECTIVE, false))
		return child_fail("cannot drop CAP_SYS_TIME: %m");
	r->without_cap = write_offsets("monotonic 5 0\n");
	return 0;
}

static int perm_child_userns(void *arg)
{
	struct write_pair *r = arg;

	if (new_time_ns())
		return 1;
	r->control = write_offsets("monotonic 5 0\n");
	/* Root of a new user namespace: every capability, in that namespace. */
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (!ns_cap_effective(CAP_SYS_TIME))
		return child_fail("no CAP_SYS_TIME in the new user namespace");
	r->tested = write_offsets("monotonic 6 0\n");
	return 0;
}

/* Writing timens_offsets without CAP_SYS_TIME is EPERM (time_namespaces(7) ERRORS). */
TEST(write_without_cap_sys_time_is_eperm)
{
	TIME_REC(struct perm_rec, r);
	r->without_cap = 1;
	ASSERT_EQ(0, ns_run(0, perm_creator, r));
	EXPECT_EQ(-EPERM, r->without_cap);
}

/*
 * CAP_SYS_TIME is needed in the user namespace owning the time namespace: one in a child user
 * namespace is EPERM (time_namespaces(7)).
 */
TEST(write_with_cap_only_in_child_userns_is_eperm)
{
	check_write_pair(_metadata, perm_child_userns, -EPERM, true);
}

/* --- what the members see --------------------------------------------------- */

struct uptime_rec {
	double uptime_in;
	int ok;
};

static int read_uptime(double *up)
{
	char buf[128];

	if (ns_read_file("/proc/uptime", buf, sizeof(buf)) < 0)
		return -1;
	*up = strtod(buf, NULL);
	return 0;
}

static int uptime_member(void *arg)
{
	struct uptime_rec *r = arg;

	if (read_uptime(&r->uptime_in))
		return child_fail("read /proc/uptime: %m");
	r->ok = 1;
	return 0;
}

/* /proc/uptime inside shows boot time with the namespace's boottime offset (time_namespaces(7)). */
TEST(proc_uptime_includes_boottime_offset)
{
	struct uptime_rec *r = ns_shared_page(1 << 16);
	struct creator_req q = { uptime_member, r, NULL };
	long long off = 1728000 - own_boot_offset();
	double before, after;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, read_uptime(&before));
	ASSERT_EQ(0, ns_run(0, offset_creator, &q));
	ASSERT_EQ(0, read_uptime(&after));
	ASSERT_EQ(1, r->ok);
	/* /proc/uptime has two decimals. */
	EXPECT_TRUE(r->uptime_in >= before + off - 0.02 && r->uptime_in <= after + off + 0.02)
		TH_LOG("uptime inside %.2f, outside %.2f .. %.2f", r->uptime_in, before, after);
}

struct btime_rec {
	long long btime_in;
	int ok;
};

/* The btime line of /proc/stat: seconds since the Epoch, or -1. */
static long long read_btime(void)
{
	FILE *f = fopen("/proc/stat", "re");
	long long t = -1;
	bool line_start = true;
	char buf[4096];

	if (!f)
		return -1;
	/* The intr line may be longer than buf: only a chunk that starts a line counts. */
	while (fgets(buf, sizeof(buf), f)) {
		if (line_start && sscanf(buf, "btime %lld", &t) == 1)
			break;
		line_start = strchr(buf, '\n') != NULL;
	}
	fclose(f);
	return t;
}

static int btime_member(void *arg)
{
	struct btime_rec *r = arg;

	r->btime_in = read_btime();
	if (r->btime_in < 0)
		return child_fail("no btime line in /proc/stat: %m");
	r->ok = 1;
	return 0;
}

/*
 * /proc/stat's btime, the boot time in seconds since the Epoch (proc_stat(5)),
 * is, for a member of a time namespace, the boot its CLOCK_BOOTTIME and
 * /proc/uptime count from (time_namespaces(7)): the host's boot time minus the
 * namespace's boottime offset; the monotonic offset does not move it
 * (linux:3ae700ecfae9 "fs/proc: apply the time namespace offset to /proc/stat
 * btime", 5.11).  Exact: the kernel subtracts the offset from the boot
 * timestamp and prints its seconds, and the offset here is whole seconds
 * (when the test itself runs with a boottime offset that has a fraction, the
 * host's boot second is one of two).  Both sides: the test's own btime, read
 * before and after, is unchanged.
 */
TEST(proc_stat_btime_excludes_boottime_offset)
{
	struct btime_rec *r = ns_shared_page(1 << 16);
	struct creator_req q = { btime_member, r, NULL };
	long long before, after, own, mono, expected;
	struct offsets o;

	NS_NEED_TYPE("time");
	NS_NEED_ADMIN_OR_USERNS();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, read_offsets(0, &o));
	ASSERT_EQ(0, offsets_of(&o, &mono, &own));
	before = read_btime();
	ASSERT_LE(0, before);
	ASSERT_EQ(0, ns_run(0, offset_creator, &q));
	after = read_btime();
	ASSERT_EQ(1, r->ok);
	/* A step of the realtime clock between the reads moves the boot time: say so. */
	ASSERT_EQ(before, after) TH_LOG("the host's boot time moved during the test");
	/* offset_creator() writes boottime 1728000 (20 days), monotonic 864000. */
	expected = before + own - 1728000;
	/*
	 * Our own offset with a fraction of a second: we see the boot second
	 * floor(boot - own), so the host's is one of two (the kernel's rounding).
	 */
	if (o.nsec[1] && r->btime_in == expected + 1)
		expected++;
	EXPECT_EQ(expected, r->btime_in)
		TH_LOG("btime inside %lld, outside %lld, our boottime offset %lld.%09ld: "
		       "expected %lld (20 days earlier)", r->btime_in, before, own, o.nsec[1],
		       expected);
}

/* J: wait for "go", setns() into our parent's time_for_children, report. */
static int setns_joiner(struct ns_sync *s)
{
	char path[64];
	int fd;

	ns_sync_child_side(s);
	if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("no go");
	snprintf(path, sizeof(path), "/proc/%d/ns/time_for_children", getppid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWTIME))
		return child_fail("setns into the new time namespace: %m");
	return ns_sync_tell(s, true, NULL, 0) ? child_fail("tell: %m") : 0;
}

static int entry_by_setns(void *arg)
{
	struct write_pair *r = arg;	/* control: before anyone entered; tested: after */
	struct ns_sync s;
	int rc = 0;
	pid_t j;

	if (ns_unshare_admin(0))
		return child_fail("user namespace: %m");
	/* J exists before the time namespace, so it is not born in it. */
	j = ns_clone_synced(ns_clone, 0, &s);
	if (j < 0)
		return child_fail("fork: %m");
	if (j == 0)
		_exit(setns_joiner(&s));
	if (unshare(CLONE_NEWTIME)) {
		rc = child_fail("unshare(CLONE_NEWTIME): %m");
		goto out;
	}
	r->control = write_offsets("monotonic 100 0\n");
	if (ns_sync_tell(&s, false, NULL, 0) || ns_sync_wait(&s, false, NULL, 0, NS_WAIT_MS)) {
		rc = child_fail("J did not enter");
		goto out;
	}
	r->tested = write_offsets("monotonic 200 0\n");
out:
	/* On every path J is told (by EOF) and reaped; ns_wait() kills it if it hangs. */
	ns_sync_close(&s);
	if (rc)
		kill(j, SIGKILL);
	j = ns_wait(j, NS_WAIT_MS);
	return rc ? rc : j;
}

/*
 * Entering the namespace with setns(2) fixes its offsets like a birth there: later writes fail with
 * EACCES (time_namespaces(7)).
 */
TEST(offsets_write_after_setns_entry_is_eacces)
{
	check_write_pair(_metadata, entry_by_setns, -EACCES, false);
}

TEST_HARNESS_MAIN
