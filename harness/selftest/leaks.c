// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: a "case" that changes what it must not: it leaves a System V
 * segment and changes the hostname of the namespaces it was started in.
 * The hygiene self-test runs it only inside a throwaway sandbox.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

int main(void)
{
	const char *name = "nsconform-leaked";

	printf("TAP version 13\n1..2\n");
	printf("%sok 1 leaves_segment\n", shmget(IPC_PRIVATE, 4096, 0600) < 0 ? "not " : "");
	printf("%sok 2 changes_hostname\n", sethostname(name, strlen(name)) ? "not " : "");
	return 0;
}
