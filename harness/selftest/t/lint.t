#!/usr/bin/perl
# Every TEST/TEST_F in cases/ carries one comment right above it that names
# the claim and its source first: a man page section like "(7)" or "(2)",
# the article, or linux:<commit>.  Either one line, or one block whose first
# paragraph is the claim and source.  Prints one TAP line per case file.
# Then the layout of the C helpers (fixtures/, see README "Adding a case"):
# one line per rule.  Then the harness's own scripts: none longer than 500
# lines, no line wider than 100 columns.  Last, the runners decide no verdict
# of their own (NSConform/Verdict.pm does) and parse no test list
# (NSConform/Select.pm).
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = dirname(dirname(dirname(dirname(abs_path(__FILE__)))));
my @files = sort glob("$top/cases/*.c");
my @scripts = map { glob("$top/$_") } qw(harness/check harness/matrix harness/mutate
	harness/bench-vm harness/soak harness/verdicts harness/report harness/report-cilint
	harness/ci-github-steps harness/kselftest-export
	harness/hygiene harness/lib/*.sh harness/lib/NSConform/*.pm
	harness/lib/NSConform/Render/*.pm harness/selftest/run harness/selftest/lib.sh
	harness/selftest/t/*.t);
my @runners = map { "$top/harness/$_" } qw(check matrix bisect);
my @rules = layout_rules();
print "1..", scalar(@files) + scalar(@rules) + scalar(@scripts) + scalar(@runners), "\n";
my $source = qr{\(\d\)|article|LTP|selftest|linux:[0-9a-f]{12}}i;

# The comment ending on the line above @i: one line with the source, or a
# block ("/*", " * ..." lines, " */") whose first paragraph names it.
sub claim_above {
	my ($lines, $i) = @_;
	my $prev = $i > 0 ? $lines->[$i - 1] : '';
	return $prev =~ m{^/\*.*$source.*\*/\s*$} if $prev =~ m{^/\*.*\*/\s*$};
	return 0 unless $prev =~ m{^ \*/\s*$};
	my $b = $i - 2;
	$b-- while $b > 0 && $lines->[$b] =~ m{^ \*};
	return 0 unless $lines->[$b] =~ m{^/\*\s*$};
	my $first = '';
	for my $l (@$lines[$b + 1 .. $i - 2]) {
		last if $l =~ m{^ \*\s*$};
		$first .= $l;
	}
	return $first =~ $source;
}

my $n = 0;
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @lines = <$fh>;
	my @bad;
	for my $i (0 .. $#lines) {
		next unless $lines[$i] =~ /^(TEST|TEST_F|TEST_SIGNAL|TEST_F_TIMEOUT)\(/;
		push @bad, sprintf("line %d: %s", $i + 1, $lines[$i] =~ s/\s+$//r)
			unless claim_above(\@lines, $i);
	}
	$n++;
	(my $name = $f) =~ s{.*/}{};
	print @bad ? "not ok $n - $name: tests without a claim and source comment\n"
		   : "ok $n - $name\n";
	print "# $_\n" for @bad;
}
for my $r (@rules) {
	my ($what, @bad) = @$r;
	$n++;
	print @bad ? "not ok $n - $what\n" : "ok $n - $what\n";
	print "# $_\n" for @bad;
}
for my $f (@scripts) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @lines = <$fh>;
	my @wide = grep { length($lines[$_] =~ s/\s+$//r =~ s/\t/        /gr) > 100 } 0 .. $#lines;
	(my $name = $f) =~ s{^\Q$top\E/}{};
	$n++;
	if (@lines > 500 || @wide) {
		print "not ok $n - $name: ", scalar(@lines), " lines, ", scalar(@wide),
		      " wider than 100 columns\n";
		print "# line ", $_ + 1, "\n" for @wide;
	} else {
		print "ok $n - $name\n";
	}
}
# What a runner must leave to Verdict.pm and Select.pm: reading ok/not ok
# lines, judging without the expectations, a status of meta as a verdict,
# and the kselftest -l table.
my $own = qr{\(not \)\?ok|not ok|--no-expectations|\^status=crashed|\s-l\s+2>|\$NF == t};
for my $f (@runners) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @hits = grep { /$own/ && !/^\s*#/ } <$fh>;
	(my $name = $f) =~ s{^\Q$top\E/}{};
	$n++;
	print @hits ? "not ok $n - $name decides a verdict or reads a test list itself\n"
		    : "ok $n - $name: verdicts and selection through NSConform\n";
	print "# $_" for @hits;
}

# [rule, offending "file:line: text"...] for each layout rule of the C side.
sub layout_rules {
	my @c = (sort(glob("$top/cases/*.c")), sort(glob("$top/fixtures/*.[ch]")));
	my (@fallback);
	for my $f (@c) {
		(my $name = $f) =~ s{^\Q$top\E/}{};
		next if $name eq 'fixtures/uapi.h';
		open(my $fh, '<', $f) or die "$f: $!\n";
		my @l = <$fh>;
		for my $i (0 .. $#l) {
			# a fallback: "#ifndef X" followed by "#define X", other than an
			# include guard or _GNU_SOURCE; or a syscall number of our own
			if ($l[$i] =~ /^#\s*ifndef\s+(\w+)/ && $1 !~ /_H$|^_GNU_SOURCE$/
			    && ($l[$i + 1] // '') =~ /^#\s*define\s+\Q$1\E\b/
			    or $l[$i] =~ /^#\s*define\s+(__NR_|SYS_)\w+/) {
				push @fallback, "$name:" . ($i + 1) . ": " . ($l[$i] =~ s/\s+$//r);
			}
		}
	}
	# A case includes nsconform.h and at most its area's header
	# (cases/<area>_*.c -> fixtures/<area>.h; net's libnl part is net_route.h);
	# the core files (fixtures/core_*.c, uapi.h, nsconform.h) include no area
	# header.  Cases that still reach into a neighbour area, until the helpers
	# they use move to the core:
	my %reach = ('mnt_idmap.c user.h' => 1,		# the user namespace peer, holder
		     'mnt_fixes.c user.h' => 1,		# the user namespace holder
		     'nsfs_errors.c pid.h' => 1,		# pidns_status_field, pidns_wait_any
		     'nsfs_errors_settid.c pid.h' => 1,		# PID namespace levels
		     'nsfs_errors_unshare.c pid.h' => 1);	# PID namespace levels
	my (@cross, @core);
	for my $f (@c) {
		(my $name = $f) =~ s{^\Q$top\E/}{};
		open(my $fh, '<', $f) or die "$f: $!\n";
		my @l = <$fh>;
		for my $i (0 .. $#l) {
			next unless $l[$i] =~ /^#\s*include\s+"(\w+)\.h"/;
			my $h = $1;
			next if $h =~ /^(nsconform|uapi|kselftest_harness|kselftest)$/;
			if ($name =~ m{^fixtures/(core_\w+\.c|uapi\.h|nsconform\.h)$}) {
				push @core, "$name:" . ($i + 1) . ": includes $h.h";
			} elsif ($name =~ m{^cases/(([a-z]+)\w*\.c)$}) {
				my ($file, $area) = ($1, $2);
				push @cross, "$name:" . ($i + 1) . ": includes $h.h"
					unless $h eq $area || $h =~ /^\Q$area\E_\w+$/
					    || $reach{"$file $h.h"};
			}
		}
	}
	# A case declares its needs through the feature table (NS_NEED(NS_F_x),
	# NS_NEED_FEATURE(NS_F_x, ...), ns_child_lacks(NS_F_x)) or the fixed
	# NS_NEED_* forms: no SKIP() of its own, no reason text in a need (a
	# NS_NEED_ENV() reason is an NS_WHY_* constant; its format's arguments may
	# be strings), no hand-written "not supported" wording.  Only
	# fixtures/nsconform.h (and NS_WHY_* in an area header) hold the wording.
	my @skip;
	for my $f (grep { m{/cases/} } @c) {
		(my $name = $f) =~ s{^\Q$top\E/}{};
		open(my $fh, '<', $f) or die "$f: $!\n";
		my $text = do { local $/; <$fh> };
		my $at = sub { my $line = 1 + (substr($text, 0, $_[0]) =~ tr/\n//);
			       "$name:$line: $_[1]" };
		while ($text =~ /\b(SKIP|ns_child_skip|XFAIL)\s*\(/g) {
			push @skip, $at->($-[0], "$1() in a case");
		}
		while ($text =~ /not supported by this kernel|\bwhy\w*\s*=\s*"/g) {
			push @skip, $at->($-[0], "a hand-written reason");
		}
		my $call = qr/\b(NS_NEED\w*|NS_RUN_ADMIN_WORKER|ns_child_lacks)\s*
			      (\((?:[^()]++|(?2))*\))/x;
		while ($text =~ /$call/g) {
			my ($form, $args, $pos) = ($1, $2, $-[0]);
			my $strip = $args =~ s/'(?:\\.|[^'])*'//gr;
			if ($form eq 'NS_NEED_ENV') {
				my $cond = qr/(?:[^,()]|(\((?:[^()]++|(?-1))*\)))+/;
				push @skip, $at->($pos, "NS_NEED_ENV() without an NS_WHY_* reason")
					unless $strip =~ /^\($cond,\s*NS_WHY_\w+\s*[,)]/;
			} elsif ($form =~ /^(NS_NEED_TYPE)$/) {
				next;
			} elsif ($strip =~ /"/) {
				push @skip, $at->($pos, "$form() with reason text");
			}
			push @skip, $at->($pos, "$form() names no row of the feature table")
				if $form =~ /^(NS_NEED|NS_RUN_ADMIN_WORKER|ns_child_lacks)$/
				   && $strip !~ /NS_F_\w+|_feature\(|\.f\b|missing/;
		}
	}
	# Every area of cases/ (the word before the first "_" or ".c") has its
	# header, or is one of the areas that need the core only (README "Adding
	# a case": xlate is the translation matrix, fixtures/xlate.h).
	my %core_only = map { $_ => 1 } qw(ipc time uts);
	my %areas = map { m{^\Q$top\E/cases/([a-z]+)} ? ($1 => 1) : () } glob("$top/cases/*.c");
	my @headless = map { "cases/$_*.c: no fixtures/$_.h" }
		grep { !$core_only{$_} && !-e "$top/fixtures/$_.h" } sort keys %areas;
	return (["no fallback constant outside fixtures/uapi.h", @fallback],
		["no SKIP text in cases: needs through the feature table or NS_NEED_*",
		 @skip],
		["each area of cases/ has its header (or is core-only: ipc, time, uts)",
		 @headless],
		["each case includes nsconform.h and at most its area's header", @cross],
		["the core (fixtures/core_*.c, nsconform.h, uapi.h) includes no area header",
		 @core]);
}
