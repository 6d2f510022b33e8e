#!/bin/sh
# make scaling: planning time and peak resident size from 10^2 to 10^6
# buffers, for every registered planner (budgeted ones included).
#
#   sh scripts/study/scaling.sh [BUILD]        -> results/scaling.csv
#                                           results/scaling.meta
#                                           results/scaling-slopes.csv
#
# One process per (planner, problem): `arenabench scale` plans once with a
# wall clock (the budget: a first plan still running at the budget is
# stopped there, status timed_out), reads its own getrusage peak (loading +
# planning), checks the plan both ways (geometric and execution, as every
# bench row; status invalid when either fails), then times the planner
# with Google Benchmark.
# Measurements run one after another, never two at once; SCALING_PIN=CPU
# pins them to one core with taskset (then that core should be idle).
#
# Every time is also a multiple of the yardstick measured next to it: a
# radix sort of 10^6 keys (`scale --sort-reference 1000000`) runs on the
# same core before the first measurement and after each one, and a row
# divides by the smaller of the two around it: plan_sorts = plan_ns /
# sort_ns (wall), first_plan_cpu_sorts = first_plan_cpu_ns / sort_cpu_ns
# (thread CPU, issue 29's measure, which holds on a loaded machine).
# Each row's peak_bytes is compared with the previous reference's
# (SCALING_PEAK_REFERENCE, default results/reference/scaling.csv) for the
# same planner, buffers, seed and alignment: reference_peak_bytes and
# peak_change (same | changed | no_reference | no_peak: a timed-out row
# or reference row has none); every changed peak is listed at the end.
#
# Environment (defaults in brackets):
#   SCALING_SIZES [100 1000 10000 100000 1000000]   SCALING_SEEDS [1 2 3]
#   SCALING_BUDGET_SECONDS [20]  a first plan is stopped at this: timed_out,
#                                and the planner's larger sizes (and other
#                                seeds of that size) are not run (rows
#                                kept, status timed_out, no measurements)
#   SCALING_MIN_TIME [0.05]  SCALING_REPETITIONS [3]   Google Benchmark
#   SCALING_ALIGN [1]   SCALING_PLANNERS [`arenabench list` but offline]
#   SCALING_PIN [unset]   ARENABENCH [BUILD/arenabench]
#   SCALING_OUT_DIR [results]   SCALING_PEAK_REFERENCE [results/reference/scaling.csv]
# The .meta also records the sort timed before and after the whole run
# (sort_reference_1e6_ns_before/_after and the _cpu_ns pair) and the peak
# comparison's reference and count (peak_reference=, peak_changes=).
set -eu

BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
BIN=${ARENABENCH:-$BUILD/arenabench}
SWEEP=$BUILD/sweep
SIZES=${SCALING_SIZES:-100 1000 10000 100000 1000000}
SEEDS=${SCALING_SEEDS:-1 2 3}
BUDGET=${SCALING_BUDGET_SECONDS:-20}
MIN_TIME=${SCALING_MIN_TIME:-0.05}
REPS=${SCALING_REPETITIONS:-3}
ALIGN=${SCALING_ALIGN:-1}
OUTDIR=${SCALING_OUT_DIR:-results}
OUT=$OUTDIR/scaling.csv
META=$OUTDIR/scaling.meta
SLOPES=$OUTDIR/scaling-slopes.csv
PEAK_REF=${SCALING_PEAK_REFERENCE-results/reference/scaling.csv}

if ! "$BIN" scale 2>&1 | grep -q 'usage: arenabench scale'; then
	echo "scripts/study/scaling.sh: '$BIN scale' is not available (main.c needs the ab_scale_main hook; or set ARENABENCH)" >&2
	exit 2
fi

# The sweep problems: scripts/study/corpus.sh when present, else the generator.
sizes_csv=$(echo $SIZES | tr ' ' ',')
seeds_csv=$(echo $SEEDS | tr ' ' ',')
missing=0
for n in $SIZES; do
	for s in $SEEDS; do
		[ -f "$SWEEP/sweep_n${n}_s${s}.csv" ] || missing=1
	done
done
if [ "$missing" = 1 ]; then
	if [ -f scripts/study/corpus.sh ] && [ "$sizes_csv" = "100,1000,10000,100000,1000000" ]; then
		BUILD=$BUILD sh scripts/study/corpus.sh sweep
	else
		[ -x "$BUILD/gen/sweep" ] || make --no-print-directory BUILD="$BUILD" "$BUILD/gen/sweep" >&2
		"$BUILD/gen/sweep" --sizes "$sizes_csv" --seeds "$seeds_csv" "$SWEEP" >/dev/null
	fi
fi

