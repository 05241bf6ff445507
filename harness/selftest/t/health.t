#!/bin/sh
# The kernel-health marker of nsrun: a test during which the kernel logs a
# problem or gains a problem taint becomes "not ok N NAME # KERNEL-HEALTH",
# with the log lines as "# klog:"; harmless log lines, module taints and a
# taint that was already set before the case started change nothing.  Uses
# fake sources (NSCONFORM_KMSG, NSCONFORM_TAINTED) and a stand-in case.
. "$(dirname "$0")/../lib.sh"
plan 30
export KMSG=$scratch/kmsg TAINTED=$scratch/tainted
case_=$top/harness/selftest/fixtures/klog-case
export TAPFILE=$scratch/klog-case.tap
run() {	# run WHAT: nsrun the stand-in case against the fake sources
	NSCONFORM_KMSG=$KMSG NSCONFORM_TAINTED=$TAINTED "$nsrun" --tap-dir "$scratch" \
		-- "$case_" "$1" > "$scratch/out" 2> "$scratch/err"
}
printf '4,1,1,-;WARNING: CPU: 1 PID: 9 at old/report.c:1 before_the_case\n' > "$KMSG"

echo 0 > "$TAINTED"
run quiet
is "quiet kernel: exit 0" $? 0
unlike "quiet kernel: no marker (an older WARNING does not count)" \
	"$scratch/out" 'KERNEL-HEALTH|klog'

run warn
is "a WARNING: exit 1" $? 1
like "a WARNING: the test is not ok # KERNEL-HEALTH" "$scratch/out" \
	'^not ok 1 global\.first # KERNEL-HEALTH kernel log: '\
'WARNING: CPU: 0 PID: 1 at fs/namespace\.c:12'
like "a WARNING: its log line is shown" \
	"$scratch/out" '^# klog: WARNING: CPU: 0 PID: 1 at fs/namespace'
like "a WARNING: and the report's next line" "$scratch/out" '^# klog: Modules linked in:'
unlike "a WARNING: no record continuation" "$scratch/out" 'SUBSYSTEM'
like "a WARNING: the next test is not blamed" "$scratch/out" '^ok 2 global\.second # SKIP'

run refcount
like "a refcount report is a marker too" "$scratch/out" \
	'^not ok 1 global\.first # KERNEL-HEALTH kernel log: refcount_t: underflow'

run atexit
like "a report after the last result: that test is marked" "$scratch/out" \
	'^not ok 2 global\.second # KERNEL-HEALTH kernel log: refcount_t: saturated'
like "a report after the last result: the first test is not" "$scratch/out" '^ok 1 global\.first$'
is "a report after the last result: nothing lost, in order" \
	"$(grep -v -e '^# klog' -e '^# KERNEL-HEALTH' "$scratch/out" | tr '\n' '|')" \
	"TAP version 13|1..2|ok 1 global.first|not ok 2 global.second # KERNEL-HEALTH "\
"kernel log: refcount_t: saturated; leaking memory.|"

run taint
is "a new W taint: exit 1" $? 1
like "a new W taint: marker naming the flag" "$scratch/out" \
	'^not ok 1 global\.first # KERNEL-HEALTH kernel tainted W \(512\)'
like "a new W taint: the original result is kept" "$scratch/out" \
	"^# KERNEL-HEALTH: the test's own result was: ok 1 global\.first"

# Already tainted before the case (as this host may be): compare, never absolute.
echo 512 > "$TAINTED"
run quiet
is "tainted before the case: exit 0" $? 0
unlike "tainted before the case: no marker" "$scratch/out" 'KERNEL-HEALTH'
run modtaint
unlike "a module taint (E) is no marker" "$scratch/out" 'KERNEL-HEALTH'
run chatter
unlike "an ordinary log line is no marker" "$scratch/out" 'KERNEL-HEALTH'

# A user program's crash (traps:, segfault) is the test's failure, not the kernel's.
echo 0 > "$TAINTED"
run usercrash
is "a user program's crash in the log: exit 0" $? 0
unlike "a user program's crash (traps:, segfault) is no marker" "$scratch/out" 'KERNEL-HEALTH'
run kgpf
like "the kernel's own general protection fault is a marker" "$scratch/out" \
	'^not ok 1 global\.first # KERNEL-HEALTH kernel log: general protection fault, probably'
like "with the task it hit" "$scratch/out" '^# klog: CPU: 0 PID: 4242 Comm: mnt_ns'

# harness/check runs case binaries at once, and each nsrun reads the one kernel log: a
# report naming another case binary of the folder (its Comm:) is that binary's.
mkdir -p "$scratch/cases" && cp "$case_" "$scratch/cases/klog-case" &&
	cp "$case_" "$scratch/cases/other-case"
echo 0 > "$TAINTED"
NSCONFORM_KMSG=$KMSG NSCONFORM_TAINTED=$TAINTED "$nsrun" -- "$scratch/cases/klog-case" othercase \
	> "$scratch/out" 2> "$scratch/err"
is "another case binary's WARNING and taint: exit 0" $? 0
like "another case binary's WARNING: said, not blamed" "$scratch/out" \
	'^# KERNEL-HEALTH elsewhere: WARNING: .* \(task other-case, another case binary'
like "another case binary's WARNING: the result stands" "$scratch/out" '^ok 1 global\.first$'
echo 0 > "$TAINTED"
NSCONFORM_KMSG=$KMSG NSCONFORM_TAINTED=$TAINTED "$nsrun" -- "$scratch/cases/klog-case" owncase \
	> "$scratch/out" 2> "$scratch/err"
like "the case's own task in the report: marked" "$scratch/out" \
	'^not ok 1 global\.first # KERNEL-HEALTH kernel log: WARNING: CPU: 1 PID: 78'

# Without a readable kernel log the taint alone counts, and nothing breaks.
echo 0 > "$TAINTED"
NSCONFORM_KMSG=$scratch/none NSCONFORM_TAINTED=$TAINTED "$nsrun" -- "$case_" taint \
	> "$scratch/out" 2> "$scratch/err"
like "no kernel log: the taint still marks" "$scratch/out" '# KERNEL-HEALTH kernel tainted W'
is "no kernel log: nothing on stderr" "$(cat "$scratch/err")" ""

# The real sources on this host: a passing case stays ok (before/after, not absolute).
"$nsrun" -- "$selftest/whoami" > "$scratch/out" 2>&1
unlike "real kernel: no false marker on a quiet case" "$scratch/out" 'KERNEL-HEALTH'
done_testing
