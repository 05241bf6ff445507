// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: the rules for writing /proc/PID/uid_map, gid_map and
 * setgroups, and how uid_map reads from different namespaces.
 * user_namespaces(7) "User and group ID mappings: uid_map and gid_map",
 * the article's part 5 (userns_child_exec.c).
 *
 * The unprivileged writer is a child that gave up every privilege first
 * (ns_run_unpriv()), in both passes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* The map line limit since 4.15 (5 before); 5.10 is the oldest kernel run. */
#define MAP_MAX_LINES 340

/* First line of /proc/@pid/@file (pid 0 = self) as three numbers. */
static int read_map_line(pid_t pid, const char *file, unsigned int v[3])
{
	char path[64], buf[256];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	else
		snprintf(path, sizeof(path), "/proc/self/%s", file);
	if (ns_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return sscanf(buf, "%u %u %u", &v[0], &v[1], &v[2]) == 3 ? 0 : -1;
}

/* Number of lines in /proc/@pid/@file (read to the end: seq_file pages). */
static int count_map_lines(pid_t pid, const char *file)
{
	char path[64], buf[4096];
	int fd, n = 0;
	ssize_t got;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < got; i++)
			n += buf[i] == '\n';
	close(fd);
	return got < 0 ? -1 : n;
}

/* Write "0 @uid 1" to the own uid_map and check that it made us uid 0. */
static int map_own_uid(uid_t uid)
{
	char line[32];
	int err;

	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	err = ns_write_proc(0, "uid_map", line);
	if (err) {
		errno = -err;
		return child_fail("write uid_map '%s': %m", line);
	}
	return getuid() == 0 ? 0 : child_fail("uid %u after the map", getuid());
}

/* unshare(CLONE_NEWUSER) and write "0 <euid> 1" to the own uid_map. */
static int unshare_map_uid(uid_t uid)
{
	char line[32];
	int err;

	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	err = ns_write_proc(0, "uid_map", line);
	if (err) {
		errno = -err;
		return child_fail("write uid_map '%s': %m", line);
	}
	return 0;
}

/* Write @text to the own @file and expect it to fail with @err. */
static int expect_write_fails(const char *file, const char *text, int err)
{
	int rc = ns_write_proc(0, file, text);

	if (rc == -err)
		return 0;
	errno = -rc;
	return child_fail("write '%s' to %s: %s, expected %s", text, file,
			  rc ? strerror(-rc) : "success", strerror(err));
}

/* --- written once -------------------------------------------------------- */

static int uid_map_once(void *arg)
{
	unsigned int v[3];
	char line[32];

	(void)arg;
	snprintf(line, sizeof(line), "0 %u 1\n", geteuid());
	if (unshare_map_uid(geteuid()))
		return 1;
	if (expect_write_fails("uid_map", line, EPERM))
		return 1;
	if (getuid() != 0 || read_map_line(0, "uid_map", v))
		return child_fail("uid %u after the map, uid_map unreadable", getuid());
	return 0;
}

/*
 * uid_map can be written only once: the second write fails with EPERM and the first map stays
 * (user_namespaces(7)).
 */
TEST(uid_map_written_only_once)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(uid_map_once, NULL));
}

static int gid_map_once(void *arg)
{
	char line[32];
	gid_t gid = getegid();
	int err;

	(void)arg;
	snprintf(line, sizeof(line), "0 %u 1\n", gid);
	if (unshare_map_uid(geteuid()))
		return 1;
	err = ns_write_proc(0, "setgroups", "deny");
	if (err && err != -ENOENT)
		return child_fail("write setgroups deny: %s", strerror(-err));
	err = ns_write_proc(0, "gid_map", line);
	if (err)
		return child_fail("first gid_map write: %s", strerror(-err));
	if (expect_write_fails("gid_map", line, EPERM))
		return 1;
	if (getgid() != 0)
		return child_fail("gid %u after the map, expected 0", getgid());
	return 0;
}

/* gid_map can be written only once: EPERM on the second write (user_namespaces(7)). */
TEST(gid_map_written_only_once)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(gid_map_once, NULL));
}

/* --- what an unprivileged writer may map --------------------------------- */

static int map_other_id(void *arg)
{
	char line[32];
	uid_t uid = geteuid();

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	snprintf(line, sizeof(line), "0 %u 1\n", uid - 1);
	if (expect_write_fails("uid_map", line, EPERM))
		return 1;
	if (getuid() == 0)
		return child_fail("became uid 0 through a refused map");
	/* The refused write did not use up the map: the own id still works. */
	return map_own_uid(uid);
}

/*
 * An unprivileged writer may map only its own effective uid: mapping another id fails with EPERM
 * (user_namespaces(7)).
 */
