#!/bin/sh
# A user program that crashes in a guest (5.10, root pass) is a failed
# test, not a crashed kernel: the kernel logs "traps: gpf[PID] general
# protection fault ... in gpf[...]" for it, and neither the guest
# (harness/lib/klog.sh) nor the test that was running (nsrun's
# KERNEL-HEALTH) is blamed on the kernel.  The case runs only in the guest:
# on the host its log lines would reach other runs' health checks.
. "$(dirname "$0")/../lib.sh"
plan 7
"$top/harness/matrix" --quiet --results "$scratch/r" --run-id gpf --pass root --timeout 30 \
	--case "$selftest/gpf" --case "$selftest/whoami" 5.10 > "$scratch/out" 2>&1
is "the failed test makes the matrix exit 1" $? 1
kd=$(dirname "$(ls "$scratch"/r/gpf/*/meta)")
like "the kernel logged the program's fault" "$kd/dmesg" 'traps: gpf\[[0-9]+\] general protection'
unlike "the guest is not crashed" "$kd/meta" '^status=crashed|^crash='
unlike "the run's line says no CRASHED" "$scratch/out" 'CRASHED'
like "a child's fault: the test passes, no KERNEL-HEALTH" "$kd/root/gpf.tap" \
	'^ok 1 global\.child_faults$'
unlike "the faulting test is no KERNEL-HEALTH" "$kd/root/gpf.tap" 'KERNEL-HEALTH'
like "the next case still ran" "$kd/root/whoami.tap" '^ok 1 '
done_testing
