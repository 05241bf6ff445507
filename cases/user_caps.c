// SPDX-License-Identifier: GPL-2.0
/*
 * User namespaces: credentials and capabilities.  Ids a namespace does not
 * map cannot be taken or used to create a namespace; capabilities in a
 * user namespace act only on what that namespace owns, never on the
 * initial namespace's clock, devices, modules or sysctls; a new user
 * namespace resets the securebits, which still apply to execve() inside
 * (user_namespaces(7) "Capabilities", "Effect of
 * capabilities within a user namespace", "Interaction of user namespaces
 * and other types of namespaces", capabilities(7), article part 5).
 *
 * Each test runs in a child that gave up every privilege first
 * (ns_run_unpriv()), in both passes, and works as root of a user
 * namespace "A" that maps only that unprivileged id.  Nothing here can
 * change the host even on a kernel that wrongly allows it: every refused
 * operation would write back the value it read.  Network devices and
 * sysctls of a foreign netns are the net_rules case's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <linux/securebits.h>
#include <unistd.h>

#include "nsconform.h"
#include "user.h"
#include "kselftest_harness.h"

/* @rc (a system call's result) must be -1 with errno @err. */
static int expect_errno(long rc, int err, const char *what)
{
	if (rc == -1 && errno == err)
		return 0;
	return child_fail("%s: %s, expected %s", what, rc == -1 ? strerror(errno) : "success",
			  strerror(err));
}

/* --- ids ------------------------------------------------------------------ */

static int setid_unmapped(void *arg)
{
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	rc |= expect_errno(setuid(1), EINVAL, "setuid(1), unmapped");
	rc |= expect_errno(setgid(1), EINVAL, "setgid(1), unmapped");
	rc |= expect_errno(setresuid(-1, 1, -1), EINVAL, "setresuid(-1, 1, -1), unmapped");
	rc |= expect_errno(setreuid(1, -1), EINVAL, "setreuid(1, -1), unmapped");
	if (getuid() != 0 || geteuid() != 0 || getgid() != 0)
		rc = child_fail("ids changed to %u/%u:%u", getuid(), geteuid(), getgid());
	/* The mapped id is fine, with CAP_SETUID. */
	if (setuid(0) || setgid(0))
		rc = child_fail("setuid(0)/setgid(0), mapped: %m");
	return rc;
}

/*
 * setuid()/setgid() and their relatives to an id the user namespace does not map fail with EINVAL,
 * with CAP_SETUID/CAP_SETGID (user_namespaces(7), setuid(2)).
 */
TEST(setuid_to_unmapped_id_einval)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(setid_unmapped, NULL));
}

static int ids_before_maps(void *arg)
{
	uid_t uid = geteuid();
	long ouid, ogid;
	char buf[32];
	int rc = 0, err;

	(void)arg;
	if (ns_read_long("/proc/sys/kernel/overflowuid", &ouid) ||
	    ns_read_long("/proc/sys/kernel/overflowgid", &ogid))
		return child_fail("read overflowuid/gid: %m");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (!ns_caps_all_effective())
		return child_fail("not every capability in the new user namespace");
	if (ns_read_file("/proc/self/setgroups", buf, sizeof(buf)) < 0 || strcmp(buf, "allow\n"))
		return child_fail("setgroups is not \"allow\" in the new namespace");
	/* Every id is unmapped, 0 and the overflow id the process reads as. */
	rc |= expect_errno(setuid(0), EINVAL, "setuid(0), no uid_map");
	rc |= expect_errno(setuid(ouid), EINVAL, "setuid(own overflow uid), no uid_map");
	rc |= expect_errno(setresuid(0, 0, 0), EINVAL, "setresuid(0, 0, 0), no uid_map");
	rc |= expect_errno(setreuid(-1, 0), EINVAL, "setreuid(-1, 0), no uid_map");
	rc |= expect_errno(setgid(0), EINVAL, "setgid(0), no gid_map");
	rc |= expect_errno(setresgid(0, 0, 0), EINVAL, "setresgid(0, 0, 0), no gid_map");
	rc |= expect_errno(setgroups(0, NULL), EPERM, "setgroups(0, NULL), no gid_map");
	/* setfs[ug]id() report no error: the old value, unchanged. */
	if (setfsuid(0) != (int)ouid || setfsuid(0) != (int)ouid)
		rc = child_fail("setfsuid(0) changed the fsuid without a uid_map");
	if (setfsgid(0) != (int)ogid || setfsgid(0) != (int)ogid)
		rc = child_fail("setfsgid(0) changed the fsgid without a gid_map");
	if (getuid() != (uid_t)ouid || getgid() != (gid_t)ogid)
		rc = child_fail("ids changed to %u:%u", getuid(), getgid());
	/* Control: with the uid_map written, setuid(0) works. */
	snprintf(buf, sizeof(buf), "0 %u 1\n", uid);
	err = ns_write_proc(0, "uid_map", buf);
	if (err) {
		errno = -err;
		return child_fail("write uid_map '0 %u 1': %m", uid);
	}
	if (setuid(0))
		rc = child_fail("setuid(0) with 0 mapped: %m");
	return rc;
}

