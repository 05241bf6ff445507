#!/bin/sh
# harness/report: every format from a four-kernel results tree built from
# real TAP (one harness/check run of the self-test binaries, copied per
# kernel), a synthetic regression, expectations, bad folders, and the lint
# of the CI definitions (make test validates ci/*.yml here).
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 55

# Real TAP: passing, failing, hanging and crashing binaries.
pass_arg=
[ "$(id -u)" = 0 ] || pass_arg="--pass user"
"$top/harness/check" --results "$scratch/real" --run-id real --no-hygiene $pass_arg --timeout 2 \
	"$selftest/whoami" "$selftest/failing" "$selftest/hangs" "$selftest/crashes" \
	> "$scratch/check.out" 2>&1
is "check keeps its exit status (1: a case failed)" $? 1
tail -n 12 "$scratch/check.out" > "$scratch/check.tail"
like "check ends with the report's summary" "$scratch/check.tail" \
	'^nsconform report: .* (root|user): [0-9]+ passed, [1-9][0-9]* failed'
like "the summary names the failing case" "$scratch/check.tail" '^  FAIL failing/fails: .*Expected'
real=$(ls -d "$scratch"/real/real/*/ | head -n 1)
real=${real%/}
passes=$(ls -d "$real"/*/ | wc -l)
p1=$(basename "$(ls -d "$real"/*/ | head -n 1)")

# Four kernels, as make matrix lays them out.
m=$scratch/res/m1
for k in 5.10.0-32-amd64 6.1.0-47-amd64 6.12.95+deb12-amd64 7.2.12+deb13-amd64; do
	mkdir -p "$m/$k"
	cp -R "$real"/. "$m/$k"/
	sed -i -e "s/^kernel=.*/kernel=$k/" -e 's/^where=.*/where=qemu-tcg/' "$m/$k/meta"
