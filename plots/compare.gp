# plots/compare.gp -- `make compare A=old.csv B=new.csv`: every matched
# (graph, planner, align, options) pair's peak B / peak A, sorted, on a log
# axis; below the line at 1, B needs less memory.
# Input: datafile (written by `arenabench compare --ratios`: rank ratio
# graph planner align), out (.png, .svg or .pdf), title_a, title_b.
if (!exists("title_a")) title_a = "A"
if (!exists("title_b")) title_b = "B"
ext = out[strlen(out) - 3 : strlen(out)]
if (ext eq ".pdf") {
	set terminal pdfcairo enhanced color font "Helvetica,9" size 5in, 3in
} else {
	if (ext eq ".png") {
		set terminal pngcairo enhanced color font "Helvetica,11" size 900, 540
	} else {
		set terminal svg enhanced font "Helvetica,12" size 900, 540
	}
}
set output out
stats datafile using 2 nooutput
n = STATS_records
lo = STATS_min < 1 ? STATS_min : 1
hi = STATS_max > 1 ? STATS_max : 1
set title sprintf("peak B / peak A for %d matched rows (B = %s, A = %s)", n, title_b, title_a) noenhanced
set logscale y 2
set ytics ("0.25" 0.25, "0.5" 0.5, "0.6" 0.6, "0.7" 0.7, "0.8" 0.8, "0.9" 0.9, "1" 1, "1.1" 1.1, "1.25" 1.25, "1.5" 1.5, "2" 2, "4" 4)
set yrange [lo / 1.1 : hi * 1.1]
set xrange [0 : n + 1]
set xlabel "matched rows, sorted by ratio"
set ylabel "peak B / peak A (log scale)"
set grid ytics lc rgb "#dddddd"
set key off
plot 1 with lines lc rgb "#888888" dt 2, \
     datafile using 1:2 with points pt 7 ps 0.5 lc rgb "#1f77b4"
