# NSConform::Verdict - the one place a verdict is decided, from what the
# results reader (NSConform::Results) and the expectations
# (NSConform::Expect) make of a results folder.  harness/check and
# harness/matrix judge each pass through it, harness/bisect each boot,
# harness/report's exit status is its any_bad().
#
# A pass (one kernel folder, one of its passes):
#   PASS               no result is bad (harness/RESULTS.md: fail, health,
#                      timeout, crash, error, notrun) unless an expectation
#                      covers it ("known")
#   FAIL               a bad result no expectation covers; also when the
#                      TAP is all ok but a case binary exited non-zero (a
#                      runner tells it: prove's status, the guest's cases file)
#   NOT RUN            the pass folder has no TAP file
#   PASS (incomplete)  PASS, but meta's not_run= names binaries that never ran
# and, apart from the verdict, whether anything at all failed, known or
# not ("raw": meta's status=passed/failed in a guest).
#
# One test (harness/bisect): its status as the reader gives it, without
# expectations: pass, fail, skip, xfail, health, timeout, crash, notrun,
# error, or missing.  Only pass and fail decide anything; health (the
# kernel complained), timeout, crash, notrun and error say that this boot
# could not decide, not that the test failed.
#
# Command use (from the shell runners):
#   perl Verdict.pm pass KDIR PASS [--expectations FILE|--no-expectations]
#                                  [--exit-status N|--cases FILE]
#       prints "VERDICT<tab>RAW" (RAW: passed or failed); exit 0 for PASS,
#       1 otherwise, 2 when the folder cannot be read
#   perl Verdict.pm test KDIR PASS CASE/TEST
#       prints the status of the test (TEST may lack its fixture prefix)
package NSConform::Verdict;
use strict;
use warnings;
use File::Basename qw(basename dirname);
use Cwd qw(abs_path);
use lib dirname(dirname(abs_path(__FILE__)));
use NSConform::Util;
use NSConform::Results;
use NSConform::Expect;
use NSConform::Model;
use Exporter qw(import);
our @EXPORT_OK = qw(any_bad pass_verdict test_status);

# Is the verdict over COLS (case ids IDS) anything but PASS: an error column,
# a bad result no expectation covers, a kernel that crashed before any result
# (NSConform::Model::verdict, which every report format shows)?
sub any_bad {
	my ($cols, $ids) = @_;
	return NSConform::Model::verdict($cols, $ids)->{result} eq 'PASS' ? 0 : 1;
}

sub columns {
	my ($kdir, $pass, $exps) = @_;
	local $NSConform::Results::only_pass = $pass;
	my @cols = load_folder($kdir);
	prepare(\@cols, $exps);
	return (\@cols, [case_ids(\@cols)]);
}

# The verdict of PASS in kernel folder KDIR: (verdict, raw).  %o:
# expectations (a list of loaded expectations, [] for none), exit_status
# (what prove returned), cases (a guest's "PASS CASE rc=N ..." file).
sub pass_verdict {
	my ($kdir, $pass, %o) = @_;
	my @taps = glob("$kdir/$pass/*.tap");
	return ('NOT RUN', 'failed') unless @taps;
	my ($cols, $ids) = columns($kdir, $pass, $o{expectations});
	my $verdict = any_bad($cols, $ids) ? 'FAIL' : 'PASS';
	my ($raw_cols, $raw_ids) = columns($kdir, $pass, []);
	my $raw = any_bad($raw_cols, $raw_ids) ? 'failed' : 'passed';
	if ($raw eq 'passed') {
		# Every test ok: a binary's exit status its TAP does not show still fails it.
		my $where;
		$where = 'prove.log' if ($o{exit_status} // 0) != 0;
		if (defined $o{cases}) {
			for (split /\n/, slurp($o{cases}) // '') {
				($where = basename($o{cases})) =~ s/^\.//
				    if /^\Q$pass\E\s+\S+\s+(\S+)/ && $1 ne 'rc=0';
			}
		}
		if (defined $where) {
			$raw = 'failed';
			$verdict = 'FAIL (a case binary failed after a clean TAP stream;'
				   . " see $where)";
		}
	}
	my $meta = read_meta("$kdir/meta") // {};
	$verdict = 'PASS (incomplete)' if $verdict eq 'PASS' && ($meta->{not_run} // '') =~ /\S/;
	return ($verdict, $raw);
}

# The status of CASE/TEST in PASS of kernel folder KDIR, without expectations.
sub test_status {
	my ($kdir, $pass, $case) = @_;
	my ($bin, $test) = $case =~ m{^([^/]+)/(.+)$} or return 'missing';
	my ($cols) = columns($kdir, $pass, []);
	my $col = $cols->[0] or return 'missing';
	my $r = $col->{results}{"$bin/$test"};
	if (!$r) {
		my @m = grep { $_->{binary} eq $bin && ($_->{test} eq $test
			       || substr($_->{test}, -length($test) - 1) eq ".$test") }
			values %{$col->{results}};
		$r = $m[0] if @m == 1;
	}
	$r //= cell($col, "$bin/$test");
	return $r ? $r->{status} : 'missing';
}

sub main {
	my ($cmd, @a) = @_;
	$NSConform::Util::ME = 'nsconform verdict';
	$cmd //= '';
	if ($cmd eq 'pass' && @a >= 2) {
		my ($kdir, $pass) = splice(@a, 0, 2);
		my (%o, $exp, $none);
		while (@a) {
			my $k = shift @a;
			if ($k eq '--no-expectations') { $none = 1; next; }
			fatal("$k needs a value") unless @a;
			my $v = shift @a;
			if ($k eq '--expectations') { $exp = $v; }
			elsif ($k eq '--exit-status') { $o{exit_status} = $v; }
			elsif ($k eq '--cases') { $o{cases} = $v; }
			else { fatal("unknown option $k"); }
		}
		my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
		$o{expectations} = $none ? []
		    : load_expectations($exp // "$top/fixtures/data/expectations", defined $exp);
		my ($v, $raw) = pass_verdict($kdir, $pass, %o);
		print "$v\t$raw\n";
		return $v eq 'PASS' ? 0 : 1;
	}
	if ($cmd eq 'test' && @a == 3) {
		print test_status(@a), "\n";
		return 0;
	}
	fatal('usage: Verdict.pm pass KDIR PASS [options] | test KDIR PASS CASE/TEST');
}

exit main(@ARGV) unless caller;
1;
