# paper/gen/baselines-table.awk: the paper's planner table (issue 7) from
# results/baselines.csv (columns found by name).  Writes into $dir:
#   tab-baselines.tex   per planner: peak / lower bound (geometric mean) on
#                       minimalloc's suite and on the real corpus, graphs at
#                       the bound, median and largest planning time,
#                       proven optima (optimal=yes) and invalid rows
#   tab-minimalloc.tex  per minimalloc problem: lower bound, the production
#                       baselines, the best single fast planner (best_of
#                       excluded), exact ($^*$: proven optimal)
#   baselines.tex       \newcommand macros quoted in the text
#
#   awk -F, -v dir=paper/generated -f scripts/lib/common.awk -f paper/gen/baselines-table.awk FILE
# Rows with valid != yes never count as results: they are listed in the
# "invalid" column, so a broken planner cannot improve its own row.

BEGIN {
	# minimalloc's published peaks (paper/data/minimalloc-published.csv), if given
	if (published != "") suite_load(published, pub)
}
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	split("graph family planner cost_class lower_bound_bytes valid peak_bytes optimal plan_ns buffers", need, " ")
	for (k in need) if (!(need[k] in c)) { printf "%s: no column %s\n", FILENAME, need[k] > "/dev/stderr"; bad = 1; exit 2 }
	next
}
{
	p = $c["planner"]; g = $c["graph"]
	# minimalloc's suite is A..K (common.awk); its 12-byte example is in neither set.
	set = ($c["family"] != "minimalloc") ? "r" : (suite_problem(g) in pub) ? "m" : ""
	if (set == "") { if (!(g in other)) { other[g] = 1; nother++ }; next }
	if (!(p in seen)) { seen[p] = 1; ord[++np] = p; cost[p] = $c["cost_class"] }
	if (!((set, g) in gseen)) { gseen[set, g] = 1; if (set == "m") mg[++nm] = g; else nr++ }
	if ($c["valid"] != "yes") { invalid[p]++; next }
	lb = $c["lower_bound_bytes"] + 0; pk = $c["peak_bytes"] + 0
	if (lb <= 0) next
	r = pk / lb
	n[p, set]++; geo_add(GS, GN, p SUBSEP set, r); if (pk == lb) atlb[p, set]++
	if ($c["optimal"] == "yes") opt[p, set]++
	if ($c["plan_ns"] != "") { t = $c["plan_ns"] + 0; nt[p]++; ts[p, nt[p]] = t; if (t > tmax[p]) tmax[p] = t }
	if (set == "m") { peak[g, p] = pk; lbm[g] = lb; ok[g, p] = $c["optimal"] }
	if (set == "r" && cost[p] == "fast") { rpk[g, p] = pk; rg[g] = 1 }
}
function gm(p, set) { return n[p, set] ? sprintf("%.4f", geo_mean(GS, GN, p SUBSEP set)) : "--" }
END {
	if (bad) exit 2
	out = dir "/tab-baselines.tex"
	for (j = 1; j <= np; j++) {
		p = ord[j]
		m = nt[p]
		for (k = 1; k <= m; k++) a[k] = ts[p, k]
		med = median(a, m)
		printf "%s & %s & %s & %d/%d & %s & %d/%d & %s & %s & %d & %d \\\\\n", tt(p), cost[p], \
			gm(p, "m"), atlb[p, "m"], n[p, "m"], gm(p, "r"), atlb[p, "r"], n[p, "r"], \
			(m ? nsfmt(med) : "--"), (m ? nsfmt(tmax[p]) : "--"), opt[p, "m"] + opt[p, "r"], invalid[p] + 0 > out
		if (cost[p] == "fast" && p != "best_of" && n[p, "r"] && (best == "" || geo_mean(GS, GN, p SUBSEP "r") < bestv)) {
			best = p; bestv = geo_mean(GS, GN, p SUBSEP "r")
		}
	}
	close(out)
	# Per minimalloc problem.
	out = dir "/tab-minimalloc.tex"
	for (k = 1; k <= nm; k++) {
		g = mg[k]; bf = ""; bfp = ""
		for (j = 1; j <= np; j++) {
			p = ord[j]
			if (cost[p] != "fast" || p == "best_of" || !((g, p) in peak)) continue
			if (bf == "" || peak[g, p] < bf) { bf = peak[g, p]; bfp = p }
		}
		e = ((g, "exact") in peak) ? commas(peak[g, "exact"]) (ok[g, "exact"] == "yes" ? "$^*$" : "") : "--"
		q = g; sub(/\.[0-9]+$/, "", q)
		printf "%s & %s & %s & %s & %s (%s) & %s & %s \\\\\n", q, commas(lbm[g]), \
			((g, "tflm_greedy") in peak) ? commas(peak[g, "tflm_greedy"]) : "--", \
			((g, "tflite_arena") in peak) ? commas(peak[g, "tflite_arena"]) : "--", \
			bf == "" ? "--" : commas(bf), tt(bfp), e, (q in pub) ? commas(pub[q]) : "--" > out
		if ((g, "exact") in peak && peak[g, "exact"] == lbm[g]) exact_lb++
		if ((g, "exact") in peak && q in pub) {
			npub++
			if (peak[g, "exact"] <= pub[q]) { atmost++ }
			if (peak[g, "exact"] < pub[q]) {
				below = below (below == "" ? "" : ", ") q " (" commas(peak[g, "exact"]) " against " commas(pub[q]) ")"
			}
			if (pub[q] == lbm[g]) { publb++; if (peak[g, "exact"] == lbm[g]) bothlb++ }
		}
	}
	close(out)
	out = dir "/baselines.tex"
	printf "\\newcommand{\\BaseMinimallocProblems}{%d}\n", nm > out
	printf "\\newcommand{\\BaseRealGraphs}{%d}\n", nr > out
	printf "\\newcommand{\\BaseOtherMinimalloc}{%d}\n", nother + 0 > out
	printf "\\newcommand{\\BaseBestRealPlanner}{%s}\n", best == "" ? "--" : tt(best) > out
	printf "\\newcommand{\\BaseBestRealRatio}{%s}\n", best == "" ? "--" : sprintf("%.4f", bestv) > out
	printf "\\newcommand{\\BaseExactAtBound}{%d}\n", exact_lb + 0 > out
	printf "\\newcommand{\\BasePublished}{%d}\n", npub + 0 > out
	printf "\\newcommand{\\BaseExactAtMostPublished}{%d}\n", atmost + 0 > out
	printf "\\newcommand{\\BasePublishedAtBound}{%d}\n", publb + 0 > out
	printf "\\newcommand{\\BaseExactAtBoundWherePublished}{%d}\n", bothlb + 0 > out
	printf "\\newcommand{\\BaseExactBelowPublished}{%s}\n", (below == "" ? "none" : below) > out
	# The best single fast planner against the production baselines, graph by graph.
	worse = 0; wl = ""; ng = 0
	for (g in rg) gl[++ng] = g
	nsort(gl, ng)
	for (k = 1; k <= ng; k++) {
		g = gl[k]
		if (!((g, best) in rpk)) continue
		for (b = 1; b <= 2; b++) {
			q = b == 1 ? "tflm_greedy" : "tflite_arena"
			if ((g, q) in rpk && rpk[g, best] > rpk[g, q]) { worse++; wl = wl (wl == "" ? "" : ", ") tt(g) " (vs " tt(q) ")" }
		}
	}
	printf "\\newcommand{\\BaseBestWorseCount}{%d}\n", worse > out
	printf "\\newcommand{\\BaseBestWorseList}{%s}\n", wl == "" ? "none" : wl > out
	close(out)
}
