// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: a case that leaves a child which never exits (in a session of
 * its own, holding stdout) and then blocks forever in wait().  The runner
 * must turn it into one "not ok ... # TIMEOUT" and leave nothing behind.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* Runs before the hang, so its result must be kept. */
TEST(before_hang)
{
	ASSERT_EQ(0, 0);
}

/* Forks a child that escapes the process group and sleeps forever. */
TEST(leaves_child_behind)
{
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		setsid();
		for (;;)
			pause();
	}
}

/* Blocks in wait() on a child that never exits. */
TEST(blocks_in_wait)
{
	pid_t pid = fork();
	int status;

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		setsid();
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
}

/* Never reached before the runner's timeout. */
TEST(after_hang)
{
	ASSERT_EQ(0, 0);
}

TEST_HARNESS_MAIN
