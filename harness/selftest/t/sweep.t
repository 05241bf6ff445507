#!/bin/sh
# harness/sweep with a fake harness/kernel and harness/matrix (no guest
# boots): a cold sweep runs every release with every binary and assembles a
# results folder and its summary; a rerun boots nothing; a changed binary is
# the only one run again; a kernel that cannot be fetched or booted is an
# error naming it and is tried again next time; an interrupted sweep keeps
# what finished and resumes with the rest.
. "$(dirname "$0")/../lib.sh"
plan 29

mkdir -p "$scratch/bin" "$scratch/cases"
# The fake harness/kernel: releases r1 r2 r3 (series 9.1), nofetch cannot
# be fetched.
cat > "$scratch/bin/kernel" <<'EOF'
#!/bin/sh
case "$1" in
list) printf '9.1:\n  r1\n  r2\n' ;;
expand) shift
	for s in "$@"; do case "$s" in 9.1:all) echo r1; echo r2 ;; *) echo "$s" ;; esac; done ;;
fetch) [ "$2" = nofetch ] && { echo "harness/kernel: download of nofetch failed" >&2; exit 1; }
	echo "/nonexistent/$2" ;;
esac
EOF
# The fake harness/matrix: one kernel folder per run, every case ok in both
# passes (case bad fails); noboot never starts; r3 hangs while $scratch/hang
# exists.  Each call is logged: RELEASE CASE...
cat > "$scratch/bin/matrix" <<'EOF'
#!/bin/bash
results= id= cases=()
while [ $# -gt 1 ]; do
	case "$1" in
	--results) results=$2; shift 2 ;; --run-id) id=$2; shift 2 ;;
	--case) cases+=("${2##*/}"); shift 2 ;; --pass|--jobs) shift 2 ;; *) shift ;;
	esac
done
rel=$1
echo "$rel ${cases[*]}" >> "$LOG"
kd=$results/$id/$rel
mkdir -p "$kd/root" "$kd/user"
if [ "$rel" = noboot ]; then
	printf 'kernel=noboot\nstatus=error\nerror=noboot: guest runner never started\n' \
		> "$kd/meta"
	exit 1
fi
[ "$rel" = r3 ] && while [ -e "$HANG" ]; do sleep 0.2; done
for c in "${cases[@]}"; do
	for p in root user; do
		if [ "$c" = bad ]; then r="not ok 1 global.t"; else r="ok 1 global.t"; fi
		printf 'TAP version 13\n1..1\n#  RUN           global.t ...\n%s\n' "$r" \
			> "$kd/$p/$c.tap"
		echo "$p $c rc=0 ms=5 taint=0" >> "$kd/cases"
	done
done
printf 'kernel=%s\nkernel_version=9.1.%s-1\nwhere=qemu-tcg\npasses=root user\nstatus=passed\n' \
	"$rel" "${rel#r}" > "$kd/meta"
echo "modules_loaded=${FAKE_LOADED:-}" >> "$kd/meta"
EOF
chmod +x "$scratch/bin/kernel" "$scratch/bin/matrix"
for c in good bad; do printf '#!/bin/sh\necho %s\n' "$c" > "$scratch/cases/$c"; done
chmod +x "$scratch/cases/good" "$scratch/cases/bad"
export NSCONFORM_SWEEP_KERNEL=$scratch/bin/kernel NSCONFORM_SWEEP_MATRIX=$scratch/bin/matrix
export LOG=$scratch/calls HANG=$scratch/hang
sweep() {
	"$top/harness/sweep" --jobs 1 --cache "$scratch/c" --results "$scratch/r" \
		--case "$scratch/cases/good" --case "$scratch/cases/bad" "$@"
}

sweep > "$scratch/out" 2>&1
is "a cold sweep exits 0" $? 0
is "every release of the archive booted once, with both binaries" "$(cat "$LOG")" \
	"r1 good bad
r2 good bad"
like "progress: release k of N, elapsed, estimate" "$scratch/out" \
	'^sweep: release 1 of 2 done, elapsed [0-9]+m[0-9]{2}s, about [0-9]+m[0-9]{2}s left$'
