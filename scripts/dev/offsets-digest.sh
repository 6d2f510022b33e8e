#!/bin/sh
# The offsets regression without a second build: every fast planner's
# emitted plan (`plan --emit-plan`, minimalloc's solution format: id,
# lower, upper, size, offset) reduced to its sha256 and peak, kept in
# results/reference/offsets.tsv, one row per (planner, input, alignment):
#
#   planner  input  align  sha256  peak_bytes
#
# (sha256 is `sha256sum` of the emitted file; an input refused by `plan`
# is recorded as refused:EXIT with no peak, so a change there shows too.)
#
#   sh scripts/dev/offsets-digest.sh --write [SET...]   (make offsets-reference)
#   sh scripts/dev/offsets-digest.sh --check [SET...]   (the long test tier)
#
# SETs (default: all four):
#   graphs  every .graph and .csv of graphs/ (as compare-offsets.sh), align 1, 64
#   sweep4  the scale sweep's 10^4-buffer problem, seed 1 (gen/sweep), align 1
#   sweep5  the same at 10^5 buffers, align 1
#   shared  ../shared's minimalloc suite and models (.csv, .tflite, .onnx),
#           align 1, 64; without ../shared: skipped, said so
# --write replaces the rows of the SETs named and keeps the others' rows;
# --check plans the SETs again and fails on every row that differs, is
# missing or is new, naming planner, input and alignment (make test's fast
# tier checks the graphs set in-process: tests/test_offsets.c).
# Environment: BUILD [build], ARENABENCH [BUILD/arenabench], JOBS [1]
# (plans run at once), OFFSETS [results/reference/offsets.tsv].
# A planner that is meant to move offsets re-records with --write (make
# offsets-reference) and its commit says why.
set -eu
cd "$(dirname "$0")/../.."
mode=${1:-}
case $mode in --write|--check) shift ;; *) echo "usage: $0 --write|--check [graphs sweep4 sweep5 shared]" >&2; exit 2 ;; esac
sets=${*:-graphs sweep4 sweep5 shared}
build=${BUILD:-build}
bin=${ARENABENCH:-$build/arenabench}
jobs=${JOBS:-1}
stored=${OFFSETS:-results/reference/offsets.tsv}
shared=../shared
[ -x "$bin" ] || { echo "offsets-digest: no $bin (make)" >&2; exit 2; }
for s in $sets; do
	case $s in graphs|sweep4|sweep5|shared) ;; *) echo "offsets-digest: unknown set '$s' (graphs sweep4 sweep5 shared)" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/offsets-digest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
planners=$("$bin" list | awk '$2 == "fast" { print $1 }')
skipped=0

# jobs.txt: one line per plan, "FILE NAME ALIGN PLANNER" (NAME is the
# input as the TSV names it: a path from the repository's root, or
# sweep/FILE for a generated sweep problem).
: > "$tmp/jobs.txt"
add() { # FILE NAME "ALIGNS"
	for a in $3; do
		for p in $planners; do
			echo "$1 $2 $a $p" >> "$tmp/jobs.txt"
		done
	done
}
# names of the sets each TSV input belongs to (a row's set, for --write's merge)
set_of() { # NAME
	case $1 in
	graphs/*) echo graphs ;;
	sweep/sweep_n10000_*) echo sweep4 ;;
	sweep/sweep_n100000_*) echo sweep5 ;;
	*) echo shared ;;
	esac
}
for s in $sets; do
	case $s in
	graphs)
		for f in $(find graphs -path '*/gen' -prune -o \( -name '*.graph' -o -name '*.csv' \) -print | LC_ALL=C sort); do
			add "$f" "$f" "1 64"
		done ;;
	sweep4|sweep5)
		n=10000
		[ "$s" = sweep5 ] && n=100000
		[ -x "$build/gen/sweep" ] || { echo "offsets-digest: no $build/gen/sweep (make)" >&2; exit 2; }
		"$build/gen/sweep" --sizes "$n" --seeds 1 "$tmp/sweep" >/dev/null
		add "$tmp/sweep/sweep_n${n}_s1.csv" "sweep/sweep_n${n}_s1.csv" 1 ;;
	shared)
		if [ ! -d "$shared/problems/minimalloc" ] || [ ! -d "$shared/models" ]; then
			echo "skipped: the shared set: no $shared (minimalloc's suite and the shared models)"
			skipped=$((skipped + 1))
			sets=$(echo " $sets " | sed 's/ shared / /')
			continue
		fi
		for f in $(find "$shared/problems/minimalloc" "$shared/models" -type f \( -name '*.csv' -o -name '*.tflite' -o -name '*.onnx' \) | LC_ALL=C sort); do
			add "$f" "$f" "1 64"
		done ;;
	esac
