#!/usr/bin/perl
# Every TEST/TEST_F in cases/ carries a one-line comment right above it that
# names the claim and its source: a man page section like "(7)" or "(2)",
# or the article.  Prints one TAP line per case file.  Then the harness's
# own scripts: none longer than 500 lines, no line wider than 100 columns.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
my @files = sort glob("$top/cases/*.c");
my @scripts = map { glob("$top/$_") } qw(harness/check harness/matrix harness/mutate
	harness/bench-vm harness/soak harness/verdicts harness/report harness/report-cilint
	harness/hygiene harness/lib/*.sh harness/lib/NSConform/*.pm
	harness/lib/NSConform/Render/*.pm harness/selftest/run harness/selftest/lib.sh
	harness/selftest/t/*.t);
print "1..", scalar(@files) + scalar(@scripts), "\n";
my $n = 0;
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @lines = <$fh>;
	my @bad;
	for my $i (0 .. $#lines) {
		next unless $lines[$i] =~ /^(TEST|TEST_F|TEST_SIGNAL|TEST_F_TIMEOUT)\(/;
		my $prev = $i > 0 ? $lines[$i - 1] : '';
		push @bad, sprintf("line %d: %s", $i + 1, $lines[$i] =~ s/\s+$//r)
			unless $prev =~ m{^/\*.*(\(\d\)|article|LTP|selftest).*\*/\s*$}i;
	}
	$n++;
	(my $name = $f) =~ s{.*/}{};
	print @bad ? "not ok $n - $name: tests without a one-line claim and source\n"
		   : "ok $n - $name\n";
	print "# $_\n" for @bad;
}
for my $f (@scripts) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @lines = <$fh>;
	my @wide = grep { length($lines[$_] =~ s/\s+$//r =~ s/\t/        /gr) > 100 } 0 .. $#lines;
	(my $name = $f) =~ s{^\Q$top\E/}{};
	$n++;
	if (@lines > 500 || @wide) {
		print "not ok $n - $name: ", scalar(@lines), " lines, ", scalar(@wide),
		      " wider than 100 columns\n";
		print "# line ", $_ + 1, "\n" for @wide;
	} else {
		print "ok $n - $name\n";
	}
}
