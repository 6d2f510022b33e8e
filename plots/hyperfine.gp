# plots/hyperfine.gp -- Question 7: how long do whole commands take?
# One bar per command measured by hyperfine: mean with +-1 standard
# deviation, and the fastest/slowest run as small triangles.  Log time axis.
# Bars are in the planner's colour when the CSV names the planner
# (scripts/study/bench-cli.sh's rows), else blue.
# Input: $datadir/hyperfine.csv (idx,command,planner,mean,stddev,min,max in
# seconds, re-selected by name by plots/plotdata.awk), hyperfine.gp.

load datadir . "/hyperfine.gp"
_pdf = out[strlen(out) - 3:] eq ".pdf"
fig_h = hf_n <= 8 ? 1.0 : (hf_n + 6) / (_pdf ? 16.0 : 13.0)
if (fig_h > (_pdf ? 2.4 : 4.0)) fig_h = _pdf ? 2.4 : 4.0
load ARG0[1:strstrt(ARG0, "hyperfine.gp") - 1] . "style.gp"

f = datadir . "/hyperfine.csv"
np = words(hf_planners)
set title "Whole-command wall time (hyperfine)" noenhanced
eval set_caption("")
set logscale x 10
set xrange [hf_min / 2 : hf_max * 3]
set yrange [hf_n + 0.6 : 0.4]
set xlabel "wall time (log scale)"
set xtics ("1 µs" 1e-6, "10 µs" 1e-5, "100 µs" 1e-4, "1 ms" 1e-3, "10 ms" 1e-2, \
	"100 ms" 0.1, "1 s" 1, "10 s" 10, "100 s" 100, "1000 s" 1000)
f_ytic = hf_n > 40 ? ",7" : f_small
set ytics 1 scale 0 noenhanced font f_ytic
set grid xtics mxtics
set key outside right top Left reverse font f_key samplen 2 noenhanced
set lmargin 44
set bmargin 5
bh = 0.35
fmt_t(t) = t >= 1 ? sprintf("%.3g s", t) : t >= 1e-3 ? sprintf("%.3g ms", t * 1e3) : sprintf("%.3g µs", t * 1e6)
bar(p) = strcol("planner") eq p
x0 = hf_min / 10.0

plot f using (np == 0 || strcol("planner") eq "" ? column("mean") : NaN):"idx":(x0):"mean" \
	:(column("idx") - bh):(column("idx") + bh) with boxxyerror fc rgb "#0072B2" fs solid 0.75 \
	title (np == 0 ? "mean" : ""), \
     for [j = 1 : np] f using (bar(word(hf_planners, j)) ? column("mean") : NaN):"idx":(x0):"mean" \
	:(column("idx") - bh):(column("idx") + bh) with boxxyerror fc rgb pcolor(word(hf_planners, j)) \
	fs solid 0.85 title word(hf_planners, j), \
     f using "mean":"idx":(column("mean") - column("stddev") > 0 ? column("mean") - column("stddev") : column("mean")) \
	:(column("mean") + column("stddev")) with xerrorbars pt -1 lc rgb "#000000" lw 1.2 title "± 1 stddev", \
     f using "min":"idx" with points pt 10 ps 0.8 * ps_scale lc rgb "#555555" title "min / max", \
     f using "max":"idx" with points pt 8 ps 0.8 * ps_scale lc rgb "#555555" notitle, \
     f using "max":"idx":(fmt_t(column("mean"))) with labels left offset 1.5, 0 font f_small notitle, \
     f using (NaN):"idx":ytic(strcol("command")) notitle
