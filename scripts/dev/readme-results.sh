#!/bin/sh
# scripts/dev/readme-results.sh [--check|--write] [README]: README's
# generated blocks, from the committed reference CSVs (results/reference/)
# only.  Each block sits between
#   <!-- generated:NAME begin: sh scripts/dev/readme-results.sh --write -->
#   <!-- generated:NAME end -->
# NAME: faithful (the runtime baselines' table and paragraph), scaling
# (times, their multiples of the sort and slopes at 10^6 buffers), results (the findings), explain (an
# excerpt of `explain` on TFLite Micro's person-detection model, run with
# the built binary), explain-full (its whole output, the timing line
# masked; docs/explain.md), test-times (make test's and make test-long's
# recorded times, results/reference/test-times-*.tsv).  Any file with such markers can be checked.  The numbers are the paper's (paper/gen/paper-numbers.sh
# on the reference, at alignment 1) and scripts/lib/common.awk's.
#   --check  (default) exit 1 with a diff when README differs from what
#            this script writes (make test runs it: a stale number fails)
#   --write  rewrite the blocks in README in place
# Environment: ARENABENCH (default build/arenabench), REFERENCE (default
# results/reference), EXPLAIN_MODEL (default ../shared/models/tflm/
# person_detect.tflite; without it the explain block is left as it is,
# said on stderr).
set -eu
cd "$(dirname "$0")/../.."
mode=--check
case ${1:-} in --check|--write) mode=$1; shift ;; esac
readme=${1:-README.md}
ref=${REFERENCE:-results/reference}
bin=${ARENABENCH:-build/arenabench}
model=${EXPLAIN_MODEL:-../shared/models/tflm/person_detect.tflite}