check "the results folder has each release's TAP" test -f "$scratch/r/r2/user/bad.tap"
like "and its meta" "$scratch/r/r1/meta" '^kernel_version=9\.1\.1-1$'
like "the summary has the failing test's row" "$scratch/r/SUMMARY" '^row root bad/t FF$'
like "the summary lists the binaries' hashes" "$scratch/r/SUMMARY" '^binary good [0-9a-f]{16}$'
"$top/harness/report" --no-expectations "$scratch/r" > "$scratch/report" 2>&1
is "harness/report reads the assembled folder (exit 1: bad fails)" $? 1

: > "$LOG"
sweep > "$scratch/out" 2>&1
is "a rerun exits 0" $? 0
is "a rerun with nothing changed boots nothing" "$(cat "$LOG")" ""
like "it says everything was cached" "$scratch/out" '^sweep: 2 of 2 releases cached, 0 to boot'

printf '# changed\n' >> "$scratch/cases/good"
sweep > "$scratch/out" 2>&1
is "a changed binary: every release boots with it alone" "$(cat "$LOG")" "r1 good
r2 good"
check "the unchanged binary's results are still in the folder" test -f "$scratch/r/r1/root/bad.tap"

: > "$LOG"
sweep r1 nofetch noboot > "$scratch/out" 2>&1
is "a kernel that cannot be fetched or booted: exit 1" $? 1
like "the fetch error names the release" "$scratch/out" \
	'ERROR: nofetch: cannot fetch: harness/kernel: download of nofetch failed'
like "the boot error names the release" "$scratch/out" 'ERROR: noboot: guest runner never started$'
like "the end lists the releases without a result" "$scratch/out" '^  noboot: '
check "nothing of the failed boot is cached" test ! -e "$scratch/c/noboot/good@"*
like "the summary lists the failed release as an error" "$scratch/r/SUMMARY" \
	'^release noboot - - error$'
: > "$LOG"
sweep noboot > /dev/null 2>&1
is "the next sweep tries the failed release again" "$(cat "$LOG")" "noboot good bad"

# Interrupted while r3's guest runs: r1 stays cached, r3 runs next time.
: > "$LOG"
touch "$HANG"
"$top/harness/sweep" --jobs 1 --cache "$scratch/c" --results "$scratch/r" \
	--case "$scratch/cases/good" --case "$scratch/cases/bad" r1 r3 > "$scratch/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^r3' "$LOG" 2>/dev/null && break; sleep 0.1; done
kill -TERM $pid
wait $pid
is "an interrupted sweep exits 130" $? 130
like "it says how to resume" "$scratch/out" 'interrupted; finished releases are cached'
sleep 0.5
check "its guest's matrix was stopped" sh -c "! pgrep -f -- '$scratch/bin/matri[x]' > /dev/null"
rm -f "$HANG"
: > "$LOG"
sweep r1 r3 > "$scratch/out" 2>&1
is "the resumed sweep exits 0" $? 0
is "it boots only the release that did not finish" "$(cat "$LOG")" "r3 good bad"
like "and counts the finished one as cached" "$scratch/out" \
	'^sweep: 1 of 2 releases cached, 1 to boot'
# A module added for one case (for=CASE): its cached results came from a
# guest that never tried it, so that case alone runs again, once.
printf 'mymod        for=good   a module of good alone\n' > "$scratch/modules"
export NSCONFORM_SWEEP_MODULES=$scratch/modules
: > "$LOG"
FAKE_LOADED="veth mymod" sweep r1 > "$scratch/out" 2>&1
is "a module added for a case: that case runs again" "$(cat "$LOG")" "r1 good"
: > "$LOG"
sweep r1 > "$scratch/out" 2>&1
is "once its guest tried the module, the result stands" "$(cat "$LOG")" ""
printf 'mymod        for=good\nmymod2       for=good\n' > "$scratch/modules"
: > "$LOG"
sweep --dry-run r1 > "$scratch/out" 2>&1
like "another module for it: a dry run says it runs again" "$scratch/out" \
	'^1/1 r1: 1 binaries to run$'
done_testing
