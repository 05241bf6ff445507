#!/bin/sh
# A distribution policy that restricts user namespaces is not a kernel
# failure: the tests that need one SKIP naming the knob, never FAIL.
#  - for real: user.max_user_namespaces=0, set in a user namespace of our
#    own (the limit counts there); and a chroot, which the kernel refuses
#    user namespaces to;
#  - simulated (NSCONFORM_SIMULATE_POLICY steers the probe in fixtures/):
#    the knobs this machine does not have.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ] || ! unshare --user --map-root-user true 2>/dev/null; then
	echo "1..0 # SKIP needs root and user namespaces"
	exit 0
fi
plan 9
# Every test of the user case needs a user namespace.
case=$top/build/cases/user
"$case" > "$scratch/plain" 2>&1
ntests=$(sed -n 's/^1\.\.//p' "$scratch/plain")

# nothing fails, and every one of the case's tests SKIPs with @why
verdicts() { # file why
	unlike "${1##*/}: nothing fails" "$1" '^not ok'
	skips=$(grep -c "^ok .* # SKIP $2\$" "$1")
	is "${1##*/}: all $ntests tests SKIP with '$2'" "$skips" "$ntests"
}

unshare --user --map-root-user --fork sh -c '
	echo 0 > /proc/sys/user/max_user_namespaces && exec "$1"
' sh "$case" > "$scratch/max" 2>&1
verdicts "$scratch/max" 'user namespaces blocked by user.max_user_namespaces=0'

mkdir -p "$scratch/root/proc"
cp "$case" "$scratch/root/case"
unshare --mount --fork sh -c '
	mount -t proc proc "$1/proc" && exec chroot "$1" /case
' sh "$scratch/root" > "$scratch/chroot" 2>&1
verdicts "$scratch/chroot" 'user namespaces refused: process is chrooted'

for knob in kernel.unprivileged_userns_clone=0 \
	    kernel.apparmor_restrict_unprivileged_userns=1; do
	NSCONFORM_SIMULATE_POLICY=$knob "$case" > "$scratch/$knob" 2>&1
	case $knob in
	*clone*) why='unprivileged user namespaces blocked by kernel.unprivileged_userns_clone=0' ;;
	*) why='unprivileged user namespaces restricted by '\
'kernel.apparmor_restrict_unprivileged_userns=1' ;;
	esac
	verdicts "$scratch/$knob" "$why"
done

# the simulation and the real limit give the same verdicts, line for line
NSCONFORM_SIMULATE_POLICY=user.max_user_namespaces=0 "$case" > "$scratch/sim" 2>&1
grep -E '^(not )?ok' "$scratch/max" > "$scratch/max.v"
grep -E '^(not )?ok' "$scratch/sim" > "$scratch/sim.v"
check "simulated max_user_namespaces=0 gives the real one's verdicts" \
	cmp "$scratch/max.v" "$scratch/sim.v"
done_testing
