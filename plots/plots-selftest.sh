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

[ "$fails" = 0 ] && echo "plots-selftest: all cases pass" || { echo "plots-selftest: $fails failed" >&2; exit 1; }
