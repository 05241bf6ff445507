#!/bin/sh
# harness/report --format kcidb: the file of a real run (one harness/check
# run of the self-test binaries, copied as two kernels and as the four passes)
# validates against the KCIDB v5.3 schema (harness/kcidb-validate,
# JSON::Validator), with test paths nsconform.<pass>.<case>.<test> distinct
# per pass, statuses, and an expectation as an issue with its incidents; the
# validator rejects a broken file.  --log-url-base makes every log URL the base
# plus the file's path in the results folder, --origin renames the origin and
# the ids' prefix and nothing else, and both still validate.  With
# NSCONFORM_KCIDB_RUN set to a matrix run folder, that run's file is validated
# too.
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
validate=$top/harness/kcidb-validate
plan 38

real_tap "$selftest/whoami" "$selftest/failing" "$selftest/crashes"
# One pass ran (root, or user when not root): the same results as all four.
one=$(ls -d "$real"/*/ | head -n 1)
for p in root user compat compat-user; do
	[ -d "$real/$p" ] || cp -R "$one" "$real/$p"
done
sed -i -e 's/^passes=.*/passes=root user compat compat-user/' "$real/meta"
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

is "kcidb: the passes are distinct tests of a build (F28)" \
	"$(awk '$1 == "test" { print $2, $4 }' "$scratch/k.txt" | sort | uniq -d | wc -l)" 0
is "kcidb: each pass has its path, nsconform.PASS.CASE.TEST" \
	"$(sed -n 's/^test nsconform\.\([a-z-]*\)\.failing\.fails FAIL nsconform:kc:7_3.*/\1/p' \
		"$scratch/k.txt" | sort | tr '\n' ' ')" "compat compat-user root user "

# ids, origins, paths and log URLs of a file: one line each.
fields() {
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
	for my $k (qw(checkouts builds tests issues incidents)) {
		for my $o (@{$d->{$k}}) {
			print "id $k $o->{id}\norigin $o->{origin}\n";
			print "path $o->{path}\n" if defined $o->{path};
			print "url $_\n" for grep { defined }
				$o->{log_url}, $o->{config_url},
				map { $_->{url} } @{$o->{output_files}};
		}
	}'
}
fields < "$scratch/k.json" > "$scratch/f.txt"
like "kcidb: the checkout id is origin:RUN:KERNEL" "$scratch/f.txt" \
	'^id checkouts nsconform:kc:6_12_118_deb13-amd64$'
like "kcidb: the build id is the checkout's plus :build" "$scratch/f.txt" \
	'^id builds nsconform:kc:6_12_118_deb13-amd64:build$'
like "kcidb: without --log-url-base, log URLs are file:// paths" "$scratch/f.txt" \
	"^url file://$scratch/res/kc/6\\.12\\.118%2Bdeb13-amd64/root/failing\\.tap\$"
unlike "kcidb: ... every one of them" "$scratch/f.txt" '^url [^f]'

# --log-url-base: the base plus the file's path in the results folder.
base=https://ci.invalid/art/
"$report" --expectations "$scratch/exp" --format kcidb --log-url-base "$base" \
	-o "$scratch/u.json" "$m" 2>/dev/null
is "kcidb --log-url-base: exits as without it" $? 1
fields < "$scratch/u.json" > "$scratch/u.txt"
like "kcidb --log-url-base: the TAP file's URL (F28)" "$scratch/u.txt" \
	'^url https://ci\.invalid/art/kc/6\.12\.118%2Bdeb13-amd64/compat-user/failing\.tap$'
why=
n=0
for u in $(sed -n 's/^url //p' "$scratch/u.txt"); do
	n=$((n + 1))
	case $u in
	"$base"*) rel=$(printf '%s' "${u#"$base"}" | perl -pe 's/%([0-9A-F]{2})/chr hex $1/ge')
		[ -f "$scratch/res/$rel" ] || why="$why $u: no $scratch/res/$rel;" ;;
	*) why="$why $u: not under $base;" ;;
	esac
