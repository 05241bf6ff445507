# NSConform::Findings - the sweep of every Debian release (harness/sweep)
# and what fixtures/data/expectations makes of it: the compact sweep summary
# (fixtures/data/sweep-summary), the kernel set of each entry generated from it,
# the check that entries and sweep agree, and the README findings list.
package NSConform::Findings;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use NSConform::Expect;
use NSConform::Model;
use NSConform::Sweep;
use Exporter qw(import);
our @EXPORT = qw(read_summary check_findings write_kernels readme_findings
		 observed generated_range);

my %STATUS_OF = reverse %NSConform::Sweep::CHAR;
# Results an entry of each STATUS is seen in (not run is no observation).
my %HIT = (fail => qr/[FHTCE]/, timeout => qr/T/, crash => qr/C/, health => qr/H/,
	   skip => qr/s/);
my $BADCHARS = qr/[FHTCE]/;

sub series_of { my @v = upstream_version(@_); return @v ? "$v[0].$v[1]" : '?'; }

# ------------------------------------------------------------ the summary

# {releases => [{abi, version, up, series, status}], rows => [{pass, test, v}],
#  suite, binaries => {name => hash}}
sub read_summary {
	my ($file) = @_;
	my $s = slurp($file) // fatal("$file: cannot read: $!");
	my %sum = (releases => [], rows => [], binaries => {}, suite => '', file => $file);
	my $n = 0;
	for my $line (split /\n/, $s) {
		$n++;
		next if $line =~ /^\s*(#|$)/;
		my ($kw, @f) = split ' ', $line;
		if ($kw eq 'suite') { $sum{suite} = $f[0] // ''; }
		elsif ($kw eq 'binary') { $sum{binaries}{$f[0]} = $f[1]; }
		elsif ($kw eq 'release') {
			my ($abi, $ver, $up, $st) = @f;
			fatal("$file:$n: want release ABI VERSION UPSTREAM STATUS")
			    unless defined $st;
			my $kv = $ver eq '-' ? undef : $ver;
			push @{$sum{releases}}, {
				abi => $abi, version => $kv, up => $up, status => $st,
				series => series_of($abi, $kv),
				col => {kernel => $abi, meta => {kernel_version => $kv}}};
		} elsif ($kw eq 'row') {
			my ($pass, $test, @v) = @f;
			my $v = join '', @v;
			fatal("$file:$n: the row has " . length($v) . " results for "
			      . @{$sum{releases}} . " releases")
			    unless length($v) == @{$sum{releases}};
			push @{$sum{rows}}, {pass => $pass, test => $test, v => $v};
		} else {
			fatal("$file:$n: unknown line '$kw' (suite, binary, release or row)");
		}
	}
	fatal("$file: no release lines") unless @{$sum{releases}};
	return \%sum;
}

# ------------------------------------------------------------ entries

sub passes_of { return $_[0]{pass} eq '*' ? ('root', 'user') : ($_[0]{pass}); }

# What the sweep saw of entry E (or a group of entries with one case, pass
# and status): per release index, 'bad' (a result of E's status), 'unknown'
# (not run, no result) or 'good'; and the rows it matched.
sub observed {
	my ($sum, $e) = @_;
	my $hit = $HIT{$e->{status}} // $BADCHARS;
	my %pass = map { $_ => 1 } passes_of($e);
	my @rows = grep { $pass{$_->{pass}} && $_->{test} =~ $e->{re} } @{$sum->{rows}};
	my @st;
	# A binary the sweep did not run tells nothing.
	my ($bin) = split m{/}, $e->{case};
	if (%{$sum->{binaries}} && $bin !~ /[*?]/ && !exists $sum->{binaries}{$bin}) {
		return ([map { 'unknown' } @{$sum->{releases}}], []);
	}
	for my $i (0 .. $#{$sum->{releases}}) {
		my @c = map { substr($_->{v}, $i, 1) } @rows;
		$st[$i] = (grep { $_ =~ $hit } @c) ? 'bad'
			: $sum->{releases}[$i]{status} eq 'missing' ? 'unknown'
			: (grep { /[N-]/ } @c) ? 'unknown' : 'good';
	}
	return (\@st, \@rows);
}

sub adjacent {
	my ($a, $b) = @_;
	my ($am, $an) = split /\./, $a;
	my ($bm, $bn) = split /\./, $b;
	# Linux's major versions have ended at .19 or .20 (5.19, then 6.0).
	return ($am == $bm && $bn == $an + 1) || ($bm == $am + 1 && $bn == 0 && $an >= 19);
}

# The KERNELS of the bad releases of STATES (observed()): per series, the
# runs of bad releases (releases without an observation are passed over),
# first bad .. last bad, the series itself as a bound where the run starts
# at the series' first or ends at its newest observed release; runs that
# end and start adjacent whole series (6.16, 6.17) are joined.  Also the
# notes: per run, the exact releases (first bad, last bad, first good).
sub generated_range {
	my ($sum, $st) = @_;
	my $rel = $sum->{releases};
	my (@order, %idx, %seen);
	for my $i (0 .. $#$rel) {
		my $s = $rel->[$i]{series};
		push @order, $s unless $seen{$s}++;
		push @{$idx{$s}}, $i if $st->[$i] ne 'unknown';
	}
	my (@segs, @notes);
	for my $s (@order) {
		my @k = @{$idx{$s} // []};
		my $j = 0;
		while ($j < @k) {
			if ($st->[$k[$j]] ne 'bad') { $j++; next; }
			my $a = $j;
			$j++ while $j + 1 < @k && $st->[$k[$j + 1]] eq 'bad';
			my ($fi, $li) = ($k[$a], $k[$j]);
			# A good release of the same upstream version as a bad one
			# cannot be told apart by a range: the bound stays on the bad.
			my $lo = $a == 0 ? $s : $rel->[$fi]{up};
			my $hi = $j == $#k ? $s : $rel->[$li]{up};
			push @segs, {series => $s, lo => $lo, hi => $hi,
				     open_lo => $a == 0, open_hi => $j == $#k};
			my $good = $j < $#k ? $rel->[$k[$j + 1]]{abi} : undef;
			my $unswept = grep { $rel->[$_]{series} eq $s && $st->[$_] eq 'unknown' }
				      $li + 1 .. $#$rel;
			my $before = $a > 0 ? $rel->[$k[$a - 1]]{abi} : undef;
			push @notes, "$s: " . ($fi == $li ? "bad $rel->[$fi]{abi}"
				: "first bad $rel->[$fi]{abi}, last bad $rel->[$li]{abi}")
			    . ($before ? ", last good before $before" : '')
			    . ($good ? ", first good $good"
			       : $unswept ? ", no result for the releases after it"
			       : ", no good release after it");
			$j++;
		}
	}
	my @merged;
	for my $g (@segs) {
		my $p = $merged[-1];
		if ($p && $p->{open_hi} && $g->{open_lo} && adjacent($p->{last}, $g->{series})) {
			@$p{qw(hi open_hi last)} = ($g->{hi}, $g->{open_hi}, $g->{series});
		} else {
			push @merged, {%$g, last => $g->{series}};
		}
	}
	my $range = join ',', map { $_->{lo} eq $_->{hi} ? $_->{lo} : "$_->{lo}..$_->{hi}" }
			  @merged;
	return ($range, \@notes);
}

# The class the sweep suggests for entry E (regression: a release older than
# the first bad one passed the test; unfixed: the newest release with a
# result is bad; fixed otherwise), with why; '' when the sweep saw no failure.
sub suggested_class {
	my ($sum, $e) = @_;
	my ($st, $rows) = observed($sum, $e);
	my @bad = grep { $st->[$_] eq 'bad' } 0 .. $#$st;
	return ('', '') unless @bad;
	my @seen = grep { $st->[$_] ne 'unknown' } 0 .. $#$st;
	my $rel = $sum->{releases};
	return ('unfixed', "the newest release swept, $rel->[$seen[-1]]{abi}, fails")
	    if $st->[$seen[-1]] eq 'bad';
	my ($ok) = grep { my $i = $_; grep { substr($_->{v}, $i, 1) eq '.' } @$rows }
		   0 .. $bad[0] - 1;
	return ('regression', "$rel->[$ok]{abi} passed, $rel->[$bad[0]]{abi} fails")
	    if defined $ok;
	return ('fixed', "fails up to $rel->[$bad[-1]]{abi}, newer releases pass");
}

# The entries of FILE's text with the `#@` and `#!` comments above each.
sub annotate {
	my ($text, $exps) = @_;
	my @lines = split /\n/, $text, -1;
	for my $e (@$exps) {
		my $i = $e->{line} - 2;
		while ($i >= 0 && $lines[$i] =~ /^#[@!]/) {
			$e->{unswept} = $1 if $lines[$i] =~ /^#!\s*unswept\b\s*(.*)/;
			$i--;
		}
	}
}

# Entries grouped by status, class-free identity (case and pass): the sweep
# is compared with the union of their KERNELS.
sub groups {
	my ($exps) = @_;
	my (%g, @order);
	# doc entries cover no result; skip entries are not judged (the summary
	# has rows only for tests that were not ok somewhere).
	for my $e (grep { $_->{status} !~ /^(doc|skip)$/ } @$exps) {
		my $k = "$e->{status} $e->{pass} $e->{case}";
		push @order, $k unless $g{$k};
		push @{$g{$k}}, $e;
	}
	return map { $g{$_} } @order;
}

sub in_any {
	my ($col, @es) = @_;
	for my $e (@es) { return 1 if in_range($col, $e); }
	return 0;
}

sub list_releases {
	my ($sum, @i) = @_;
	my @a = map { $sum->{releases}[$_]{abi} } @i;
	return join(', ', @a > 8 ? (@a[0 .. 7], '... (' . (@a - 8) . ' more)') : @a);
}

# The problems of EXPS against the summary SUM: one message each.
sub check_findings {
	my ($sum, $exps, $file, $stale) = @_;
	my @err;
	annotate(slurp($file) // '', $exps);
	# STALE: {binary => 1} for the case binaries built since the sweep (a
	# hash the summary does not have): what the sweep says of them is not
	# what they do, so their entries and rows are not judged.
	$stale //= {};
	my $is_stale = sub {
		my ($case) = @_;
		my ($bin) = split m{/}, $case;
		return 0 unless %$stale;
		return $stale->{$bin} if $bin !~ /[*?]/;
		(my $re = quotemeta $bin) =~ s/\\\*/.*/g;
		$re =~ s/\\\?/./g;
		return grep { /^$re$/ } keys %$stale;
	};
	warning("not judged, built since the sweep (make sweep runs them): "
		. join(' ', sort keys %$stale)) if %$stale;
	my $rel = $sum->{releases};
	my $missing = grep { $_->{status} eq 'missing' } @$rel;
	warning("the sweep is incomplete: $missing of " . @$rel . " releases have no result"
		. " (run make sweep again: it resumes)") if $missing;
	for my $g (groups($exps)) {
		my $e = $g->[0];
		next if $e->{unswept} || $is_stale->($e->{case});
		my ($st) = observed($sum, $e);
		next unless grep { $_ ne 'unknown' } @$st;	# not swept
		my (@extra, @miss);
		for my $i (0 .. $#$rel) {
			my $in = in_any($rel->[$i]{col}, @$g);
			push @extra, $i if $in && $st->[$i] eq 'good';
			push @miss, $i if !$in && $st->[$i] eq 'bad';
		}
		my ($want) = generated_range($sum, $st);
		my $where = join(', ', map { $_->{where} } @$g);
		my $what = "$e->{case} ($e->{pass} pass)";
		my ($class, $why) = suggested_class($sum, $e);
		warning("$e->{where}: $what: class $e->{class}, the sweep suggests $class ($why)")
		    if $class && $class ne $e->{class} && $e->{class} ne 'doc';
		for my $x (@$g) {
			my @in = grep { in_range($rel->[$_]{col}, $x) } 0 .. $#$rel;
			next if grep { $st->[$_] eq 'bad' } @in;
			if (grep { $st->[$_] eq 'good' } @in) {
				push @err, "$x->{where}: dead: $what matches only passing, SKIP or"
				    . " not-run results of the sweep in $x->{range}";
			} elsif (grep { $rel->[$_]{status} eq 'missing' } @in) {
				warning("$x->{where}: $what: the sweep has no result yet in"
					. " $x->{range}");
			} else {
				push @err, "$x->{where}: $what: no release the sweep ran is in"
				    . " $x->{range}";
			}
		}
		# stable:X says the fix landed in X: the sweep must see X's series
		# fail before X and pass from X on.
		for my $x (@$g) {
			next unless $x->{reference} =~ /^stable:((\d+\.\d+)\.(\d+))$/;
			my ($fix, $s, $p) = ($1, $2, $3);
			my @in = grep { $rel->[$_]{series} eq $s && $st->[$_] ne 'unknown' }
				 0 .. $#$rel;
			my $patch = sub { ($rel->[$_[0]]{up} =~ /^\d+\.\d+\.(\d+)$/)[0] // -1 };
			my @late = grep { $st->[$_] eq 'bad' && $patch->($_) >= $p } @in;
			my @early = grep { $st->[$_] eq 'good' && $patch->($_) >= 0
					   && $patch->($_) < $p } @in;
			my $ref = "$x->{where}: $what: reference stable:$fix,"
			    . " but the sweep sees it";
			push @err, "$ref fail on " . list_releases($sum, @late) if @late;
			push @err, "$ref pass already on " . list_releases($sum, @early)
			    if @early && grep { $st->[$_] eq 'bad' && $_ < $early[0] } @in;
		}
		next unless @extra || @miss;
		push @err, "$where: $what: KERNELS " . join(',', map { $_->{range} } @$g)
		    . " disagrees with the sweep"
		    . (@extra ? "; covers releases that pass: " . list_releases($sum, @extra) : '')
		    . (@miss ? "; misses failing releases: " . list_releases($sum, @miss) : '')
		    . "; the sweep says: " . (length $want ? $want : 'no failure at all');
	}
	# Failures no entry covers.
	my %unc;
	for my $row (@{$sum->{rows}}) {
		next if $is_stale->($row->{test});
		for my $i (0 .. $#$rel) {
			my $c = substr($row->{v}, $i, 1);
			next unless $c =~ $BADCHARS;
			my $status = $STATUS_OF{$c};
			my $col = {%{$rel->[$i]{col}}, pass => $row->{pass}};
			next if grep {
				$_->{status} ne 'doc'
				    && ($_->{pass} eq '*' || $_->{pass} eq $row->{pass})
				    && $row->{test} =~ $_->{re} && in_range($col, $_)
				    && ($_->{status} eq 'fail' || $_->{status} eq $status)
			} @$exps;
			push @{$unc{"$row->{pass} $row->{test}"}}, $i;
		}
	}
	for my $k (sort keys %unc) {
		push @err, "uncovered failure: $k on " . list_releases($sum, @{$unc{$k}})
		    . " (no entry in $file covers it)";
	}
	return @err;
}

# ------------------------------------------------------------ --write

# Rewrite FILE: each group's first entry gets the KERNELS the sweep says
# and `#@` lines with the exact releases; its other entries go (one entry
# per finding).  Entries the sweep never saw fail are left as they are.
sub write_kernels {
	my ($sum, $exps, $file) = @_;
	my $text = slurp($file) // fatal("$file: cannot read: $!");
	annotate($text, $exps);
	my @lines = split /\n/, $text, -1;
	my (%drop, %set, %notes, @msg);
	for my $g (groups($exps)) {
		my $e = $g->[0];
		next if $e->{unswept};
		my ($st) = observed($sum, $e);
		my ($range, $notes) = generated_range($sum, $st);
		if (!length $range) {
			push @msg, "$e->{where}: $e->{case}: the sweep saw no failure;"
			    . " left as it is";
			next;
		}
		$set{$e->{line}} = $range;
		$notes{$e->{line}} = $notes;
		for my $x (@$g[1 .. $#$g]) {
			$drop{$x->{line}} = 1;
			push @msg, "$x->{where}: merged into $e->{where} (one entry per finding)";
		}
	}
	my @out;
	for my $n (1 .. @lines) {
		my $l = $lines[$n - 1];
		next if $drop{$n};
		if ($l =~ /^#@/) {	# generated: rewritten below when its entry is
			my $m = $n;
			$m++ while $m <= @lines && $lines[$m - 1] =~ /^#[@!]/;
			next if $set{$m} || $drop{$m};
		}
		if (defined $set{$n}) {
			my $i = $#out;
			$i-- while $i >= 0 && $out[$i] =~ /^#[@!]/;
			splice(@out, $i + 1, 0, map { "#@ $_" } @{$notes{$n}});
			@out = grep { defined } @out;
			$l =~ s/^(\s*\S+\s+(?:(?:$CLASSES)\s+)?)\S+/$1$set{$n}/;
		}
		push @out, $l;
	}
	# A `#!` line stays where it was (above its entry, after the `#@` lines).
	my $new = join("\n", @out);
	if ($new ne $text) {
		open(my $fh, '>', "$file.tmp") or fatal("$file.tmp: cannot write: $!");
		print $fh $new;
		close($fh) or fatal("$file.tmp: cannot write: $!");
		rename("$file.tmp", $file) or fatal("$file: cannot replace: $!");
	}
	return @msg;
}

# ------------------------------------------------------------ README

sub md { my $s = shift // ''; $s =~ s/([\\`*_|<>\[\]])/\\$1/g; return $s; }

# The bad releases of STATES in one series, short: all, or first..last.
sub series_cell {
	my ($sum, $st, $s) = @_;
	my @i = grep { $sum->{releases}[$_]{series} eq $s } 0 .. $#{$sum->{releases}};
	my @k = grep { $st->[$_] ne 'unknown' } @i;
	my @b = grep { $st->[$_] eq 'bad' } @k;
	return @i && !@k ? '?' : '' unless @b;
	return 'all' if @b == @k;
	my @up = map { $sum->{releases}[$_]{up} } @b;
	return @b == 1 ? $up[0] : "$up[0]..$up[-1]" if $b[-1] - $b[0] + 1 == @b
	    || @b == grep { $_ >= $b[0] && $_ <= $b[-1] } @k;
	return join(' ', @up);
}

# The claim of the test an entry names; a pattern that names one test of
# its binary has that test's claim.
sub claim_of {
	my ($top, $e) = @_;
	my ($bin) = split m{/}, $e->{case};
	return '' if $bin =~ /[*?]/;
	my @t = grep { "$bin/$_" =~ $e->{re} } keys %{NSConform::Expect::claims_of($top, $bin)};
	return NSConform::Expect::claim($top, @t == 1 ? "$bin/$t[0]" : $e->{case});
}

# The README section: the findings by class with counts, each with its
# claim, what goes wrong and the releases, then the release x finding table.
sub readme_findings {
	my ($sum, $exps, $top) = @_;
	my @ents = grep { $_->{status} ne 'skip' } @$exps;
	my %n;
	$n{$_->{class}}++ for @ents;
	my @order = qw(regression fixed unfixed doc);
	my $nrel = @{$sum->{releases}};
	my $swept = grep { $_->{status} ne 'missing' } @{$sum->{releases}};
	my @series = do { my %s; grep { !$s{$_}++ } map { $_->{series} } @{$sum->{releases}} };
	my $s = "Generated by `make findings` from `fixtures/data/expectations` and the sweep of"
	    . " $swept of $nrel Debian releases (`fixtures/data/sweep-summary`,"
	    . " suite $sum->{suite}):"
	    . " " . join(', ', map { "$CLASS_TITLE{$_}: " . ($n{$_} // 0) } @order) . ".\n";
	my $k = 0;
	my @table;
	for my $class (@order) {
		my @c = grep { $_->{class} eq $class } @ents;
		next unless @c;
		$s .= "\n**$CLASS_TITLE{$class} (" . scalar(@c) . ")**\n\n";
		if ($class eq 'doc') {
			$s .= "| # | test | the page says | the kernel does | commit | since |\n"
			    . "|---|---|---|---|---|---|\n";
		} else {
			$s .= "| # | test | claim | what goes wrong | Debian releases"
			    . " | reference |\n"
			    . "|---|---|---|---|---|---|\n";
		}
		for my $e (@c) {
			$k++;
			my $claim = claim_of($top, $e);
			if ($class eq 'doc') {
				# REASON: the page's sentence (quoted, the page named
				# before it), then what the kernel does.
				my ($page, $does) = ($claim, $e->{reason});
				($page, $does) = ($1, $2)
				    if $e->{reason} =~ /^(.*?"[^"]+"[^;:]*)[;:]\s*(.+)$/;
				$s .= "| F$k | `" . md($e->{case}) . '` | ' . md($page) . ' | '
				    . md($does) . ' | ' . md($e->{reference}) . ' | '
				    . md($e->{range}) . " |\n";
				next;
			}
			my ($st) = observed($sum, $e);
			my ($range, $notes) = generated_range($sum, $st);
			$s .= "| F$k | `" . md($e->{case}) . '`'
			    . ($e->{pass} eq '*' ? '' : " ($e->{pass} pass)") . ' | ' . md($claim)
			    . ' | ' . md($e->{reason}) . ' | '
			    . (@$notes ? md(join('; ', @$notes)) : 'not seen by the sweep')
			    . ' | ' . md($e->{reference}) . " |\n";
			push @table, ["F$k", map { series_cell($sum, $st, $_) } @series];
		}
	}
	if (@table) {
		$s .= "\n**Release x finding** (failing Debian releases of each series; all: every"
		    . " release of it)\n\n| finding | " . join(' | ', @series) . " |\n|---|"
		    . join('', map { '---|' } @series) . "\n";
		$s .= '| ' . join(' | ', map { $_ eq '' ? '' : md($_) } @$_) . " |\n" for @table;
	}
	return $s;
}

1;
