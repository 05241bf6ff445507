// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: a case binary whose program crashes in user space with a
 * general protection fault (a write to a non-canonical address), which x86
 * kernels log as "traps: gpf[PID] general protection fault ... in gpf[...]".
 * First a child of it faults and test 1 passes; then the binary itself
 * faults in test 2.  A user program's crash is a failed test, never a
 * kernel problem: no KERNEL-HEALTH marker, no crashed guest.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void fault(void)
{
	*(volatile long *)(uintptr_t)0xdead000000000000ULL = 1;
}

int main(void)
{
	int status = 0;
	pid_t pid;

	printf("TAP version 13\n1..2\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fault();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 0;
	printf("%sok 1 global.child_faults\n",
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV ? "" : "not ");
	printf("#  RUN           global.faults ...\n");
	fflush(stdout);
	fault();
	printf("ok 2 global.faults\n");
	return 0;
}
