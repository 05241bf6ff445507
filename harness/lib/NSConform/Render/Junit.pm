# NSConform::Render::Junit - the matrix as JUnit XML (one testsuite per
# kernel and pass), valid against harness/report-junit.xsd, read by GitLab
# and Jenkins: class names carry the kernel series (nsconform.linux-6_12.root.
# CASE), not the full release, so that a test's history survives a Debian
# kernel bump (the release is the suite's kernel property); skip reasons,
# failure text and a crash's kernel-log tail are element bodies, which both
# show; time is the case binary's recorded time shared among its tests.
package NSConform::Render::Junit;
use strict;
use warnings;
use POSIX qw(strftime);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Render::Html;
use NSConform::Render::Text;
use NSConform::Features;

sub x {
	my $s = NSConform::Render::Html::h(shift);
	$s =~ s/'/&apos;/g;
	return $s;
}

sub junit_time {
	my ($d) = @_;
	return $d && $d =~ /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)/ ? $1
	     : strftime('%Y-%m-%dT%H:%M:%S', gmtime);
}

# One testcase element and the counter it adds to.  $c: its column.
sub testcase {
	my ($cls, $id, $r, $c, $secs) = @_;
	my ($bin, $test) = split m{/}, $id, 2;
	my $s = "    <testcase classname=\"" . x("$cls.$bin") . "\" name=\"" . x($test)
	      . "\" time=\"" . sprintf('%.3f', $secs // 0) . "\"";
	my $st = $r->{status};
	my $diag = join("\n", grep { /\S/ } @{$r->{diag}}, $r->{raw});
	# The kernel's log tail: with the test that ran when it crashed, or the
	# first of the column's tests the crash left unrun (the suite's
	# system-err has it too).
	if ($c && $st eq 'crash' && defined $c->{crashed} && defined $c->{kernel_log}
	    && (!$r->{synthetic} || !$c->{junit_klog}++)) {
		$diag .= "\n\nkernel log (end):\n$c->{kernel_log}";
	}
	my ($inner, $count) = ('', '');
	if ($r->{known}) {
		$count = 'skipped';
		$inner = "      <skipped message=\"" . x(reason_of($r)) . "\">" . x(reason_of($r))
		    . ($BAD{$st} ? "\n" . x($diag) : '') . "</skipped>\n";
	} elsif ($st eq 'skip') {
		$count = 'skipped';
		$inner = "      <skipped message=\"" . x($r->{reason}) . "\">" . x($r->{reason})
		    . "</skipped>\n";
	} elsif ($st eq 'fail') {
		$count = 'failures';
		$inner = "      <failure message=\"" . x($r->{reason} || 'not ok')
		    . "\" type=\"fail\">" . x(join("\n", grep { length } $r->{reason}, $diag))
		    . "</failure>\n";
	} elsif ($BAD{$st}) {
		$count = 'errors';
		$inner = "      <error message=\"" . x($r->{reason} || $st)
		    . "\" type=\"$st\">" . x(join("\n", grep { length } $r->{reason}, $diag))
		    . "</error>\n";
	}
	if ($inner eq '' && $diag =~ /\S/ && $r->{diag} && @{$r->{diag}}) {
		$inner = "      <system-out>" . x($diag) . "</system-out>\n";
	}
	return ($s . ($inner eq '' ? "/>\n" : ">\n$inner    </testcase>\n"), $count);
}

# The kernel series of a release, as a class-name part: linux-6_12.
sub series {
	my ($k) = @_;
	(my $s = 'linux-' . short_kernel($k)) =~ s/[^\w-]/_/g;
	return $s;
}

sub properties {
	my ($c, $findings) = @_;
	my $props = '';
	my $prop = sub { $props .= "      <property name=\"" . x($_[0]) . "\" value=\"" . x($_[1])
			 . "\"/>\n"; };
	# meta's status= says whether any test was not ok, known or not; the
	# suite's status is the report's: error, crashed, failed (unexpected) or
	# passed, so that it agrees with failures= and errors= (meta's is
	# kept as meta_status).
	$prop->($_ eq 'status' ? 'meta_status' : $_, $c->{meta}{$_}) for sort keys %{$c->{meta}};
	$prop->('status', $c->{status}) if $c->{status};
	$prop->('kernel_release', $c->{kernel});
	$prop->('kernel_series', short_kernel($c->{kernel}));
	$prop->("feature: $_->[0]", $_->[1]) for @{$c->{features} // []};
	$prop->('crashed', $c->{crashed}) if defined $c->{crashed};
	$prop->('known_deviation', "$_->{case} $_->{kernels} $_->{pass} fixed:"
		. ($_->{fixed} || '-') . " $_->{reference}: " . ($_->{claim} || $_->{reason}))
	    for @{$findings // []};
	return $props;
}

sub matrix {
	my ($cols, $ids, $title, $findings, $cmp) = @_;
	my @suites;
	my $ft = feature_table($cols, $ids);
	for my $c (@$cols) {
		$c->{features} = [map { [$_->{feature}, $_->{on}{"$c->{run}/$c->{kernel}"}] }
				  @{$ft->{features}}];
	}
	my %tot = (tests => 0, failures => 0, errors => 0, skipped => 0);
	for my $i (0 .. $#$cols) {
		my $c = $cols->[$i];
		my %n = (tests => 0, failures => 0, errors => 0, skipped => 0);
		my $body = '';
		(my $cls = "nsconform." . series($c->{kernel}) . ".$c->{pass}") =~ s/[^\w.-]/_/g;
		my %per;
		$per{(split m{/}, $_, 2)[0]}++ for grep { cell($c, $_) } @$ids;
		$c->{status} = column_status($c, $ids);
		if (defined $c->{crashed} && !grep { cell($c, $_) } @$ids) {
			# A kernel that crashed before any result: one error, not an
			# empty green suite.
			$n{tests}++;
			$n{errors}++;
			$body .= "    <testcase classname=\"" . x("$cls.kernel") . "\" name=\""
			    . x("$c->{kernel} crashed") . "\" time=\"0.000\">\n"
			    . "      <error message=\"" . x($c->{crashed_short})
			    . "\" type=\"crash\">"
			    . x("kernel crashed: $c->{crashed}\n" . ($c->{kernel_log} // ''))
			    . "</error>\n    </testcase>\n";
		}
		if (defined $c->{error}) {	# no results: one error saying why
			$n{tests}++;
			$n{errors}++;
			$body .= "    <testcase classname=\"" . x("$cls.kernel") . "\" name=\""
			    . x("$c->{kernel} could not be run") . "\" time=\"0.000\">\n"
			    . "      <error message=\"" . x($c->{error}) . "\" type=\"error\">"
			    . x("ERROR $c->{kernel}: $c->{error_line}") . "</error>\n"
			    . "    </testcase>\n";
		}
		for my $id (defined $c->{error} ? () : @$ids) {
			my $r = cell($c, $id) or next;
			$n{tests}++;
			my $bin = (split m{/}, $id, 2)[0];
			my $ms = $c->{case_ms} && $c->{case_ms}{$bin};
			my ($xml, $count) = testcase($cls, $id, $r, $c,
						     $ms ? $ms / 1000 / $per{$bin} : 0);
			$body .= $xml;
			$n{$count}++ if $count;
		}
		$tot{$_} += $n{$_} for keys %n;
		my $props = properties($c, $findings);
		my $err = defined $c->{crashed}
			? "kernel crashed: $c->{crashed}\n" . ($c->{kernel_log} // '')
			: defined $c->{error} ? "ERROR $c->{kernel}: $c->{error_line}\n" : '';
		push @suites, sprintf("  <testsuite name=\"%s\" id=\"%d\" package=\"%s\""
				      . " hostname=\"%s\" timestamp=\"%s\" tests=\"%d\""
				      . " failures=\"%d\" errors=\"%d\" skipped=\"%d\""
				      . " time=\"%.3f\">\n"
				      . "    <properties>\n%s    </properties>\n%s"
				      . "    <system-out/>\n    <system-err>%s</system-err>\n"
				      . "  </testsuite>\n",
				      x("linux-" . short_kernel($c->{kernel}) . " $c->{pass}"), $i,
				      x($cls),
				      x($c->{meta}{where} || 'host'), junit_time($c->{meta}{date}),
				      @n{qw(tests failures errors skipped)}, $c->{seconds} // 0,
				      $props =~ s/^/  /gmr, $body, x($err));
	}
	if ($cmp) {	# --baseline: the comparison as one more suite
		my ($body, %n) = ('', tests => 0, failures => 0, errors => 0, skipped => 0);
		# New and missing cases are no result of either run: left out.
		for my $sec (grep { $_->[0] !~ /^(new|missing)_cases$/ } @SECTIONS) {
			for my $e (@{$cmp->{$sec->[0]}}) {
				(my $cls = "nsconform.baseline.$sec->[0]") =~ s/[^\w.-]/_/g;
				my $what = NSConform::Render::Text::describe($e, $sec->[0]);
				$n{tests}++;
				$body .= "    <testcase classname=\"" . x($cls) . "\" name=\""
				    . x("$e->{columns} $e->{case}") . "\" time=\"0\"";
				if ($sec->[0] =~ /^(regressions|still_failing)$/) {
					$n{failures}++;
					$body .= ">\n      <failure message=\""
					    . x("$sec->[1]: $what") . "\" type=\"$sec->[0]\">"
					    . x($what)
					    . "</failure>\n    </testcase>\n";
				} elsif ($sec->[0] =~ /^(known|new_skips)$/) {
					$n{skipped}++;
					$body .= ">\n      <skipped message=\""
					    . x("$sec->[1]: $what") . "\">" . x($what)
					    . "</skipped>\n    </testcase>\n";
				} else {
					$body .= ">\n      <system-out>" . x("$sec->[1]: $what")
					    . "</system-out>\n    </testcase>\n";
				}
			}
		}
		$tot{$_} += $n{$_} for keys %n;
		push @suites, sprintf("  <testsuite name=\"%s\" id=\"%d\""
				      . " package=\"nsconform.baseline\" hostname=\"host\""
				      . " timestamp=\"%s\" tests=\"%d\" failures=\"%d\""
				      . " errors=\"%d\" skipped=\"%d\" time=\"0\">\n%s"
				      . "    <system-out/>\n    <system-err/>\n  </testsuite>\n",
				      x("baseline comparison: $cmp->{title}"), scalar(@$cols),
				      junit_time(undef), @n{qw(tests failures errors skipped)},
				      $body);
	}
	out("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	out(sprintf("<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\""
		    . " skipped=\"%d\">\n", x("nsconform $title"),
		    @tot{qw(tests failures errors skipped)}));
	out($_) for @suites;
	out("</testsuites>\n");
}

1;
