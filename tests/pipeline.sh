#!/bin/sh
# The long tier's pipeline run, so it cannot rot: a quick `make bench` on
# the starter and synthetic graphs, then `make plots` and `make paper` from
# it, into a scratch copy of the tracked tree (results/ here is untouched).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-pipeline.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
tmp=$scratch/c
mkdir "$tmp"
git ls-files -z | xargs -0 cp -p --parents -t "$tmp"
cp -a "$build" "$tmp/build"
[ -d ../shared ] && ln -s "$(cd ../shared && pwd)" "$scratch/shared"
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$tmp" BUILD=build "$@"; }
mk bench CORPUS_DIRS="graphs/starter graphs/synthetic" \
	BENCH_FLAGS="--benchmark_min_time=0.001 --benchmark_repetitions=1"
mk plots
mk paper
test -s "$tmp/paper/paper.pdf"
echo "pipeline: bench -> plots -> paper: 1 passed, 0 failed"
