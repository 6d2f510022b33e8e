# paper/gen/transforms-table.awk: the paper's section on reordering and
# in-place reuse, from results/transforms.csv (scripts/study/transforms.sh;
# columns found by name).  Writes into $dir:
#   tab-transforms.tex  per named branchy graph: the lower bound of the
#                       file's order, with --inplace, with --reorder beam,
#                       with both; the best planned peak (over the planners
#                       run) without and with both; the reordering time
#   transforms.tex      \newcommand macros quoted in the text
#
#   awk -F, -v dir=paper/generated -f scripts/lib/common.awk -f paper/gen/transforms-table.awk FILE
# Only valid rows count.

function pct(a, b) { return b > 0 ? sprintf("%.1f", 100 * (1 - a / b)) : "--" }
function msfmt(t) { return t >= 1e6 ? sprintf("%.3g\\,ms", t / 1e6) : sprintf("%.3g\\,\\textmu{}s", t / 1e3) }
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	split("graph family planner options valid lower_bound_bytes lower_bound_original_bytes peak_bytes plan_ns reorder_ns", need, " ")
	for (k in need) if (!(need[k] in c)) { printf "%s: no column %s\n", FILENAME, need[k] > "/dev/stderr"; bad = 1; exit 2 }
	next
}
{
	if ($c["valid"] != "yes") { invalid++; next }
	o = $c["options"]
	ip = (o ~ /(^|;)inplace=yes(;|$)/) ? 1 : 0
	ro = (o ~ /(^|;)reorder=beam(;|$)/) ? 1 : 0
	cf = ip + 2 * ro            # 0 none, 1 inplace, 2 reorder, 3 both
	g = $c["graph"]
	if (!(g in seen)) { seen[g] = 1; ord[++ng] = g; fam[g] = $c["family"] }
	lb[g, cf] = $c["lower_bound_bytes"] + 0
	lbo[g, cf] = $c["lower_bound_original_bytes"] + 0
	pk = $c["peak_bytes"] + 0
	if (!((g, cf) in best) || pk < best[g, cf]) best[g, cf] = pk
	if (ro && $c["reorder_ns"] != "") rt[g, cf] = $c["reorder_ns"] + 0
	if (ro && $c["plan_ns"] != "") {
		t = $c["reorder_ns"] + $c["plan_ns"]
		if (!((g, cf) in tot) || t > tot[g, cf]) tot[g, cf] = t
	}
}
function named(g) {
	return g ~ /^(inception_v3_f32|densenet121_f32|unet_f32|ssd_mobilenet_v2_300_f32|deeplabv3_mnv2_513_f32|deeplabv3_mnv2_513_u8)$/ ||
	       g ~ /^(training|inception)_(small|medium)_s[0-9]+$/
}
END {
	if (bad) exit 2
	out = dir "/tab-transforms.tex"
	for (k = 1; k <= ng; k++) {
		g = ord[k]
		if (!named(g) || !((g, 0) in lb)) continue
		if ((g, 3) in best && best[g, 3] > best[g, 0])
			worse = worse (worse == "" ? "" : ", ") tt(g)
		printf "%s & %s & %s & %s & %s & %s & %s & %s \\\\\n", tt(g), commas(lb[g, 0]), \
			((g, 1) in lb) ? pct(lb[g, 1], lb[g, 0]) : "--", \
			((g, 2) in lb) ? pct(lb[g, 2], lb[g, 0]) : "--", \
			((g, 3) in lb) ? pct(lb[g, 3], lb[g, 0]) : "--", \
			commas(best[g, 0]), ((g, 3) in best) ? commas(best[g, 3]) : "--", \
			((g, 2) in rt) ? msfmt(rt[g, 2]) : "--" > out
	}
	close(out)
	# Macros.
	above = 0; zoo = 0; zoo_lower = 0; zmax = 0; zmaxg = ""
	tr = 0; trsum = 0; trmin = ""; trmax = 0
	inc = 0; incsum = 0
	nip = 0; ipl = 0
	for (k = 1; k <= ng; k++) {
		g = ord[k]
		if ((g, 2) in lb && lb[g, 2] > lbo[g, 2]) above++
		if ((g, 3) in lb && lb[g, 3] > lbo[g, 3]) above++
		if (fam[g] == "zoo") {
			if ((g, 2) in lb) { zoo++; if (lb[g, 2] < lbo[g, 2]) zoo_lower++ }
			if ((g, 2) in tot && tot[g, 2] > zmax) { zmax = tot[g, 2]; zmaxg = g }
			if ((g, 1) in lb && (g, 0) in lb) { nip++; if (lb[g, 1] < lb[g, 0]) { ipl++; ips[ipl] = 1 - lb[g, 1] / lb[g, 0] } }
		}
		if (g ~ /^training_/ && (g, 2) in lb && lbo[g, 2] > 0) {
			s = 1 - lb[g, 2] / lbo[g, 2]; tr++; trsum += s
			if (trmin == "" || s < trmin) trmin = s
			if (s > trmax) trmax = s
		}
		if (g == "inception_v3_f32" && (g, 2) in lb) { incb = lbo[g, 2]; inca = lb[g, 2] }
		if (g ~ /^inception_(small|medium)_/ && (g, 2) in lb && lbo[g, 2] > 0) {
			s = 1 - lb[g, 2] / lbo[g, 2]; nsin++
			if (s > 0) nsinl++
			if (s > nsinmax) nsinmax = s
		}
		if (fam[g] == "zoo" && (g, 1) in lb && (g, 0) in lb && lb[g, 1] < lb[g, 0])
			ipsave[g] = 1 - lb[g, 1] / lb[g, 0]
	}
	nsort(ips, ipl)
	out = dir "/transforms.tex"
	printf "\\newcommand{\\TrAboveCount}{%d}\n", above > out
	printf "\\newcommand{\\TrZooGraphs}{%d}\n", zoo > out
	printf "\\newcommand{\\TrZooLowered}{%d}\n", zoo_lower > out
	printf "\\newcommand{\\TrZooMaxTime}{%s}\n", (zmax > 0 ? msfmt(zmax) : "--") > out
	printf "\\newcommand{\\TrZooMaxTimeGraph}{%s}\n", zmaxg == "" ? "--" : tt(zmaxg) > out
	printf "\\newcommand{\\TrTrainingGraphs}{%d}\n", tr > out
	printf "\\newcommand{\\TrTrainingMean}{%s}\n", tr ? sprintf("%.1f\\,\\%%", 100 * trsum / tr) : "--" > out
	printf "\\newcommand{\\TrTrainingMin}{%s}\n", tr ? sprintf("%.1f\\,\\%%", 100 * trmin) : "--" > out
	printf "\\newcommand{\\TrTrainingMax}{%s}\n", tr ? sprintf("%.1f\\,\\%%", 100 * trmax) : "--" > out
	printf "\\newcommand{\\TrInceptionBefore}{%s}\n", incb ? commas(incb) : "--" > out
	printf "\\newcommand{\\TrInceptionAfter}{%s}\n", inca ? commas(inca) : "--" > out
	printf "\\newcommand{\\TrInplaceZoo}{%d}\n", nip > out
	printf "\\newcommand{\\TrInplaceLowered}{%d}\n", ipl > out
	printf "\\newcommand{\\TrInplaceMin}{%s}\n", ipl ? sprintf("%.1f\\,\\%%", 100 * ips[1]) : "--" > out
	printf "\\newcommand{\\TrInplaceMax}{%s}\n", ipl ? sprintf("%.1f\\,\\%%", 100 * ips[ipl]) : "--" > out
	printf "\\newcommand{\\TrInvalid}{%d}\n", invalid + 0 > out
	printf "\\newcommand{\\TrSynInception}{%d}\n", nsin + 0 > out
	printf "\\newcommand{\\TrSynInceptionLowered}{%d}\n", nsinl + 0 > out
	printf "\\newcommand{\\TrSynInceptionMax}{%s}\n", sprintf("%.1f\\,\\%%", 100 * nsinmax) > out
	# the four zoo graphs in-place helps most, largest saving first
	top = ""
	for (r = 1; r <= 4; r++) {
		bg = ""
		for (g in ipsave) if (!(g in used) && (bg == "" || ipsave[g] > ipsave[bg] || (ipsave[g] == ipsave[bg] && g < bg))) bg = g
		if (bg == "") break
		used[bg] = 1
		top = top (top == "" ? "" : ", ") tt(bg)
	}
	printf "\\newcommand{\\TrInplaceTop}{%s}\n", top == "" ? "none" : top > out
	printf "\\newcommand{\\TrPeakWorse}{%s}\n", worse == "" ? "none of them" : worse > out
	close(out)
}
