#!/bin/sh
# make bench-cli: whole-command wall times with hyperfine.
#
#   sh scripts/study/bench-cli.sh [BUILD]   -> results/hyperfine.csv (+ .meta)
#
# Measured (CLI_WARMUP [1] warmup runs, CLI_RUNS [5] timed runs each):
#  - `arenabench plan FILE --planner P` for every registered planner on the
#    3 largest zoo graphs by buffer count (from `arenabench stats`);
#  - the same on the 10^5 and 10^6 sweep problems (seed 1), for the
#    planners whose single run of that command ends within CLI_LIMIT [10]
#    seconds (checked once, with timeout, before hyperfine runs them);
#  - one full `arenabench bench graphs/starter graphs/zoo graphs/synthetic
#    --no-timing` (planning and both plan checks, no Google Benchmark: its
#    timing loops would only measure themselves), CLI_BENCH_RUNS [3] runs
#    after 1 warmup.
# `plan` includes loading, both plan checks and the summary: it is the
# user's view, not the planner's time (that is `make scaling`).
# On each sweep problem, size_first_fit's stage split (`plan --timings`:
# CPU time of load, lower bound, plan, geometric check, execution check,
# write) is added to the .meta as stages_<buffers>=..., from one more run
# that writes its plan (--emit-plan to a temporary file).
# CLI_BASELINE=/path/to/old/arenabench: on the sweep problems, every
# planner's command is run in the same hyperfine call as the same command
# of that binary (hyperfine runs each command's runs in a block, the
# baseline's first); its rows have kind "baseline", so new/old ratios come
# from one run on one machine state.
# hyperfine's CSV columns are read by name.  Runs are sequential.
set -eu

BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
BIN=${ARENABENCH:-$BUILD/arenabench}
WARMUP=${CLI_WARMUP:-1}
RUNS=${CLI_RUNS:-5}
BENCH_RUNS=${CLI_BENCH_RUNS:-3}
LIMIT=${CLI_LIMIT:-10}
BASELINE=${CLI_BASELINE:-}
OUT=results/hyperfine.csv
META=results/hyperfine.meta

command -v hyperfine >/dev/null || { echo "scripts/study/bench-cli.sh: hyperfine missing (sh scripts/deps.sh cli)" >&2; exit 2; }
[ -x "$BIN" ] || { echo "scripts/study/bench-cli.sh: $BIN not built" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p results

PLANNERS=${CLI_PLANNERS:-$("$BIN" list | awk '$2 != "fixed" { print $1 }')} # offline needs fixed offsets

# The 3 largest zoo graphs by buffers (columns by name).
"$BIN" stats graphs/zoo > "$tmp/stats.csv"
BIG=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["buffers"] "," $c["graph"] }' "$tmp/stats.csv" |
	sort -t, -k1,1nr -k2,2 | head -n 3 | cut -d, -f2)

SYN=
for n in 100000 1000000; do
	f=$BUILD/sweep/sweep_n${n}_s1.csv
	if [ ! -f "$f" ]; then
		[ -x "$BUILD/gen/sweep" ] || make --no-print-directory BUILD="$BUILD" "$BUILD/gen/sweep" >&2
		"$BUILD/gen/sweep" --sizes "$n" --seeds 1 "$BUILD/sweep" >/dev/null
	fi
	SYN="$SYN $f"
done

echo "kind,input,buffers,planner,command,warmup,runs,mean_s,stddev_s,median_s,min_s,max_s,user_s,system_s" > "$tmp/rows.csv"

# run_one KIND INPUT BUFFERS PLANNER WARMUP RUNS COMMAND
run_one() {
	echo "bench-cli: $5+$6 runs: $7" >&2
	hyperfine --style basic --warmup "$5" --runs "$6" --export-csv "$tmp/one.csv" "$7" >&2
	awk -F, -v kind="$1" -v input="$2" -v buffers="$3" -v planner="$4" \
		-v warmup="$5" -v runs="$6" -v cmd="$7" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print kind "," input "," buffers "," planner "," cmd "," warmup "," runs "," \
			$c["mean"] "," $c["stddev"] "," $c["median"] "," $c["min"] "," \
			$c["max"] "," $c["user"] "," $c["system"] }' "$tmp/one.csv" >> "$tmp/rows.csv"
}

