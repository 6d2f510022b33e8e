# plots/cdf.gp -- Question 3: across the whole corpus, how often is each
# planner within x of the lower bound?  Empirical CDF of the overhead above
# the bound, 100 * (peak_bytes / lower_bound_bytes - 1) in per cent, one
# step curve per planner, at align_ratio.  The x axis is logarithmic in the
# overhead, so 0.1 %, 1 %, 10 % and 100 % get equal room; a plan exactly at
# the bound sits on the left edge (tick "0"), and the height of a curve
# there is the fraction of graphs planned at the bound.
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
# In the axis' unit: per cent above the bound.
# The graph count only when a planner misses some graphs.
ktitle(j) = sprintf("%s%s: geo-mean +%.0f %%, worst +%.0f %%", word(planners, j), \
	st_n(j) + 0 == n_graphs ? "" : sprintf(" (%s graphs)", st_n(j)), \
	100 * (st_geo(j) - 1), 100 * (st_max(j) - 1))

# Overhead in per cent; at the bound (and anything below x0) on the left edge.
x0 = 0.002
pct(r) = 100.0 * (r - 1.0)
xpos(r) = pct(r) > x0 ? pct(r) : x0
xmax = 1.0
do for [j = 1 : np] { if (pct(st_max(j) + 0) > xmax) { xmax = pct(st_max(j) + 0) } }

set title sprintf("Distribution over the %d graphs of the peak above the lower bound, align %d", n_graphs, align_ratio) noenhanced
eval set_caption("")
# The legend takes the bottom edge: the caption goes to the top edge.
set label 999 at screen 0.01, screen 0.985 left
set tmargin 4
set logscale x 10
set xrange [x0 : xmax * 2]
set yrange [0 : 1.02]
set xlabel "peak above the lower bound, % (log scale; 0 = at the bound)"
set ylabel "fraction of graphs with at most this overhead"
set xtics ("0" x0, "0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100, "1,000" 1000, \
	"10,000" 10000, "100,000" 100000)
set mxtics 10
set key below Left reverse font f_key noenhanced samplen 2 width 2 maxcols 2
set bmargin 5 + (words(planners) + 1) / 2
set grid xtics ytics

plot for [j = 1 : np] f(word(planners, j)) using (xpos(column("ratio"))):"frac" with steps \
	lw 2 lc rgb pcolor(word(planners, j)) dt pdt(word(planners, j)) title ktitle(j), \
     for [j = 1 : np] f(word(planners, j)) using (xpos(column("ratio"))):"frac" every ::1 with points \
	pt ppt(word(planners, j)) ps 0.6 * ps_scale lc rgb pcolor(word(planners, j)) notitle
