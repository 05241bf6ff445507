#!/bin/sh
# Broken kernels under the QEMU matrix (5.10): a panic in the middle of a
# run is a crash with its log, keeps the results gathered before it and
# names the case that was running; a kernel command line that cannot start
# the initramfs is a crash, not a pass or a hang; the watchdog bounds a
# guest that never finishes.
. "$(dirname "$0")/../lib.sh"
plan 24

# A "case" that reports one result, then panics the guest kernel
# (writing c to /proc/sysrq-trigger needs no sysrq mask, only root).
cat > "$scratch/zpanic" <<'EOF'
#!/bin/sh
echo "TAP version 13"
echo "1..2"
echo "ok 1 global.before_panic"
echo "#  RUN           global.panics_kernel ..."
sleep 2	# let the serial port carry the lines above before the kernel dies
echo c > /proc/sysrq-trigger
echo "ok 2 global.panics_kernel"
EOF
chmod +x "$scratch/zpanic"

start=$(date +%s)
"$top/harness/matrix" --quiet --results "$scratch/r" --run-id panic --pass root --timeout 30 \
	--case "$top/build/cases/uts" --case "$scratch/zpanic" --case "$selftest/whoami" 5.10 \
	> "$scratch/out" 2>&1
is "a panicking kernel makes the matrix exit 1" $? 1
is "and costs no watchdog wait" "$(( $(date +%s) - start < 90 ))" 1
kd=$(dirname "$(ls "$scratch"/r/panic/*/meta)")
like "the run is marked crashed" "$kd/meta" '^status=crashed$'
like "the crash names the panic" "$kd/meta" '^crash=Kernel panic - not syncing'
like "the crash names the case that was running" "$kd/meta" '^crash_case=root/zpanic$'
like "the cases never reached are listed" "$kd/meta" '^not_run=root/whoami$'
like "the kernel log with the panic is kept" "$kd/klog" 'Kernel panic - not syncing'
like "results gathered before the crash are kept" "$kd/root/uts.tap" '^ok 1 '
like "the crashing case keeps what it reported" "$kd/root/zpanic.tap" '^ok 1 global\.before_panic'
unlike "its TAP is kept as the guest sent it" "$kd/root/zpanic.tap" '^not ok'
"$top/harness/report" --no-expectations --width 0 "$kd" > "$scratch/report" 2>&1
like "the reader names its running test as the crash" "$scratch/report" \
	'^zpanic/panics_kernel +CRASH'
like "and says why" "$scratch/report" \
	'CRASH .*zpanic/panics_kernel: CRASH the kernel crashed \(Kernel panic.*while this test ran'
like "the report names the crashed kernel" "$scratch/report" 'the kernel crashed: Kernel panic'
like "the summary line says CRASHED" "$scratch/out" 'root FAIL; CRASHED: Kernel panic'

# init that does not exist: the kernel cannot start the initramfs and panics.
"$top/harness/matrix" --quiet --results "$scratch/r" --run-id noinit \
	--append rdinit=/nonexistent --case "$top/build/cases/uts" 5.10 > "$scratch/out" 2>&1
is "a kernel that cannot start the initramfs makes the matrix exit 1" $? 1
like "it is an ERROR (could not be booted), not a crash" "$scratch/out" \
	'^nsconform: 5\.10: ERROR: .*Kernel panic.*guest runner never started'
kd=$(dirname "$(ls "$scratch"/r/noinit/*/meta)")
like "with its kernel log" "$kd/klog" 'Kernel panic - not syncing'
like "its meta says status=error" "$kd/meta" '^status=error$'
"$top/harness/report" --no-expectations --width 0 \
	--baseline "$scratch/r/panic" "$scratch/r/noinit" > "$scratch/cmp" 2>&1
is "a baseline where the kernel errored is a regression" $? 1
like "the regression names the kernel" "$scratch/cmp" '^REGRESSION .*5\.10\.[^ ]*/root uts/'

# A guest that does not finish in time is stopped by the watchdog.
# The bound is on the guest's own wall time (3 s, then 5 s to KILL): the
# matrix's whole time also counts building the initramfs, which on a loaded
# CI machine alone took longer than any fixed figure.
"$top/harness/matrix" --quiet --results "$scratch/r" --run-id wd --watchdog 3 \
	--case "$top/build/cases/uts" 5.10 > "$scratch/out" 2>&1
is "a guest stopped by the watchdog makes the matrix exit 1" $? 1
wall=$(sed -n 's/^guest_wall_ms=//p' "$scratch"/r/wd/*/timings)
is "the watchdog bounds the guest (${wall:-no} ms)" "$(( ${wall:-99999} < 10000 ))" 1
like "and is named as such" "$scratch/out" 'CRASHED: watchdog: guest did not finish within 3 s'
unlike "a crash that left cases unrun is never a known one" "$scratch/out" '\(known\)'
done_testing
