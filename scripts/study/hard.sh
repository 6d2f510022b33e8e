#!/bin/sh
# make hard: the budgeted planners against the best fast one on hard
# instances (issue 18) -> results/hard.csv (+ .meta) and
# results/hard_profile.csv (the anytime profile), then the two figures
# (plots/hard.sh).
#
#   sh scripts/study/hard.sh [BUILD]        HARD=full for the full study
#
# Sets (each skipped with a message when absent):
#   tiling      known-optimum problems from build/gen/tiling (guillotine and
#               pinwheel; optimum = 1,048,576 bytes by construction), seeds
#               HARD_SEEDS (31 by default: never used elsewhere in the repo)
#               of 1,000 and 10,000 buffers (full: 1,000, 3,000, 10,000 and
#               100,000 buffers, seeds 31,32,33)
#   minimalloc  ../shared/problems/minimalloc/[A-K].*.csv
#   idealloc    ../shared/problems/idealloc/*.csv (iopddl and SOMAS, 816 to
#               62,185 buffers; see its PROVENANCE.txt)
# Planners: best_of (the best fast plan), local_search and exact at their
# default budgets on tiling and minimalloc; on idealloc best_of and exact,
# exact with --budget HARD_IDEALLOC_BUDGET nodes (default 200,000, untimed:
# plan_ns empty; full: its default budget with a 600 s safety stop, flagged
# in stopped_by, timed).  Align 64
# on tilings (the unit keeps the optimum), 1 elsewhere.  Every run is
# pinned to one core (taskset -c 0 when present) and niced; timing: one
# Google Benchmark repetition.  The profile: `arenabench plan` with exact
# on a few instances, its progress lines (stderr) as CSV.
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
shared=${SHARED_DIR:-../shared}
mode=${HARD:-reduced}
bin=$BUILD/arenabench
timing="--benchmark_repetitions=1 --benchmark_min_time=0.01"
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

case $mode in
full)
	sizes=${HARD_SIZES:-1000,3000,10000,100000}
	seeds=${HARD_SEEDS:-31,32,33}
	ideal_opts="--safety-seconds 600"
	ideal_timing=$timing
	;;
reduced)
	sizes=${HARD_SIZES:-1000,10000}
	seeds=${HARD_SEEDS:-31}
	ideal_opts="--budget ${HARD_IDEALLOC_BUDGET:-200000}"
	ideal_timing=--no-timing
	;;
*)
	echo "hard: HARD=$mode: expected full or reduced" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-hard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p results

"$BUILD/gen/tiling" --sizes "$sizes" --seeds "$seeds" "$tmp/tiling" >/dev/null
rm -f "$tmp/tiling/index.tsv"

mm=""
if [ -d "$shared/problems/minimalloc" ]; then
	mkdir -p "$tmp/minimalloc"
	for f in "$shared"/problems/minimalloc/[A-K].*.csv; do
		ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$tmp/minimalloc/"
	done
	mm=$tmp/minimalloc
else
	echo "hard: $shared/problems/minimalloc absent: minimalloc's suite skipped" >&2
fi
ideal=""
if [ -d "$shared/problems/idealloc" ]; then
	ideal=$shared/problems/idealloc
else
	echo "hard: $shared/problems/idealloc absent: the idealloc instances are skipped" >&2
fi

echo "hard: $mode: tilings $sizes buffers, seeds $seeds; idealloc exact: $ideal_opts" >&2
# shellcheck disable=SC2086
nice $pin "$bin" bench "$tmp/tiling" --planners best_of,local_search,exact \
	--align 64 $timing --out "$tmp/a.csv" >&2
if [ -n "$mm" ]; then
	# shellcheck disable=SC2086
	nice $pin "$bin" bench "$mm" --planners best_of,local_search,exact \
		--align 1 $timing --out "$tmp/b.csv" >&2
fi
if [ -n "$ideal" ]; then
	# shellcheck disable=SC2086
	nice $pin "$bin" bench "$ideal" --planners best_of,exact --align 1 \
		$ideal_opts $ideal_timing --out "$tmp/c.csv" >&2
fi
{
	cat "$tmp/a.csv"
	for f in "$tmp/b.csv" "$tmp/c.csv"; do
		[ -f "$f" ] && tail -n +2 "$f"
	done
} >"$tmp/hard.csv"
[ -f "$tmp/a.meta" ] && cp "$tmp/a.meta" "$tmp/hard.meta"

# The anytime profile: progress lines of `plan` with exact.
printf 'instance,buffers,phase,nodes,seconds,peak_bytes,bound_bytes\n' >"$tmp/profile.csv"
profile() { # FILE ALIGN [OPTIONS]
	pf=$1
	pa=$2
	shift 2
	name=$(basename "$pf" .csv)
	n=$(($(wc -l <"$pf") - 1))
	# shellcheck disable=SC2086
	nice $pin "$bin" plan "$pf" --planner exact --align "$pa" "$@" 2>"$tmp/err" >/dev/null ||
		{ cat "$tmp/err" >&2; exit 1; }
	awk -v name="$name" -v n="$n" '
		/: (best_of|complete search|restarts|hole closing|band repair|skyline search|window repair): peak / {
			phase = $0; sub(/^.*\.csv: /, "", phase); sub(/: peak.*/, "", phase)
			match($0, /peak [0-9]+/); peak = substr($0, RSTART + 5, RLENGTH - 5)
			match($0, /bound [0-9]+/); bound = substr($0, RSTART + 6, RLENGTH - 6)
			match($0, /[0-9]+ nodes/); nodes = substr($0, RSTART, RLENGTH - 6)
			match($0, /[0-9.]+ s$/); secs = substr($0, RSTART, RLENGTH - 2)
			printf "%s,%s,%s,%s,%s,%s,%s\n", name, n, phase, nodes, secs, peak, bound
		}' "$tmp/err" >>"$tmp/profile.csv"
}
first_seed=${seeds%%,*}
for f in "$tmp/tiling/guillotine_n1000_s$first_seed.csv" "$tmp/tiling/pinwheel_n1000_s$first_seed.csv" \
	"$tmp/tiling/guillotine_n10000_s$first_seed.csv"; do
	[ -f "$f" ] && profile "$f" 64
done
[ -n "$mm" ] && profile "$mm/D.1048576.csv" 1
[ -n "$ideal" ] && [ -f "$ideal/iopddl_S_1.csv" ] && {
	# shellcheck disable=SC2086
	profile "$ideal/iopddl_S_1.csv" 1 $ideal_opts
}

mv "$tmp/hard.csv" results/hard.csv
[ -f "$tmp/hard.meta" ] && mv "$tmp/hard.meta" results/hard.meta
mv "$tmp/profile.csv" results/hard_profile.csv
echo "hard: wrote results/hard.csv and results/hard_profile.csv" >&2
sh plots/hard.sh
