# NSConform::Render::Html - the matrix as one self-contained HTML page.
package NSConform::Render::Html;
use strict;
use warnings;
use POSIX qw(strftime);
use NSConform::Util;
use NSConform::Results;
use NSConform::Model qw(:DEFAULT !compare);
use NSConform::Features;
use NSConform::Render::Text ();
use File::Spec;

# Where the page is written (harness/report -o), so that links to the
# results folder are relative to it; undef: absolute paths.
our $out_dir;

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
.why { display: block; font-size: 0.75em; font-weight: normal; max-width: 18em;
	text-align: left; }
table.m td { text-align: center; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 4px; border: 1px solid #bbb; }
.warn { background: #fff3e0; border-left: 4px solid #fb8c00; padding: 0.3em 0.8em; }
.kerror { background: #ffebee; border-left: 6px solid #c62828; padding: 0.3em 0.8em;
	margin: 0.3em 0; }
.crashed { background: #f3e5f5; border-left: 4px solid #8e24aa; padding: 0.3em 0.8em; }
.verdict { font-size: 1.2em; padding: 0.4em 0.8em; border: 2px solid; display: inline-block; }
.verdict.bad { background: #ffebee; border-color: #c62828; }
.verdict.good { background: #e8f5e9; border-color: #2e7d32; }
.triage li { font-family: monospace; }
.toggles { position: sticky; top: 0; background: #fff; padding: 0.4em 0; z-index: 2; }
.toggles label { margin-right: 1.2em; }
tr.hide { display: none; }
td.yes { background: #c8e6c9; } td.no { background: #fff59d; } td.mixed { background: #ef9a9a; }
td.unknown { background: #f5f5f5; color: #999; }
:target { outline: 3px solid #1565c0; }
h2, :target { scroll-margin-top: 3em; }
EOF

# The toggles: hide all-ok rows, hide rows with nothing but ok and skips,
# only rows that differ between kernels, a filter.  The URL's hash sets
# them too (#hideok&hideskip&differ&filter=TEXT, after a section's id to
# scroll to: #matrix&differ), so a link can share a view.
my $JS = <<'EOF';
function nsApply() {
	var ok = document.getElementById('hideok').checked;
	var sk = document.getElementById('hideskip').checked;
	var df = document.getElementById('differ').checked;
	var f = document.getElementById('filter').value.toLowerCase();
	var rows = document.querySelectorAll('table.m tbody tr.row');
	var shown = 0;
	for (var i = 0; i < rows.length; i++) {
		var r = rows[i];
		var hide = (ok && r.dataset.allok === '1') || (sk && r.dataset.okskip === '1')
			|| (df && r.dataset.differ !== '1')
			|| (f && r.dataset.id.toLowerCase().indexOf(f) < 0);
		r.classList.toggle('hide', hide);
		if (!hide) shown++;
	}
	document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' rows';
}
function nsHash() {
	var h = decodeURIComponent(location.hash.replace(/^#/, '')).split('&');
	for (var i = 0; i < h.length; i++) {
		if (h[i] === 'hideok' || h[i] === 'hideskip' || h[i] === 'differ')
			document.getElementById(h[i]).checked = true;
		else if (h[i].indexOf('filter=') === 0)
			document.getElementById('filter').value = h[i].substring(7);
	}
	nsApply();
	if (h.length > 1 && document.getElementById(h[0]))
		document.getElementById(h[0]).scrollIntoView();
}
window.addEventListener('DOMContentLoaded', nsHash);
EOF

sub href {
	my ($path) = @_;
	my $p = defined $out_dir ? File::Spec->abs2rel(File::Spec->rel2abs($path), $out_dir)
				 : File::Spec->rel2abs($path);
	$p =~ s{([^A-Za-z0-9/._~+-])}{sprintf '%%%02X', ord $1}ge;
	return $p;
}

# A reference of fixtures/data/expectations, linked when it names a commit, a
# stable release or a man page.
sub ref_html {
	my ($ref) = @_;
	my $url = reference_url($ref // '');
	return h($ref) unless $url;
	return "<a href=\"" . h($url) . "\" title=\"" . h(reference_text($ref)) . "\">" . h($ref)
	    . "</a>";
}

sub anchor { (my $s = join('-', @_)) =~ s/[^A-Za-z0-9_.-]/_/g; return "c-$s"; }

# The verdict, then every failure, regression and deviation as a link.
sub triage {
	my ($cols, $ids, $findings, $cmp) = @_;
	my $v = verdict($cols, $ids);
	my ($known, $skip) = @$v{qw(known skips)};
	my $bad = $v->{failures};
	my $regs = $cmp ? $cmp->{regressions} : [];
	my @err = @{$v->{errors}};
	my $nbad = @$bad + @$regs;
	my @kern = grep { defined $_->{crashed} } @$cols;
	my %k = map { $_->{kernel} => 1 } @$cols;
	my $word = @err ? 'ERROR' : $nbad || $v->{result} ne 'PASS' ? 'FAILED' : 'PASSED';
	out("<p class=\"verdict " . ($word eq 'PASSED' ? 'good' : 'bad') . "\"><b>$word</b>: "
	    . (@err ? scalar(@err) . " kernel(s) could not be run, " : '') . scalar(@$bad)
	    . " unexpected failure(s)" . ($cmp ? ", " . scalar(@$regs) . " regression(s)" : '')
	    . ", " . scalar(@$known) . " known deviation(s), " . scalar(keys %$skip)
	    . " distinct skip(s) over " . scalar(keys %k) . " kernel(s) and " . scalar(@$cols)
	    . " column(s)" . (@kern ? "; a kernel crashed" : '') . "</p>\n");
	out("<div class=\"kerror\"><b>" . h("$_->{kernel}: ERROR, " . ($_->{error_line} =~
		/^the kernel could not be run/ ? 'the kernel could not be run'
		: 'its results could not be read')) . "</b>: " . h($_->{error}) . "</div>\n")
	    for @err;
	if (@$regs) {
		out("<h2 id=\"regressions\">Regressions against the baseline</h2>\n"
		    . "<ul class=\"triage\">\n");
		for my $e (@$regs) {
			out("<li><b>" . h($e->{columns}) . "</b> " . h($e->{case}) . ": "
			    . h(NSConform::Render::Text::describe($e, 'regressions')) . "</li>\n");
		}
		out("</ul>\n");
	}
	if (@$bad) {
		out("<h2 id=\"failures\">Failures</h2>\n<ul class=\"triage\">\n");
		for (grouped($bad)) {
			my ($c, $r) = @$_;
			my $a = $r->{synthetic} && ($r->{n} // 1) > 1 ? ''
			      : " href=\"#" . anchor($c->{label}, $r->{id}) . "\"";
			out("<li><span class=\"$r->{status}\">" . h($LABEL{$r->{status}})
			    . "</span> <a$a>" . h("$c->{label} $r->{id}") . "</a>: "
			    . h($r->{reason}) . "</li>\n");
		}
		out("</ul>\n");
	}
	my @stale = grep { $_->{state} eq 'stale' } @{$findings // []};
	if (@$known || @stale) {
		out("<h2 id=\"deviations\">Deviations (fixtures/data/expectations)</h2>\n"
		    . "<ul class=\"triage\">\n");
		my (%by, @order);
		for (@$known) {	# one line per case and deviation, its columns linked
			my ($c, $r) = @$_;
			my $k = "$r->{id}\0$r->{known}{reason}\0$r->{known}{reference}";
			push @order, $k unless $by{$k};
			push @{$by{$k}}, "<a href=\"#" . anchor($c->{label}, $r->{id}) . "\">"
			    . h($c->{label}) . "</a>";
		}
		for my $k (@order) {
			my ($id, $why, $ref) = split /\0/, $k, 3;
			out("<li><span class=\"known\">known</span> " . h($id) . " ("
			    . join(' ', @{$by{$k}}) . "): " . h($why) . " [" . ref_html($ref)
			    . "]</li>\n");
		}
		out("<li>stale expectation " . h("$_->{case} ($_->{kernels}): $_->{stale_why}")
		    . "</li>\n") for @stale;
		out("</ul>\n");
	}
	return $skip;
}

sub toggles {
	# All-ok rows start hidden: the page opens on the rows that need reading.
	out("<div class=\"toggles\"><label><input type=\"checkbox\" id=\"hideok\" checked"
	    . " onchange=\"nsApply()\"> hide all-ok rows</label>"
	    . "<label><input type=\"checkbox\" id=\"hideskip\" onchange=\"nsApply()\">"
	    . " hide rows of only ok and skips</label>"
	    . "<label><input type=\"checkbox\" id=\"differ\" onchange=\"nsApply()\">"
	    . " only rows that differ between kernels</label>"
	    . "<label>filter <input type=\"search\" id=\"filter\" oninput=\"nsApply()\""
	    . " placeholder=\"case or test\"></label> <span id=\"shown\"></span></div>\n");
}

# data-* of a matrix row: all ok; only ok and skips; differs between
# kernels (the same pass shows different statuses on two kernels).
sub row_data {
	my ($cols, $id) = @_;
	my %by_pass;
	my ($allok, $okskip) = (1, 1);
	for my $c (@$cols) {
		my $st = shown(cell($c, $id));
		$allok = 0 unless $st =~ /^(pass|xfail)$/;
		$okskip = 0 unless $st =~ /^(pass|xfail|skip)$/;
		$by_pass{$c->{pass}}{$st} = 1;
	}
	my $differ = grep { keys %$_ > 1 } values %by_pass;
	return " data-id=\"" . h($id) . "\" data-allok=\"$allok\" data-okskip=\"$okskip\""
	     . " data-differ=\"" . ($differ ? 1 : 0) . "\"";
}

sub links {
	my ($cols) = @_;
	my %seen;
	out("<h2 id=\"kernels\">Kernels: logs and raw TAP</h2>\n<ul>\n");
	for my $c (grep { !$seen{$_->{dir}}++ } @$cols) {
		my @l;
		for my $f (qw(klog dmesg config-ns meta)) {
			push @l, "<a href=\"" . h(href("$c->{dir}/$f")) . "\">$f</a>"
			    if -e "$c->{dir}/$f";
		}
		for my $p (grep { $_->{dir} eq $c->{dir} } @$cols) {
			push @l, "<a href=\"" . h(href("$c->{dir}/$p->{pass}")) . "/\">$p->{pass}"
			    . " TAP</a>" if -d "$c->{dir}/$p->{pass}";
		}
		out("<li><b>" . h($c->{kernel}) . "</b> (run " . h($c->{run}) . "): "
		    . (@l ? join(', ', @l) : 'no files') . "</li>\n");
	}
	out("</ul>\n");
}

sub skips {
	my ($skip) = @_;
	return unless %$skip;
	my %by;
	for my $k (keys %$skip) {
		my ($id, $why) = split /\0/, $k, 2;
		push @{$by{$why}}, [$id, $skip->{$k}];
	}
	out("<h2 id=\"skips\">Skips</h2>\n");
	for my $why (sort { @{$by{$b}} <=> @{$by{$a}} || $a cmp $b } keys %by) {
		out("<details><summary>" . h($why) . " (" . scalar(@{$by{$why}})
		    . " case(s))</summary><ul>\n");
		out("<li><code>" . h($_->[0]) . "</code>: " . h(join(', ', @{$_->[1]})) . "</li>\n")
		    for sort { $a->[0] cmp $b->[0] } @{$by{$why}};
		out("</ul></details>\n");
	}
}

sub feature_html {
	my ($t) = @_;
	return unless @{$t->{features}} || @{$t->{not_skipped}};
	out("<h2 id=\"features\">Features by kernel</h2>\n<p>From the SKIP reasons"
	    . " <code>&lt;feature&gt; not supported by this kernel (added in X.Y)</code>;"
	    . " ? = none of its tests ran there.</p>\n<table class=\"m\"><thead><tr>"
	    . "<th class=\"case\">feature</th><th>added in</th>");
	out("<th>" . h($_->{label}) . "</th>") for @{$t->{kernels}};
	out("</tr></thead><tbody>\n");
	for my $f (@{$t->{features}}) {
		out("<tr><th class=\"case\">" . h($f->{feature}) . "</th><td>" . h($f->{added})
		    . "</td>");
		for my $k (@{$t->{kernels}}) {
			my $v = $f->{on}{$k->{key}};
			out("<td class=\"" . ($v eq '?' ? 'unknown' : $v) . "\" title=\""
			    . h($f->{why}{$k->{key}}) . "\">" . h($v) . "</td>");
		}
		out("</tr>\n");
	}
	out("</tbody></table>\n");
	out("<p>No result SKIPped for: " . h(join(', ', map { "$_->{feature} ($_->{added})" }
						@{$t->{not_skipped}})) . "</p>\n")
	    if @{$t->{not_skipped}};
}


sub matrix {
	my ($cols, $ids, $title, $findings, $cmp) = @_;
	my $now = strftime('%Y-%m-%d %H:%M:%S UTC', gmtime);
	out("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
	out("<title>nsconform: " . h($title) . "</title>\n<style>\n$CSS</style>\n"
	    . "<script>\n$JS</script></head><body>\n");
	out("<h1>nsconform results: " . h($title) . "</h1>\n");
	out("<p>Generated $now by harness/report"
	    . ($cmp ? ", compared with the baseline: " . h($cmp->{title}) : '') . ". Jump to:"
	    . " <a href=\"#matrix\">matrix</a>, <a href=\"#skips\">skips</a>,"
	    . " <a href=\"#features\">features</a>, <a href=\"#kernels\">logs</a>.</p>\n");
	my $skip = triage($cols, $ids, $findings, $cmp);
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
	out("<h2 id=\"matrix\">Matrix</h2>\n");
	toggles();
	out("<table class=\"m\">\n<thead><tr><th class=\"case\">case</th>");
	out("<th title=\"" . h(column_key($_)) . "\">" . h($_->{label}) . "</th>") for @$cols;
	out("</tr></thead>\n<tbody>\n");
	$sumrow->();
	for my $id (@$ids) {
		out("<tr class=\"row\"" . row_data($cols, $id) . "><th class=\"case\">" . h($id)
		    . "</th>");
		out(cell_html($_, $id)) for @$cols;
		out("</tr>\n");
	}
	out("</tbody>\n<tfoot>\n");
	$sumrow->();
	out("</tfoot></table>\n");
	skips($skip);
	feature_html(feature_table($cols, $ids));
	findings($findings) if $findings && @$findings;
	links($cols);
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
	my $aid = " id=\"" . anchor($c->{label}, $id) . "\"";
	my $tap = "$c->{dir}/$c->{pass}/$r->{binary}.tap";
	my $raw = -e $tap ? "<a href=\"" . h(href($tap)) . "\">raw TAP</a>" : '';
	my @d = grep { /\S/ } @{$r->{diag}};
	return "<td class=\"pass\" title=\"" . h($tip) . "\">ok</td>" if $st eq 'pass' && !@d;
	my $body = join("\n", grep { length } $why, (grep { !/^#\s*\Q$why\E$/ } @d), $r->{raw});
	# A skip's reason is shown in the cell, not only on hover.
	my $why_html = $st eq 'skip' && length $r->{reason}
		     ? "<span class=\"why\">" . h($r->{reason}) . "</span>" : '';
	return "<td class=\"$st\" title=\"" . h($tip) . "\"$aid><details><summary>"
	    . h($LABEL{$st}) . "$why_html</summary><pre>" . h($body) . "</pre>$raw</details></td>";
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
				  $e->{fixed} || '-') . "<td>" . ref_html($e->{reference})
		    . "</td><td>" . h($state) . "</td></tr>\n");
	}
	out("</tbody></table>\n");
}

1;
