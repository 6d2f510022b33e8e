# plots/layout.gp -- Question 5: what does one plan look like?  One rectangle
# per buffer (steps across, addresses up; a buffer live over the half-open
# steps [lower, upper) at [offset, offset + size)), the live-bytes curve, the
# lower bound and the plan's peak (one line, named for both, when the plan
# reaches the bound).
#
#   gnuplot -e "plan='plan.csv'; live='live.csv'; out='x.svg'; title='...'" plots/layout.gp
#
# plan: CSV with id,lower,upper,size,offset (+ arena when the plan has more
#       than one arena: rectangles are then coloured by arena), from
#       `arenabench plan FILE --planner P --align N --emit-plan plan.csv`.
# live: CSV with step,live_bytes,lower_bound_bytes (--emit-live); optional.
# out:  .svg, .png or .pdf (chooses the terminal).  title: optional.
# planner: optional; outlines are drawn in that planner's colour.
# Optional, from `explain --plot`: axis_label (the runtime's step
# convention), label_column (the plan column that labels a rectangle,
# default id), peak_bytes (the plan's peak when the file holds only some of
# its buffers), xfrom/xto (the steps drawn).
# This is the script `arenabench explain --plot` calls.

if (!exists("plan")) { print "plots/layout.gp: set plan='FILE.csv' (id,lower,upper,size,offset)"; exit status 2 }
if (!exists("title")) title = plan
load ARG0[1:strstrt(ARG0, "layout.gp") - 1] . "style.gp"
have_live = exists("live") ? (system("test -r '" . live . "' && echo y") eq "y") : 0

# Extent of the plan.
stats plan using "upper" nooutput
nbuf = STATS_records
xmax = STATS_max
stats plan using (column("offset") + column("size")) nooutput
peak = exists("peak_bytes") ? peak_bytes : STATS_max
if (!exists("axis_label")) axis_label = "step (operator index)"
if (!exists("label_column")) label_column = "id"
xlo = exists("xfrom") ? xfrom : 0
if (exists("xto")) xmax = xto
ymax = peak
lbound = -1
if (have_live) {
	stats live using "live_bytes" nooutput
	ymax = STATS_max > ymax ? STATS_max : ymax
	stats live using "lower_bound_bytes" nooutput
	lbound = STATS_max
}
# The arena column, when present and not all zero, colours by arena.
by_arena = 0
if (strstrt("," . system("head -n 1 '" . plan . "' | tr -d '\\r'") . ",", ",arena,") > 0) {
	stats plan using "arena" nooutput
	by_arena = STATS_max > 0
}

u = unit_bytes(ymax)
set title title noenhanced
if (exists("datadir")) { eval set_caption("") }
set xrange [xlo : xmax]
set yrange [0 : ymax * 1.08 / u]
set xlabel axis_label noenhanced
set ylabel sprintf("address (%s)", unit_name(ymax))
set key outside top center horizontal font f_key noenhanced samplen 2
set grid xtics ytics front lc rgb "#e0e0e0"
set format y "%g"
if (xmax - xlo <= 40) { set xtics 1 } else { set xtics autofreq }
set bmargin 5
# Buffer ids on an opaque patch, so that the live-bytes curve cannot hide
# them; a buffer too small for its id gets no label at all (an empty boxed
# label would still paint a white speck).
set style textbox opaque noborder margins 0.5, 0.5

# 12 light fills; a buffer's fill comes from its id (or arena).
fills = "0xa6cee3 0xb2df8a 0xfb9a99 0xfdbf6f 0xcab2d6 0xffff99 0x8dd3c7 0xbebada 0xfb8072 0x80b1d3 0xfdb462 0xb3de69"
fill(k) = int(word(fills, 1 + int(k) % 12))
edge = exists("planner") ? pcolor(planner) : "#333333"
key_of(dummy) = by_arena ? column("arena") : column("id")
labels_on = nbuf <= 60
labelled(dummy) = labels_on && column("size") > ymax * 0.03
# The peak line: named for the lower bound too when the plan reaches it.
at_bound = lbound == peak
peak_lw = at_bound ? 2 : 1.5
peak_dt = at_bound ? 1 : 4
peak_lc = at_bound ? "#d62728" : edge
peak_title = at_bound ? sprintf("peak = lower bound = %s", human(peak)) : sprintf("peak %s", human(peak))

plot plan using ((column("lower") + column("upper")) / 2.0):((column("offset") + column("size") / 2.0) / u) \
	:(column("lower")):(column("upper")):(column("offset") / u):((column("offset") + column("size")) / u) \
	:(fill(key_of(0))) with boxxyerror fc rgb variable fs solid 0.9 border lc rgb edge \
	title (by_arena ? "buffers (colour = arena)" : "buffers"), \
     (have_live ? live : plan) using (have_live ? column("step") : NaN):(have_live ? column("live_bytes") / u : NaN) \
	with steps lw 2 lc rgb "#222222" title (have_live ? "live bytes" : ""), \
     (have_live ? live : plan) using (have_live ? column("step") : NaN):(have_live ? column("live_bytes") / u : NaN):(1):(0) \
	with vectors nohead lw 2 lc rgb "#222222" notitle, \
     (lbound >= 0 && lbound != peak ? lbound / u : NaN) with lines lw 2 dt 2 lc rgb "#d62728" \
	title (lbound >= 0 && lbound != peak ? sprintf("lower bound %s", human(lbound)) : ""), \
     peak / u with lines lw peak_lw dt peak_dt lc rgb peak_lc title peak_title, \
     plan using (labelled(0) ? (column("lower") + column("upper")) / 2.0 : NaN) \
	:((column("offset") + column("size") / 2.0) / u):(strcol(label_column)) with labels boxed font f_small notitle
