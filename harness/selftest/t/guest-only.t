#!/bin/sh
# Guest-only case binaries (fixtures/data/guest-only; NSCONFORM_GUEST_ONLY
# names another list here): harness/check leaves them out, in one line each
# with the reason, and records them in meta (guest_only=); --with-guest-only
# runs them; a comparison with a run that has them does not call them
# missing; the guest's initramfs runs them last (LATE, after the others;
# GUEST_ONLY: harness/guest/init runs their passes in reverse order; a
# timeout=SECS of the list becomes TIMEOUT_CASE).
# Self-test binaries stand in for the cases: whoami is the guest-only one.
. "$(dirname "$0")/../lib.sh"
plan 19
printf '# binary  why\nwhoami  timeout=7  it hangs a kernel without the fix (self-test)\n' \
	> "$scratch/guest-only"
export NSCONFORM_GUEST_ONLY=$scratch/guest-only
pass=; [ "$(id -u)" = 0 ] || pass="--pass user"
# (--pass user only: the 32-bit passes need binaries the self-tests lack)
run() {	# run ID [OPTION...]: harness/check of whoami and failing
	id=$1
	shift
	"$top/harness/check" --results "$scratch/r" --run-id "$id" --no-hygiene --pass user \
		--timeout 5 "$@" "$selftest/whoami" "$selftest/failing" > "$scratch/$id.out" 2>&1
}

run host
like "the left-out binary, in one line with the reason" "$scratch/host.out" \
	'^nsconform: left out whoami \(guest-only, .*harness/matrix runs it\): it hangs a kernel '\
'without the fix \(self-test\)$'
is "exactly one such line" "$(grep -c 'left out' "$scratch/host.out")" 1
k=$(ls -d "$scratch"/r/host/*/ | head -n 1)
is "whoami did not run" "$(ls "$k/user" | grep -c whoami)" 0
is "failing did" "$(ls "$k/user" | grep -c '^failing\.tap$')" 1
like "meta names it" "$k/meta" '^guest_only=whoami$'

run asked --with-guest-only
k2=$(ls -d "$scratch"/r/asked/*/ | head -n 1)
is "--with-guest-only runs it" "$(ls "$k2/user" | grep -c '^whoami\.tap$')" 1
like "and says so" "$scratch/asked.out" '^nsconform: whoami is guest-only, run here as asked'

"$top/harness/check" --results "$scratch/r" --run-id only --no-hygiene --pass user \
	"$selftest/whoami" > "$scratch/only.out" 2>&1
is "only guest-only binaries: a usage error" $? 2

# The run that has whoami as the baseline of the one that left it out.
"$top/harness/report" --no-expectations --width 0 --baseline "$scratch/r/asked" \
	"$scratch/r/host" > "$scratch/cmp" 2>&1
unlike "a comparison does not call it missing" "$scratch/cmp" 'MISSING.*whoami'

# The guest: the guest-only binary goes last, in LATE.
if ! command -v cpio >/dev/null || ! /bin/busybox --list 2>/dev/null | grep -qx switch_root ||
   [ ! -x "$nsrun" ]; then
	for i in $(seq 10); do skip "needs cpio, busybox-static and build/harness/nsrun"; done
	done_testing
fi
kd=$scratch/kernel
mkdir -p "$kd/modules"
: > "$kd/modules/order"
"$top/harness/guest/mkinitramfs" "$scratch/i.cpio" "$kd" "$selftest/whoami" \
	"$selftest/failing" "$selftest/hangs" 2> "$scratch/mk.err"
is "mkinitramfs builds it" $? 0
(cd "$scratch" && mkdir x && cd x && cpio -id --quiet etc/nsconform.conf < ../i.cpio)
like "all three go in" "$scratch/x/etc/nsconform.conf" '^CASES="whoami failing hangs"$'
like "whoami runs last (LATE)" "$scratch/x/etc/nsconform.conf" '^LATE="whoami"$'
like "as a guest-only one (its passes in reverse)" "$scratch/x/etc/nsconform.conf" \
	'^GUEST_ONLY="whoami"$'
like "with its own timeout" "$scratch/x/etc/nsconform.conf" '^TIMEOUT_whoami=7$'
unlike "no other binary has one" "$scratch/x/etc/nsconform.conf" '^TIMEOUT_(failing|hangs)='
# Two guest-only binaries run in the order of the list (the one that can wedge a kernel last).
printf 'failing  it oopses\nwhoami  it wedges\n' > "$scratch/go2"
NSCONFORM_GUEST_ONLY=$scratch/go2 "$top/harness/guest/mkinitramfs" "$scratch/i2.cpio" "$kd" \
	"$selftest/whoami" "$selftest/failing" "$selftest/hangs" 2> "$scratch/mk.err"
(cd "$scratch" && mkdir x2 && cd x2 && cpio -id --quiet etc/nsconform.conf < ../i2.cpio)
like "two guest-only binaries run in the list's order" "$scratch/x2/etc/nsconform.conf" \
	'^LATE="failing whoami"$'

# A module harness/guest/modules names for two cases (ip6_vti: net_fixes_tunnel and the
# guest-only net_fixes_vti6) is loaded for each (harness/guest/init skips it the second time).
md=$scratch/mods
mkdir -p "$md/modules" "$md/cases"
echo ip6_vti > "$md/modules/order"
printf 'depends=\0' > "$md/modules/ip6_vti.ko"
for c in net_fixes_tunnel net_fixes_vti6; do cp "$selftest/whoami" "$md/cases/$c"; done
"$top/harness/guest/mkinitramfs" "$scratch/m.cpio" "$md" "$md/cases/net_fixes_tunnel" \
	"$md/cases/net_fixes_vti6" 2>> "$scratch/mk.err"
is "mkinitramfs builds the two" $? 0
(cd "$scratch" && mkdir y && cd y && cpio -id --quiet etc/nsconform.conf < ../m.cpio)
like "the module is loaded for the first" "$scratch/y/etc/nsconform.conf" \
	'^LATE_MODS_net_fixes_tunnel="ip6_vti"$'
like "and for the second" "$scratch/y/etc/nsconform.conf" '^LATE_MODS_net_fixes_vti6="ip6_vti"$'
done_testing
