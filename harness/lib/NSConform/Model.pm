# NSConform::Model - the kernel x case matrix built from loaded columns:
# case ids, cells, labels, summaries, details, and the comparison of two
# sets of columns.  The renderers (NSConform::Render::*) print it.
package NSConform::Model;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use NSConform::Expect;
use Exporter qw(import);
our @EXPORT = qw(shown is_bad is_ok prepare case_ids cell summarise summary_text reason_of
		 column_key column_id details grouped sort_columns match_kernel compare
		 error_columns column_status verdict explain reference_text reference_url
		 @SECTIONS);

# The status shown for a result: "known" when an expectation covers it.
sub shown { my $r = shift; return !$r ? 'missing' : $r->{known} ? 'known' : $r->{status}; }
sub is_bad { my $r = shift; return $r && $BAD{$r->{status}} && !$r->{known}; }
sub is_ok { my $r = shift; return $r && !$BAD{$r->{status}}; }
sub column_id { return "$_[0]{run}/$_[0]{kernel}/$_[0]{pass}"; }

# Tests a binary never reached are named after the test with that number
# in another column, so that they line up with it.
sub resolve_not_run {
	my ($cols) = @_;
	my %name;
	for my $col (@$cols) {
		for my $r (values %{$col->{results}}) {
			next if $r->{test} =~ /^not_run_\d+$/ || !$r->{number};
			$name{$r->{binary}}{$r->{number}} //= $r->{test};
		}
	}
	for my $col (@$cols) {
		for my $id (keys %{$col->{results}}) {
			my $r = $col->{results}{$id};
			next unless $r->{test} =~ /^not_run_(\d+)$/;
			my $real = $name{$r->{binary}}{$1} // next;
			my $new = "$r->{binary}/$real";
			next if $col->{results}{$new};
			delete $col->{results}{$id};
			@$r{qw(test id)} = ($real, $new);
			$col->{results}{$new} = $r;
		}
	}
}

sub case_ids {
	my ($cols) = @_;
	my %num;
	for my $col (@$cols) {
		for my $r (values %{$col->{results}}) {
			my $n = $num{$r->{id}};
			$num{$r->{id}} = [$r->{binary}, $r->{number}]
			    if !$n || $r->{number} < $n->[1];
		}
	}
	return sort { $num{$a}[0] cmp $num{$b}[0] || $num{$a}[1] <=> $num{$b}[1] || $a cmp $b }
	       keys %num;
}

# The result of case ID in COL; a case missing from a crashed column did
# not run because of the crash.
sub cell {
	my ($col, $id) = @_;
	my $r = $col->{results}{$id} // $col->{synthetic}{$id};
	return $r if $r;
	my ($binary, $test) = split m{/}, $id, 2;
	my %r = (id => $id, binary => $binary, test => $test, number => 0, diag => [],
		 raw => '', synthetic => 1);
	if (defined $col->{error}) {
		@r{qw(status reason)} = ('error', "not run: $col->{error}");
	} elsif (defined $col->{crashed}) {
		@r{qw(status reason)} = ('crash',
					 "not run: the kernel crashed ($col->{crashed_short})");
	} elsif ($col->{never}{$binary}) {
		@r{qw(status reason)} = ('notrun', 'the binary never ran (not_run in meta)');
	} else {
		return undef;
	}
	expect($col, \%r, 1);
	return $col->{synthetic}{$id} = \%r;
}

# The architecture a column's label names: none for x86_64 (the default),
# Debian's name for the others (arm64, i386).
sub arch_tag {
	my $m = $_[0]{meta}{machine} // 'x86_64';
	return $m eq 'x86_64' ? '' : $m eq 'aarch64' ? 'arm64' : $m =~ /^i[3-6]86$/ ? 'i386' : $m;
}

