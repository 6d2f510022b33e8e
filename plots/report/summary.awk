# plots/report/summary.awk: the report's summary table, as HTML rows, from a
# bench CSV (read by its header).  Per planner over every row (all graphs
# and alignments), as `bench` prints at its end (harness/cli/cmd_bench.c):
#   x_bound   geometric mean of peak_bytes / lower_bound_bytes over the
#             valid rows with a non-zero bound;
#   at bound  rows whose peak equals the lower bound, of the planner's rows;
#   invalid   rows with valid=no;
#   worst     the largest peak / bound, its graph and alignment.
# Planners are listed by x_bound, then name.  The first line is the corpus
# line (rows, graphs, families, alignments).
# Usage: awk -F, -f plots/report/summary.awk results.csv
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s)
	return s
}
# "1 family", "2 families".
function count(n, one, many) { return n " " (n == 1 ? one : many) }
# Whether planner a comes after planner b in the table.
function after(a, b) {
	if ((gm[a] < 0) != (gm[b] < 0))
		return gm[a] < 0
	if (gm[a] != gm[b])
		return gm[a] > gm[b]
	return a > b
}
NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	nneed = split("graph family planner align valid peak_bytes lower_bound_bytes", need, " ")
	for (k = 1; k <= nneed; k++)
		if (!(need[k] in col)) {
			printf "%s:1: no column %s (expected a bench CSV)\n", FILENAME, need[k] > "/dev/stderr"
			bad = 1; exit 1
		}
	next
}
{
	p = $col["planner"]; g = $col["graph"]
	if (!(p in rows)) { np++; name[np] = p }
	rows[p]++; nrows++
	if (!(g in graphs)) { graphs[g] = 1; ngraphs++ }
	if (!($col["family"] in fams)) { fams[$col["family"]] = 1; nfams++ }
	if (!($col["align"] in aligns)) { aligns[$col["align"]] = 1; alist = alist (alist == "" ? "" : ", ") $col["align"] }
	if ($col["valid"] != "yes") { invalid[p]++; next }
	lb = $col["lower_bound_bytes"] + 0; pk = $col["peak_bytes"] + 0
	if (lb <= 0) next
	x = pk / lb
	logs[p] += log(x); n[p]++
	if (pk == lb) at[p]++
	if (!(p in worst) || x > worst[p]) { worst[p] = x; wg[p] = g; wa[p] = $col["align"] }
}
END {
	if (bad) exit 1
	if (!nrows) { printf "%s: no rows\n", FILENAME > "/dev/stderr"; exit 1 }
	for (i = 1; i <= np; i++) {
		p = name[i]
		gm[p] = n[p] ? exp(logs[p] / n[p]) : -1
	}
	# insertion sort by geo-mean (no valid row last), then name
	for (i = 2; i <= np; i++) {
		t = name[i]
		for (j = i - 1; j >= 1 && after(name[j], t); j--)
			name[j + 1] = name[j]
		name[j + 1] = t
	}
	printf "<p class=\"corpus\">%s: %s in %s, %s %s; %s.</p>\n", \
		count(nrows, "row", "rows"), count(ngraphs, "graph", "graphs"), count(nfams, "family", "families"), \
		(index(alist, ",") ? "alignments" : "alignment"), esc(alist), count(np, "planner", "planners")
	print "<table class=\"summary\">"
	print "<tr><th>planner</th><th>x_bound (geo-mean)</th><th>rows at bound</th><th>invalid</th><th>worst x_bound</th><th>worst graph</th><th>align</th></tr>"
	for (i = 1; i <= np; i++) {
		p = name[i]
		printf "<tr><td>%s</td><td>%s</td><td>%d / %d</td><td%s>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", \
			esc(p), (gm[p] >= 0 ? sprintf("%.4f", gm[p]) : "-"), at[p], rows[p], \
			(invalid[p] ? " class=\"bad\"" : ""), invalid[p], \
			((p in worst) ? sprintf("%.4f", worst[p]) : "-"), esc(wg[p]), wa[p]
	}
	print "</table>"
}
