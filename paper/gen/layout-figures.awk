# paper/gen/layout-figures.awk: the paper's plan-layout figures from
# plots/out/data/layout.gp (written by plots/layouts.sh): six panels per
# page-sized figure for the chosen graph, then one figure for the largest
# graph's best and worst planner when it was drawn.  The captions say which
# graph and why it was chosen (from the results, never a fixed name).
#
#   awk -f scripts/lib/common.awk -f paper/gen/layout-figures.awk layout.gp

function str(line,    s) { s = line; sub(/^[^"]*"/, "", s); sub(/"[^"]*$/, "", s); return s }
/^layout_graph /          { g = str($0) }
/^layout_why /            { why = str($0) }
/^layout_align /          { a = $3 }
/^layout_planners /       { l = str($0) }
/^layout_large_graph /    { lg = str($0) }
/^layout_large_why /      { lwhy = str($0) }
/^layout_large_planners / { ll = str($0) }
END {
	n = split(l, p, " ")
	if (n == 0) { print "\\emph{No plan layout was drawn: no graph of the results could be found as a file (see the output of \\texttt{make plots}).}"; exit }
	for (i = 1; i <= n; i++) {
		if (i % 6 == 1) print "\\begin{figure}[p]\n\\centering"
		printf "\\includegraphics[width=0.49\\textwidth]{layout_%s.pdf}%s\n", p[i], (i % 2 ? "\\hfill" : "\\\\[1ex]")
		if (i % 6 == 0 || i == n) {
			if (i <= 6)
				printf "\\caption{Plan layouts of %s at align %s, one per planner (%s): a rectangle per buffer " \
					"(steps across, addresses up), the live bytes (black), the lower bound (red, dashed) and the " \
					"planner's peak (dash-dotted), drawn as one red line when the plan reaches the bound.}\\label{fig:layout}\n", tt(g), a, tex(why)
			else
				printf "\\caption{Plan layouts of %s (continued).}\n", tt(g)
			print "\\end{figure}"
		}
	}
	m = split(ll, q, " ")
	if (lg == "" || m == 0) exit
	print "\\begin{figure}[p]\n\\centering"
	for (i = 1; i <= m; i++)
		printf "\\includegraphics[width=0.49\\textwidth]{layout_large_%s.pdf}%s\n", q[i], (i % 2 ? "\\hfill" : "\\\\[1ex]")
	printf "\\caption{Plan layouts of %s at align %s: %s.}\\label{fig:layout-large}\n", tt(lg), a, tex(lwhy)
	print "\\end{figure}"
}
