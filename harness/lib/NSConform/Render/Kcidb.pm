# NSConform::Render::Kcidb - the matrix as a KCIDB I/O v5.3 file (KernelCI's
# common results database), valid against
# ../shared/vendor/kcidb/kcidb.v5.3.schema.json.
#   checkouts  one per kernel: the Debian package it came from
#   builds     one per kernel: that package's image for the machine
#   tests      one per kernel, pass and case; path nsconform.<pass>.<case>.<test>
#              (root, user, compat, compat-user: distinct tests of one build)
#   issues     one per entry of the expectations file (a known deviation)
#   incidents  one per result an expectation covers (the issue seen there)
# KCIDB needs an origin agreed with KernelCI to submit for real: --origin NAME
# ($ORIGIN, default "nsconform") names it and starts every id; the test paths
# keep "nsconform".  Log URLs are --log-url-base followed by RUN/KERNEL/FILE,
# or file:// URLs of the results folder without it.
package NSConform::Render::Kcidb;
use strict;
use warnings;
use JSON::PP;
use File::Spec;
use File::Basename qw(basename);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Features;

our $ORIGIN = 'nsconform';
my $EXCERPT = 4000;	# characters of a log excerpt: the tail, where the cause is

# KCIDB's status of a result.
my %STATUS = (pass => 'PASS', xfail => 'PASS', skip => 'SKIP', fail => 'FAIL',
	      health => 'FAIL', timeout => 'ERROR', crash => 'ERROR', notrun => 'MISS',
	      error => 'MISS');

