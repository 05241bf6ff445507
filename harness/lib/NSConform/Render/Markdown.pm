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

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	out("# nsconform results: " . md($title) . "\n\n");
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
	out('| **summary** | ' . join(' | ', map { md(summary_text(summarise($_, $ids))) } @$cols)
	    . " |\n");
	out("\n## Columns\n\n");
	out("- **" . md($_->{label}) . "**: " . md(column_key($_)) . "\n") for @$cols;
	my ($bad, $known, $skip) = details($cols, $ids);
	if (@$bad) {
		out("\n## Failures\n\n");
		for (grouped($bad)) {	# a crash's rows as one line, as in text
			my ($c, $r) = @$_;
			out("- **$LABEL{$r->{status}}** " . md($c->{label}) . " `$r->{id}`: "
			    . md($r->{reason}) . "\n");
			my @d = grep { /\S/ } @{$r->{diag}};
			if (@d) {
				out("\n  ```\n");
				out("  $_\n") for @d;
				out("  ```\n\n");
			}
		}
	}
	if (@$known) {
		out("\n## Known\n\n");
		out("- " . md($_->[0]{label}) . " `$_->[1]{id}`: " . md(reason_of($_->[1])) . "\n")
		    for @$known;
	}
	if (%$skip) {
		out("\n## Skips\n\n");
		for my $k (sort keys %$skip) {
			my ($id, $why) = split /\0/, $k, 2;
			out("- `$id` (" . md(join(', ', @{$skip->{$k}})) . "): " . md($why) . "\n");
		}
	}
	feature_table_md(feature_table($cols, $ids));
	if ($findings && @$findings) {
		out("\n## Known deviations\n\n");
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
		    . md($e->{fixed} || '-') . ' | ' . md($e->{reference}) . ' | ' . md($seen)
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
