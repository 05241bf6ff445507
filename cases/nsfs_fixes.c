// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for namespace-file fixes that Debian's kernels ship
 * (issue 27, item 2; the rows of fixtures/data/fixes.tsv whose test names this
 * binary).  Each test gives the fixed kernel's answer for the input that
 * tells it from the last kernel without the fix, and the same call on the
 * input the fix leaves alone, so both sides are seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

#define MAXIDS 4096

static bool has(const uint64_t *ids, long n, uint64_t id)
{
	for (long i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* --- listns() past an inactive namespace --------------------------------------- */

static int inactive_worker(void *arg)
{
	static uint64_t ids[MAXIDS];
	uint64_t inactive, ours;
	long n;
	int fd, err;

	(void)arg;
	/* A network namespace only a socket holds, then one we are in. */
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET): %m");
	err = ns_get_id_of(0, "net", &inactive);
	if (err) {
		errno = -err;
		return child_fail("NS_GET_ID of the first network namespace: %m");
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return child_fail("socket(AF_UNIX) in the first network namespace: %m");
	if (unshare(CLONE_NEWNET)) {
		close(fd);
		return child_fail("unshare(CLONE_NEWNET) again: %m");
	}
	err = ns_get_id_of(0, "net", &ours);
	if (err) {
		close(fd);
		errno = -err;
		return child_fail("NS_GET_ID of our network namespace: %m");
	}
	if (ours <= inactive) {
		close(fd);
		return child_fail("the newer namespace has id %llu, the older %llu",
				  (unsigned long long)ours, (unsigned long long)inactive);
	}
	/* The input the fix leaves alone: the listing after the inactive namespace. */
	n = ns_list(inactive, CLONE_NEWNET, 0, ids, MAXIDS);
	if (n < 0 || !has(ids, n, ours)) {
		close(fd);
		return child_fail("listns(CLONE_NEWNET) after the inactive namespace's id: %s, "
				  "our namespace %s", n < 0 ? strerror(-n) : "listed",
				  n < 0 ? "-" : "missing");
	}
	/* The input the fix is about: a listing that meets the inactive namespace. */
	n = ns_list(inactive - 1, CLONE_NEWNET, 0, ids, MAXIDS);
	close(fd);
	if (n < 0 && n != -ENOENT)
		return child_fail("listns(CLONE_NEWNET) after id %llu: %s",
				  (unsigned long long)inactive - 1, strerror(-n));
	if (n < 0 || !has(ids, n, ours))
		return child_fail("listns(CLONE_NEWNET) from just before an inactive namespace "
				  "(%llu) ended there: %ld ids, our namespace %llu not among them",
				  (unsigned long long)inactive, n < 0 ? 0 : n,
				  (unsigned long long)ours);
	return 0;
}

/*
 * listns() lists the active namespaces with ids after the cursor; one that
 * is inactive (no task in it and no file of it open, held only by a
 * socket created in it) is passed
 * over, and the listing goes on to the later ones (listns(2) uapi; fix
 * "nstree: don't end listns() at an inactive namespace", Debian 7.3.4:
 * before it the listing ended at the first inactive namespace it met, so
 * a caller paging from the last id it got missed every later namespace).
 * Both sides: the listing that starts after the inactive namespace.
 */
TEST(listns_goes_on_past_an_inactive_namespace)
{
	int rc;

	NS_NEED(NS_F_LISTNS);
	NS_NEED_ADMIN_OR_USERNS();
	rc = ns_run_admin(0, inactive_worker, NULL);
	ASSERT_EQ(0, rc);
}

TEST_HARNESS_MAIN