# Column labels: "6.1/root" ("6.1-arm64/root" for an arm64 kernel), longer
# only when that is ambiguous.
sub label_columns {
	my ($cols) = @_;
	my %runs = map { $_->{run} => 1 } @$cols;
	for my $try (0 .. 3) {
		for my $c (@$cols) {
			my $t = arch_tag($c);
			my $k = $try % 2 == 0 ? short_kernel($c->{kernel}) . ($t ? "-$t" : '')
			    : $c->{kernel};
			$k = "$c->{run}:$k" if $try >= 2 && keys %runs > 1;
			$c->{label} = "$k/$c->{pass}";
		}
		my %seen;
		$seen{$_->{label}}++ for @$cols;
		return unless grep { $_ > 1 } values %seen;
	}
}

sub prepare {
	my ($cols, $exps) = @_;
	resolve_not_run($cols);
	for my $c (@$cols) {
		for my $id (keys %{$c->{results}}) { $c->{results}{$id}{id} = $id; }
	}
	set_expectations($exps);
	apply_expectations($cols);
	compat_only($cols);
	label_columns($cols);
}

# A failure of a compat pass (compat, compat-user: the 32-bit binaries) whose
# test passed in the 64-bit pass of the same privilege on the same kernel
# (root, user) is a finding of its own kind: a compat-path bug.  Its reason
# says so; an expectation that covers it (PASS compat) wins.
sub compat_only {
	my ($cols) = @_;
	my %by = map { ("$_->{run}\0$_->{dir}\0$_->{pass}" => $_) } @$cols;
	for my $c (@$cols) {
		my ($sib) = $c->{pass} =~ /^compat(-user)?$/ ? ($1 ? 'user' : 'root') : ();
		next unless $sib;
		my $s = $by{"$c->{run}\0$c->{dir}\0$sib"} or next;
		for my $r (values %{$c->{results}}) {
			next unless is_bad($r);
			my $o = $s->{results}{$r->{id}};
			next unless $o && $o->{status} eq 'pass';
			$r->{compat_only} = $sib;
			$r->{reason} = "compat-path bug: passes in the 64-bit $sib pass"
			    . (length($r->{reason} // '') ? "; $r->{reason}" : '');
		}
	}
}

sub summarise {
	my ($col, $ids) = @_;
	my %s = map { $_ => 0 } @STATUSES;
	$s{shown(cell($col, $_))}++ for @$ids;
	$s{cases} = @$ids - $s{missing};
	$s{failed} = 0;
	$s{failed} += $s{$_} for keys %BAD;
	return \%s;
}

sub summary_text {
	my ($s) = @_;
	my @p = ("$s->{pass} passed", "$s->{failed} failed", "$s->{skip} skipped");
	push @p, "$s->{known} known" if $s->{known};
	push @p, "$s->{xfail} xfail" if $s->{xfail};
	my @f = map { "$s->{$_} $_" } grep { $s->{$_} } qw(health timeout crash error notrun);
	$p[1] .= ' (' . join(', ', @f) . ')' if @f;
	return join(', ', @p);
}

sub reason_of {
	my ($r) = @_;
	my $s = $r->{reason} // '';
	if ($r->{known}) {
		$s = "known $r->{status}: $r->{known}{reason} [$r->{known}{reference}]"
		    . (length $s ? "; $s" : '');
	}
	return $s;
}

sub column_key {
	my ($c) = @_;
	my $m = $c->{meta};
	my @p = ("$c->{kernel}, " . ($c->{pass} eq 'none' ? 'no pass ran' : "$c->{pass} pass"));
	push @p, "run $c->{run}";
	push @p, $m->{where} if $m->{where};
	push @p, $m->{machine} if $m->{machine};
	push @p, $m->{date} if $m->{date};
	push @p, "CRASHED: $c->{crashed_short}" if defined $c->{crashed};
	push @p, "ERROR: $c->{error}" if defined $c->{error};
	return join(', ', @p);
}

sub details {
	my ($cols, $ids) = @_;
	my (@bad, @known, %skip);
	for my $id (@$ids) {
		for my $c (@$cols) {
			my $r = cell($c, $id) or next;
			if ($r->{known}) {
				push @known, [$c, $r];
			} elsif ($BAD{$r->{status}}) {
				push @bad, [$c, $r];
			} elsif ($r->{status} eq 'skip') {
				push @{$skip{"$id\0$r->{reason}"}}, $c->{label};
			}
		}
	}
	return (\@bad, \@known, \%skip);
}

# The columns that stand for no results (RESULTS.md: a kernel with
# status=error, or a folder that could not be read), one per kernel folder
# and reason.
sub error_columns {
	my ($cols) = @_;
	my %seen;
	return grep { defined $_->{error} && !$seen{"$_->{dir}\0$_->{error}"}++ } @$cols;
}

# What the report makes of one column: error (no results could be had),
# crashed (the kernel died), failed (an unexpected bad result), passed.
sub column_status {
	my ($c, $ids) = @_;
	return 'error' if defined $c->{error};
	return 'crashed' if defined $c->{crashed};
	return (grep { is_bad(cell($c, $_)) } @$ids) ? 'failed' : 'passed';
}

# The verdict over all columns: ERROR when a kernel could not be run or its
# results read, FAIL on an unexpected bad result (or a crashed kernel that
# left none), else PASS; with the failures (the bad results that are not
# an error column's), the known deviations and the skips of details().
sub verdict {
	my ($cols, $ids) = @_;
	my ($bad, $known, $skip) = details($cols, $ids);
	my @err = error_columns($cols);
	my @fail = grep { !defined $_->[0]{error} } @$bad;
	my $empty_crash = grep { defined $_->{crashed} && !%{$_->{results}} } @$cols;
	return {result => @err ? 'ERROR' : @fail || $empty_crash ? 'FAIL' : 'PASS',
		errors => \@err, failures => \@fail, known => $known, skips => $skip};
}

# What a reader needs to know about a bad or known result: the test's claim
# and its source (the first sentence of the comment above its TEST, its
# trailing "(page; linux:commit)" taken apart), the test's own log line
# (TH_LOG, a child's message), and file:line of the first failed check.
my $SOURCE = qr{\w\(\d\)|linux:[0-9a-f]{7}|article|LTP|selftest}i;
sub explain {
	my ($top, $r) = @_;
	my $claim = $r->{test} =~ /^\(|^not_run_/ ? ''
		  : NSConform::Expect::claim($top, "$r->{binary}/$r->{test}");
	my $source = '';
	(my $c = $claim) =~ s/\.\s*$//;
	if ($c =~ /\)$/) {	# the last balanced "(...)" of the sentence
		my ($depth, $i) = (0, length($c) - 1);
		for (; $i >= 0; $i--) {
			my $ch = substr($c, $i, 1);
			$depth++ if $ch eq ')';
			$depth-- if $ch eq '(';
			last if $depth == 0;
		}
		my $group = $i > 0 ? substr($c, $i + 1, length($c) - $i - 2) : '';
		if ($group =~ $SOURCE) {
			$source = $group;
			$claim = substr($c, 0, $i) =~ s/\s+$//r . '.';
		}
	}
	if ($source eq '' && $claim =~ /(\b[\w.-]+\(\d\)(?:\s+"[^"]+")?|linux:[0-9a-f]{7,40})/) {
		$source = $1;
	}
	my ($log, $at) = ('', '');
	for my $d (@{$r->{diag} // []}) {
		(my $l = $d) =~ s/^#\s*//;
		next if $l !~ /\S/ || $l =~ /^\w+: Test (failed|terminated by)/;
		if ($l =~ m{^(\S+\.c:\d+):[\w.]+:(.*)$}) {
			my ($where, $msg) = ($1, $2);
			if ($msg =~ /^Expected /) {
				$at ||= "$where: $msg";
			} else {
				$log ||= $msg;
				$at ||= $where;
			}
		} elsif ($l =~ /^child \d+: [\w.]+:\d+: (.*)$/) {
			$log ||= $1;
		} elsif ($l !~ /^(klog:|\S+\.c:\d+)/) {
			$log ||= $l;
		}
	}
	$log ||= $r->{reason} if $r->{status} ne 'fail';
	return {claim => $claim, source => $source, log => $log, at => $at};
}

# A reference of fixtures/data/expectations as a URL a reader can open, when it
# names one: linux:<commit>, stable:<release>, man:<page>.<section>.
sub reference_url {
	my ($ref) = @_;
	return "https://git.kernel.org/linus/$1" if $ref =~ /^linux:([0-9a-f]{7,40})$/;
	return "https://cdn.kernel.org/pub/linux/kernel/v$1.x/ChangeLog-$1.$2"
	    if $ref =~ /^stable:(\d+)\.(\d+\.\d+)$/;
	return "https://man7.org/linux/man-pages/man$2/$1.$2.html"
	    if $ref =~ /^man:([\w.-]+?)\.(\d)$/;
	return undef;
}

# The same reference in words: what it is, and where to read it.
sub reference_text {
	my ($ref) = @_;
	my $url = reference_url($ref);
	my $what = $ref =~ /^linux:(\w+)$/ ? "upstream commit $1"
		 : $ref =~ /^stable:(\S+)$/ ? "fixed in stable release $1"
		 : $ref =~ /^unfixed:(\S+)$/ ? "not fixed as of $1"
		 : $ref =~ /^man:([\w.-]+?)\.(\d)$/ ? "$1($2)" : $ref;
	return $url ? "$what, $url" : $what;
}

# Results a crash or a missing binary stand for, one line per column and
# reason instead of one per case.
sub grouped {
	my ($list) = @_;
	my (@out, %g);
	for (@$list) {
		my ($c, $r) = @$_;
		if (!$r->{synthetic}) {
			push @out, $_;
			next;
		}
		my $k = "$c->{label}\0$r->{status}\0$r->{reason}";
		push @out, $g{$k} = [$c, {%$r, n => 0}] unless $g{$k};
		$g{$k}[1]{n}++;
	}
	for (values %g) {
		my $r = $_->[1];
		$r->{id} = $r->{n} == 1 ? $r->{id} : "$r->{n} cases";
	}
	return @out;
}

sub sort_columns {
	return sort { kernel_sort_key($a->{kernel}) cmp kernel_sort_key($b->{kernel})
		      || NSConform::Results::pass_order($a->{pass}, $b->{pass}) } @_;
}

sub match_kernel {
	my ($want, $cols) = @_;
	my %k = map { $_->{kernel} => 1 } @$cols;
	my @m = grep { $_ eq $want } keys %k;
	@m = grep { /^\Q$want\E(?:[^0-9]|$)/ } keys %k unless @m;
	fatal("--across: no kernel $want in this run (it has " . join(', ', sort keys %k) . ")")
	    unless @m;
	fatal("--across: $want is ambiguous: " . join(', ', sort @m)) if @m > 1;
	return [grep { $_->{kernel} eq $m[0] } @$cols];
}

# --------------------------------------------------------------- compare

sub pair_columns {
	my ($old, $new) = @_;
	my (@pairs, %used);
	# By release, by major.minor, then the host column of each run with
	# the other whatever its release (meta where=host: a CI runner's image
	# update changes the host kernel, not what is compared).
	my @keys = (sub { "$_[0]{kernel}/$_[0]{pass}" },
		    sub { short_kernel($_[0]{kernel}) . "/$_[0]{pass}" },
		    sub { ($_[0]{meta}{where} // '') eq 'host' ? "host/$_[0]{pass}"
			  : "\0$_[0]{kernel}/$_[0]{pass}" });
	my %ok = map { $_->{kernel} => 1 } @$old;
	my %nk = map { $_->{kernel} => 1 } @$new;
	push @keys, sub { $_[0]{pass} } if keys %ok == 1 && keys %nk == 1;
	for my $key (@keys) {
		my (%o, %n);
		push @{$o{$key->($_)}}, $_ for grep { !$used{$_} } @$old;
		push @{$n{$key->($_)}}, $_ for grep { !$used{$_} } @$new;
		for my $k (sort keys %o) {
			next unless $n{$k} && @{$o{$k}} == 1 && @{$n{$k}} == 1;
			push @pairs, [$o{$k}[0], $n{$k}[0]];
			$used{$o{$k}[0]} = $used{$n{$k}[0]} = 1;
		}
	}
	return (\@pairs, [grep { !$used{$_} } @$old], [grep { !$used{$_} } @$new]);
}

our @SECTIONS = (
	[regressions => 'REGRESSION', 'Regressions (ok -> not ok)'],
	[known => 'KNOWN', 'Known failures (expectations)'],
	[fixes => 'FIXED', 'Fixes (not ok -> ok)'],
	[new_skips => 'NEW SKIP', 'New SKIPs'],
	[vanished_skips => 'SKIP GONE', 'Vanished SKIPs'],
	[new_cases => 'NEW CASE', 'New cases'],
	[missing_cases => 'MISSING', 'Missing cases'],
	[still_failing => 'STILL BAD', 'Still failing'],
);

# The comparison document (harness/report.schema.md, nsconform-compare);
# $json_result turns a result into its JSON form.
sub compare {
	my ($old, $new, $title, $json_result) = @_;
	my ($pairs, $oonly, $nonly) = pair_columns($old, $new);
	fatal("nothing to compare: no kernel and pass in common between "
	      . join(', ', map { "$_->{kernel}/$_->{pass}" } @$old) . " and "
	      . join(', ', map { "$_->{kernel}/$_->{pass}" } @$new)) unless @$pairs;
	my %cat = map { $_->[0] => [] } @SECTIONS;
	for my $p (@$pairs) {
		my ($oc, $nc) = @$p;
		my $label = $oc->{kernel} eq $nc->{kernel} ? "$nc->{kernel}/$nc->{pass}"
			    : "$oc->{kernel} -> $nc->{kernel}/$nc->{pass}";
		for my $id (case_ids([$oc, $nc])) {
			my ($o, $n) = (cell($oc, $id), cell($nc, $id));
			my $e = {case => $id, columns => $label, old => $json_result->($o),
				 new => $json_result->($n), old_column => column_id($oc),
				 new_column => column_id($nc)};
			if (!$o) { push @{$cat{new_cases}}, $e; next; }
			# A guest-only binary the host run left out on purpose is not missing.
			next if !$n && ($nc->{guest_only} // {})->{(split m{/}, $id)[0]};
			if (!$n) { push @{$cat{missing_cases}}, $e; next; }
			my ($os, $ns) = ($o->{status}, $n->{status});
			if (is_ok($o) && $BAD{$ns}) {
				push @{$cat{$n->{known} ? 'known' : 'regressions'}}, $e;
			} elsif ($BAD{$os} && is_ok($n)) {
				push @{$cat{fixes}}, $e;
			} elsif ($BAD{$os} && $BAD{$ns} && !$n->{known}) {
				push @{$cat{still_failing}}, $e;
			}
			push @{$cat{new_skips}}, $e if $ns eq 'skip' && $os ne 'skip';
			push @{$cat{vanished_skips}}, $e if $os eq 'skip' && $ns ne 'skip';
		}
	}
	# A kernel and pass of the old run that the new one lacks (it vanished,
	# or could not be fetched or booted) is a regression.
	for my $c (@$oonly) {
		push @{$cat{regressions}},
		    {case => '(all cases)', columns => "$c->{kernel}/$c->{pass}",
		     old_column => column_id($c), new_column => undef, old => undef, new => undef,
		     reason => 'not run in the new run'};
	}
	return {schema => 'nsconform-compare', title => $title,
		errors => [map { {column => column_id($_), kernel => $_->{kernel},
				  reason => $_->{error_line}} } error_columns($new)],
		pairs => [map { {old => column_id($_->[0]), new => column_id($_->[1])} } @$pairs],
		only_old => [map { column_id($_) } @$oonly],
		only_new => [map { column_id($_) } @$nonly],
		%cat};
}

1;