/*
 * Before uid_map (gid_map) is written every call that changes user (group) ids fails: EINVAL,
 * setfs[ug]id() change nothing, setgroups(2) is EPERM even with "allow" (user_namespaces(7)).
 *
 * The process has every capability in the namespace; its own overflow ids
 * are refused as well as 0.
 */
TEST(id_changes_fail_before_maps_written)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(ids_before_maps, NULL));
}

static int create_from_unmapped(void *arg)
{
	char line[32];
	int rc = 0;
	uid_t uid = geteuid();

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	/* Neither euid nor egid has a mapping here. */
	rc |= expect_errno(unshare(CLONE_NEWUSER), EPERM, "unshare(CLONE_NEWUSER), unmapped euid");
	/* The euid mapped, the egid not yet. */
	snprintf(line, sizeof(line), "0 %u 1\n", uid);
	if (ns_write_proc(0, "uid_map", line))
		return child_fail("write uid_map: %m");
	rc |= expect_errno(unshare(CLONE_NEWUSER), EPERM, "unshare(CLONE_NEWUSER), unmapped egid");
	return rc;
}

static int create_mapped(void *arg)
{
	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER) with euid and egid mapped: %m");
	return 0;
}

static int create_checks(void *arg)
{
	return ns_run(0, create_from_unmapped, arg) | ns_run(0, create_mapped, arg);
}

/*
 * A process whose euid or egid has no mapping in its user namespace cannot create a user namespace:
 * EPERM; with both mapped it can (user_namespaces(7), unshare(2)).
 */
TEST(unmapped_euid_or_egid_creates_no_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(create_checks, NULL));
}

/* --- files ----------------------------------------------------------------- */

static int read_as_b(void *arg)
{
	const char *path = arg;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EACCES ? 10 : child_fail("open %s: %m", path);
}

/* Run read_as_b() in a child namespace B of A mapping A's uid 0, gid 0 only when @gid. */
static int b_reads(const char *path, bool gid)
{
	pid_t pid;
	int err;

	pid = ns_clone(CLONE_NEWUSER);
	if (pid < 0)
		return child_fail("clone B: %m");
	if (pid == 0) {
		err = ns_write_proc(0, "uid_map", "0 0 1\n");
		if (!err && gid)
			err = ns_write_proc(0, "gid_map", "0 0 1\n");
		if (err) {
			errno = -err;
			_exit(child_fail("B's maps: %m"));
		}
		_exit(read_as_b((void *)path));
	}
	return ns_wait(pid, NS_WAIT_MS);
}

