# NSConform::Render::Markdown - the matrix, the comparison and the findings
# as Markdown; the findings table is also what `make findings` writes into
# README.md between its marker comments.
package NSConform::Render::Markdown;
use strict;
use warnings;
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Render::Text;
use NSConform::Features;

sub md {
	my $s = shift // '';
	$s =~ s/([|\\`*_\[\]])/\\$1/g;
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/\n/ /g;
	return $s;
}

# The verdict line and the one-line reasons of kernels that could not run.
sub verdict_md {
	my ($v, $cmp) = @_;
	my $word = $v->{result} eq 'ERROR' ? 'ERROR' : $v->{result} eq 'FAIL'
		 || ($cmp && @{$cmp->{regressions}}) ? 'FAILED' : 'PASSED';
	my @err = @{$v->{errors}};
	out("**$word**: " . (@err ? scalar(@err) . " kernel(s) could not be run, " : '')
	    . scalar(@{$v->{failures}}) . " unexpected failure(s), "
	    . ($cmp ? scalar(@{$cmp->{regressions}}) . " regression(s), " : '')
	    . scalar(@{$v->{known}}) . " known deviation(s)\n\n");
	out("- **ERROR** " . md($_->{kernel}) . ": " . md($_->{error}) . "\n") for @err;
	out("\n") if @err;
}

# Verdict first, then what is wrong (failures, deviations), the full
# table last: a CI summary page opens on what needs reading.
sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	out("# nsconform results: " . md($title) . "\n\n");
	my $v = verdict($cols, $ids);
	verdict_md($v);
	my ($bad, $known, $skip) = @$v{qw(failures known skips)};
	if (@$bad) {
		out("## Failures\n\n");
		for (grouped($bad)) {	# a crash's rows as one line, as in text
			my ($c, $r) = @$_;
			out("- **$LABEL{$r->{status}}** " . md($c->{label}) . " `$r->{id}`: "
			    . md($r->{reason}) . "\n");
			my @d = grep { /\S/ && $_ !~ /^#\s*\Q$r->{reason}\E\s*$/ } @{$r->{diag}};
			if (@d) {
				out("\n  ```\n");
				out("  $_\n") for @d;
				out("  ```\n\n");
			}
		}
		out("\n");
	}
	if (@$known) {
		out("## Known deviations in this run\n\n");
		my (%by, @order);
		for (@$known) {	# one line per case and deviation, its columns listed
			my $e = $_->[1]{known};
			my $k = "$_->[1]{id}\0known $_->[1]{status}: $e->{reason}\0$e->{reference}";
			push @order, $k unless $by{$k};
			push @{$by{$k}}, $_->[0]{label};
		}
		for my $k (@order) {
			my ($id, $why, $ref) = split /\0/, $k, 3;
			my $url = reference_url($ref);
			out("- `$id` (" . md(join(', ', @{$by{$k}})) . "): " . md($why) . " ["
			    . ($url ? '[' . md($ref) . "]($url)" : md($ref)) . "]\n");
		}
		out("\n");
	}
	if (%$skip) {
		out("## Skips\n\n");
		for my $k (sort keys %$skip) {
			my ($id, $why) = split /\0/, $k, 2;
			out("- `$id` (" . md(join(', ', @{$skip->{$k}})) . "): " . md($why) . "\n");
		}
		out("\n");
	}
	if (@$ids) {
		out("## All results\n\n");
		out('| case | ' . join(' | ', map { md($_->{label}) } @$cols) . " |\n");
		out('|---|' . join('', map { ':---:|' } @$cols) . "\n");
		for my $id (@$ids) {
			my @cells;
			for my $c (@$cols) {
				my $st = shown(cell($c, $id));
				my $t = $LABEL{$st};
				$t = "**$t**" if $BAD{$st};
				push @cells, $t;
			}
			out('| ' . md($id) . ' | ' . join(' | ', @cells) . " |\n");
		}
		out('| **summary** | ' . join(' | ', map { md(summary_text(summarise($_, $ids))) }
					    @$cols) . " |\n");
	}
	out("\n## Columns\n\n");
	out("- **" . md($_->{label}) . "**: " . md(column_key($_)) . "\n") for @$cols;
	feature_table_md(feature_table($cols, $ids)) if @$ids;
	if ($findings && @$findings) {
		out("\n## Known deviations (fixtures/data/expectations)\n\n");
		out(findings_table($findings));
	}
	warnings_section();
}

