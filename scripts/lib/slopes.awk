# scripts/lib/slopes.awk: the one log-log scaling fit of arenabench.  Reads
# a scaling CSV (planner, buffers, plan_ns, status) and writes, per planner
# in first-seen order, the least-squares slope of log10(plan_ns) on
# log10(buffers) over the completed runs (status ok, plan_ns > 0) with
# fit_min <= buffers <= fit_max:
#
#   planner,points,min_buffers,max_buffers,slope,intercept,timed_out,timed_out_from
#
#   awk -F, [-v fit_min=10000] [-v fit_max=1000000] \
#       -f scripts/lib/common.awk -f scripts/lib/slopes.awk scaling.csv
#
# min/max_buffers are the sizes actually fitted (the stated range);
# timed_out counts the rows stopped by the budget, from the smallest such
# size.  make scaling (results/scaling-slopes.csv), the scaling figure, the
# paper's table and README all read this output, so they agree.

BEGIN {
	if (fit_min == "") fit_min = 10000
	if (fit_max == "") fit_max = 1000000
}
{ sub(/\r$/, "") }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	p = $c["planner"]; n = $c["buffers"] + 0
	if (!(p in seen)) { seen[p] = 1; name[++np] = p }
	if ($c["status"] != "ok" || $c["plan_ns"] == "") {
		to[p]++
		if (!(p in tomin) || n < tomin[p]) tomin[p] = n
		next
	}
	if (n < fit_min || n > fit_max || $c["plan_ns"] + 0 <= 0) next
	fit_add(p, n, $c["plan_ns"] + 0)
	if (!(p in lo) || n < lo[p]) lo[p] = n
	if (n > hi[p]) hi[p] = n
}
END {
	print "planner,points,min_buffers,max_buffers,slope,intercept,timed_out,timed_out_from"
	for (k = 1; k <= np; k++) {
		p = name[k]; b = fit_slope(p)
		printf "%s,%d,%s,%s,%s,%s,%d,%s\n", p, fit_n[p], lo[p], hi[p],
			(b == "" ? "" : sprintf("%.3f", b)), (b == "" ? "" : sprintf("%.4f", fit_icpt(p))),
			to[p], (p in tomin) ? tomin[p] : ""
	}
}
