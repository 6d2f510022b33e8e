#!/bin/sh
# plots/plots.sh: redraws every figure from the results CSVs (`make plots`).
#
# Reads results/results.csv (the local run) when present, else the committed
# reference results/reference/results.csv, plus the optional scaling.csv,
# sweep.csv, hyperfine.csv and hard.csv next to it (scripts/lib/sources.sh:
# the reference's only when the local run is of the same corpus).  Every
# figure's caption names its CSV, local or reference, and its revision.  Writes SVG (web), PDF (paper) and
# PNG (README) into plots/out/.  A missing optional CSV skips only the
# figures that need it; a malformed CSV stops with FILE:LINE: column: what
# was expected, and exit status 1.
#
# Environment: RESULTS_DIR (instead of results/), PLOTS_OUT (instead of
# plots/out), ALIGN_RATIO (align of figures 1 and 3; default: the smallest in
# the CSV), ALIGN_BYTES (align of figure 2; default 64), BYTES_GRAPHS
# (comma-separated graphs of figure 2), FORMATS (default "svg pdf png"),
# ARENABENCH (the binary that plans the layouts; default build/arenabench),
# LAYOUT_GRAPH, LAYOUT_ALIGN, LAYOUT_SEARCH, STRATEGY_DIRS (plots/layouts.sh), and
# REFERENCE_FALLBACK (scripts/lib/sources.sh).
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
res=${RESULTS_DIR:-results}
out=${PLOTS_OUT:-plots/out}
formats=${FORMATS:-svg pdf png}
data=$out/data

say() { printf 'plots: %s\n' "$*" >&2; }
die() { printf 'plots: %s\n' "$*" >&2; exit 1; }

command -v gnuplot >/dev/null 2>&1 ||
	die "gnuplot not found (install it with: sh scripts/deps.sh plots)"

. scripts/lib/sources.sh
sources_init "$res" || die "no $res/results.csv and no $res/reference/results.csv: run 'make bench' first"
dir=$src_dir
if [ "$src_origin" = "local run" ]; then
	say "drawing from the local run: $res/results.csv"
else
	say "no $res/results.csv (run 'make bench' for a local run); drawing from the committed reference: $dir/results.csv"
fi

# Every figure is drawn into a fresh folder, checked complete, then
# installed over $out as a whole (scripts/lib/outputs.sh): a full disk or
# a failed figure leaves the previous figures as they were, and a figure
# whose input has gone is not left stale.
. scripts/lib/outputs.sh
final=$out
[ ! -e "$final" ] || [ -d "$final" ] || die "$final: is not a directory (PLOTS_OUT names the figures' folder; nothing drawn)"
out=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-plots.XXXXXX")
trap 'rm -rf "$out"' EXIT
data=$out/data
mkdir -p "$data"

# Hyperfine quotes fields that hold commas; the checks split on commas, so
# quoted commas become ';' first (line numbers are kept).
unquote() {
	awk '{
		s = $0; o = ""; q = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"") { q = !q; continue }
			if (q && c == ",") c = ";"
			o = o c
		}
		print o
	}' "$1"
}

# check FILE NEED UINT SINT REAL ENUMS [UOPT]: exits on the first problem.
check() {
	awk -F, -v need="$2" -v uint="$3" -v sint="$4" -v real="$5" -v enums="$6" -v uopt="${7:-}" \
		-f scripts/lib/csvcheck.awk "$1" || exit 1
}

# Optional CSVs: the local run's, else the committed reference's when the
# local run is of the same corpus (scripts/lib/sources.sh), else none
# (their figures are skipped).
optional() { source_csv "$1"; }
scaling_csv=$(optional scaling)
sweep_csv=$(optional sweep)
hyperfine_csv=$(optional hyperfine)

RES_NEED="graph,family,buffers,sum_bytes,lower_bound_bytes,planner,align,valid,peak_bytes,peak_align1_bytes,padding_bytes,plan_ns"
RES_UINT="buffers,sum_bytes,lower_bound_bytes,align,peak_bytes,peak_align1_bytes"
RES_UOPT="plan_ns"	# empty under bench --no-timing
RES_SINT="padding_bytes"