done

# One plan: its row on stdout.
cat > "$tmp/one.sh" <<'EOF'
f=$1 name=$2 a=$3 p=$4
out=$OFFSETS_TMP/plan.$$.csv
rc=0
"$OFFSETS_BIN" plan "$f" --planner "$p" --align "$a" --emit-plan "$out" > "$out.txt" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ -f "$out" ]; then
	peak=$(sed -n 's/^peak: *\([0-9][0-9]*\) bytes.*/\1/p' "$out.txt")
	printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$name" "$a" "$(sha256sum < "$out" | cut -d' ' -f1)" "$peak"
else
	printf '%s\t%s\t%s\trefused:%s\t\n' "$p" "$name" "$a" "$rc"
fi
rm -f "$out" "$out.txt"
EOF
# shellcheck disable=SC2016 # $1.. expand in the inner shell
OFFSETS_BIN=$bin OFFSETS_TMP=$tmp xargs -P "$jobs" -L 1 sh -c 'sh "$1" "$2" "$3" "$4" "$5"' sh "$tmp/one.sh" < "$tmp/jobs.txt" |
	sed "s|$tmp/sweep/|sweep/|" > "$tmp/rows.raw"
# rows keyed and ordered by input, planner, alignment (numeric)
LC_ALL=C sort -t "$(printf '\t')" -k2,2 -k1,1 -k3,3n "$tmp/rows.raw" > "$tmp/rows.tsv"

header='planner	input	align	sha256	peak_bytes'
# the stored rows outside the SETs planned here
in_sets() { # NAME
	case " $sets " in *" $(set_of "$1") "*) return 0 ;; esac
	return 1
}
: > "$tmp/kept.tsv"
: > "$tmp/old.tsv"
if [ -f "$stored" ]; then
	grep -v '^#' "$stored" | tail -n +2 | while IFS='	' read -r p name a h pk; do
		if in_sets "$name"; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$name" "$a" "$h" "$pk" >> "$tmp/old.tsv"
		else
			printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$name" "$a" "$h" "$pk" >> "$tmp/kept.tsv"
		fi
	done
fi

if [ "$mode" = --write ]; then
	mkdir -p "$(dirname "$stored")"
	{
		echo "# every fast planner's emitted plan (plan --emit-plan) by sha256, and its peak; scripts/dev/offsets-digest.sh --write (make offsets-reference)"
		echo "$header"
		cat "$tmp/kept.tsv" "$tmp/rows.tsv" | LC_ALL=C sort -t "$(printf '\t')" -k2,2 -k1,1 -k3,3n
	} > "$stored.tmp"
	mv "$stored.tmp" "$stored"
	echo "offsets-digest: wrote $stored ($(wc -l < "$tmp/rows.tsv" | tr -d ' ') rows for: $sets; $(wc -l < "$tmp/kept.tsv" | tr -d ' ') kept from other sets)"
	exit 0
fi

[ -f "$stored" ] || { echo "offsets-digest: no $stored (make offsets-reference)" >&2; exit 2; }
# --check: every row of the SETs, both ways
awk -F'\t' -v old="$tmp/old.tsv" '
	BEGIN { while ((getline l < old) > 0) { split(l, f, "\t"); k = f[1] " on " f[2] " align " f[3]; was[k] = f[4] "\t" f[5]; order[++n] = k } }
	{
		k = $1 " on " $2 " align " $3; now = $4 "\t" $5; seen[k] = 1
		if (!(k in was)) { printf "offsets-digest: FAIL %s: no recorded row (now %s, peak %s)\n", k, $4, $5; bad++; next }
		split(was[k], w, "\t")
		if (was[k] != now) { printf "offsets-digest: FAIL %s: offsets changed: recorded %s (peak %s), now %s (peak %s)\n", k, w[1], w[2], $4, $5; bad++ }
		else good++
	}
	END {
		for (i = 1; i <= n; i++) if (!(order[i] in seen)) { printf "offsets-digest: FAIL %s: recorded, not planned now\n", order[i]; bad++ }
		if (bad) print "offsets-digest: re-record a planner that is meant to move offsets with: make offsets-reference (and say why in the commit)"
		printf "offsets-digest: %d passed, %d failed, %d skipped\n", good, bad, skipped
		exit bad ? 1 : 0
	}' skipped="$skipped" "$tmp/rows.tsv"
