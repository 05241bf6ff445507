#!/bin/sh
# harness/bisect: bisection order, two boots per verdict, untestable releases
# stepped over, both directions, and git bisect run over a fake kernel tree
# (a fake build and a fake boot: no kernel is built or booted here).
. "$(dirname "$0")/../lib.sh"
plan 34

bisect=$top/harness/bisect
case_=mnt_propagation/unbindable_bind_fails_einval

# A fake harness/kernel: "releases SERIES [FROM TO]" lists $FAKE_RELEASES.
cat > "$scratch/kernel" <<'EOF'
#!/bin/sh
[ "$1" = releases ] || exit 1
echo "$FAKE_RELEASES" | tr ' ' '\n' | awk -v f="${3:-}" -v t="${4:-}" '
	{ v = $0; sub(/[+-].*/, "", v) }
	f == "" || f == $0 || f == v { on = 1 }
	on { print }
	t == $0 || t == v { on = 0 }'
EOF
# A fake boot: the verdicts of KERNEL are the words after it in $FAKE_TABLE,
# one per boot (the last repeats); ok, fail, skip, crash, health, timeout or notrun.
cat > "$scratch/boot" <<'EOF'
#!/bin/sh
k=$1 dir=$2
[ -f "$k" ] && k=$(cat "$k")	# git bisect run: the "bzImage" names the kernel
echo "$k" >> "$FAKE_LOG"
n=$(grep -cx -- "$k" "$FAKE_LOG")
v=$(awk -v k="$k" -v n="$n" '$1 == k { i = n + 1; if (i > NF) i = NF; print $i }' "$FAKE_TABLE")
mkdir -p "$dir/boot/$k/root"
case "$v" in
ok) echo "ok 1 prop.unbindable_bind_fails_einval" ;;
fail) echo "not ok 1 prop.unbindable_bind_fails_einval" ;;
skip) echo "ok 1 prop.unbindable_bind_fails_einval # SKIP no such feature" ;;
crash)	echo "status=crashed" > "$dir/boot/$k/meta"
	echo "not ok 1 prop.unbindable_bind_fails_einval # CRASH" ;;
health) echo "not ok 1 prop.unbindable_bind_fails_einval # KERNEL-HEALTH kernel tainted W" ;;
timeout) echo "not ok 1 prop.unbindable_bind_fails_einval # TIMEOUT mnt_propagation exceeded 9 s" ;;
notrun) echo "not ok 1 prop.unbindable_bind_fails_einval # NOTRUN the guest stopped first" ;;
esac > "$dir/boot/$k/root/mnt_propagation.tap"
EOF
chmod +x "$scratch/kernel" "$scratch/boot"
export NSCONFORM_KERNEL_TOOL="$scratch/kernel" NSCONFORM_BISECT_RUNNER="$scratch/boot"
export FAKE_LOG="$scratch/log" FAKE_TABLE="$scratch/table"
export FAKE_RELEASES="7.2.6+deb13 7.2.9+deb13 7.2.11+deb13 7.2.12+deb13 7.2.13+deb14"
run() { : > "$FAKE_LOG"; "$bisect" "$@" > "$scratch/out" 2>&1; }
boots_of() { grep -cx -- "$1" "$FAKE_LOG"; }

# A fix: bad up to 7.2.9, good from 7.2.11.
cat > "$FAKE_TABLE" <<'EOF'
7.2.6+deb13 fail
7.2.9+deb13 fail
7.2.11+deb13 ok
7.2.12+deb13 ok
7.2.13+deb14 ok
EOF
run --series 7.2 "$case_"
is "a fix is found: exit 0" $? 0
like "the last bad release is 7.2.9" "$scratch/out" '^last bad: +7\.2\.9\+deb13$'
like "the first good release is 7.2.11" "$scratch/out" '^first good: +7\.2\.11\+deb13$'
is "each tested release boots twice (7.2.11)" "$(boots_of 7.2.11+deb13)" 2
is "bisection order: 7.2.12 is never booted" "$(boots_of 7.2.12+deb13)" 0
is "4 releases, 8 boots" "$(wc -l < "$FAKE_LOG")" 8
like "the ends are booted first" "$scratch/out" '^  7\.2\.6\+deb13: bad'
run --from 7.2.9 --to 7.2.12 "$case_"
like "--from/--to bisect a range of one series" "$scratch/out" '^first good: +7\.2\.11\+deb13$'

# Two boots that disagree blame nothing: 7.2.11 is stepped over.
sed -i 's/^7\.2\.11+deb13 ok$/7.2.11+deb13 ok fail/' "$FAKE_TABLE"
run --series 7.2 "$case_"
like "disagreeing boots are untestable" "$scratch/out" \
	'7\.2\.11\+deb13: untestable \(the boots disagree: ok, then fail\)'
