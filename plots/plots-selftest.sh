#!/bin/sh
# plots/plots-selftest.sh: checks that plots/plots.sh rejects malformed
# CSVs with FILE:LINE: column messages, skips missing optional CSVs, and
# draws every figure from a small well-formed results set.  Needs gnuplot.
# Exit status 0 when every case behaves.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

hdr="schema_version,graph,family,source,ops,buffers,sum_bytes,weights_bytes,lower_bound_bytes,max_live_buffers,planner,cost_class,align,options,valid,exec_check,peak_bytes,peak_align1_bytes,padding_bytes,arenas,stopped_by,optimal,best_bound_bytes,iterations,plan_ns,plan_ns_stddev,repetitions,lower_bound_original_bytes,tier_peaks,spilled_bytes"
# row GRAPH FAMILY PLANNER ALIGN PEAK PEAK1
row() {
	echo "2,$1,$2,test,4,5,40960,0,24576,2,$3,fast,$4,lifetimes=default,yes,full,$5,$6,$(($5 - $6)),1,none,unknown,24576,0,1000,10,5,24576,,"
}
good() {
	echo "$hdr"
	for g in chain_24k:starter z1:zoo z2:zoo; do
		n=${g%%:*}; f=${g#*:}
		row "$n" "$f" linear 1 40960 40960
		row "$n" "$f" linear 64 41024 40960
		row "$n" "$f" size_first_fit 1 24576 24576
		row "$n" "$f" size_first_fit 64 24512 24576
		row "$n" "$f" brand_new_planner 1 28672 28672
		row "$n" "$f" brand_new_planner 64 28800 28672
	done
}

# expect NAME STATUS PATTERN: run plots.sh on $tmp/r, compare.
expect() {
	name=$1 want=$2 pattern=$3
	set +e
	RESULTS_DIR="$tmp/r" PLOTS_OUT="$tmp/out" FORMATS=png sh plots/plots.sh >"$tmp/log" 2>&1
	got=$?
	set -e
	if { [ "$want" = 0 ] && [ "$got" != 0 ]; } || { [ "$want" != 0 ] && [ "$got" = 0 ]; } ||
		! grep -q -- "$pattern" "$tmp/log"; then
		echo "FAIL $name: exit $got (want $want), output:" >&2
		sed 's/^/    /' "$tmp/log" >&2
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

mkdir -p "$tmp/r"
good > "$tmp/r/results.csv"
expect "well-formed results draw" 0 "drew: overhead bytes cdf"
expect "missing scaling.csv is skipped" 0 "skipping plots/scaling.gp"
[ -f "$tmp/out/overhead.png" ] && [ -f "$tmp/out/cdf.png" ] && [ -f "$tmp/out/bytes.png" ] ||
	{ echo "FAIL figures not written" >&2; fails=$((fails + 1)); }

# The alignment sweep's table, from results.csv's aligns 1 and 64 on the
# zoo family (z1, z2), worked by hand:
#   linear 64: padding 41024 - 40960 = 64 per graph, 128 summed; align-1
#   peaks 2 x 40960 = 81920; worst share 100 * 64 / 40960 = 0.15625 %, z1
#   first of two equal; brand_new_planner 64: 100 * 128 / 28672 = 0.446429 %;
#   size_first_fit 64: 24512 - 24576 = -64 on an align-1 peak of 24576,
#   worst 100 * -64 / 24576 = -0.260417 %.
want_line() {	# FILE LINE NAME
	if grep -qxF -- "$2" "$1" 2>/dev/null; then
		echo "ok   $3"
	else
		echo "FAIL $3: no line '$2' in $1:" >&2
		sed 's/^/    /' "$1" >&2 2>/dev/null
		fails=$((fails + 1))
	fi
}
want_line "$tmp/out/data/sweep_linear.csv" "64,128,2,81920,0.15625,z1" "sweep: linear's padding share"
want_line "$tmp/out/data/sweep_brand_new_planner.csv" "64,256,2,57344,0.446429,z1" "sweep: a new planner's padding share"
want_line "$tmp/out/data/sweep_size_first_fit.csv" "64,-128,2,49152,-0.260417,z1" "sweep: negative padding"
want_line "$tmp/out/data/sweep_linear.csv" "1,0,2,81920,0,z1" "sweep: no padding at align 1"

good | awk 'NR == 3 { sub(/,[^,]*$/, "") } 1' > "$tmp/r/results.csv"
expect "wrong field count" 1 "results.csv:3: expected 30 fields"

good | awk -F, 'BEGIN { OFS = "," } NR == 4 { $17 = "24k" } 1' > "$tmp/r/results.csv"
expect "non-numeric number" 1 "results.csv:4: column 'peak_bytes' (field 17): expected a non-negative integer, found '24k'"

good | cut -d, -f1-16,18- > "$tmp/r/results.csv"
expect "missing column" 1 "results.csv:1: missing required column 'peak_bytes'"

good > "$tmp/r/results.csv"
printf 'planner,buffers,seed,plan_ns,peak_rss_bytes,status\nlinear,100,1,2000,0,ok\nlinear,1000,1,x,0,ok\n' > "$tmp/r/scaling.csv"
expect "bad scaling.csv" 1 "scaling.csv:3: column 'plan_ns'"
printf 'planner,buffers,seed,plan_ns,peak_rss_bytes,status\nlinear,100,1,2000,0,ok\nlinear,1000,1,20000,0,ok\nlinear,10000,1,300000,0,timed_out\n' > "$tmp/r/scaling.csv"
expect "scaling.csv draws" 0 "drew:.* scaling"

printf 'command,mean,stddev,median,user,system,min,max\n"a, b",1.5,0.1,1.4,1,0.1,1.2,1.9\n' > "$tmp/r/hyperfine.csv"
expect "hyperfine.csv with a quoted comma" 0 "drew:.* hyperfine"
# A command that names no planner: a row of its own (1), no input (0).
want_line "$tmp/out/data/hyperfine.csv" "1,a; b,,1.5,0.1,1.2,1.9,1,0" "hyperfine: a plain command's row"
want_line "$tmp/out/data/hyperfine_rows.csv" "1,a; b" "hyperfine: a plain command's row label"
# bench-cli rows: one row per planner in style.gp's order (linear before
# size_first_fit though listed after it), one input per file, in order met.
{
	echo "kind,input,buffers,planner,command,warmup,runs,mean_s,stddev_s,min_s,max_s"
	echo "graph,graphs/zoo/y.graph,20,size_first_fit,c1,1,5,0.2,0.01,0.19,0.21"
	echo "graph,graphs/zoo/y.graph,20,linear,c2,1,5,0.3,0.01,0.29,0.31"
	echo "graph,graphs/zoo/x.graph,10,linear,c3,1,5,0.1,0.01,0.09,0.11"
} > "$tmp/r/hyperfine.csv"
expect "hyperfine.csv of bench-cli" 0 "drew:.* hyperfine"
want_line "$tmp/out/data/hyperfine_rows.csv" "1,linear" "hyperfine: linear's row first"
want_line "$tmp/out/data/hyperfine_rows.csv" "2,size_first_fit" "hyperfine: size_first_fit's row second"
want_line "$tmp/out/data/hyperfine.csv" "1,graph: y (20 buffers),size_first_fit,0.2,0.01,0.19,0.21,2,1" "hyperfine: row and input of the first line"
want_line "$tmp/out/data/hyperfine.csv" "3,graph: x (10 buffers),linear,0.1,0.01,0.09,0.11,1,2" "hyperfine: a second input"
printf 'command,mean,stddev,median,user,system,min,max\nx,fast,0.1,1.4,1,0.1,1.2,1.9\n' > "$tmp/r/hyperfine.csv"
expect "bad hyperfine.csv" 1 "hyperfine.csv:2: column 'mean'"
rm -f "$tmp/r/hyperfine.csv" "$tmp/r/scaling.csv"

rm -f "$tmp/r/results.csv"
mkdir -p "$tmp/r/reference"
good > "$tmp/r/reference/results.csv"
expect "falls back to the reference" 0 "committed reference"

# A local run of the reference's corpus takes the reference's optional
# CSVs (labelled); a local run of another corpus never does.
printf 'planner,buffers,seed,plan_ns,peak_rss_bytes,status\nlinear,10000,1,2000,0,ok\nlinear,100000,1,20000,0,ok\n' > "$tmp/r/reference/scaling.csv"
good > "$tmp/r/results.csv"
expect "same corpus: the reference's scaling.csv" 0 "using the committed reference's $tmp/r/reference/scaling.csv"
grep -q 'committed reference: '"$tmp"'/r/reference/scaling.csv' "$tmp/out/data/meta_scaling.gp" ||
	{ echo "FAIL same corpus: the scaling caption does not name the reference CSV" >&2; fails=$((fails + 1)); }
good | sed 's/,z2,zoo,/,mine,own,/' > "$tmp/r/results.csv"
expect "other corpus: no reference scaling.csv" 0 "the local run's corpus is not the reference's: its part is left out"
[ ! -f "$tmp/out/scaling.png" ] || { echo "FAIL other corpus: scaling figure drawn from the reference" >&2; fails=$((fails + 1)); }

# --- the checks a reader makes (plots/svgcheck.awk, plots/figure-check.sh) ---
# A hand-made SVG in gnuplot's layout, at scale 1 (0.58 x 10 px a
# character, 7.5 px above the baseline to 2 px below): 'alpha' at x 10..39,
# 'beta' at 30..53.2 on nearly the same line: they overlap; 'gamma' at
# 190..219 on a 200-px canvas: outside; 'delta' at 100..129, y 12.5..22:
# clear; 'up' rotated by -90 about (60, 90): x 82.5..92, y 66.8..90: clear.
# Planners p1 and p2 share rgb(1,2,3); q is not a planner.
{
	printf '<svg\n width="200" height="100"\n>\n'
	for t in "10,50 alpha" "30,52 beta" "190,90 gamma" "100,20 delta"; do
		printf '<g transform="translate(%s)" stroke="none" font-size="10.00"  text-anchor="start">\n<text>%s</text>\n</g>\n' "${t%% *}" "${t#* }"
	done
	printf '<g transform="translate(90,90) rotate(-90)" stroke="none" font-size="10.00"  text-anchor="start">\n<text>up</text>\n</g>\n'
	printf '<g id="gnuplot_plot_1" ><title>p1: geo-mean 1</title>\n<path stroke='"'"'rgb(  1,   2,   3)'"'"' d="M0,0"/>\n'
	printf '<g id="gnuplot_plot_2" ><title>q</title>\n<path stroke='"'"'rgb(  1,   2,   3)'"'"' d="M0,0"/>\n'
	printf '<g id="gnuplot_plot_3" ><title>p2</title>\n<path stroke='"'"'rgb(  1,   2,   3)'"'"' d="M0,0"/>\n'
} > "$tmp/hand.svg"
awk -v scale=1 -v planners="p1 p2" -f plots/svgcheck.awk "$tmp/hand.svg" > "$tmp/hand.out" && st=0 || st=$?
printf '%s\n' "$tmp/hand.svg: planners p1 and p2 share the colour rgb(1,2,3)" \
	"$tmp/hand.svg: text 'gamma' runs outside the 200x100 canvas" \
	"$tmp/hand.svg: text 'alpha' overlaps text 'beta'" > "$tmp/hand.want"
if [ "$st" = 1 ] && cmp -s "$tmp/hand.out" "$tmp/hand.want"; then
	echo "ok   svgcheck: a shared colour, a text outside, two texts over each other, nothing else"
else
	echo "FAIL svgcheck on a hand-made SVG: exit $st, got:" >&2
	sed 's/^/    /' "$tmp/hand.out" >&2
	fails=$((fails + 1))
fi

# Every colour of style.gp, the listed planners' and the extra ones, at
# least 55 apart in RGB: no two planners of a figure look alike.
gnuplot -e "out='$tmp/x.svg'" -e "load 'plots/style.gp'; print planner_colors . ' ' . extra_colors" 2>&1 |
	awk '{ for (i = 1; i <= NF; i++) h[i] = $i }
	function hex(s,   v, i, c) { v = 0; for (i = 1; i <= 2; i++) { c = index("0123456789ABCDEF", toupper(substr(s, i, 1))) - 1; v = v * 16 + c }; return v }
	END {
		for (i = 1; i <= NF; i++) { R[i] = hex(substr(h[i], 2, 2)); G[i] = hex(substr(h[i], 4, 2)); B[i] = hex(substr(h[i], 6, 2)) }
		for (i = 1; i <= NF; i++) for (j = i + 1; j <= NF; j++) {
			d = sqrt((R[i] - R[j])^2 + (G[i] - G[j])^2 + (B[i] - B[j])^2)
			if (d < 55) { printf "colours %s and %s are %.0f apart\n", h[i], h[j], d; bad = 1 }
		}
		if (NF < 30) { printf "only %d colours\n", NF; bad = 1 }
		exit bad
	}' > "$tmp/colours" && echo "ok   style.gp: every planner colour at least 55 apart" ||
	{ echo "FAIL style.gp's colours:" >&2; cat "$tmp/colours" >&2; fails=$((fails + 1)); }

# figure_check NAME CSV: plots/figure-check.sh on $tmp/out.
figure_check() {
	if sh plots/figure-check.sh "$tmp/out" "$2" > "$tmp/fc.log" 2>&1; then
		echo "ok   $1"
	else
		echo "FAIL $1:" >&2
		sed 's/^/    /' "$tmp/fc.log" >&2
		fails=$((fails + 1))
	fi
}
# drawsvg: plots.sh on $tmp/r, SVG only.
drawsvg() { RESULTS_DIR="$tmp/r" PLOTS_OUT="$tmp/out" FORMATS=svg sh plots/plots.sh > "$tmp/log" 2>&1; }

# Eight graphs of one family (g1..g8), three planners: bytes shows six,
# chosen by the spread of the non-linear planners' ratios, which is
# (28672 - 24576 + 256 i) / 24576 for graph gi: g8, g7, ..., g3.
{
	echo "$hdr"
	for i in 1 2 3 4 5 6 7 8; do
		row "g$i" own linear 64 40960 40960
		row "g$i" own size_first_fit 64 24576 24576
		row "g$i" own brand_new_planner 64 $((28672 + 256 * i)) $((28672 + 256 * i))
	done
} > "$tmp/r/results.csv"
rm -rf "$tmp/r/reference"
drawsvg || { echo "FAIL eight graphs: plots.sh failed" >&2; cat "$tmp/log" >&2; fails=$((fails + 1)); }
want_line "$tmp/out/data/results.gp" 'bytes_choice = "6 of the 8 graphs, where the planners differ most"' "bytes: six of eight graphs, the choice stated"
want_line "$tmp/out/data/results.gp" 'panel_graphs = "g8 g7 g6 g5 g4 g3"' "bytes: the six where the planners differ most"
figure_check "figure-check: eight graphs of one family" "$tmp/r/results.csv"
good > "$tmp/r/results.csv"
drawsvg || { echo "FAIL small set: plots.sh failed" >&2; cat "$tmp/log" >&2; fails=$((fails + 1)); }
want_line "$tmp/out/data/results.gp" 'bytes_choice = "all 3 graphs"' "bytes: every graph of a small corpus"
figure_check "figure-check: the small set (a planner style.gp does not list)" "$tmp/r/results.csv"
# The check can fail: a heat map that leaves a graph out.
sed -i 's|<text>z2</text>|<text>zz</text>|' "$tmp/out/overhead.svg"
if sh plots/figure-check.sh "$tmp/out" "$tmp/r/results.csv" 2>&1 | grep -q "overhead.svg leaves out graphs of the corpus without saying so: z2"; then
	echo "ok   figure-check: a graph missing from the heat map is named"
else
	echo "FAIL figure-check did not notice z2 missing from overhead.svg" >&2
	fails=$((fails + 1))
fi
# The committed reference, every figure.
if [ -f results/reference/results.csv ]; then
	rm -rf "$tmp/out"
	mkdir -p "$tmp/refonly"
	ln -s "$(pwd)/results/reference" "$tmp/refonly/reference"
	RESULTS_DIR="$tmp/refonly" PLOTS_OUT="$tmp/out" FORMATS=svg sh plots/plots.sh > "$tmp/log" 2>&1 ||
		{ echo "FAIL the reference's figures: plots.sh failed" >&2; cat "$tmp/log" >&2; fails=$((fails + 1)); }
	figure_check "figure-check: every figure of the reference ($(ls "$tmp"/out/*.svg | wc -l | tr -d ' ') SVGs)" results/reference/results.csv
fi

[ "$fails" = 0 ] && echo "plots-selftest: all cases pass" || { echo "plots-selftest: $fails failed" >&2; exit 1; }