# Check every CSV before drawing anything.
check "$dir/results.csv" "$RES_NEED" "$RES_UINT" "$RES_SINT" "" "valid=yes|no" "$RES_UOPT"
if [ -n "$scaling_csv" ]; then
	# plan_ns is empty for a run stopped before it was timed.
	check "$scaling_csv" "planner,buffers,plan_ns,status" "buffers" "" "" "status=ok|timed_out" "plan_ns"
fi
if [ -n "$sweep_csv" ]; then
	check "$sweep_csv" "$RES_NEED" "$RES_UINT" "$RES_SINT" "" "valid=yes|no" "$RES_UOPT"
fi
if [ -n "$hyperfine_csv" ]; then
	unquote "$hyperfine_csv" > "$data/hyperfine.in"
	# Messages name the original file.
	# hyperfine's own columns, or scripts/study/bench-cli.sh's (mean_s, ...).
	hf_cols="mean,stddev,min,max"
	head -n 1 "$data/hyperfine.in" | grep -Eq '(^|,)mean_s(,|$)' && hf_cols="mean_s,stddev_s,min_s,max_s"
	awk -F, -v need="command,$hf_cols" -v real="$hf_cols" \
		-f scripts/lib/csvcheck.awk "$data/hyperfine.in" 2>"$data/hyperfine.err" || {
		sed "s|^$data/hyperfine.in|$hyperfine_csv|" "$data/hyperfine.err" >&2
		exit 1
	}
fi

# The planners' legend order, from plots/style.gp.
known=$(sed -n 's/^planner_names *= *"\(.*\)"$/\1/p' plots/style.gp)
# The run's planners that plots/style.gp does not list, sorted: each takes
# the next of its extra colours, the same in every figure of this run.
hard_csv=$(optional hard)
for f in "$dir/results.csv" $sweep_csv $scaling_csv $hard_csv; do
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "planner") c = i; next } c { print $c }' "$f"
done | sort -u | awk -v known="$known" '
	BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) is[k[i]] = 1 }
	!($0 in is) { x = x (x == "" ? "" : " ") $0 }
	END { printf "extra_names = \"%s\"\n", x }' > "$data/palette.gp"

# Captions: every figure names its CSV, local or committed reference, and
# that CSV's revision (dirty flag included) and machine from its own .meta.
printf 'meta_caption = "%s"\n' "$(caption_of "$dir/results.csv")" > "$data/meta.gp"
for side in scaling sweep hyperfine; do
	eval "side_csv=\${${side}_csv:-}"
	[ -n "$side_csv" ] || continue
	printf 'meta_caption = "%s"\n' "$(caption_of "$side_csv")" > "$data/meta_$side.gp"
done
# The plan layouts are planned now by build/arenabench: the graph is chosen
# from results.csv, the offsets come from this tree.
bin=${ARENABENCH:-build/arenabench}
printf 'meta_caption = "graph chosen from %s; planned by %s at rev %s (this tree)"\n' \
	"$dir/results.csv" "$bin" "$(tree_revision)" > "$data/meta_layout.gp"

awk -F, -v mode=results -v dir="$data" -v known="$known" \
	-v align_ratio="${ALIGN_RATIO:-}" -v align_bytes="${ALIGN_BYTES:-}" \
	-v bytes_graphs="${BYTES_GRAPHS:-}" -f scripts/lib/common.awk -f plots/plotdata.awk "$dir/results.csv"

# draw NAME [VARS]: plots/NAME.gp once per format, the formats in parallel.
draw() {
	name=$1; shift
	for f in $formats; do
		( gnuplot -e "datadir='$data'; out='$out/$name.$f'; ${1:-}" "plots/$name.gp" ||
			echo "plots/$name.gp failed for $out/$name.$f" > "$data/$name.$f.failed" ) &
	done
	wait
	for f in $formats; do
		[ ! -f "$data/$name.$f.failed" ] || die "$(cat "$data/$name.$f.failed")"
	done
	drawn="$drawn $name"
}
drawn=""
skipped=""

draw overhead
draw bytes
draw cdf