like "the next release is the first good one" "$scratch/out" '^first good: +7\.2\.12\+deb13$'
like "the untestable release is named" "$scratch/out" '^between them, untestable: 7\.2\.11\+deb13$'
# A crash or a SKIP is untestable too.
sed -i 's/^7\.2\.11+deb13 .*/7.2.11+deb13 crash/' "$FAKE_TABLE"
run --series 7.2 "$case_"
like "a crashed guest is untestable" "$scratch/out" '7\.2\.11\+deb13: untestable \(crash twice\)'

# KERNEL-HEALTH, TIMEOUT and not run decide nothing: a release that gives them
# is stepped over, never blamed (as "bad" it would be the last bad release).
for v in health timeout notrun; do
	sed -i "s/^7\.2\.9+deb13 .*/7.2.9+deb13 $v/; s/^7\.2\.11+deb13 .*/7.2.11+deb13 ok/" \
		"$FAKE_TABLE"
	run --series 7.2 "$case_"
	like "$v is not bad: 7.2.6 stays the last bad release" "$scratch/out" \
		'^last bad: +7\.2\.6\+deb13$'
done
like "and 7.2.9 is named untestable" "$scratch/out" '^between them, untestable: 7\.2\.9\+deb13$'
like "saying why" "$scratch/out" '7\.2\.9\+deb13: untestable \(not run twice\)'

# A test name is checked as harness/check --test checks it, before any boot.
run --series 7.2 mnt_pivot/pivot.no_such_variant.pivot_root_fails_with_that_errno
is "an unknown test (a real last word) is refused: exit 2" $? 2
is "and nothing boots" "$(wc -l < "$FAKE_LOG")" 0
like "with check's message" "$scratch/out" \
	"no test matches 'mnt_pivot/pivot\.no_such_variant\.pivot_root_fails_with_that_errno'"
run --series 7.2 pivot_root_fails_with_that_errno
is "an ambiguous name is refused: exit 2" $? 2
run --series
is "an option without its value: exit 2" $? 2
run --series 7.2 unbindable_bind_fails_einval
is "a test named without binary and fixture is found" $? 0
like "and named in full" "$scratch/out" \
	'^harness/bisect: mnt_propagation/prop\.unbindable_bind_fails_einval \(root pass\)'

# A regression: good, then bad.
cat > "$FAKE_TABLE" <<'EOF'
7.2.6+deb13 ok
7.2.9+deb13 ok
7.2.11+deb13 ok
7.2.12+deb13 fail
7.2.13+deb14 fail
EOF
run --series 7.2 "$case_"
like "a regression names the first bad release" "$scratch/out" '^first bad: +7\.2\.12\+deb13$'
like "and the last good one" "$scratch/out" '^last good: +7\.2\.11\+deb13$'
# Both ends agree: nothing to bisect.
sed -i 's/ fail$/ ok/' "$FAKE_TABLE"
run --series 7.2 "$case_"
is "ends that agree exit 1" $? 1

# --- git bisect run over a fake kernel tree --------------------------------
tree=$scratch/tree
mkdir -p "$tree/arch/x86/boot"
cd "$tree" || exit 1
git init -q . && git config user.email t@example.invalid && git config user.name t
echo 'all:' > Makefile
echo 'CONFIG_FAKE=y' > .config
echo .config > .gitignore
printf '%s\n' "k-good ok" "k-bad fail" > "$FAKE_TABLE"
export NSCONFORM_BISECT_BUILD='[ "$(cat state)" != broken ] && cp state arch/x86/boot/bzImage'
n=0
for s in k-good k-good k-bad broken k-bad; do
	n=$((n + 1))
	echo "$s" > state
	git add -A && git commit -q --allow-empty -m "c$n $s"
done
git checkout -q HEAD~4; "$bisect" "$case_" > /dev/null 2>&1
is "git mode: a good build exits 0" $? 0
git checkout -q master 2>/dev/null || git checkout -q main
"$bisect" "$case_" > /dev/null 2>&1
is "git mode: a bad build exits 1" $? 1
git checkout -q HEAD~1; "$bisect" "$case_" > /dev/null 2>&1
is "git mode: a failed build exits 125" $? 125
git checkout -q -
mv .config config.away; "$bisect" "$case_" > /dev/null 2>&1
is "git mode: no .config stops git bisect (128)" $? 128
mv config.away .config
git bisect start HEAD HEAD~4 > /dev/null 2>&1
git bisect run "$bisect" "$case_" > "$scratch/gb" 2>&1
like "git bisect run finds the first bad commit" "$scratch/gb" 'is the first bad commit'
like "it is c3, the first bad build" "$scratch/gb" 'c3 k-bad'
git bisect reset > /dev/null 2>&1
: > "$FAKE_LOG"; git checkout -q HEAD~2; "$bisect" "$case_" > /dev/null 2>&1
is "git mode: each verdict is two boots" "$(wc -l < "$FAKE_LOG")" 2
done_testing