done
# 5.10 lacks a feature: a SKIP with its reason where the others pass.
sed -i 's/^ok 1 global\.passes$/ok 1 global.passes # SKIP clone3 returned ENOSYS/' \
	"$m"/5.10.0-32-amd64/*/failing.tap
# 6.12 has no meta and no timing: missing files are not errors.
rm -f "$m"/6.12.95+deb12-amd64/meta "$m"/6.12.95+deb12-amd64/*/timing
# 7.2's guest crashed during hangs: its TAP is cut short, whoami never ran.
k72=$m/7.2.12+deb13-amd64
for p in "$k72"/*/; do
	head -n 6 "$p/hangs.tap" > "$p/cut" && mv "$p/cut" "$p/hangs.tap"
	rm -f "$p/whoami.tap"
done
echo "Kernel panic - not syncing: synthetic" > "$k72/crashed"
printf '[    0.0] Linux version 7.2.12\n[    9.9] Kernel panic - not syncing: synthetic\n' > "$k72/kernel.log"

# Terminal table.
"$report" --no-expectations "$m" > "$scratch/text" 2> "$scratch/text.err"
is "the matrix exits 1 on unexpected failures" $? 1
like "text: one column per kernel" "$scratch/text" '^case +5\.10/[a-z]+ .*6\.1/.*6\.12/.*7\.2/'
like "text: the 5.10 SKIP" "$scratch/text" '^failing/passes +skip '
like "text: the failure" "$scratch/text" '^failing/fails +FAIL '
like "text: the timeout" "$scratch/text" '^hangs/blocks_in_wait +TIME '
like "text: the crashing binary" "$scratch/text" '^crashes/crashing +CRASH '
like "text: a case the crashed guest never ran" "$scratch/text" '^whoami/whoami +ok .* CRASH *$'
like "text: tests after the cut are named and not run" "$scratch/text" '^hangs/leaves_child_behind +ok .* NORUN *$'
like "text: the skip reason is listed" "$scratch/text" '^  failing/passes \(5\.10/.*\): clone3 returned ENOSYS'
like "text: the missing meta is a warning" "$scratch/text.err" 'warning: .*6\.12\.95\+deb12-amd64: no meta file'

# Markdown.
"$report" --no-expectations --format markdown "$m" > "$scratch/md" 2>> "$scratch/stderr"
like "markdown: table header" "$scratch/md" '^\| case \| 5\.10/[a-z]+ \|'
like "markdown: summary row" "$scratch/md" '^\| \*\*summary\*\* \| [0-9]+ passed'

# HTML: one page, no external assets, a coloured cell per case and kernel.
"$report" --no-expectations --format html -o "$scratch/m.html" "$m" 2>> "$scratch/stderr"
like "html: a page" "$scratch/m.html" '^<!DOCTYPE html>'
unlike "html: no external assets" "$scratch/m.html" '<(link|script|img|iframe)|src=|url\(|@import'
like "html: the skip cell carries its reason" "$scratch/m.html" \
	'class="skip" title="failing/passes on 5\.10/[a-z]+: skip - clone3 returned ENOSYS"'
like "html: the crash cell" "$scratch/m.html" 'class="crash" title="whoami/whoami on 7\.2/'
like "html: diagnostics expand" "$scratch/m.html" '<details><summary>FAIL</summary><pre>[^<]*Expected 1'
like "html: per-kernel summary row" "$scratch/m.html" '<tr class="sum"><th class="case">summary</th><td>[0-9]+ passed'

# JUnit, checked against the schema.
"$report" --no-expectations --format junit -o "$scratch/junit.xml" "$m" 2>> "$scratch/stderr"
check "junit: valid against harness/report-junit.xsd" \
	xmllint --noout --schema "$top/harness/report-junit.xsd" "$scratch/junit.xml"
is "junit: one testsuite per kernel and pass" "$(grep -c '<testsuite ' "$scratch/junit.xml")" $((4 * passes))
like "junit: skipped the standard way" "$scratch/junit.xml" '<skipped message="clone3 returned ENOSYS"/>'
like "junit: failure the standard way" "$scratch/junit.xml" '<failure message="[^"]*Expected 1 \(1\) == 2 \(2\)" type="fail">'
like "junit: timeout as an error" "$scratch/junit.xml" '<error message="TIMEOUT[^"]*" type="timeout">'
sed 's/ timestamp="[^"]*"//' "$scratch/junit.xml" > "$scratch/bad.xml"
xmllint --noout --schema "$top/harness/report-junit.xsd" "$scratch/bad.xml" > /dev/null 2>&1
is "junit: the schema check can fail (no timestamp)" $? 3

# JSON, versioned.
"$report" --no-expectations --format json "$m" > "$scratch/json" 2>> "$scratch/stderr"
got=$(perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my %st = map { $_ => 1 } qw(pass xfail skip fail timeout crash notrun);
	my @bad = grep { !$st{$_->{status}} } map { values %{$_->{results}} } @{$d->{cases}};
	print "$d->{schema} $d->{version} ", scalar @{$d->{columns}}, " ", scalar @bad;' < "$scratch/json")
is "json: schema, version, columns, known statuses" "$got" "nsconform-report 1 $((4 * passes)) 0"

# Summary mode on one kernel folder (what harness/check prints).
"$report" --summary --no-expectations "$real" > "$scratch/summary" 2>> "$scratch/stderr"
is "summary: one line per pass" "$(grep -c '^nsconform report: ' "$scratch/summary")" "$passes"

# A synthetic regression: one ok turned not ok.
cp -R "$m" "$scratch/res/m2"
cp -R "$m" "$scratch/res/m3"
sed -i 's/^ok 1 global\.passes$/not ok 1 global.passes/' "$scratch/res/m2/6.12.95+deb12-amd64/$p1/failing.tap"
"$report" --no-expectations --baseline "$m" "$scratch/res/m3" > "$scratch/same" 2> /dev/null
is "baseline: an untouched copy exits 0" $? 0
is "baseline: an untouched copy has no regression" "$(grep -c '^REGRESSION' "$scratch/same")" 0
"$report" --no-expectations --baseline "$m" "$scratch/res/m2" > "$scratch/regr" 2> /dev/null
is "baseline: the regression exits 1" $? 1
is "baseline: exactly one regression" "$(grep -c '^REGRESSION' "$scratch/regr")" 1
like "baseline: it names that case" "$scratch/regr" \
	"^REGRESSION +6\\.12\\.95\\+deb12-amd64/$p1 failing/passes: pass -> fail"
got=$("$report" --no-expectations --format json --baseline "$m" "$scratch/res/m2" 2>> "$scratch/stderr" |
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); print join(" ", map { $_->{case} } @{$d->{regressions}});')
is "baseline: json names the same case" "$got" "failing/passes"

# Two kernels of one run.
"$report" --no-expectations --across 5.10,6.1 "$m" > "$scratch/across1" 2>> "$scratch/stderr"
is "across: a vanished SKIP is no regression" $? 0
like "across: it is listed" "$scratch/across1" '^SKIP GONE .* failing/passes: skip -> pass'
"$report" --no-expectations --across 6.1,7.2 "$m" > "$scratch/across2" 2>> "$scratch/stderr"
is "across: the crashed kernel regresses" $? 1
like "across: names what the crash took" "$scratch/across2" '^REGRESSION .* whoami/whoami: pass -> crash'

# Expectations.
printf '# test\nfail  6.12  *  failing/passes  test:synthetic  the synthetic regression\n' > "$scratch/exp1"
"$report" --expectations "$scratch/exp1" --baseline "$m" "$scratch/res/m2" > "$scratch/known" 2>> "$scratch/stderr"
is "expectation: the regression is known, exit 0" $? 0
like "expectation: shown as known" "$scratch/known" '^KNOWN .* failing/passes: pass -> known: the synthetic regression \[test:synthetic\]'
mkdir -p "$scratch/one/r/k"
cp "$real/meta" "$scratch/one/r/k/"
for p in "$real"/*/; do
	mkdir -p "$scratch/one/r/k/$(basename "$p")"
	cp "$p/failing.tap" "$p/whoami.tap" "$scratch/one/r/k/$(basename "$p")/"
