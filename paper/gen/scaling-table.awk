# paper/gen/scaling-table.awk: the paper's scaling table from the output of
# scripts/lib/slopes.awk (the one log-log fit).  Writes $dir/tab-scaling.tex
# (planner, fitted runs, slope, the fitted range, the median time at 10^6
# buffers and its multiple of a radix sort of 10^6 keys, the first plan's
# CPU time as such a multiple, runs stopped by the time limit) and
# $dir/scaling.tex (\ScalingFitRange: the range over all rows).  scaling =
# the scaling CSV (the times at 10^6); its rows' own multiples (plan_sorts,
# first_plan_cpu_sorts: the sort timed next to each row, make scaling)
# give the medians; a CSV without them divides the median time by sortref,
# the sort's nanoseconds from its .meta (empty: no multiple), and has no
# first-plan multiple.
#
#   awk -F, -v dir=paper/generated -v scaling=CSV -v sortref=NS \
#       -f scripts/lib/common.awk -f paper/gen/scaling-table.awk SLOPES

BEGIN {
	if (scaling != "") {
		while ((getline line < scaling) > 0) {
			nf = split(line, f, ",")
			if (!hdr++) { for (i = 1; i <= nf; i++) sc[f[i]] = i; continue }
			if (f[sc["buffers"]] + 0 != 1000000 || f[sc["status"]] != "ok" || f[sc["plan_ns"]] == "") continue
			p = f[sc["planner"]]
			mil[p, ++mil_n[p]] = f[sc["plan_ns"]] + 0
			if (("plan_sorts" in sc) && f[sc["plan_sorts"]] != "")
				mils[p, ++mils_n[p]] = f[sc["plan_sorts"]] + 0
			if (("first_plan_cpu_sorts" in sc) && f[sc["first_plan_cpu_sorts"]] != "")
				milc[p, ++milc_n[p]] = f[sc["first_plan_cpu_sorts"]] + 0
		}
		close(scaling)
	}
}

function sortsfmt(x) { return sprintf(x < 1 ? "%.2f" : x < 10 ? "%.1f" : "%.0f", x) }
# the median of the n values v[p, 1..n], formatted as a multiple, or --
function med_sorts(v, n, p,    a, k) {
	if (!n) return "--"
	for (k = 1; k <= n; k++) a[k] = v[p, k]
	return sortsfmt(median(a, n))
}
# the median time at 10^6, its multiple of the sort and the first plan's
# CPU multiple, or --
function at_million(p,    a, k, t, s) {
	if (!mil_n[p]) return "-- & -- & --"
	for (k = 1; k <= mil_n[p]; k++) a[k] = mil[p, k]
	t = median(a, mil_n[p])
	if (mils_n[p]) s = med_sorts(mils, mils_n[p], p)
	else if (sortref + 0 > 0) s = sortsfmt(t / sortref)
	else s = "--"
	return nsfmt(t) " & " s " & " med_sorts(milc, milc_n[p], p)
}

function pow10(n) { return "$10^{" int(log(n) / log(10) + 0.5) "}$" }

NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; out = dir "/tab-scaling.tex"; printf "" > out; next }
{
	lo = $c["min_buffers"] + 0; hi = $c["max_buffers"] + 0
	if ($c["slope"] != "") {
		if (flo == "" || lo < flo) flo = lo
		if (hi > fhi) fhi = hi
	}
	printf "%s & %d & %s & %s & %s & %s \\\\\n", tt($c["planner"]), $c["points"],
		($c["slope"] == "" ? "--" : sprintf("%.2f", $c["slope"])),
		($c["slope"] == "" ? "--" : pow10(lo) "--" pow10(hi)),
		at_million($c["planner"]),
		($c["timed_out"] + 0 ? $c["timed_out"] " (from " commas($c["timed_out_from"]) ")" : "0") >> out
}
END {
	printf "\\newcommand{\\ScalingFitRange}{%s}\n",
		(flo == "" ? "no range (nothing was fitted)" : pow10(flo) " to " pow10(fhi) " buffers") > (dir "/scaling.tex")
}
