# paper/gen/scaling-table.awk: the paper's scaling table from the output of
# scripts/lib/slopes.awk (the one log-log fit).  Writes $dir/tab-scaling.tex
# (planner, fitted runs, slope, the fitted range, runs stopped by the time
# limit) and $dir/scaling.tex (\ScalingFitRange: the range over all rows).
#
#   awk -F, -v dir=paper/generated -f scripts/lib/common.awk -f paper/gen/scaling-table.awk SLOPES

function pow10(n) { return "$10^{" int(log(n) / log(10) + 0.5) "}$" }

NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; out = dir "/tab-scaling.tex"; printf "" > out; next }
{
	lo = $c["min_buffers"] + 0; hi = $c["max_buffers"] + 0
	if ($c["slope"] != "") {
		if (flo == "" || lo < flo) flo = lo
		if (hi > fhi) fhi = hi
	}
	printf "%s & %d & %s & %s & %s \\\\\n", tt($c["planner"]), $c["points"],
		($c["slope"] == "" ? "--" : sprintf("%.2f", $c["slope"])),
		($c["slope"] == "" ? "--" : pow10(lo) "--" pow10(hi)),
		($c["timed_out"] + 0 ? $c["timed_out"] " (from " commas($c["timed_out_from"]) ")" : "0") >> out
}
END {
	printf "\\newcommand{\\ScalingFitRange}{%s}\n",
		(flo == "" ? "no range (nothing was fitted)" : pow10(flo) " to " pow10(fhi) " buffers") > (dir "/scaling.tex")
}
