#!/bin/sh
# plots/report/report.sh: one self-contained HTML page (`make report`).
#
#   sh plots/report/report.sh [A.csv B.csv]
#
# Without arguments it reports results/results.csv (the local run) or, when
# there is none, the committed reference results/reference/results.csv.
# With two bench CSVs it reports B and adds `arenabench compare A B` (text
# and figure).  The page holds the provenance (the CSV, revision, dirty
# flag, machine: from the .meta beside the CSV), the per-planner summary
# (plots/report/summary.awk), every figure of plots/plots.sh drawn as SVG
# and inlined (no file, script or network reference), in
# $REPORT_OUT/index.html (default results/report/), written whole or not at
# all.  Environment: REPORT_OUT, RESULTS_DIR (instead of results/), BUILD
# (the arenabench build folder, default build).
set -eu

cd "$(dirname "$0")/../.."
res=${RESULTS_DIR:-results}
out=${REPORT_OUT:-$res/report}
bin=${BUILD:-build}/arenabench

say() { printf 'report: %s\n' "$*" >&2; }
die() { printf 'report: %s\n' "$1" >&2; exit "${2:-1}"; }

a=""; b=""
case $# in
0) ;;
2) a=$1; b=$2 ;;
*) die "usage: sh plots/report/report.sh [A.csv B.csv] (make report [A=old.csv B=new.csv])" 2 ;;
esac
for f in $a $b; do
	[ -f "$f" ] && [ -r "$f" ] || die "$f: no such readable file (expected a bench CSV)" 2
done
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (install it with: sh scripts/deps.sh report)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# The run to report: B, the local run, or the committed reference.
if [ -n "$b" ]; then
	csv=$b
	origin="given (B)"
	# plots/plots.sh reads RESULTS_DIR/results.csv and its .meta
	mkdir -p "$tmp/run"
	cp "$b" "$tmp/run/results.csv"
	[ ! -f "${b%.csv}.meta" ] || cp "${b%.csv}.meta" "$tmp/run/results.meta"
	plots_res=$tmp/run
elif [ -f "$res/results.csv" ]; then
	csv=$res/results.csv
	origin="local run"
	plots_res=$res
elif [ -f "$res/reference/results.csv" ]; then
	csv=$res/reference/results.csv
	origin="committed reference (no local run in $res/)"
	plots_res=$res
else
	die "no $res/results.csv and no $res/reference/results.csv: run 'make bench' first"
fi
meta=${csv%.csv}.meta
. scripts/lib/outputs.sh
# the output rules (docs/io.md) before any work
[ ! -e "$out" ] || [ -d "$out" ] || die "$out: is not a directory (REPORT_OUT names the page's folder; nothing written)" 2
[ ! -d "$out" ] || out_check "$out/index.html" "$csv" "$meta" ${a:+"$a"} || die "$out/index.html: refused (above)" 2
say "reporting $csv ($origin)"

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

# Summary (fails on a CSV that is not a bench CSV).
awk -F, -f plots/report/summary.awk "$csv" > "$tmp/summary.html" || die "$csv: not a bench CSV (above): $out/index.html not written" 2

