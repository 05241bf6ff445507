// SPDX-License-Identifier: GPL-2.0
/* Self-test: a case with one passing and one failing test. */
#include "kselftest_harness.h"

/* The harness reports a failing ASSERT as not ok. */
TEST(passes)
{
	ASSERT_EQ(1, 1);
}

/* Deliberately fails: make check must exit non-zero for this binary. */
TEST(fails)
{
	ASSERT_EQ(1, 2);
}

TEST_HARNESS_MAIN
