# NSConform::Util - what every nsconform Perl tool shares: its name in
# messages, warnings gathered for the end, fatal errors, the output handle.
package NSConform::Util;
use strict;
use warnings;
use Exporter qw(import);
our @EXPORT = qw(fatal warning warnings_list out set_out slurp $ME);

our $ME = 'harness/report';
my @warnings;
my $OUT = \*STDOUT;

sub fatal { print STDERR "$ME: $_[0]\n"; exit 2; }
sub warning { push @warnings, $_[0]; }
sub warnings_list { return @warnings; }
sub out { print $OUT @_; }
sub set_out { $OUT = $_[0]; binmode($OUT, ':utf8'); }

sub slurp {
	my ($file) = @_;
	open(my $fh, '<', $file) or return undef;
	local $/;
	my $s = <$fh>;
	close($fh);
	return $s // '';
}

1;
