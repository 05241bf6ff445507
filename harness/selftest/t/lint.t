#!/usr/bin/perl
# Every TEST/TEST_F in cases/ carries a one-line comment right above it that
# names the claim and its source: a man page section like "(7)" or "(2)",
# or the article.  Prints one TAP line per case file.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
my @files = sort glob("$top/cases/*.c");
print "1..", scalar(@files), "\n";
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
