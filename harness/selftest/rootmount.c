// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: what a case sees of "/" where nsrun ran it (chroot.t): in a
 * mount namespace of its own, can it make "/" private (only the root of a
 * mount can be), and may it create a user namespace (a chrooted process
 * may not: EPERM)?
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(void)
{
	int priv;

	printf("TAP version 13\n1..1\n");
	if (unshare(CLONE_NEWNS)) {
		printf("not ok 1 root_is_a_mount # unshare(CLONE_NEWNS): %s\n", strerror(errno));
		return 1;
	}
	priv = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ? errno : 0;
	printf("# userns: %s\n", unshare(CLONE_NEWUSER) ? strerror(errno) : "created");
	printf("%sok 1 root_is_a_mount # make / private: %s\n", priv ? "not " : "",
	       priv ? strerror(priv) : "done");
	return priv != 0;
}
