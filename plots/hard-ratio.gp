# plots/hard-ratio.gp -- issue 18: how far from the optimum are the
# planners on hard instances?  Peak / best proved bound (= the optimum on
# the known-optimum tilings) against buffers, one point per (problem,
# planner); log x.  Input: $datadir/ratio_<planner>.csv (buffers,ratio,set).
load ARG0[1:strstrt(ARG0, "hard-ratio.gp") - 1] . "style.gp"
# The caption names the CSV, its revision and machine (plots/hard.sh).
eval set_caption("")
np = words(hard_planners)
f(p) = sprintf("%s/ratio_%s.csv", datadir, p)
set title "Peak / best proved bound on hard instances (make hard)" noenhanced
set logscale x 10
set xlabel "buffers"
# room under the axis label for the caption line
set bmargin 5
set ylabel "peak / best proved lower bound"
set key top left Left reverse font f_key noenhanced box opaque
set grid xtics ytics
set yrange [0.99 : *]
set offsets graph 0.04, graph 0.04, graph 0.02, graph 0.02
plot for [j = 1 : np] f(word(hard_planners, j)) using "buffers":"ratio" \
	with points pt ppt(word(hard_planners, j)) ps 1.3 * ps_scale \
	lc rgb pcolor(word(hard_planners, j)) title word(hard_planners, j), \
	1.01 with lines dt 2 lc rgb "#888888" title "1.01 (target at 10^3)", \
	1.03 with lines dt 3 lc rgb "#888888" title "1.03 (target at 10^4)"
