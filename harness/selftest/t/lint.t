#!/usr/bin/perl
# Every TEST/TEST_F in cases/ carries one comment right above it that names
# the claim and its source first: a man page section like "(7)" or "(2)",
# the article, or linux:<commit>.  Either one line, or one block whose first
# paragraph is the claim and source.  Prints one TAP line per case file.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
my @files = sort glob("$top/cases/*.c");
print "1..", scalar(@files), "\n";
my $source = qr{\(\d\)|article|LTP|selftest|linux:[0-9a-f]{12}}i;

# The comment ending on the line above @i: one line with the source, or a
# block ("/*", " * ..." lines, " */") whose first paragraph names it.
sub claim_above {
	my ($lines, $i) = @_;
	my $prev = $i > 0 ? $lines->[$i - 1] : '';
	return $prev =~ m{^/\*.*$source.*\*/\s*$} if $prev =~ m{^/\*.*\*/\s*$};
	return 0 unless $prev =~ m{^ \*/\s*$};
	my $b = $i - 2;
	$b-- while $b > 0 && $lines->[$b] =~ m{^ \*};
	return 0 unless $lines->[$b] =~ m{^/\*\s*$};
	my $first = '';
	for my $l (@$lines[$b + 1 .. $i - 2]) {
		last if $l =~ m{^ \*\s*$};
		$first .= $l;
	}
	return $first =~ $source;
}

my $n = 0;
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @lines = <$fh>;
	my @bad;
	for my $i (0 .. $#lines) {
		next unless $lines[$i] =~ /^(TEST|TEST_F|TEST_SIGNAL|TEST_F_TIMEOUT)\(/;
		push @bad, sprintf("line %d: %s", $i + 1, $lines[$i] =~ s/\s+$//r)
			unless claim_above(\@lines, $i);
	}
	$n++;
	(my $name = $f) =~ s{.*/}{};
	print @bad ? "not ok $n - $name: tests without a claim and source comment\n"
		   : "ok $n - $name\n";
	print "# $_\n" for @bad;
}