# One dot-separated path component: letters, digits, _ and - only.
sub part { (my $s = shift // '') =~ s/[^A-Za-z0-9_-]+/_/g; return length $s ? $s : '_'; }

sub id { return "$ORIGIN:" . join(':', @_); }

sub rfc3339 {
	my ($d) = @_;
	return $d && $d =~ /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)Z?$/ ? "$1Z" : undef;
}

# Where the results folder will be served (harness/report --log-url-base): log
# and config URLs are this base followed by RUN/KERNEL/FILE; without it,
# file:// URLs of this machine.
our $URL_BASE;

sub file_url {
	my ($c, $rel) = @_;
	my $f = "$c->{dir}/$rel";
	return undef unless -e $f;
	my $p = defined $URL_BASE ? "$c->{run}/" . basename($c->{dir}) . "/$rel"
	      : File::Spec->rel2abs($f);
	$p =~ s{([^A-Za-z0-9/._~-])}{sprintf '%%%02X', ord $1}ge;
	return defined $URL_BASE ? ($URL_BASE =~ s{/*$}{/}r) . $p : "file://$p";
}

sub excerpt {
	my ($s) = @_;
	$s =~ s/\0//g;
	return length $s > $EXCERPT ? substr($s, -$EXCERPT) : $s;
}

sub issue_key { my ($e) = @_; return "$e->{case} $e->{range}"; }

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	my (@checkouts, @builds, @tests, %issues, @incidents, %seen);
	my $features = feature_table($cols, $ids);
	for my $c (@$cols) {
		my $m = $c->{meta};
		my $k = part($c->{kernel});
		my $run = part($c->{run});
		my $checkout = id($run, $k);
		my $build = id($run, $k, 'build');
		if (!$seen{$checkout}++) {
			my %co = (id => $checkout, origin => $ORIGIN, valid => JSON::PP::true,
				  tree_name => ($m->{kernel_source} // '') eq 'debian' ? 'debian'
					       : 'local',
				  comment => "Linux $c->{kernel}" . ($m->{kernel_version}
						? " (package $m->{kernel_version})" : ''),
				  misc => {map { $_ => $m->{$_} } grep { defined $m->{$_} }
					   qw(kernel kernel_version kernel_packages
					      kernel_source)});
			$co{start_time} = rfc3339($m->{date}) if rfc3339($m->{date});
			push @checkouts, \%co;
			# The kernel's name of the architecture (arm64 for aarch64).
			my $arch = ($m->{machine} // 'x86_64') =~ s/^aarch64$/arm64/r;
			my %b = (id => $build, origin => $ORIGIN, checkout_id => $checkout,
				 architecture => $arch =~ s/[^a-z0-9_]//gr,
				 status => 'PASS', comment => $c->{kernel},
				 misc => {release => $c->{kernel}, where => $m->{where} // 'host',
					  features => {map { $_->{feature} =>
						$_->{on}{"$c->{run}/$c->{kernel}"} }
						@{$features->{features}}}});
			$b{config_name} = 'debian-' . $arch
			    if ($m->{kernel_source} // '') eq 'debian';
			my $cfg = file_url($c, 'config-ns');
			$b{config_url} = $cfg if $cfg;
			my @logs = grep { $_->{url} }
				   map { {name => $_, url => file_url($c, $_)} }
				   qw(klog dmesg);
			$b{output_files} = \@logs if @logs;
			$b{start_time} = rfc3339($m->{date}) if rfc3339($m->{date});
			$b{log_excerpt} = excerpt("kernel crashed: $c->{crashed}\n"
						  . ($c->{kernel_log} // ''))
			    if defined $c->{crashed};
			# A kernel that could not be fetched, built into a guest or
			# booted: the build is the ERROR, its one-line reason the excerpt.
			@b{qw(status log_excerpt)} = ('ERROR', excerpt($c->{error}))
			    if defined $c->{error};
			push @builds, \%b;
		}
		my %per;
		$per{(split m{/}, $_, 2)[0]}++ for grep { cell($c, $_) } @$ids;
		for my $cid (defined $c->{error} ? () : @$ids) {
			my $r = cell($c, $cid) or next;
			my ($bin, $test) = split m{/}, $cid, 2;
			my $tid = id($run, $k, $c->{pass}, $cid);
			my %t = (id => $tid, origin => $ORIGIN, build_id => $build,
				 # The pass is part of the test: root and user are two
				 # tests of one build, not one test seen twice.
				 path => join('.', 'nsconform', part($c->{pass}), part($bin),
					      map { part($_) } split /\./, $test),
				 status => $STATUS{$r->{status}} // 'ERROR',
				 environment => {comment => "$c->{pass} pass, $c->{kernel}, "
						 . ($m->{where} // 'host')},
				 misc => {pass => $c->{pass}, case => $cid, result => $r->{status},
					  reason => $r->{reason} // ''});
			my $ms = $c->{case_ms} && $c->{case_ms}{$bin};
			$t{duration} = $ms / 1000 / $per{$bin} if $ms;
			$t{start_time} = rfc3339($m->{date}) if rfc3339($m->{date});
			my @d = grep { /\S/ } @{$r->{diag}};
			my $log = join("\n", grep { length } $r->{reason}, @d);
			$log .= "\nkernel log (end):\n$c->{kernel_log}"
			    if $r->{status} eq 'crash' && defined $c->{crashed}
			       && defined $c->{kernel_log};
			$t{log_excerpt} = excerpt($log) if $log =~ /\S/ && $r->{status} ne 'pass';
			my $tap = file_url($c, "$c->{pass}/$bin.tap");
			$t{log_url} = $tap if $tap;
			push @tests, \%t;
			if (my $e = $r->{known}) {
				my $iid = id('issue', part(issue_key($e)));
				$issues{$iid} //= $e;
				push @incidents, {id => "$tid:incident", origin => $ORIGIN,
						  issue_id => $iid, issue_version => 1,
						  test_id => $tid, present => JSON::PP::true,
						  comment => "$cid on $c->{kernel}"
							     . " ($c->{pass} pass): $e->{reason}"};
			}
		}
	}
	# Every expectation is an issue, seen in this run or not.
	my @issues;
	my %done;
	for my $f (@{$findings // []}) {
		my $key = "$f->{case} $f->{kernels}";
		push @issues, issue($key, $f) unless $done{$key}++;
	}
	for my $iid (sort keys %issues) {
		my $key = issue_key($issues{$iid});
		push @issues, issue($key, {%{$issues{$iid}}, kernels => $issues{$iid}{range}})
		    unless $done{$key}++;
	}
	my $doc = {version => {major => 5, minor => 3}, checkouts => \@checkouts,
		   builds => \@builds, tests => \@tests, issues => \@issues,
		   incidents => \@incidents};
	out(JSON::PP->new->canonical->pretty->encode($doc));
}

sub issue {
	my ($key, $e) = @_;
	my %i = (id => id('issue', part($key)), origin => $ORIGIN, version => 1,
		 culprit => {code => JSON::PP::true},
		 comment => "$e->{case} on $e->{kernels}: $e->{reason}",
		 misc => {case => $e->{case}, kernels => $e->{kernels}, pass => $e->{pass},
			  status => $e->{status}, reference => $e->{reference},
			  map { defined $e->{$_} && length $e->{$_} ? ($_ => $e->{$_}) : () }
			  qw(claim fixed state)});
	my $url = reference_url($e->{reference} // '');
	$i{report_url} = $url if $url;
	return \%i;
}

1;
