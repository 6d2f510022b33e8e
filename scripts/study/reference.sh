#!/bin/sh
# make reference: the full study, written on purpose to results/reference/
# (CSVs, their .meta sidecars with the machine, and the figures they feed).
# CI never runs this; commit the result deliberately.
#
#   sh scripts/study/reference.sh [BUILD]
#
# Steps (each writes into results/ first, then is copied):
#   1. make bench      default corpus, fast planners, aligns 1,16,64, timed
#   2. make sweep      the zoo at every alignment with every planner
#                      (budgeted ones included) -> sweep.csv
#   3. make scaling    10^2..10^6 buffers (REF_SCALING_SEEDS, default 1;
#                      pinned to CPU ${SCALING_PIN:-1}: that core should be idle)
#   4. make bench-cli  hyperfine whole-command times
#   5. make baselines  every planner on minimalloc's suite + the real corpus
#   6. make transforms reordering and in-place reuse
#   7. make plots      from the copies in results/reference/
# REF_STEPS (default "1 2 3 4 5 6") picks steps to redo; the copies of the
# other steps' CSVs already in results/reference/ are kept.
# Local results/*.csv are moved aside first and restored at the end, so a
# reference run never clobbers a user's own run.
# A reference names the revision it was measured at: from a tree with
# uncommitted changes (git status not empty) it refuses, unless
# FORCE_DIRTY=1, and then every .meta it writes says so (forced_dirty=).
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
dirty=$(git status --porcelain 2>/dev/null | head -n 5)
forced=""
if [ -n "$dirty" ]; then
	if [ "${FORCE_DIRTY:-0}" != 1 ]; then
		printf 'reference: the tree has uncommitted changes; a reference must name the revision it ran:\n%s\n' "$dirty" >&2
		printf 'reference: commit them, or set FORCE_DIRTY=1 to record anyway (the .meta files will say so)\n' >&2
		exit 1
	fi
	forced="yes (FORCE_DIRTY=1: recorded from $(git rev-parse --short=10 HEAD) with uncommitted changes)"
	printf 'reference: FORCE_DIRTY=1: recording from a dirty tree; the .meta files say so\n' >&2
fi
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
steps=${REF_STEPS:-1 2 3 4 5 6}
want() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
if want 1; then
	say "1/7 make bench"
	make --no-print-directory BUILD="$BUILD" -j"$jobs" bench
fi
if want 2; then
	say "2/7 make sweep (zoo, every alignment and planner)"
	make --no-print-directory BUILD="$BUILD" -j"$jobs" sweep CORPUS_DIRS=graphs/zoo
fi
if want 3; then
	say "3/7 make scaling"
	SCALING_SEEDS=${REF_SCALING_SEEDS:-1} SCALING_PIN=${SCALING_PIN:-1} make --no-print-directory BUILD="$BUILD" scaling
fi
if want 4; then
	say "4/7 make bench-cli"
	make --no-print-directory BUILD="$BUILD" bench-cli
fi
if want 5; then
	say "5/7 make baselines"
	make --no-print-directory BUILD="$BUILD" -j"$jobs" baselines
fi
if want 6; then
	say "6/7 make transforms"
	make --no-print-directory BUILD="$BUILD" -j"$jobs" transforms
fi
# each file copied complete and renamed into place (scripts/lib/outputs.sh):
# a full disk leaves the committed reference as it was
. scripts/lib/outputs.sh
for f in results/*.csv results/*.meta; do
	[ -e "$f" ] || continue
	case $f in
	*.meta)
		if [ -n "$forced" ]; then
			{ cat "$f"; echo "forced_dirty=$forced"; } > "$keep/.forced.meta" &&
				[ "$(tail -n 1 "$keep/.forced.meta")" = "forced_dirty=$forced" ] ||
				{ echo "reference: cannot write $keep/.forced.meta" >&2; exit 2; }
			out_install "$keep/.forced.meta" "$ref/${f##*/}" || exit 2
			rm -f "$keep/.forced.meta"
			continue
		fi ;;
	esac
	out_install "$f" "$ref/${f##*/}" || exit 2
done
say "7/7 figures from $ref"
RESULTS_DIR="$ref" PLOTS_OUT="$ref/figures" FORMATS="svg png" sh plots/plots.sh
say "done: $ref (commit it on purpose)"
