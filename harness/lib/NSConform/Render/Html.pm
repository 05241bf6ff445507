# NSConform::Render::Html - the matrix as one self-contained HTML page.
package NSConform::Render::Html;
use strict;
use warnings;
use POSIX qw(strftime);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);

sub h {
	my $s = shift // '';
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/>/&gt;/g;
	$s =~ s/"/&quot;/g;
	$s =~ s/[\x00-\x08\x0b\x0c\x0e-\x1f]//g;
	return $s;
}

my $CSS = <<'EOF';
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; }
table.m { border-collapse: collapse; }
table.m th, table.m td { border: 1px solid #bbb; padding: 2px 6px; vertical-align: top; }
table.m thead th { background: #eee; position: sticky; top: 0; }
table.m th.case { text-align: left; font-family: monospace; font-weight: normal;
	white-space: nowrap; }
table.m td { text-align: center; min-width: 4.5em; }
table.m tr.sum td, table.m tr.sum th { background: #f4f4f4; font-size: 0.85em; text-align: left; }
td details summary { cursor: pointer; list-style: none; }
td details[open] { text-align: left; }
td pre, .log pre { text-align: left; font-size: 0.8em; font-weight: normal; white-space: pre-wrap;
	max-width: 45em; margin: 0.3em 0; }
.pass { background: #c8e6c9; } .xfail { background: #dcedc8; }
.skip { background: #fff59d; } .known { background: #bbdefb; }
.fail { background: #ef9a9a; font-weight: bold; }
.timeout { background: #ffcc80; font-weight: bold; }
.crash { background: #ce93d8; font-weight: bold; } .notrun { background: #d7ccc8; }
.health { background: #f48fb1; font-weight: bold; }
.error { background: #b0bec5; font-weight: bold; }
.missing { background: #f5f5f5; color: #999; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 4px; border: 1px solid #bbb; }
.warn { background: #fff3e0; border-left: 4px solid #fb8c00; padding: 0.3em 0.8em; }
.crashed { background: #f3e5f5; border-left: 4px solid #8e24aa; padding: 0.3em 0.8em; }
EOF

sub matrix {
	my ($cols, $ids, $title, $findings) = @_;
	my $now = strftime('%Y-%m-%d %H:%M:%S UTC', gmtime);
	out("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
	out("<title>nsconform: " . h($title) . "</title>\n<style>\n$CSS</style></head><body>\n");
	out("<h1>nsconform results: " . h($title) . "</h1>\n");
	out("<p>Generated $now by harness/report.</p>\n");
	out("<p class=\"legend\">");
	out("<span class=\"$_\">" . h($LABEL{$_}) . " $_</span>") for @STATUSES;
	out("<br>Hover over a cell for its reason; click a cell to expand its diagnostics.</p>\n");
	out("<div class=\"warn\">" . h($_) . "</div>\n") for warnings_list();
	my %seen;
	for my $c (grep { defined $_->{crashed} && !$seen{$_->{dir}}++ } @$cols) {
		out("<div class=\"crashed\"><b>" . h("$c->{kernel} (run $c->{run})")
		    . ": the kernel crashed</b>: " . h($c->{crashed}));
		out("<details class=\"log\"><summary>kernel log (end)</summary><pre>"
		    . h($c->{kernel_log}) . "</pre></details>") if defined $c->{kernel_log};
		out("</div>\n");
	}
	my @sums = map { summarise($_, $ids) } @$cols;
	my $sumrow = sub {
		out("<tr class=\"sum\"><th class=\"case\">summary</th>");
		out("<td>" . h(summary_text($_)) . "</td>") for @sums;
		out("</tr>\n");
	};
	out("<table class=\"m\">\n<thead><tr><th class=\"case\">case</th>");
	out("<th title=\"" . h(column_key($_)) . "\">" . h($_->{label}) . "</th>") for @$cols;
	out("</tr></thead>\n<tbody>\n");
	$sumrow->();
	for my $id (@$ids) {
		out("<tr><th class=\"case\">" . h($id) . "</th>");
		out(cell_html($_, $id)) for @$cols;
		out("</tr>\n");
	}
	out("</tbody>\n<tfoot>\n");
	$sumrow->();
	out("</tfoot></table>\n");
	findings($findings) if $findings && @$findings;
	out("<h2>Columns</h2>\n<ul>\n");
	out("<li><b>" . h($_->{label}) . "</b>: " . h(column_key($_)) . "</li>\n") for @$cols;
	out("</ul>\n</body></html>\n");
}

sub cell_html {
	my ($c, $id) = @_;
	my $r = cell($c, $id);
	my $st = shown($r);
	return "<td class=\"missing\" title=\"no result\">-</td>" unless $r;
	my $why = reason_of($r);
	my $tip = "$id on $c->{label}: $st" . (length $why ? " - $why" : '');
	my @d = grep { /\S/ } @{$r->{diag}};
	return "<td class=\"pass\" title=\"" . h($tip) . "\">ok</td>" if $st eq 'pass' && !@d;
	my $body = join("\n", grep { length } $why, (grep { !/^#\s*\Q$why\E$/ } @d), $r->{raw});
	return "<td class=\"$st\" title=\"" . h($tip) . "\"><details><summary>"
	    . h($LABEL{$st}) . "</summary><pre>" . h($body) . "</pre></details></td>";
}

sub findings {
	my ($f) = @_;
	out("<h2>Known deviations</h2>\n<table class=\"m\">\n<thead><tr><th>test</th><th>claim</th>"
	    . "<th>affected releases</th><th>first fixed</th><th>reference</th><th>state</th>"
	    . "</tr></thead>\n<tbody>\n");
	for my $e (@$f) {
		my $state = $e->{state} eq 'stale' ? "stale: $e->{stale_why}"
			  : @{$e->{seen_on}} ? 'seen on ' . join(', ', @{$e->{seen_on}})
			  : 'not in this run';
		out("<tr>" . join('', map { "<td>" . h($_) . "</td>" } $e->{case},
				  $e->{claim} || $e->{reason}, "$e->{kernels} ($e->{pass})",
				  $e->{fixed} || '-', $e->{reference}, $state) . "</tr>\n");
	}
	out("</tbody></table>\n");
}

1;
