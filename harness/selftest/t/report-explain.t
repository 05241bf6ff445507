#!/bin/sh
# What is wrong with the kernel, said where people look (F6-F8, F26, F27):
# harness/report --failures (what make check and make matrix end with) gives
# each failure and known deviation a head line, then the claim and source
# from the case's comment, the test's own log line, file:line, the
# reference and the first fixed release; the text report's Failures do not
# print the first check twice; prove's "Dubious ... Result: FAIL" does not
# contradict a PASS of known deviations; Markdown opens on the verdict and
# the bad rows, the full table last; HTML opens with all-ok rows hidden,
# skip reasons in their cells and references as links.
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 38

# A failure of a real case (its claim is read from cases/mnt_propagation.c).
k=$scratch/res/run/6.18.44-test
mkdir -p "$k/root"
printf 'kernel=6.18.44-test\npasses=root\n' > "$k/meta"
cat > "$k/root/mnt_propagation.tap" <<'TAP'
TAP version 13
1..2
#  RUN           prop.unbindable_bind_fails_einval ...
# cases/mnt_propagation.c:185:CHECK:Expected 0 (0) != theirs.unbindable (0)
# cases/mnt_propagation.c:185:CHECK:the namespace copy lost its unbindable flag
# unbindable_bind_fails_einval: Test failed
#          FAIL  prop.unbindable_bind_fails_einval
not ok 1 prop.unbindable_bind_fails_einval
#  RUN           prop.unbindable_skipped_by_recursive_bind ...
ok 2 prop.unbindable_skipped_by_recursive_bind # SKIP open_tree() not supported (added in 5.2)
TAP
sed -i 's/:CHECK:/:unbindable_bind_fails_einval:/' "$k/root/mnt_propagation.tap"
printf '%s\n' 'fail 6.18 * mnt_propagation/*unbindable_bind_fails_einval stable:7.2.11 loses it' \
	> "$scratch/exp"

"$report" --failures --width 0 --expectations /dev/null "$k" > "$scratch/f" 2>&1
is "--failures: exit 1 on an unexpected failure" $? 1
like "--failures: a head line for the failure" "$scratch/f" \
	'^  FAIL mnt_propagation/prop\.unbindable_bind_fails_einval \(6\.18/root\)$'
like "--failures: the claim, first sentence of the comment" "$scratch/f" \
	'^      claim: An unbindable mount cannot be bind-mounted \(EINVAL\), stays unbindable'
like "--failures: the source page" "$scratch/f" \
	'^      source: mount_namespaces\(7\) MS_UNBINDABLE$'
like "--failures: the test's own log line" "$scratch/f" \
	'^      log: the namespace copy lost its unbindable flag$'
like "--failures: file:line of the failed check" "$scratch/f" \
	'^      at: cases/mnt_propagation\.c:185: Expected 0 \(0\) != theirs\.unbindable \(0\)$'
"$report" --failures --width 0 --expectations "$scratch/exp" "$k" > "$scratch/k" 2>&1
is "--failures: exit 0 when the failure is known" $? 0
like "--failures: a known deviation with first fixed release and reference" "$scratch/k" \
	'^  KNOWN mnt_propagation/prop\.unbindable_bind_fails_einval \(6\.18/root\): '\
'first fixed 7\.2\.11 \[stable:7\.2\.11\]$'
like "--failures: the deviation's reason and where it is listed" "$scratch/k" \
	'^      deviation: loses it \(.*exp:1\)$'
like "--failures: the reference in words a reader can use" "$scratch/k" \
	'^      reference: fixed in stable release 7\.2\.11, '\
'https://cdn\.kernel\.org/.*ChangeLog-7\.2\.11$'
"$report" --failures --pass user --no-expectations "$k" > "$scratch/none" 2>/dev/null
check "--failures: nothing when nothing is wrong" test ! -s "$scratch/none"

