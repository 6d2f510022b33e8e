#!/bin/sh
# paper/gen/paper-numbers.sh: writes paper/generated/*.tex (table bodies and
# \newcommand macros) from the results CSVs, so that every number in the
# paper comes from them.  Same source rule as plots/plots.sh: the local
# run results/results.csv, else results/reference/.
# Environment: RESULTS_DIR (instead of results/), PLOTS_OUT (instead of
# plots/out), PAPER_GENERATED (instead of paper/generated), PAPER_ALIGN
# (alignment of the tables; default: the smallest in the CSV, as in
# figures 1 and 3).  Optional CSVs follow scripts/lib/sources.sh: the local
# run's, else the reference's only for the same corpus; a missing one
# leaves its section out with a sentence saying so.  sources.tex lists
# every CSV used with its origin and revision (the title block), and
# corpus.tex describes only the families in the results.
set -eu
cd "$(dirname "$0")/../.."
res=${RESULTS_DIR:-results}
gen=${PAPER_GENERATED:-paper/generated}
plots_out=${PLOTS_OUT:-plots/out}

say() { printf 'paper: %s\n' "$*" >&2; }

. scripts/lib/sources.sh
sources_init "$res" || {
	say "no $res/results.csv and no $res/reference/results.csv: run 'make bench' first"
	exit 1
}
dir=$src_dir
origin=$src_origin
say "numbers from the $origin: $dir/results.csv"

awk -F, -v need="graph,family,buffers,ops,sum_bytes,lower_bound_bytes,planner,cost_class,align,valid,peak_bytes,plan_ns" \
	-v uint="buffers,ops,sum_bytes,lower_bound_bytes,align,peak_bytes" -v uopt="plan_ns" -v enums="valid=yes|no" \
	-f scripts/lib/csvcheck.awk "$dir/results.csv"

rm -rf "$gen.tmp"
mkdir -p "$gen.tmp"
known=$(sed -n 's/^planner_names *= *"\(.*\)"$/\1/p' plots/style.gp)
awk -F, -v dir="$gen.tmp" -v known="$known" -v align="${PAPER_ALIGN:-}" \
	-f scripts/lib/common.awk -f paper/gen/paper-numbers.awk "$dir/results.csv"

