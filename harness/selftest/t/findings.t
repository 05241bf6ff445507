#!/bin/sh
# harness/findings: the kernel sets of fixtures/data/expectations come from the
# sweep's summary.  --check fails on a wrong range, a dead entry and a
# failing release no entry covers, and passes when they agree; --write turns
# the sweep into ranges (first bad .. last bad per series, whole series as
# bounds, the exact releases in #@ lines) and one entry per finding; the
# CLASS field and comma ranges parse; --readme shows the classes with counts.
# Small hand-made summaries (make test runs harness/findings --check on the
# committed fixtures/data/sweep-summary itself).
. "$(dirname "$0")/../lib.sh"
plan 37
f=$top/harness/findings

# Three series: 6.12 (4 releases), 6.16 and 6.17 (one each), 7.0 (2).
cat > "$scratch/sum" <<'EOF'
suite test
binary bugs 0123456789abcdef
release 6.12.43+deb12-amd64 6.12.43-1~bpo12+1 6.12.43 failed
release 6.12.74+deb12-amd64 6.12.74-2~bpo12+1 6.12.74 failed
release 6.12.90+deb13-amd64 6.12.90-1 6.12.90 passed
release 6.12.94+deb13-amd64 6.12.94-1 6.12.94 passed
release 6.16.3+deb13-amd64 6.16.3-1~bpo13+1 6.16.3 missing
release 6.16.12+deb13-amd64 6.16.12-1~bpo13+1 6.16.12 failed
release 6.17.8+deb13-amd64 6.17.8-1~bpo13+1 6.17.8 failed
release 7.0.4+deb13-amd64 7.0.4-1~bpo13+1 7.0.4 failed
release 7.0.12+deb13-amd64 7.0.12-2~bpo13+1 7.0.12 passed
row root bugs/early FF.. -F F F.
row user bugs/early FF.. -F F F.
row root bugs/late .... -. F ..
row user bugs/late .... -. s ..
row user bugs/skipped ssss -s s sN
EOF
good() {
	cat > "$scratch/exp" <<'EOF'
# header
fail  6.12..6.12.74,6.16..6.17,7.0.4  *  bugs/early  linux:0123abcd  early bug
fail  regression  6.17  root  bugs/late  unfixed:6.17.8  late bug
EOF
}
good
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: ranges that agree pass" $? 0
like "--check says so" "$scratch/out" 'every entry agrees with the sweep of 8 releases'
like "--check: the release without a result is a warning" "$scratch/out" \
	'warning: the sweep is incomplete: 1 of 9 releases have no result'

unlike "--check: no warning about classes the sweep agrees with" "$scratch/out" 'suggests'
sed 's/^fail  6.12/fail  unfixed  6.12/' "$scratch/exp" > "$scratch/exp.c"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp.c" > "$scratch/out" 2>&1
like "--check: a class the sweep contradicts is a warning" "$scratch/out" \
	'warning: .*exp.c:2: bugs/early .*class unfixed, the sweep suggests fixed'
# stable:X must be where the sweep sees the fix land.
good
sed -i 's/linux:0123abcd  early bug/stable:6.12.90  early bug/' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: a stable: reference where the sweep sees the fix passes" $? 0
sed -i 's/stable:6.12.90/stable:6.12.74/' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
like "--check: a stable: release the sweep sees failing is an error" "$scratch/out" \
	'exp:2: bugs/early .*reference stable:6.12.74, but the sweep sees it fail on 6.12.74'
sed -i 's/stable:6.12.74/stable:6.12.94/' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
like "--check: a stable: release after the first good one is an error" "$scratch/out" \
	'reference stable:6.12.94, but the sweep sees it pass already on 6.12.90'
good
# A wrong range: 7.0 all (7.0.12 passes) and 6.12 stops too early.
sed -i 's/6.12..6.12.74,6.16..6.17,7.0.4/6.12..6.12.43,6.16..6.17,7.0/' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: a wrong range fails" $? 1
like "the wrong range: what it covers that passes" "$scratch/out" \
	'exp:2: bugs/early \(\* pass\): KERNELS .* disagrees with the sweep;'\
'.* covers releases that pass: 7.0.12\+deb13-amd64'
like "the wrong range: the failing release it misses" "$scratch/out" \
	'misses failing releases: 6.12.74\+deb12-amd64.*'\
'the sweep says: 6.12..6.12.74,6.16..6.17,7.0..7.0.4$'
like "the release no entry covers is named too" "$scratch/out" \
	'uncovered failure: root bugs/early on 6.12.74\+deb12-amd64'

# A dead entry: bugs/late only ever SKIPs in the user pass.
good
echo "fail  6.17  user  bugs/late  linux:0123abcd  late bug, user pass" >> "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: a dead entry fails" $? 1
like "the dead entry is named" "$scratch/out" \
	'exp:4: dead: bugs/late \(user pass\) matches only passing, SKIP or not-run results'
echo "fail  7.0  *  bugs/skipped  linux:0123abcd  skips" >> "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
like "an entry over SKIPs only is dead" "$scratch/out" 'exp:5: dead: bugs/skipped'

