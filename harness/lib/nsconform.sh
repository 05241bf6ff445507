# harness/lib/nsconform.sh - what the shell runners (check, matrix, mutate,
# bench-vm) share.  Source it after setting `me` (the tool's name); it sets
# `top` (the repository root) and defines:
#   usage                  print the script's header comment (its --help)
#   die MSG                "me: MSG" on stderr, exit 2
#   now_ms                 milliseconds since the epoch
#   parse_pass P           the one accepted set: root, user, both, "root user";
#                          sets passes ("root", "user" or "root user")
#   find_cases [CASE...]   fills cases: the arguments, else every build/cases/*
#   filter_cases NAME      keeps only the case binaries that have test NAME
#                          (CASE/TEST or TEST); sets case_args for the binary
#   list_cases             prints "case/test" for every test of every case
#   snapshot_cases DIR     copies the case binaries to DIR and points cases there
#   write_meta FILE K=V..  meta (harness/RESULTS.md) of this machine, plus K=V
#   hygiene_before DIR [SID], hygiene_after DIR [SID]
#                          host snapshots around a run; hygiene_after prints
#                          the verdict and returns 1 when the host changed
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cases=() case_args=()

# (the comment lines from line 2 to the first other line, without "# ")
usage() { sed -n '2,$ { /^#/!q; s/^# \{0,1\}//; p; }' "$0"; }
die() { echo "$me: $*" >&2; exit 2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

parse_pass() {
	case "$1" in
	both|"root user"|"user root") passes="root user" ;;
	root|user) passes=$1 ;;
	*) die "unknown pass '$1' (root, user or both)" ;;
	esac
}

find_cases() {
	local c
	cases=("$@")
	if [ ${#cases[@]} = 0 ]; then
		for c in "$top"/build/cases/*; do [ -x "$c" ] && [ -f "$c" ] && cases+=("$c"); done
	fi
	[ ${#cases[@]} -gt 0 ] || die "no case binaries (run make)"
	for c in "${cases[@]}"; do
		[ -x "$c" ] && [ -f "$c" ] || die "not an executable case: $c"
	done
}

# The tests of a case binary as reports name them ("test" of the global
# fixture, else "fixture.test" or "fixture.variant.test"), from the
# kselftest harness's -l table (fixture, variant, test columns; a fixture's
# tests run once per variant).
case_tests() {
	{ "$1" -l || :; } 2>&1 >/dev/null | awk '
	function flush(  i, j) {
		for (i = 1; i <= nt; i++)
			if (nv == 0) print (fix == "global" ? "" : fix ".") T[i]
			else for (j = 1; j <= nv; j++) print fix "." V[j] "." T[i]
		nt = nv = 0
	}
	function col(s) { gsub(/ /, "", s); return s }
	NR == 1 { next }
	/^-+$/ { flush(); next }
	{
		f = col(substr($0, 1, 21)); v = col(substr($0, 22, 26)); t = col(substr($0, 48))
		if (f != "") { flush(); fix = f }
		if (v != "") V[++nv] = v
		if (t != "") T[++nt] = t
	}
	END { flush() }'
}

list_cases() {
	local c
	for c in "${cases[@]}"; do case_tests "$c" | sed "s|^|${c##*/}/|"; done
}

filter_cases() {
	local want=$1 test=${1#*/} c kept=()
	for c in "${cases[@]}"; do
		[ "$test" = "$want" ] || [ "${want%%/*}" = "${c##*/}" ] || continue
		case_tests "$c" | grep -qxF -e "$test" && kept+=("$c")
	done
	[ ${#kept[@]} -gt 0 ] || die "no case binary has a test $want (try --list)"
	cases=("${kept[@]}")
	case "$test" in *.*) case_args=(-r "$test") ;; *) case_args=(-r "global.$test") ;; esac
}

snapshot_cases() {
	local i
	for i in "${!cases[@]}"; do
		cp -p "${cases[$i]}" "$1/" 2>/dev/null || die "cannot copy case ${cases[$i]}"
		cases[$i]=$1/${cases[$i]##*/}
	done
}

write_meta() {
	local f=$1 v
	shift
	v=$(uname -v | sed -n 's/.*Debian \([0-9][^ ]*\).*/\1/p')
	{
		echo "kernel=$(uname -r)"
		[ -n "$v" ] && echo "kernel_version=$v"
		echo "machine=$(uname -m)"
		echo "cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"
		echo "where=host"
		echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "passes=$passes"
		echo "uname=$(uname -a)"
		for v in "$@"; do echo "$v"; done
	} > "$f"
}

hygiene_before() {
	# Mark this run's processes (inherited by all it starts, nested runs add theirs).
	NSCONFORM_RUN_TOKEN="${NSCONFORM_RUN_TOKEN:+$NSCONFORM_RUN_TOKEN }run$$x$(date +%s%N)"
	export NSCONFORM_RUN_TOKEN
	"$top/harness/hygiene" > "$1/host-before"
	[ -z "${2:-}" ] || "$top/harness/hygiene" --session "$2" > "$1/procs-before"
}

hygiene_after() {
	local d=$1
	"$top/harness/hygiene" > "$d/host-after"
	diff -u "$d/host-before" "$d/host-after" > "$d/host.diff"
	if [ -n "${2:-}" ]; then
		"$top/harness/hygiene" --session "$2" > "$d/procs-after"
		# Processes that ended meanwhile are no harm; new ones were left behind,
		# unless they were only ending (looked at again after half a second).
		comm -13 "$d/procs-before" "$d/procs-after" > "$d/procs-new"
		[ -s "$d/procs-new" ] && sleep 0.5
		while read -r pid comm; do
			[ -d "/proc/$pid" ] && echo "+left behind: $pid $comm"
		done < "$d/procs-new" >> "$d/host.diff"
		rm -f "$d/procs-new"
	fi
	if [ -s "$d/host.diff" ]; then
		echo "nsconform: the host changed during the run:" >&2
		cat "$d/host.diff" >&2
		echo "nsconform: host hygiene: FAIL" >&2
		return 1
	fi
	rm -f "$d/host.diff"
	echo "nsconform: host hygiene: unchanged" \
		"(hostname, mounts, links, IPC, sysctls, cgroups${2:+, processes})"
}
