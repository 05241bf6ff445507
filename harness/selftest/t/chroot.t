#!/bin/sh
# nsrun inside a chroot, where "/" is not a mount point: the case still gets
# its private mount namespace and /proc, in both passes, and nothing it
# mounts reaches the mount table outside the chroot, even when every mount
# there is shared (as on systemd hosts).  The chroot holds only the static
# nsrun and case binaries.  Everything happens in a mount namespace of the
# test's own (unshare), so the host's mount table never changes.
. "$(dirname "$0")/../lib.sh"
plan 13
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	for i in $(seq 13); do echo "ok $i # SKIP needs root and unshare -m"; done
	exit 0
fi
jail=$scratch/jail
mkdir -p "$jail/proc" "$jail/tmp" "$jail/cases"
cp "$nsrun" "$jail/nsrun"
cp "$selftest/whoami" "$selftest/rootmount" "$jail/cases/"
# in_jail CMD...: run CMD in the chroot, in a private mount namespace whose
# mounts are all shared again; the mount table outside the chroot is kept
# before and after in $scratch/outside.{before,after}.
in_jail() {
	unshare -m --propagation private sh -c '
		s=$1 j=$2; shift 2
		mount --make-rshared /
		awk "{ print \$5, \$9 }" /proc/self/mountinfo > "$s/outside.before"
		chroot "$j" "$@"
		rc=$?
		awk "{ print \$5, \$9 }" /proc/self/mountinfo > "$s/outside.after"
		exit $rc' in_jail "$scratch" "$jail" "$@"
}

in_jail /nsrun --pass root -- /cases/whoami > "$scratch/out" 2>&1
is "root pass in a chroot: the case runs" $? 0
unlike "root pass: no mount error" "$scratch/out" 'nsrun:'
like "root pass: in a PID namespace of its own with its /proc" \
	"$scratch/out" '^# NSpid:[[:space:]]+2$'
is "root pass: nothing propagated out of the chroot" \
	"$(diff "$scratch/outside.before" "$scratch/outside.after")" ""

in_jail /nsrun --pass user -- /cases/whoami > "$scratch/out" 2>&1
is "user pass in a chroot: the case runs" $? 0
like "user pass: as uid 65534" "$scratch/out" '^# Uid:[[:space:]]+65534[[:space:]]'
is "user pass: nothing propagated out of the chroot" \
	"$(diff "$scratch/outside.before" "$scratch/outside.after")" ""
is "the chroot's /proc is still an empty directory" "$(ls -A "$jail/proc")" ""

# In the chroot "/" is the root of a mount, as cases that make their mounts
# private need; the case is still chrooted: no user namespace (EPERM).
in_jail /nsrun --pass root -- /cases/rootmount > "$scratch/out" 2>&1
like "the case can make / private in its mount namespace" "$scratch/out" '^ok 1 root_is_a_mount'
like "the case is still chrooted: user namespaces refused" \
	"$scratch/out" '^# userns: Operation not permitted$'
is "nothing propagated out of the chroot" \
	"$(diff "$scratch/outside.before" "$scratch/outside.after")" ""

# A chroot without a /proc directory: one line saying why, no case run.
rmdir "$jail/proc"
in_jail /nsrun --pass root -- /cases/whoami > "$scratch/out" 2>&1
is "no /proc in the chroot: exit 125" $? 125
like "no /proc in the chroot: named" \
	"$scratch/out" '^nsrun: cannot mount a private /proc: No such file or directory$'
done_testing
