#!/bin/sh
# harness/report on a kernel that could not be run (harness/RESULTS.md: meta
# status=error with error=<one line>, as harness/matrix writes it for a
# kernel it could not fetch, whose initramfs it could not build, or that did
# not boot): ERROR in every format, the reason in one line, never "the
# kernel crashed", an <error> testcase in JUnit, red on top in HTML and
# Markdown, exit 1 from the report and --summary; no Perl warnings.
# Also unreadable folders (as uid 65534 when root): an error naming the
# permission problem, never a dropped pass and exit 0.
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 44

why="unknown kernel version 'foo': no Debian kernel package matches it (make kernels lists them)"
tap() {	# tap FILE: a small passing TAP stream
	mkdir -p "$(dirname "$1")"
	printf 'TAP version 13\n1..2\n#  RUN           global.one ...\nok 1 global.one\n' > "$1"
	printf '#  RUN           global.two ...\nok 2 global.two\n' >> "$1"
}
# An error-only run, as `make matrix KERNELS=foo` leaves it.
e=$scratch/res/err
mkdir -p "$e/foo"
printf 'kernel=foo\nwhere=qemu\ndate=2026-12-04T10:00:00Z\nstatus=error\nerror=%s\n' "$why" \
	> "$e/foo/meta"
# A run with a good kernel and one whose initramfs could not be built.
g=$scratch/res/mixed
for p in root user; do tap "$g/6.1.0-47-amd64/$p/uts.tap"; done
printf 'kernel=6.1.0-47-amd64\nwhere=qemu-tcg\npasses=root user\nstatus=passed\n' \
	> "$g/6.1.0-47-amd64/meta"
mkdir -p "$g/7.3.4+deb13-amd64"
printf 'kernel=7.3.4+deb13-amd64\nwhere=qemu\nstatus=error\n%s\n' \
	'reason=7.3: cannot build the guest initramfs: busybox: not found' \
	> "$g/7.3.4+deb13-amd64/meta"

"$report" --no-expectations "$e" > "$scratch/t" 2> "$scratch/t.err"
is "text: an error-only run exits 1" $? 1
like "text: ERROR with the reason on one line" "$scratch/t" \
	"^ERROR foo: the kernel could not be run: unknown kernel version 'foo': no Debian kernel"
unlike "text: not called a crash" "$scratch/t" 'crash'
unlike "text: no Perl warning" "$scratch/t.err" 'repeat count|line [0-9]+\.'
"$report" --no-expectations --summary "$e" > "$scratch/s" 2> "$scratch/s.err"
is "summary: exits 1" $? 1
like "summary: ERROR and why" "$scratch/s" "^nsconform report: foo: ERROR: unknown kernel version"
unlike "summary: not called a crash" "$scratch/s" 'crash'
"$report" --no-expectations --total "$e" > "$scratch/tot" 2>&1
like "total: counts the kernel that could not run" "$scratch/tot" '1 kernel could not be run'

"$report" --no-expectations --format junit -o "$scratch/j.xml" "$e" 2> "$scratch/j.err"
is "junit: exits 1" $? 1
like "junit: an <error> testcase" "$scratch/j.xml" \
	"<error message=\"unknown kernel version &apos;foo&apos;[^\"]*\" type=\"error\">"
like "junit: counted as an error" "$scratch/j.xml" \
	'<testsuites [^>]*tests="1" failures="0" errors="1"'
check "junit: valid against harness/report-junit.xsd" \
	xmllint --noout --schema "$top/harness/report-junit.xsd" "$scratch/j.xml"
unlike "junit: no status=failed beside failures=0 (F30)" "$scratch/j.xml" \
	'name="status" value="(failed|passed)"'

"$report" --no-expectations --format html -o "$scratch/h.html" "$e" 2> /dev/null
is "html: exits 1" $? 1
like "html: the verdict is red and says ERROR" "$scratch/h.html" \
	'<p class="verdict bad"><b>ERROR</b>: 1 kernel\(s\) could not be run'
like "html: the reason, red, before the matrix" "$scratch/h.html" \
	"<div class=\"kerror\"><b>foo: ERROR, the kernel could not be run</b>: unknown kernel"
unlike "html: not called a crash" "$scratch/h.html" 'kernel crashed'

"$report" --no-expectations --format markdown "$e" > "$scratch/m.md" 2> /dev/null
is "markdown: exits 1" $? 1
is "markdown: the verdict is the first line after the title" "$(sed -n 3p "$scratch/m.md")" \
	"**ERROR**: 1 kernel(s) could not be run, 0 unexpected failure(s), 0 known deviation(s)"
like "markdown: the reason" "$scratch/m.md" "^- \\*\\*ERROR\\*\\* foo: unknown kernel version"

"$report" --no-expectations --format json "$e" > "$scratch/j.json" 2> /dev/null
is "json: exits 1" $? 1
got=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $c = $d->{columns}[0];
	print join("|", $d->{verdict}{result}, $c->{status}, $c->{error},
		$c->{crashed} // "null")' \
	< "$scratch/j.json")
