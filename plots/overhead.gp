# plots/overhead.gp -- Question 1: how far above the lower bound is each
# planner on each graph?  Heat map of peak_bytes / lower_bound_bytes, one
# row per graph (grouped by family, in corpus order), one column per planner,
# at one alignment (align_ratio, stated in the title).
# Input: $datadir/overhead.csv, graphs.csv, families.csv (plots/plotdata.awk).
# Call: gnuplot -e "datadir='plots/out/data'; out='x.svg'" plots/overhead.gp

load datadir . "/results.gp"
fig_h = n_graphs <= 18 ? 1.0 : (n_graphs + 8) / 26.0
_pdf = out[strlen(out) - 3:] eq ".pdf"
# PDF: at most a full page of the paper (6.3 in x 9.3 in).
if (fig_h > (_pdf ? 2.5 : 3.4)) fig_h = _pdf ? 2.5 : 3.4
fig_w = 1.0
load ARG0[1:strstrt(ARG0, "overhead.gp") - 1] . "style.gp"

np = words(planners)
f_over = datadir . "/overhead.csv"
stats f_over using "ratio" nooutput
rtop = STATS_max
stats datadir . "/families.csv" using (strlen(strcol("family"))) nooutput
fam_len = STATS_max
# Colours span 1 .. the worst non-linear ratio; darker cells are beyond it.
rmax = ratio_cap < 1.05 ? 1.05 : ratio_cap

set title sprintf("Peak / lower bound per graph, align %d  (a blank cell: the plan needs exactly the lower bound)", align_ratio) noenhanced
eval set_caption("")
set xrange [0.5 : np + 0.5]
set yrange [n_graphs + 0.5 : 0.5]
set xtics 1 rotate by 30 right scale 0 noenhanced font f_tics
# Row height in points decides the lettering: names and cell numbers stay
# legible down to about 5.5 pt (a paper page holds ~100 rows at that size).
row_pt = (is_pdf ? 72.0 * 3.74 * fig_h : 600.0 * fig_h * 0.75) / (n_graphs + 12)
fsz(mx) = row_pt * 0.95 < mx ? row_pt * 0.95 : mx
ytfont = sprintf(",%.1f", fsz(is_pdf ? 8 : 10))
cellfont = sprintf(",%.1f", fsz(is_pdf ? 7 : 9) * 0.92)
set ytics 1 scale 0 noenhanced font ytfont
set for [i = 1 : np] xtics add (word(planners, i) i)
unset grid
set logscale cb 2
set cbrange [1 : rmax]
set cbtics font f_small
set cblabel "peak / lower bound (log scale)" font f_small offset -0.5, 0
# Ticks at round ratios; the top colour also stands for every ratio beyond
# it (linear's), so its tick says so.
cb_nice = "1 1.1 1.25 1.5 2 3 4 6 8 16 32"
set cbtics ()
do for [i = 1 : words(cb_nice)] {
	t = word(cb_nice, i) + 0
	if (t <= rmax / 1.12 || (t <= rmax && rtop <= rmax * 1.001)) { set cbtics add (word(cb_nice, i) t) }
}
if (rtop > rmax * 1.001) { set cbtics add (sprintf("≥ %.3g", rmax) rmax) }
set palette defined (0 "#f7fbff", 0.15 "#fff3b0", 0.45 "#fd8d3c", 0.75 "#d7301f", 1 "#67000d")
# Family names right of the map, then the colour bar right of them: the
# right margin holds the longest family name, the bar and its label.
set rmargin fam_len + 12
set colorbox user origin screen 0.915, graph 0.25 size screen 0.012, graph 0.5
set lmargin graph_name_len * (is_pdf ? 0.8 : 0.95) + 2
set bmargin 8
set tmargin 3
unset key

# Text colour: white on dark cells.
dark(r) = log(r) / log(rmax) > 0.55 ? 0xffffff : 0x000000
labels_on = row_pt >= 4.5

plot f_over using "pidx":"row":(0.5):(0.5):"ratio" with boxxyerror fc palette \
        fs solid 1.0 border lc rgb "#ffffff", \
     datadir . "/graphs.csv" using (NaN):"row":ytic(strcol("graph")) notitle, \
     datadir . "/families.csv" using (0.5):(column("last_row") + 0.5):(np):(0) \
        with vectors nohead lc rgb "#333333" lw 1.5, \
     datadir . "/families.csv" using (np + 0.5):((column("first_row") + column("last_row")) / 2.0):(" " . strcol("family")) \
        with labels left offset character 0.5, 0 font f_key noenhanced, \
     f_over using "pidx":(labels_on && column("ratio") > 1 ? column("row") : NaN):(strcol("label")):(dark(column("ratio"))) \
        with labels tc rgb variable font cellfont
