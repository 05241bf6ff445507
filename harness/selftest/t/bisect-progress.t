#!/bin/sh
# harness/bisect says where it is while it boots (step s of ~n, which boot
# of which release, a time estimate), and an interrupt stops the boot under
# way, removes its temporary folder, and says what is known and how to go
# on.  Fake releases and a fake boot, as in bisect.t: nothing boots here.
. "$(dirname "$0")/../lib.sh"
plan 10
bisect=$top/harness/bisect
case_=mnt_propagation/unbindable_bind_fails_einval
cat > "$scratch/kernel" <<'EOF2'
#!/bin/sh
[ "$1" = releases ] && echo "$FAKE_RELEASES" | tr ' ' '\n'
EOF2
# A fake boot: fail up to 7.2.9, ok from 7.2.11; FAKE_HANG's boot never ends.
cat > "$scratch/boot" <<'EOF2'
#!/bin/sh
k=$1 dir=$2
echo "$k" >> "$FAKE_LOG"
[ "$k" = "${FAKE_HANG:-}" ] && exec sleep 3517
mkdir -p "$dir/boot/$k/root"
case "$k" in
7.2.6*|7.2.9*) echo "not ok 1 prop.unbindable_bind_fails_einval" ;;
*) echo "ok 1 prop.unbindable_bind_fails_einval" ;;
esac > "$dir/boot/$k/root/mnt_propagation.tap"
EOF2
chmod +x "$scratch/kernel" "$scratch/boot"
export NSCONFORM_KERNEL_TOOL="$scratch/kernel" NSCONFORM_BISECT_RUNNER="$scratch/boot"
export FAKE_LOG="$scratch/log" TMPDIR="$scratch/tmp"
export FAKE_RELEASES="7.2.6+deb13 7.2.9+deb13 7.2.11+deb13 7.2.12+deb13 7.2.13+deb14"
mkdir -p "$TMPDIR"

"$bisect" --series 7.2 "$case_" > "$scratch/out" 2>&1
is "the bisection runs" $? 0
like "each boot says its step, release and boot" "$scratch/out" \
	'^harness/bisect: step 1 of ~4: 7\.2\.6\+deb13, boot 1 of 2$'
like "the second boot too" "$scratch/out" \
	'^harness/bisect: step 1 of ~4: 7\.2\.6\+deb13, boot 2 of 2'
like "later boots give an estimate" "$scratch/out" \
	'^harness/bisect: step 2 of ~4: 7\.2\.13\+deb14, boot 1 of 2, about [0-9]+ min left$'
is "4 steps as announced" "$(grep -c 'boot 1 of 2' "$scratch/out")" 4

# Interrupted during the third release's first boot.
: > "$FAKE_LOG"
FAKE_HANG=7.2.11+deb13 "$bisect" --series 7.2 "$case_" > "$scratch/out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q '^7\.2\.11' "$FAKE_LOG" && break; sleep 0.1; done
sleep 0.3
kill -TERM "$pid"
wait "$pid"
is "interrupted: exit 130" $? 130
check "the boot under way is stopped" sh -c '! pgrep -f "sleep 351[7]" > /dev/null'
like "it says what is known" "$scratch/out" '^  7\.2\.13\+deb14: good$'
r1='7\.2\.6\+deb13' r2='7\.2\.13\+deb14'
full='mnt_propagation/prop\.unbindable_bind_fails_einval'	# the name as bisect resolved it
like "and how to go on" "$scratch/out" \
	"^harness/bisect: to go on: harness/bisect --from $r1 --to $r2 $full\$"
is "no temporary folder is left" "$(ls -A "$TMPDIR")" ""
done_testing