# A failing release no entry covers.
good
sed -i '/bugs\/late/d' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: an uncovered failing release fails" $? 1
like "it names the release and the test" "$scratch/out" \
	'^harness/findings: uncovered failure: root bugs/late on 6.17.8\+deb13-amd64 '
unlike "the user pass's SKIP is no failure" "$scratch/out" 'user bugs/late'

# `#! unswept` exempts an entry the sweep cannot show.
good
printf '%s\n' '#! unswept needs two CPUs' \
	'fail  6.12.90  *  bugs/skipped  linux:0123abcd  shows on 2 CPUs only' >> "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check: an entry marked unswept is not judged" $? 0

# --write: the sweep's ranges, exact releases in #@ lines, one entry per finding.
cat > "$scratch/exp" <<'EOF'
# header
# The early bug.
fail  6.16..6.17  *  bugs/early  linux:0123abcd  early bug
fail  7.0         *  bugs/early  linux:0123abcd  early bug, 7.0
#@ stale generated line
fail  fixed  ..6.1  root  bugs/late  linux:4567  late bug
EOF
"$f" --write --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--write succeeds" $? 0
like "--write: KERNELS from the sweep" "$scratch/exp" \
	'^fail  6.12..6.12.74,6.16..6.17,7.0..7.0.4  \*  bugs/early  linux:0123abcd  early bug$'
like "--write: the exact releases of a series" "$scratch/exp" \
	'^#@ 6.12: first bad 6.12.43\+deb12-amd64, last bad 6.12.74\+deb12-amd64,'\
' first good 6.12.90\+deb13-amd64$'
like "--write: a bad newest release has no good after it" "$scratch/exp" \
	'^#@ 6.17: bad 6.17.8\+deb13-amd64, no good release after it$'
unlike "--write: the second entry of the finding went" "$scratch/exp" 'early bug, 7.0'
like "--write: the CLASS stays, the range is the sweep's" "$scratch/exp" \
	'^fail  fixed  6.17  root  bugs/late  linux:4567  late bug$'
unlike "--write: the stale #@ line went" "$scratch/exp" 'stale generated'
like "--write: the hand comment stays" "$scratch/exp" '^# The early bug.$'
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "--check passes after --write" $? 0
cp "$scratch/exp" "$scratch/exp.1"
"$f" --write --summary "$scratch/sum" --expectations "$scratch/exp" > /dev/null 2>&1
check "--write twice changes nothing" cmp -s "$scratch/exp" "$scratch/exp.1"

# The classes: doc entries cover no result; a bad class is refused.
doc='doc  6.2..  *  bugs/skipped  linux:2b5f9dad32ed  x(7) "the page says A"; since 6.2 B'
good
echo "$doc" >> "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
is "a doc entry is not judged against failures" $? 0
echo "fail  doc  7.0  *  bugs/early  linux:0  x" >> "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" > "$scratch/out" 2>&1
like "class doc with status fail is refused" "$scratch/out" 'class doc goes with status doc'

good
echo "$doc" >> "$scratch/exp"
printf '%s\n' '# x' '<!-- findings:begin -->' 'old' '<!-- findings:end -->' '# y' \
	> "$scratch/README"
"$f" --readme "$scratch/README" --summary "$scratch/sum" --expectations "$scratch/exp" \
	> "$scratch/out" 2>&1
like "--readme: the classes with counts" "$scratch/README" \
	'Kernel regressions: 1, Kernel bugs fixed: 1, Kernel bugs unfixed: 0,'\
' Documentation findings: 1'
like "--readme: a doc finding: the page's sentence, what the kernel does, since when" \
	"$scratch/README" '^\| F3 \| `bugs/skipped` \| x\(7\) "the page says A" \| since 6\.2 B \|'\
' linux:2b5f9dad32ed \| 6\.2\.\. \|$'
like "--readme: the release x finding table" "$scratch/README" \
	'^\| F2 \| 6\.12\.43\.\.6\.12\.74 \| all \| all \| 7\.0\.4 \|$'

# --build: a binary built since the sweep (a hash the summary lacks) is not
# judged, so a stale summary cannot fail make test; the same binary with the
# summary's hash is judged again.
mkdir -p "$scratch/build"
printf 'a case binary\n' > "$scratch/build/bugs"
chmod +x "$scratch/build/bugs"
good
sed -i 's/^fail  6.12..6.12.74,/fail  6.12..6.12.43,/' "$scratch/exp"
"$f" --check --summary "$scratch/sum" --expectations "$scratch/exp" --build "$scratch/build" \
	> "$scratch/out" 2>&1
is "--check --build: a changed binary's wrong range is not judged" $? 0
like "--check --build: a warning names it" "$scratch/out" \
	'warning: not judged, built since the sweep .*: bugs'
h=$(sha256sum "$scratch/build/bugs" | cut -c1-16)
sed "s/^binary bugs .*/binary bugs $h/" "$scratch/sum" > "$scratch/sum.h"
"$f" --check --summary "$scratch/sum.h" --expectations "$scratch/exp" --build "$scratch/build" \
	> "$scratch/out" 2>&1
is "--check --build: the swept binary's wrong range fails" $? 1

done_testing
