#!/bin/sh
# make mutate's runner keeps working: a two-mutant smoke run on the UTS
# case (the lying unshare/clone and the lying sethostname must be killed),
# a pass stops at its first confirmed kill, trying the recorded killer
# first, unless --all-killers; a rerun takes the baseline from the cache;
# a mutant no case exercises is reported as surviving, and the supervisor
# is transparent: same credentials as the pass, exit status passed through;
# the translation lies (lie-*) alter the ids a call returns.
. "$(dirname "$0")/../lib.sh"
mutant=$top/build/harness/mutant
uts=$top/build/cases/uts
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP make mutate needs root (sandbox of fresh namespaces)"
	exit 0
fi
if [ ! -x "$mutant" ] || [ ! -x "$uts" ]; then
	echo "1..0 # SKIP build/harness/mutant or build/cases/uts is not built"
	exit 0
fi
plan 34
# A cache of our own: the baseline and the killers' record start empty.
export NSCONFORM_CACHE="$scratch/cache"

host=$(hostname)
"$top/harness/mutate" --results "$scratch/r" --run-id smoke --no-hygiene \
	--mutants "clear-uts fake-sethostname" "$uts" > "$scratch/out" 2>&1
is "the smoke run completes" $? 0
like "it has a baseline of passing tests" "$scratch/out" \
	'^# root pass: baseline [1-9][0-9]* passing'
like "clear-uts is killed by a uts test, as root" "$scratch/out" \
	'^clear-uts .* root: killed by uts:'
like "clear-uts is killed by a uts test, unprivileged" "$scratch/out" \
	'^clear-uts .* user: killed by uts:'
like "fake-sethostname is killed in both passes" "$scratch/out" \
	'^fake-sethostname .* root: killed by uts:.* user: killed by uts:'
like "the score counts both" "$scratch/out" '^score: root 2/2 killed; user 2/2 killed'
like "the summary is written to the results" "$scratch/r/smoke/summary" '^score: '
like "it says which mode ran" "$scratch/out" '^# mode: first kill '
like "and how many binaries ran before the kill" "$scratch/out" \
	'^clear-uts .* root: killed by uts:.* \(1 of 1 binaries run\)'
like "the killer is recorded for the next run" "$scratch/cache/mutate/killers" \
	'^clear-uts root uts$'

# The next run: the recorded killer first, the pass stops at its kill, the
# other binary never runs; the baseline of uts comes from the cache.
nsfs=$top/build/cases/nsfs
"$top/harness/mutate" --results "$scratch/r" --run-id first --no-hygiene --pass root \
	--jobs 1 --mutants clear-uts "$uts" "$nsfs" > "$scratch/out" 2>&1
is "the first-kill run completes" $? 0
like "one baseline from the cache, one measured" "$scratch/out" \
	'^# root pass: measuring the baseline \(1 case binaries, 3 runs each; 1 more from the cache'
like "the recorded killer ran first and killed it" "$scratch/out" \
	'^clear-uts .* root: killed by uts:.* \(1 of 2 binaries run\)'
check "the other binary did not run" test ! -e "$scratch/r/first/root/clear-uts/nsfs.tap"
# --all-killers: every binary, every killer.
"$top/harness/mutate" --results "$scratch/r" --run-id all --no-hygiene --pass root \
	--all-killers --mutants clear-uts "$uts" "$nsfs" > "$scratch/out" 2>&1
like "--all-killers says so" "$scratch/out" '^# mode: every killer '
like "both baselines from the cache" "$scratch/out" '; 2 more from the cache'
check "and runs every binary" test -s "$scratch/r/all/root/clear-uts/nsfs.tap"
is "the lies stayed in the sandbox" "$(hostname)" "$host"

# A mutant that no test can see survives, and the report says why.
"$top/harness/mutate" --results "$scratch/r" --run-id survive --no-hygiene --pass root \
	--mutants clear-uts "$selftest/whoami" > "$scratch/out" 2>&1
