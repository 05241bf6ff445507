# NSConform::Select - which tests a run selects: the one place that lists the
# tests of case binaries and matches --test and --ns against them, for
# harness/check, harness/matrix and harness/bisect (through
# harness/lib/nsconform.sh, which runs this file as a command).
#
# A test's selectable name is the name its TAP line reports, less a
# "global." prefix, after its binary: mnt_pivot/pivot.put_old_shared_einval.
# pivot_root_fails_with_that_errno, uts/unshare_moves_caller.  The names
# come from the binary's kselftest "-l" table, read by its fields (the
# table is printf("%-20s %-25s %s") of fixture, variant and test; a name
# wider than its column pushes the next one right, so columns cannot be
# cut at fixed offsets).
#
# A --test PATTERN is CASE/TEST or TEST, where either part may hold the
# wildcards * and ? of fixtures/data/expectations (uts/*, */needs_root_*,
# *unbindable*).  TEST matches a test's name, or the name without its
# leading fixture or fixture.variant parts, so prop.unbindable_bind_fails_einval
# is also unbindable_bind_fails_einval.  A pattern without wildcards that
# names several tests is ambiguous (an error naming them); one that names
# no test is an error.  --test can be given many times: the union.
#
# --ns TYPE keeps the case binaries of a namespace type, by the prefix of
# their case file (cases/TYPE.c, cases/TYPE_*.c): pid, user, mnt, net, ipc,
# uts, cgroup, time and nsfs (the nsfs ioctls, setns/unshare errors, listns
# and the lifetime of namespaces of every type).  Repeatable, or a comma
# list: the union.  --ns, the CASE arguments and --test narrow each other.
#
# Command use: perl Select.pm list [--test P]... [--ns T]... CASE...
#              perl Select.pm select [--test P]... [--ns T]... CASE...
#              perl Select.pm resolve NAME CASE...
# list prints CASE/TEST for every test selected; select prints "case PATH" for each
# binary to run and "arg WORD" for each argument of the case binaries:
# "-r" "CASE/fixture.test" pairs for a binary of which only some tests
# run (nsrun passes a "-r CASE/NAME" on to CASE only, as -r NAME);
# resolve prints the one CASE/TEST a NAME (no wildcards) stands for.
# Errors: one line on stderr, exit 2.
package NSConform::Select;
use strict;
use warnings;
use File::Basename qw(basename);
use Exporter qw(import);
our @EXPORT_OK = qw(case_tests select_tests ns_types);

our @NS_TYPES = qw(pid user mnt net ipc uts cgroup time nsfs);

sub ns_types { return @NS_TYPES; }

sub fail { print STDERR "$_[0]\n"; exit 2; }

# The tests of one case binary, in run order: [name as the TAP says it
# (global.x, fix.var.test), selectable name (x, fix.var.test)].
sub case_tests {
	my ($bin) = @_;
	my $pid = open(my $fh, '-|');
	fail("cannot run $bin: $!") unless defined $pid;
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		open(STDOUT, '>', '/dev/null');
		exec($bin, '-l') or exit 127;
	}
	my @lines = <$fh>;
	close($fh);
	my (@out, $fix, @var, @test);
	my $flush = sub {
		for my $t (@test) {
			for my $v (@var ? @var : ('')) {
				my $full = "$fix." . ($v eq '' ? '' : "$v.") . $t;
				(my $name = $full) =~ s/^global\.//;
				push @out, [$full, $name];
			}
		}
		@var = @test = ();
	};
	for my $l (@lines) {
		chomp $l;
		next if $l =~ /^# FIXTURE/;
		if ($l =~ /^-+$/) { $flush->(); next; }
		next unless $l =~ /\S/ || defined $fix;
		my $rest;
		if ($l =~ /^(\S+)/) {		# the first line of a fixture
			$flush->();
			$fix = $1;
			my $w = length($fix) > 20 ? length($fix) : 20;
			$rest = length($l) > $w + 1 ? substr($l, $w + 1) : '';
		} else {
			$rest = length($l) > 21 ? substr($l, 21) : '';
		}
		next unless defined $fix;
		my ($v, $t);
		if ($rest =~ /^(\S+)\s*(\S*)/) {	# a variant, maybe a test
			($v, $t) = ($1, $2);
		} else {
			($t) = $rest =~ /(\S+)/;
		}
		push @var, $v if defined $v;
		push @test, $t if defined $t && length $t;
	}
	$flush->() if defined $fix;
	return @out;
}

sub glob_re {
	my ($g) = @_;
	my $re = join '', map { $_ eq '*' ? '.*' : $_ eq '?' ? '.' : quotemeta($_) }
		 split /([*?])/, $g;
	return qr/^$re$/;
}