PLANNERS=${SCALING_PLANNERS:-$("$BIN" list | awk '$2 != "fixed" { print $1 }')} # offline needs fixed offsets
PIN=
if [ -n "${SCALING_PIN:-}" ]; then
	command -v taskset >/dev/null || { echo "scripts/study/scaling.sh: SCALING_PIN needs taskset (util-linux)" >&2; exit 2; }
	PIN="taskset -c $SCALING_PIN"
fi
# A hard stop for a process that hangs: first plan + timing repetitions.
HARD=$(awk -v b="$BUDGET" -v r="$REPS" 'BEGIN { printf "%d", b * (r + 2) + 60 }')

mkdir -p "$OUTDIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
rows=$tmp/rows.csv
echo "planner,buffers,seed,max_live_buffers,plan_ns,plan_ns_stddev,repetitions,first_plan_ns,first_plan_cpu_ns,peak_rss_bytes,load_rss_bytes,peak_bytes,lower_bound_bytes,align,status,threads,sort_ns,sort_cpu_ns" > "$rows"

# index.tsv (problem,buffers,seed,steps,max_live_buffers,sum_bytes,
# lower_bound_bytes; tab-separated, as gen/sweep writes it) fills the rows
# of runs that were cut off or stopped at the budget.
index_field() { # PROBLEM COLUMN
	idx=$SWEEP/index.tsv
	[ -f "$idx" ] || return 0
	awk -F'\t' -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["problem"] == p { print $col[c]; exit }' "$idx"
}
cut_row() { # PLANNER N SEED
	prob=sweep_n$2_s$3
	echo "$1,$2,$3,$(index_field "$prob" max_live_buffers),,,0,,,,,,$(index_field "$prob" lower_bound_bytes),$ALIGN,timed_out,,," >> "$rows"
}

# The yardstick: a radix sort of 10^6 keys (arenabench scale
# --sort-reference: the best of 7, wall and thread CPU), on the same core
# before the first measurement and after each one; a planner's time over
# it is comparable across machines and loads.  An older binary without
# sort_reference_cpu_ns: this checkout's build times the sort.
SORTBIN=
for b in "$BIN" "$BUILD/arenabench"; do
	if "$b" scale --sort-reference 1000 2>/dev/null | grep -q '^sort_reference_cpu_ns='; then
		SORTBIN=$b
		break
	fi
done
sort_reference() { # prints "WALL_NS CPU_NS", or "unknown unknown"
	if [ -n "$SORTBIN" ]; then
		# shellcheck disable=SC2086
		$PIN "$SORTBIN" scale --sort-reference 1000000 2>/dev/null |
			awk -F= '{ v[$1] = $2 } END { if (v["sort_reference_ns"] != "" && v["sort_reference_cpu_ns"] != "") print v["sort_reference_ns"], v["sort_reference_cpu_ns"]; else print "unknown unknown" }'
	else
		echo unknown unknown
	fi
}
sort_first=$(sort_reference)
sort_last=$sort_first

for planner in $PLANNERS; do
	over=0
	for n in $SIZES; do
		for s in $SEEDS; do
			f=$SWEEP/sweep_n${n}_s${s}.csv
			[ -f "$f" ] || continue
			if [ "$over" = 1 ]; then
				cut_row "$planner" "$n" "$s"
				continue
			fi
			echo "scaling: $planner n=$n seed=$s" >&2
			rc=0
			# shellcheck disable=SC2086
			timeout "$HARD" $PIN "$BIN" scale "$f" --planner "$planner" \
				--align "$ALIGN" --budget-seconds "$BUDGET" --header \
				--benchmark_min_time="$MIN_TIME" \
				--benchmark_repetitions="$REPS" > "$tmp/one.csv" 2> "$tmp/err" || rc=$?
			if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
				cut_row "$planner" "$n" "$s"
				over=1
				continue
			elif [ "$rc" != 0 ]; then
				cat "$tmp/err" >&2
				echo "scripts/study/scaling.sh: $planner on $f failed (exit $rc); results/ unchanged" >&2
				exit 1
			fi
			# the sort after this row; the row takes the smaller of the two
			# around it (the one before is the previous row's after)
			sort_before=$sort_last
			sort_last=$(sort_reference)
			# Columns by name, as `arenabench scale --header` prints them.
			prob=sweep_n${n}_s${s}
			awk -F, -v seed="$s" -v before="$sort_before" -v after="$sort_last" \
				-v live="$(index_field "$prob" max_live_buffers)" -v bound="$(index_field "$prob" lower_bound_bytes)" '
				function least(i,    a, b) {
					split(before, a, " "); split(after, b, " ")
					if (a[i] !~ /^[0-9]+$/) return (b[i] ~ /^[0-9]+$/) ? b[i] : ""
					if (b[i] !~ /^[0-9]+$/) return a[i]
					return (a[i] + 0 < b[i] + 0) ? a[i] : b[i]
				}
				NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				# a first plan stopped at the budget: the index gives these two
				$c["max_live_buffers"] == "" { $c["max_live_buffers"] = live }
				$c["lower_bound_bytes"] == "" { $c["lower_bound_bytes"] = bound }
				{ print $c["planner"] "," $c["buffers"] "," seed "," $c["max_live_buffers"] "," \
					$c["plan_ns"] "," $c["plan_ns_stddev"] "," $c["repetitions"] "," \
					$c["first_plan_ns"] "," $c["first_plan_cpu_ns"] "," $c["peak_rss_bytes"] "," $c["load_rss_bytes"] "," \
					$c["peak_bytes"] "," $c["lower_bound_bytes"] "," $c["align"] "," $c["status"] "," (("threads" in c) ? $c["threads"] : "") "," \
					least(1) "," least(2) }' \
				"$tmp/one.csv" >> "$rows"
			st=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } END { print $c["status"] }' "$rows")
			[ "$st" = timed_out ] && over=1
		done
	done
