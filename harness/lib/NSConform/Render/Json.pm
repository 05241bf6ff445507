# NSConform::Render::Json - the matrix and the comparison as JSON, as
# harness/report.schema.md describes them.
package NSConform::Render::Json;
use strict;
use warnings;
use JSON::PP;
use POSIX qw(strftime);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Features;

our $SCHEMA_VERSION = 1;

sub result {
	my ($r) = @_;
	return undef unless $r;
	my %j = (status => $r->{status}, shown => shown($r), reason => $r->{reason},
		 number => $r->{number} + 0, diagnostics => [grep { /\S/ } @{$r->{diag}}]);
	$j{klog} = $r->{klog} if $r->{klog};
	$j{known} = {status => $r->{known}{status}, reason => $r->{known}{reason},
		     reference => $r->{known}{reference}, where => $r->{known}{where}}
	    if $r->{known};
	return \%j;
}

sub column {
	my ($c, $ids) = @_;
	my $s = summarise($c, $ids);
	return {id => column_id($c), label => $c->{label},
		run => $c->{run}, kernel => $c->{kernel}, pass => $c->{pass},
		meta => $c->{meta}, crashed => $c->{crashed}, seconds => $c->{seconds},
		status => column_status($c, $ids), error => $c->{error},
		summary => {map { $_ => $s->{$_} + 0 } @STATUSES, 'failed', 'cases'}};
}

sub document {
	my ($doc) = @_;
	$doc->{schema} //= 'nsconform-report';
	$doc->{version} = $SCHEMA_VERSION;
	$doc->{generated} = strftime('%Y-%m-%dT%H:%M:%SZ', gmtime);
	$doc->{warnings} = [warnings_list()];
	out(JSON::PP->new->canonical->pretty->encode($doc));
}

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	my @cases;
	for my $id (@$ids) {
		my ($bin, $test) = split m{/}, $id, 2;
		push @cases, {id => $id, binary => $bin, test => $test,
			      results => {map { (column_id($_) => result(cell($_, $id))) }
					  grep { cell($_, $id) } @$cols}};
	}
	my @f = map { {%$_, seen_on => [@{$_->{seen_on}}]} } @{$findings // []};
	my $v = verdict($cols, $ids);
	document({schema => 'nsconform-report', columns => [map { column($_, $ids) } @$cols],
		  verdict => {result => $v->{result}, failures => scalar(@{$v->{failures}}),
			      known => scalar(@{$v->{known}}),
			      errors => [map { {column => column_id($_), kernel => $_->{kernel},
						reason => $_->{error}} } @{$v->{errors}}]},
		  cases => \@cases, findings => \@f, features => feature_table($cols, $ids)});
}

sub compare { document($_[0]); }

1;
