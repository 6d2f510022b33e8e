# plots/bytes.gp -- Question 2: where do the bytes go?  For a few graphs, one
# stacked bar per planner at one alignment (align_bytes):
#   lower bound | fragmentation = peak_align1 - lower bound (planner colour)
#   | padding = peak - peak_align1 (signed: a negative padding, where the
#   aligned plan came out smaller, is drawn as a translucent green band
#   below the fragmentation top, from the aligned peak up to the align-1
#   peak).  The legend lists only the padding kinds the panels show.
# A bar far taller than the others (usually linear) is cut off and labelled.
# Input: $datadir/bytes.csv and results.gp (plots/plotdata.awk).

load datadir . "/results.gp"
# Wide on screen; at the paper's text width for the PDF, so that the
# lettering is not scaled down.
fig_w = out[strlen(out) - 3:] eq ".pdf" ? 1.0 : 1.35
fig_h = n_panels > 3 ? 1.55 : 0.9
load ARG0[1:strstrt(ARG0, "bytes.gp") - 1] . "style.gp"

f = datadir . "/bytes.csv"
np = words(planners)
if (n_panels == 0) {
	set label 1 "no graph selected for this figure" at graph 0.5, 0.5 center
	plot NaN notitle
	exit
}
ncols = n_panels >= 3 ? 3 : n_panels
nrows = (n_panels + ncols - 1) / ncols

c_lb = "#c8c8c8"
c_pad = "#a50f15"
c_neg = "#2ca02c"
sel(i, j) = column("panel") == i && column("pidx") == j
cut(y) = column("clipped") > 0 && y > column("clipped") ? column("clipped") : y
u = 1.0

# Which padding kinds the panels show: only those get a legend entry.
stats f using (column("pad") > 0 ? 1 : 0) nooutput
has_pos = STATS_max > 0
stats f using (column("pad") < 0 ? 1 : 0) nooutput
has_neg = STATS_max > 0

# Title on the first line, legend on the second, panels below: nothing
# overlaps, whatever the number of panels.
set label 998 sprintf("Where the bytes go, align %d: the lower bound (grey), the fragmentation above it (in the planner's colour) and the padding", align_bytes) \
	at screen 0.01, screen 0.975 left noenhanced font (is_pdf ? ",10" : ",13")
set multiplot
eval set_caption("")
# Which graphs: all of the corpus, or how they were chosen.
set label 997 bytes_choice at screen 0.99, screen (n_panels > 3 ? 0.955 : 0.92) right noenhanced font f_key
set style fill solid 1.0 border lc rgb "#333333"
set xrange [0.4 : np + 0.6]
# Narrow panels: names upright, so that they do not collide.
narrow = ncols >= 3
if (narrow) { set xtics 1 rotate by 90 right scale 0 noenhanced font f_small } else { set xtics 1 rotate by 35 right scale 0 noenhanced font f_small }
set for [j = 1 : np] xtics add (word(planners, j) j)
set grid ytics
set yrange [0:*]
set ytics nomirror
set format y "%g"
set tmargin 3.5
set bmargin (narrow ? 9 : 6.5)

bw = 0.36   # half bar width
top_frac = n_panels > 3 ? 0.93 : 0.86   # panels below the title and legend
cap_frac = 0.03
do for [i = 1 : n_panels] {
	g = word(panel_graphs, i)
	top = word(panel_ytop, i) + 0
	u = unit_bytes(top)
	# a strip at the bottom keeps the caption clear of the lowest names
	set origin (1.0 / ncols) * ((i - 1) % ncols), cap_frac + (top_frac - cap_frac) / nrows * (nrows - 1 - (i - 1) / ncols)
	set size 1.0 / ncols, (top_frac - cap_frac) / nrows
	set title g noenhanced offset 0, -0.5
	set ylabel unit_name(top)
	set yrange [0 : top / u]
	if (i == 1) {
		set key at screen 0.01, screen (n_panels > 3 ? 0.955 : 0.92) left top horizontal maxrows 1 Left reverse \
			samplen 1.5 spacing 1 width 2 font f_key noenhanced
	} else {
		unset key
	}
	plot NaN with boxes fc rgb c_lb title "lower bound", \
	     NaN with boxes fc rgb c_pad title (has_pos ? "padding > 0" : ""), \
	     NaN with boxes fc rgb c_neg fs transparent solid 0.5 title (has_neg ? "padding < 0 (saved)" : ""), \
	     NaN with lines lc rgb "#000000" lw 1.5 title "peak", \
	     for [j = 1 : np] f using (sel(i, j) ? j : NaN):(0):(j - bw):(j + bw):(0):(cut(column("lb")) / u) \
		with boxxyerror fc rgb c_lb notitle, \
	     for [j = 1 : np] f using (sel(i, j) ? j : NaN):(0):(j - bw):(j + bw):(cut(column("lb")) / u):(cut(column("frag_top")) / u) \
		with boxxyerror fc rgb pcolor(word(planners, j)) notitle, \
	     f using (column("panel") == i && column("pad") > 0 ? column("pidx") : NaN):(0):(column("pidx") - bw):(column("pidx") + bw) \
		:(cut(column("frag_top")) / u):(cut(column("peak")) / u) \
		with boxxyerror fc rgb c_pad fs solid 1.0 border lc rgb c_pad notitle, \
	     f using (column("panel") == i && column("pad") < 0 ? column("pidx") : NaN):(0):(column("pidx") - bw):(column("pidx") + bw) \
		:(cut(column("peak")) / u):(cut(column("frag_top")) / u) \
		with boxxyerror fc rgb c_neg fs transparent solid 0.5 border lc rgb c_neg notitle, \
	     f using (column("panel") == i ? column("pidx") : NaN):(cut(column("peak")) / u):(bw):(0) \
		with xerrorbars pt -1 lc rgb "#000000" lw 1.5 notitle, \
	     f using (column("panel") == i && column("clipped") > 0 ? column("pidx") + bw : NaN):(column("clipped") / u) \
		:("↑ " . human(column("peak"))) with labels left offset 0.3, -0.6 font f_small tc rgb "#000000" notitle
}
unset multiplot
