// SPDX-License-Identifier: GPL-2.0
/*
 * Regression test for the network-namespace fix of the default TCP
 * congestion control that Debian's kernels ship (issue 27, item 2; the row
 * of fixtures/data/fixes.tsv whose test names this binary): the fixed
 * kernel's answer for the input that tells it from the last kernel
 * without the fix, and the answer for an input the fix leaves alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nsconform.h"
#include "net.h"
#include "kselftest_harness.h"

#define CC_DIR "/proc/sys/net/ipv4/"

/* Whether the blank-separated @list names @word. */
static bool listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/*
 * An algorithm the kernel has (tcp_available_congestion_control) that is
 * not in tcp_allowed_congestion_control, in @out; false when there is none.
 */
static bool restricted_algorithm(char *out, size_t len)
{
	char avail[512], allowed[512], *tok, *save;

	if (ns_read_file(CC_DIR "tcp_available_congestion_control", avail, sizeof(avail)) < 0 ||
	    ns_read_file(CC_DIR "tcp_allowed_congestion_control", allowed, sizeof(allowed)) < 0)
		return false;
	for (tok = strtok_r(avail, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!listed(allowed, tok)) {
			snprintf(out, len, "%s", tok);
			return true;
		}
	return false;
}

static int cong_worker(void *arg)
{
	const char *restricted = arg;
	char now[64];
	int err;

	/* The input the fix leaves alone: reno, always allowed, is taken. */
	err = ns_write_file(CC_DIR "tcp_congestion_control", "reno");
	if (err) {
		errno = -err;
		return child_fail("set tcp_congestion_control to reno in a new netns: %m");
	}
	if (ns_read_file(CC_DIR "tcp_congestion_control", now, sizeof(now)) < 0 ||
	    strcmp(now, "reno\n"))
		return child_fail("tcp_congestion_control reads \"%s\" after setting reno", now);
	/* The input the fix is about: an algorithm the host has but has not allowed. */
	err = ns_write_file(CC_DIR "tcp_congestion_control", restricted);
	if (err != -EPERM) {
		errno = -err;
		return child_fail("set tcp_congestion_control to %s (not allowed): %s, "
				  "expected EPERM", restricted, err ? strerror(-err) : "taken");
	}
	if (ns_read_file(CC_DIR "tcp_congestion_control", now, sizeof(now)) < 0 ||
	    strcmp(now, "reno\n"))
		return child_fail("tcp_congestion_control reads \"%s\" after the refusal", now);
	return 0;
}

/*
 * net.ipv4.tcp_congestion_control is per network namespace; outside the
 * initial one it can be set only to an algorithm of
 * tcp_allowed_congestion_control (tcp(7)), else EPERM, as for the
 * TCP_CONGESTION socket option of an unprivileged process (fix
 * linux:8d432592f30f "net: Only allow init netns to set default tcp cong
 * to a restricted algo", Debian 5.10.38: before it any loaded algorithm
 * was taken).  Both sides: reno is taken and reads back, and the refusal
 * leaves it.  It needs an algorithm the kernel has loaded but not allowed.
 */
TEST(default_cong_outside_allowed_list_eperm)
{
	char restricted[64];
	int rc;

	NS_NEED_ENV(restricted_algorithm(restricted, sizeof(restricted)), NS_WHY_FEATURE_CONFIG,
		    "a loaded TCP congestion control outside tcp_allowed_congestion_control",
		    "a loaded algorithm that is not allowed");
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(CLONE_NEWNET, cong_worker, restricted);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
