#!/bin/sh
# The host runner: failures fail the run, hangs and crashes are bounded and
# named, the user pass really has no privilege, results are kept.
. "$(dirname "$0")/../lib.sh"
plan 55

# A failing case makes harness/check exit non-zero and keeps its TAP.
"$top/harness/check" --results "$scratch/r" --run-id fail --no-hygiene --pass user \
	--quiet "$selftest/failing" > "$scratch/out" 2>&1
is "a failing case makes the run exit 1" $? 1
tap=$(ls "$scratch"/r/fail/*/user/failing.tap)
like "its raw TAP is kept" "$tap" '^not ok 2 global\.fails'
like "the verdict line says FAIL" "$scratch/out" 'user pass on .*: FAIL'
is "results/latest points at the run" "$(readlink "$scratch/r/latest")" fail

# A passing case makes it exit 0.
"$top/harness/check" --results "$scratch/r" --run-id pass --no-hygiene --pass user \
	--quiet "$selftest/whoami" > "$scratch/out" 2>&1
is "a passing case makes the run exit 0" $? 0

# The verdict is the reader's: a failure listed in the expectations is known.
printf '%s\n' 'fail * * failing/fails selftest:failing.c it fails on purpose' \
	'fail * * whoami/whoami selftest:whoami.c never failed' > "$scratch/exp"
"$top/harness/check" --results "$scratch/r" --run-id known --no-hygiene --pass user \
	--expectations "$scratch/exp" "$selftest/failing" "$selftest/whoami" > "$scratch/out" 2>&1
is "only known failures: the run exits 0" $? 0
like "the verdict line says PASS" "$scratch/out" 'user pass on .*: PASS'
like "the summary counts it as known" "$scratch/out" '^nsconform report: .* user: .*1 known'
like "a known failure that passes is a warning" "$scratch/out" \
	'warning: known failure now passes: whoami/whoami'
"$top/harness/check" --list "$selftest/failing" > "$scratch/list" 2>&1
like "--list names each test as CASE/TEST" "$scratch/list" '^failing/fails$'
"$top/harness/check" --results "$scratch/r" --run-id one --no-hygiene --pass user --quiet \
	--test failing/passes "$selftest/failing" "$selftest/whoami" > "$scratch/out" 2>&1
is "--test: only that test, which passes" $? 0
is "--test: one result" "$("$top/harness/verdicts" "$scratch/r/one")" "user/failing/passes pass"

# The user pass runs with an unprivileged uid and no capabilities.
"$nsrun" --pass user -- "$selftest/whoami" > "$scratch/who" 2>&1
like "user pass: uid is unprivileged" "$scratch/who" '^# Uid:[[:space:]]+65534[[:space:]]+65534'
like "user pass: no effective capability" "$scratch/who" '^# CapEff:[[:space:]]+0+$'
like "user pass: no permitted capability" "$scratch/who" '^# CapPrm:[[:space:]]+0+$'
# ...and, as root with a writable cgroup v2 hierarchy, a delegated cgroup it may write.
cg2=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2" && $4 == "/" { print $5; exit }' \
	/proc/self/mountinfo)
if [ -n "$cg2" ] && [ -w "$cg2" ] && [ "$(id -u)" = 0 ]; then
	like "user pass: a delegated cgroup v2 directory" "$scratch/who" \
		'^# cgroup /.*nsrun-user-[0-9]+-[0-9]+ writable 1$'
	# This nsrun's own directory (self-tests run at once, each nsrun has its own).
	mine=$(sed -n 's|^# cgroup \(/.*nsrun-user-[0-9]*-[0-9]*\) writable 1$|\1|p' "$scratch/who")
	left=$( [ -n "$mine" ] && [ -e "$cg2$mine" ] && echo "$mine" )
	is "it is removed when the case ends" "${mine:+${left:-gone}}" gone
	# A run that cannot start (its TAP folder is missing) makes none.
	"$nsrun" --pass user --cgroup-name "nsconform-selftest-$$" --tap-dir "$scratch/none" \
		-- "$selftest/whoami" > /dev/null 2>&1
	is "a run that cannot write its TAP leaves no cgroup" \
		"$(find "$cg2" -maxdepth 6 -name "nsconform-selftest-$$" | wc -l)" 0
else
	skip "no writable cgroup v2 hierarchy here"
	skip "no writable cgroup v2 hierarchy here"
	skip "no writable cgroup v2 hierarchy here"
fi
"$nsrun" --pass root -- "$selftest/whoami" > "$scratch/who" 2>&1
like "root pass: CAP_SYS_ADMIN" "$scratch/who" 'sys_admin 1'
ours=$(readlink /proc/self/ns/pid | sed 's/[][]/\\&/g')
unlike "root pass: a PID namespace of its own" "$scratch/who" "^# pidns $ours\$"
# A case marked NS_CASE_NEEDS_INITIAL_PIDNS stays in ours (the marker appended to a copy).
cp "$selftest/whoami" "$scratch/marked"
printf 'nsconform-case-needs=initial-pid-namespace' >> "$scratch/marked"
"$nsrun" --pass root -- "$scratch/marked" > "$scratch/who" 2>&1
like "marked case: runs in the initial PID namespace" "$scratch/who" "^# pidns $ours\$"
"$nsrun" --pass user -- "$scratch/marked" > "$scratch/who" 2>&1
like "marked case, user pass: still unprivileged" "$scratch/who" '^# CapEff:[[:space:]]+0+$'

# A case that hangs costs one timeout, keeps earlier results, leaves nothing.
start=$(date +%s)
"$nsrun" --timeout 3 --tap-dir "$scratch" -- "$selftest/hangs" > "$scratch/hang" 2>&1
is "a hanging case fails" $? 1
is "it costs one timeout, not more" "$(( $(date +%s) - start <= 6 ))" 1
like "results before the hang are kept" "$scratch/hangs.tap" '^ok 2 global\.leaves_child_behind'
like "the hanging test is not ok # TIMEOUT" "$scratch/hangs.tap" \
	'^not ok 3 global\.blocks_in_wait # TIMEOUT'
like "the plan is still met" "$scratch/hangs.tap" '^not ok 4 '
like "a test never reached is # NOTRUN (RESULTS.md)" "$scratch/hangs.tap" \
	'^not ok 4 hangs\.not_run_4 # NOTRUN hangs exceeded 3 s before this test ran$'
sleep 0.2
is "no process of the hanging case survives" "$(pgrep -xc hangs)" 0

# A crashing binary keeps what it reported and fails the rest.
"$nsrun" --tap-dir "$scratch" -- "$selftest/crashes" > /dev/null 2>&1
is "a crashing case fails with its signal" $? 139
like "results before the crash are kept" "$scratch/crashes.tap" '^ok 1 before_crash'
like "the test that died is # CRASH (RESULTS.md)" "$scratch/crashes.tap" \
	'^not ok 2 global\.crashing # CRASH crashes ended early \(status 139\)$'
like "the tests after it are # NOTRUN" "$scratch/crashes.tap" \
	'^not ok 3 crashes\.not_run_3 # NOTRUN crashes ended early'
unlike "no older form is written" "$scratch/crashes.tap" '# [a-z]'

# --- selection: --test, --ns, --list (NSConform/Select.pm) ---------------------
cases=$top/build/cases
sel() {
	_id=$1
	shift
	"$top/harness/check" --results "$scratch/r" --run-id "$_id" --no-hygiene --pass user \
		--quiet "$@" > "$scratch/out" 2>&1
}
sel two --test failing/passes --test hangs/before_hang "$selftest/failing" "$selftest/hangs"
is "--test twice runs both tests" "$("$top/harness/verdicts" "$scratch/r/two" | tr '\n' ' ')" \
	"user/failing/passes pass user/hangs/before_hang pass "
sel glob --test 'fail*/*' "$selftest/failing" "$selftest/whoami"
is "--test takes a glob of expectations' syntax" \
	"$("$top/harness/verdicts" "$scratch/r/glob" | tr '\n' ' ')" \
	"user/failing/fails fail user/failing/passes pass "
# Two binaries with a test of the same name: each runs only its own.
sel same --test uts/create_needs_cap_sys_admin --test ipc_sysv/create_needs_cap_sys_admin \
	"$cases/uts" "$cases/ipc_sysv"
is "each binary runs only the tests selected in it" \
	"$("$top/harness/verdicts" --by-case "$scratch/r/same" | sed 's/ .*//' | tr '\n' ' ')" \
	"ipc_sysv:create_needs_cap_sys_admin uts:create_needs_cap_sys_admin "
sel short --test unbindable_bind_fails_einval
is "a name without its fixture prefix selects the test" \
	"$("$top/harness/verdicts" --by-case "$scratch/r/short" | sed 's/ .*//')" \
	"mnt_propagation:prop.unbindable_bind_fails_einval"
sel pivot --test mnt_pivot/pivot.put_old_shared_einval.pivot_root_fails_with_that_errno
is "a long variant name is selectable" \
	"$("$top/harness/verdicts" --by-case "$scratch/r/pivot" | sed 's/ .*//')" \
	"mnt_pivot:pivot.put_old_shared_einval.pivot_root_fails_with_that_errno"
"$top/harness/check" --test pivot_root_fails_with_that_errno > "$scratch/out" 2>&1
is "an ambiguous short name is refused (exit 2)" $? 2
like "naming its candidates" "$scratch/out" \
	"ambiguous: it names 10 tests: mnt_pivot/pivot\.new_root_not_a_mount_point_einval\."
"$top/harness/check" --test 'uts/no_such_*' > "$scratch/out" 2>&1
is "a pattern that matches nothing is refused (exit 2)" $? 2
"$top/harness/check" --test > "$scratch/out" 2>&1
is "--test without a value: exit 2" $? 2
like "with the usage" "$scratch/out" '^Usage: harness/check'
"$top/harness/check" --list --ns uts,time > "$scratch/list" 2> "$scratch/list.err"
is "--ns uts,time lists only those types" "$(sed 's|/.*||' "$scratch/list" | sort -u | xargs)" \
	"time time_exec time_fixes time_fixes_futex time_offsets uts"
"$top/harness/check" --list --ns mount > "$scratch/out" 2>&1
is "an unknown namespace type is refused (exit 2)" $? 2
"$top/harness/check" --list --test '*unbindable*' > "$scratch/list" 2> "$scratch/list.err"
is "--list --test lists what would run" "$(wc -l < "$scratch/list")" 4
# --list names exactly the tests the binaries report, one for one, all of them.
"$top/harness/check" --list > "$scratch/list" 2> "$scratch/list.err"
is "--list: one name per test, no bogus name" "$(sort "$scratch/list" | uniq -d | wc -l)" 0
"$top/harness/check" --results "$scratch/r" --run-id all --no-hygiene --pass user --quiet \
	--jobs 2 > "$scratch/out" 2>&1
for t in "$scratch"/r/all/*/user/*.tap; do
	b=${t##*/}
	sed -n 's/^\(not \)\{0,1\}ok [0-9][0-9]* \([^ ]*\).*/\2/p' "$t" |
		sed "s/^global\.//; s|^|${b%.tap}/|"
