# plots/sweep.gp -- Question 6: what does alignment cost?  Padding
# (peak_bytes - peak_align1_bytes, signed) against the --align value, on the
# graphs of one family (the real-architecture zoo unless it is absent), one
# line per planner, as a share of the peak at align 1 on a log axis:
#   left:  the family's padding summed, over its align-1 peaks summed;
#   right: the worst single graph, its padding over its own align-1 peak.
# A value at or below zero (no padding, or an aligned plan that came out
# smaller) sits on the bottom edge, tick "<= 0".
# Input: $datadir/sweep_<planner>.csv (align,padding_bytes,graphs,
# peak_align1_bytes,worst_pct,worst_graph), sweep.gp.
# sweep_src (from plots/plots.sh) says which CSV the aligns came from.

load datadir . "/sweep.gp"
fig_h = 1.15
load ARG0[1:strstrt(ARG0, "sweep.gp") - 1] . "style.gp"
if (!exists("sweep_src")) sweep_src = "sweep.csv"

np = words(sweep_planners)
f(p) = sprintf("%s/sweep_%s.csv", datadir, p)
share(dummy) = column("peak_align1_bytes") > 0 ? 100.0 * column("padding_bytes") / column("peak_align1_bytes") : 0
# Both panels share one y range: the smallest positive share .. the largest
# (gathered by assignment while stats reads, since a file with no positive
# value leaves nothing in STATS_*).
ymin = 1e9
ymax = 1e-9
upd(v) = v > 0 ? (ymin = v < ymin ? v : ymin, ymax = v > ymax ? v : ymax, 1) : 0
do for [j = 1 : np] {
	stats f(word(sweep_planners, j)) using (upd(share(0)) + upd(column("worst_pct"))) nooutput
}
if (ymin > ymax) { ymin = 1e-4; ymax = 1 }
# The floor: one decade under the smallest positive value.
yfloor = 10 ** (floor(log10(ymin)) - 1)
ypos(v) = v > yfloor ? v : yfloor
# Tick labels carry the unit, so that 0.1 reads as 0.1 %, not a fraction.
# (a tic label is a format: "%%" prints one "%")
fmt_pct(e) = e >= 0 ? sprintf("%.0f %%%%", 10.0 ** e) : (e == -1 ? "0.1 %%" : (e == -2 ? "0.01 %%" : sprintf("10^{%d} %%%%", e)))

set logscale x 2
set xrange [0.8 : 320]
set xtics (1, 4, 8, 16, 32, 64, 128, 256) font f_tics
set xlabel "--align (bytes)"
set logscale y 10
set yrange [yfloor * 0.7 : ymax * 3]
set ytics font f_tics
set for [e = int(floor(log10(yfloor))) + 1 : int(ceil(log10(ymax * 3)))] ytics add (fmt_pct(e) 10.0 ** e)
set ytics add ("≤ 0" yfloor)
set format y ""
set grid xtics ytics
set key off

set label 998 sprintf("What alignment costs: padding / peak at align 1, %s", \
	sweep_family eq "all" ? sprintf("all %d graphs", sweep_graphs) : sprintf("family %s (%d graphs)", sweep_family, sweep_graphs)) at screen 0.5, screen 0.965 center noenhanced font (is_pdf ? ",10" : ",13")
eval set_caption(sprintf("aligns from %s", sweep_src))
if (words(sweep_aligns) < 3) {
	set label 1 sprintf("only aligns %s in the data (run make sweep for 1..256)", sweep_aligns) \
		at screen 0.5, screen 0.925 center font f_small noenhanced
}
top = 0.9
keyh = 0.2
set multiplot
set tmargin 1.5
set bmargin 3.5
set size 0.5, top - keyh
set origin 0, keyh
set title sprintf("all %d graphs together (padding summed / peaks summed)", sweep_graphs) noenhanced font f_key
set ylabel "padding / peak at align 1 (log scale)"
plot for [j = 1 : np] f(word(sweep_planners, j)) using "align":(ypos(share(0))) \
	with linespoints lw 2 pt ppt(word(sweep_planners, j)) ps 1 * ps_scale \
	lc rgb pcolor(word(sweep_planners, j)) dt pdt(word(sweep_planners, j)) notitle
set origin 0.5, keyh
set title "the worst graph at each align (its padding / its peak)" noenhanced font f_key
set ylabel ""
plot for [j = 1 : np] f(word(sweep_planners, j)) using "align":(ypos(column("worst_pct"))) \
	with linespoints lw 2 pt ppt(word(sweep_planners, j)) ps 1 * ps_scale \
	lc rgb pcolor(word(sweep_planners, j)) dt pdt(word(sweep_planners, j)) notitle
# The legend alone, across the bottom.
unset title
unset label
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set origin 0, 0.04
set size 1, keyh
set tmargin 0
set bmargin 0
set xrange [0 : 1]
set yrange [0 : 1]
set key inside center center horizontal maxrows 3 Left reverse font f_key noenhanced samplen 3 width 1
plot for [j = 1 : np] NaN with linespoints lw 2 pt ppt(word(sweep_planners, j)) ps 1 * ps_scale \
	lc rgb pcolor(word(sweep_planners, j)) dt pdt(word(sweep_planners, j)) title word(sweep_planners, j)
unset multiplot