static int dac_override(void *arg)
{
	char dir[] = "/tmp/nsconform-caps-XXXXXX", path[64];
	int fd, rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("new user namespace: %m");
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	if (!mkdtemp(dir))
		return child_fail("mkdtemp: %m");
	snprintf(path, sizeof(path), "%s/secret", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return child_fail("create %s: %m", path);
	close(fd);
	/* Ours (A's 0:0), mode 000: root of B opens it only through CAP_DAC_OVERRIDE. */
	if (b_reads(path, true) != 0)
		rc = child_fail("B with uid and gid mapped could not open the mode 000 file");
	if (b_reads(path, false) != 10)
		rc = child_fail("B without a gid mapping was not refused with EACCES");
	return rc;
}

/*
 * CAP_DAC_OVERRIDE in a user namespace applies to a file only when both its owner and group are
 * mapped there; otherwise EACCES (user_namespaces(7), capabilities(7)).
 */
TEST(dac_override_needs_owner_and_group_mapped)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(dac_override, NULL));
}

/* --- what capabilities in a user namespace do not reach --------------- */

static int no_clock(void *arg)
{
	/*
	 * tick 0 is outside the +-10% the kernel accepts: with the capability
	 * in the initial namespace adjtimex() answers EINVAL and changes
	 * nothing, so a kernel ignoring the boundary cannot touch the clock.
	 */
	struct timex tx = { .modes = ADJ_TICK, .tick = 0 };
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (!ns_cap_effective(CAP_SYS_TIME))
		return child_fail("no CAP_SYS_TIME in A to begin with");
	rc |= expect_errno(adjtimex(&tx), EPERM, "adjtimex(ADJ_TICK) in A");
	return rc;
}

/*
 * CAP_SYS_TIME in a user namespace does not allow setting the system clock (owned by the initial
 * namespace): EPERM (user_namespaces(7)).
 *
 * adjtimex(2) with ADJ_TICK checks CAP_SYS_TIME in the initial user
 * namespace before it checks the value: EPERM for root of a user
 * namespace, where real root would get EINVAL for tick 0.
 */
TEST(settime_eperm_with_cap_sys_time_in_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(no_clock, NULL));
}

static int no_mknod(void *arg)
{
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS))
		return child_fail("new user namespace: %m");
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	rc |= expect_errno(mknod("/tmp/null", S_IFCHR | 0600, makedev(1, 3)), EPERM,
			   "mknod char device 1:3 in A");
	rc |= expect_errno(mknod("/tmp/loop", S_IFBLK | 0600, makedev(7, 0)), EPERM,
			   "mknod block device 7:0 in A");
	/* Not devices: allowed. */
	if (mknod("/tmp/fifo", S_IFIFO | 0600, 0) || mknod("/tmp/file", S_IFREG | 0600, 0))
		rc = child_fail("mknod of a FIFO and a regular file in A: %m");
	return rc;
}

/*
 * CAP_MKNOD in a user namespace does not allow creating device nodes: EPERM, while FIFOs and
 * regular files work (user_namespaces(7), mknod(2)).
 */
TEST(mknod_device_eperm_with_cap_mknod_in_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(no_mknod, NULL));
}

static int no_modules(void *arg)
{
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (syscall(SYS_delete_module, "nsconform_no_such_module", 0) == -1 && errno == ENOSYS)
		return NS_CHILD_SKIP;
	/* The capability check comes first: EPERM, not EBADF or ENOENT. */
	rc |= expect_errno(syscall(SYS_finit_module, -1, "", 0), EPERM, "finit_module(-1)");
	rc |= expect_errno(syscall(SYS_init_module, NULL, 0, ""), EPERM, "init_module(NULL)");
	rc |= expect_errno(syscall(SYS_delete_module, "nsconform_no_such_module", 0), EPERM,
			   "delete_module(no such module)");
	return rc;
}

/*
 * CAP_SYS_MODULE in a user namespace does not allow loading or removing kernel modules: EPERM
 * before any argument is looked at (user_namespaces(7)).
 */
TEST(module_syscalls_eperm_with_cap_sys_module_in_userns)
{
	int rc;

	NS_NEED_UNPRIV_USERNS();
	rc = ns_run_unpriv(no_modules, NULL);
	NS_NEED_FEATURE(NS_F_MODULES, rc == NS_CHILD_SKIP);
	ASSERT_EQ(0, rc);
}