done | sort > "$scratch/tapnames"
sort "$scratch/list" > "$scratch/listnames"
diff "$scratch/tapnames" "$scratch/listnames" > "$scratch/namediff"
is "--list is the TAP's names, one for one ($(wc -l < "$scratch/tapnames") tests)" \
	"$(wc -l < "$scratch/namediff")" 0
[ -s "$scratch/namediff" ] && sed 's/^/# /' "$scratch/namediff" | head -n 20 >&2

# --- the verdict of a pass (NSConform/Verdict.pm), for check and matrix -------
verdict=$top/harness/lib/NSConform/Verdict.pm
k=$scratch/vk
mkdir -p "$k/root"
printf 'kernel=6.1.0-1-amd64\npasses=root\n' > "$k/meta"
printf 'TAP version 13\n1..2\nok 1 a\nok 2 b\n' > "$k/root/x.tap"
is "clean TAP: PASS" "$(perl "$verdict" pass "$k" root --no-expectations)" "PASS	passed"
printf 'root x rc=1 ms=5 taint=0\n' > "$k/.cases"
is "clean TAP but a binary failed: FAIL" \
	"$(perl "$verdict" pass "$k" root --no-expectations --cases "$k/.cases")" \
	"FAIL (a case binary failed after a clean TAP stream; see cases)	failed"
printf 'TAP version 13\n1..2\nok 1 a\nnot ok 2 b # KERNEL-HEALTH kernel tainted W\n' \
	> "$k/root/x.tap"
echo 'fail * root x/b selftest:runner.t known' > "$scratch/vexp"
is "a known bad result: PASS, raw failed" \
	"$(perl "$verdict" pass "$k" root --expectations "$scratch/vexp")" "PASS	failed"
is "an unknown one: FAIL" "$(perl "$verdict" pass "$k" root --no-expectations)" "FAIL	failed"
is "a test's status for bisect: health, not fail" "$(perl "$verdict" test "$k" root x/b)" health
is "no TAP: NOT RUN" "$(perl "$verdict" pass "$k" user --no-expectations)" "NOT RUN	failed"
done_testing
