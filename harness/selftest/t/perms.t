#!/bin/sh
# The user pass works wherever the checkout is: case binaries under a 0700
# directory (a clone in root's home), and even binaries only root may
# execute (built with umask 077), run as uid 65534 without the checkout's
# permissions changing, under the case's own name, also when a wrapper
# executes the case by its path, and without a mount left on the host.
. "$(dirname "$0")/../lib.sh"
plan 14
if [ "$(id -u)" != 0 ]; then
	for i in $(seq 14); do echo "ok $i # SKIP the user pass drops privileges only as root"; done
	exit 0
fi
home=$scratch/root-home
mkdir -p "$home/project/build/cases"
chmod 0700 "$home"
cp "$selftest/whoami" "$selftest/hangs" "$home/project/build/cases/"
modes() { find "$home" -printf '%m %u %g %p\n' | sort; }
modes > "$scratch/modes.before"
mounts() { awk '{ print $5, $9 }' /proc/self/mountinfo | sort; }
mounts > "$scratch/mounts.before"

"$nsrun" --pass user -- "$home/project/build/cases/whoami" > "$scratch/out" 2>&1
is "0700 home: the case runs" $? 0
like "0700 home: as uid 65534" "$scratch/out" '^# Uid:[[:space:]]+65534[[:space:]]'
unlike "0700 home: no permission error" "$scratch/out" 'Permission denied|cannot run'

"$top/harness/check" --results "$scratch/r" --run-id perms --no-hygiene --pass user --quiet \
	"$home/project/build/cases/whoami" > "$scratch/out" 2>&1
is "0700 home: harness/check's user pass passes" $? 0

# A wrapper that executes the case by its path (as make mutate's mutant does).
"$nsrun" --pass user -- /usr/bin/env "$home/project/build/cases/whoami" > "$scratch/out" 2>&1
is "0700 home: a wrapper executes the case by path" $? 0
like "0700 home: the wrapped case runs as uid 65534" \
	"$scratch/out" '^# Uid:[[:space:]]+65534[[:space:]]'

chmod 0700 "$home/project/build/cases/whoami" "$home/project/build/cases/hangs"
modes > "$scratch/modes.before"
"$nsrun" --pass user -- "$home/project/build/cases/whoami" > "$scratch/out" 2>&1
is "root-only binary: the case runs" $? 0
like "root-only binary: as uid 65534" "$scratch/out" '^# Uid:[[:space:]]+65534[[:space:]]'
like "root-only binary: with no capability" "$scratch/out" '^# CapEff:[[:space:]]+0+$'

# The case keeps its name (process lists, pgrep) and its private copy goes with it.
# Its 4 processes are counted as soon as all are there (a loaded machine
# takes more than a second to start them), within its 5 s timeout.
"$nsrun" --pass user --timeout 5 -- "$home/project/build/cases/hangs" > "$scratch/out" 2>&1 &
orig=$home/project/build/cases/hangs
copies() {
	for p in $(pgrep -x hangs); do
		# The same path, but another file system: the private copy.
		[ "$(readlink "/proc/$p/exe")" = "$orig" ] &&
			[ "$(stat -L -c %d "/proc/$p/exe")" != "$(stat -c %d "$orig")" ] &&
			echo copy
	done | grep -c copy
}
for i in $(seq 40); do
	own=$(copies)
	[ "$own" -ge 4 ] && break
	sleep 0.1
done
is "root-only binary: its processes run from a copy, under the case's name and path" "$own" 4
wait
like "root-only binary: hangs reached its hang" \
	"$scratch/out" '^not ok 3 global\.blocks_in_wait # TIMEOUT'

modes > "$scratch/modes.after"
is "the checkout's permissions are unchanged" \
	"$(diff "$scratch/modes.before" "$scratch/modes.after")" ""
mounts > "$scratch/mounts.after"
is "the host's mount table is unchanged" \
	"$(diff "$scratch/mounts.before" "$scratch/mounts.after")" ""
is "nothing was added to the checkout" \
	"$(ls "$home/project/build/cases" | tr '\n' ' ')" "hangs whoami "
done_testing
