# plots/cdf.gp -- Question 3: across the whole corpus, how often is each
# planner within x of the lower bound?  Empirical CDF of
# peak_bytes / lower_bound_bytes, one step curve per planner, at align_ratio.
# Input: $datadir/cdf_<planner>.csv (ratio,frac) and results.gp.

load datadir . "/results.gp"
# The legend goes below the plot, two columns: taller with many planners.
fig_h = 1.0 + 0.045 * (words(planners) > 4 ? words(planners) - 4 : 0)
load ARG0[1:strstrt(ARG0, "cdf.gp") - 1] . "style.gp"

np = words(planners)
f(p) = sprintf("%s/cdf_%s.csv", datadir, p)
# Legend: name, graphs, geometric mean and worst ratio.
st(j) = word(cdf_stats, j)
st_n(j) = st(j)[1:strstrt(st(j), "|") - 1]
_rest(j) = st(j)[strstrt(st(j), "|") + 1:]
st_geo(j) = _rest(j)[1:strstrt(_rest(j), "|") - 1]
st_max(j) = _rest(j)[strstrt(_rest(j), "|") + 1:]
ktitle(j) = sprintf("%s: n=%s  geo-mean %s  worst %s", word(planners, j), st_n(j), st_geo(j), st_max(j))

xmax = 1.0
do for [j = 1 : np] { if (st_max(j) + 0 > xmax) { xmax = st_max(j) + 0 } }

set title sprintf("Distribution over the corpus of peak / lower bound, align %d", align_ratio) noenhanced
eval set_caption("")
# The legend takes the bottom edge: the caption goes to the top edge.
set label 999 at screen 0.01, screen 0.985 left
set tmargin 4
set logscale x 2
set xrange [1 : xmax * 1.15]
set yrange [0 : 1.02]
set xlabel "peak / lower bound (log scale; 1 = the lower bound)"
set ylabel "fraction of graphs with at most this ratio"
set format x "%g"
set xtics (1, 1.1, 1.25, 1.5, 2, 3, 4, 6, 8, 16, 32, 64, 128, 256, 512, 1024)
set mxtics default
set key below Left reverse font f_key noenhanced samplen 2 width 2 maxcols 2
set bmargin 5 + (words(planners) + 1) / 2
set grid xtics ytics

plot for [j = 1 : np] f(word(planners, j)) using "ratio":"frac" with steps \
	lw 2 lc rgb pcolor(word(planners, j)) dt pdt(word(planners, j)) title ktitle(j), \
     for [j = 1 : np] f(word(planners, j)) using "ratio":"frac" every ::1 with points \
	pt ppt(word(planners, j)) ps 0.6 * ps_scale lc rgb pcolor(word(planners, j)) notitle
