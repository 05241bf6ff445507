#!/bin/sh
# The host hygiene check: a run that changes the host fails and shows the
# difference.  The leaking case runs in a throwaway sandbox of new UTS, IPC
# and mount namespaces, so the real host is never touched.
. "$(dirname "$0")/../lib.sh"
plan 6

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
done_testing