# A matrix: a failure on two kernels is one head line; a kernel that could
# not run and one that crashed come first.
mx=$scratch/res/mx
for kk in 6.1.0-47-amd64 7.3.4+deb13-amd64; do
	mkdir -p "$mx/$kk"
	cp -R "$k/root" "$mx/$kk/"
	printf 'kernel=%s\npasses=root\n' "$kk" > "$mx/$kk/meta"
done
printf "status=crashed\ncrash=%s\n" "Kernel panic - not syncing: synthetic" \
	>> "$mx/7.3.4+deb13-amd64/meta"
mkdir -p "$mx/bogus"
printf 'kernel=bogus\nstatus=error\nerror=unknown kernel version bogus\n' > "$mx/bogus/meta"
"$report" --failures --width 0 --expectations /dev/null "$mx" > "$scratch/mx" 2>&1
like "--failures, matrix: one head line over the kernels" "$scratch/mx" \
	'^  FAIL mnt_propagation/prop\.unbindable_bind_fails_einval \(6\.1/root 7\.3/root\)$'
like "--failures, matrix: the kernel that could not run" "$scratch/mx" \
	'^  ERROR bogus: the kernel could not be run: unknown kernel version bogus$'
like "--failures, matrix: the kernel that crashed" "$scratch/mx" \
	'^  CRASH 7\.3\.4\+deb13-amd64: the kernel crashed: Kernel panic - not syncing: synthetic$'

# The text report's Failures: the first failed check once, claim and log first.
"$report" --width 0 --expectations /dev/null "$k" > "$scratch/t" 2>&1
sed -n '/^Failures:/,/^Skips:/p' "$scratch/t" > "$scratch/tf"
is "text Failures: the first check printed once (F8)" \
	"$(grep -c 'Expected 0 (0) != theirs.unbindable' "$scratch/tf")" 1
like "text Failures: the claim" "$scratch/tf" '^      claim: An unbindable mount cannot be'
like "text Failures: the log line" "$scratch/tf" '^      log: the namespace copy lost'

# Markdown: verdict, failures, deviations first; the full table last (F26).
"$report" --format markdown --expectations /dev/null "$k" > "$scratch/md" 2>/dev/null
is "markdown: the verdict first" "$(sed -n 3p "$scratch/md")" \
	"**FAILED**: 1 unexpected failure(s), 0 known deviation(s)"
is "markdown: the sections in order" \
	"$(grep '^## ' "$scratch/md" | tr '\n' ,)" \
	"## Failures,## Skips,## All results,## Columns,## Features by kernel,"
is "markdown: the first check once" "$(grep -c 'theirs.unbindable (0)' "$scratch/md")" 1
"$report" --format markdown --expectations "$scratch/exp" "$k" > "$scratch/mdk" 2>/dev/null
like "markdown: the deviation before the table" "$scratch/mdk" \
	'^- `mnt_propagation/prop.unbindable_bind_fails_einval` \(6\.18/root\): '\
'known fail: loses it'
like "markdown: references as links" "$scratch/mdk" \
	'\[stable:7\.2\.11\]\(https://cdn\.kernel\.org/pub/linux/kernel/v7\.x/ChangeLog-7\.2\.11\)'

# HTML: all-ok rows hidden from the start, skip reasons visible, links (F27).
"$report" --format html --expectations "$scratch/exp" "$k" > "$scratch/h.html" 2>/dev/null
like "html: hide all-ok rows is on" "$scratch/h.html" 'id="hideok" checked'
like "html: the skip reason in its cell" "$scratch/h.html" \
	'<summary>skip<span class="why">open_tree\(\) not supported \(added in 5\.2\)</span>'
like "html: the reference is a link" "$scratch/h.html" \
	'<a href="https://cdn\.kernel\.org/pub/linux/kernel/v7\.x/ChangeLog-7\.2\.11"'\
'[^>]*>stable:7\.2\.11</a>'

