#!/bin/sh
# `make bench` on several cores: one shard per input, merged in corpus order.
#
#   sh scripts/study/bench-parallel.sh BUILD JOBS OUT INPUT... [-- BENCH_FLAGS...]
#
# INPUTs are files or directories (expanded like `arenabench bench` does:
# .graph/.csv/.tflite/.onnx, sorted by name, not recursive; order of the INPUTs
# kept).  Input k goes to worker k mod JOBS; each worker runs its inputs
# one after another, each as `arenabench bench FILE --out
# BUILD/shards/NNNN.csv`, and is pinned to its own core with taskset
# (worker w on the w-th CPU this process may use), so no two timings ever
# share a core.  They do share the machine (caches, memory bandwidth, and
# whatever else runs), which the metadata says (parallel_jobs, pinning).
# Without taskset, or with JOBS=1, shards run one at a time.
# The merge keeps one header and the rows in corpus order, so the result
# does not depend on JOBS or on which worker finished first; OUT and its
# .meta sidecar appear together (temporary files, then rename), and only if
# every shard succeeded.  Exit: 0, 1 when some plan was invalid (rows
# kept, as `arenabench bench` does), 2 on error.
set -eu

[ $# -ge 4 ] || { echo "usage: scripts/study/bench-parallel.sh BUILD JOBS OUT INPUT... [-- BENCH_FLAGS...]" >&2; exit 2; }
BUILD=$1 JOBS=$2 OUT=$3
shift 3
cd "$(dirname "$0")/../.."
BIN=${ARENABENCH:-$BUILD/arenabench}
case $JOBS in '' | *[!0-9]* | 0) echo "scripts/study/bench-parallel.sh: JOBS must be a positive integer, got '$JOBS'" >&2; exit 2 ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-shards.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
: > "$tmp/inputs"
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	if [ -d "$1" ]; then
		# LC_ALL=C: byte order, as strcmp() in arenabench's expand_inputs
		find "$1" -maxdepth 1 -type f \( -name '*.graph' -o -name '*.csv' -o -name '*.tflite' -o -name '*.onnx' \) \
			! -name '.*' | LC_ALL=C sort >> "$tmp/inputs"
	elif [ -f "$1" ]; then
		echo "$1" >> "$tmp/inputs"
	else
		echo "scripts/study/bench-parallel.sh: $1: no such file or directory" >&2
		exit 2
	fi
	shift
done
[ $# -gt 0 ] && shift # the --
[ -s "$tmp/inputs" ] || { echo "scripts/study/bench-parallel.sh: no inputs" >&2; exit 2; }

SHARDS=$BUILD/shards
rm -rf "$SHARDS"
mkdir -p "$SHARDS" "$(dirname "$OUT")"

# The CPUs this process may run on, one per worker.
cpus=$(taskset -pc $$ 2>/dev/null | awk -F': ' '{ print $2 }' | tr ',' '\n' |
	awk -F- 'NF == 2 { for (c = $1; c <= $2; c++) print c; next } { print $1 }')
ncpu=$(echo "$cpus" | grep -c . || true)
if [ "$JOBS" -gt 1 ] && { ! command -v taskset >/dev/null || [ "$ncpu" -lt "$JOBS" ]; }; then
	echo "scripts/study/bench-parallel.sh: cannot pin $JOBS workers to distinct cores; running shards one at a time" >&2
	JOBS=1
fi
pinning=none
[ "$JOBS" -gt 1 ] && pinning="taskset, one worker per core"

total=$(wc -l < "$tmp/inputs")
w=0
while [ "$w" -lt "$JOBS" ]; do
	cpu=$(echo "$cpus" | sed -n "$((w + 1))p")
	(
		k=0
		while IFS= read -r f; do
			if [ $((k % JOBS)) = "$w" ]; then
				shard=$SHARDS/$(printf '%05d' "$k").csv
				pin=
				[ "$JOBS" -gt 1 ] && pin="taskset -c $cpu"
				echo "[shard $((k + 1))/$total worker $w] $f" >&2
				rc=0
				# shellcheck disable=SC2086
				$pin "$BIN" bench "$f" --out "$shard" --quiet "$@" || rc=$?
				[ "$rc" -le 1 ] || { echo "$rc" > "$tmp/failed.$w"; exit "$rc"; }
				[ "$rc" = 0 ] || touch "$tmp/invalid.$w"
			fi
			k=$((k + 1))
		done < "$tmp/inputs"
	) &
	w=$((w + 1))
done
wait || true
if ls "$tmp"/failed.* >/dev/null 2>&1; then
	echo "scripts/study/bench-parallel.sh: a shard failed; $OUT is unchanged" >&2
	exit 2
fi

# Merge: shards are numbered in corpus order; one header.
first=$SHARDS/00000.csv
[ -f "$first" ] || { echo "scripts/study/bench-parallel.sh: no shard written" >&2; exit 2; }
{
	head -n 1 "$first"
	for s in "$SHARDS"/[0-9]*.csv; do
		if [ "$(head -n 1 "$s")" != "$(head -n 1 "$first")" ]; then
			echo "scripts/study/bench-parallel.sh: $s has a different header" >&2
			exit 2
		fi
		tail -n +2 "$s"
	done
} > "$tmp/merged.csv"
{
	grep -v '^command=' "$SHARDS/00000.meta"
	echo "command=sh scripts/study/bench-parallel.sh $BUILD $JOBS $OUT ($total inputs, one arenabench bench per input) $*"
	echo "parallel_jobs=$JOBS"
	echo "pinning=$pinning"
	echo "shards=$total"
} > "$tmp/merged.meta"
meta=${OUT%.csv}.meta
cp "$tmp/merged.csv" "$OUT.tmp" && cp "$tmp/merged.meta" "$meta.tmp"
mv "$OUT.tmp" "$OUT" && mv "$meta.tmp" "$meta"
echo "bench-parallel: wrote $(($(wc -l < "$OUT") - 1)) rows from $total shards to $OUT ($JOBS workers)" >&2
if ls "$tmp"/invalid.* >/dev/null 2>&1; then
	exit 1
fi
exit 0
