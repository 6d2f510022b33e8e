#!/bin/sh
# plots/figure-check.sh OUT RESULTS_CSV: the checks a reader makes at a
# glance, on every SVG figure plots/plots.sh drew into OUT from RESULTS_CSV:
#   - no text outside the canvas, none over another text, no two planners
#     of a legend in one colour (plots/svgcheck.awk; text measured as the
#     PNG draws it, 1.2 times the SVG's: pngcairo's points against the SVG's
#     pixels, measured on a caption line);
#   - every graph of the corpus shown, or the choice stated: the heat map
#     names every graph, the distribution says it is over all of them, the
#     bytes figure says "all N graphs" or "K of the N graphs".
# Prints one line per problem and exits 1 if any; used by
# plots/plots-selftest.sh and tests/report/test-own-corpus.sh.
set -eu
out=$1 csv=$2
cd "$(dirname "$0")/.."
problems=0
bad() { echo "figure-check: $*" >&2; problems=$((problems + 1)); }

# The planners: those of the CSV and the registered ones (build/arenabench list).
planners=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "planner") c = i; next } c { print $c }' "$csv" | sort -u | tr '\n' ' ')
bin=${ARENABENCH:-build/arenabench}
[ ! -x "$bin" ] || planners="$planners $("$bin" list | awk '{ print $1 }' | tr '\n' ' ')"

n=0
for f in "$out"/*.svg; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	awk -v scale=1.2 -v planners="$planners" -f plots/svgcheck.awk "$f" > "$out/.check" || {
		while IFS= read -r line; do bad "$line"; done < "$out/.check"
	}
	rm -f "$out/.check"
done
[ "$n" -gt 0 ] || bad "no SVG figure in $out"

# Coverage: the graphs of the CSV against what the figures say.
texts() { sed -n 's/.*<text>\(.*\)<\/text>.*/\1/p' "$1" | sed 's/<[^>]*>//g; s/^ *//; s/ *$//'; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "graph") c = i; next } { print $c }' "$csv" | sort -u > "$out/.graphs"
ng=$(wc -l < "$out/.graphs" | tr -d ' ')
if [ -f "$out/overhead.svg" ]; then
	texts "$out/overhead.svg" | sort -u > "$out/.texts"
	missing=$(comm -23 "$out/.graphs" "$out/.texts" | head -n 5 | tr '\n' ' ')
	[ -z "$missing" ] || bad "overhead.svg leaves out graphs of the corpus without saying so: $missing"
fi
if [ -f "$out/cdf.svg" ]; then
	texts "$out/cdf.svg" | grep -q "over the $ng graphs" || bad "cdf.svg does not say it is over the $ng graphs of the corpus"
fi
if [ -f "$out/bytes.svg" ]; then
	texts "$out/bytes.svg" | grep -Eq "(^all $ng graphs|of the $ng graphs)" ||
		bad "bytes.svg shows some graphs of the $ng without saying which ('all $ng graphs' or 'K of the $ng graphs')"
fi
rm -f "$out/.graphs" "$out/.texts"
[ "$problems" = 0 ] || exit 1
echo "figure-check: $n figures in $out: no text outside or over another, one colour per planner, the $ng graphs shown or the choice stated" >&2
