// SPDX-License-Identifier: GPL-2.0
/* UTS namespaces: uts_namespaces(7), namespaces(7), the article's part 1-2. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

static int set_and_check(void *arg)
{
	struct utsname u;

	if (sethostname(arg, strlen(arg)))
		return child_fail("sethostname: %m");
	if (uname(&u))
		return child_fail("uname: %m");
	if (strcmp(u.nodename, arg))
		return child_fail("uname() says '%s', set '%s'", u.nodename, (char *)arg);
	return 0;
}

/* A hostname set in a new UTS namespace is seen inside, not outside (uts_namespaces(7)). */
TEST(hostname_set_inside_not_seen_outside)
{
	struct utsname before, after;
	char name[64];

	ASSERT_EQ(0, uname(&before));
	snprintf(name, sizeof(name), "nsconform-%d", getpid());
	ASSERT_EQ(0, ns_run_admin(CLONE_NEWUTS, set_and_check, name));
	ASSERT_EQ(0, uname(&after));
	EXPECT_STREQ(before.nodename, after.nodename);
}

TEST_HARNESS_MAIN
