// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: run a command with one kernel feature taken away, as a kernel
 * that regressed it would answer.  A seccomp filter makes system call @nr
 * fail with @errno (only when its argument @argi equals @value, if given);
 * the command and everything it starts inherit the filter.
 *
 *   featgone NR ERRNO [ARGI VALUE] -- COMMAND [ARG...]
 *
 * harness/selftest/t/feature-missing.t takes SO_NETNS_COOKIE away
 * (getsockopt() with that option: ENOPROTOOPT) from a kernel released after
 * 5.14 and checks that the case reports "feature missing", not a SKIP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define ARG_LO(i) (offsetof(struct seccomp_data, args) + (i) * sizeof(__u64))

int main(int argc, char **argv)
{
	unsigned long nr, err, argi = 0, value = 0;
	bool match_arg = false;
	int cmd = 3;

	if (argc >= 7 && !strcmp(argv[5], "--")) {
		argi = strtoul(argv[3], NULL, 0);
		value = strtoul(argv[4], NULL, 0);
		match_arg = argi < 6;
		cmd = 6;
	} else if (argc >= 5 && !strcmp(argv[3], "--")) {
		cmd = 4;
	} else {
		fprintf(stderr, "usage: featgone NR ERRNO [ARGI VALUE] -- COMMAND [ARG...]\n");
		return 2;
	}
	nr = strtoul(argv[1], NULL, 0);
	err = strtoul(argv[2], NULL, 0);

	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(argi)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, match_arg ? 1 : 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (!match_arg)	/* any argument: the comparison falls through to ERRNO */
		f[6] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("featgone: seccomp");
		return 1;
	}
	execvp(argv[cmd], argv + cmd);
	perror("featgone: exec");
	return 127;
}
