#!/bin/sh
# harness/report's feature-by-kernel table: three kernels built from real
# TAP (one harness/check run of the self-test binaries), where 6.12 and 6.18
# SKIP a test for listns() and 6.12 another for NS_GET_ID, in the one fixed
# form; a SKIP of another form tells nothing.  Every format carries the table.
# A failure "feature missing" (a kernel after the feature's release that
# lacks it) makes that kernel lack it too; the features no result names
# come from the one table, fixtures/core_features.c.
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 20

real_tap "$selftest/whoami" "$selftest/failing"
m=$scratch/res/feat
for k in 6.12.118+deb13-amd64 6.18.15+deb13-amd64 7.3.4+deb13-amd64; do
	mkdir -p "$m/$k"
	cp -R "$real"/. "$m/$k"/
	sed -i -e "s/^kernel=.*/kernel=$k/" "$m/$k/meta"
done
skip() {	# skip KERNEL TEST REASON: the test of failing.tap SKIPs there
	sed -i "s/^ok \([0-9]*\) global\.$2\$/ok \1 global.$2 # SKIP $3/" "$m"/$1*/*/failing.tap
}
skip 6.12 passes 'listns() not supported by this kernel (added in 6.19)'
skip 6.18 passes 'listns() not supported by this kernel (added in 6.19)'
ngi='NS_GET_ID not supported by this kernel (added in 6.18)'
sed -i "s/^ok \\([0-9]*\\) whoami\$/ok \\1 whoami # SKIP $ngi/" "$m"/6.12*/*/whoami.tap
# Another form of SKIP is no feature, and does not make 7.3 lack one.
sed -i 's/^ok \([0-9]*\) whoami$/ok \1 whoami # SKIP needs real root/' \
	"$m"/7.3*/*/whoami.tap

"$report" --no-expectations "$m" > "$scratch/text" 2>/dev/null
like "text: the table's header names the kernels" "$scratch/text" '^  feature +6\.12 +6\.18 +7\.3'
like "text: listns() missing before 7.3" "$scratch/text" '^  listns\(\) \(6\.19\) +no +no +yes'
like "text: NS_GET_ID missing on 6.12 only" "$scratch/text" '^  NS_GET_ID \(6\.18\) +no +yes +\? *$'
unlike "text: another form of SKIP is no feature" "$scratch/text" '^  needs real root'
awk 'length > 100 { bad = 1 } END { exit bad }' "$scratch/text"
is "text: no line wider than 100 columns" $? 0

"$report" --no-expectations --format markdown "$m" > "$scratch/md" 2>/dev/null
like "markdown: the table" "$scratch/md" \
	'^\| listns\(\) \| 6\.19 \| \*\*no\*\* \| \*\*no\*\* \| yes \|$'

"$report" --no-expectations --format json "$m" > "$scratch/json" 2>/dev/null
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my @k = map { $_->{key} } @{$d->{features}{kernels}};
	for my $f (@{$d->{features}{features}}) {
		print "$f->{feature}=", join(" ", map { $f->{on}{$_} } @k), "\n";
	}' < "$scratch/json" > "$scratch/json.f"
like "json: listns() per kernel" "$scratch/json.f" '^listns\(\)=no no yes$'
like "json: NS_GET_ID per kernel" "$scratch/json.f" '^NS_GET_ID=no yes \?$'
is "json: two features" "$(wc -l < "$scratch/json.f")" 2

"$report" --no-expectations --format html -o "$scratch/page.html" "$m" 2>/dev/null
like "html: the table" "$scratch/page.html" \
	'<th class="case">listns\(\)</th><td>6\.19</td><td class="no"'
like "html: the toggles" "$scratch/page.html" 'id="differ" onchange="nsApply\(\)"'
like "html: rows carry what the toggles need" "$scratch/page.html" \
	'<tr class="row" data-id="failing/passes" data-allok="0" data-okskip="1" data-differ="1">'
like "html: links to the raw TAP, relative to the page" "$scratch/page.html" \
	'href="res/feat/6\.12\.118\+deb13-amd64/[a-z]+/failing\.tap"'

"$report" --no-expectations --format junit "$m" > "$scratch/junit" 2>/dev/null
like "junit: the feature as a property of the suite" "$scratch/junit" \
	'<property name="feature: listns\(\)" value="no"/>'
like "junit: class names by kernel series" "$scratch/junit" \
	'classname="nsconform\.linux-6_18\.[a-z]+\.failing"'
like "junit: the skip reason in the body" "$scratch/junit" \
	'<skipped message="listns\(\) not supported[^"]*">listns\(\) not supported'

# The suite's features, from the one table (and the namespace types).
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	print "$_->{feature} ($_->{added})\n" for @{$d->{features}{not_skipped}};' \
	< "$scratch/json" > "$scratch/json.unseen"
like "json: the table's features no result named" "$scratch/json.unseen" '^clone3\(\) \(5\.3\)$'
like "json: and the namespace types" "$scratch/json.unseen" '^time namespaces \(5\.6\)$'

# 7.3 fails the listns() test with "feature missing": no listns() there either.
m2=$scratch/res/feat2
cp -R "$m" "$m2"
for t in "$m2"/7.3*/*/failing.tap; do
	awk '/^ok [0-9]+ global\.passes$/ {
		print "# cases/x.c:9:passes:feature missing: listns() " \
		      "(added in 6.19, linux:76b6f5dfb3fd)"
		sub(/^ok/, "not ok") } { print }' "$t" > "$t.new" && mv "$t.new" "$t"
done
"$report" --no-expectations --format json "$m2" > "$scratch/json2" 2>/dev/null
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my @k = map { $_->{key} } @{$d->{features}{kernels}};
	for my $f (@{$d->{features}{features}}) {
		print "$f->{feature}=", join(" ", map { $f->{on}{$_} } @k), "\n";
	}' < "$scratch/json2" > "$scratch/json2.f"
like "json: feature missing on 7.3 reads as no" "$scratch/json2.f" '^listns\(\)=no no no$'
"$report" --no-expectations "$m2" > /dev/null 2>&1
is "the run with a feature missing fails" $? 1
done_testing
