# plots/hard-profile.gp -- issue 18: the anytime profile of exact: its
# best peak / proved bound against seconds (first point: best_of's plan,
# then the end of the complete search, then each window repair that lowered
# the peak), one line per instance.  Input: $datadir/profile_<instance>.csv
# (seconds,ratio,nodes).
load ARG0[1:strstrt(ARG0, "hard-profile.gp") - 1] . "style.gp"
# The caption names the CSV, its revision and machine (plots/hard.sh).
eval set_caption("")
ni = words(hard_instances)
f(i) = sprintf("%s/profile_%s.csv", datadir, word(hard_instances, i))
set title "exact's anytime profile: best peak / proved bound" noenhanced
set xlabel "seconds (one core)"
# room under the axis label for the caption line
set bmargin 5
set ylabel "peak / best proved lower bound"
set logscale x 10
set xrange [0.01 : *]
set key top right font f_key noenhanced box opaque
set grid xtics ytics
plot for [i = 1 : ni] f(i) using (column("seconds") < 0.01 ? 0.01 : column("seconds")):"ratio" \
	with steps lw 2 lc rgb word(extra_colors, i) title word(hard_instances, i)