# The machine and revision.
awk -v origin="$origin" -v file="$dir/results.meta" -v csv="$dir/results.csv" '
	function tex(s) {
		gsub(/\\/, "\\textbackslash{}", s); gsub(/[{}$&#%_]/, "\\\\&", s)
		gsub(/\^/, "\\textasciicircum{}", s); gsub(/~/, "\\textasciitilde{}", s)
		return s
	}
	BEGIN {
		while ((getline line < file) > 0) {
			sub(/\r$/, "", line)
			k = line; sub(/=.*/, "", k); v = line; sub(/^[^=]*=/, "", v); m[k] = v
		}
		n = split("git_revision git_dirty compiler cpu_model cores kernel date_utc benchmark_library", keys, " ")
		split("MetaRevision MetaDirty MetaCompiler MetaCPU MetaCores MetaKernel MetaDate MetaBenchLib", macs, " ")
		for (i = 1; i <= n; i++)
			printf "\\newcommand{\\%s}{%s}\n", macs[i], (keys[i] in m && m[keys[i]] != "") ? tex(m[keys[i]]) : "unknown"
		printf "\\newcommand{\\ResultsOrigin}{%s}\n", origin
		printf "\\newcommand{\\ResultsFile}{\\texttt{%s}}\n", tex(csv)
	}' > "$gen.tmp/meta.tex"
[ -f "$dir/results.meta" ] || say "no $dir/results.meta: the machine is 'unknown' in the paper"

awk -f paper/gen/planner-notes.awk planners/*.c > "$gen.tmp/planners.tex"

# optional_csv NAME.csv WHAT: the path of an optional CSV (sources.sh), or
# a path that does not exist.
optional_csv() {
	f=$(source_csv "${1%.csv}")
	echo "${f:-$dir/$1.absent}"
}
scaling_csv=$(optional_csv scaling.csv "the scaling table")
# Scaling slopes (optional).
if [ -f "$scaling_csv" ]; then
	awk -F, -v need="planner,buffers,plan_ns,status" -v uint="buffers" -v uopt="plan_ns" \
		-v enums="status=ok|timed_out" -f scripts/lib/csvcheck.awk "$scaling_csv"
	# The one fit (scripts/lib/slopes.awk): the figure, make scaling and
	# README give the same slope over the same range.
	awk -F, -f scripts/lib/common.awk -f scripts/lib/slopes.awk "$scaling_csv" > "$gen.tmp/scaling-slopes.csv"
	# the yardstick, a radix sort of 10^6 keys, from the run's .meta
	# (make scaling records it; older runs have none: the column says --)
	sortref=$(sed -n 's/^sort_reference_1e6_ns_before=\([0-9][0-9]*\)$/\1/p' "${scaling_csv%.csv}.meta" 2>/dev/null | head -n 1)
	awk -F, -v dir="$gen.tmp" -v scaling="$scaling_csv" -v sortref="$sortref" \
		-f scripts/lib/common.awk -f paper/gen/scaling-table.awk \
		"$gen.tmp/scaling-slopes.csv"
else
	say "no scaling.csv for this run: the paper has no scaling table"
	printf '\\newcommand{\\ScalingFitRange}{no range (no scaling run)}\n' > "$gen.tmp/scaling.tex"
fi

# The planner table of issue 7 (optional): `make baselines`, local run
# else the committed reference's (said).
base_csv=$(optional_csv baselines.csv "the planner table")
if [ -f "$base_csv" ]; then
	awk -F, -v need="graph,family,planner,cost_class,lower_bound_bytes,valid,peak_bytes,optimal,plan_ns" \
		-v uint="lower_bound_bytes,peak_bytes" -v uopt="plan_ns" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$base_csv"
	awk -F, -v dir="$gen.tmp" -v published=paper/data/minimalloc-published.csv \
		-f scripts/lib/common.awk -f paper/gen/baselines-table.awk "$base_csv"
else
	say "no baselines.csv for this run: the paper has no planner table (run 'make baselines')"
fi

# Reordering and in-place reuse (optional): `make transforms`, local run
# else the committed reference's (said).
tr_csv=$(optional_csv transforms.csv "the transforms section")
if [ -f "$tr_csv" ]; then
	awk -F, -v need="graph,family,planner,options,valid,lower_bound_bytes,lower_bound_original_bytes,peak_bytes" \
		-v uint="lower_bound_bytes,lower_bound_original_bytes,peak_bytes" -v uopt="plan_ns,reorder_ns" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$tr_csv"
	awk -F, -v dir="$gen.tmp" -f scripts/lib/common.awk -f paper/gen/transforms-table.awk "$tr_csv"
else
	say "no transforms.csv for this run: the paper has no transforms section (run 'make transforms')"
fi

# Hard instances (optional): `make hard`, local run else the committed
# reference's (said).
hard_csv=$(optional_csv hard.csv "the hard-instances section")
if [ -f "$hard_csv" ]; then
	awk -F, -v need="graph,planner,valid,buffers,peak_bytes,best_bound_bytes,optimal" \
		-v uint="buffers,peak_bytes,best_bound_bytes" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$hard_csv"
	awk -F, -v dir="$gen.tmp" -f scripts/lib/common.awk -f paper/gen/hard-table.awk "$hard_csv"
else
	say "no hard.csv for this run: the paper has no hard-instances section (run 'make hard')"
fi

# Plan layouts drawn by plots/plots.sh (plots/layouts.sh), if any.
lay=$plots_out/data/layout.gp
if [ -f "$lay" ]; then
	awk -f scripts/lib/common.awk -f paper/gen/layout-figures.awk "$lay" > "$gen.tmp/fig-layout.tex"
else
	# no file: the paper has no layout figure (and says nothing of it)
	say "no plan layouts in $plots_out (they need build/arenabench): the paper has no layout figure"
fi

# What the alignment figure summed over (plots/plotdata.awk, mode sweep).
sw=$plots_out/data/sweep.gp
if [ -f "$sw" ]; then
	awk '
		/^sweep_family / { f = $0; sub(/^[^"]*"/, "", f); sub(/".*/, "", f) }
		/^sweep_graphs / { n = $3 }
		END {
			q = f; gsub(/_/, "\\_", q)
			if (f == "all" || f == "") printf "\\newcommand{\\SweepScope}{all %d graphs of its CSV}\n", n
			else printf "\\newcommand{\\SweepScope}{the %d graphs of family \\texttt{%s}}\n", n, q
		}' "$sw" >> "$gen.tmp/numbers.tex"
