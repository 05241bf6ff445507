#!/bin/sh
# harness/mutate says where it is (a line before each mutant: n/N and the
# minutes left), its last line names the file with every killer (not the
# placeholders .../PASS/MUTANT/killers), and an interrupt stops the case
# under way with its sandbox, removes the snapshot of the cases and says
# how to go on.
. "$(dirname "$0")/../lib.sh"
uts=$top/build/cases/uts hangs=$selftest/hangs
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP make mutate needs root (sandbox of fresh namespaces)"
	exit 0
fi
if [ ! -x "$top/build/harness/mutant" ] || [ ! -x "$uts" ] || [ ! -x "$hangs" ]; then
	echo "1..0 # SKIP build/harness/mutant, build/cases/uts or build/selftest/hangs: not built"
	exit 0
fi
plan 9
export NSCONFORM_CACHE="$scratch/cache"

"$top/harness/mutate" --results "$scratch/r" --run-id p --no-hygiene --pass root \
	--mutants "clear-uts fake-sethostname" "$uts" > "$scratch/out" 2>&1
is "the run completes" $? 0
like "a line before the first mutant, with an estimate" "$scratch/out" \
	'^# mutant 1/2: clear-uts, about [0-9]+ min left$'
like "and before the second" "$scratch/out" \
	'^# mutant 2/2: fake-sethostname, about [0-9]+ min left$'
like "the last line names the summary with every killer" "$scratch/out" \
	"^score: .*\\(every killer: .*/r/p/summary\\)\$"
unlike "no placeholder is left in it" "$scratch/out" 'PASS/MUTANT'

# Interrupted while a case hangs in the baseline.
"$top/harness/mutate" --results "$scratch/r" --run-id i --no-hygiene --pass root \
	--timeout 60 --mutants clear-uts "$hangs" > "$scratch/out" 2>&1 &
pid=$!
for i in $(seq 100); do pgrep -f "mutate-bin\\.$pid/hangs" > /dev/null && break; sleep 0.1; done
sleep 0.5
kill -TERM "$pid"
wait "$pid"
is "interrupted: exit 130" $? 130
check "the case under way is gone, sandbox and all" \
	sh -c "! pgrep -f 'mutate-bin\\.$pid/hang[s]' > /dev/null"
check "the snapshot of the cases is removed" test ! -e "$top/build/mutate-bin.$pid"
like "it says how to go on" "$scratch/out" \
	'^harness/mutate: to go on: harness/mutate --mutants "clear-uts"'
done_testing
