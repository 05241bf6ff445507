#!/bin/sh
# harness/report: every format from a four-kernel results tree built from
# real TAP (one harness/check run of the self-test binaries, copied per
# kernel), a synthetic regression, expectations, bad folders, and the lint
# of the CI definitions (make test validates ci/*.yml here).
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 93

# Real TAP: passing, failing, hanging and crashing binaries.
real_tap "$selftest/whoami" "$selftest/failing" "$selftest/hangs" "$selftest/crashes"
is "check keeps its exit status (1: a case failed)" $? 1
grep -v "warning: stale expectation" "$scratch/check.out" | sed -n '/^nsconform report: /,$p' \
	> "$scratch/check.tail"
like "check ends with the report's summary" "$scratch/check.tail" \
	'^nsconform report: .* (root|user): [0-9]+ passed, [1-9][0-9]* failed'
like "the summary names the failing case" "$scratch/check.tail" '^  FAIL failing/fails: .*Expected'
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
printf 'status=crashed\ncrash=Kernel panic - not syncing: synthetic\n' >> "$k72/meta"
printf '[    0.0] Linux version 7.2.12\n[    9.9] Kernel panic - not syncing: synthetic\n' \
	> "$k72/klog"

# Terminal table.
"$report" --no-expectations "$m" > "$scratch/text" 2> "$scratch/text.err"
is "the matrix exits 1 on unexpected failures" $? 1
like "text: one column per kernel" "$scratch/text" '^case +5\.10/[a-z]+ .*6\.1/.*6\.12/.*7\.2/'
like "text: the 5.10 SKIP" "$scratch/text" '^failing/passes +skip '
like "text: the failure" "$scratch/text" '^failing/fails +FAIL '
like "text: the timeout" "$scratch/text" '^hangs/blocks_in_wait +TIME '
like "text: the crashing binary" "$scratch/text" '^crashes/crashing +CRASH '
like "text: a case the crashed guest never ran" "$scratch/text" '^whoami/whoami +ok .* CRASH *$'
like "text: tests after the cut are named and not run" "$scratch/text" \
	'^hangs/leaves_child_behind +ok .* NORUN *$'
like "text: the skip reason is listed" "$scratch/text" \
	'^  failing/passes \(5\.10/.*\): clone3 returned ENOSYS'
like "text: the missing meta is a warning" "$scratch/text.err" \
	'warning: .*6\.12\.95\+deb12-amd64: no meta file'

# Markdown.
"$report" --no-expectations --format markdown "$m" > "$scratch/md" 2>> "$scratch/stderr"
like "markdown: table header" "$scratch/md" '^\| case \| 5\.10/[a-z]+ \|'
like "markdown: summary row" "$scratch/md" '^\| \*\*summary\*\* \| [0-9]+ passed'

# HTML: one page, no external assets, a coloured cell per case and kernel.
"$report" --no-expectations --format html -o "$scratch/m.html" "$m" 2>> "$scratch/stderr"
like "html: a page" "$scratch/m.html" '^<!DOCTYPE html>'
unlike "html: no external assets" "$scratch/m.html" \
	'<(link|img|iframe)|<script [^>]|src=|url\(|@import'
like "html: the skip cell carries its reason" "$scratch/m.html" \
	'class="skip" title="failing/passes on 5\.10/[a-z]+: skip - clone3 returned ENOSYS"'
like "html: the crash cell" "$scratch/m.html" 'class="crash" title="whoami/whoami on 7\.2/'
like "html: diagnostics expand" "$scratch/m.html" \
	'<details><summary>FAIL</summary><pre>[^<]*Expected 1'
like "html: per-kernel summary row" "$scratch/m.html" \
	'<tr class="sum"><th class="case">summary</th><td>[0-9]+ passed'

# JUnit, checked against the schema.
"$report" --no-expectations --format junit -o "$scratch/junit.xml" "$m" 2>> "$scratch/stderr"
check "junit: valid against harness/report-junit.xsd" \
	xmllint --noout --schema "$top/harness/report-junit.xsd" "$scratch/junit.xml"
is "junit: one testsuite per kernel and pass" \
	"$(grep -c '<testsuite ' "$scratch/junit.xml")" $((4 * passes))
like "junit: skipped the standard way" "$scratch/junit.xml" \
	'<skipped message="clone3 returned ENOSYS">clone3 returned ENOSYS</skipped>'
