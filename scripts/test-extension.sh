#!/bin/sh
# The promise of the registry, checked end to end: copy
# planners/size_first_fit.c to planners/my_planner.c with the name changed,
# rebuild, and my_planner must appear in `arenabench list` and in the CSV
# of a bench run, with no other edit.  Works on a copy of the tracked tree.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-ext.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
git ls-files -z | xargs -0 cp --parents -t "$tmp"
sed 's/size_first_fit/my_planner/g' planners/size_first_fit.c > "$tmp/planners/my_planner.c"
# A make of its own: not the calling make's BUILD, OPT or sanitizer flags.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u OPT -u CFLAGS -u LDFLAGS make -s -C "$tmp" -j2 BUILD=build build/arenabench >/dev/null
"$tmp/build/arenabench" list | grep -q '^my_planner ' ||
	{ echo "test-extension: my_planner is not in 'arenabench list'" >&2; exit 1; }
"$tmp/build/arenabench" bench graphs/starter --no-timing --quiet \
	--planners my_planner,size_first_fit --align 1 --out "$tmp/r.csv"
rows=$(awk -F, 'NR > 1 && $11 == "my_planner" && $15 == "yes"' "$tmp/r.csv" | wc -l)
[ "$rows" -eq "$(ls graphs/starter/*.graph | wc -l)" ] ||
	{ echo "test-extension: expected a valid my_planner row per starter graph, got $rows" >&2; exit 1; }
# Same peaks as the planner it copies, graph by graph.
awk -F, 'NR > 1 { peak[$2 "," $11] = $17 }
	END { for (k in peak) { split(k, a, ","); if (a[2] == "my_planner" && peak[k] != peak[a[1] ",size_first_fit"]) bad++ }
	      exit bad > 0 }' "$tmp/r.csv" ||
	{ echo "test-extension: my_planner's peaks differ from size_first_fit's" >&2; exit 1; }
echo "test-extension: 1 passed, 0 failed"
