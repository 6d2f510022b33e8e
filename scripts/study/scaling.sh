#!/bin/sh
# make scaling: planning time and peak resident size from 10^2 to 10^6
# buffers, for every registered planner (budgeted ones included).
#
#   sh scripts/study/scaling.sh [BUILD]        -> results/scaling.csv
#                                           results/scaling.meta
#                                           results/scaling-slopes.csv
#
# One process per (planner, problem): `arenabench scale` plans once with a
# wall clock (the budget check), reads its own getrusage peak (loading +
# planning), validates, then times the planner with Google Benchmark.
# Measurements run one after another, never two at once; SCALING_PIN=CPU
# pins them to one core with taskset (then that core should be idle).
#
# Environment (defaults in brackets):
#   SCALING_SIZES [100 1000 10000 100000 1000000]   SCALING_SEEDS [1 2 3]
#   SCALING_BUDGET_SECONDS [20]  first plan over this: timed_out, and the
#                                planner's larger sizes are not run (rows
#                                kept, status timed_out, no measurements)
#   SCALING_MIN_TIME [0.05]  SCALING_REPETITIONS [3]   Google Benchmark
#   SCALING_ALIGN [1]   SCALING_PLANNERS [`arenabench list` but offline]
#   SCALING_PIN [unset]   ARENABENCH [BUILD/arenabench]
# The .meta also records the yardstick, a radix sort of 10^6 keys timed
# before and after (sort_reference_1e6_ns_before/_after), to divide by.
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
OUT=results/scaling.csv
META=results/scaling.meta
SLOPES=results/scaling-slopes.csv

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

mkdir -p results
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
rows=$tmp/rows.csv
echo "planner,buffers,seed,max_live_buffers,plan_ns,plan_ns_stddev,repetitions,first_plan_ns,first_plan_cpu_ns,peak_rss_bytes,load_rss_bytes,peak_bytes,lower_bound_bytes,align,status,threads" > "$rows"

# index.csv (problem,buffers,seed,steps,max_live_buffers,sum_bytes,
# lower_bound_bytes) fills the rows of runs that were cut off.
index_field() { # PROBLEM COLUMN
	awk -F, -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["problem"] == p { print $col[c]; exit }' "$SWEEP/index.csv"
}
cut_row() { # PLANNER N SEED
	prob=sweep_n$2_s$3
	echo "$1,$2,$3,$(index_field "$prob" max_live_buffers),,,0,,,,,,$(index_field "$prob" lower_bound_bytes),$ALIGN,timed_out," >> "$rows"
}

# The yardstick: a radix sort of 10^6 keys (arenabench scale
# --sort-reference), on the same core before and after the measurements;
# a planner's time over it is comparable across machines and loads.
# (an older binary without it: this checkout's build times the sort)
sort_reference() {
	for b in "$BIN" "$BUILD/arenabench"; do
		# shellcheck disable=SC2086
		$PIN "$b" scale --sort-reference 1000000 2>/dev/null | sed -n 's/^sort_reference_ns=//p' | grep . && return 0
	done
	echo unknown
}
sort_before=$(sort_reference)

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
			# Columns by name, as `arenabench scale --header` prints them.
			awk -F, -v seed="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ print $c["planner"] "," $c["buffers"] "," seed "," $c["max_live_buffers"] "," \
					$c["plan_ns"] "," $c["plan_ns_stddev"] "," $c["repetitions"] "," \
					$c["first_plan_ns"] "," $c["first_plan_cpu_ns"] "," $c["peak_rss_bytes"] "," $c["load_rss_bytes"] "," \
					$c["peak_bytes"] "," $c["lower_bound_bytes"] "," $c["align"] "," $c["status"] "," (("threads" in c) ? $c["threads"] : "") }' \
				"$tmp/one.csv" >> "$rows"
			st=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } END { print $c["status"] }' "$rows")
			[ "$st" = timed_out ] && over=1
		done
	done
done

# The log-log slope of plan_ns on buffers, 10^4..10^6, status ok: the one
# fit (scripts/lib/slopes.awk) that the figure, the paper and README use.
awk -F, -v fit_min=10000 -v fit_max=1000000 -f scripts/lib/common.awk -f scripts/lib/slopes.awk \
	"$rows" > "$tmp/slopes.csv"

sort_after=$(sort_reference)
"$BIN" scale --write-meta "$tmp/meta" sh scripts/study/scaling.sh "$BUILD"
{
	echo "scaling_sizes=$SIZES"
	echo "scaling_seeds=$SEEDS"
	echo "scaling_budget_seconds=$BUDGET"
	echo "scaling_align=$ALIGN"
	echo "benchmark_flags=--benchmark_min_time=$MIN_TIME --benchmark_repetitions=$REPS"
	echo "scaling_pin=${SCALING_PIN:-none (measurements serialized, not pinned)}"
	echo "sort_reference_1e6_ns_before=$sort_before"
	echo "sort_reference_1e6_ns_after=$sort_after"
	echo "load_average=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	# git_revision above is this checkout's; the binary measured may be
	# another build (ARENABENCH=...), so name it and its checksum too
	echo "binary=$BIN"
	echo "binary_sha256=$(sha256sum "$BIN" 2>/dev/null | cut -d' ' -f1)"
	[ -z "${ARENABENCH:-}" ] || echo "binary_note=ARENABENCH was set: git_revision is the checkout's, not necessarily the binary's"
} >> "$tmp/meta"

cp "$rows" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
cp "$tmp/slopes.csv" "$SLOPES.tmp" && mv "$SLOPES.tmp" "$SLOPES"
cp "$tmp/meta" "$META.tmp" && mv "$META.tmp" "$META"
echo "scaling: wrote $OUT ($(($(wc -l < "$OUT") - 1)) rows), $SLOPES, $META" >&2
echo "log-log slope of plan_ns, 10^4..10^6 buffers:"
column -s, -t < "$SLOPES" 2>/dev/null || cat "$SLOPES"