is "json: verdict ERROR, the column's status and error, no crash" "$got" "ERROR|error|$why|null"
"$report" --no-expectations --format kcidb "$e" > "$scratch/k.json" 2> /dev/null
is "kcidb: exits 1" $? 1
got=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $b = $d->{builds}[0];
	print "$b->{status}|$b->{log_excerpt}"' < "$scratch/k.json")
is "kcidb: the build is ERROR with the reason" "$got" "ERROR|$why"
if "$top/harness/kcidb-validate" --where > /dev/null 2>&1; then
	check "kcidb: the error file is valid KCIDB" "$top/harness/kcidb-validate" "$scratch/k.json"
else
	skip "no KCIDB v5.3 schema here"
fi

# Beside a good kernel: the good one's cells stay, the error is still loud;
# reason= is read as well as error=.
"$report" --no-expectations "$g" > "$scratch/g" 2> "$scratch/g.err"
is "mixed: exits 1" $? 1
like "mixed: reason= is the reason" "$scratch/g" \
	'^ERROR 7\.3\.4\+deb13-amd64: the kernel could not be run: 7\.3: cannot build the guest'
like "mixed: the good kernel's results" "$scratch/g" '^uts/one +ok +ok +ERROR'
unlike "mixed: no Perl warning" "$scratch/g.err" 'line [0-9]+\.'
"$report" --no-expectations --summary "$g" > "$scratch/gs" 2>&1
is "mixed summary: exits 1" $? 1
like "mixed summary: the good columns" "$scratch/gs" \
	'^nsconform report: 6\.1\.0-47-amd64 root: 2 passed, 0 failed'
like "mixed summary: the error" "$scratch/gs" \
	'^nsconform report: 7\.3\.4\+deb13-amd64: ERROR: 7\.3: cannot build the guest initramfs'
"$report" --no-expectations --format junit "$g" > "$scratch/gj.xml" 2>/dev/null
like "mixed junit: one error testcase for the kernel, not one per case" "$scratch/gj.xml" \
	'<testsuite name="linux-7.3 none" [^>]*tests="1" failures="0" errors="1"'
# A kernel that crashed before any result: an error, not an empty green suite.
mkdir -p "$scratch/res/cr/k"
printf 'kernel=7.1.0-1-amd64\nstatus=crashed\ncrash=Kernel panic - not syncing: early\n' \
	> "$scratch/res/cr/k/meta"
"$report" --no-expectations --format junit "$scratch/res/cr" > "$scratch/cr.xml" 2>/dev/null
is "crashed before any result: exit 1" $? 1
like "crashed before any result: a junit error" "$scratch/cr.xml" \
	'<error message="Kernel panic - not syncing: early" type="crash">'
"$report" --no-expectations --baseline "$g" "$g" > "$scratch/gb" 2>&1
is "baseline of a run with an error kernel against itself: exit 1 (still an error)" $? 1

# Unreadable folders, read as uid 65534 (root reads everything).
u=$scratch/perm
mkdir -p "$u/run"
chmod 755 "$scratch" "$u" "$u/run"
for p in root user; do tap "$u/run/6.18.44/$p/uts.tap"; done
printf 'kernel=6.18.44\npasses=root user\n' > "$u/run/6.18.44/meta"
chmod -R a+rX "$u"
as_nobody() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"$@"
	fi
}
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then
	for i in 1 2 3 4 5 6 7 8; do skip "unreadable folders: needs root and setpriv"; done
else
	as_nobody "$report" --no-expectations "$u/run" > /dev/null 2>&1
	is "a readable run exits 0 as uid 65534" $? 0
	chmod 000 "$u/run/6.18.44/user"
	as_nobody "$report" --no-expectations --width 0 "$u/run" > "$scratch/p1" \
		2> "$scratch/p1.err"
	is "an unreadable pass folder: exit 1, not 0" $? 1
	like "it names the folder and the permission" "$scratch/p1" \
		'^ERROR 6\.18\.44: .*/6\.18\.44/user: cannot read: Permission denied'
	as_nobody "$report" --no-expectations --summary "$u/run" > "$scratch/p2" 2>&1
	is "summary: exit 1" $? 1
	chmod 755 "$u/run/6.18.44/user"
	chmod 000 "$u/run/6.18.44"
	as_nobody "$report" --no-expectations --width 0 "$u/run" > "$scratch/p3" 2>&1
	is "an unreadable kernel folder: exit 1" $? 1
	like "it names the folder and the permission" "$scratch/p3" \
		'ERROR .*6\.18\.44.*cannot read: Permission denied'
	chmod 755 "$u/run/6.18.44"
	chmod 000 "$u/run"
	as_nobody "$report" --no-expectations "$u/run" > "$scratch/p4" 2>&1
	is "an unreadable run folder: exit 2" $? 2
	like "it says permission denied, not 'not a results folder'" "$scratch/p4" \
		'run: cannot read: Permission denied'
	chmod 755 "$u/run"
fi
done_testing