say() { printf 'readme-results: %s\n' "$*" >&2; }
for f in results.csv results.meta baselines.csv scaling.csv transforms.csv; do
	[ -f "$ref/$f" ] || { say "no $ref/$f"; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-results.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The paper's numbers for the reference alone, at alignment 1.
mkdir -p "$tmp/res"
ln -s "$(cd "$ref" && pwd)" "$tmp/res/reference"
RESULTS_DIR=$tmp/res PAPER_GENERATED=$tmp/gen PLOTS_OUT=$tmp/plots PAPER_ALIGN=1 \
	sh paper/gen/paper-numbers.sh 2>"$tmp/numbers.log" || { cat "$tmp/numbers.log" >&2; exit 2; }
# \newcommand{\Name}{value} -> Name<TAB>value in markdown.
cat "$tmp/gen"/*.tex | sed -n 's/^\\newcommand{\\\([A-Za-z]*\)}{\(.*\)}$/\1	\2/p' |
	sed -e 's/\\texttt{\([^}]*\)}/`\1`/g' -e 's/\\_/_/g' -e 's/\\,\\%/%/g' -e 's/\$-\$/-/g' \
	    -e 's/\\textmu{}/µ/g' -e 's/\\,/ /g' > "$tmp/macros"
awk -F, -f scripts/lib/common.awk -f scripts/lib/slopes.awk "$ref/scaling.csv" > "$tmp/slopes.csv"

# Prose lines wrapped at 76 columns (a bullet's continuation indented by
# two); table rows and empty lines kept as they are.
wrap() {
	awk '
		/^\|/ || /^$/ { print; next }
		{
			ind = ($0 ~ /^- /) ? "  " : ""
			n = split($0, w, " "); line = ""
			for (i = 1; i <= n; i++) {
				if (line != "" && length(line) + 1 + length(w[i]) > 76) { print line; line = ind w[i] }
				else line = (line == "" ? w[i] : line " " w[i])
			}
			if (line != "") print line
		}'
}

gen_block() {
	case $1 in
	explain)
		if [ ! -f "$model" ] || [ ! -x "$bin" ]; then
			return 1
		fi
		# The planners table (three rows and the best) and the peak step.
		"$bin" explain "$model" > "$tmp/explain.txt" 2>/dev/null || return 1
		echo '```'
		echo "\$ arenabench explain ${model##*/}"
		awk '
			/^planners at / { on = 1; print; next }
			on == 1 && /^  planner / { print; next }
			on == 1 && /^  [a-z_]+ / { n++; if (n <= 3 || $0 ~ / best /) print; else if (!dots) { print "  ..."; dots = 1 }; next }
			on == 1 && !/^  / { on = 2 }
			/^where the memory goes/ { print; getline; print; exit }
		' "$tmp/explain.txt"
		echo '```'
		;;
	test-times)
		# make test's and make test-long's time from a recorded run of
		# each (scripts/run-tests.sh writes them; copied into reference/).
		# (the long tier's row once a run of it is recorded)
		[ -f "$ref/test-times-fast.tsv" ] || { say "no $ref/test-times-fast.tsv"; return 1; }
		long=$ref/test-times-long.tsv
		[ -f "$long" ] || long=
		awk -F'\t' '
			function mmss(s) { return sprintf("%d min %02d s", s / 60, s % 60) }
			FNR == 1 { tier = (FILENAME ~ /fast/) ? "fast" : "long"; split($0, h, ": "); rev[tier] = h[2] }
			FNR == 2 { sub(/^# machine: /, ""); machine[tier] = $0 }
			/^#/ || $1 == "step" { next }
			{ total[tier] += $2; if ($2 > top[tier]) { top[tier] = $2; slow[tier] = $1 } }
			END {
				printf "Recorded runs (`results/reference/test-times-*.tsv`, written by `scripts/run-tests.sh`):\n\n"
				printf "| command | time | slowest step | recorded on |\n| --- | ---: | --- | --- |\n"
				printf "| `make test` | %s | %s (%d s) | %s; %s |\n", mmss(total["fast"]), slow["fast"], top["fast"], rev["fast"], machine["fast"]
				if ("long" in total)
					printf "| `make test-long` | %s | %s (%d s) | %s; %s |\n", mmss(total["long"]), slow["long"], top["long"], rev["long"], machine["long"]
			}' "$ref/test-times-fast.tsv" $long
		;;
	explain-full)
		# The whole output; the timing line varies by run, so it is masked.
		if [ ! -f "$model" ] || [ ! -x "$bin" ]; then
			return 1
		fi
		"$bin" explain "$model" > "$tmp/explain.txt" 2>/dev/null || return 1
		echo '```'
		sed 's|^time (wall / CPU ms): .*|time (wall / CPU ms): ... (measured on each run; masked here)|' "$tmp/explain.txt"
		echo '```'
		;;
	*)
		awk -F, -v block="$1" -f scripts/lib/common.awk -f scripts/dev/readme-results.awk \
			"$tmp/macros" "$ref/results.csv" "$ref/baselines.csv" "$ref/scaling.csv" "$tmp/slopes.csv" "$ref/results.meta" \
			"$(if [ -f "$ref/scaling.meta" ]; then echo "$ref/scaling.meta"; else echo /dev/null; fi)" |
			wrap
		;;
	esac
}

# The README with every block regenerated.
cp "$readme" "$tmp/new"
for name in faithful scaling results explain explain-full test-times; do
	grep -q "^<!-- generated:$name begin" "$tmp/new" || continue
	if ! gen_block "$name" > "$tmp/block"; then
		say "block '$name' kept as it is (needs $bin and $model)"
		continue
	fi
	awk -v name="$name" -v block="$tmp/block" '
		$0 ~ "^<!-- generated:" name " begin" { print; while ((getline l < block) > 0) print l; skip = 1; next }
		$0 ~ "^<!-- generated:" name " end" { skip = 0 }
		!skip { print }' "$tmp/new" > "$tmp/new2"
	mv "$tmp/new2" "$tmp/new"
done

if [ "$mode" = --write ]; then
	if cmp -s "$readme" "$tmp/new"; then
		say "$readme is up to date"
	else
		cp "$tmp/new" "$readme"
		say "rewrote the generated blocks of $readme"
	fi
	exit 0
fi
if ! cmp -s "$readme" "$tmp/new"; then
	say "$readme differs from what the reference CSVs give (run: sh scripts/dev/readme-results.sh --write):"
	diff -u "$readme" "$tmp/new" >&2 || :
	exit 1
fi
say "$readme matches the reference CSVs"
