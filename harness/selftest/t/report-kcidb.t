#!/bin/sh
# harness/report --format kcidb: the file of a real run (one harness/check
# run of the self-test binaries, copied as two kernels) validates against the
# KCIDB v5.3 schema (harness/kcidb-validate, JSON::Validator), with test paths
# nsconform.<case>.<test>, statuses, and an expectation as an issue with its
# incidents; the validator rejects a broken file.  With NSCONFORM_KCIDB_RUN
# set to a matrix run folder, that run's file is validated too.
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
validate=$top/harness/kcidb-validate
plan 17

real_tap "$selftest/whoami" "$selftest/failing" "$selftest/crashes"
m=$scratch/res/kc
for k in 6.12.118+deb13-amd64 7.3.4+deb13-amd64; do
	mkdir -p "$m/$k"
	cp -R "$real"/. "$m/$k"/
	sed -i -e "s/^kernel=.*/kernel=$k/" "$m/$k/meta"
	for p in "$m/$k"/*/; do	# a guest's per-case timings
		echo "$(basename "$p") failing rc=1 ms=1200 taint=0" >> "$m/$k/cases"
	done
done
nl='listns() not supported by this kernel (added in 6.19)'
sed -i "s/^ok \\([0-9]*\\) global\\.passes\$/ok \\1 global.passes # SKIP $nl/" \
	"$m"/6.12*/*/failing.tap
printf 'fail  7.3  *  failing/fails  linux:0123456789ab  fails on purpose\n' > "$scratch/exp"

"$report" --expectations "$scratch/exp" --format kcidb -o "$scratch/k.json" "$m" 2> "$scratch/err"
is "kcidb: exits 1 (6.12's failure is not known)" $? 1
# The schema lives in shared/vendor beside the checkout (or NSCONFORM_KCIDB_SCHEMA); a
# clone without it cannot validate: those checks SKIP, saying so.
noschema=
"$validate" --where > /dev/null 2>&1 ||
	noschema="no KCIDB v5.3 schema (shared/vendor/kcidb beside the checkout, or"\
" NSCONFORM_KCIDB_SCHEMA)"
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $1"; }
if [ -n "$noschema" ]; then
	skip "$noschema"; skip "$noschema"
else
	"$validate" "$scratch/k.json" > "$scratch/valid" 2>&1
	is "kcidb: the file validates against the v5.3 schema" $? 0
	like "kcidb: counts what it holds" "$scratch/valid" \
		'valid KCIDB v5\.3: 2 checkouts, 2 builds, [0-9]+ tests, 1 issues, '\
'[1-9][0-9]* incidents'
fi
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	for my $t (@{$d->{tests}}) {
		print "test $t->{path} $t->{status} $t->{build_id}",
		      (defined $t->{duration} ? " duration=$t->{duration}" : ""), "\n";
	}
	print "issue $_->{id} $_->{report_url}\n" for @{$d->{issues}};
	print "incident $_->{test_id} $_->{issue_id}\n" for @{$d->{incidents}};
	print "build $_->{id} $_->{checkout_id} $_->{architecture}\n" for @{$d->{builds}};
	print "version $d->{version}{major}.$d->{version}{minor}\n";' \
	< "$scratch/k.json" > "$scratch/k.txt"
like "kcidb: version 5.3" "$scratch/k.txt" '^version 5\.3$'
like "kcidb: a dot-separated test path, the pass in it" "$scratch/k.txt" \
	'^test nsconform\.(root|user)\.failing\.fails FAIL '
like "kcidb: a feature SKIP" "$scratch/k.txt" \
	'^test nsconform\.(root|user)\.failing\.passes SKIP nsconform:kc:6_12_118_deb13-amd64:build'
like "kcidb: a pass" "$scratch/k.txt" '^test nsconform\.(root|user)\.whoami\.whoami PASS '
like "kcidb: a crashing binary is an ERROR" "$scratch/k.txt" \
	'^test nsconform\.(root|user)\.crashes\.[a-z_]+ ERROR '
like "kcidb: the recorded time, shared among the binary's tests" "$scratch/k.txt" \
	'^test nsconform\.(root|user)\.failing\.fails FAIL .* duration=0\.6$'
unlike "kcidb: no slash in a path" "$scratch/k.txt" '^test [^ ]*/'
like "kcidb: the expectation is an issue, its reference a URL" "$scratch/k.txt" \
	'^issue nsconform:issue:failing_fails_7_3 https://git\.kernel\.org/linus/0123456789ab$'
like "kcidb: the known failure on 7.3 is an incident" "$scratch/k.txt" \
	'^incident nsconform:kc:7_3_4_deb13-amd64:[a-z]+:failing/fails '\
'nsconform:issue:failing_fails_7_3$'

is "kcidb: root and user are distinct tests of a build (F28)" \
	"$(awk '$1 == "test" { print $2, $4 }' "$scratch/k.txt" | sort | uniq -d | wc -l)" 0
"$report" --expectations "$scratch/exp" --format kcidb --url-base https://ci.invalid/art/ \
	"$m" 2>/dev/null | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
	print "log $_->{log_url}\n" for grep { $_->{log_url} } @{$d->{tests}};' > "$scratch/u.txt"
like "kcidb: --url-base gives the log URL of the served results (F28)" "$scratch/u.txt" \
	'^log https://ci\.invalid/art/kc/6\.12\.118%2Bdeb13-amd64/(root|user)/failing\.tap$'
"$report" --format kcidb --url-base /not/a/url "$m" > /dev/null 2>&1
is "kcidb: --url-base takes a URL" $? 2

# The validator can fail.
perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); $d->{tests}[0]{path} = "a/b";
	$d->{tests}[1]{status} = "OK"; print encode_json($d);' \
	< "$scratch/k.json" > "$scratch/bad.json"
if [ -n "$noschema" ]; then
	skip "$noschema"
else
	"$validate" "$scratch/bad.json" > /dev/null 2> "$scratch/bad.err"
	is "kcidb: a broken file does not validate" $? 1
fi

if [ -n "${NSCONFORM_KCIDB_RUN:-}" ]; then
	"$report" --format kcidb -o "$scratch/run.json" "$NSCONFORM_KCIDB_RUN" 2>/dev/null
	"$validate" "$scratch/run.json" >&2
	is "kcidb: the matrix run $NSCONFORM_KCIDB_RUN validates" $? 0
else
	echo "ok 17 # SKIP NSCONFORM_KCIDB_RUN names no matrix run"
	_n=$((_n + 1))
fi
done_testing
