# NSConform::Features - the feature-by-kernel table: which kernel features
# (listns(), NS_GET_ID, time namespaces, ...) each kernel of a run has, read
# from the results.  A case that probes a feature and finds it missing
# SKIPs with one fixed form (fixtures/nsconform.h NS_WHY_FEATURE):
#     <feature> not supported by this kernel (added in X.Y)
# or, where the kernel's release and config say it must be there, fails with
#     feature missing: <feature> (added in X.Y[, linux:COMMIT])
# Only those forms count; a SKIP for any other reason (needs real root, no
# veth driver, ...) tells nothing about the feature.  The features the suite
# knows come from the one table, fixtures/core_features.c (suite_features).
package NSConform::Features;
use strict;
use warnings;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use Exporter qw(import);
our @EXPORT = qw(feature_table feature_of suite_features $FEATURE_RE);

# The features the suite probes, [name, release], as its sources spell them
# (harness/report sets it from suite_features): a feature of this list that
# no result of the run SKIPped for is listed as such, without an answer per
# kernel (a test may SKIP for another reason before it probes).
our @SUITE;

our $FEATURE_RE = qr/^(.+?) not supported by this kernel \(added in (\d+(?:\.\d+)+)\)\s*$/;
our $MISSING_RE = qr/feature missing: (.+?) \(added in (\d+(?:\.\d+)+)[,)]/;

# (feature, release that added it) of a result that skipped for a missing
# feature or failed for one ("feature missing", a failure known or not),
# else ().
sub feature_of {
	my ($r) = @_;
	return () unless $r;
	return ($r->{reason} // '') =~ $FEATURE_RE ? ($1, $2) : () if $r->{status} eq 'skip';
	return () unless $r->{status} =~ /^(fail|known)$/;
	for my $t ($r->{reason} // '', @{$r->{diag} // []}) {
		return ($1, $2) if $t =~ $MISSING_RE;
	}
	return ();
}

# The kernels of the columns, in column order: [key, label, [columns]].
sub kernels_of {
	my ($cols) = @_;
	my (@k, %at);
	for my $c (@$cols) {
		my $key = "$c->{run}/$c->{kernel}";
		if (!defined $at{$key}) {
			(my $label = $c->{label}) =~ s{/[^/]*$}{};
			push @k, [$key, $label, []];
			$at{$key} = $#k;
		}
		push @{$k[$at{$key}][2]}, $c;
	}
	return @k;
}

# {kernels => [{key, label, kernel}], features => [{feature, added, tests,
# on => {key => 'yes'|'no'|'mixed'|'?'}, why => {key => text}}], not_skipped
# => [{feature, added}] (the suite's features no result SKIPped for)}, features
# in the order of the release that added them.  A kernel has a feature
# ('yes') when a test that SKIPs for it elsewhere ran there (any result but
# a skip, a not-run or a crash of the kernel); 'no' when a test SKIPped
# for it there; 'mixed' when both (a probe that disagrees with itself);
# '?' when none of its tests ran there.
# [name, release] of every feature of the one table, fixtures/core_features.c,
# and of the namespace types (fixtures/core_types.c):
# its rows are ROW(NS_F_x, "name", "how", "release", "commit", "config",
# probe), each string on one line.  A row without a release (a feature
# only a config option gives) has no place in a table by release.
sub suite_features {
	my ($top) = @_;
	my %f;
	my $str = qr/"((?:[^"\\]|\\.)*)"/;
	if (open(my $fh, '<', "$top/fixtures/core_features.c")) {
		my $text = do { local $/; <$fh> };
		close($fh);
		while ($text =~ /\bROW\(\s*NS_F_\w+,\s*$str,\s*$str,\s*$str,/g) {
			my ($name, $release) = ($1, $3);
			$f{$name} //= $release if $release =~ /^\d+(?:\.\d+)+$/;
		}
	}
	# The namespace types (fixtures/core_types.c ns_types[]): "<type> namespaces".
	if (open(my $fh, '<', "$top/fixtures/core_types.c")) {
		my $text = do { local $/; <$fh> };
		close($fh);
		my $row = qr/\{\s*"(\w+)",\s*CLONE_NEW\w+,[^}]*?,\s*(?:true|false),\s*"([\d.]+)"/;
		$f{"$1 namespaces"} //= $2 while $text =~ /$row/g;
	}
	return map { [$_, $f{$_}] } sort { lc $a cmp lc $b } keys %f;
}

sub release_key { return join('.', map { sprintf '%05d', $_ } split /\./, $_[0]); }

sub feature_table {
	my ($cols, $ids) = @_;
	my @kernels = kernels_of($cols);
	my (%f, %tests);
	for my $id (@$ids) {
		for my $c (@$cols) {
			my ($name, $added) = feature_of(cell($c, $id)) or next;
			$f{$name} //= {feature => $name, added => $added};
			$tests{$name}{$id} = 1;
		}
	}
	for my $name (keys %f) {
		my $e = $f{$name};
		$e->{tests} = [grep { $tests{$name}{$_} } @$ids];
		for my $k (@kernels) {
			my ($key, $label, $kcols) = @$k;
			my ($yes, $no, @ran) = (0, 0);
			for my $id (@{$e->{tests}}) {
				for my $c (@$kcols) {
					my $r = cell($c, $id) or next;
					my ($fn) = feature_of($r);
					if (defined $fn && $fn eq $name) {
						$no++;
					} elsif ($r->{status} !~ /^(skip|notrun|crash|error)$/) {
						$yes++;
						push @ran, "$id ($c->{pass}: $r->{status})";
					}
				}
			}
			$e->{on}{$key} = $yes && $no ? 'mixed' : $no ? 'no' : $yes ? 'yes' : '?';
			$e->{why}{$key} = $no ? "$no result(s) SKIP: $name not supported"
					: $yes ? "ran: $ran[0]" . (@ran > 1 ? ' and ' . (@ran - 1)
								    . ' more' : '')
					: 'none of its tests ran here';
		}
	}
	my @features = sort { release_key($a->{added}) cmp release_key($b->{added})
			      || lc $a->{feature} cmp lc $b->{feature} } values %f;
	my @unseen = sort { release_key($a->{added}) cmp release_key($b->{added})
			    || lc $a->{feature} cmp lc $b->{feature} }
		     map { {feature => $_->[0], added => $_->[1]} } grep { !$f{$_->[0]} } @SUITE;
	return {kernels => [map { {key => $_->[0], label => $_->[1],
				   kernel => $_->[2][0]{kernel}} } @kernels],
		features => \@features, not_skipped => \@unseen};
}

1;