like "an unexercised mutant is SURVIVED, never applied" "$scratch/out" \
	'^clear-uts .* root: SURVIVED \(never applied'

# The supervisor: the pass's credentials, the case's exit status, a count.
"$nsrun" --pass user -- "$mutant" --none -- "$selftest/whoami" > "$scratch/who" 2>&1
like "traced case keeps the user pass's uid" "$scratch/who" '^# Uid:[[:space:]]+65534[[:space:]]'
like "traced case has no capability" "$scratch/who" '^# CapEff:[[:space:]]+0+$'
"$mutant" --none -- "$selftest/failing" > /dev/null 2>&1
is "the case's exit status is passed through" $? 1
unshare --mount --uts --ipc --net --pid --cgroup --fork --mount-proc \
	"$mutant" --clear uts -- "$uts" -t unshare_moves_caller \
	> "$scratch/one" 2>&1
like "the supervisor says how often it lied" "$scratch/one" \
	'^# mutant: clear CLONE_NEWUTS: applied [1-9]'
like "and the lie is seen by the case" "$scratch/one" '^not ok 1 '
# The same lie stopping the case at every call (the old way, --trace-all).
unshare --mount --uts --ipc --net --pid --cgroup --fork --mount-proc \
	"$mutant" --trace-all --clear uts -- "$uts" -t unshare_moves_caller \
	> "$scratch/all" 2>&1
like "stopped at every call, the lie is the same" "$scratch/all" '^not ok 1 '
# The profile make mutate selects binaries by: what a lie would have changed.
unshare --mount --uts --ipc --net --pid --cgroup --fork --mount-proc \
	"$mutant" --none -- "$uts" > "$scratch/prof" 2>&1
like "--none names the mutants that would change a call" "$scratch/prof" \
	'^# mutant: profile: .*clear-uts .*fake-sethostname'
like "and how many calls each would change (the order)" "$scratch/prof" \
	'^# mutant: calls: .*clear-uts=[1-9][0-9]* .*fake-sethostname=[1-9]'
"$mutant" --none -- "$selftest/whoami" > "$scratch/prof" 2>&1
unlike "and not those that would not" "$scratch/prof" '^# mutant: profile: .*clear-uts'

# The translation lies: listed, profiled, and the id a call returns is not the kernel's.
"$top/harness/mutate" --list > "$scratch/list"
like "make mutate runs the translation lies" "$scratch/list" '^lie-proc$'
stat=$(command -v stat)
"$mutant" --none -- "$stat" -c %u / > /dev/null 2> "$scratch/prof"
like "--none names lie-uid where a stat(2) was made" "$scratch/prof" \
	'^# mutant: profile: .*lie-uid'
owner=$("$mutant" --lie uid -- "$stat" -c %u / 2>/dev/null)
check "--lie uid: stat(2) gives another owner than the kernel's" \
	test -n "$owner" -a "$owner" != "$(stat -c %u /)"
"$mutant" --lie proc -- "$(command -v cat)" /proc/self/status > "$scratch/status" 2>/dev/null
check "--lie proc: Pid: of /proc/self/status is not its NSpid:" \
	awk '/^Pid:/ { p = $2 } /^NSpid:/ { n = $NF } END { exit !(p && n && p != n) }' \
	"$scratch/status"

# Run by hand without a sandbox, a privileged supervisor makes its own.
uts_in=$("$mutant" --clear uts -- /bin/readlink /proc/self/ns/uts 2>/dev/null)
mnt_in=$("$mutant" --none -- /bin/readlink /proc/self/ns/mnt 2>/dev/null)
check "a privileged mutant leaves our UTS namespace first" \
	test -n "$uts_in" -a "$uts_in" != "$(readlink /proc/self/ns/uts)"
check "and our mount namespace" test -n "$mnt_in" -a "$mnt_in" != "$(readlink /proc/self/ns/mnt)"
done_testing
