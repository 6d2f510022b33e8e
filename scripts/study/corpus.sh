#!/bin/sh
# Regenerates the corpus from the generators in graphs/gen/.
#
#   scripts/study/corpus.sh            graphs/zoo, graphs/synthetic, graphs/sweep
#                                (the committed files; 10^2 and 10^3 sweep)
#   scripts/study/corpus.sh sweep      BUILD/sweep/: the scale sweep, 10^2..10^6
#                                buffers, seeds 1-3, plus BUILD/sweep/index.tsv
#
# BUILD (default: build) names the build directory holding gen/zoo,
# gen/synthetic and gen/sweep; missing generators are built with make.
# Generators write through temporary files and renames, and a folder is only
# replaced once every graph in it was written.
set -eu

BUILD=${BUILD:-build}
cd "$(dirname "$0")/../.."

gens="$BUILD/gen/zoo $BUILD/gen/synthetic $BUILD/gen/sweep"
for g in $gens; do
	[ -x "$g" ] || { make --no-print-directory BUILD="$BUILD" $gens >&2; break; }
done

# replace_dir GLOB DEST TMP: swap DEST's generated files for TMP's.
replace_dir() {
	rd_glob=$1 rd_dest=$2 rd_src=$3
	mkdir -p "$rd_dest"
	# shellcheck disable=SC2086
	rm -f "$rd_dest"/$rd_glob
	# shellcheck disable=SC2086
	mv "$rd_src"/$rd_glob "$rd_dest"/
	rm -rf "$rd_src"
}

case "${1:-committed}" in
committed)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-corpus.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	"$BUILD/gen/zoo" "$tmp/zoo" 2>/dev/null
	"$BUILD/gen/synthetic" --corpus "$tmp/synthetic"
	"$BUILD/gen/sweep" --sizes 100,1000 --seeds 1,2,3 "$tmp/sweep" >/dev/null
	replace_dir '*.graph' graphs/zoo "$tmp/zoo"
	replace_dir '*.graph' graphs/synthetic "$tmp/synthetic"
	rm -f graphs/sweep/index.csv
	mv "$tmp/sweep/index.tsv" graphs/sweep/index.tsv
	replace_dir '*.csv' graphs/sweep "$tmp/sweep"
	echo "corpus: $(ls graphs/zoo | wc -l) zoo, $(ls graphs/synthetic | wc -l) synthetic, $(ls graphs/sweep/sweep_*.csv | wc -l) sweep problems" >&2
	;;
sweep)
	"$BUILD/gen/sweep" --sizes 100,1000,10000,100000,1000000 --seeds 1,2,3 \
		"$BUILD/sweep" >/dev/null
	echo "corpus: scale sweep in $BUILD/sweep/ (index: $BUILD/sweep/index.tsv)" >&2
	;;
*)
	echo "usage: scripts/study/corpus.sh [committed|sweep]   (env BUILD=dir)" >&2
	exit 2
	;;
esac