/* Open @path for writing: 0, or the errno. */
static int open_w(const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int own_netns_sysctl(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWNET))
		return child_fail("unshare(CLONE_NEWNET) in A: %m");
	return open_w("/proc/sys/net/ipv4/ip_forward") ?
	       child_fail("open ip_forward of A's own netns for writing: %m") : 0;
}

static int no_sysctls(void *arg)
{
	static const char *const global[] = {
		"/proc/sys/vm/swappiness",
		"/proc/sys/fs/file-max",
		"/proc/sys/kernel/overflowuid",
		"/proc/sys/kernel/threads-max",
	};
	int rc = 0, err;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	for (size_t i = 0; i < sizeof(global) / sizeof(global[0]); i++) {
		err = open_w(global[i]);
		if (err != EACCES)
			rc = child_fail("open %s for writing in A: %s, expected EACCES", global[i],
					err ? strerror(err) : "success");
	}
	/* Control: the same root may write the sysctls of a netns A owns. */
	if (ns_run(0, own_netns_sysctl, NULL))
		rc = 1;
	return rc;
}

/*
 * Root of a user namespace cannot write global sysctls or those of the initial namespaces (EACCES),
 * but can write those of a namespace its user namespace owns (user_namespaces(7), proc(5)).
 */
TEST(initial_sysctls_not_writable_from_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(no_sysctls, NULL));
}

/* --- mounts ------------------------------------------------------------------- */

struct userns_fs {
	const char *type, *options;
	enum ns_feature f;	/* its row in the feature table */
	unsigned long magic;	/* statfs() f_type */
	int err;		/* what mount(2) gives root of a user namespace */
};

static const struct userns_fs userns_fss[] = {
	{ "devpts", "newinstance,ptmxmode=0666", NS_F_DEVPTS_FS, 0x1cd1, 0 },
	{ "ramfs", NULL, NS_F_RAMFS, 0x858458f6, 0 },
	{ "bpf", NULL, NS_F_BPF_FS, 0xcafe4a11, EPERM },
};

/* Is @type in /proc/filesystems? */
static bool fs_registered(const char *type)
{
	char buf[4096], want[32];

	snprintf(want, sizeof(want), "\t%s\n", type);
	return ns_read_file("/proc/filesystems", buf, sizeof(buf)) > 0 && strstr(buf, want);
}

static int mount_fss(void *arg)
{
	char dir[64];
	struct statfs st;
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(CLONE_NEWNS) || ns_private_tmp(NS_PRIVATE_TMP_OPTS))
		return 1;
	for (size_t i = 0; i < sizeof(userns_fss) / sizeof(userns_fss[0]); i++) {
		const struct userns_fs *f = &userns_fss[i];

		snprintf(dir, sizeof(dir), "/tmp/%s", f->type);
		if (mkdir(dir, 0755))
			return child_fail("mkdir %s: %m", dir);
		if (mount("nsconform", dir, f->type, MS_NOSUID | MS_NODEV | MS_NOEXEC, f->options)) {
			if (errno != f->err)
				rc = child_fail("mount -t %s as root of a user namespace: %m, "
						"expected %s", f->type,
						f->err ? strerror(f->err) : "success");
		} else if (f->err) {
			rc = child_fail("mount -t %s as root of a user namespace: success, "
					"expected %s", f->type, strerror(f->err));
		} else if (statfs(dir, &st) || (unsigned long)st.f_type != f->magic) {
			rc = child_fail("%s is not a %s mount (f_type %#lx)", dir, f->type,
					(unsigned long)st.f_type);
		}
	}
	return rc;
}

/*
 * CAP_SYS_ADMIN in the user namespace owning the mount namespace allows mounting devpts and ramfs
 * (3.9), but not the bpf filesystem: EPERM (user_namespaces(7)).
 *
 * The page lists bpf "since Linux 4.4"; linux:e27f4a942a0e ("bpf: Use
 * mount_nodev not mount_ns to mount the bpf filesystem", 4.4) took
 * FS_USERNS_MOUNT away before any release had it, and since 6.9 (BPF
 * tokens) bpf_fill_super() refuses root of a user namespace without
 * CAP_SYS_ADMIN in the initial one: EPERM on every kernel (README).  The
 * page's other types have their cases: proc (pid_proc), sysfs (net_rules),
 * tmpfs (every mount test), mqueue (ipc, ipc_owner), cgroup (cgroup);
 * overlayfs (5.11) is not checked.
 */