# 4. scaling (optional).
if [ -n "$scaling_csv" ]; then
	awk -F, -v mode=scaling -v dir="$data" -f scripts/lib/common.awk -f plots/plotdata.awk "$scaling_csv"
	# The one fit (scripts/lib/slopes.awk), as in make scaling, the paper and README.
	awk -F, -f scripts/lib/common.awk -f scripts/lib/slopes.awk "$scaling_csv" > "$data/scaling-slopes.csv"
	awk -F, -v mode=slopes -v dir="$data" -v known="$known" -f scripts/lib/common.awk -f plots/plotdata.awk "$data/scaling-slopes.csv"
	draw scaling "meta_name='meta_scaling'"
else
	say "no scaling.csv for this run (make scaling): skipping plots/scaling.gp"
	skipped="$skipped scaling"
fi

# 5. plan layouts: one per planner for one graph, when the CLI can emit them,
# each model planned with the --dim values the bench used (the .meta's
# input_dims lines, which are dims-file lines once their key is cut).
meta_file=${dir%/}/results.meta
: > "$data/input_dims.txt"
[ ! -f "$meta_file" ] || sed -n 's/^input_dims=//p' "$meta_file" > "$data/input_dims.txt"
if [ -x "$bin" ]; then
	if ARENABENCH=$bin LAYOUT_DIMS_FILE=$data/input_dims.txt sh plots/layouts.sh "$data" "$out" "$formats"; then
		drawn="$drawn layout"
	else
		say "plan layouts skipped (see above)"
		skipped="$skipped layout"
	fi
else
	say "no $bin: skipping the plan layouts (plots/layout.gp)"
	skipped="$skipped layout"
fi

# 6. alignment sweep: sweep.csv, else the aligns results.csv has.
if [ -n "$sweep_csv" ]; then
	sweep_src="sweep.csv"
	sweep_file=$sweep_csv
	sweep_meta="meta_name='meta_sweep';"
else
	say "no $dir/sweep.csv (make sweep): the alignment figure uses the aligns in results.csv"
	sweep_src="results.csv only (no sweep.csv)"
	sweep_file=$dir/results.csv
	sweep_meta=""
fi
awk -F, -v mode=sweep -v dir="$data" -v known="$known" -f scripts/lib/common.awk -f plots/plotdata.awk "$sweep_file"
# One alignment has no cost to show: the figure is left out, not drawn empty.
if [ "$(sed -n 's/^sweep_aligns = "\(.*\)"$/\1/p' "$data/sweep.gp" | wc -w)" -ge 2 ]; then
	draw sweep "$sweep_meta sweep_src='$sweep_src'"
else
	say "one alignment only in $(basename "$sweep_file") ($(sed -n 's/^sweep_aligns = "\(.*\)"$/\1/p' "$data/sweep.gp")): skipping plots/sweep.gp (make sweep, or bench --align 1,16,64)"
	skipped="$skipped sweep"
fi

# 7. whole-command times (optional).
if [ -n "$hyperfine_csv" ]; then
	awk -F, -v mode=hyperfine -v dir="$data" -v known="$known" -f scripts/lib/common.awk -f plots/plotdata.awk "$data/hyperfine.in"
	draw hyperfine "meta_name='meta_hyperfine'"
else
	say "no hyperfine.csv for this run (make bench-cli): skipping plots/hyperfine.gp"
	skipped="$skipped hyperfine"
fi

# 8. hard instances (optional): plots/hard.sh skips without hard.csv.
if [ -n "$hard_csv" ]; then
	HARD_CSV=$hard_csv RESULTS_DIR=$res PLOTS_OUT=$out FORMATS=$formats sh plots/hard.sh
else
	say "no hard.csv for this run (make hard): skipping the hard-instance figures"
	skipped="$skipped hard"
fi

for f in "$out"/*.svg "$out"/*.pdf "$out"/*.png; do
	[ -e "$f" ] || continue
	out_complete "$f" || die "$final/${f##*/}: drawn incomplete (a full disk?); the previous figures are kept"
done
out_install_dir "$out" "$final" || die "the previous figures in $final are kept"
say "drew:$drawn -> $final/ ($formats)"
[ -z "$skipped" ] || say "skipped:$skipped"
