#!/bin/sh
# Which passes harness/check runs: as root both; as another user the user
# pass only, and one line says that the root pass was left out and why that
# user pass skips more (no delegated cgroup).  The non-root run is uid 65534
# (setpriv), on a self-test binary, without the hygiene check.
. "$(dirname "$0")/../lib.sh"
plan 5
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	for i in 1 2 3 4 5; do skip "needs root and setpriv (util-linux)"; done
	done_testing
fi
chmod 755 "$scratch"
mkdir -m 777 "$scratch/r"
setpriv --reuid 65534 --regid 65534 --clear-groups "$top/harness/check" --no-hygiene \
	--results "$scratch/r" --run-id u "$selftest/whoami" > "$scratch/out" 2>&1
is "not root: the user pass passes" $? 0
like "not root: one line says the root pass is left out" "$scratch/out" \
	'^nsconform: not root: the user pass only \(the root pass needs root\)'
like "not root: and why the user pass skips more" "$scratch/out" \
	'need a cgroup delegated by root SKIP'
is "not root: only the user pass ran" \
	"$(ls "$scratch/r/u/$(uname -r)" | grep -x -e root -e user)" user
"$top/harness/check" --no-hygiene --quiet --results "$scratch/r" --run-id r "$selftest/whoami" \
	> "$scratch/out" 2>&1
unlike "root: no such line" "$scratch/out" 'not root'
done_testing