TEST(userns_root_mounts_devpts_and_ramfs_not_bpf)
{
	for (size_t i = 0; i < sizeof(userns_fss) / sizeof(userns_fss[0]); i++)
		NS_NEED_FEATURE(userns_fss[i].f, !fs_registered(userns_fss[i].type));
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(mount_fss, NULL));
}

/* --- securebits -------------------------------------------------------------- */

#define SOME_BITS (SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP | SECBIT_NOROOT)

static int bits_of_child(void *arg)
{
	long want = *(long *)arg, got = prctl(PR_GET_SECUREBITS);

	if (got != want)
		return child_fail("securebits %#lx, expected %#lx", got, want);
	return ns_caps_all_effective() ? 0 : child_fail("not every capability");
}

static int bits_reset(void *arg)
{
	long want = SOME_BITS, none = 0;
	int rc = 0;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (prctl(PR_SET_SECUREBITS, SOME_BITS))
		return child_fail("PR_SET_SECUREBITS in A: %m");
	/* fork/clone without CLONE_NEWUSER: inherited. */
	if (ns_run(0, bits_of_child, &want))
		rc = child_fail("child in the same user namespace");
	/* clone(CLONE_NEWUSER) and unshare(CLONE_NEWUSER): reset. */
	if (ns_run(CLONE_NEWUSER, bits_of_child, &none))
		rc = child_fail("child made by clone(CLONE_NEWUSER)");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (bits_of_child(&none))
		rc = child_fail("after unshare(CLONE_NEWUSER)");
	return rc;
}

/*
 * Securebits pass to children in the same user namespace; creating a user namespace (clone or
 * unshare) resets them to 0, with every capability (user_namespaces(7)).
 */
TEST(securebits_reset_by_new_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(bits_reset, NULL));
}

static int bits_setns(void *arg)
{
	int a_fd, b_fd, rc = 0;
	long none = 0;
	struct userns_peer b;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (userns_peer_start(&b, 0))
		return child_fail("start B: %m");
	a_fd = ns_open(0, "user");
	b_fd = ns_open(b.pid, "user");
	if (a_fd < 0 || b_fd < 0) {
		rc = child_fail("open the user namespaces of A and B");
	} else if (prctl(PR_SET_SECUREBITS, SOME_BITS)) {
		rc = child_fail("PR_SET_SECUREBITS in A: %m");
	} else if (setns(b_fd, CLONE_NEWUSER)) {
		rc = child_fail("setns() into B, a child of A: %m");
	} else {
		rc = bits_of_child(&none);
		/* No way back to A to keep its membership with the bits reset. */
		if (setns(a_fd, CLONE_NEWUSER) != -1 || errno != EPERM)
			rc = child_fail("setns() back into A: %m, expected EPERM");
	}
	if (a_fd >= 0)
		close(a_fd);
	if (b_fd >= 0)
		close(b_fd);
	if (userns_peer_stop(&b))
		rc = 1;
	return rc;
}

/*
 * setns(2) into another user namespace resets the securebits to 0, with every capability there,
 * and the caller cannot go back to its old namespace (EPERM) (user_namespaces(7)).
 */
TEST(securebits_reset_by_setns_into_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(bits_setns, NULL));
}

