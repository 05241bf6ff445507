# NSConform::Sweep - the result cache of harness/sweep, in one process per
# release (a shell loop over 58 binaries x 2 passes costs thousands of forks).
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
use Exporter qw(import);
our @EXPORT = qw(store assemble);

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
		remove_tree("$d.old");
		rename($d, "$d.old") if -d $d;
		rename($tmp, $d) or die "$d: cannot rename into place: $!\n";
		remove_tree("$d.old");
	}
	return 1;
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
	remove_tree("$out.old");
	rename($out, "$out.old") if -d $out;
	rename($tmp, $out) or die "$out: cannot rename into place: $!\n";
	remove_tree("$out.old");
	return 1;
}

1;
