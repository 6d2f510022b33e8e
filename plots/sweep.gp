# plots/sweep.gp -- Question 6: what does alignment cost?  Padding bytes
# (peak_bytes - peak_align1_bytes, signed) against the --align value, summed
# over the graphs of one family (the real-architecture zoo unless it is
# absent), one line per planner.
# Input: $datadir/sweep_<planner>.csv (align,padding_bytes,graphs), sweep.gp.
# sweep_src (from plots/plots.sh) says which CSV the aligns came from.

load datadir . "/sweep.gp"
load ARG0[1:strstrt(ARG0, "sweep.gp") - 1] . "style.gp"
if (!exists("sweep_src")) sweep_src = "sweep.csv"

np = words(sweep_planners)
f(p) = sprintf("%s/sweep_%s.csv", datadir, p)
pmax = 1
do for [j = 1 : np] {
	stats f(word(sweep_planners, j)) using (abs(column("padding_bytes"))) nooutput
	if (STATS_max > pmax) { pmax = STATS_max }
}
u = unit_bytes(pmax)

set title sprintf("Padding against alignment, family %s (%d graphs), from %s", \
	sweep_family, sweep_graphs, sweep_src) noenhanced
eval set_caption("")
set logscale x 2
set xrange [0.8 : 320]
set xtics (1, 4, 8, 16, 32, 64, 128, 256)
set xlabel "--align (bytes)"
set ylabel sprintf("padding = peak - peak at align 1 (%s, summed)", unit_name(pmax))
set format y "%g"
set key top left Left reverse font f_key noenhanced box opaque samplen 3
set grid xtics ytics
set xzeroaxis lt 1 lc rgb "#888888"
set bmargin 5
if (words(sweep_aligns) < 3) {
	set label 1 sprintf("only aligns %s in the data (run make sweep for 1..256)", sweep_aligns) \
		at graph 0.98, graph 0.95 right font f_small noenhanced
}

plot for [j = 1 : np] f(word(sweep_planners, j)) using "align":(column("padding_bytes") / u) \
	with linespoints lw 2 pt ppt(word(sweep_planners, j)) ps 1 * ps_scale \
	lc rgb pcolor(word(sweep_planners, j)) dt pdt(word(sweep_planners, j)) title word(sweep_planners, j)
