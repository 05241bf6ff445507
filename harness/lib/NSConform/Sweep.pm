# NSConform::Sweep - the result cache of harness/sweep, in one process per
# release (a shell loop over 58 binaries x 2 passes costs thousands of forks),
# and the compact summary of a sweep's results (summarize, for
# harness/findings --summarize; NSConform::Findings reads it).
#
#   perl -MNSConform::Sweep -e 'store(@ARGV)' KD RELCACHE GUEST "PASSES" NAME@HASH...
#       file the TAP of the matrix's kernel folder KD under RELCACHE/NAME@HASH/
#       (PASS.tap, PASS.case; PASS.missing: "crashed: why" or "not run"), each
#       binary's folder appearing by one rename
#   perl -MNSConform::Sweep -e 'assemble(@ARGV)' RELCACHE OUT "PASSES" RUNNER NAME@HASH...
#       rebuild the results folder OUT (meta, PASS/NAME.tap, guest logs) from
#       RELCACHE, unless OUT/.key says it holds just that already
package NSConform::Sweep;
use strict;
use warnings;
use File::Copy qw(copy);
use File::Path qw(remove_tree make_path);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model;
use Exporter qw(import);
our @EXPORT = qw(store assemble summarize);

# One character per result in the summary's rows.
our %CHAR = (pass => '.', xfail => 'x', skip => 's', fail => 'F', health => 'H',
	     timeout => 'T', crash => 'C', error => 'E', notrun => 'N', missing => '-');

sub series_of { my @v = upstream_version(@_); return @v ? "$v[0].$v[1]" : '?'; }
sub up_of {
	my @v = upstream_version(@_);
	return '' unless @v;
	return defined $v[2] ? "$v[0].$v[1].$v[2]" : "$v[0].$v[1]";
}

sub slurp_file {
	my ($f) = @_;
	open(my $fh, '<', $f) or return undef;
	local $/;
	my $s = <$fh>;
	return $s;
}

sub spew {
	my ($f, $s) = @_;
	open(my $fh, '>', $f) or die "$f: $!\n";
	print $fh $s;
	close($fh) or die "$f: $!\n";
}

