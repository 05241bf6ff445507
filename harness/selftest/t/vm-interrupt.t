#!/bin/sh
# Interrupting the QEMU matrix, with a fake QEMU (harness/selftest/fake-qemu:
# no guest boots).  SIGTERM to harness/matrix alone (as a driver sends it),
# or SIGINT to its process group (Ctrl-C): every guest stops, a guest that
# completed keeps its results, no temporary file stays, and the run says
# how to go on; --resume keeps the complete kernels, runs the others and
# gives what an uninterrupted run gives.  A heartbeat while a guest runs;
# the watchdog is sized in minutes.
. "$(dirname "$0")/../lib.sh"
plan 24
matrix=$top/harness/matrix
kernel=$top/harness/kernel
export NSCONFORM_QEMU="$top/harness/selftest/fake-qemu" FAKE_QEMU_LOG="$scratch/qemu.log"
export NSCONFORM_KERNEL_CACHE="$scratch/kc" TMPDIR="$scratch/tmp"
mkdir -p "$TMPDIR"

# Two self-built "kernels": copies of a real one (from the shared cache).
real=$(NSCONFORM_KERNEL_CACHE= "$kernel" fetch 5.10 2>/dev/null)
for k in a b; do
	mkdir -p "$scratch/$k"
	cp "$real/vmlinuz" "$scratch/$k/bzImage"
	{ cat "$real/config"; echo "# kernel $k"; } > "$scratch/$k/config"
done
ka=$("$kernel" fetch "$scratch/a/bzImage") kb=$("$kernel" fetch "$scratch/b/bzImage")
ka=${ka##*/} kb=${kb##*/}
# m OPTION...: the run (exec: a background m is harness/matrix itself).
m() {
	exec "$matrix" --accel tcg --jobs 2 --case "$top/build/cases/uts" \
		--case "$top/build/cases/ipc" "$@" "$scratch/a/bzImage" "$scratch/b/bzImage"
}
# started_and_done: both guests started, and a's guest sent its last line.
started_and_done() {
	for t in $(seq 200); do
		[ "$(grep -c '^start ' "$scratch/qemu.log" 2>/dev/null)" = 2 ] &&
			grep -qs '^@@nsconform done' "$TMPDIR"/nsconform-matrix.*/job0/stream &&
			return 0
		sleep 0.2
	done
	return 1
}
# no_guest_left: every fake QEMU that was started is gone.
no_guest_left() {
	for pid in $(awk '{ print $3 }' "$scratch/qemu.log"); do
		kill -0 "$pid" 2>/dev/null && return 1
	done
	return 0
}

# a completes but is slow to power off; b is mid-run: SIGTERM to harness/matrix.
: > "$scratch/qemu.log"
FAKE_QEMU_LINGER=1000 FAKE_QEMU_SLOW=$kb m --results "$scratch/r" --run-id i \
	> "$scratch/out" 2>&1 &
mpid=$!
check "both guests run, a's has sent everything" started_and_done
kill -TERM "$mpid"
wait "$mpid"
is "SIGTERM: exit 130" $? 130
check "every guest is stopped" no_guest_left
is "no temporary file is left" "$(ls -A "$TMPDIR")" ""
like "the guest that completed keeps its results" "$scratch/r/i/$ka/root/uts.tap" '^ok 2 '
like "as a complete kernel" "$scratch/r/i/$ka/meta" '^status=passed$'
check "the interrupted guest leaves no folder" test ! -e "$scratch/r/i/$kb"
like "it says how to go on" "$scratch/out" "to go on: harness/matrix --resume .*/r/i"
cp "$scratch/r/i/$ka/meta" "$scratch/meta-a"

: > "$scratch/qemu.log"
"$matrix" --resume "$scratch/r/i" > "$scratch/out" 2>&1
is "--resume finishes the run: exit 0" $? 0
is "only the missing kernel boots" "$(awk '{ print $2 }' "$scratch/qemu.log")" "$kb"
check "the complete kernel is kept as it was" cmp "$scratch/r/i/$ka/meta" "$scratch/meta-a"
like "the other is complete now" "$scratch/r/i/$kb/meta" '^status=passed$'
is "no temporary file is left" "$(ls -A "$TMPDIR")" ""

# The same run uninterrupted: the same results, timings aside (and QEMU's
# exit status: a's guest, stopped after its last line, exited 143).
(FAKE_QEMU_DELAY=1 NSCONFORM_HEARTBEAT=1 m --results "$scratch/r" --run-id u) \
	> "$scratch/out" 2>&1
is "the uninterrupted run: exit 0" $? 0
like "a heartbeat while a guest runs: time, binaries done of all, the running one" \
	"$scratch/out" "^nsconform: \[[12]/2\] $ka: [0-9]+ s, [0-3]/4 case binaries done \(running "
norm() {
	"$top/harness/report" --format json "$scratch/r/$1" | perl -MJSON::PP -e '
	my $run = shift;
	sub walk { my $x = shift;
		if (ref $x eq "HASH") {
			delete @$x{qw(date seconds generated qemu_exit)};
			walk($_) for values %$x }
		elsif (ref $x eq "ARRAY") { walk($_) for @$x } }
	my $j = decode_json(do { local $/; <STDIN> }); walk($j);
	my $t = JSON::PP->new->canonical->pretty->encode($j);
	$t =~ s{"\Q$run\E(["/])}{"RUN$1}g; print $t' "$1" > "$scratch/$1.json"
}
norm i; norm u
check "--resume gives the results of an uninterrupted run" cmp "$scratch/i.json" "$scratch/u.json"
[ -s "$scratch/u.json" ] || echo "# no JSON report" >&2

# Ctrl-C: SIGINT to the whole process group, while both guests run (a
# background command starts with SIGINT ignored: perl gives it back).
: > "$scratch/qemu.log"
FAKE_QEMU_SLOW=$kb FAKE_QEMU_LINGER=1000 setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' \
	"$matrix" --accel tcg --jobs 2 --case "$top/build/cases/uts" --results "$scratch/r" \
	--run-id c "$scratch/a/bzImage" "$scratch/b/bzImage" > "$scratch/out" 2>&1 &
mpid=$!
check "both guests run" started_and_done
env kill -INT -- "-$mpid"	# dash's kill takes no --
wait "$mpid"
is "SIGINT to the group: exit 130" $? 130
check "every guest is stopped" no_guest_left
is "no temporary file is left" "$(ls -A "$TMPDIR")" ""
like "the guest that completed keeps its results" "$scratch/r/c/$ka/meta" '^status=passed$'

# The watchdog: minutes from the work (here 2 binaries, 2 passes), and
# --watchdog still sets it.
like "the watchdog is 180 s + one timeout + 10 s per binary and pass" \
	"$scratch/r/u/$ka/meta" '^watchdog=340$'
"$matrix" --accel tcg --watchdog 77 --case "$top/build/cases/uts" --results "$scratch/r" \
	--run-id w "$scratch/a/bzImage" > "$scratch/out" 2>&1
like "--watchdog overrides it" "$scratch/r/w/$ka/meta" '^watchdog=77$'
NSCONFORM_CASE_BUDGET=3 "$matrix" --accel tcg --case "$top/build/cases/uts" --pass root \
	--results "$scratch/r" --run-id w2 "$scratch/a/bzImage" > "$scratch/out" 2>&1
like "NSCONFORM_CASE_BUDGET sets the per-binary part" "$scratch/r/w2/$ka/meta" '^watchdog=303$'
done_testing