TEST(unprivileged_map_of_other_id_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_other_id, NULL));
}

static int map_range(void *arg)
{
	char line[32];
	uid_t uid = geteuid();

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	snprintf(line, sizeof(line), "0 %u 2\n", uid);
	if (expect_write_fails("uid_map", line, EPERM))
		return 1;
	snprintf(line, sizeof(line), "0 %u 1\n1 %u 1\n", uid, uid + 1);
	if (expect_write_fails("uid_map", line, EPERM))
		return 1;
	return map_own_uid(uid);
}

/*
 * An unprivileged writer may map exactly one id: a range of two, or two lines, fail with EPERM
 * (user_namespaces(7)).
 */
TEST(unprivileged_map_of_range_eperm)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_range, NULL));
}

/* --- setgroups ----------------------------------------------------------- */

static int gid_map_setgroups(void *arg)
{
	char line[32], buf[32];
	gid_t gid = getegid();
	bool after_deny = arg != NULL;

	snprintf(line, sizeof(line), "0 %u 1\n", gid);
	if (unshare_map_uid(geteuid()))
		return 1;
	if (ns_read_file("/proc/self/setgroups", buf, sizeof(buf)) < 0)
		return child_fail("read setgroups: %m");
	if (strncmp(buf, "allow", 5))
		return child_fail("setgroups of a new namespace reads '%s'", buf);
	if (expect_write_fails("gid_map", line, EPERM))
		return 1;
	if (ns_write_proc(0, "setgroups", "deny"))
		return child_fail("write setgroups deny failed");
	if (ns_write_proc(0, "gid_map", line) || getgid() != 0)
		return child_fail("gid_map after deny failed (gid %u)", getgid());
	if (!after_deny)
		return 0;
	if (!ns_caps_all_effective())
		return child_fail("no full capability set in the new namespace");
	if (setgroups(0, NULL) == 0)
		return child_fail("setgroups() succeeded after setgroups deny");
	if (errno != EPERM)
		return child_fail("setgroups(): %m, expected EPERM");
	/* deny is one way once gid_map is written. */
	return expect_write_fails("setgroups", "allow", EPERM);
}

/*
 * Since 3.19 an unprivileged gid_map write needs /proc/PID/setgroups set to "deny" first: EPERM
 * otherwise (user_namespaces(7)).
 */
TEST(gid_map_unprivileged_needs_setgroups_deny)
{
	NS_NEED(NS_F_SETGROUPS_FILE);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(gid_map_setgroups, NULL));
}

/*
 * After setgroups "deny", setgroups(2) is EPERM inside even with every capability; "allow" cannot
 * be written back (user_namespaces(7)).
 */
TEST(setgroups_fails_after_deny)
{
	NS_NEED(NS_F_SETGROUPS_FILE);
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(gid_map_setgroups, "after deny"));
}

/* --- malformed and overlapping maps -------------------------------------- */

static int map_malformed(void *arg)
{
	static const char *const bad[] = {
		"0 %u\n", "x %u 1\n", "0 %u 0\n", "0 %u 1 junk\n",
		"4294967295 %u 1\n", "0 %u 4294967295\n", "\n",
	};
	char line[64];
	uid_t uid = geteuid();

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), bad[i], uid);
		if (expect_write_fails("uid_map", line, EINVAL))
			return 1;
	}
	return map_own_uid(uid);
}

/*
 * A malformed map line fails with EINVAL and leaves the map unwritten (user_namespaces(7)).
 *
 * Malformed: a missing or extra field, a non-number, a zero or wrapping
 * count, id -1.
 */
TEST(map_malformed_lines_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_malformed, NULL));
}

static int map_overlap(void *arg)
{
	char line[64];
	uid_t uid = geteuid();

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	/* Same inside range twice, then the same outside id twice. */
	snprintf(line, sizeof(line), "0 %u 1\n0 %u 1\n", uid, uid + 1);
	if (expect_write_fails("uid_map", line, EINVAL))
		return 1;
	snprintf(line, sizeof(line), "0 %u 1\n1 %u 1\n", uid, uid);
	if (expect_write_fails("uid_map", line, EINVAL))
		return 1;
	return map_own_uid(uid);
}

/*
 * Map lines whose inside or outside ranges overlap fail with EINVAL (user_namespaces(7)).
 *
 * The lines are parsed before the writer's permission is looked at.
 */
TEST(map_overlapping_ranges_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_overlap, NULL));
}

