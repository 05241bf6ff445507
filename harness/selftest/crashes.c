// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: a case binary that crashes half way through its plan (not in
 * a harness-protected test), as a broken kernel could make it.  The runner
 * must keep the results before the crash and fail the rest.
 */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("TAP version 13\n1..3\nok 1 before_crash\n#  RUN           global.crashing ...\n");
	fflush(stdout);
	raise(SIGSEGV);
	printf("ok 2 never\nok 3 never\n");
	return 0;
}