# run_pair INPUT BUFFERS PLANNER WARMUP RUNS ARGS: the baseline's
# command, then this binary's, in one hyperfine call (CLI_BASELINE).
run_pair() {
	echo "bench-cli: $4+$5 runs, baseline then new: plan $1 $6" >&2
	hyperfine --style basic --warmup "$4" --runs "$5" --export-csv "$tmp/one.csv" \
		"$BASELINE plan $1 $6" "$BIN plan $1 $6" >&2
	awk -F, -v input="$1" -v buffers="$2" -v planner="$3" \
		-v warmup="$4" -v runs="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print (NR == 2 ? "baseline" : "synthetic") "," input "," buffers "," planner "," \
			$c["command"] "," warmup "," runs "," \
			$c["mean"] "," $c["stddev"] "," $c["median"] "," $c["min"] "," \
			$c["max"] "," $c["user"] "," $c["system"] }' "$tmp/one.csv" >> "$tmp/rows.csv"
}

buffers_of() {
	"$BIN" stats "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["buffers"] }'
}

for g in $BIG; do
	f=graphs/zoo/$g.graph
	[ -f "$f" ] || { echo "scripts/study/bench-cli.sh: $f not found" >&2; exit 2; }
	b=$(buffers_of "$f")
	for p in $PLANNERS; do
		run_one graph "$f" "$b" "$p" "$WARMUP" "$RUNS" "$BIN plan $f --planner $p"
	done
done

for f in $SYN; do
	b=$(buffers_of "$f")
	for p in $PLANNERS; do
		rc=0
		timeout "$LIMIT" "$BIN" plan "$f" --planner "$p" >/dev/null 2>&1 || rc=$?
		if [ "$rc" != 0 ]; then
			echo "bench-cli: skip $p on $f (exit $rc; over ${LIMIT}s when 124)" >&2
			continue
		fi
		if [ -n "$BASELINE" ]; then
			run_pair "$f" "$b" "$p" "$WARMUP" "$RUNS" "--planner $p"
		else
			run_one synthetic "$f" "$b" "$p" "$WARMUP" "$RUNS" "$BIN plan $f --planner $p"
		fi
	done
	# the stage split of the whole command, plan written
	"$BIN" plan "$f" --planner size_first_fit --timings --emit-plan "$tmp/plan.csv" \
		2>"$tmp/timings" >/dev/null || true
	echo "stages_$b=$(sed -n 's/^timings: *//p' "$tmp/timings" | tr ',' ';')" >> "$tmp/stages"
done

run_one bench "graphs/starter graphs/zoo graphs/synthetic" "" "fast" 1 "$BENCH_RUNS" \
	"$BIN bench graphs/starter graphs/zoo graphs/synthetic --no-timing --quiet --out $tmp/bench.csv"

# Metadata: the harness's writer (arenabench scale --write-meta), or the
# sidecar of that bench run when the scale hook is not built in.
if ! "$BIN" scale --write-meta "$tmp/meta" sh scripts/study/bench-cli.sh "$BUILD" 2>/dev/null; then
	grep -v '^command=' "$tmp/bench.meta" > "$tmp/meta"
	echo "command=sh scripts/study/bench-cli.sh $BUILD" >> "$tmp/meta"
fi
{
	echo "hyperfine=$(hyperfine --version | awk '{ print $2 }')"
	echo "hyperfine_counts=warmup $WARMUP runs $RUNS (plan); warmup 1 runs $BENCH_RUNS (bench --no-timing)"
	echo "synthetic_limit_seconds=$LIMIT"
	echo "baseline=${BASELINE:-none}"
	cat "$tmp/stages" 2>/dev/null || true
	echo "load_average=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
} >> "$tmp/meta"
cp "$tmp/rows.csv" "$OUT.tmp" && cp "$tmp/meta" "$META.tmp"
mv "$OUT.tmp" "$OUT" && mv "$META.tmp" "$META"
echo "bench-cli: wrote $(($(wc -l < "$OUT") - 1)) rows to $OUT" >&2
