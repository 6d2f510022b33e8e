#!/bin/sh
# make transforms: what operator reordering and in-place reuse add on top of
# placement (issue 8) -> results/transforms.csv (+ .meta).
#
#   sh scripts/study/transforms.sh [BUILD] [JOBS]
#
# The zoo and the synthetic families are benched four times, at alignment 1,
# with TRANSFORM_PLANNERS (default: xla_best_fit, the best single fast
# planner on the real corpus, and tflm_greedy, the TFLite Micro baseline):
#   (none)            the file's order, every tensor its own buffer
#   --inplace         elementwise outputs in a last-read input's buffer
#   --reorder beam    the operator order of the beam search
#   --inplace --reorder beam
# Rows differ by their `options` (inplace=, reorder=); the lower bound before
# reordering is `lower_bound_original_bytes`, the reordering's wall time
# `reorder_ns`.  The four runs go to BUILD/transforms/ and are merged with
# one header, in the order above; results/transforms.csv appears only if
# all four succeed.
set -eu
BUILD=${1:-build}
JOBS=${2:-1}
cd "$(dirname "$0")/../.."
planners=${TRANSFORM_PLANNERS:-xla_best_fit,tflm_greedy}
work=$BUILD/transforms
rm -rf "$work"
mkdir -p "$work" results

k=0
for flags in "" "--inplace" "--reorder beam" "--inplace --reorder beam"; do
	k=$((k + 1))
	echo "transforms: run $k/4: ${flags:-(no transform)}" >&2
	# shellcheck disable=SC2086
	sh scripts/study/bench-parallel.sh "$BUILD" "$JOBS" "$work/$k.csv" graphs/zoo graphs/synthetic -- \
		--planners "$planners" --align 1 $flags
done
{
	head -n 1 "$work/1.csv"
	for k in 1 2 3 4; do tail -n +2 "$work/$k.csv"; done
} > "$work/transforms.csv.tmp"
cp "$work/1.meta" "$work/transforms.meta.tmp"
echo "transforms=none | --inplace | --reorder beam | --inplace --reorder beam" >> "$work/transforms.meta.tmp"
mv "$work/transforms.csv.tmp" results/transforms.csv
mv "$work/transforms.meta.tmp" results/transforms.meta
echo "transforms: wrote results/transforms.csv ($(($(wc -l < results/transforms.csv) - 1)) rows)" >&2