done
"$report" --no-expectations "$scratch/one/r" > /dev/null 2>> "$scratch/stderr"
is "a real failure fails the matrix" $? 1
printf 'fail * * failing/fails selftest:failing.c it fails on purpose\nfail * * whoami/whoami ref:x was broken\n' > "$scratch/exp2"
"$report" --expectations "$scratch/exp2" "$scratch/one/r" > "$scratch/one.out" 2> "$scratch/one.err"
is "expectation: the real failure is known, exit 0" $? 0
like "expectation: the cell says known" "$scratch/one.out" '^failing/fails +known '
like "expectation: a known failure that passes warns" "$scratch/one.err" \
	'warning: known failure now passes: whoami/whoami .*exp2:2'
printf 'fail 6.x * a/b ref\n' > "$scratch/exp3"
"$report" --expectations "$scratch/exp3" "$scratch/one/r" > /dev/null 2> "$scratch/exp3.err"
is "expectations: a bad line is an error" $? 2
like "expectations: it names file and line" "$scratch/exp3.err" 'exp3:1: '

# Bad folders and usage.
"$report" "$scratch/nonexistent" 2> "$scratch/err"
is "a missing folder is an error" $? 2
mkdir -p "$scratch/empty/x"
"$report" "$scratch/empty" 2> "$scratch/err2"
like "a folder without results says so" "$scratch/err2" 'not a results folder'
"$report" "$scratch/res" 2> "$scratch/err3"
like "a results root asks for a run" "$scratch/err3" 'a results root, not a run'
"$report" --format pdf "$m" 2> /dev/null
is "an unknown format is a usage error" $? 2
"$report" --help > "$scratch/help" 2>> "$scratch/stderr"
like "--help documents compare" "$scratch/help" '--baseline OLD'

# The CI definitions parse and name only make targets that exist.
check "ci/*.yml: valid, only existing make targets" \
	"$top/harness/report-cilint" "$top/ci/github-actions.yml" "$top/ci/gitlab-ci.yml"
sed 's/make selftest/make no-such-target/' "$top/ci/gitlab-ci.yml" > "$scratch/bad-ci.yml"
"$top/harness/report-cilint" "$scratch/bad-ci.yml" > "$scratch/lint" 2>&1
like "ci lint: names an unknown make target" "$scratch/lint" 'make no-such-target: no such target'
printf 'jobs:\n  a: [\n' > "$scratch/broken.yml"
"$top/harness/report-cilint" "$scratch/broken.yml" > "$scratch/lint2" 2>&1
like "ci lint: YAML that does not parse" "$scratch/lint2" 'does not parse as YAML'
done_testing
