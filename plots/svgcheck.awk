# plots/svgcheck.awk: the checks a reader makes at a glance, on gnuplot's
# SVG output (plots/plots-selftest.sh runs it on every figure):
#   - no text outside the canvas;
#   - no text over another text;
#   - no two legend entries of planners in one colour.
# Text boxes are estimated from gnuplot's SVG: each text is a group
# `<g transform="translate(X,Y) [rotate(R)]" font-size="S" text-anchor="A">`
# whose <text> holds the string; its box is W = 0.5 S per character (a
# little under Helvetica's mean advance, so that an overlap reported is
# real), from 0.75 S above the baseline to 0.2 S below it, rotated by R
# about (X, Y).  Two boxes overlap when no separating axis (the four edge
# normals) splits them with a 1-pixel margin.  Legend entries are the
# `<g id="gnuplot_plot_N"><title>T</title>` groups; T's first word (up to a
# colon) is a planner when it is in `planners` (a space-separated list,
# -v planners=...); its colour is the first stroke or fill after it.
#
#   awk -v planners="a b" -f plots/svgcheck.awk FIG.svg
# Prints one line per problem, "FIG.svg: ...", and exits 1 if any.

function chars(s,   t, n) {
	t = s
	n = gsub(/[\200-\277]/, "", t)	# UTF-8 continuation bytes
	return length(s) - n
}

function unescape(s) {
	gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
	gsub(/&apos;/, "'", s); gsub(/&amp;/, "\\&", s)
	return s
}

function attr(line, name,   i, s) {
	i = index(line, name "=\"")
	if (!i) return ""
	s = substr(line, i + length(name) + 2)
	return substr(s, 1, index(s, "\"") - 1)
}

# The four corners of text k's box into cx[k, 1..4], cy[k, 1..4].
function corners(k, x, y, size, anchor, rot, w,   x0, x1, y0, y1, c, s, a, i, px, py) {
	x0 = anchor == "end" ? -w : anchor == "middle" ? -w / 2 : 0
	x1 = x0 + w
	y0 = -0.75 * size
	y1 = 0.2 * size
	px[1] = x0; py[1] = y0; px[2] = x1; py[2] = y0
	px[3] = x1; py[3] = y1; px[4] = x0; py[4] = y1
	a = rot * 3.14159265358979 / 180
	c = cos(a); s = sin(a)
	for (i = 1; i <= 4; i++) {
		cx[k, i] = x + px[i] * c - py[i] * s
		cy[k, i] = y + px[i] * s + py[i] * c
	}
}

# Do the projections of boxes a and b on the normal of edge e of box o
# overlap by more than a pixel?
function overlap_on(o, e, a, b,   nx, ny, i, p, amin, amax, bmin, bmax, n) {
	nx = -(cy[o, e % 4 + 1] - cy[o, e])
	ny = cx[o, e % 4 + 1] - cx[o, e]
	n = sqrt(nx * nx + ny * ny)
	if (n == 0) return 1
	nx /= n; ny /= n
	for (i = 1; i <= 4; i++) {
		p = cx[a, i] * nx + cy[a, i] * ny
		if (i == 1 || p < amin) amin = p
		if (i == 1 || p > amax) amax = p
		p = cx[b, i] * nx + cy[b, i] * ny
		if (i == 1 || p < bmin) bmin = p
		if (i == 1 || p > bmax) bmax = p
	}
	return amin < bmax - 1 && bmin < amax - 1
}

function overlaps(a, b,   e) {
	for (e = 1; e <= 4; e++)
		if (!overlap_on(a, e, a, b) || !overlap_on(b, e, a, b)) return 0
	return 1
}

function problem(msg) {
	printf "%s: %s\n", FILENAME, msg
	bad = 1
}

BEGIN {
	if (scale == "") scale = 1
	np = split(planners, pv, " ")
	for (i = 1; i <= np; i++) is_planner[pv[i]] = 1
}

# the canvas
W == "" && /^ *width="[0-9.]+" height="[0-9.]+"/ { W = attr($0, "width") + 0; H = attr($0, "height") + 0 }

# a legend entry: its title, then its colour
/<g id="gnuplot_plot_[0-9]+[a-z]*" *><title>/ {
	t = $0
	sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
	t = unescape(t)
	split(t, tw, /[: ]/)
	entry = (tw[1] in is_planner) ? tw[1] : ""
	next
}
entry != "" && /stroke='rgb\(|fill="rgb\(|stroke="rgb\(/ {
	c = $0
	if (c ~ /stroke='rgb\(/) { sub(/.*stroke='rgb\(/, "", c) } else { sub(/.*(fill|stroke)="rgb\(/, "", c) }
	sub(/\).*/, "", c)
	gsub(/ /, "", c)
	if (c in colour_of && colour_of[c] != entry)
		problem(sprintf("planners %s and %s share the colour rgb(%s)", colour_of[c], entry, c))
	colour_of[c] = entry
	entry = ""
}

# a text: its position, size and anchor, then its string
/<g transform="translate\(/ && /font-size=/ {
	tr = attr($0, "transform")
	xy = tr
	sub(/^translate\(/, "", xy); sub(/\).*/, "", xy)
	split(xy, p, ",")
	rot = 0
	if (tr ~ /rotate\(/) { r = tr; sub(/.*rotate\(/, "", r); sub(/\).*/, "", r); rot = r + 0 }
	pend_x = p[1] + 0; pend_y = p[2] + 0
	pend_size = attr($0, "font-size") + 0
	pend_anchor = attr($0, "text-anchor")
	pending = 1
	next
}
pending && /<text>/ {
	s = $0
	gsub(/<[^>]*>/, "", s)
	s = unescape(s)
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	pending = 0
	if (s == "") next
	# a multiplot repeats its labels in each panel: one text, one box
	key = s SUBSEP pend_x SUBSEP pend_y
	if (key in seen_text) next
	seen_text[key] = 1
	n++
	txt[n] = s
	corners(n, pend_x, pend_y, scale * pend_size, pend_anchor, rot, 0.58 * scale * pend_size * chars(s))
}

END {
	for (k = 1; k <= n; k++) {
		out = 0
		for (i = 1; i <= 4; i++)
			if (cx[k, i] < -1 || cy[k, i] < -1 || cx[k, i] > W + 1 || cy[k, i] > H + 1) out = 1
		if (out) problem(sprintf("text '%s' runs outside the %dx%d canvas", txt[k], W, H))
	}
	for (a = 1; a <= n; a++)
		for (b = a + 1; b <= n; b++)
			if (overlaps(a, b))
				problem(sprintf("text '%s' overlaps text '%s'", txt[a], txt[b]))
	exit bad
}