/* CapBnd, CapAmb and CapInh of /proc/self/status. */
static int cap_sets(unsigned long long *bnd, unsigned long long *amb, unsigned long long *inh)
{
	char buf[4096], *p, *q, *r;

	if (ns_read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nCapBnd:");
	q = strstr(buf, "\nCapAmb:");
	r = strstr(buf, "\nCapInh:");
	if (!p || !q || !r)
		return -1;
	*bnd = strtoull(p + 8, NULL, 16);
	*amb = strtoull(q + 8, NULL, 16);
	*inh = strtoull(r + 8, NULL, 16);
	return 0;
}

static int sets_reset(void *arg)
{
	unsigned long long bnd, amb, inh, full;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	if (cap_sets(&full, &amb, &inh))
		return child_fail("read CapBnd");
	/* In A: NET_RAW inheritable and ambient, SYS_BOOT out of the bounding set. */
	if (ns_cap_set(CAP_NET_RAW, CAP_INHERITABLE, true) ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0) ||
	    prctl(PR_CAPBSET_DROP, CAP_SYS_BOOT, 0, 0, 0))
		return child_fail("set up the capability sets in A: %m");
	if (cap_sets(&bnd, &amb, &inh) || bnd & USERNS_CAP_BIT(CAP_SYS_BOOT) ||
	    amb != USERNS_CAP_BIT(CAP_NET_RAW) || inh != USERNS_CAP_BIT(CAP_NET_RAW))
		return child_fail("A's sets not as set up");
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	if (cap_sets(&bnd, &amb, &inh))
		return child_fail("read the sets");
	if (bnd != full || amb != 0 || inh != 0)
		return child_fail("after unshare: CapBnd %llx (expected %llx), CapAmb %llx, "
				  "CapInh %llx (expected 0)", bnd, full, amb, inh);
	return ns_caps_all_effective() ? 0 : child_fail("not every capability effective");
}

/*
 * A new user namespace gives its first process full permitted, effective and bounding sets and
 * empty inheritable and ambient sets, whatever it had before (user_namespaces(7), capabilities(7)).
 */
TEST(new_userns_resets_bounding_inheritable_ambient)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(sets_reset, NULL));
}

static int noroot_exec(void *arg)
{
	unsigned long long bnd, amb, inh;
	struct userns_exec with, without;

	(void)arg;
	if (ns_unshare_userns_root(0))
		return child_fail("new user namespace: %m");
	/* Root's execve() gets exactly the bounding set (capabilities(7)). */
	if (cap_sets(&bnd, &amb, &inh))
		return child_fail("read CapBnd");
	if (userns_exec("/proc/self/exe", &without))
		return 1;
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT))
		return child_fail("PR_SET_SECUREBITS(SECBIT_NOROOT) in A: %m");
	if (userns_exec("/proc/self/exe", &with))
		return 1;
	if (without.uid != 0 || without.prm != bnd || without.eff != bnd)
		return child_fail("root in A without NOROOT: uid %u, CapPrm %llx CapEff %llx, "
				  "expected CapBnd %llx", without.uid, without.prm, without.eff, bnd);
	if (with.uid != 0 || with.prm != 0 || with.eff != 0)
		return child_fail("root in A with NOROOT: uid %u, CapPrm %llx CapEff %llx, "
				  "expected none", with.uid, with.prm, with.eff);
	return 0;
}

/*
 * Securebits set inside a user namespace govern execve() there: with SECBIT_NOROOT, root of the
 * namespace gets no capabilities from execve() (user_namespaces(7), capabilities(7)).
 */
TEST(securebits_noroot_applies_to_execve_in_userns)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(noroot_exec, NULL));
}

static int ambient_exec(void *arg)
{
	struct userns_exec plain, ambient;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int err;

	(void)arg;
	if (unshare(CLONE_NEWUSER))
		return child_fail("unshare(CLONE_NEWUSER): %m");
	/* Our own ids at inside 5: a non-zero uid with every capability. */
	err = ns_map_at(0, 5, uid, gid);
	if (err) {
		errno = -err;
		return child_fail("map our ids to 5: %m");
	}
	if (getuid() != 5 || !ns_caps_all_effective())
		return child_fail("not uid 5 with every capability after the maps");
	if (userns_exec("/proc/self/exe", &plain))
		return 1;
	if (ns_cap_set(CAP_NET_RAW, CAP_INHERITABLE, true) ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0))
		return child_fail("raise CAP_NET_RAW in the ambient set: %m");
	if (userns_exec("/proc/self/exe", &ambient))
		return 1;
	if (plain.uid != 5 || plain.prm != 0 || plain.eff != 0)
		return child_fail("uid 5, no ambient set: uid %u, CapPrm %llx CapEff %llx after "
				  "execve, expected none", plain.uid, plain.prm, plain.eff);
	if (ambient.uid != 5 || ambient.prm != USERNS_CAP_BIT(CAP_NET_RAW) ||
	    ambient.eff != USERNS_CAP_BIT(CAP_NET_RAW))
		return child_fail("uid 5, CAP_NET_RAW ambient: uid %u, CapPrm %llx CapEff %llx "
				  "after execve, expected %llx", ambient.uid, ambient.prm,
				  ambient.eff, USERNS_CAP_BIT(CAP_NET_RAW));
	return 0;
}