done
is "kcidb --log-url-base: every URL ($n) is the base plus a file of the results folder" \
	"${why:-all}" all
grep -v '^url ' "$scratch/f.txt" > "$scratch/f-nourl.txt"
grep -v '^url ' "$scratch/u.txt" > "$scratch/u-nourl.txt"
check "kcidb --log-url-base: changes only the URLs" \
	cmp -s "$scratch/f-nourl.txt" "$scratch/u-nourl.txt"
"$report" --expectations "$scratch/exp" --format kcidb --url-base "$base" "$m" 2>/dev/null |
	fields > "$scratch/old.txt"
check "kcidb: --url-base, the old name, still works" cmp -s "$scratch/old.txt" "$scratch/u.txt"
"$report" --format kcidb --log-url-base /not/a/url "$m" > /dev/null 2> "$scratch/e1"
is "kcidb: --log-url-base takes a URL" $? 2
like "kcidb: ... and says so" "$scratch/e1" 'log-url-base takes an http\(s\) URL'
"$report" --log-url-base "$base" "$m" > /dev/null 2>&1
is "kcidb: --log-url-base goes with --format kcidb" $? 2

# --origin: the origin and the ids' prefix, nothing else.
"$report" --expectations "$scratch/exp" --format kcidb --origin my_lab2 \
	--log-url-base "$base" -o "$scratch/o.json" "$m" 2>/dev/null
is "kcidb --origin: exits as without it" $? 1
fields < "$scratch/o.json" > "$scratch/o.txt"
is "kcidb --origin: every object has that origin" \
	"$(sed -n 's/^origin //p' "$scratch/o.txt" | sort -u)" my_lab2
is "kcidb --origin: every id starts with it" \
	"$(grep '^id ' "$scratch/o.txt" | grep -vc '^id [a-z]* my_lab2:')" 0
like "kcidb --origin: the build id, otherwise the same" "$scratch/o.txt" \
	'^id builds my_lab2:kc:6_12_118_deb13-amd64:build$'
is "kcidb --origin: the ids, paths and URLs are the default's but for the prefix" \
	"$(sed 's/^origin .*/origin nsconform/; s/^\(id [a-z]*\) my_lab2:/\1 nsconform:/' \
		"$scratch/o.txt" | cmp -s - "$scratch/u.txt" && echo same)" same
"$report" --format kcidb --origin My-Lab "$m" > /dev/null 2> "$scratch/e2"
is "kcidb: --origin takes KCIDB's origin pattern" $? 2
like "kcidb: ... and says which" "$scratch/e2" 'lower-case letters, digits and _'
"$report" --format json --origin my_lab "$m" > /dev/null 2>&1
is "kcidb: --origin goes with --format kcidb" $? 2

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
if [ -n "$noschema" ]; then
	skip "$noschema"; skip "$noschema"
else
	"$validate" "$scratch/o.json" > "$scratch/ovalid" 2>&1
	is "kcidb: --origin and --log-url-base still validate against v5.3" $? 0
	perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
		$d->{tests}[0]{origin} = "My-Lab"; print encode_json($d);' \
		< "$scratch/o.json" > "$scratch/bad2.json"
	"$validate" "$scratch/bad2.json" > /dev/null 2>&1
	is "kcidb: an origin out of KCIDB's pattern does not validate" $? 1
fi

if [ -n "${NSCONFORM_KCIDB_RUN:-}" ]; then
	"$report" --format kcidb -o "$scratch/run.json" "$NSCONFORM_KCIDB_RUN" 2>/dev/null
	"$validate" "$scratch/run.json" >&2
	is "kcidb: the matrix run $NSCONFORM_KCIDB_RUN validates" $? 0
else
	skip "NSCONFORM_KCIDB_RUN names no matrix run"
fi
done_testing