like "junit: failure the standard way" "$scratch/junit.xml" \
	'<failure message="[^"]*Expected 1 \(1\) == 2 \(2\)" type="fail">'
like "junit: timeout as an error" "$scratch/junit.xml" \
	'<error message="TIMEOUT[^"]*" type="timeout">'
sed 's/ timestamp="[^"]*"//' "$scratch/junit.xml" > "$scratch/bad.xml"
xmllint --noout --schema "$top/harness/report-junit.xsd" "$scratch/bad.xml" > /dev/null 2>&1
is "junit: the schema check can fail (no timestamp)" $? 3

# JSON, versioned.
"$report" --no-expectations --format json "$m" > "$scratch/json" 2>> "$scratch/stderr"
got=$(perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my %st = map { $_ => 1 } qw(pass xfail skip fail timeout crash notrun);
	my @bad = grep { !$st{$_->{status}} } map { values %{$_->{results}} } @{$d->{cases}};
	print "$d->{schema} $d->{version} ", scalar @{$d->{columns}}, " ", scalar @bad;' \
	< "$scratch/json")
is "json: schema, version, columns, known statuses" "$got" "nsconform-report 1 $((4 * passes)) 0"

# Summary mode on one kernel folder (what harness/check prints).
"$report" --summary --no-expectations "$real" > "$scratch/summary" 2>> "$scratch/stderr"
is "summary: one line per pass" "$(grep -c '^nsconform report: ' "$scratch/summary")" "$passes"

# A synthetic regression: one ok turned not ok.
cp -R "$m" "$scratch/res/m2"
cp -R "$m" "$scratch/res/m3"
sed -i 's/^ok 1 global\.passes$/not ok 1 global.passes/' \
	"$scratch/res/m2/6.12.95+deb12-amd64/$p1/failing.tap"
"$report" --no-expectations --baseline "$m" "$scratch/res/m3" > "$scratch/same" 2> /dev/null
is "baseline: an untouched copy exits 0" $? 0
is "baseline: an untouched copy has no regression" "$(grep -c '^REGRESSION' "$scratch/same")" 0
"$report" --no-expectations --baseline "$m" "$scratch/res/m2" > "$scratch/regr" 2> /dev/null
is "baseline: the regression exits 1" $? 1
is "baseline: exactly one regression" "$(grep -c '^REGRESSION' "$scratch/regr")" 1
like "baseline: it names that case" "$scratch/regr" \
	"^REGRESSION +6\\.12\\.95\\+deb12-amd64/$p1 failing/passes: pass -> fail"
got=$("$report" --no-expectations --format json --baseline "$m" "$scratch/res/m2" \
	2>> "$scratch/stderr" | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
		print join(" ", map { $_->{case} } @{$d->{regressions}});')
is "baseline: json names the same case" "$got" "failing/passes"

# A kernel that vanished from the new run is a regression.
cp -R "$m" "$scratch/res/m4"
rm -rf "$scratch/res/m4/6.1.0-47-amd64"
"$report" --no-expectations --baseline "$m" "$scratch/res/m4" > "$scratch/gone" 2> /dev/null
is "baseline: a vanished kernel exits 1" $? 1
like "baseline: it is a regression" "$scratch/gone" \
	"^REGRESSION +6\\.1\\.0-47-amd64/$p1 \\(all cases\\): not run in the new run"

# Two kernels of one run.
"$report" --no-expectations --across 5.10,6.1 "$m" > "$scratch/across1" 2>> "$scratch/stderr"
is "across: a vanished SKIP is no regression" $? 0
like "across: it is listed" "$scratch/across1" '^SKIP GONE .* failing/passes: skip -> pass'
"$report" --no-expectations --across 6.1,7.2 "$m" > "$scratch/across2" 2>> "$scratch/stderr"
is "across: the crashed kernel regresses" $? 1
like "across: names what the crash took" "$scratch/across2" \
	'^REGRESSION .* whoami/whoami: pass -> crash'

# Expectations.
printf '# test\nfail  6.12  *  failing/passes  test:synthetic  the synthetic regression\n' \
	> "$scratch/exp1"
"$report" --expectations "$scratch/exp1" --baseline "$m" "$scratch/res/m2" > "$scratch/known" \
	2>> "$scratch/stderr"
is "expectation: the regression is known, exit 0" $? 0
# Text fits 100 columns: a long entry goes on, indented, on the next line.
sed -i -e ':a' -e 'N' -e '$!ba' -e 's/\n \{11\}/ /g' "$scratch/known"
like "expectation: shown as known" "$scratch/known" \
	'^KNOWN .* failing/passes: pass -> known: the synthetic regression \[test:synthetic\]'
mkdir -p "$scratch/one/r/k"
cp "$real/meta" "$scratch/one/r/k/"
for p in "$real"/*/; do
	mkdir -p "$scratch/one/r/k/$(basename "$p")"
	cp "$p/failing.tap" "$p/whoami.tap" "$scratch/one/r/k/$(basename "$p")/"
done
"$report" --no-expectations "$scratch/one/r" > /dev/null 2>> "$scratch/stderr"
is "a real failure fails the matrix" $? 1
printf '%s\n' 'fail * * failing/fails selftest:failing.c it fails on purpose' \
	'fail * * whoami/whoami ref:x was broken' > "$scratch/exp2"
"$report" --expectations "$scratch/exp2" "$scratch/one/r" > "$scratch/one.out" 2> "$scratch/one.err"
is "expectation: the real failure is known, exit 0" $? 0
like "expectation: the cell says known" "$scratch/one.out" '^failing/fails +known '
like "expectation: a known failure that passes warns" "$scratch/one.err" \
	'warning: known failure now passes: whoami/whoami .*exp2:2'
printf 'fail 6.x * a/b ref\n' > "$scratch/exp3"
"$report" --expectations "$scratch/exp3" "$scratch/one/r" > /dev/null 2> "$scratch/exp3.err"
is "expectations: a bad line is an error" $? 2
like "expectations: it names file and line" "$scratch/exp3.err" 'exp3:1: '

# Kernel ranges against Debian's release strings (upstream numbering; the
# patch level from kernel_version= of meta when the release lacks it).
d=$scratch/deb/r
for k in 5.10.0-46-amd64 6.1.0-57-amd64 7.2.9+deb14-amd64 7.3-amd64; do
	mkdir -p "$d/$k/root"
	printf 'kernel=%s\npasses=root\n' "$k" > "$d/$k/meta"
	cp "$real/$p1/failing.tap" "$d/$k/root/"
done
echo 'kernel_version=6.1.158-1' >> "$d/6.1.0-57-amd64/meta"
known_on() {	# known_on KERNEL EXPECTATION-LINE: how failing/fails shows on KERNEL
	printf '%s\n' "$2" > "$scratch/exp-range"
	"$report" --expectations "$scratch/exp-range" --format json "$d" 2> "$scratch/range.err" |
		perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
			my ($c) = grep { $_->{id} eq "failing/fails" } @{$d->{cases}};
			my ($k) = grep { m{/\Q$ARGV[0]\E/} } keys %{$c->{results}};
			print $c->{results}{$k}{shown};' "$1"
}
is "range 5.10 covers 5.10.0-46-amd64" \
	"$(known_on 5.10.0-46-amd64 'fail 5.10 * failing/fails x r')" known
is "range 6.1 covers 6.1.0-57-amd64" \
	"$(known_on 6.1.0-57-amd64 'fail 6.1 * failing/fails x r')" known
is "range 7.3 covers 7.3-amd64" "$(known_on 7.3-amd64 'fail 7.3 * failing/fails x r')" known
is "range 7.2..7.2.10 covers 7.2.9+deb14-amd64" \
	"$(known_on 7.2.9+deb14-amd64 'fail 7.2..7.2.10 * failing/fails x r')" known
is "range 7.2.10.. leaves 7.2.9+deb14-amd64 out" \
	"$(known_on 7.2.9+deb14-amd64 'fail 7.2.10.. * failing/fails x r')" fail
is "range 6.1.150..6.1.160 covers 6.1.0-57-amd64 (6.1.158-1 in meta)" \
	"$(known_on 6.1.0-57-amd64 'fail 6.1.150..6.1.160 * failing/fails x r')" known
is "range ..6.1.100 leaves 6.1.0-57-amd64 (6.1.158-1) out" \
	"$(known_on 6.1.0-57-amd64 'fail ..6.1.100 * failing/fails x r')" fail
is "range 5.10.200.. cannot cover 5.10.0-46-amd64 (patch level unknown)" \
	"$(known_on 5.10.0-46-amd64 'fail 5.10.200.. * failing/fails x r')" fail
like "and says why" "$scratch/range.err" \
	'cannot tell whether 5\.10\.0-46-amd64 is in 5\.10\.200\.\.'
printf 'fail 5.10 * failing/fails x r\nfail 6.1 * failing/fails x r\nfail 7.2 * failing/fails x r
fail 7.3 * failing/fails x r\n' > "$scratch/exp-all"
"$report" --expectations "$scratch/exp-all" "$d" > /dev/null 2>&1
is "a failure known on every Debian kernel of the run: exit 0" $? 0

# The kernel-health marker (nsrun: a kernel warning while a test ran).
h=$scratch/hl/r/k
mkdir -p "$h/root"
printf 'kernel=6.12.0-1-amd64\npasses=root\n' > "$h/meta"
cat > "$h/root/uts.tap" <<'TAP'
TAP version 13
1..2
#  RUN           global.new_namespace_starts_as_copy ...
ok 1 global.new_namespace_starts_as_copy
#  RUN           global.unshare_moves_caller ...
not ok 2 global.unshare_moves_caller # KERNEL-HEALTH WARNING in switch_task_namespaces (taint 512)
# klog: [   12.3] WARNING: CPU: 0 PID: 77 at kernel/nsproxy.c:242 switch_task_namespaces+0x9f/0xb0
# klog: [   12.3] Modules linked in: veth
TAP
"$report" --no-expectations "$h" > "$scratch/health" 2>&1
is "kernel health: a bad result" $? 1
like "kernel health: its own cell" "$scratch/health" '^uts/unshare_moves_caller +HEALTH'
like "kernel health: the summary" "$scratch/health" '^failed +1'
like "kernel health: the klog lines are shown" "$scratch/health" \
	'^ +# klog: \[ +12\.3\] WARNING: CPU: 0 PID: 77 at kernel/nsproxy\.c:242'
"$report" --no-expectations --format json "$h" 2>/dev/null | perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my ($c) = grep { $_->{test} eq "unshare_moves_caller" } @{$d->{cases}};
	my ($r) = values %{$c->{results}};
	print "$r->{status} ", scalar @{$r->{klog}}, " $d->{columns}[0]{summary}{health}\n"' \
	> "$scratch/health.json"
like "kernel health: json status, klog lines, count" "$scratch/health.json" '^health 2 1$'
"$report" --no-expectations --format junit "$h" > "$scratch/health.xml" 2>/dev/null
like "kernel health: a junit error of its own type" "$scratch/health.xml" 'type="health"'
"$report" --no-expectations --format html "$h" > "$scratch/health.html" 2>/dev/null
like "kernel health: an html cell of its own" "$scratch/health.html" '<td class="health"'
"$report" --no-expectations --format markdown "$h" > "$scratch/health.md" 2>/dev/null
like "kernel health: markdown" "$scratch/health.md" '\| \*\*HEALTH\*\* \|'
"$report" --no-expectations --summary "$h" > "$scratch/health.sum" 2>/dev/null
like "kernel health: the summary line counts it" "$scratch/health.sum" 'failed \(1 health\)'

# Findings: the known deviations with their claim, and stale entries.
printf '%s\n' 'fail 6.12 * uts/unshare_moves_caller stable:6.12.9 warns on unshare' \
	'fail * * uts/no_such_test unfixed:7.3 renamed since' \
	'fail * * uts/new_namespace_starts_as_copy linux:0123456789ab passes now' > "$scratch/exp-f"
"$report" --expectations "$scratch/exp-f" "$h" > "$scratch/find" 2> "$scratch/find.err"
is "findings: a known kernel-health failure exits 0" $? 0
like "findings: a section of its own" "$scratch/find" '^Known deviations:'
like "findings: the claim from the case's comment" "$scratch/find" \
	'^  uts/unshare_moves_caller \(unshare\(CLONE_NEWUTS\) moves the caller itself'
like "findings: affected releases, first fixed, reference" "$scratch/find" \
	'affected 6\.12 \(\* pass\), fixed: 6\.12\.9, reference stable:6\.12\.9'
like "findings: an entry naming no case is stale" "$scratch/find.err" \
	'stale expectation .*exp-f:2 \(uts/no_such_test\): no case of this run has that name'
like "findings: an entry whose results all pass is stale" "$scratch/find.err" \
	'stale expectation .*exp-f:3 .*every result it covers passed'
"$report" --expectations "$scratch/exp-f" --format json "$h" 2>/dev/null |
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
		print join(" ", map { "$_->{state}:$_->{fixed}" } @{$d->{findings}}), "\n"' \
	> "$scratch/find.json"
like "findings: in the json" "$scratch/find.json" '^seen:6\.12\.9 stale:unfixed as of 7\.3 stale:'
printf '# x\n\n<!-- findings:begin -->\nold\n<!-- findings:end -->\ntail\n' > "$scratch/README"
"$report" --expectations "$scratch/exp-f" --format findings --readme "$scratch/README" "$h" \
	2> "$scratch/readme.err"
is "findings: --readme refuses a run that is not a full matrix (F31)" $? 2
like "findings: and says why" "$scratch/readme.err" 'not a full matrix run \(1 kernel\(s\), 1 of'
"$report" --expectations "$scratch/exp-f" --format findings --readme "$scratch/README" --partial \
	"$h" 2>/dev/null
like "findings: the README section is rewritten" "$scratch/README" \
	'^\| `uts/unshare\\_moves\\_caller` \| unshare\(CLONE\\_NEWUTS\) moves'
unlike "findings: what was between the markers is gone" "$scratch/README" '^old$'
like "findings: the rest of the README stays" "$scratch/README" '^tail$'

# Bad folders and usage.
"$report" "$scratch/nonexistent" 2> "$scratch/err"
is "a missing folder is an error" $? 2
"$report" -o "$scratch/never.txt" "$scratch/nonexistent" 2> /dev/null
check "-o FILE is not written when loading fails" test ! -e "$scratch/never.txt"
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
sed 's/make check/make no-such-target/' "$top/ci/gitlab-ci.yml" > "$scratch/bad-ci.yml"
"$top/harness/report-cilint" "$scratch/bad-ci.yml" > "$scratch/lint" 2>&1
like "ci lint: names an unknown make target" "$scratch/lint" 'make no-such-target: no such target'
printf 'jobs:\n  a: [\n' > "$scratch/broken.yml"
"$top/harness/report-cilint" "$scratch/broken.yml" > "$scratch/lint2" 2>&1
like "ci lint: YAML that does not parse" "$scratch/lint2" 'does not parse as YAML'
# The Debian archive on an Ubuntu runner: named by NSCONFORM_MIRROR, kept
# through sudo; make installed before use in a bare debian image.
grep -v 'NSCONFORM_MIRROR: ' "$top/ci/github-actions.yml" > "$scratch/nomirror.yml"
"$top/harness/report-cilint" "$scratch/nomirror.yml" > "$scratch/lint3" 2>&1
like "ci lint: a runner without NSCONFORM_MIRROR" "$scratch/lint3" \
	'job check step .*: runs make on an Ubuntu runner without NSCONFORM_MIRROR'
sed 's/sudo -E make check/sudo make check/' "$top/ci/github-actions.yml" > "$scratch/sudo.yml"
"$top/harness/report-cilint" "$scratch/sudo.yml" > "$scratch/lint4" 2>&1
like "ci lint: sudo that drops NSCONFORM_MIRROR" "$scratch/lint4" \
	'make check .*: sudo make drops NSCONFORM_MIRROR'
grep -v 'apt-get install .* make$' "$top/ci/gitlab-ci.yml" > "$scratch/nomake.yml"
"$top/harness/report-cilint" "$scratch/nomake.yml" > "$scratch/lint5" 2>&1
like "ci lint: make run before the image has it" "$scratch/lint5" \
	'job check script: runs make, which image debian:bookworm does not have'
"$top/harness/ci-github-steps" --set vars.NSCONFORM_MIRROR=http://mirror.invalid/debian \
	--set github.ref_name=3/merge --set github.base_ref=main \
	"$top/ci/github-actions.yml" report > "$scratch/report-job.sh" 2>&1
like "ci: a pull request compares with its base branch" "$scratch/report-job.sh" \
	"^export BASE_BRANCH='main'$"
done_testing