/*
 * A non-zero uid of a user namespace keeps across execve() of a plain program exactly the
 * capabilities of its ambient set, and no other (capabilities(7), user_namespaces(7)).
 *
 * user_namespaces(7) says such a process loses every capability unless the
 * file has an inheritable mask; capabilities(7) adds the ambient set (4.3),
 * which the kernel honours inside a user namespace as outside.
 */
TEST(ambient_caps_kept_across_execve_by_nonzero_uid)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(ambient_exec, NULL));
}

/* The holder of B2: nobody, root of B1 (its child) and of B2 (B1's child) with a UTS ns of B2. */
static int nested_as_nobody(void *arg)
{
	(void)arg;
	if (ns_become_nobody())
		return child_fail("become nobody: %m");
	if (ns_unshare_userns_root(0))
		return child_fail("B1: %m");
	if (ns_unshare_userns_root(CLONE_NEWUTS))
		return child_fail("B2 with a UTS namespace: %m");
	return 0;
}

/* Real root, in the initial user namespace: set the name of B2's UTS namespace. */
static int ancestor_sets_name(void *arg)
{
	pid_t holder = *(pid_t *)arg;
	const char *name = "nsc-ancestor";
	struct utsname u;
	uid_t owner = 0;
	int fd, ufd;

	fd = ns_open(holder, "uts");
	ufd = ns_open(holder, "user");
	if (fd < 0 || ufd < 0)
		return child_fail("open the holder's uts/user links: %s",
				  strerror(fd < 0 ? -fd : -ufd));
	/* not the owner rule: B2's owner is nobody, we are uid 0 */
	if (ioctl(ufd, NS_GET_OWNER_UID, &owner) || owner != ns_nobody_uid())
		return child_fail("B2's owner uid is %u (%m), expected %u", owner, ns_nobody_uid());
	close(ufd);
	if (setns(fd, CLONE_NEWUTS))
		return child_fail("setns into B2's UTS namespace: %m");
	close(fd);
	/* never set a name unless we really are in B2's UTS namespace */
	if (ns_same_as_self(holder, "uts") != 1)
		return child_fail("setns returned 0, not in B2's UTS namespace");
	if (sethostname(name, strlen(name)))
		return child_fail("sethostname with CAP_SYS_ADMIN in an ancestor: %m");
	if (uname(&u) || strcmp(u.nodename, name))
		return child_fail("hostname is '%s' after sethostname", u.nodename);
	/* the other side: the same process without the capability effective */
	if (ns_cap_set(CAP_SYS_ADMIN, CAP_EFFECTIVE, false))
		return child_fail("drop CAP_SYS_ADMIN: %m");
	if (sethostname("nsc-refused", 11) == 0 || errno != EPERM)
		return child_fail("sethostname without CAP_SYS_ADMIN: %m, expected EPERM");
	return 0;
}

/*
 * A process with a capability in a user namespace has it in every
 * descendant: real root, CAP_SYS_ADMIN effective in the initial user
 * namespace, sets the hostname of a UTS namespace owned by B2, a
 * grandchild user namespace whose owner is nobody (so the owner rule does
 * not apply); with CAP_SYS_ADMIN dropped from its effective set it is
 * refused with EPERM (user_namespaces(7) "Capabilities": "If a process has
 * a capability in a user namespace, then it has that capability in all
 * child (and further removed descendant) namespaces as well").  Real root:
 * unprivileged, every user namespace has the one uid we run as for owner,
 * so B1's owner would be the writer's euid and the owner rule would let the
 * write through without the capability.
 */
