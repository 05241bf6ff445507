# harness/selftest/lib.sh - a few TAP helpers for the self-test scripts.
# Source it, call plan N, then check/is/like/unlike; every check prints one
# line, and a failing one explains itself on stderr (which prove shows).
top=$(cd "$(dirname "$0")/../../.." && pwd)
nsrun=$top/build/harness/nsrun
selftest=$top/build/selftest
_n=0
_failed=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nsconform-selftest.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

plan() { echo "1..$1"; }
_result() {
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
}
# skip "reason": a result that could not be measured here
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $1"; }
# ok CMD... DESCRIPTION is awkward in sh: use check "desc" cmd args...
check() { d=$1; shift; "$@" >/dev/null 2>&1; _result $? "$d"; }
# is "desc" got want
is() {
	[ "$2" = "$3" ]; r=$?
	_result $r "$1"
	[ $r = 0 ] || echo "# got '$2', want '$3'" >&2
}
# like "desc" file regex: the file has a line matching the ERE
like() {
	grep -Eq -- "$3" "$2"; r=$?
	_result $r "$1"
	[ $r = 0 ] ||
		{ echo "# no line of $2 matches /$3/:"; sed 's/^/#   /' "$2" | head -n 20; } >&2
}
unlike() {
	! grep -Eq -- "$3" "$2"; r=$?
	_result $r "$1"
	[ $r = 0 ] || grep -E -- "$3" "$2" | sed 's/^/#   /' >&2
}
# real_tap BINARY...: one harness/check run of self-test binaries (the user pass
# unless root) into $scratch/real, its output in $scratch/check.out; sets $real
# to the run's kernel folder and returns check's exit status.
real_tap() {
	_pass=
	[ "$(id -u)" = 0 ] || _pass="--pass user"
	"$top/harness/check" --results "$scratch/real" --run-id real --no-hygiene $_pass \
		--timeout 2 "$@" > "$scratch/check.out" 2>&1
	_rc=$?
	real=$(ls -d "$scratch"/real/real/*/ | head -n 1)
	return $_rc
}
done_testing() { exit $((_failed > 0)); }