# The names a test answers to: its name, its TAP name, and its name less
# leading fixture/variant parts.
sub aliases {
	my ($full, $name) = @_;
	my @a = ($name, $full);
	my @p = split /\./, $name;
	push @a, join('.', @p[$_ .. $#p]) for 1 .. $#p;
	return @a;
}

sub ns_filter {
	my ($types, @cases) = @_;
	my @want;
	for my $t (map { split /,/ } @$types) {
		next if $t eq '';
		fail("unknown namespace type '$t' (" . join(', ', @NS_TYPES) . ')')
		    unless grep { $_ eq $t } @NS_TYPES;
		push @want, $t;
	}
	return @cases unless @want;
	my @kept = grep { my $b = basename($_); grep { $b =~ /^\Q$_\E(?:_|$)/ } @want } @cases;
	fail('no case binary of namespace type ' . join(', ', @want)) unless @kept;
	return @kept;
}

# (binaries, args) of a selection; see the header.
sub select_tests {
	my ($tests, $types, @cases) = @_;
	@cases = ns_filter($types, @cases);
	return (\@cases, []) unless @$tests;
	my %tests = map { $_ => [case_tests($_)] } @cases;
	my %chosen;
	for my $p (@$tests) {
		fail('--test takes a name (try --list)') if $p eq '';
		my ($cp, $tp) = $p =~ m{^([^/]*)/(.*)$} ? ($1, $2) : ('*', $p);
		fail("--test $p: no test name after the case (e.g. uts/*)") if $tp eq '';
		my ($cre, $tre) = (glob_re($cp), glob_re($tp));
		my @hits;
		for my $c (@cases) {
			next unless basename($c) =~ $cre;
			for my $t (@{$tests{$c}}) {
				push @hits, [$c, $t] if grep { $_ =~ $tre } aliases(@$t);
			}
		}
		if (!@hits) {
			my ($bin) = grep { basename($_) eq $p } @cases;
			fail("no test matches '$p', a case binary: --test '$p/*' runs its tests")
			    if $bin;
			fail("no test matches '$p' (harness/check --list lists the tests)");
		}
		if ($p !~ /[*?]/ && @hits > 1) {
			# An exact name is never ambiguous with a shorter alias of another test.
			my @exact = grep { $_->[1][1] eq $tp || $_->[1][0] eq $tp } @hits;
			@hits = @exact if @exact == 1;
			fail("'$p' is ambiguous: it names " . scalar(@hits) . " tests: "
			     . join(' ', map { basename($_->[0]) . "/$_->[1][1]" } @hits))
			    if @hits > 1;
		}
		$chosen{$_->[0]}{$_->[1][0]} = 1 for @hits;
	}
	my (@bins, @args);
	for my $c (@cases) {
		my $ch = $chosen{$c} or next;
		push @bins, $c;
		next if keys %$ch == @{$tests{$c}};	# all its tests: no filter
		push @args, map { ('-r', basename($c) . "/$_->[0]") }
			    grep { $ch->{$_->[0]} } @{$tests{$c}};
	}
	return (\@bins, \@args, \%chosen, \%tests);
}

# Options of the commands: --test and --ns, then the case binaries.
sub options {
	my (@a) = @_;
	my (@t, @n);
	while (@a && $a[0] =~ /^--(test|ns)$/) {
		my $o = shift @a;
		fail("$o needs a value (try --help)") unless @a;
		push @{$o eq '--test' ? \@t : \@n}, shift @a;
	}
	shift @a if @a && $a[0] eq '--';
	return (\@t, \@n, @a);
}

sub main {
	my ($cmd, @a) = @_;
	$cmd //= '';
	if ($cmd eq 'list') {
		my ($t, $n, @cases) = options(@a);
		if (@$t) {
			my ($bins, undef, $chosen, $tests) = select_tests($t, $n, @cases);
			for my $c (@$bins) {
				print basename($c), "/$_->[1]\n"
				    for grep { $chosen->{$c}{$_->[0]} } @{$tests->{$c}};
			}
			return 0;
		}
		for my $c (ns_filter($n, @cases)) {
			print basename($c), "/$_->[1]\n" for case_tests($c);
		}
	} elsif ($cmd eq 'select') {
		my ($bins, $args) = select_tests(options(@a));
		print "case $_\n" for @$bins;
		print "arg $_\n" for @$args;
	} elsif ($cmd eq 'resolve') {
		my $name = shift @a // '';
		fail("'$name' is one test, without wildcards") if $name =~ /[*?]/ || $name eq '';
		my ($bins, $args) = select_tests([$name], [], @a);
		my ($c) = @$bins;
		my ($full) = @$args ? $args->[1] =~ m{/(.*)} : ();
		($full) = map { $_->[0] } case_tests($c) unless defined $full;
		(my $n = $full) =~ s/^global\.//;
		print basename($c), "/$n\n";
	} else {
		fail("usage: Select.pm list|select|resolve ...");
	}
	return 0;
}

exit main(@ARGV) unless caller;
1;
