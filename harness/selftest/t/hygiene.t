#!/bin/sh
# The host hygiene check: a run that changes the host fails and shows the
# difference.  The leaking case runs in a throwaway sandbox of new UTS, IPC
# and mount namespaces, so the real host is never touched.
. "$(dirname "$0")/../lib.sh"
plan 8

unshare --uts --ipc --mount --fork sh -c '
	"$1/harness/check" --results "$2/r" --run-id leak --pass root --quiet "$3/leaks"
' sh "$top" "$scratch" "$selftest" > "$scratch/out" 2>&1
is "a run that changes the host fails" $? 1
like "the hygiene verdict says FAIL" "$scratch/out" 'host hygiene: FAIL'
like "the diff names the new hostname" "$scratch/out" '^\+nsconform-leaked'
like "the diff shows the leaked segment" "$scratch/out" '^\+/proc/sysvipc/shm '
like "the diff is kept with the results" "$scratch/r/leak/$(uname -r)/host.diff" 'nsconform-leaked'
# Kernel threads live in session 0, which CI agents' runs share; they are
# not the run's leftovers.
harness_kthreads=$("$top/harness/hygiene" --session 0 | grep -c '(kthreadd)')
is "kernel threads are not counted as session processes" "$harness_kthreads" 0
# With a run token, only processes carrying it count: another run in the same
# session is not this run's leftover.
sid=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f4)
NSCONFORM_RUN_TOKEN=otherrun sleep 30 &
other=$!
NSCONFORM_RUN_TOKEN=thisrun sleep 30 &
mine=$!
NSCONFORM_RUN_TOKEN=thisrun "$top/harness/hygiene" --session "$sid" > "$scratch/procs"
like "a process carrying the run's token is listed" "$scratch/procs" "^$mine "
unlike "another run's process in the same session is not" "$scratch/procs" "^$other "
kill "$other" "$mine"
wait 2>/dev/null
done_testing
