#!/bin/sh
# The QEMU matrix on the oldest (5.10) and the newest 7.x kernel, in
# parallel: every case binary has TAP in both passes of both guests, a
# failing case fails on every kernel, a hanging case costs one timeout and
# the next case still runs, and each kernel gets its log, QEMU command line,
# namespace CONFIG_* lines, timings and meta.  An unknown kernel named with
# them is a one-line error before anything boots (vm-errors.t has more).
. "$(dirname "$0")/../lib.sh"
plan 42

set -- --case "$selftest/failing" --case "$selftest/hangs"
for c in "$top"/build/cases/*; do
	[ -x "$c" ] && [ -f "$c" ] && set -- "$@" --case "$c"
done
ncases=$(( $# / 2 ))
start=$(date +%s)
"$top/harness/matrix" --results "$scratch/r" --run-id m --timeout 10 "$@" 5.10 7 \
	> "$scratch/out" 2> "$scratch/err"
is "a failing case makes the matrix exit 1" $? 1
echo "# matrix took $(( $(date +%s) - start )) s"
"$top/harness/matrix" --results "$scratch/r" --run-id u "$@" 5.10 7 9.9 \
	> "$scratch/out-u" 2> "$scratch/err-u"
like "an unknown kernel is one error line naming it, before any boot" "$scratch/err-u" \
	"^harness/matrix: unknown kernel version '9\.9'"
like "a summary per pass and kernel" "$scratch/out" '^nsconform report: 5\.10\.[^ ]* user: '

for asked in 5.10 7; do
	meta=$(grep -l "^asked=$asked\$" "$scratch"/r/m/*/meta | head -n 1)
	kd=${meta%/meta}
	krel=${kd##*/}
	kre=$(printf '%s' "$krel" | sed 's/[.+]/\\&/g')
	[ -n "$meta" ] || meta=/nonexistent
	echo "# $asked -> $krel"
	like "$asked: meta says where it ran" "$meta" '^where=qemu-(tcg|kvm)$'
	like "$asked: meta names the release the guest reported" "$meta" "^kernel=$kre\$"
	like "$asked: a failing case is a failure, not a crash" "$meta" '^status=failed$'
	like "$asked: veth was loaded in the guest" "$meta" '^modules_loaded=.*veth'
	like "$asked: the kernel log is kept" "$kd/klog" 'reboot: Power down'
	like "$asked: the QEMU command line is kept" "$kd/qemu.cmdline" '-serial .*-serial '
	like "$asked: namespace CONFIG_* lines are kept" "$kd/config-ns" '^CONFIG_USER_NS=y'
	like "$asked: timings are kept" "$kd/timings" '^guest_wall_ms=[0-9]+'
	like "$asked: one line for the kernel at the end" "$scratch/out" \
		"^nsconform: $kre \(qemu-(tcg|kvm)\): root FAIL, user FAIL"
	for pass in root user; do
		n=$(ls "$kd/$pass"/*.tap 2>/dev/null | wc -l)
		is "$asked $pass: every case binary has its TAP" "$n" "$ncases"
		like "$asked $pass: the failing case fails" "$kd/$pass/failing.tap" \
			'^not ok 2 global\.fails'
		like "$asked $pass: the hanging case is not ok # TIMEOUT" "$kd/$pass/hangs.tap" \
			'^not ok 3 global\.blocks_in_wait # TIMEOUT'
		like "$asked $pass: the case after the hang still ran and passed" \
			"$kd/$pass/uts.tap" \
			'^ok [0-9]+ global\.'
		unlike "$asked $pass: uts has no failure" "$kd/$pass/uts.tap" '^not ok'
	done
done
meta=$(grep -l '^asked=7$' "$scratch"/r/m/*/meta | head -n 1)
like "7.x comes from linux-binary + linux-modules" "${meta:-/nonexistent}" '^kernel_layout=binary$'
done_testing
