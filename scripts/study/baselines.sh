#!/bin/sh
# make baselines: every planner (fast and budgeted) on minimalloc's public
# suite and on the real corpus, at alignment 1, timed -> results/baselines.csv
# (+ .meta).  This is the study behind the paper's planner table (issue 7):
# peak / lower bound per corpus set, planning time, proven optima.
#
#   sh scripts/study/baselines.sh [BUILD] [JOBS]
#
# Sets (each skipped with a message when absent):
#   minimalloc  ../shared/problems/minimalloc/*.csv (A..K)
#   real        graphs/zoo/*.graph and ../shared/models/*/*.tflite
# The budgeted planners run with their default iteration budgets and a
# wall-clock safety stop of BASELINES_SAFETY seconds (default 10; flagged in
# stopped_by when it fires).  Timing: Google Benchmark, one repetition
# (BASELINES_TIMING overrides the flags), since exact may take seconds.
set -eu
BUILD=${1:-build}
JOBS=${2:-1}
cd "$(dirname "$0")/../.."
shared=${SHARED_DIR:-../shared}
safety=${BASELINES_SAFETY:-10}
timing=${BASELINES_TIMING:---benchmark_repetitions=1 --benchmark_min_time=0.01}

set --
if [ -d "$shared/problems/minimalloc" ]; then
	set -- "$@" "$shared/problems/minimalloc"
else
	echo "baselines: $shared/problems/minimalloc absent: minimalloc's suite skipped" >&2
fi
set -- "$@" graphs/zoo
found=0
for d in "$shared"/models/*/; do
	[ -d "$d" ] || continue
	set -- "$@" "${d%/}"
	found=1
done
[ "$found" = 1 ] || echo "baselines: no $shared/models/*/: the shared .tflite models are skipped" >&2

# shellcheck disable=SC2086
exec sh scripts/study/bench-parallel.sh "$BUILD" "$JOBS" results/baselines.csv "$@" -- \
	--cost all --align 1 --safety-seconds "$safety" $timing
