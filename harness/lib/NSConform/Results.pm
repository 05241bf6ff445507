# NSConform::Results - the one reader of nsconform results folders.
# harness/RESULTS.md is the contract it follows: the layout, the meta keys,
# the timing file and the tokens of synthesized TAP lines.  Every tool that
# reads results (report, verdicts, soak, mutate, check, matrix) reads them
# through this module.
package NSConform::Results;
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Find;
use NSConform::Util;
use Exporter qw(import);
our @EXPORT = qw(@STATUSES %BAD %LABEL read_meta load_folder read_tap_file verdicts
		 version_of upstream_version kernel_sort_key short_kernel);

# Statuses a result can have, in order of display.
our @STATUSES = qw(pass xfail skip known fail health timeout crash error notrun missing);
our %BAD = map { $_ => 1 } qw(fail health timeout crash error notrun);
our %LABEL = (pass => 'ok', xfail => 'xfail', skip => 'skip', known => 'known',
	      fail => 'FAIL', health => 'HEALTH', timeout => 'TIME', crash => 'CRASH',
	      error => 'ERROR', notrun => 'NORUN', missing => '-');

sub read_meta {
	my ($file) = @_;
	my %m;
	my $s = slurp($file);
	return undef unless defined $s;
	for (split /\n/, $s) {
		next if /^\s*(#|$)/;
		$m{$1} = $2 if /^\s*([\w.-]+)\s*=\s*(.*?)\s*$/;
	}
	return \%m;
}

sub tail_lines {
	my ($file, $n) = @_;
	my $s = slurp($file);
	return undef unless defined $s;
	my @l = split /\n/, $s;
	splice(@l, 0, @l - $n) if @l > $n;
	return join("\n", @l);
}

# ------------------------------------------------------------ versions

# major, minor, patch of a release string as written (patch 0 if absent).
sub version_of {
	my ($k) = @_;
	return ($k // '') =~ /^(\d+)\.(\d+)(?:\.(\d+))?/ ? ($1, $2, $3 // 0) : ();
}

# The upstream version of a kernel: (major, minor, patch), patch undef
# when the release string does not tell it.  Debian's package version
# (kernel_version= in meta: 6.1.158-1, 7.3~rc7-1~exp1) tells it; so does a
# release like 7.2.9+deb14-amd64; 6.1.0-57-amd64 (an ABI, .0 is no patch
# level) and 7.3-amd64 do not.
sub upstream_version {
	my ($release, $package) = @_;
	if (($package // '') =~ /^(\d+)\.(\d+)(?:\.(\d+))?(?:[~+-]|$)/) {
		return ($1, $2, $3 // 0) if defined $3 || $package !~ /^\d+\.\d+~rc/;
		return ($1, $2, undef);
	}
	my $r = $release // '';
	return ($1, $2, undef) if $r =~ /^(\d+)\.(\d+)\.0-\d/ || $r =~ /^(\d+)\.(\d+)(?:-|$)/;
	return ($1, $2, $3) if $r =~ /^(\d+)\.(\d+)\.(\d+)/;
	return ();
}

sub kernel_sort_key {
	my @v = version_of($_[0]);
	return @v ? sprintf('%05d.%05d.%05d %s', @v, $_[0]) : "99999 $_[0]";
}

sub short_kernel {
	my @v = version_of($_[0]);
	return @v ? "$v[0].$v[1]" : $_[0];
}

# ------------------------------------------------------------ one TAP file

# Lines of the kselftest harness that carry no diagnostic.
sub noise { return $_[0] =~ /^#\s+(RUN|OK|FAIL|SKIP)\s/ || $_[0] =~ /^# Starting \d+ tests/; }

# The status of a not-ok line: the token of a synthesized line first
# (RESULTS.md), then the forms written before the tokens were fixed.
sub bad_status {
	my ($name, $note, $binary) = @_;
	return 'notrun' if $note =~ /^NOTRUN\b/ || $name =~ /^(?:\Q$binary\E\.)?not_run_\d+$/;
	return 'timeout' if $note =~ /^TIMEOUT\b/;
	return 'health' if $note =~ /^KERNEL-HEALTH\b/;
	return 'crash' if $note =~ /^CRASH\b/ || $note =~ /ended early/;
	return 'fail';
}

# Limits that keep the reader bounded whatever a .tap file holds: a file
# is read up to $MAX_BYTES, a line up to $MAX_LINE characters, a test keeps
# $MAX_DIAG diagnostic lines, and a plan whose unrun tests would exceed
# $MAX_NOTRUN is not expanded test by test (the file is one CRASH instead).
our $MAX_BYTES = 32 << 20;
our $MAX_LINE = 8192;
our $MAX_DIAG = 400;
our $MAX_NOTRUN = 10000;
my $MAX_NUMBER = 999_999_999;	# a test number beyond this is not a test number

# One test line of TAP, parsed as TAP::Parser's grammar does (ok/not ok, an
# optional number, a description, a SKIP or TODO directive); undef when the
# line is no test line.
sub parse_test_line {
	my ($l) = @_;
	return undef unless $l =~ /^(not )?ok\b\s*(\d+)?\s*(.*)\z/s;
	my ($ok, $num, $desc) = (!defined $1, $2, $3);
	my ($dir, $expl) = ('', '');
	if ($desc =~ /^([^\\#]*(?:\\.[^\\#]*)*)#\s*(SKIP|TODO)\b\s*(.*)$/is) {
		($desc, $dir, $expl) = ($1, uc $2, $3);
	}
	s/^\s+//, s/\s+$// for $desc, $expl;
	return {ok => $ok, number => $num, description => $desc, directive => $dir,
		explanation => $expl, raw => $l};
}

# One result of one test, from a parsed test line ($t, numbered).
sub test_result {
	my ($binary, $t, $diag) = @_;
	my $desc = $t->{description};
	my ($name, $note) = ($desc, '');
	($name, $note) = ($1, $2) if $desc =~ /^(.*?)\s+#\s*(.*)$/s;
	$name =~ s/^-\s+//;
	$name =~ s/^global\.//;
	$name = "test_" . $t->{number} if $name eq '';
	my %r = (binary => $binary, number => $t->{number}, raw => $t->{raw},
		 diag => $diag, reason => '');
	my $todo = $t->{directive} eq 'TODO';
	if ($t->{ok}) {
		if ($t->{directive} eq 'SKIP') {
			@r{qw(status reason)} = ('skip', $t->{explanation});
		} elsif ($todo || $note =~ /^XFAIL\b/) {
			@r{qw(status reason)} = ('xfail', $t->{explanation} || $note);
		} else {
			$r{status} = 'pass';
		}
	} elsif ($todo) {
		@r{qw(status reason)} = ('xfail', $t->{explanation});
	} else {
		$r{reason} = $note;
		$r{status} = bad_status($name, $note, $binary);
		if ($r{status} eq 'fail') {
			my @why = grep { /Expected|[Ff]ail|error|feature missing/
					 && !/^#\s+FAIL\s/ } @$diag;
			$r{reason} = $why[0] // '';
			$r{reason} =~ s/^#\s*//;
		}
	}
	$name =~ s/^\Q$binary\E\.(not_run_\d+)$/$1/;
	$r{test} = $name;
	return \%r;
}

# The bytes of a .tap file, at most $MAX_BYTES of them: (text, why it is
# not all) or (undef, why it cannot be read).
sub read_capped {
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or return (undef, "cannot read $file: $!");
	my $s = '';
	my $n = read($fh, $s, $MAX_BYTES);
	return (undef, "cannot read $file: $!") unless defined $n;
	my $more = read($fh, my $extra, 1);
	close($fh);
	return ($s, $more ? "the file is larger than $MAX_BYTES bytes: only its start was read"
			  : undef);
}

# The results of one CASE.tap.  $ctx: {crashed => why the kernel died} for
# a column whose guest crashed.  Returns a list of results; a stream cut
# short is completed here: the test of the last "#  RUN" line that has no
# result is a crash, the tests after it are not run.  Whatever the file
# holds (junk, a last line without newline, absurd numbers or plans), the
# reader gives the results of its test lines and at most one more result,
# CASE/(TAP) with status crash, saying what is wrong with the stream; time
# and memory stay bounded (the limits above).
sub read_tap_file {
	my ($file, $ctx) = @_;
	$ctx //= {};
	my $binary = basename($file, '.tap');
	my ($tap, $cut) = read_capped($file);
	my @out;
	my $add = sub { push @out, $_[0]; return $_[0]; };
	my %whole = (binary => $binary, test => '(TAP)', number => 0, raw => '');
	if (!defined $tap || $tap !~ /\S/) {
		return {%whole, status => 'crash', diag => [],
			reason => defined $tap ? 'empty TAP file' : $cut};
	}
	my (@pending, $running, $last_r, $planned, @errs);
	my ($run, $last, $dropped) = (0, 0, 0);
	my $note = sub { push @errs, $_[0] if @errs < 5; };
	pos($tap) = 0;
	while ($tap =~ /\G([^\n]*)(?:\n|\z)/gc) {
		my $l = $1;
		last if $l eq '' && pos($tap) >= length $tap;
		$l =~ s/\r\z//;
		$l = substr($l, 0, $MAX_LINE) . ' [line cut]' if length $l > $MAX_LINE;
		if (my $t = parse_test_line($l)) {
			$run++;
			my $n = $t->{number};
			if (defined $n && (length $n > 9 || $n > $MAX_NUMBER)) {
				$note->("test number $n is out of range");
				$n = undef;
			}
			if (defined $n && $n != $run) {
				$note->("tests out of sequence: found $n, expected $run");
			}
			$t->{number} = $n // $run;
			$last_r = $add->(test_result($binary, $t, [@pending]));
			$last = $t->{number};
			(@pending, $dropped) = ();
			$running = undef;
		} elsif ($l =~ /^1\.\.(\d+)(?:\s.*)?$/) {
			if (defined $planned) {
				$note->("more than one plan");
			} elsif (length $1 > 9) {
				$note->("plan 1..$1 is out of range");
				$planned = -1;
			} else {
				$planned = $1 + 0;
			}
		} else {
			my $health = $last_r && $last_r->{status} eq 'health';
			if ($health && $l =~ /^#\s*klog:\s?(.*)$/) {
				if (@{$last_r->{klog} // []} < $MAX_DIAG) {
					push @{$last_r->{diag}}, $l;
					push @{$last_r->{klog}}, $1;
				}
				next;
			}
			next if $l =~ /^TAP version \d+\s*$/ || $l !~ /\S/;
			$running = $1 if $l =~ /^#\s+RUN\s+(\S+)/;
			next if noise($l);
			if (@pending < $MAX_DIAG) {
				push @pending, $l;
			} elsif (!$dropped++) {
				push @pending, "# [more diagnostic lines left out]";
			}
		}
	}
	my $bad_plan = defined $planned && $planned < 0;
	$planned = undef if $bad_plan;
	my $cause = $ctx->{crashed} ? "the kernel crashed ($ctx->{crashed})"
				    : 'the TAP stream ended early';
	my $next = $last + 1;
	if ((!defined $planned || $run < $planned) && defined $running && !$bad_plan) {
		(my $name = $running) =~ s/^global\.//;
		$name = "test_$next" if $name eq '';
		$add->({binary => $binary, test => $name, number => $next, status => 'crash',
			diag => [@pending], reason => "CRASH $cause while this test ran",
			raw => ''});
		$planned //= $next;
		$next++;
	}
	my @whole;	# what is wrong with the stream as a whole
	push @whole, $cut if $cut;
	if (defined $planned && $run < $planned) {
		if ($planned - $next + 1 > $MAX_NOTRUN) {
			push @whole, "plan 1..$planned but $run test(s) ran: not a plausible plan";
		} else {
			for my $n ($next .. $planned) {
				$add->({binary => $binary, test => "not_run_$n", number => $n,
					status => 'notrun', diag => [],
					reason => "$cause before this test ran", raw => ''});
			}
		}
	} elsif (!defined $planned && !$bad_plan) {
		push @whole, "no plan: $cause";
	}
	push @whole, "TAP errors: " . join('; ', @errs) if @errs;
	if (@whole) {
		$add->({%whole, status => 'crash', reason => join('; ', @whole),
			diag => (@out ? [] : [@pending])});
	}
	return @out;
}

# Add a result to a column under a unique id.
sub add_result {
	my ($col, $r) = @_;
	my $id = "$r->{binary}/$r->{test}";
	$id .= "#$r->{number}" if $col->{results}{$id};
	$r->{id} = $id;
	$col->{results}{$id} = $r;
}

# "PASS/CASE/TEST STATUS" (by case: "CASE:TEST STATUS") for every test in
# the TAP files under PATHS (folders, searched down, or CASE.tap files),
# sorted.  A folder without TAP files is an error (undef, with $!).
sub verdicts {
	my ($by_case, @paths) = @_;
	my @taps;
	for my $d (@paths) {
		if (-f $d && $d =~ /\.tap$/) { push @taps, $d; next; }
		return undef unless -d $d;
		find({wanted => sub { push @taps, $File::Find::name if /\.tap$/ }, follow => 1},
		     $d);
	}
	my @lines;
	for my $tap (@taps) {
		my $pass = basename(dirname($tap));
		for my $r (read_tap_file($tap)) {
			push @lines, $by_case ? "$r->{binary}:$r->{test} $r->{status}"
					      : "$pass/$r->{binary}/$r->{test} $r->{status}";
		}
	}
	return [sort @lines];
}

# ------------------------------------------------------------ folders

sub is_kernel_dir {
	my ($d) = @_;
	return 1 if -f "$d/meta";
	for my $p (glob("$d/*")) {
		my @taps = glob("$p/*.tap");
		return 1 if -d $p && @taps;
	}
	return 0;
}

sub console_log {
	my ($dir) = @_;
	my $klog = tail_lines("$dir/klog", 60);
	if (defined $klog) {	# a serial console: drop terminal escapes
		$klog =~ s/\e\[[0-9;?]*[A-Za-z]//g;
		$klog =~ s/[\x00-\x08\x0b-\x1f\x7f]//g;
	}
	return $klog;
}

# {CASE => ms} of one pass from a guest's `cases` file ("PASS CASE rc=N
# ms=N taint=N"); empty on the host, which records no per-case time.
sub case_ms {
	my ($file, $pass) = @_;
	my %ms;
	for (split /\n/, slurp($file) // '') {
		$ms{$1} = $2 if /^\Q$pass\E\s+(\S+)\s.*\bms=(\d+)/;
	}
	return \%ms;
}

# Only this pass (harness/report --pass), when set.
our $only_pass;

# The passes in their order: root, user, then the compat passes (the 32-bit
# binaries as root and unprivileged); others after them, by name.
our %PASS_RANK = (root => 0, user => 1, compat => 2, 'compat-user' => 3);
sub pass_order {
	return ($PASS_RANK{$_[0]} // 9) <=> ($PASS_RANK{$_[1]} // 9) || $_[0] cmp $_[1];
}

# The one-line reason a kernel could not be run: meta's error= (reason= is
# read too), its first line.
sub error_reason {
	my ($meta) = @_;
	my $why = $meta->{error} // $meta->{reason} // '';
	($why) = $why =~ /^\s*(.*?)\s*$/m;
	return length $why ? $why : 'no reason given (meta has status=error and no error=)';
}

# The entries of folder D, sorted, or undef (with $!) when it cannot be read.
sub entries {
	my ($d) = @_;
	opendir(my $dh, $d) or return undef;
	my @e = sort grep { !/^\.\.?$/ } readdir($dh);
	closedir($dh);
	return \@e;
}

# A column that stands for results that could not be had: the kernel could
# not be run (meta status=error) or its folder could not be read.
sub error_column {
	my ($run, $kernel, $pass, $dir, $meta, $why, $line) = @_;
	return {run => $run, kernel => $kernel, pass => $pass, dir => $dir, meta => $meta,
		results => {}, never => {}, error => $why,
		error_line => $line // "its results could not be read: $why",
		crashed => undef, crashed_short => undef, case_ms => {}};
}

# The columns (one per kernel and pass) of one kernel folder.
sub load_kernel_dir {
	my ($dir, $run) = @_;
	my $list = entries($dir);
	if (!$list) {
		my $why = "$dir: cannot read: $!";
		return error_column($run, basename($dir), 'none', $dir, {}, $why);
	}
	my $meta = -e "$dir/meta" ? read_meta("$dir/meta") : undef;
	if (!$meta) {
		warning(-e "$dir/meta" ? "$dir/meta: cannot read: $!"
			: "$dir: no meta file; the kernel is named after the folder");
		$meta = {};
	}
	my $kernel = $meta->{kernel} || basename($dir);
	# Pass folders: those with TAP files, and those that cannot be read.
	my %passes = map { $_ => 1 } grep { my @t = glob("$dir/$_/*.tap");
					    @t || -d "$dir/$_" && !entries("$dir/$_") } @$list;
	$passes{$_} = 1 for split ' ', ($meta->{passes} // '');
	%passes = map { $_ => 1 } grep { $_ eq $only_pass } keys %passes if defined $only_pass;
	# The kernel crashed or could not be run: status= in meta.
	my $st = $meta->{status} // '';
	my $kcrash;
	$kcrash = $meta->{crash} || 'the guest crashed' if $st eq 'crashed';
	my ($short) = defined $kcrash ? $kcrash =~ /^\s*(.*?)\s*$/m : ();
	my $kerr = $st eq 'error' ? error_reason($meta) : undef;
	my $klog = console_log($dir);
	my %never;
	for (split ' ', $meta->{not_run} // '') {
		$never{$1}{$2} = 1 if m{^([^/]+)/(.+)$};
	}
	my @cols;
	for my $pass (sort { pass_order($a, $b) } keys %passes) {
		my $pdir = "$dir/$pass";
		if (defined $kerr) {
			push @cols, error_column($run, $kernel, $pass, $dir, $meta, $kerr,
						 "the kernel could not be run: $kerr");
			next;
		}
		my $plist = -e $pdir ? entries($pdir) : [];
		if (!$plist) {
			push @cols, error_column($run, $kernel, $pass, $dir, $meta,
						 "$pdir: cannot read: $!");
			next;
		}
		my $col = {run => $run, kernel => $kernel, pass => $pass, dir => $dir,
			   meta => $meta, results => {}, kernel_log => $klog,
			   never => $never{$pass} || {}, crashed => $kcrash,
			   crashed_short => $short,
			   guest_only => {map { $_ => 1 } split ' ', $meta->{guest_only} // ''}};
		my $timing = read_meta("$pdir/timing");
		$col->{seconds} = $timing->{ms} / 1000 if $timing && defined $timing->{ms};
		$col->{case_ms} = case_ms("$dir/cases", $pass);
		my @taps = map { "$pdir/$_" } grep { /\.tap$/ } @$plist;
		if (!@taps && !defined $kcrash) {
			warning("$dir: the $pass pass has no TAP files");
		}
		for my $tap (@taps) {
			add_result($col, $_) for read_tap_file($tap, {crashed => $short});
		}
		push @cols, $col;
	}
	if (!@cols) {
		return error_column($run, $kernel, 'none', $dir, $meta, $kerr,
				    "the kernel could not be run: $kerr") if defined $kerr;
		fatal("$dir: no pass folders with TAP files and no passes= in its meta")
		    unless defined $kcrash;
		push @cols, {run => $run, kernel => $kernel, pass => 'none', dir => $dir,
			     meta => $meta, results => {}, kernel_log => $klog, never => {},
			     crashed => $kcrash, crashed_short => $short};
	}
	return @cols;
}

# The columns of a run folder or a kernel folder.
sub load_folder {
	my ($arg) = @_;
	fatal("$arg: no such folder") unless -e $arg;
	fatal("$arg: not a folder") unless -d $arg;
	my $dir = $arg;
	$dir =~ s{/+$}{} unless $dir eq '/';
	my $list = entries($dir) or fatal("$arg: cannot read: $!");
	if (is_kernel_dir($dir)) {
		my $real = abs_path($dir);
		return load_kernel_dir($dir, basename(dirname($real)));
	}
	my $run = basename(abs_path($dir));
	my (@kdirs, @unreadable);
	for my $k (map { "$dir/$_" } @$list) {
		next unless -d $k && !-l $k;
		if (!entries($k)) {
			push @unreadable, [$k, "$!"];
		} elsif (is_kernel_dir($k)) {
			push @kdirs, $k;
		}
	}
	if (!@kdirs && !@unreadable) {
		my @runs = grep { -d $_ && !-l $_ && grep { is_kernel_dir($_) } glob("$_/*") }
			   glob("$dir/*");
		fatal("$arg: a results root, not a run: name one of its runs, e.g. $arg/latest")
		    if @runs;
		fatal("$arg: not a results folder: expected RUN/KERNEL/PASS/CASE.tap"
		      . " with RUN/KERNEL/meta (give RUN or RUN/KERNEL)");
	}
	return (map { load_kernel_dir($_, $run) } @kdirs),
	       map { error_column($run, basename($_->[0]), 'none', $_->[0], {},
				  "$_->[0]: cannot read: $_->[1]") } @unreadable;
}

1;
