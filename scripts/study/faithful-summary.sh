#!/bin/sh
# The faithful baselines against the bound and the best plan known, from
# the baselines study (make baselines): a markdown table for README's
# faithful-baselines section.  Per planner and set (minimalloc's suite;
# the real corpus: graphs/zoo and the shared .tflite models), at the
# study's alignment: geometric mean of peak / lower bound, graphs at the
# bound, and geometric mean of peak / best (the smallest valid peak of any
# planner on that graph, `exact` included: the optimum where exact proved
# it, optimal=yes).  Invalid rows never count.
#
#   sh scripts/study/faithful-summary.sh [results/baselines.csv]
# Default: results/baselines.csv, else results/reference/baselines.csv.
set -eu
cd "$(dirname "$0")/../.."
csv=${1:-}
if [ -z "$csv" ]; then
	csv=results/baselines.csv
	[ -f "$csv" ] || csv=results/reference/baselines.csv
fi
[ -f "$csv" ] || { echo "faithful-summary: no $csv: run 'make baselines'" >&2; exit 1; }
echo "<!-- sh scripts/study/faithful-summary.sh $csv -->"
awk -F, -v list="tflm_greedy tflite_arena greedy_by_size_gpu gpu_greedy_in_order xla_best_fit ggml_gallocr executorch_greedy ort_sequential ort_mem_pattern best_of exact" '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["valid"] == "yes" {
	s = ($c["family"] == "minimalloc") ? "m" : "r"
	g = s SUBSEP $c["graph"]; p = $c["planner"]
	pk[g, p] = $c["peak_bytes"] + 0; lb[g] = $c["lower_bound_bytes"] + 0
	if (!(g in best) || pk[g, p] < best[g]) best[g] = pk[g, p]
	if ($c["optimal"] == "yes") opt[g] = 1
	gs[g] = s
}
END {
	n = split(list, pl, " ")
	print "| planner | minimalloc: peak / bound | at bound | peak / best | real: peak / bound | at bound | peak / best |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (k = 1; k <= n; k++) {
		p = pl[k]
		for (si = 1; si <= 2; si++) {
			s = si == 1 ? "m" : "r"
			cnt[s] = 0; lr[s] = 0; lbest[s] = 0; at[s] = 0
			for (g in gs) {
				if (gs[g] != s || !((g, p) in pk) || lb[g] <= 0) continue
				cnt[s]++; lr[s] += log(pk[g, p] / lb[g]); lbest[s] += log(pk[g, p] / best[g])
				if (pk[g, p] == lb[g]) at[s]++
			}
		}
		if (!cnt["m"] && !cnt["r"]) continue
		printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", p,
			cnt["m"] ? sprintf("%.4f", exp(lr["m"] / cnt["m"])) : "--", cnt["m"] ? at["m"] "/" cnt["m"] : "--",
			cnt["m"] ? sprintf("%.4f", exp(lbest["m"] / cnt["m"])) : "--",
			cnt["r"] ? sprintf("%.4f", exp(lr["r"] / cnt["r"])) : "--", cnt["r"] ? at["r"] "/" cnt["r"] : "--",
			cnt["r"] ? sprintf("%.4f", exp(lbest["r"] / cnt["r"])) : "--"
	}
}' "$csv"
