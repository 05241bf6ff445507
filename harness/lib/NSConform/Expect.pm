# NSConform::Expect - fixtures/data/expectations: known failures and skips, the
# kernel ranges they cover, stale entries, and the findings they make.
package NSConform::Expect;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use Exporter qw(import);
our @EXPORT = qw(load_expectations set_expectations expect apply_expectations
		 in_range column_version findings $CLASSES %CLASS_TITLE);

my $EXPS = [];

# The classes of a finding (the optional CLASS field): a kernel regression,
# a kernel bug fixed in a release, one unfixed as of a release, and a
# documentation finding (a deliberate kernel change the page does not tell).
our $CLASSES = 'regression|fixed|unfixed|doc';
our %CLASS_TITLE = (regression => 'Kernel regressions', fixed => 'Kernel bugs fixed',
		    unfixed => 'Kernel bugs unfixed', doc => 'Documentation findings');

sub glob_re {
	my ($g) = @_;
	my $re = join '', map { $_ eq '*' ? '.*' : $_ eq '?' ? '.' : quotemeta($_) }
		 split /([*?])/, $g;
	return qr/^$re$/;
}

# The upstream version of a column's kernel (RESULTS.md: kernel= and
# kernel_version= of meta).
sub column_version {
	my ($col) = @_;
	return upstream_version($col->{kernel}, $col->{meta}{kernel_version});
}

# -1, 0 or 1: the kernel against a bound, comparing only as many
# components as the bound names (6.1 covers every 6.1.x); undef when the
# bound names a patch level the kernel's release does not tell.
sub cmp_bound {
	my ($k, $bound) = @_;
	my @b = split /\./, $bound;
	for my $i (0 .. $#b) {
		return undef unless defined $k->[$i];
		my $c = $k->[$i] <=> $b[$i];
		return $c if $c;
	}
	return 0;
}