/* @len bytes: "0 @uid 1", blanks, a newline: one valid line whatever its length. */
static char *padded_map(size_t len, uid_t uid)
{
	char *buf = malloc(len + 1);
	int n;

	if (!buf)
		return NULL;
	n = snprintf(buf, len + 1, "0 %u 1", uid);
	memset(buf + n, ' ', len - n);
	buf[len - 1] = '\n';
	buf[len] = '\0';
	return buf;
}

static int map_bounds(void *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	char *full = padded_map(page, geteuid()), *under = padded_map(page - 1, geteuid());
	char line[32];
	uid_t uid = geteuid();
	int fd, rc = 0;

	(void)arg;
	if (!full || !under)
		return child_fail("malloc: %m");
	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail("open own uid_map: %m");
	if (write(fd, full, page) != -1 || errno != EINVAL)
		rc = child_fail("write of a page (%zu bytes): %m, expected EINVAL", page);
	/* seq_open() takes FMODE_PWRITE away: pwrite() is ESPIPE at any offset. */
	if (pwrite(fd, line, strlen(line), 1) != -1 || errno != ESPIPE)
		rc = child_fail("pwrite '0 %u 1' at offset 1: %m, expected ESPIPE", uid);
	if (lseek(fd, 1, SEEK_SET) != 1)
		rc = child_fail("lseek to 1: %m");
	else if (write(fd, line, strlen(line)) != -1 || errno != EINVAL)
		rc = child_fail("write '0 %u 1' at offset 1: %m, expected EINVAL", uid);
	if (lseek(fd, 0, SEEK_SET) != 0)
		rc = child_fail("lseek to 0: %m");
	/* The same map, one byte under a page, at offset 0: accepted. */
	if (write(fd, under, page - 1) != (ssize_t)(page - 1))
		rc = child_fail("write of %zu bytes at offset 0: %m", page - 1);
	else if (getuid() != 0)
		rc = child_fail("uid %u after the map, not 0", getuid());
	close(fd);
	free(full);
	free(under);
	return rc;
}

/*
 * A map write must be shorter than a page and start at offset 0: a page-long write or one after
 * lseek() to 1 fail with EINVAL, the same map a byte under a page is taken (user_namespaces(7)).
 *
 * pwrite(2), which the page names with lseek(2), fails with ESPIPE at any
 * offset, not EINVAL: seq_open() clears FMODE_PWRITE (README).
 */
TEST(map_write_of_a_page_or_past_offset_0_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_bounds, NULL));
}

/* @n lines "i 1000+i 1": distinct, non-overlapping, under a page. */
static char *map_lines(int n)
{
	char *buf = malloc(n * 16 + 1), *p = buf;

	if (!buf)
		return NULL;
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%d %d 1\n", i, 1000 + i);
	return buf;
}

/*
 * A map takes at most 340 lines: 341 fail with EINVAL; a privileged writer's 340 are all installed
 * (user_namespaces(7)).
 *
 * The limit was 5 lines before 4.15.  An unprivileged writer's 340 lines get
 * past the parser and are refused with EPERM.
 */
TEST(map_line_limit_is_340)
{
	char *ok = map_lines(MAP_MAX_LINES), *over = map_lines(MAP_MAX_LINES + 1);
	bool priv = ns_cap_effective(CAP_SETUID) && ns_cap_effective(CAP_SYS_ADMIN);
	struct userns_holder h;

	ASSERT_NE(NULL, ok);
	ASSERT_NE(NULL, over);
	NS_NEED_USERNS();
	ASSERT_EQ(0, userns_hold(&h, CLONE_NEWUSER, NULL, NULL));
	EXPECT_EQ(-EINVAL, ns_write_proc(h.pid, "uid_map", over));
	EXPECT_EQ(0, count_map_lines(h.pid, "uid_map"));
	if (priv) {
		EXPECT_EQ(0, ns_write_proc(h.pid, "uid_map", ok));
		EXPECT_EQ(MAP_MAX_LINES, count_map_lines(h.pid, "uid_map"));
	} else {
		EXPECT_EQ(-EPERM, ns_write_proc(h.pid, "uid_map", ok));
	}
	EXPECT_EQ(0, userns_release(&h));
	free(ok);
	free(over);
}

/* --- a privileged writer ------------------------------------------------- */

struct ranged_ids {
	uid_t uid;
	gid_t gid;
	int setgroups_rc;
};

static int ranged_child(struct ns_sync *s)
{
	struct ranged_ids r;
	gid_t g = 5;

	ns_sync_child_side(s);
	if (ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS))
		return child_fail("no word from parent");
	r.setgroups_rc = setgroups(1, &g) ? errno : 0;
	if (setresgid(2000, 2000, 2000) || setresuid(1000, 1000, 1000))
		return child_fail("switch to 1000/2000 inside: %m");
	r.uid = getuid();
	r.gid = getgid();
	if (ns_sync_tell(s, true, &r, sizeof(r)))
		return child_fail("tell parent: %m");
	ns_sync_wait(s, true, NULL, 0, NS_WAIT_MS);
	return 0;
}