# Provenance rows: the .meta's keys, the ones a reader needs first.
{
	printf '<tr><th>results</th><td>%s</td></tr>\n' "$(printf '%s' "$csv" | esc)"
	printf '<tr><th>origin</th><td>%s</td></tr>\n' "$(printf '%s' "$origin" | esc)"
	if [ -f "$meta" ]; then
		awk -F= '
			function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
			{ sub(/\r$/, ""); k = $1; v = $0; sub(/^[^=]*=/, "", v); m[k] = v; order[++n] = k }
			END {
				d = m["git_dirty"]
				printf "<tr><th>revision</th><td><code>%s</code>%s</td></tr>\n", esc(m["git_revision"] == "" ? "unknown" : m["git_revision"]), \
					(d == "yes" || d == "1" || d == "true") ? " <strong class=\"bad\">dirty tree</strong>" : (d == "" ? " (dirty flag not recorded)" : " (clean tree)")
				printf "<tr><th>machine</th><td>%s%s; %s</td></tr>\n", esc(m["cpu_model"] == "" ? "unknown CPU" : m["cpu_model"]), \
					m["cores"] == "" ? "" : " (" esc(m["cores"]) " cores)", esc(m["kernel"])
				for (i = 1; i <= n; i++) {
					k = order[i]
					if (k == "git_revision" || k == "git_dirty" || k == "cpu_model" || k == "cores" || k == "kernel") continue
					# one line per input: their own sections below
					if (k == "skipped_input" || k == "input_dims") continue
					printf "<tr><th>%s</th><td>%s</td></tr>\n", esc(k), esc(m[k])
				}
			}' "$meta"
	else
		printf '<tr><th>revision</th><td class="bad">unknown: no %s beside the CSV</td></tr>\n' "$(printf '%s' "${meta##*/}" | esc)"
	fi
	rev=$(git rev-parse HEAD 2>/dev/null || echo unknown)
	dirty=""
	[ -z "$(git status --porcelain 2>/dev/null)" ] || dirty=" (dirty tree)"
	printf '<tr><th>report drawn at</th><td><code>%s</code>%s; the figures and this page</td></tr>\n' "$rev" "$dirty"
} > "$tmp/provenance.html"

# The inputs the bench skipped, with the reason, and the --dim values each
# input was planned with (the .meta's skipped_input and input_dims lines;
# plots/plots.sh plans the layouts with the same values).
: > "$tmp/inputs.html"
if [ -f "$meta" ]; then
	awk '
		function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
		# PATH: TEXT, split at the first ": " after the path (a model line of a dims file)
		function row(v,   i) { i = index(v, ": "); return "<tr><td><code>" esc(i ? substr(v, 1, i - 1) : v) "</code></td><td>" esc(i ? substr(v, i + 2) : "") "</td></tr>" }
		{ sub(/\r$/, "") }
		/^skipped_input=/ { sub(/^skipped_input=/, ""); sk[++ns] = row($0) }
		/^input_dims=/ { sub(/^input_dims=/, ""); dm[++nd] = row($0) }
		END {
			printf "<h2 id=\"inputs\">Inputs skipped and dimensions given</h2>\n"
			if (ns) {
				printf "<p class=\"bad\">%d input%s could not be planned and %s skipped; the run went on with the others (<code>bench --strict</code> stops at the first instead).</p>\n", ns, (ns > 1 ? "s" : ""), (ns > 1 ? "were" : "was")
				printf "<table class=\"skipped\">\n<tr><th>input</th><th>reason</th></tr>\n"
				for (i = 1; i <= ns; i++) print sk[i]
				printf "</table>\n"
			} else
				printf "<p>No input was skipped.</p>\n"
			if (nd) {
				printf "<p>%d input%s planned with <code>--dim</code> values (the figures plan them with the same values):</p>\n", nd, (nd > 1 ? "s were" : " was")
				printf "<table class=\"dims\">\n<tr><th>input</th><th>--dim values</th></tr>\n"
				for (i = 1; i <= nd; i++) print dm[i]
				printf "</table>\n"
			}
		}' "$meta" > "$tmp/inputs.html"
fi

# Figures: every one of plots/plots.sh, as SVG.
say "drawing the figures (plots/plots.sh, SVG)"
if ! RESULTS_DIR=$plots_res PLOTS_OUT=$tmp/figs FORMATS=svg sh plots/plots.sh 2> "$tmp/plots.err"; then
	cat "$tmp/plots.err" >&2
	die "plots/plots.sh failed: $out/index.html not written"
fi

# The comparison, when two runs are given.
: > "$tmp/compare.html"
if [ -n "$a" ]; then
	[ -x "$bin" ] || die "$bin not built (make): needed for the comparison"
	rc=0
	"$bin" compare "$a" "$b" --ratios "$tmp/ratios.txt" > "$tmp/compare.txt" 2> "$tmp/compare.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$tmp/compare.err" >&2
		die "arenabench compare $a $b failed (exit $rc): $out/index.html not written" "$rc"
	fi
	if [ -s "$tmp/ratios.txt" ]; then
		gnuplot -e "datafile='$tmp/ratios.txt'; out='$tmp/figs/compare.svg'; title_a='$a'; title_b='$b'" plots/compare.gp ||
			die "plots/compare.gp failed: $out/index.html not written"
	fi
	{
		printf '<h2 id="compare">Comparison: A = %s, B = %s</h2>\n' "$(printf '%s' "$a" | esc)" "$(printf '%s' "$b" | esc)"
		printf '<p>arenabench compare A B (docs/compare.md): rows matched by graph, planner, align and options.</p>\n<pre class="compare">'
		esc < "$tmp/compare.txt"
		printf '</pre>\n'
	} > "$tmp/compare.html"
fi

# One figure: the SVG without its XML prolog and doctype, its ids made
# unique to the figure (every gnuplot SVG uses the same ones).
inline_svg() { # FILE PREFIX
	sed -e '/^<?xml/d' -e '/^<!DOCTYPE/,/>$/d' \
		-e "s/ id=\"/ id=\"$2-/g" -e "s/href=\"#/href=\"#$2-/g" -e "s/url(#/url(#$2-/g" "$1"
}
caption() {
	case $1 in
	overhead) echo "Peak / lower bound per planner and graph, graphs grouped by family" ;;
	bytes) echo "Where the bytes go per planner: lower bound, fragmentation and padding" ;;
	cdf) echo "Distribution over the graphs of the peak above the lower bound, per planner" ;;
	scaling) echo "Planning time against the number of buffers" ;;
	sweep) echo "What alignment costs: padding as a share of the peak at align 1" ;;
	hyperfine) echo "Whole-command wall times (hyperfine)" ;;
	hard-ratio) echo "Hard instances: peak / best proved bound" ;;
	hard-profile) echo "Hard instances: exact's anytime profile" ;;
	compare) echo "Comparison: peak B / peak A for every matched row, sorted" ;;
	layout_large_*) echo "Plan layout of the largest graph, ${1#layout_large_}" ;;
	layout_*) echo "Plan layout, ${1#layout_}" ;;
	*) echo "$1" ;;
	esac
}
: > "$tmp/figures.html"
nfig=0
for svg in $(ls "$tmp/figs"/*.svg 2>/dev/null | sort); do
	name=$(basename "$svg" .svg)
	nfig=$((nfig + 1))
	{
		printf '<figure class="plot" id="fig-%s" data-name="%s">\n' "$name" "$name"
		inline_svg "$svg" "f$nfig"
		# the script that drew it (not the name alone: "(bytes)" read as a unit)
		script=plots/${name%%_*}.gp
		case $name in compare) script=plots/compare.gp ;; esac
		printf '<figcaption>Figure %d. %s. Drawn by <code>%s</code>.</figcaption>\n</figure>\n' "$nfig" "$(caption "$name" | esc)" "$script"
	} >> "$tmp/figures.html"
done
[ "$nfig" -gt 0 ] || die "plots/plots.sh drew no figure: $out/index.html not written"
skipped=$(sed -n 's/^plots: skipped://p' "$tmp/plots.err" | esc)

{
	cat <<'HEAD'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>arenabench report</title>
<style>
body { font-family: sans-serif; max-width: 1060px; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
/* long .meta values (commands, paths, hashes) wrap inside the page */
table.provenance { width: 100%; table-layout: fixed; }
table.provenance th { width: 11em; overflow-wrap: anywhere; }
table.provenance td { overflow-wrap: anywhere; }
/* a long path in a heading or a line breaks rather than widen the page */
h1, h2, p, figcaption { overflow-wrap: anywhere; }
/* a wide table scrolls in its own box, never the page */
div.scroll { overflow-x: auto; max-width: 100%; }
@media (max-width: 600px) { body { padding: 0 0.4em; } table.provenance th { width: 7em; } }
table.summary td:nth-child(n+2) { text-align: right; font-variant-numeric: tabular-nums; }
.bad { color: #b00; }
pre.compare { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
figure.plot { margin: 1.5em 0; }
figure.plot svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.9em; color: #444; }
</style>
</head>
<body>
<h1>arenabench report</h1>
HEAD
	printf '<p>%d figures, drawn from <code>%s</code> by <code>make report</code> (plots/report/report.sh).</p>\n' \
		"$nfig" "$(printf '%s' "$csv" | esc)"
	printf '<h2 id="provenance">Provenance</h2>\n<table class="provenance">\n'
	cat "$tmp/provenance.html"
	printf '</table>\n<h2 id="summary">Summary per planner</h2>\n'
	printf '<p>x_bound = peak / lower bound (the most bytes live at one step; no plan can use less), geometric mean over the valid rows; a row is one graph at one alignment.</p>\n'
	printf '<div class="scroll">\n'
	cat "$tmp/summary.html"
	printf '</div>\n'
	cat "$tmp/inputs.html"
	cat "$tmp/compare.html"
	printf '<h2 id="figures">Figures</h2>\n'
	[ -z "$skipped" ] || printf '<p>Not drawn for this run (no CSV for them, or nothing to show):%s.</p>\n' "$skipped"
	cat "$tmp/figures.html"
	printf '</body>\n</html>\n'
} > "$tmp/index.html"

# written complete, checked and renamed into place (scripts/lib/outputs.sh):
# on a full disk the previous page stays
out_complete "$tmp/index.html" || die "$tmp/index.html: written incomplete (a full disk?); $out/index.html is unchanged" 2
[ -d "$out" ] || mkdir -p "$out" || die "$out: cannot create the folder; nothing written" 2
out_install "$tmp/index.html" "$out/index.html" "$csv" ${a:+"$a"} ${b:+"$b"} || die "$out/index.html is unchanged" 2
say "wrote $out/index.html ($nfig figures, $(wc -c < "$out/index.html") bytes)"