TEST(capability_in_ancestor_userns_covers_descendants)
{
	struct ns_holder h = { .plain = true, .setup = nested_as_nobody };

	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_have_sys_admin());
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_holder_begin(&h));
	EXPECT_EQ(0, ns_run(0, ancestor_sets_name, &h.pid));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* A child that makes itself non-dumpable, then waits for a byte or EOF. */
static pid_t nondumpable_child(struct ns_sync *s)
{
	pid_t pid = ns_clone_synced(ns_clone, 0, s);

	if (pid == 0) {
		char ok = !prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

		ns_sync_tell(s, true, &ok, 1);
		ns_sync_wait(s, true, NULL, 1, 3 * NS_WAIT_MS);
		_exit(0);
	}
	return pid;
}

static int root_file_refused(void *arg)
{
	char path[64], buf[8];
	struct ns_sync s;
	struct stat st;
	int fd, rc = 0;
	char ok = 0;
	pid_t t;

	(void)arg;
	t = nondumpable_child(&s);
	if (t < 0)
		return child_fail("fork: %m");
	if (ns_sync_wait(&s, false, &ok, 1, NS_WAIT_MS) || !ok) {
		rc = child_fail("the child did not become non-dumpable");
		goto out;
	}
	/* proc(5): the files of a non-dumpable process are owned by root */
	snprintf(path, sizeof(path), "/proc/%d/personality", t);
	if (stat(path, &st) || st.st_uid != 0 || st.st_gid != 0 || (st.st_mode & 07777) != 0400) {
		rc = child_fail("%s: %u:%u mode %o (%m), expected real root's 0:0 0400", path,
				st.st_uid, st.st_gid, st.st_mode & 07777);
		goto out;
	}
	/* root of a user namespace whose root is us: every capability there */
	if (ns_unshare_userns_root(CLONE_NEWNS)) {
		rc = child_fail("new user and mount namespaces: %m");
		goto out;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES) {
		rc = child_fail("root of a user namespace opened real root's 0400 %s: %s", path,
				fd >= 0 ? "opened" : strerror(errno));
		goto out;
	}
	/* the other side: CAP_DAC_OVERRIDE works on a file of a mapped owner */
	if (ns_private_tmp(NS_PRIVATE_TMP_OPTS)) {
		rc = 1;
		goto out;
	}
	fd = open("/tmp/mine-0000", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0 || fchmod(fd, 0)) {
		rc = child_fail("create /tmp/mine-0000: %m");
		goto out;
	}
	close(fd);
	fd = open("/tmp/mine-0000", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != 0)
		rc = child_fail("open and read a mode 000 file of the mapped owner: %m");
	if (fd >= 0)
		close(fd);
out:
	ns_sync_tell(&s, false, NULL, 0);
	ns_sync_close(&s);
	if (ns_wait(t, NS_WAIT_MS) && !rc)
		rc = child_fail("the non-dumpable child failed");
	return rc;
}

/*
 * Root of a user namespace has no power over a file whose owner is not
 * mapped there: a file real root owns that others may not read opens with
 * EACCES, while a mode 000 file of the namespace's mapped root opens
 * through CAP_DAC_OVERRIDE (user_namespaces(7) "Capabilities": the
 * capability applies to a file only when its owner and group are mapped;
 * capabilities(7) CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH).  The file is
 * /proc/PID/personality (0400) of a non-dumpable process, which proc(5)
 * gives to real root: one no case can create otherwise without real root,
 * so both passes run the test.
 */
TEST(userns_root_refused_on_real_roots_file_eacces)
{
	NS_NEED_UNPRIV_USERNS();
	ASSERT_EQ(0, ns_run_unpriv(root_file_refused, NULL));
}

TEST_HARNESS_MAIN
