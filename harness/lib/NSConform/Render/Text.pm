# NSConform::Render::Text - the terminal table, the summary lines harness/check
# and harness/matrix print, the text comparison and the findings list.
package NSConform::Render::Text;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Features;
use Text::Wrap ();

my %COLOR = (pass => 32, xfail => 32, skip => 33, known => 36, fail => '1;31',
	     health => '1;31', timeout => '1;35', crash => '1;35', error => '1;35', notrun => 35,
	     missing => 2);
our $use_color;
our $TOP;	# the checkout (harness/report sets it): the cases' claims are read there

sub paint {
	my ($st, $text) = @_;
	return $text unless $use_color;
	return "\e[$COLOR{$st}m$text\e[0m";
}

sub pad { my ($s, $w) = @_; return $s . (' ' x ($w > length $s ? $w - length $s : 0)); }

# One line per kernel that could not be run or read: ERROR, why.
sub error_lines {
	my ($cols) = @_;
	out(painted('error', wrapped("ERROR $_->{kernel}: $_->{error_line}"))
	    =~ s/^  //r) for error_columns($cols);
}

# A line that starts with "  LABEL", its label painted.
sub painted {
	my ($st, $l) = @_;
	$l =~ s/^  \Q$LABEL{$st}\E/'  ' . paint($st, $LABEL{$st})/e;
	return $l;
}

our $WIDTH = 100;	# the text report fits this many columns
# Set when failures() follows summary() in one report: the reason a kernel
# could not be run is said once, in the list of what is wrong.
our $errors_below = 0;

# A line wrapped to $WIDTH, continuation lines indented by $indent more.
sub wrapped {
	my ($s, $indent) = @_;
	return "$s\n" if length $s <= $WIDTH;
	my ($lead) = $s =~ /^(\s*)/;
	my $cont = $lead . (' ' x ($indent // 4));
	local $Text::Wrap::columns = $WIDTH + 1;
	local $Text::Wrap::huge = 'overflow';
	local $Text::Wrap::unexpand = 0;
	return Text::Wrap::wrap('', $cont, $s) . "\n";
}

# A case id cut to $w characters, its middle replaced by "~".
sub abbrev {
	my ($s, $w) = @_;
	return $s if length $s <= $w;
	my $h = int(($w - 1) / 2);
	return substr($s, 0, $w - 1 - $h) . '~' . substr($s, -$h);
}

# The matrix in blocks of columns, each block within $WIDTH.
sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	error_lines($cols);
	if (!@$ids) {
		out("No test results" . (error_columns($cols) ? '.' : ' in these folders.') . "\n");
		return details_text($cols, $ids, $findings);
	}
	my $w = 7;
	for (@$ids) { $w = length if length > $w; }
	$w = 44 if $w > 44 && $WIDTH < 200;
	# Too wide: passes shortened to a letter (6.12/r), one space between.
	my @lab = map { $_->{label} } @$cols;
	my $sep = 2;
	my $width = $w;
	$width += 2 + (length > 6 ? length : 6) for @lab;
	if ($width > $WIDTH) {
		s{/(\w)\w*$}{/$1} for @lab;
		$sep = 1;
	}
	my @cw = map { length > 6 ? length : 6 } @lab;
	my @sums = map { summarise($_, $ids) } @$cols;
	my @blocks = ([]);
	my $used = $w;
	for my $i (0 .. $#$cols) {
		if ($used + $sep + $cw[$i] > $WIDTH && @{$blocks[-1]}) {
			push @blocks, [];
			$used = $w;
		}
		push @{$blocks[-1]}, $i;
		$used += $sep + $cw[$i];
	}
	my $s = ' ' x $sep;
	for my $b (@blocks) {
		out("\n") unless $b == $blocks[0];
		out(pad('case', $w));
		out($s, pad($lab[$_], $cw[$_])) for @$b;
		out("\n");
		for my $id (@$ids) {
			# A name longer than the column has a line of its own, whole,
			# so that it can be pasted into --test; its cells follow.
			out(length $id > $w ? "$id\n" . (' ' x $w) : pad($id, $w));
			for my $i (@$b) {
				my $st = shown(cell($cols->[$i], $id));
				out($s, paint($st, pad($LABEL{$st}, $cw[$i])));
			}
			out("\n");
		}
		for my $row (['passed', 'pass'], ['failed', 'failed'], ['skipped', 'skip'],
			     ['known', 'known']) {
			out(pad($row->[0], $w));
			out($s, pad($sums[$_]{$row->[1]}, $cw[$_])) for @$b;
			out("\n");
		}
	}
	out("\n(r = root pass, u = user pass)\n") if $sep == 1;
	details_text($cols, $ids, $findings);
}

sub details_text {
	my ($cols, $ids, $findings) = @_;
	feature_table_text(feature_table($cols, $ids)) if @$ids;
	out("\nColumns:\n");
	out(wrapped("  $_->{label}: " . column_key($_))) for @$cols;
	my ($bad, $known, $skip) = details($cols, $ids);
	if (@$bad) {
		out("\nFailures:\n");
		for (grouped($bad)) {
			my ($c, $r) = @$_;
			out(painted($r->{status}, wrapped("  $LABEL{$r->{status}} $c->{label}"
							  . " $r->{id}: $r->{reason}")));
			# The claim and the test's own log line first; the reason is
			# the first failed check: not again among the lines.
			if (defined $TOP && !$r->{synthetic}) {
				my $x = explain($TOP, $r);
				out(wrapped("      claim: $x->{claim}"
					    . (length $x->{source} ? " ($x->{source})" : ''), 4))
				    if length $x->{claim};
				out(wrapped("      log: $x->{log}", 4)) if length $x->{log};
			}
			my @d = grep { /\S/ && !/^#\s*\Q$r->{reason}\E\s*$/ } @{$r->{diag}};
			splice(@d, 8) if @d > 8 && !$r->{klog};
			out(wrapped("      $_", 2)) for @d;
		}
	}
	if (@$known) {
		out("\nKnown:\n");
		out(wrapped("  $_->[0]{label} $_->[1]{id}: " . reason_of($_->[1]))) for @$known;
	}
	if (%$skip) {
		out("\nSkips:\n");
		for my $k (sort keys %$skip) {
			my ($id, $why) = split /\0/, $k, 2;
			out(wrapped("  $id (" . join(' ', @{$skip->{$k}}) . "): $why"));
		}
	}
	findings($findings) if $findings && @$findings;
	my %seen;
	for my $c (grep { defined $_->{crashed} && !$seen{$_->{dir}}++ } @$cols) {
		out("\n" . wrapped("$c->{kernel} (run $c->{run}): the kernel crashed:"
				   . " $c->{crashed}"));
		if (defined $c->{kernel_log}) {
			out("  kernel log (end):\n");
			my @l = split /\n/, $c->{kernel_log};
			splice(@l, 0, @l - 15) if @l > 15;
			out(wrapped("    $_")) for @l;
		}
	}
}

# The feature-by-kernel table (NSConform::Features), in blocks of kernels
# within $WIDTH.
sub feature_table_text {
	my ($t) = @_;
	return unless @{$t->{features}} || @{$t->{not_skipped}};
	out("\nFeatures by kernel (from the SKIP reasons \"<feature> not supported by this"
	    . " kernel\n(added in X.Y)\"; ? = none of its tests ran there):\n");
	my @names = map { "$_->{feature} ($_->{added})" } @{$t->{features}};
	my $w = 7;
	for (@names) { $w = length if length > $w; }
	$w = 44 if $w > 44 && $WIDTH < 200;
	my @k = @{$t->{kernels}};
	my @kw = map { my $l = length $_->{label}; $l > 4 ? $l : 4 } @k;
	my @blocks = ([]);
	my $used = 2 + $w;
	for my $i (0 .. $#k) {
		if ($used + 1 + $kw[$i] > $WIDTH && @{$blocks[-1]}) {
			push @blocks, [];
			$used = 2 + $w;
		}
		push @{$blocks[-1]}, $i;
		$used += 1 + $kw[$i];
	}
	for my $b (@blocks) {
		out('  ' . pad('feature', $w));
		out(' ' . pad($k[$_]{label}, $kw[$_])) for @$b;
		out("\n");
		for my $n (0 .. $#names) {
			my $f = $t->{features}[$n];
			out('  ' . pad(abbrev($names[$n], $w), $w));
			for my $i (@$b) {
				my $v = $f->{on}{$k[$i]{key}};
				my $st = $v eq 'yes' ? 'pass' : $v eq 'no' ? 'skip'
				       : $v eq 'mixed' ? 'fail' : 'missing';
				out(' ' . paint($st, pad($v, $kw[$i])));
			}
			out("\n");
		}
	}
	my @ns = map { "$_->{feature} ($_->{added})" } @{$t->{not_skipped}};
	out(wrapped("  No result SKIPped for: " . join(', ', @ns))) if @ns;
}

sub findings {
	my ($f) = @_;
	out("\nKnown deviations:\n");
	for my $e (@$f) {
		out(wrapped("  $e->{case}" . (length $e->{claim} ? " ($e->{claim})" : '')
			    . ": $e->{reason}"));
		out(wrapped("      affected $e->{kernels} ($e->{pass} pass), fixed: "
			    . ($e->{fixed} || '-') . ", reference $e->{reference}"
			    . ($e->{state} eq 'stale' ? ", STALE: $e->{stale_why}" : '')
			    . ($e->{state} eq 'untested' ? ', not exercised by this run' : '')));
	}
}

sub summary {
	my ($cols, $ids) = @_;
	my %done;
	for my $c (@$cols) {
		if (defined $c->{error}) {
			my $why = $errors_below ? "could not be run (why: below)" : $c->{error};
			out(wrapped("nsconform report: $c->{kernel}: ERROR: $why"))
			    unless $done{"$c->{dir}\0$c->{error}"}++;
			next;
		}
		my $s = summarise($c, $ids);
		out(wrapped("nsconform report: $c->{kernel} $c->{pass}: " . summary_text($s)
			    . (defined $c->{crashed} ? " - the kernel crashed" : '')));
		for (grouped([map { [$c, $_] } grep { is_bad($_) } map { cell($c, $_) } @$ids])) {
			my $r = $_->[1];
			out(painted($r->{status}, wrapped("  $LABEL{$r->{status}} $r->{id}"
					. (length $r->{reason} ? ": $r->{reason}" : ''))));
			out(wrapped("      $_", 2)) for map { "klog: $_" } @{$r->{klog} // []};
		}
	}
}

# What is wrong with the kernel(s), for the end of make check and make
# matrix: the kernels that could not run, then every unexpected failure and
# every known deviation, one head line each (status, test, columns, and for
# a deviation its first fixed release and reference), then the claim and
# its source, the test's own log line and file:line of the failed check.
sub failures {
	my ($cols, $ids) = @_;
	my $v = verdict($cols, $ids);
	my @err = @{$v->{errors}};
	my (%by, @order);
	for my $kind (['bad', [grouped($v->{failures})]], ['known', $v->{known}]) {
		for (@{$kind->[1]}) {
			my ($c, $r) = @$_;
			my $k = join("\0", $kind->[0], $r->{id}, $r->{status},
				     $r->{known} ? $r->{known}{where} : '');
			push @order, $k unless $by{$k};
			$by{$k}{r} //= $r;
			push @{$by{$k}{cols}}, $c->{label};
		}
	}
	my %seen;
	my @crashed = grep { defined $_->{crashed} && !$seen{$_->{dir}}++ } @$cols;
	return unless @err || @order || @crashed;
	my $nbad = grep { /^bad\0/ } @order;
	my $nknown = @order - $nbad;
	out(wrapped("nsconform: what is wrong: "
		    . (@err ? scalar(@err) . " kernel(s) could not be run, " : '')
		    . (@crashed ? scalar(@crashed) . " kernel(s) crashed, " : '')
		    . "$nbad unexpected failure(s), $nknown known deviation(s)"
		    . ($nknown ? " (fixtures/data/expectations)" : '')));
	out(painted('error', wrapped("  ERROR $_->{kernel}: $_->{error_line}"))) for @err;
	out(painted('crash', wrapped("  CRASH $_->{kernel}: the kernel crashed: $_->{crashed_short}"
				     . (-e "$_->{dir}/klog" ? " (log: $_->{dir}/klog)" : ''))))
	    for @crashed;
	for my $k (@order) {
		my $r = $by{$k}{r};
		my $e = $r->{known};
		my $st = $e ? 'known' : $r->{status};
		my $head = "  " . ($e ? 'KNOWN' : $LABEL{$st}) . " $r->{id} ("
			 . join(' ', @{$by{$k}{cols}}) . ")";
		if ($e) {
			my $fixed = NSConform::Expect::fixed_in($e);
			$head .= ": " . ($fixed =~ /^unfixed/ ? $fixed : 'first fixed '
					 . ($fixed || 'unknown')) . " [$e->{reference}]";
		}
		out(painted($st, wrapped($head, 6)));
		my $x = explain($TOP, $r);
		my @l;
		push @l, "claim: $x->{claim}" if length $x->{claim};
		push @l, "source: $x->{source}" if length $x->{source};
		push @l, "log: $x->{log}" if length $x->{log};
		push @l, "at: $x->{at}" if length $x->{at};
		push @l, "deviation: $e->{reason} (" . ($e->{where} =~ s{^\Q$TOP\E/}{}r) . ")"
		    if $e;
		push @l, "reference: " . reference_text($e->{reference})
		    if $e && reference_url($e->{reference});
		push @l, "reason: $r->{reason}" if !$e && !length $x->{at} && length $r->{reason}
		    && $r->{reason} ne $x->{log};
		out(wrapped("      $_", 4)) for @l;
	}
}

# The closing lines over every column: known deviations, then the plain
# "N passed, N failed, N skipped" line that CI systems read.
sub total {
	my ($cols, $ids) = @_;
	my %t = map { $_ => 0 } qw(pass failed skip known);
	for my $c (grep { !defined $_->{error} } @$cols) {
		my $s = summarise($c, $ids);
		$t{$_} += $s->{$_} // 0 for keys %t;
	}
	my $nerr = () = error_columns($cols);
	out("nsconform: ERROR: $nerr kernel" . ($nerr == 1 ? '' : 's') . " could not be run or"
	    . " read: " . join('; ', map { "$_->{kernel}: $_->{error}" } error_columns($cols))
	    . "\n") if $nerr;
	out("nsconform: $t{known} results are known kernel deviations"
	    . " (fixtures/data/expectations)\n")
	    if $t{known};
	out("nsconform: $t{pass} passed, $t{failed} failed, $t{skip} skipped\n");
}

# One line of a comparison entry.
sub describe {
	my ($e, $key) = @_;
	my ($o, $n) = ($e->{old}, $e->{new});
	return $e->{reason} if !$o && !$n && $e->{reason};	# a column the new run lacks
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
	out(wrapped("  compared $_->{old} -> $_->{new}")) for @{$doc->{pairs}};
	out(wrapped("  only in the old run: $_")) for @{$doc->{only_old}};
	out(wrapped("  only in the new run: $_")) for @{$doc->{only_new}};
	out(paint('error', 'ERROR') . wrapped(" $_->{kernel} (new run): $_->{reason}"))
	    for @{$doc->{errors} // []};
	for my $s (@SECTIONS) {
		my $st = $s->[0] eq 'regressions' ? 'fail' : $s->[0] eq 'fixes' ? 'pass' : 'skip';
		for my $e (@{$doc->{$s->[0]}}) {
			my $l = wrapped(pad($s->[1], 10) . " $e->{columns} $e->{case}: "
					. describe($e, $s->[0]), 11);
			$l =~ s/^\Q$s->[1]\E/paint($st, $s->[1])/e;
			out($l);
		}
	}
	out(wrapped("summary: " . join(", ", counts($doc))));
}

1;
