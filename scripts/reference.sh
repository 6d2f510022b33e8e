#!/bin/sh
# make reference: the full study, written on purpose to results/reference/
# (CSVs, their .meta sidecars with the machine, and the figures they feed).
# CI never runs this; commit the result deliberately.
#
#   sh scripts/reference.sh [BUILD]
#
# Steps (each writes into results/ first, then is copied):
#   1. make bench      default corpus, fast planners, aligns 1,16,64, timed
#   2. make sweep      the zoo at every alignment with every planner
#                      (budgeted ones included) -> sweep.csv
#   3. make scaling    10^2..10^6 buffers (REF_SCALING_SEEDS, default "1 2")
#   4. make bench-cli  hyperfine whole-command times
#   5. make plots      from the copies in results/reference/
# Local results/*.csv are moved aside first and restored at the end, so a
# reference run never clobbers a user's own run.
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/.."
ref=results/reference
jobs=${REF_JOBS:-2}
mkdir -p "$ref" "$ref/figures"
keep=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-keep.XXXXXX")
for f in results/*.csv results/*.meta; do
	[ -e "$f" ] && mv "$f" "$keep/"
done
restore() { for f in "$keep"/*; do [ -e "$f" ] && mv "$f" results/; done; rmdir "$keep"; }
trap restore EXIT INT TERM

say() { printf '\nreference: %s\n' "$*" >&2; }
say "1/5 make bench"
make --no-print-directory BUILD="$BUILD" -j"$jobs" bench
say "2/5 make sweep (zoo, every alignment and planner)"
make --no-print-directory BUILD="$BUILD" -j"$jobs" sweep CORPUS_DIRS=graphs/zoo
say "3/5 make scaling"
SCALING_SEEDS=${REF_SCALING_SEEDS:-1 2} make --no-print-directory BUILD="$BUILD" scaling
say "4/5 make bench-cli"
make --no-print-directory BUILD="$BUILD" bench-cli
for f in results/*.csv results/*.meta; do
	[ -e "$f" ] && cp "$f" "$ref/"
done
say "5/5 figures from $ref"
RESULTS_DIR="$ref" PLOTS_OUT="$ref/figures" FORMATS="svg png" sh scripts/plots.sh
say "done: $ref (commit it on purpose)"
