# plots/hyperfine.gp -- Question 7: how long do whole commands take?
# One bar per command measured by hyperfine: mean with +-1 standard
# deviation, and the fastest/slowest run as small ticks.  Log time axis.
# Input: $datadir/hyperfine.csv (idx,command,mean,stddev,min,max in
# seconds, re-selected by name from hyperfine's --export-csv), hyperfine.gp.

load datadir . "/hyperfine.gp"
fig_h = hf_n <= 8 ? 1.0 : (hf_n + 4) / 12.0
load ARG0[1:strstrt(ARG0, "hyperfine.gp") - 1] . "style.gp"

f = datadir . "/hyperfine.csv"
set title "Whole-command wall time (hyperfine)" noenhanced
eval set_caption("")
set logscale x 10
set xrange [hf_min / 2 : hf_max * 2]
set yrange [hf_n + 0.6 : 0.4]
set xlabel "wall time (log scale)"
set xtics ("1 µs" 1e-6, "10 µs" 1e-5, "100 µs" 1e-4, "1 ms" 1e-3, "10 ms" 1e-2, \
	"100 ms" 0.1, "1 s" 1, "10 s" 10, "100 s" 100, "1000 s" 1000)
set ytics 1 scale 0 noenhanced font f_small
set grid xtics mxtics
set key bottom right Left reverse font f_key samplen 2 box opaque width 1
set lmargin 48
set bmargin 5
bh = 0.3
fmt_t(t) = t >= 1 ? sprintf("%.3g s", t) : t >= 1e-3 ? sprintf("%.3g ms", t * 1e3) : sprintf("%.3g µs", t * 1e6)

plot f using (column("mean") / 2):"idx":(hf_min / 1e3):"mean":(column("idx") - bh):(column("idx") + bh) \
	with boxxyerror fc rgb "#0072B2" fs solid 0.7 title "mean", \
     f using "mean":"idx":(column("mean") - column("stddev") > 0 ? column("mean") - column("stddev") : column("mean")) \
	:(column("mean") + column("stddev")) with xerrorbars pt -1 lc rgb "#000000" lw 1.5 title "± 1 stddev", \
     f using "min":"idx" with points pt 10 ps 1 * ps_scale lc rgb "#555555" title "min", \
     f using "max":"idx" with points pt 8 ps 1 * ps_scale lc rgb "#555555" title "max", \
     f using "max":"idx":(fmt_t(column("mean"))) with labels left offset 2.5, 0 font f_small notitle, \
     f using (NaN):"idx":ytic(strcol("command")) notitle
