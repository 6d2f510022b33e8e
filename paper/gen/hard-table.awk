# paper/gen/hard-table.awk: the paper's section on hard instances (issue 18),
# from results/hard.csv (scripts/study/hard.sh; columns found by name).
# Writes into $dir:
#   tab-hard.tex  per set and size (tilings: family and buffers; minimalloc;
#                 idealloc): problems, and per planner the geometric mean
#                 of peak / best proved bound and the problems proved
#                 optimal; exact's worst certified gap
#   hard.tex      \newcommand macros quoted in the text
#
#   awk -F, -v dir=paper/generated -f paper/gen/hard-table.awk FILE
# The best proved bound of a problem is the largest best_bound_bytes any
# planner reported for it.  Only valid rows count.
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	split("graph planner valid buffers peak_bytes best_bound_bytes optimal", need, " ")
	for (k in need) if (!(need[k] in c)) { printf "%s: no column %s\n", FILENAME, need[k] > "/dev/stderr"; exit 2 }
	next
}
$c["valid"] != "yes" { invalid++; next }
{
	g = $c["graph"]; p = $c["planner"]
	n++; G[n] = g; P[n] = p; peak[n] = $c["peak_bytes"] + 0; opt[n] = $c["optimal"]
	b = $c["best_bound_bytes"] + 0
	if (b > bound[g]) bound[g] = b
	if (g ~ /^(guillotine|pinwheel)_/) { s = g; sub(/_s[0-9]+$/, "", s); sub(/_n/, " ", s) }
	else if (g ~ /^(iopddl|somas)_/) s = "idealloc"
	else s = "minimalloc"
	set[g] = s
	if (!(s in seen_s)) { seen_s[s] = 1; sets[++ns] = s }
	if (!(p in seen_p)) { seen_p[p] = 1; pls[++np] = p }
	if (!((s, g) in seen_g)) { seen_g[s, g] = 1; probs[s]++ }
}
END {
	for (i = 1; i <= n; i++) {
		k = set[G[i]] SUBSEP P[i]
		geo_add(GS, GN, k, peak[i] / bound[G[i]]); cnt[k]++
		if (opt[i] == "yes") proved[k]++
		if (P[i] == "exact") {
			gap = peak[i] / bound[G[i]] - 1
			if (gap > worst[set[G[i]]]) worst[set[G[i]]] = gap
		}
	}
	f = dir "/tab-hard.tex"
	printf "\\begin{table}[t]\\centering\\small\n\\begin{tabular}{lr" > f
	for (j = 1; j <= np; j++) printf "rr" > f
	printf "}\n\\toprule\nset & problems" > f
	for (j = 1; j <= np; j++) { t = pls[j]; gsub(/_/, "\\_", t); printf " & \\multicolumn{2}{c}{\\texttt{%s}}", t > f }
	printf " \\\\\n & " > f
	for (j = 1; j <= np; j++) printf " & ratio & opt." > f
	printf " \\\\\n\\midrule\n" > f
	for (i = 1; i <= ns; i++) {
		s = sets[i]
		printf "%s & %d", s, probs[s] > f
		for (j = 1; j <= np; j++) {
			k = s SUBSEP pls[j]
			if (cnt[k]) printf " & %.4f & %d", geo_mean(GS, GN, k), proved[k] + 0 > f
			else printf " & -- & --" > f
		}
		printf " \\\\\n" > f
	}
	printf "\\bottomrule\n\\end{tabular}\n\\caption{Hard instances (\\texttt{make hard}): geometric mean of peak / best proved lower bound per set (on the tilings the bound is the optimum, by construction), and problems proved optimal (\\SrcHard).}\n\\label{tab:hard}\n\\end{table}\n" > f
	m = dir "/hard.tex"
	printf "\\newcommand{\\HardProblems}{%d}\n", n_problems() > m
	printf "\\newcommand{\\HardWorstMinimalloc}{%.2f\\,\\%%}\n", 100 * worst["minimalloc"] > m
	# no idealloc rows in the CSV: say so rather than print a 0 of nothing
	if (probs["idealloc"] > 0)
		printf "\\newcommand{\\HardWorstIdealloc}{%.2f\\,\\%%}\n", 100 * worst["idealloc"] > m
	else
		printf "\\newcommand{\\HardWorstIdealloc}{not measured (no idealloc rows in this CSV)}\n" > m
	if (invalid) printf "hard-table: %d invalid rows left out\n", invalid > "/dev/stderr"
}
function n_problems(   t, s) { t = 0; for (s in probs) t += probs[s]; return t }
