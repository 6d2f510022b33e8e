# plots/scaling.gp -- Question 4: how does planning time grow with the number
# of buffers?  plan_ns against buffers, log-log, one colour per planner:
# points are runs (open markers: stopped by the time limit, so a lower bound
# on the time); the line is the least-squares fit of log(plan_ns) on
# log(buffers) over the completed runs in the fitted range
# (scripts/lib/slopes.awk), drawn over that range only, its slope and range
# in the legend (1 = linear, 2 = quadratic).
# Input: $datadir/scaling_<planner>.csv (buffers,plan_ns,status_ok) and
# scaling.gp (plots/plotdata.awk, mode=scaling).

load datadir . "/scaling.gp"
# The legend goes below the plot in two columns (maxrows: gnuplot put 19
# entries in one column over the axis label with maxcols 2), taller with
# many planners.
fig_h = 1.0 + 0.045 * (words(scaling_planners) > 4 ? words(scaling_planners) - 4 : 0)
load ARG0[1:strstrt(ARG0, "scaling.gp") - 1] . "style.gp"

np = words(scaling_planners)
f(p) = sprintf("%s/scaling_%s.csv", datadir, p)
_s(j) = word(scaling_slopes, j)
slope(j) = _s(j)[1:strstrt(_s(j), "|") - 1]
_r(j) = _s(j)[strstrt(_s(j), "|") + 1:]
icpt(j) = _r(j)[1:strstrt(_r(j), "|") - 1]
_t(j) = _r(j)[strstrt(_r(j), "|") + 1:]
tout(j) = _t(j)[1:strstrt(_t(j), "|") - 1] + 0
_u(j) = _t(j)[strstrt(_t(j), "|") + 1:]
fit_lo(j) = _u(j)[1:strstrt(_u(j), "|") - 1] + 0
fit_hi(j) = _u(j)[strstrt(_u(j), "|") + 1:] + 0
in_fit(j, x) = x >= fit_lo(j) && x <= fit_hi(j)
fitted(j) = slope(j) ne "n/a"
ktitle(j) = sprintf("%s: slope %s%s%s", word(scaling_planners, j), slope(j), \
	fitted(j) ? sprintf(" (10^%d-10^%d)", int(log10(fit_lo(j)) + 0.5), int(log10(fit_hi(j)) + 0.5)) : "", \
	tout(j) > 0 ? sprintf(", %d timed out", tout(j)) : "")
fit_y(j, x) = 10 ** (icpt(j) + slope(j) * log10(x))

set title "Planning time against problem size (log-log)" noenhanced
eval set_caption("")
set logscale xy 10
set xlabel "buffers"
set ylabel "planning time (median)"
set format x "10^{%T}"
set ytics ("1 ns" 1, "10 ns" 10, "100 ns" 100, "1 µs" 1e3, "10 µs" 1e4, "100 µs" 1e5, \
	"1 ms" 1e6, "10 ms" 1e7, "100 ms" 1e8, "1 s" 1e9, "10 s" 1e10, "100 s" 1e11, "1000 s" 1e12)
set key below Left reverse font f_key noenhanced samplen 3 width 2 vertical maxrows (np + 2) / 2
set grid xtics ytics mxtics mytics
set bmargin 5 + (words(scaling_planners) + 2) / 2
# The legend takes the bottom edge: the caption goes to the top edge.
set label 999 at screen 0.01, screen 0.985 left
set tmargin 4
set samples 100

plot for [j = 1 : np] f(word(scaling_planners, j)) \
	using "buffers":(column("status_ok") > 0 ? column("plan_ns") : NaN) with points \
	pt ppt(word(scaling_planners, j)) ps 0.8 * ps_scale lc rgb pcolor(word(scaling_planners, j)) notitle, \
     for [j = 1 : np] f(word(scaling_planners, j)) \
	using "buffers":(column("status_ok") > 0 ? NaN : column("plan_ns")) with points \
	pt 6 ps 1.4 * ps_scale lc rgb pcolor(word(scaling_planners, j)) notitle, \
     for [j = 1 : np] f(word(scaling_planners, j)) \
	using "buffers":(fitted(j) && column("status_ok") > 0 && in_fit(j, column("buffers")) ? fit_y(j, column("buffers")) : NaN) \
	smooth unique with lines lw 2 lc rgb pcolor(word(scaling_planners, j)) \
	dt pdt(word(scaling_planners, j)) notitle, \
     for [j = 1 : np] NaN with linespoints lw 2 pt ppt(word(scaling_planners, j)) \
	lc rgb pcolor(word(scaling_planners, j)) dt pdt(word(scaling_planners, j)) title ktitle(j), \
     NaN with points pt 6 ps 1.4 * ps_scale lc rgb "#555555" title "timed out (time is a lower bound)"
