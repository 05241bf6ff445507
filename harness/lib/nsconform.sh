# harness/lib/nsconform.sh - what the shell runners (check, matrix, mutate,
# bench-vm) share.  Source it after setting `me` (the tool's name); it sets
# `top` (the repository root) and defines:
#   usage                  print the script's header comment (its --help)
#   die MSG                "me: MSG" on stderr, exit 2
#   now_ms                 milliseconds since the epoch
#   parse_pass P           the one accepted set: root, user, both, "root user";
#                          sets passes ("root", "user" or "root user"); a runner
#                          that takes more (check: compat) sets pass_choices, the
#                          wording of its refusal
#   find_cases [CASE...]   fills cases: the arguments, else every build/cases/*
#                          (every $case_dir/* when the runner set case_dir)
#   host_cases [KEEP [FD]] a host runner's cases: leaves out the guest-only
#                          binaries (fixtures/data/guest-only), one line each
#                          on FD (default 1), and names them in guest_only (for
#                          the meta); KEEP non-empty: runs them, saying so
#   select_cases [--test PATTERN]... [--ns TYPE]...
#                          keeps the case binaries and tests selected
#                          (NSConform/Select.pm); sets case_args for them
#   list_cases [--test P]... [--ns T]...
#                          prints "case/test" for every test selected
#   need_value OPT ARGC    usage and exit 2 when option OPT has no value
#   pass_verdict KDIR PASS [OPTS]
#                          the verdict of a pass (NSConform/Verdict.pm):
#                          sets pv_verdict and pv_raw
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
# nap SECS: sleep without a process (read times out on a pipe nobody writes
# to), for loops that poll a guest ten times a second for its whole life.
nap() {
	[ -n "${nap_fd:-}" ] || exec {nap_fd}<> <(:)
	read -r -t "$1" -u "$nap_fd" _ 2>/dev/null
	return 0
}

parse_pass() {
	case "$1" in
	both|"root user"|"user root") passes="root user" ;;
	root|user) passes=$1 ;;
	*) die "unknown pass '$1' (${pass_choices:-root, user or both})" ;;
	esac
}

find_cases() {
	local c
	cases=("$@")
	if [ ${#cases[@]} = 0 ]; then
		for c in "${case_dir:-$top/build/cases}"/*; do
			[ -x "$c" ] && [ -f "$c" ] && cases+=("$c")
		done
	fi
	[ ${#cases[@]} -gt 0 ] || die "no case binaries (run make)"
	for c in "${cases[@]}"; do
		[ -x "$c" ] && [ -f "$c" ] || die "not an executable case: $c"
	done
}

. "$top/harness/lib/guest-lists.sh"
guest_only=
host_cases() {
	local keep=${1:-} fd=${2:-1} c n t why kept=()
	local -A go=()
	while IFS=$'\037' read -r n t why; do
		go[$n]=$why
	done < <(guest_only_entries)
	[ ${#go[@]} -gt 0 ] || return 0
	for c in "${cases[@]}"; do
		n=${c##*/}
		if [ -z "${go[$n]+set}" ]; then
			kept+=("$c")
		elif [ -n "$keep" ]; then
			kept+=("$c")
			echo "nsconform: $n is guest-only, run here as asked: ${go[$n]}" >&"$fd"
		else
			guest_only+="${guest_only:+ }$n"
			echo "nsconform: left out $n (guest-only, fixtures/data/guest-only:" \
				"harness/matrix runs it): ${go[$n]}" >&"$fd"
		fi
	done
	cases=(${kept[@]+"${kept[@]}"})
	[ ${#cases[@]} -gt 0 ] ||
		die "only guest-only case binaries left (harness/matrix runs them in a guest)"
}

# Test selection (--test, --ns, --list) is NSConform::Select's, one place
# for check, matrix and bisect; its header says what a pattern matches.
select_pl=$top/harness/lib/NSConform/Select.pm

list_cases() {
	local out
	out=$(perl "$select_pl" list "$@" -- "${cases[@]}" 2>&1) || die "$out"
	[ -z "$out" ] || printf '%s\n' "$out"
}

select_cases() {
	local out line
	out=$(perl "$select_pl" select "$@" -- "${cases[@]}" 2>&1) || die "$out"
	cases=() case_args=()
	while IFS= read -r line; do
		case "$line" in
		"case "*) cases+=("${line#case }") ;;
		"arg "*) case_args+=("${line#arg }") ;;
		esac
	done <<< "$out"
}

# pass_verdict KDIR PASS [OPTIONS]: the verdict of a pass, decided by
# NSConform/Verdict.pm (its header lists the verdicts and OPTIONS); sets
# pv_verdict (PASS, FAIL ..., NOT RUN, PASS (incomplete)) and pv_raw
# (passed, or failed when any test failed, known or not).
pass_verdict() {
	local out
	out=$(perl "$top/harness/lib/NSConform/Verdict.pm" pass "$@")
	case "$out" in
	*$'\t'*) pv_verdict=${out%%$'\t'*} pv_raw=${out#*$'\t'} ;;
	*) pv_verdict="FAIL (its results could not be read)" pv_raw=failed ;;
	esac
}

# need_value OPTION ARGC: an option that takes a value was given none.
need_value() {
	[ "$2" -ge 2 ] && return
	usage >&2
	die "$1 needs a value"
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
