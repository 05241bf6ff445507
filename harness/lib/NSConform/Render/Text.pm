# NSConform::Render::Text - the terminal table, the summary lines harness/check
# and harness/matrix print, the text comparison and the findings list.
package NSConform::Render::Text;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);

my %COLOR = (pass => 32, xfail => 32, skip => 33, known => 36, fail => '1;31',
	     health => '1;31', timeout => '1;35', crash => '1;35', error => '1;35', notrun => 35,
	     missing => 2);
our $use_color;

sub paint {
	my ($st, $text) = @_;
	return $text unless $use_color;
	return "\e[$COLOR{$st}m$text\e[0m";
}

sub pad { my ($s, $w) = @_; return $s . (' ' x ($w - length $s)); }

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	my $w = 4;
	for (@$ids) { $w = length if length > $w; }
	my @cw = map { my $l = length $_->{label}; $l > 5 ? $l : 5 } @$cols;
	out(pad('case', $w));
	out('  ', pad($cols->[$_]{label}, $cw[$_])) for 0 .. $#$cols;
	out("\n");
	for my $id (@$ids) {
		out(pad($id, $w));
		for my $i (0 .. $#$cols) {
			my $st = shown(cell($cols->[$i], $id));
			out('  ', paint($st, pad($LABEL{$st}, $cw[$i])));
		}
		out("\n");
	}
	my @sums = map { summarise($_, $ids) } @$cols;
	for my $row (['passed', 'pass'], ['failed', 'failed'], ['skipped', 'skip'],
		     ['known', 'known']) {
		out(pad($row->[0], $w));
		out('  ', pad($sums[$_]{$row->[1]}, $cw[$_])) for 0 .. $#$cols;
		out("\n");
	}
	out("\nColumns:\n");
	out("  $_->{label}: " . column_key($_) . "\n") for @$cols;
	my ($bad, $known, $skip) = details($cols, $ids);
	if (@$bad) {
		out("\nFailures:\n");
		for (grouped($bad)) {
			my ($c, $r) = @$_;
			out('  ', paint($r->{status}, $LABEL{$r->{status}}),
			    " $c->{label} $r->{id}: $r->{reason}\n");
			my @d = grep { /\S/ } @{$r->{diag}};
			splice(@d, 8) if @d > 8 && !$r->{klog};
			out("      $_\n") for @d;
		}
	}
	if (@$known) {
		out("\nKnown:\n");
		out("  $_->[0]{label} $_->[1]{id}: " . reason_of($_->[1]) . "\n") for @$known;
	}
	if (%$skip) {
		out("\nSkips:\n");
		for my $k (sort keys %$skip) {
			my ($id, $why) = split /\0/, $k, 2;
			out("  $id (" . join(' ', @{$skip->{$k}}) . "): $why\n");
		}
	}
	findings($findings) if $findings && @$findings;
	my %seen;
	for my $c (grep { defined $_->{crashed} && !$seen{$_->{dir}}++ } @$cols) {
		out("\n$c->{kernel} (run $c->{run}): the kernel crashed: $c->{crashed}\n");
		if (defined $c->{kernel_log}) {
			out("  kernel log (end):\n");
			my @l = split /\n/, $c->{kernel_log};
			splice(@l, 0, @l - 15) if @l > 15;
			out("    $_\n") for @l;
		}
	}
}

sub findings {
	my ($f) = @_;
	out("\nKnown deviations:\n");
	for my $e (@$f) {
		out("  $e->{case}" . (length $e->{claim} ? " ($e->{claim})" : '')
		    . ": $e->{reason}\n");
		out("      affected $e->{kernels} ($e->{pass} pass), fixed: "
		    . ($e->{fixed} || '-') . ", reference $e->{reference}"
		    . ($e->{state} eq 'stale' ? ", STALE: $e->{stale_why}" : '')
		    . ($e->{state} eq 'untested' ? ', not exercised by this run' : '') . "\n");
	}
}

sub summary {
	my ($cols, $ids) = @_;
	for my $c (@$cols) {
		my $s = summarise($c, $ids);
		out("nsconform report: $c->{kernel} $c->{pass}: " . summary_text($s)
		    . (defined $c->{crashed} ? " - the kernel crashed" : '') . "\n");
		for (grouped([map { [$c, $_] } grep { is_bad($_) } map { cell($c, $_) } @$ids])) {
			my $r = $_->[1];
			out("  " . paint($r->{status}, $LABEL{$r->{status}}) . " $r->{id}"
			    . (length $r->{reason} ? ": $r->{reason}" : '') . "\n");
			out("      $_\n") for map { "klog: $_" } @{$r->{klog} // []};
		}
	}
}

# One line of a comparison entry.
sub describe {
	my ($e, $key) = @_;
	my ($o, $n) = ($e->{old}, $e->{new});
	my $s = ($o ? $o->{shown} : 'absent') . ' -> ' . ($n ? $n->{shown} : 'absent');
	my $r = $n && $key !~ /fixes|vanished|missing/ ? $n : $o;
	my $why = $r ? $r->{reason} : $e->{reason} // '';
	$why = "$n->{known}{reason} [$n->{known}{reference}]" if $key eq 'known';
	return length $why ? "$s: $why" : $s;
}

sub counts {
	my ($doc) = @_;
	return map { scalar(@{$doc->{$_->[0]}}) . " " . lc($_->[1]) } @SECTIONS;
}

sub compare {
	my ($doc) = @_;
	out("nsconform comparison: $doc->{title}\n");
	out("  compared $_->{old} -> $_->{new}\n") for @{$doc->{pairs}};
	out("  only in the old run: $_\n") for @{$doc->{only_old}};
	out("  only in the new run: $_\n") for @{$doc->{only_new}};
	for my $s (@SECTIONS) {
		my $st = $s->[0] eq 'regressions' ? 'fail' : $s->[0] eq 'fixes' ? 'pass' : 'skip';
		for my $e (@{$doc->{$s->[0]}}) {
			out(paint($st, pad($s->[1], 10)) . " $e->{columns} $e->{case}: "
			    . describe($e, $s->[0]) . "\n");
		}
	}
	out("summary: " . join(', ', counts($doc)) . "\n");
}

1;
