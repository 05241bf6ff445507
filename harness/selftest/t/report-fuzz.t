#!/usr/bin/perl
# The results reader never crashes (harness/RESULTS.md, "A stream cut
# short"): whatever bytes a CASE.tap holds, read_tap_file gives results and
# at most one CRASH CASE/(TAP) result, in bounded time and memory, and
# every valid "ok N NAME" / "not ok N NAME" line of the input is a result.
# First the inputs that crashed it (a last line without newline, a 20-digit
# test number, a plan of 10^12, binary junk, a YAML block it cannot parse),
# then a few thousand random and mutated streams from a fixed seed
# (NSCONFORM_FUZZ_SEED and NSCONFORM_FUZZ_N change them).
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use Time::HiRes qw(time);
$| = 1;

my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
unshift @INC, "$top/harness/lib";
require NSConform::Results;
NSConform::Results->import;

my $dir = tempdir('nsconform-fuzz.XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $file = "$dir/fz.tap";
no warnings "once";
my $max_notrun = $NSConform::Results::MAX_NOTRUN;
use warnings "once";
my %STATUS = map { $_ => 1 } qw(pass xfail skip fail health timeout crash notrun);
my ($n, $failed) = (0, 0);
sub ok_ {
	my ($ok, $what, $why) = @_;
	$n++;
	print(($ok ? "ok" : "not ok") . " $n - $what\n");
	if (!$ok) {
		$failed++;
		print STDERR "# $_\n" for split /\n/, $why // '';
	}
	return $ok;
}

# The results of BYTES, or the error the reader died with.
sub read_bytes {
	my ($bytes) = @_;
	open(my $fh, '>:raw', $file) or die "$file: $!";
	print $fh $bytes;
	close($fh);
	my @r = eval { read_tap_file($file) };
	return $@ ? (undef, $@) : (\@r, undef);
}

# What is wrong with the results of BYTES: '' when nothing.
sub problems {
	my ($bytes) = @_;
	my ($r, $err) = read_bytes($bytes);
	return "died: $err" unless $r;
	my @p;
	my @whole = grep { $_->{test} eq '(TAP)' } @$r;
	push @p, scalar(@whole) . " (TAP) results" if @whole > 1;
	push @p, "(TAP) is $whole[0]{status}" if @whole && $whole[0]{status} ne 'crash';
	my $lines = () = $bytes =~ /\n/g;
	push @p, scalar(@$r) . " results for $lines lines"
	    if @$r > $lines + $max_notrun + 2;
	for (@$r) {
		push @p, "status $_->{status}" unless $STATUS{$_->{status}};
		push @p, "number $_->{number}" unless $_->{number} =~ /^\d+$/;
		push @p, "no test name" unless defined $_->{test} && length $_->{test};
	}
	# Every valid test line is a result of that name and outcome.
	my %got;
	$got{"$_->{test} $_->{status}"}++ for @$r;
	for my $l (split /\n/, $bytes) {
		$l =~ s/\r$//;
		next unless $l =~ /^(not )?ok [1-9][0-9]{0,5} (?:global\.)?([a-z][a-z0-9_]{0,40})$/;
		my $want = "$2 " . ($1 ? 'fail' : 'pass');
		push @p, "lost the line '$l'" unless $got{$want};
	}
	return join('; ', @p);
}

# The inputs that crashed the reader or ran it out of memory (F24).
my %known = (
	'a last line without newline' => "TAP version 13",
	'one line, no newline, a test' => "ok 1 global.alone",
	'a 20-digit test number' => "TAP version 13\n1..1\nok 99999999999999999999 x\n",
	'a plan of 10^12' => "TAP version 13\n1..1000000000000\nok 1 global.first\n",
	'a plan of 10^8' => "1..100000000\nok 1 global.first\n",
	'binary junk' => join('', map { chr(($_ * 37 + 11) % 256) } 1 .. 3000),
	'a YAML block TAP::Parser cannot read' =>
	    "TAP version 13\n1..2\nok 1 global.a\n  ---\n  bad: [\nok 2 global.b\n",
	'NUL bytes and CRLF' => "TAP version 13\r\n1..2\r\nok 1 global.a\0\r\nok 2 global.b\r\n",
	'a file cut in the middle of a line' => "TAP version 13\n1..3\nok 1 global.a\nok 2 glo",
	'a 1 MB line' => "1..2\nok 1 global.a\n# " . ('x' x (1 << 20)) . "\nok 2 global.b\n",
	'a million spaces and a hash' => "1..1\nok 1 a" . (' ' x 1000000) . "#\n",
	'a test number of zero' => "1..1\nok 0 global.zero\n",
	'two plans and a bail out' => "1..2\n1..5\nBail out! gone\nnot ok 1 global.z\n",
);
for my $what (sort keys %known) {
	my $t0 = time;
	my $p = problems($known{$what});
	ok_($p eq '', "$what: results, no crash", $p);
	ok_(time - $t0 < 5, "$what: read in under 5 s", sprintf('%.1f s', time - $t0));
}
my ($r) = read_bytes($known{'a plan of 10^12'});
ok_((@$r == 2 && $r->[1]{test} eq '(TAP)' && $r->[1]{reason} =~ /plan 1\.\.1000000000000/
     ? 1 : 0),
    "a plan of 10^12: the test and one CRASH (TAP) saying why",
    join("\n", map { "$_->{test} $_->{status} $_->{reason}" } @$r));
($r) = read_bytes($known{'a last line without newline'});
ok_((@$r == 1 && $r->[0]{test} eq '(TAP)' && $r->[0]{status} eq 'crash' ? 1 : 0),
    "a last line without newline: one CRASH (TAP)",
    join("\n", map { "$_->{test} $_->{status} $_->{reason}" } @$r));
($r) = read_bytes("TAP version 13\n1..3\n#  RUN           global.a ...\nok 1 global.a\n"
		  . "#  RUN           global.b ...\n# half a li");
ok_(0 + (join(' ', map { "$_->{test}:$_->{status}" } @$r) eq 'a:pass b:crash not_run_3:notrun'),
    "a cut stream: the running test crashed, the rest not run",
    join("\n", map { "$_->{test} $_->{status}" } @$r));

# Bounded memory: the 10^12 plan and a 64 MB file in a 512 MB address space.
open(my $big, '>', "$dir/big.tap") or die;
print $big "1..1000000000000\n";
print $big "ok $_ global.t$_\n" for 1 .. 3;
print $big "# ", 'y' x 1022, "\n" for 1 .. 65536;
close($big);
my $rc = system('sh', '-c', 'ulimit -v 524288 && exec "$0" -I"$1" -MNSConform::Results -e '
		. '"my @r = read_tap_file(\$ARGV[0]); exit(@r < 10 ? 0 : 3)" "$2"',
		$^X, "$top/harness/lib", "$dir/big.tap");
ok_($rc == 0, "a 64 MB file with a plan of 10^12 is read within 512 MB", "exit $rc");

# Random and mutated streams.
my $seed = $ENV{NSCONFORM_FUZZ_SEED} // 20261204;
my $count = $ENV{NSCONFORM_FUZZ_N} // 3000;
srand($seed);
my @names = map { "t$_" } 1 .. 9;
my @tokens = ('TAP version 13', '1..%d', '#  RUN           global.%s ...', 'ok %d global.%s',
	'not ok %d global.%s', 'ok %d global.%s # SKIP no such thing',
	'not ok %d global.%s # TIMEOUT 120 s', 'not ok %d global.%s # CRASH signal 11',
	'not ok %d global.%s # KERNEL-HEALTH WARNING in x (taint 512)', '# klog: [ 1.0] WARNING',
	'not ok %d global.%s # NOTRUN', 'ok %d - %s # TODO later', '# %s: Test failed',
	'# cases/x.c:%d:%s:Expected 0 (0) == 1 (1)', 'Bail out! %s', '  ---', '  ...',
	'pragma +strict', '1..0 # SKIP all', 'ok', 'not ok', 'ok %d', '', '#', '1..');
sub line {
	my $t = $tokens[rand @tokens];
	my $num = rand() < 0.1 ? int(rand(1e12)) : 1 + int(rand 12);
	$t =~ s/%d/$num/;
	$t =~ s/%s/$names[rand @names]/;
	return $t;
}
sub stream {
	my $k = 1 + int(rand 10);
	my $s = "TAP version 13\n1..$k\n";
	for my $i (1 .. $k) {
		my $nm = $names[rand @names];
		$s .= "#  RUN           global.$nm ...\n";
		$s .= "# cases/x.c:$i:$nm:Expected 1 (1) == 2 (2)\n" if rand() < 0.3;
		$s .= (rand() < 0.7 ? "ok" : "not ok") . " $i global.$nm\n";
	}
	return $s;
}
sub mutate {
	my ($s) = @_;
	for (1 .. 1 + int(rand 4)) {
		my @l = split /\n/, $s, -1;
		my $m = int(rand 9);
		my $i = int(rand(@l || 1));
		if ($m == 0) { splice(@l, $i, 1); }
		elsif ($m == 1) { splice(@l, $i, 0, line()); }
		elsif ($m == 2) { splice(@l, $i, 0, $l[$i] // ''); }
		elsif ($m == 3) { @l[$i, -1] = @l[-1, $i] if @l; }
		$s = join("\n", @l);
		if ($m == 4) { $s = substr($s, 0, int(rand(length($s) + 1))); }
		elsif ($m == 5) {
			substr($s, int(rand(length $s)), 0) = chr(rand 256) x (1 + rand 3);
		}
		elsif ($m == 6 && length $s) {
			my $p = int(rand length $s);
			substr($s, $p, 1) = chr(ord(substr($s, $p, 1)) ^ (1 << int(rand 8)));
		}
		elsif ($m == 7) { $s =~ s/\n+\z//; }
		elsif ($m == 8) { $s =~ s/\n/\r\n/g; }
	}
	return $s;
}
my ($bad, $first, $t0) = (0, '', time);
for my $i (1 .. $count) {
	my $k = $i % 4;
	my $s = $k == 0 ? join('', map { chr(rand 256) } 1 .. rand 600)
	      : $k == 1 ? join("\n", map { line() } 1 .. rand 30) . (rand() < 0.5 ? "\n" : '')
	      : mutate(stream());
	my $p = problems($s);
	next if $p eq '';
	$first ||= "input $i: $p\n" . join("\n", map { "  | $_" } split /\n/, $s);
	$bad++;
}
my $secs = time - $t0;
ok_($bad == 0, "$count random and mutated streams (seed $seed): no crash, no lost line",
    "$bad bad, the first: $first");
ok_($secs < 60, sprintf("$count streams read in %.1f s", $secs));
print "1..$n\n";
exit($failed ? 1 : 0);