/*
 * A writer with CAP_SETUID/CAP_SETGID in the parent namespace can map ranges (user_namespaces(7),
 * userns_child_exec.c -M/-G).
 *
 * With setgroups left "allow", setgroups(2) works inside; the parent sees the
 * ids shifted by the map.
 */
TEST(privileged_writer_maps_ranges)
{
	struct ranged_ids r = { 0 };
	struct ns_sync s;
	pid_t pid;

	NS_NEED_REAL_ROOT(ns_cap_effective(CAP_SETUID) && ns_cap_effective(CAP_SETGID) &&
			  ns_cap_effective(CAP_SYS_ADMIN));
	NS_NEED_USERNS();
	pid = ns_clone_synced(ns_clone, CLONE_NEWUSER, &s);
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(ranged_child(&s));
	EXPECT_EQ(0, ns_write_proc(pid, "uid_map", "0 100000 65536\n"));
	EXPECT_EQ(0, ns_write_proc(pid, "gid_map", "0 100000 65536\n"));
	EXPECT_EQ(0, ns_sync_tell(&s, false, NULL, 0));
	EXPECT_EQ(0, ns_sync_wait(&s, false, &r, sizeof(r), NS_WAIT_MS));
	EXPECT_EQ(1000, r.uid);
	EXPECT_EQ(2000, r.gid);
	EXPECT_EQ(0, r.setgroups_rc);
	{
		char path[64], buf[4096], *p;

		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		ASSERT_LE(0, ns_read_file(path, buf, sizeof(buf)));
		p = strstr(buf, "\nUid:");
		ASSERT_NE(NULL, p);
		EXPECT_EQ(101000, strtol(p + 5, NULL, 10));
		p = strstr(buf, "\nGid:");
		ASSERT_NE(NULL, p);
		EXPECT_EQ(102000, strtol(p + 5, NULL, 10));
	}
	ns_sync_tell(&s, false, NULL, 0);
	EXPECT_EQ(0, ns_wait(pid, NS_WAIT_MS));
	ns_sync_close(&s);
}

/* --- reading uid_map ----------------------------------------------------- */

struct map_reader {
	pid_t a;	/* the process whose uid_map is read */
	uid_t uid;	/* the outer uid both namespaces map */
};

static int sibling_reads(void *arg)
{
	struct map_reader *m = arg;
	unsigned int v[3];
	char line[32];

	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	snprintf(line, sizeof(line), "5 %u 1\n", m->uid);
	if (ns_write_proc(0, "uid_map", line))
		return child_fail("write uid_map '%s' failed", line);
	if (read_map_line(m->a, "uid_map", v))
		return child_fail("read /proc/%d/uid_map: %m", m->a);
	/* A's 0 is the outer uid, which is 5 in this sibling namespace. */
	if (v[0] != 0 || v[1] != 5 || v[2] != 1)
		return child_fail("sibling reads '%u %u %u', expected '0 5 1'", v[0], v[1], v[2]);
	/* Its own map, read from inside, is relative to the parent. */
	if (read_map_line(0, "uid_map", v) || v[0] != 5 || v[1] != m->uid)
		return child_fail("own uid_map reads '%u %u %u'", v[0], v[1], v[2]);
	return 0;
}

static int map_views(void *arg)
{
	struct userns_holder h;
	unsigned int v[3] = { 9, 9, 9 };
	char line[32];
	uid_t uid = geteuid();
	struct map_reader m;
	int rc;

	(void)arg;
	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	if (userns_hold(&h, CLONE_NEWUSER, line, NULL))
		return child_fail("child in a mapped user namespace failed");
	rc = read_map_line(h.pid, "uid_map", v);
	m.a = h.pid;
	m.uid = uid;
	if (!rc)
		rc = ns_run(0, sibling_reads, &m);
	userns_release(&h);
	if (rc)
		return child_fail("sibling view failed (%d)", rc);
	if (v[0] != 0 || v[1] != uid || v[2] != 1)
		return child_fail("parent reads '%u %u %u', expected '0 %u 1'",
				  v[0], v[1], v[2], uid);
	return 0;
}

/*
 * uid_map reads relative to the reader: outside ids are the parent's from the parent, the sibling's
 * from a sibling (user_namespaces(7)).
 */
TEST(uid_map_read_relative_to_reader)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(map_views, NULL));
}

TEST_HARNESS_MAIN