else
	printf '\\newcommand{\\SweepScope}{the graphs of its CSV}\n' >> "$gen.tmp/numbers.tex"
fi

# Which graphs the bytes figure shows (plots/plotdata.awk's bytes_choice:
# all of them, or how many and why).
rg=$plots_out/data/results.gp
choice=$(sed -n 's/^bytes_choice = "\(.*\)"$/\1/p' "$rg" 2>/dev/null | sed 's/_/\\_/g; s/%/\\%/g')
printf '\\newcommand{\\BytesScope}{%s}\n' "${choice:-the graphs of the figure}" >> "$gen.tmp/numbers.tex"

# Facts about the code the paper states: the execution check's limits.
awk '
	/^#define AB_EXEC_FULL_MAX_BUFFERS / { nb = $3 }
	/^#define AB_EXEC_FULL_MAX_BYTES / { mb = $3; sub(/^\(/, "", mb); sub(/ull$/, "", mb) ; sh = $5; sub(/\)$/, "", sh) }
	/^#define AB_EXEC_MAX_ARENA_BYTES / { ab = $3; sub(/^\(/, "", ab); sub(/ull$/, "", ab); ash = $5; sub(/\)$/, "", ash) }
	/^#define AB_EXEC_SAMPLED_FINE_BYTES / { sb = $3; sub(/^\(/, "", sb); sub(/ull$/, "", sb); ssh = $5; sub(/\)$/, "", ssh) }
	function unit(v, s) { return s == 30 ? v "\\,GiB" : s == 20 ? v "\\,MiB" : s == 10 ? v "\\,KiB" : v "\\,B" }
	END {
		if (nb == "" || mb == "" || ab == "" || sb == "") { print "paper: the AB_EXEC_* limits are not in harness/check/execute.h" > "/dev/stderr"; exit 1 }
		printf "\\newcommand{\\ExecFullMaxBuffers}{%s}\n", nb
		printf "\\newcommand{\\ExecFullMaxBytes}{%s}\n", unit(mb, sh)
		printf "\\newcommand{\\ExecMaxArena}{%s}\n", unit(ab, ash)
		printf "\\newcommand{\\ExecSampledFineArena}{%s}\n", unit(sb, ssh)
	}' harness/check/execute.h > "$gen.tmp/code-facts.tex"

# The corpus section, from the families in the results only.
awk -F, -f scripts/lib/common.awk -f paper/gen/corpus-text.awk "$dir/results.csv" > "$gen.tmp/corpus.tex"
# ... and, from its .meta, the inputs the bench skipped and those planned
# with --dim values.
[ ! -f "$dir/results.meta" ] ||
	awk -f scripts/lib/common.awk -f paper/gen/inputs-text.awk "$dir/results.meta" >> "$gen.tmp/corpus.tex"

# Provenance: every CSV the paper used, its origin and revision.
{
	echo "% Generated by paper/gen/paper-numbers.sh: the CSVs this paper was built from."
	# The figures' own CSVs too (plots/plots.sh chooses them the same way).
	sweep_csv=$(source_csv sweep 2>/dev/null)
	hyperfine_csv=$(source_csv hyperfine 2>/dev/null)
	for f in "$dir/results.csv" "$scaling_csv" "$base_csv" "$tr_csv" "$hard_csv" "$sweep_csv" "$hyperfine_csv"; do
		[ -f "$f" ] && echo "$f|$(origin_of "$f")|${f%.csv}.meta"
	done | awk -F'|' -f scripts/lib/common.awk -f paper/gen/sources-table.awk
} > "$gen.tmp/sources.tex"

rm -rf "$gen"
mv "$gen.tmp" "$gen"
say "wrote $(ls "$gen" | wc -l | tr -d ' ') files in $gen/"
