# plots/hyperfine.gp -- Question 7: how long do whole commands take?
# One row per planner (scripts/study/bench-cli.sh's rows name it), one
# marker per input: the mean wall time with +-1 standard deviation, on a log
# time axis.  Within a row the inputs are spread a little vertically so that
# equal times do not hide each other.  A command that names no planner (a
# plain hyperfine export, or a whole `bench` run) gets a row of its own.
# Input: $datadir/hyperfine.csv (idx,command,planner,mean,stddev,min,max,
# row,input; seconds), hyperfine_rows.csv (row,label), hyperfine.gp
# (hf_rows, hf_inputs, hf_input_<k>), all from plots/plotdata.awk.

load datadir . "/hyperfine.gp"
fig_h = hf_rows <= 10 ? 0.9 : 0.9 + 0.045 * (hf_rows - 10)
fig_h = fig_h + 0.03 * hf_inputs
load ARG0[1:strstrt(ARG0, "hyperfine.gp") - 1] . "style.gp"

f = datadir . "/hyperfine.csv"
# Inputs: their own colours and markers (the rows carry the planner names).
in_colors = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #8C564B"
in_points = "7 5 9 13 11 15 3 1"
icolor(k) = k < 1 ? "#333333" : word(in_colors, 1 + (k - 1) % words(in_colors))
ipt(k) = k < 1 ? 7 : int(word(in_points, 1 + (k - 1) % words(in_points)))
iname(k) = value(sprintf("hf_input_%d", k))
lane = hf_inputs > 1 ? 0.6 / hf_inputs : 0
ypos(dummy) = column("row") + (column("input") > 0 ? (column("input") - (hf_inputs + 1) / 2.0) * lane : 0)

set title "Whole-command wall time (hyperfine): mean ± 1 standard deviation" noenhanced
eval set_caption("")
set logscale x 10
set xrange [hf_min / 2 : hf_max * 2]
set yrange [hf_rows + 0.6 : 0.4]
set xlabel "wall time (log scale)"
set xtics ("1 µs" 1e-6, "10 µs" 1e-5, "100 µs" 1e-4, "1 ms" 1e-3, "10 ms" 1e-2, \
	"100 ms" 0.1, "1 s" 1, "10 s" 10, "100 s" 100, "1000 s" 1000) font f_tics
set mxtics 10
set ytics 1 scale 0 noenhanced font f_tics
set grid xtics ytics mxtics lc rgb "#e8e8e8"
set key below Left reverse maxcols 1 font f_key samplen 1 noenhanced
set bmargin 4.5 + hf_inputs * (is_pdf ? 1.1 : 1.0)
# The legend takes the bottom edge: the caption goes to the top edge.
set label 999 at screen 0.01, screen 0.985 left
set tmargin 3.5
set lmargin 22

plot datadir . "/hyperfine_rows.csv" using (NaN):"row":ytic(strcol("label")) notitle, \
     f using "mean":(ypos(0)):(column("mean") - column("stddev") > 0 ? column("mean") - column("stddev") : column("mean")) \
	:(column("mean") + column("stddev")) with xerrorbars pt -1 lc rgb "#777777" lw 1 notitle, \
     for [k = 1 : hf_inputs] f using (column("input") == k ? column("mean") : NaN):(ypos(0)) \
	with points pt ipt(k) ps 1.1 * ps_scale lc rgb icolor(k) title iname(k), \
     f using (column("input") == 0 ? column("mean") : NaN):(ypos(0)) \
	with points pt ipt(0) ps 1.1 * ps_scale lc rgb icolor(0) notitle