# Long names are printed whole, never cut with "~" (F16).
long=lattr.a_variant_with_a_long_name.clear_locked_attribute_is_refused
mkdir -p "$scratch/res/long/k/root"
printf 'kernel=6.18.44\npasses=root\n' > "$scratch/res/long/k/meta"
printf 'TAP version 13\n1..1\nok 1 %s\n' "$long" > "$scratch/res/long/k/root/mnt_locked_attrs.tap"
"$report" --no-expectations "$scratch/res/long/k" > "$scratch/long" 2>&1
like "text: a long name whole on its own line" "$scratch/long" "^mnt_locked_attrs/$long\$"
like "text: its cells on the next line" "$scratch/long" '^ {44}  ok +$'
unlike "text: no name cut with ~" "$scratch/long" '~'

# prove's words while a pass runs (harness/report-prove, F6).
cat > "$scratch/prove.log" <<EOF
$top/build/cases/mnt_propagation ....... 
Dubious, test returned 1 (wstat 256, 0x100)
Failed 1/2 subtests 
$top/build/cases/uts ................... ok

Test Summary Report
-------------------
$top/build/cases/mnt_propagation     (Wstat: 256 (exited 1) Tests: 2 Failed: 1)
  Failed test:  1
  Non-zero exit status: 1
Files=2, Tests=9,  1 wallclock secs ( 0.01 usr  0.01 sys +  0.02 cusr  0.01 csys =  0.05 CPU)
Result: FAIL
EOF
"$top/harness/report-prove" --tap-dir "$k/root" --expectations "$scratch/exp" \
	< "$scratch/prove.log" > "$scratch/pk" 2>&1
like "prove: a known deviation is named as known" "$scratch/pk" \
	'^build/cases/mnt_propagation \.+ known deviation prop\.unbindable_bind_fails_einval$'
unlike "prove: no Result: FAIL, no test numbers" "$scratch/pk" '^Result:|Failed test:|Dubious'
like "prove: says prove.log has prove's own words" "$scratch/pk" \
	'^prove: 1 case binary exited non-zero \(prove\.log\)'
like "prove: the other lines stay" "$scratch/pk" '^build/cases/uts \.+ ok$'
"$top/harness/report-prove" --tap-dir "$k/root" --expectations /dev/null \
	< "$scratch/prove.log" > "$scratch/pf" 2>&1
like "prove: an unknown failure is FAIL, by name" "$scratch/pf" \
	'^build/cases/mnt_propagation \.+ FAIL prop\.unbindable_bind_fails_einval$'

# harness/check: known deviations only give PASS, and nothing says FAIL.
printf 'fail * * failing/fails selftest:failing.c fails on purpose\n' > "$scratch/exp2"
"$top/harness/check" --results "$scratch/real" --run-id known --no-hygiene --timeout 5 \
	--expectations "$scratch/exp2" $([ "$(id -u)" = 0 ] || echo --pass user) \
	"$selftest/failing" > "$scratch/check.out" 2>&1
is "check: a known deviation only: exit 0" $? 0
unlike "check: no prove Result: FAIL before the PASS (F6)" "$scratch/check.out" \
	'Result: FAIL|Dubious|Failed test:'
like "check: the deviation while the pass runs" "$scratch/check.out" \
	'failing \.+ known deviation fails$'
like "check: ends with what is wrong, by name (F7)" "$scratch/check.out" \
	'^  KNOWN failing/fails \((6\.|[0-9]).*\): first fixed unknown \[selftest:failing\.c\]'
# A test a case's own wrapper of TEST() defines (TUNNEL_TEST(name, ...)) has its claim too.
k2=$scratch/res/wrap/6.18.44-test
mkdir -p "$k2/root"
printf 'kernel=6.18.44-test\npasses=root\n' > "$k2/meta"
printf '%s\n' 'TAP version 13' '1..1' \
	'#  RUN           global.gre_changelink_needs_cap_over_link_netns ...' \
	'not ok 1 global.gre_changelink_needs_cap_over_link_netns' > "$k2/root/net_fixes_tunnel.tap"
"$report" --failures --width 0 --expectations /dev/null "$k2" > "$scratch/f2" 2>&1
like "--failures: the claim of a test a wrapper macro defines" "$scratch/f2" \
	'^      claim: A gre tunnel moved into a netns whose owner has no CAP_NET_ADMIN'
done_testing