sub meta_of {
	my %m;
	for (split /\n/, slurp_file($_[0]) // '') { $m{$1} = $2 if /^([\w.-]+)=(.*)$/; }
	return \%m;
}

sub store {
	my ($kd, $rc, $gid, $passes, @bins) = @_;
	my @passes = split ' ', $passes;
	my $crash = meta_of("$kd/meta")->{crash};
	my %case;
	for (split /\n/, slurp_file("$kd/cases") // '') {
		$case{"$1 $2"} .= "$_\n" if /^(\S+) (\S+) /;
	}
	for my $bh (@bins) {
		my ($b) = split /@/, $bh;
		my $d = "$rc/$bh";
		my $tmp = "$rc/.new.$$.$bh";
		remove_tree($tmp);
		make_path($tmp) or die "$tmp: cannot create: $!\n";
		if (-d $d) { copy($_, $tmp) for glob("$d/*"); }
		for my $p (@passes) {
			unlink("$tmp/$p.tap", "$tmp/$p.missing", "$tmp/$p.case");
			if (-f "$kd/$p/$b.tap") {
				copy("$kd/$p/$b.tap", "$tmp/$p.tap") or die "$tmp/$p.tap: $!\n";
				spew("$tmp/$p.case", $case{"$p $b"} // '');
			} else {
				spew("$tmp/$p.missing",
				     ($crash ? "crashed: $crash" : 'not run') . "\n");
			}
		}
		spew("$tmp/source", "guest=$gid\n");
		replace_dir($tmp, $d);
	}
	return 1;
}

# Put the folder TMP in the place of DIR: what stood there goes, and a
# reader sees either the old folder or the whole new one.
sub replace_dir {
	my ($tmp, $dir) = @_;
	remove_tree("$dir.old");
	rename($dir, "$dir.old") if -d $dir;
	rename($tmp, $dir) or die "$dir: cannot rename into place: $!\n";
	remove_tree("$dir.old");
}

sub assemble {
	my ($rc, $out, $passes, $runner, @bins) = @_;
	my @passes = split ' ', $passes;
	my ($g) = (sort glob("$rc/guests/*"))[-1];
	return 1 unless $g;
	(my $gid = $g) =~ s{.*/}{};
	my $key = join(' ', $passes, $gid, $runner, @bins) . "\n";
	return 1 if (slurp_file("$out/.key") // '') eq $key;
	my ($dir, $name) = $out =~ m{^(.*)/([^/]+)$};
	my $tmp = "$dir/.new.$$.$name";
	remove_tree($tmp);
	make_path(map { "$tmp/$_" } @passes) or die "$tmp: cannot create: $!\n";
	my ($status, $crash, $crash_case, @notrun, $cases) = ('passed', '', '');
	for my $bh (@bins) {
		my ($b) = split /@/, $bh;
		for my $p (@passes) {
			my $f = "$rc/$bh/$p";
			if (-f "$f.tap") {
				copy("$f.tap", "$tmp/$p/$b.tap") or die "$tmp/$p/$b.tap: $!\n";
				$cases .= slurp_file("$f.case") // '';
				$status = 'failed' if $status eq 'passed'
				    && (slurp_file("$f.tap") // '') =~ /^not ok/m;
			} elsif ((slurp_file("$f.missing") // '') =~ /^crashed: (.*)/) {
				($status, $crash, $crash_case) = ('crashed', $1, "$p/$b");
			} else {
				push @notrun, "$p/$b";
			}
		}
	}
	spew("$tmp/cases", $cases // '');
	for my $f (qw(klog dmesg guest.log timings config-ns qemu.cmdline)) {
		copy("$g/$f", "$tmp/$f") if -f "$g/$f";
	}
	my $meta = join('', grep { !/^(status|crash|crash_case|not_run|passes)=/ }
			    split /^/, slurp_file("$g/meta") // '');
	$meta .= "\n" if length $meta && $meta !~ /\n$/;
	$meta .= "passes=$passes\nsweep_guest=$gid\nsweep_runner=$runner\nstatus=$status\n";
	$meta .= "crash=$crash\ncrash_case=$crash_case\n" if $status eq 'crashed';
	$meta .= "not_run=@notrun\n" if @notrun;
	spew("$tmp/meta", $meta);
	spew("$tmp/.key", $key);
	replace_dir($tmp, $out);
	return 1;
}

# The summary of the results folder DIR (one kernel folder per release):
# RELEASES (ABIs, or "ABI VERSION" with Debian's package version for one
# that may not have been swept; default every kernel folder), BINARIES
# ("name@hash" of the swept case binaries), REVISION of the suite.
sub summarize {
	my ($dir, $releases, $binaries, $revision) = @_;
	my @cols = load_folder($dir);
	NSConform::Model::resolve_not_run(\@cols);
	my %by;	# release -> pass -> column
	for my $c (@cols) { $by{$c->{kernel}}{$c->{pass}} = $c; }
	my %pkgver;
	my @rel = map { my ($a, $v) = split ' '; $pkgver{$a} = $v if $v; $a } @{$releases // []};
	@rel = keys %by unless @rel;
	# Oldest first: by upstream version (the package's where known), then the
	# Debian version, then the ABI.
	my %key;
	for my $r (@rel) {
		my ($c) = values %{$by{$r} // {}};
		my $kv = $c ? $c->{meta}{kernel_version} : $pkgver{$r};
		my @v = upstream_version($r, $kv);
		$key{$r} = sprintf('%05d.%05d.%05d ', map { $_ // 0 } @v[0 .. 2]) . ($kv // '')
		    . " $r";
	}
	@rel = sort { $key{$a} cmp $key{$b} } @rel;
	my (%tests, @lines);
	for my $c (@cols) { $tests{$c->{pass}}{$_} = 1 for keys %{$c->{results}}; }
	push @lines, "# nsconform sweep summary, written by harness/sweep (harness/findings",
	    "# --summarize), read by harness/findings (make findings, make test).",
	    "# suite: the revision the case binaries were built from; binary: name and the",
	    "# first 16 hex digits of its SHA-256 (the sweep's cache key); release: ABI,",
	    "# Debian package version, upstream version, guest status (missing: not swept).",
	    "# row: PASS TEST and one character per release in the order above, a blank",
	    "# between series: . pass  s skip  x xfail  F fail  H kernel health  T timeout",
	    "# C crash  E error  N not run  - no result.  Only tests that were not ok on some",
	    "# release have a row: one without passed or skipped on every release.",
	    "suite $revision";
	push @lines, map { my ($n, $h) = split /@/, $_; "binary $n $h" } @{$binaries // []};
	my @series;
	for my $r (@rel) {
		my ($c) = values %{$by{$r} // {}};
		my $meta = $c ? $c->{meta} : {kernel_version => $pkgver{$r}};
		my $ver = $meta->{kernel_version} || '-';
		my $st = !$c ? 'missing' : $meta->{status} || 'passed';
		push @lines, "release $r $ver " . (up_of($r, $meta->{kernel_version}) || '-')
		    . " $st";
		push @series, series_of($r, $meta->{kernel_version});
	}
	for my $pass (sort { NSConform::Results::pass_order($a, $b) } keys %tests) {
		for my $id (sort keys %{$tests{$pass}}) {
			my $row = '';
			for my $i (0 .. $#rel) {
				$row .= ' ' if $i && $series[$i] ne $series[$i - 1];
				my $c = $by{$rel[$i]}{$pass};
				my $res = $c ? $c->{results}{$id} : undef;
				$row .= $CHAR{$res ? $res->{status} : 'missing'} // '?';
			}
			next if $row !~ /[FHTCEN]/;	# passed or skipped everywhere
			push @lines, "row $pass $id $row";
		}
	}
	return join("\n", @lines) . "\n";
}

1;