my %unknown_warned;
sub in_range {
	my ($col, $e) = @_;
	return 1 if $e->{range} eq '*';
	my @k = column_version($col);
	return 0 unless @k;
	# KERNELS may list several ranges (6.12..6.12.90,7.0..7.0.10): any one.
	for my $r (@{$e->{ranges} // [[$e->{lo}, $e->{hi}]]}) {
		my ($l, $h) = @$r;
		my $lo = length $l ? cmp_bound(\@k, $l) : 1;
		my $hi = length $h ? cmp_bound(\@k, $h) : -1;
		if (!defined $lo || !defined $hi) {
			warning("$e->{where}: cannot tell whether $col->{kernel} is in $e->{range}:"
				. " its patch level is unknown (no kernel_version= in its meta)")
			    unless $unknown_warned{"$e->{where} $col->{kernel}"}++;
			next;
		}
		return 1 if $lo >= 0 && $hi <= 0;
	}
	return 0;
}

sub load_expectations {
	my ($file, $required) = @_;
	my $s = slurp($file);
	if (!defined $s) {
		fatal("$file: cannot read: $!") if $required;
		return [];
	}
	my @e;
	my $n = 0;
	my $v = qr/\d+(?:\.\d+){0,2}/;
	for my $line (split /\n/, $s) {
		$n++;
		next if $line =~ /^\s*(#|$)/;
		# STATUS [CLASS] KERNELS PASS CASE REFERENCE REASON; STATUS doc has
		# the class doc (a documentation finding: it never covers a result).
		my ($st, $class, $rest) = split ' ', $line, 3;
		$class //= '';
		if ($class !~ /^($CLASSES)$/) {
			$rest = defined $rest ? "$class $rest" : $class;
			$class = '';
		}
		my ($range, $pass, $case, $ref, $reason) = split ' ', $rest // '', 5;
		fatal("$file:$n: want STATUS [CLASS] KERNELS PASS CASE REFERENCE REASON")
		    unless defined $reason && length $reason;
		fatal("$file:$n: unknown status '$st' (fail, health, timeout, crash, skip or doc)")
		    unless $st =~ /^(fail|health|timeout|crash|skip|doc)$/;
		fatal("$file:$n: status doc takes no other class than doc")
		    if $st eq 'doc' && length $class && $class ne 'doc';
		fatal("$file:$n: class doc goes with status doc")
		    if $class eq 'doc' && $st ne 'doc';
		fatal("$file:$n: unknown pass '$pass' (root, user, compat, compat-user or *)")
		    unless $pass =~ /^(root|user|compat|compat-user|\*)$/;
		my @ranges;
		if ($range eq '*') {
			@ranges = (['', '']);
		} else {
			for my $r (split /,/, $range, -1) {
				if ($r =~ /^($v)?\.\.($v)?$/ && (defined $1 || defined $2)) {
					push @ranges, [$1 // '', $2 // ''];
				} elsif ($r =~ /^$v$/) {
					push @ranges, [$r, $r];
				} else {
					fatal("$file:$n: bad kernel range '$range' (e.g. 6.1,"
					      . " 5.10..6.0, 6.12.., ..6.1, 7.2..7.2.10,"
					      . " 6.12..6.12.90,7.0, *)");
				}
			}
		}
		my ($lo, $hi) = ($ranges[0][0], $ranges[-1][1]);
		$class ||= $st eq 'doc' ? 'doc' : $ref =~ /^unfixed:/ ? 'unfixed'
			 : $st eq 'skip' ? '' : 'fixed';
		push @e, {status => $st, range => $range, lo => $lo, hi => $hi, pass => $pass,
			  ranges => \@ranges, class => $class, line => $n,
			  case => $case, re => glob_re($case), reference => $ref,
			  reason => $reason, where => "$file:$n", hits => 0, covered => 0};
	}
	return \@e;
}

sub set_expectations { $EXPS = $_[0]; }

sub covers {
	my ($e, $col, $id) = @_;
	return 0 if $e->{status} eq 'doc';	# a documentation finding is no failure
	return ($e->{pass} eq '*' || $e->{pass} eq $col->{pass})
	    && $id =~ $e->{re} && in_range($col, $e);
}

sub status_matches {
	my ($e, $st) = @_;
	return $e->{status} eq 'skip' ? $st eq 'skip' :
	       $e->{status} eq 'fail' ? $BAD{$st} : $e->{status} eq $st;
}

# Mark R known when an expectation covers it; warn when a result that an
# expectation covers passes.
sub expect {
	my ($col, $r, $quiet) = @_;
	my @m = grep { covers($_, $col, $r->{id}) } @$EXPS;
	return unless @m;
	$_->{covered}++ for @m;
	my ($hit) = grep { status_matches($_, $r->{status}) } @m;
	if ($hit) {
		$r->{known} = $hit;
		$hit->{hits}++;
		push @{$hit->{kernels}}, $col->{kernel} unless grep { $_ eq $col->{kernel} }
								@{$hit->{kernels} // []};
	} elsif ($r->{status} eq 'pass' && !$quiet) {
		my $e = $m[0];
		my $what = $e->{status} eq 'skip' ? 'skip no longer skips' : 'failure now passes';
		warning("known $what: $r->{id} on $col->{kernel} $col->{pass}"
			. " ($e->{where}: $e->{reason} [$e->{reference}])");
	}
}

sub apply_expectations {
	my ($cols) = @_;
	for my $col (@$cols) {
		expect($col, $_, $col->{quiet}) for values %{$col->{results}};
	}
}

# ------------------------------------------------------------ findings

# The claim of a test: the first sentence of the comment block above its
# TEST in cases/BINARY.c.
my %claims;
sub claims_of {
	my ($top, $binary) = @_;
	return $claims{$binary} if $claims{$binary};
	my %c;
	my $src = slurp("$top/cases/$binary.c") // '';
	my @lines = split /\n/, $src;
	for my $i (0 .. $#lines) {
		# TEST(), TEST_F() ..., or a case's own wrapper of TEST() whose
		# first argument is the test's name (TUNNEL_TEST(name, ...)).
		my ($kind, $a, $b);
		if ($lines[$i] =~ /^TEST(_F|_SIGNAL|_F_TIMEOUT)?\(\s*(\w+)(?:\s*,\s*(\w+))?/) {
			($kind, $a, $b) = ($1 // '', $2, $3);
		} elsif ($lines[$i] =~ /^[A-Z][A-Z0-9_]*_TEST\(\s*(\w+)/) {
			($kind, $a) = ('', $1);
		} else {
			next;
		}
		my $name = $kind =~ /_F/ ? "$a.$b" : $a;
		my $j = $i - 1;
		my @block;
		while ($j >= 0 && $lines[$j] =~ m{^\s*(/\*|\*)}) {
			unshift @block, $lines[$j];
			last if $lines[$j] =~ m{^\s*/\*};
			$j--;
		}
		my @text = map { s{^\s*/?\*+/?\s?}{}r =~ s{\s*\*/\s*$}{}r } @block;
		shift @text while @text && $text[0] !~ /\S/;
		my ($para) = split /\n\s*\n/, join("\n", @text);	# the first paragraph
		my $text = $para // '';
		$text =~ s/\s+/ /g;
		$text =~ s/^\s+//;
		my ($first) = $text =~ /^(.*?\.)(?=\s+[A-Z]|\s*$)/;
		$c{$name} = $first // $text;
	}
	return $claims{$binary} = \%c;
}

sub claim {
	my ($top, $case) = @_;
	my ($binary, $test) = split m{/}, $case, 2;
	return '' if $binary =~ /[*?]/;
	my $c = claims_of($top, $binary);
	return '' unless defined $test && $test !~ /[*?]/;
	$test =~ s/^(\w+)\.\w+\.(\w+)$/$1.$2/ unless $c->{$test};	# fixture.variant.test
	return $c->{$test} // '';
}

# The release that fixed an entry: from its reference (stable:7.2.11) or
# the release after its range; unfixed:X says it was not fixed as of X.
sub fixed_in {
	my ($e) = @_;
	return $1 if $e->{reference} =~ /^stable:(\S+)$/;
	return "unfixed as of $1" if $e->{reference} =~ /^unfixed:(\S+)$/;
	return "after $e->{hi}" if length $e->{hi};
	return '';
}

# The known deviations: one per expectations entry, with the kernels of
# this run it covered; stale when it matched nothing it covers (the case
# does not exist, or every covered result passed).
sub findings {
	my ($top, $ids) = @_;
	my @f;
	for my $e (@$EXPS) {
		my @matched = grep { $_ =~ $e->{re} } @$ids;
		my $exists = @matched;
		# A case binary this run did not run at all leaves its entries untested.
		my ($bin) = split m{/}, $e->{case};
		my $ran = $bin =~ /[*?]/ || grep { index($_, "$bin/") == 0 } @$ids;
		# A pattern that names one case of the run has that case's claim.
		my $case = @matched == 1 ? $matched[0] : $e->{case};
		my $state = $e->{hits} ? 'seen' : !$exists && $ran ? 'stale'
			  : $e->{covered} ? 'stale' : 'untested';
		my $why = !$exists ? 'no case of this run has that name'
			: $state eq 'stale' ? 'every result it covers passed' : '';
		push @f, {case => $e->{case}, status => $e->{status}, class => $e->{class},
			  kernels => $e->{range},
			  pass => $e->{pass}, claim => claim($top, $case),
			  fixed => fixed_in($e), reference => $e->{reference},
			  reason => $e->{reason}, where => $e->{where}, state => $state,
			  stale_why => $why, seen_on => [sort @{$e->{kernels} // []}]};
		warning("stale expectation $e->{where} ($e->{case}): $why") if $state eq 'stale';
	}
	return \@f;
}

1;
