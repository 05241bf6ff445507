# NSConform::Render::Junit - the matrix as JUnit XML (one testsuite per
# kernel and pass), valid against harness/report-junit.xsd.
package NSConform::Render::Junit;
use strict;
use warnings;
use POSIX qw(strftime);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Render::Html;

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

# One testcase element and the counter it adds to.
sub testcase {
	my ($cls, $id, $r) = @_;
	my ($bin, $test) = split m{/}, $id, 2;
	my $s = "    <testcase classname=\"" . x("$cls.$bin") . "\" name=\"" . x($test)
	      . "\" time=\"0\"";
	my $st = $r->{status};
	my $diag = join("\n", grep { /\S/ } @{$r->{diag}}, $r->{raw});
	my ($inner, $count) = ('', '');
	if ($r->{known}) {
		$count = 'skipped';
		$inner = "      <skipped message=\"" . x(reason_of($r)) . "\"/>\n";
	} elsif ($st eq 'skip') {
		$count = 'skipped';
		$inner = "      <skipped message=\"" . x($r->{reason}) . "\"/>\n";
	} elsif ($st eq 'fail') {
		$count = 'failures';
		$inner = "      <failure message=\"" . x($r->{reason} || 'not ok')
		    . "\" type=\"fail\">" . x($diag) . "</failure>\n";
	} elsif ($BAD{$st}) {
		$count = 'errors';
		$inner = "      <error message=\"" . x($r->{reason} || $st)
		    . "\" type=\"$st\">" . x($diag) . "</error>\n";
	}
	if ($inner eq '' && $diag =~ /\S/ && $r->{diag} && @{$r->{diag}}) {
		$inner = "      <system-out>" . x($diag) . "</system-out>\n";
	}
	return ($s . ($inner eq '' ? "/>\n" : ">\n$inner    </testcase>\n"), $count);
}

sub properties {
	my ($c, $findings) = @_;
	my $props = '';
	my $prop = sub { $props .= "      <property name=\"" . x($_[0]) . "\" value=\"" . x($_[1])
			 . "\"/>\n"; };
	$prop->($_, $c->{meta}{$_}) for sort keys %{$c->{meta}};
	$prop->('crashed', $c->{crashed}) if defined $c->{crashed};
	$prop->('known_deviation', "$_->{case} $_->{kernels} $_->{pass} fixed:"
		. ($_->{fixed} || '-') . " $_->{reference}: " . ($_->{claim} || $_->{reason}))
	    for @{$findings // []};
	return $props;
}

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	my @suites;
	my %tot = (tests => 0, failures => 0, errors => 0, skipped => 0);
	for my $i (0 .. $#$cols) {
		my $c = $cols->[$i];
		my %n = (tests => 0, failures => 0, errors => 0, skipped => 0);
		my $body = '';
		(my $cls = "nsconform.$c->{kernel}.$c->{pass}") =~ s/[^\w.-]/_/g;
		for my $id (@$ids) {
			my $r = cell($c, $id) or next;
			$n{tests}++;
			my ($xml, $count) = testcase($cls, $id, $r);
			$body .= $xml;
			$n{$count}++ if $count;
		}
		$tot{$_} += $n{$_} for keys %n;
		my $props = properties($c, $findings);
		my $err = defined $c->{crashed}
			? "kernel crashed: $c->{crashed}\n" . ($c->{kernel_log} // '') : '';
		push @suites, sprintf("  <testsuite name=\"%s\" id=\"%d\" package=\"%s\""
				      . " hostname=\"%s\" timestamp=\"%s\" tests=\"%d\""
				      . " failures=\"%d\" errors=\"%d\" skipped=\"%d\""
				      . " time=\"%.3f\">\n"
				      . "    <properties>\n%s    </properties>\n%s"
				      . "    <system-out/>\n    <system-err>%s</system-err>\n"
				      . "  </testsuite>\n",
				      x("$c->{kernel} $c->{pass}"), $i, x($cls),
				      x($c->{meta}{where} || 'host'), junit_time($c->{meta}{date}),
				      @n{qw(tests failures errors skipped)}, $c->{seconds} // 0,
				      $props =~ s/^/  /gmr, $body, x($err));
	}
	out("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	out(sprintf("<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\""
		    . " skipped=\"%d\">\n", x("nsconform $title"),
		    @tot{qw(tests failures errors skipped)}));
	out($_) for @suites;
	out("</testsuites>\n");
}

1;
