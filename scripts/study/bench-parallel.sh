#!/bin/sh
# `arenabench bench` over many inputs on JOBS local slots, for the study
# scripts (baselines, transforms): a campaign (scripts/study/campaign.sh),
# one shard per input, reused when unchanged, merged in corpus order.
#
#   sh scripts/study/bench-parallel.sh BUILD JOBS OUT INPUT... [-- BENCH_FLAGS...]
#
# Exit: 0, 1 when some plan was invalid (rows kept), 2 on error.
set -eu
[ $# -ge 4 ] || { echo "usage: scripts/study/bench-parallel.sh BUILD JOBS OUT INPUT... [-- BENCH_FLAGS...]" >&2; exit 2; }
BUILD=$1 JOBS=$2 OUT=$3
shift 3
exec sh "$(dirname "$0")/campaign.sh" run --build "$BUILD" --jobs "$JOBS" --out "$OUT" "$@"