done

# The times as multiples of the sort, and the peaks against the previous
# reference (scripts/lib/scaling-peaks.awk): the CSV as written.
ref_arg=
if [ -n "$PEAK_REF" ] && [ -f "$PEAK_REF" ]; then
	ref_arg=$PEAK_REF
else
	echo "scaling: no peak reference ${PEAK_REF:-(SCALING_PEAK_REFERENCE empty)}: peak_change is no_reference" >&2
fi
awk -F, -v ref="$ref_arg" -v changes="$tmp/changes.txt" -f scripts/lib/scaling-peaks.awk "$rows" > "$tmp/out.csv"

# The log-log slope of plan_ns on buffers, 10^4..10^6, status ok: the one
# fit (scripts/lib/slopes.awk) that the figure, the paper and README use.
awk -F, -v fit_min=10000 -v fit_max=1000000 -f scripts/lib/common.awk -f scripts/lib/slopes.awk \
	"$tmp/out.csv" > "$tmp/slopes.csv"

sort_after=$(sort_reference)
"$BIN" scale --write-meta "$tmp/meta" sh scripts/study/scaling.sh "$BUILD"
{
	echo "scaling_sizes=$SIZES"
	echo "scaling_seeds=$SEEDS"
	echo "scaling_budget_seconds=$BUDGET"
	echo "scaling_align=$ALIGN"
	echo "benchmark_flags=--benchmark_min_time=$MIN_TIME --benchmark_repetitions=$REPS"
	echo "scaling_pin=${SCALING_PIN:-none (measurements serialized, not pinned)}"
	echo "sort_reference_1e6_ns_before=${sort_first% *}"
	echo "sort_reference_1e6_ns_after=${sort_after% *}"
	echo "sort_reference_1e6_cpu_ns_before=${sort_first#* }"
	echo "sort_reference_1e6_cpu_ns_after=${sort_after#* }"
	echo "sort_reference_binary=${SORTBIN:-none}"
	echo "load_average=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	# git_revision above is this checkout's; the binary measured may be
	# another build (ARENABENCH=...), so name it and its checksum too
	echo "binary=$BIN"
	echo "binary_sha256=$(sha256sum "$BIN" 2>/dev/null | cut -d' ' -f1)"
	[ -z "${ARENABENCH:-}" ] || echo "binary_note=ARENABENCH was set: git_revision is the checkout's, not necessarily the binary's"
	if [ -n "$ref_arg" ]; then
		echo "peak_reference=$ref_arg (sha256 $(sha256sum "$ref_arg" | cut -d' ' -f1), revision $(sed -n 's/^git_revision=//p' "${ref_arg%.csv}.meta" 2>/dev/null | head -n 1))"
	else
		echo "peak_reference=none"
	fi
	echo "peak_changes=$(wc -l < "$tmp/changes.txt" | tr -d ' ')"
} >> "$tmp/meta"

cp "$tmp/out.csv" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
cp "$tmp/slopes.csv" "$SLOPES.tmp" && mv "$SLOPES.tmp" "$SLOPES"
cp "$tmp/meta" "$META.tmp" && mv "$META.tmp" "$META"
echo "scaling: wrote $OUT ($(($(wc -l < "$OUT") - 1)) rows), $SLOPES, $META" >&2
echo "log-log slope of plan_ns, 10^4..10^6 buffers:"
column -s, -t < "$SLOPES" 2>/dev/null || cat "$SLOPES"
if [ -s "$tmp/changes.txt" ]; then
	echo "peak_bytes changed against ${ref_arg} ($(wc -l < "$tmp/changes.txt" | tr -d ' ') rows; peak_change=changed in the CSV):"
	cat "$tmp/changes.txt"
else
	echo "peak_bytes: no row differs from ${ref_arg:-a reference (none given)}"
fi
