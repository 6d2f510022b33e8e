# plots/style.gp: what every figure shares.  Loaded first by each plot script.
#
#  - one colour, point type and dash type per planner, the same in every
#    figure; a planner not listed here gets a style derived from a hash of
#    its name, so it is stable from run to run;
#  - binary byte units (B, KiB, MiB, GiB) chosen from the largest value;
#  - the output terminal chosen from the extension of `out`
#    (.svg, .png or .pdf), with sizes for the web and the paper;
#  - the caption naming the machine and revision (meta_caption, written by
#    plots/plots.sh into $datadir/meta.gp).
#
# plots/plots.sh reads `planner_names` below to order legends: the listed
# planners first, in this order, then any other planner alphabetically.

# Order = legend order.  linear is the no-reuse baseline: black.  Every
# registered planner has a colour of its own, at least 55 apart (RGB
# distance) from every other one in this list and in extra_colors, so that
# no two planners of a figure share a colour (plots/plots-selftest.sh
# checks both lists).
planner_names  = "linear first_fit_in_order greedy_last_use size_first_fit multi_arena_phase tflite_arena tflm_greedy greedy_by_size_gpu xla_best_fit greedy_conflicts best_of local_search exact offline executorch_greedy ggml_gallocr gpu_greedy_in_order ort_mem_pattern ort_sequential"
planner_colors = "#000000 #999999 #E69F00 #0072B2 #009E73 #D55E00 #CC79A7 #56B4E9 #8C564B #7F7F00 #6A3D9A #FB9A99 #E31A1C #1B7837 #00CED1 #000080 #8080FF #FF1493 #9ACD32"
# cairo point types: 4/5 square, 6/7 circle, 8/9 triangle, 10/11 inverted
# triangle, 12/13 diamond, 14/15 pentagon, 1 plus, 2 cross, 3 star
planner_points = "1 2 7 5 9 13 11 15 6 4 8 10 3 12 14 4 6 8 10"
planner_dashes = "1 2 1 1 1 1 1 1 4 4 4 5 1 5 2 4 5 2 4"

# Planners not listed above: plots/plots.sh names those of the run, sorted,
# in $datadir/palette.gp (extra_names), and each takes the next colour of
# extra_colors, so that they differ from each other in every figure of the
# run; a name it did not list gets a colour from a hash of its name.
extra_colors = "#FFD700 #800000 #00FF7F #4B0082 #40E0D0 #BA55D3 #556B2F #FF6347 #4682B4 #8B008B #20B2AA #C71585 #F4A460 #BDB76B #CD853F"
extra_points = "4 6 8 10 12 14 5 7 9 11 13 15"
if (!exists("extra_names")) extra_names = ""
if (exists("datadir")) { _pf = datadir . "/palette.gp"; if (system("test -r '" . _pf . "' && echo y") eq "y") { load _pf } }

# Index of word w in the space-separated list l (0 if absent).
_widx(l, w, i) = i > words(l) ? 0 : (word(l, i) eq w ? i : _widx(l, w, i + 1))
planner_index(p) = _widx(planner_names, p, 1)
extra_index(p) = _widx(extra_names, p, 1)

# Deterministic string hash (position-weighted character codes).
_hchars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+"
_hash(s, i, h) = i > strlen(s) ? h : \
	_hash(s, i + 1, (h * 31 + strstrt(_hchars, s[i:i]) + 1) % 1000003)
name_hash(s) = _hash(s, 1, 7)
_extra_slot(p) = extra_index(p) > 0 ? extra_index(p) - 1 : name_hash(p)

pcolor(p) = planner_index(p) > 0 ? word(planner_colors, planner_index(p)) : \
	word(extra_colors, 1 + _extra_slot(p) % words(extra_colors))
ppt(p) = planner_index(p) > 0 ? int(word(planner_points, planner_index(p))) : \
	int(word(extra_points, 1 + (extra_index(p) > 0 ? extra_index(p) - 1 : name_hash(p) / 13) % words(extra_points)))
pdt(p) = planner_index(p) > 0 ? int(word(planner_dashes, planner_index(p))) : \
	3 + (name_hash(p) / 7) % 3

# ------------------------------------------------------------ byte units
unit_bytes(m) = m >= 2.0 * 1024**3 ? 1024.0**3 : m >= 2.0 * 1024**2 ? 1024.0**2 : \
	m >= 2048 ? 1024.0 : 1.0
unit_name(m) = m >= 2.0 * 1024**3 ? "GiB" : m >= 2.0 * 1024**2 ? "MiB" : \
	m >= 2048 ? "KiB" : "bytes"
# A byte count as text, e.g. "24 KiB", "1.5 MiB".
human(b) = sprintf("%.4g %s", b / unit_bytes(abs(b)), unit_name(abs(b)))

# ---------------------------------------------------------------- output
if (!exists("out")) out = "plot.svg"
if (!exists("fig_w")) fig_w = 1.0
if (!exists("fig_h")) fig_h = 1.0
_ext(f) = f[strlen(f) - 3:strlen(f)]
is_pdf = _ext(out) eq ".pdf"
# Paper figures: 16 cm x 9.5 cm (6.3 in x 3.74 in) scaled; web: 1000 x 600 px.
if (_ext(out) eq ".pdf") {
	set terminal pdfcairo enhanced color font "Helvetica,9" linewidth 1 \
		size 6.3 * fig_w, 3.74 * fig_h
} else {
	if (_ext(out) eq ".png") {
		set terminal pngcairo enhanced color font "Helvetica,11" \
			size int(1000 * fig_w), int(600 * fig_h)
	} else {
		if (_ext(out) eq ".svg") {
			set terminal svg enhanced font "Helvetica,12" \
				size int(1000 * fig_w), int(600 * fig_h) background "#ffffff"
		} else {
			print sprintf("plots/style.gp: output '%s': expected a name ending in .svg, .png or .pdf", out)
			exit status 2
		}
	}
}
set output out

set datafile separator comma
set datafile columnheaders
set encoding utf8
set border lw 1 lc rgb "#333333"
set grid lc rgb "#dddddd" lw 1 dt 1
set key noenhanced
set style fill solid 1.0 border -1

# Caption with the machine and revision, bottom left of every figure.
if (!exists("meta_caption")) meta_caption = ""
# meta_name picks another sidecar's caption (meta_scaling.gp, ...).
if (exists("datadir")) { _mf = datadir . "/" . (exists("meta_name") ? meta_name : "meta") . ".gp"; if (system("test -r '" . _mf . "' && echo y") eq "y") { load _mf } }
caption(extra) = sprintf("%s%s%s", extra, (strlen(extra) > 0 && strlen(meta_caption) > 0) ? "  |  " : "", meta_caption)
set_caption(extra) = sprintf("set label 999 \"%s\" at screen 0.01, screen 0.015 left font \",%d\" tc rgb \"#555555\" noenhanced", \
	caption(extra), is_pdf ? 6 : 9)

# Font sizes for tick labels, keys and in-plot text.
f_tics = is_pdf ? ",8" : ",10"
f_small = is_pdf ? ",7" : ",9"
f_key = is_pdf ? ",8" : ",10"
# Point sizes: cairo PDF points come out larger relative to the text.
ps_scale = is_pdf ? 0.6 : 1.0
