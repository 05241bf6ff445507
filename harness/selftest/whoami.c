// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test: reports, as TAP diagnostics, the ids and capabilities the
 * runner gave the case, and the namespaces it runs in, so that the
 * self-tests can check what each pass really gets.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "nsconform.h"

int main(void)
{
	char status[8192], *line, cg[CGNS_PATH_MAX], dir[CGNS_PATH_MAX];
	struct cgns_mount m[CGNS_MOUNTS_MAX];
	int n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX);

	printf("TAP version 13\n1..1\n");
	if (ns_read_file("/proc/self/status", status, sizeof(status)) < 0)
		return 1;
	for (line = strtok(status, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4) ||
		    !strncmp(line, "Cap", 3) || !strncmp(line, "NSpid:", 6))
			printf("# %s\n", line);
	printf("# pid %d sys_admin %d none %d\n", getpid(), ns_have_sys_admin(),
	       ns_caps_none_effective());
	n = readlink("/proc/self/ns/pid", dir, sizeof(dir) - 1);
	printf("# pidns %s\n", n > 0 ? (dir[n] = '\0', dir) : "?");
	n = cgns_mounts(0, NULL, m, CGNS_MOUNTS_MAX);
	for (int i = 0; i < n; i++)
		if (!m[i].ctrl[0] && !cgns_path(0, "", cg) && !cgns_dir(&m[i], dir)) {
			printf("# cgroup %s writable %d\n", cg, !access(dir, W_OK));
			break;
		}
	printf("ok 1 whoami\n");
	return 0;
}