sub feature_table_md {
	my ($t) = @_;
	return unless @{$t->{features}} || @{$t->{not_skipped}};
	out("\n## Features by kernel\n\nFrom the SKIP reasons `<feature> not supported by this"
	    . " kernel (added in X.Y)`; ? = none of its tests ran there.\n\n");
	out('| feature | added in | ' . join(' | ', map { md($_->{label}) } @{$t->{kernels}})
	    . " |\n");
	out('|---|---|' . join('', map { ':---:|' } @{$t->{kernels}}) . "\n");
	for my $f (@{$t->{features}}) {
		out('| ' . md($f->{feature}) . " | $f->{added} | "
		    . join(' | ', map { my $v = $f->{on}{$_->{key}}; $v eq 'no' ? '**no**' : $v }
			   @{$t->{kernels}}) . " |\n");
	}
	my @ns = map { "$_->{feature} ($_->{added})" } @{$t->{not_skipped}};
	out("\nNo result SKIPped for: " . md(join(', ', @ns)) . "\n") if @ns;
}

sub warnings_section {
	my @w = warnings_list();
	return unless @w;
	out("\n## Warnings\n\n");
	out("- " . md($_) . "\n") for @w;
}

# The findings as a Markdown table (README.md's section).
sub findings_table {
	my ($f) = @_;
	return "No known deviations: fixtures/data/expectations has no entry.\n" unless @$f;
	my $s = "| test | claim | affected releases | first fixed | reference | seen on |\n"
	      . "|---|---|---|---|---|---|\n";
	for my $e (@$f) {
		my $seen = @{$e->{seen_on}} ? join(', ', @{$e->{seen_on}})
			 : $e->{state} eq 'stale' ? "stale: $e->{stale_why}" : 'not in this run';
		$s .= '| `' . md($e->{case}) . '` | ' . md($e->{claim} || $e->{reason}) . ' | '
		    . md("$e->{kernels}" . ($e->{pass} eq '*' ? '' : " ($e->{pass} pass)")) . ' | '
		    . md($e->{fixed} || '-') . ' | '
		    . (reference_url($e->{reference}) ? '[' . md($e->{reference}) . ']('
		       . reference_url($e->{reference}) . ')' : md($e->{reference})) . ' | '
		    . md($seen)
		    . " |\n";
	}
	return $s;
}

# Rewrite FILE between <!-- findings:begin --> and <!-- findings:end -->.
sub update_readme {
	my ($file, $f, $run) = @_;
	my $s = slurp($file) // fatal("$file: cannot read: $!");
	my $body = "<!-- findings:begin (make findings writes this from fixtures/data/expectations"
		 . " and the run $run) -->\n" . findings_table($f) . "<!-- findings:end -->";
	$s =~ s/<!-- findings:begin.*?<!-- findings:end -->/$body/s
	    or fatal("$file: no <!-- findings:begin --> ... <!-- findings:end --> markers");
	open(my $fh, '>', "$file.tmp") or fatal("$file.tmp: cannot write: $!");
	print $fh $s;
	close($fh) or fatal("$file.tmp: cannot write: $!");
	rename("$file.tmp", $file) or fatal("$file: cannot replace: $!");
}

sub compare {
	my ($doc) = @_;
	out("# nsconform comparison: " . md($doc->{title}) . "\n\n");
	out("Compared: " . join(', ', map { md("$_->{old} -> $_->{new}") } @{$doc->{pairs}})
	    . "\n\n");
	for my $s (@SECTIONS) {
		my $l = $doc->{$s->[0]};
		next unless @$l;
		out("## $s->[2]\n\n");
		out("- `$_->{case}` (" . md($_->{columns}) . "): "
		    . md(NSConform::Render::Text::describe($_, $s->[0])) . "\n") for @$l;
		out("\n");
	}
	out("Summary: " . join(', ', NSConform::Render::Text::counts($doc)) . "\n");
	warnings_section();
}

1;
