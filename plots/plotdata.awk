# plots/plotdata.awk: turns a checked results CSV into the small tables the
# gnuplot scripts in plots/ draw.  Columns are found by header name; derived
# ratios are computed here, never stored in results/.
#
#   awk -F, -v mode=results -v dir=plots/out/data -v known="linear ..." \
#       [-v align_ratio=N] [-v align_bytes=N] [-v bytes_graphs=a,b] FILE
#   awk -F, -v mode=sweep     -v dir=... -v known=... FILE   (padding by align)
#   awk -F, -v mode=scaling   -v dir=... FILE   (points per planner)
#   awk -F, -v mode=slopes    -v dir=... -v known=... SLOPES (scripts/lib/slopes.awk's output)
#   awk -F, -v mode=hyperfine -v dir=... FILE
#
# Every output is a CSV with a header, read by name by the plot scripts;
# lists and chosen settings go to $dir/<mode>.gp as gnuplot variables.

function note(msg) { printf "plots: %s\n", msg > "/dev/stderr" }

# gnuplot string literal (double quotes, no escapes inside).
function gq(s) { gsub(/["\\]/, "'", s); return "\"" s "\"" }

# Sorts the planner names seen: the known ones in style.gp order, then the
# rest alphabetically.  Fills ord[1..] and returns the count.
function order_planners(seen, ord,    nk, k, i, n, rest, nr, p) {
	nk = split(known, k, " ")
	n = 0
	for (i = 1; i <= nk; i++)
		if (k[i] in seen) {
			ord[++n] = k[i]
			isknown[k[i]] = 1
		}
	nr = 0
	for (p in seen)
		if (!(p in isknown))
			rest[++nr] = p
	for (i = 2; i <= nr; i++) {	# insertion sort, by name
		p = rest[i]
		for (j = i; j > 1 && rest[j - 1] > p; j--)
			rest[j] = rest[j - 1]
		rest[j] = p
	}
	for (i = 1; i <= nr; i++)
		ord[++n] = rest[i]
	return n
}

function v(name) { return $(col[name]) }

{ sub(/\r$/, "") }

NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	next
}

# ------------------------------------------------------------------ results
mode == "results" || mode == "sweep" {
	g = v("graph"); p = v("planner"); a = v("align") + 0
	if (!(g in gidx_of)) {
		gidx_of[g] = ++ng
		gname[ng] = g
		gfam[ng] = v("family")
		if (!(gfam[ng] in fidx)) {
			fidx[gfam[ng]] = ++nf
			fname[nf] = gfam[ng]
		}
	}
	if (!(a in aseen)) {
		aseen[a] = 1
		if (minalign == "" || a < minalign) minalign = a
		if (maxalign == "" || a > maxalign) maxalign = a
	}
	if (v("valid") != "yes") {
		invalid++
		next
	}
	k = g SUBSEP p SUBSEP a
	if (k in peak) {
		dup++
		next
	}
	pseen[p] = 1
	peak[k] = v("peak_bytes")
	peak1[k] = v("peak_align1_bytes")
	pad[k] = v("padding_bytes")
	lb[g] = v("lower_bound_bytes")
	gbuf[g] = v("buffers") + 0
	if ("source" in col) gsrc[g] = v("source")
	sumb[g] = v("sum_bytes")
	next
}

# ------------------------------------------------------------------ scaling
# The points per planner; the fit is scripts/lib/slopes.awk's (mode slopes).
mode == "scaling" {
	p = v("planner")
	n = v("buffers") + 0
	t = v("plan_ns") + 0
	st = v("status")
	f = dir "/scaling_" p ".csv"
	if (!(f in opened)) {
		opened[f] = 1
		print "buffers,plan_ns,status_ok" > f
	}
	# A run stopped before it was timed has no plan_ns: counted, not drawn.
	if (v("plan_ns") != "")
		print n "," t "," (st == "ok" ? 1 : 0) >> f
	next
}

# The output of scripts/lib/slopes.awk -> scaling.gp.
mode == "slopes" {
	p = v("planner")
	pseen[p] = 1
	fslope[p] = v("slope"); ficpt[p] = v("intercept"); ftout[p] = v("timed_out") + 0
	flo[p] = v("min_buffers"); fhi[p] = v("max_buffers")
	next
}

# ---------------------------------------------------------------- hyperfine
# hyperfine's own --export-csv (mean, stddev, min, max) or the rows of
# scripts/study/bench-cli.sh (mean_s, ... plus kind, input, buffers, planner).
function hv(name) { return (name in col) ? $(col[name]) : $(col[name "_s"]) }
mode == "hyperfine" {
	nh++
	c = v("command")
	if (("input" in col) && v("input") != "") {
		c = v("input")
		if (c !~ / /) { sub(/^.*\//, "", c); sub(/\.[A-Za-z]+$/, "", c) }
		if (("buffers" in col) && v("buffers") != "") c = c " (" v("buffers") " buffers)"
		if ("kind" in col) c = v("kind") ": " c
	} else
		sub(/^[^ ]*arenabench /, "arenabench ", c)
	gsub(/"/, "'", c)
	hp = ("planner" in col) ? v("planner") : ""
	if (hp != "" && !(hp in hpseen)) { hpseen[hp] = 1; pseen[hp] = 1 }
	hrow[nh] = nh "," c "," hp "," hv("mean") "," hv("stddev") "," hv("min") "," hv("max")
	if (hmax == "" || hv("max") + 0 > hmax) hmax = hv("max") + 0
	if (hmin == "" || hv("min") + 0 < hmin) hmin = hv("min") + 0
	next
}

END {
	if (mode == "results") results_end()
	else if (mode == "sweep") sweep_end()
	else if (mode == "slopes") slopes_end()
	else if (mode == "hyperfine") hyperfine_end()
}

function ratio(g, p, a,    k) {
	k = g SUBSEP p SUBSEP a
	if (!(k in peak) || lb[g] + 0 == 0) return ""
	return peak[k] / lb[g]
}

function results_end(    GS, GN, np, ord, i, j, g, p, r, f, vals, n, gv, out, a, ab, sel, nsel, fam, best, spread, lo, hi, top, lin, yclip) {
	if (invalid) note(invalid " rows with valid != yes are left out of the figures")
	if (dup) note(dup " rows repeating (graph, planner, align) with other options are left out (first row kept)")
	np = order_planners(pseen, ord)
	a = (align_ratio != "") ? align_ratio + 0 : minalign
	if (!((a) in aseen)) { note("align " a " is not in the results; using " minalign); a = minalign }
	ab = (align_bytes != "") ? align_bytes + 0 : ((64 in aseen) ? 64 : maxalign)
	if (!((ab) in aseen)) { note("align " ab " is not in the results; using " maxalign); ab = maxalign }

	# 1. overhead per graph (heat map): graphs grouped by family.
	out = dir "/overhead.csv"
	print "row,pidx,graph,family,planner,ratio,label" > out
	row = 0
	for (f = 1; f <= nf; f++) {
		ffirst[f] = row + 1
		for (i = 1; i <= ng; i++) {
			if (gfam[i] != fname[f]) continue
			row++
			grow[i] = row
			for (j = 1; j <= np; j++) {
				r = ratio(gname[i], ord[j], a)
				if (r == "") continue
				print row "," j "," gname[i] "," fname[f] "," ord[j] "," r "," \
					(r >= 9.995 ? sprintf("%.0f", r) : sprintf("%.2f", r)) >> out
			}
		}
		flast[f] = row
	}
	close(out)
	# Colour scale of the heat map: up to the worst reuse-aware ratio, so
	# that linear (far above) does not wash out the differences that matter.
	rcap = 1.05
	for (i = 1; i <= ng; i++)
		for (j = 1; j <= np; j++) {
			if (ord[j] == "linear") continue
			r = ratio(gname[i], ord[j], a)
			if (r != "" && r > rcap) rcap = r
		}
	out = dir "/families.csv"
	print "family,first_row,last_row" > out
	for (f = 1; f <= nf; f++)
		print fname[f] "," ffirst[f] "," flast[f] >> out
	close(out)
	out = dir "/graphs.csv"
	print "row,graph,family" > out
	for (f = 1; f <= nf; f++)
		for (i = 1; i <= ng; i++)
			if (gfam[i] == fname[f]) print grow[i] "," gname[i] "," fname[f] >> out
	close(out)

	# 3. CDF of peak / lower bound, one file per planner.
	for (j = 1; j <= np; j++) {
		p = ord[j]; n = 0
		delete vals
		for (i = 1; i <= ng; i++) {
			r = ratio(gname[i], p, a)
			if (r != "") vals[++n] = r
		}
		ncdf[p] = n
		out = dir "/cdf_" p ".csv"
		print "ratio,frac" > out
		nsort(vals, n)
		if (n > 0) print vals[1] ",0" >> out
		for (i = 1; i <= n; i++)
			print vals[i] "," i / n >> out
		close(out)
		# Geometric mean and worst case for the legend.
		worst = 0
		for (i = 1; i <= n; i++) { geo_add(GS, GN, p, vals[i]); if (vals[i] > worst) worst = vals[i] }
		cdf_geo[p] = n ? geo_mean(GS, GN, p) : 0
		cdf_max[p] = worst
	}

	# 2. where the bytes go: choose the graphs.
	nsel = 0
	if (bytes_graphs != "") {
		n = split(bytes_graphs, gv, ",")
		for (i = 1; i <= n; i++)
			if (gv[i] in gidx_of) sel[++nsel] = gv[i]
			else note("bytes_graphs: graph '" gv[i] "' is not in the results; skipped")
	} else {
		if ("chain_24k" in gidx_of) sel[++nsel] = "chain_24k"
		# Per family, the graph where the non-linear planners differ most;
		# then the real models first (zoo, tflite, minimalloc), then the
		# other families by that spread.
		for (f = 1; f <= nf; f++) {
			fbest[f] = ""; fspread[f] = -1
			for (i = 1; i <= ng; i++) {
				if (gfam[i] != fname[f] || gname[i] == "chain_24k") continue
				lo = ""; hi = ""
				for (j = 1; j <= np; j++) {
					if (ord[j] == "linear") continue
					r = ratio(gname[i], ord[j], ab)
					if (r == "") continue
					if (lo == "" || r < lo) lo = r
					if (hi == "" || r > hi) hi = r
				}
				if (hi != "") gspread[i] = hi - lo
				if (hi != "" && hi - lo > fspread[f]) { fspread[f] = hi - lo; fbest[f] = gname[i] }
			}
			if (fname[f] == "zoo") fspread[f] += 1000
			else if (fname[f] == "tflite" || fname[f] == "minimalloc") fspread[f] += 100
		}
		while (nsel < 6) {
			best = ""; spread = -1
			for (f = 1; f <= nf; f++)
				if (fbest[f] != "" && !(f in taken) && fspread[f] > spread) { spread = fspread[f]; best = f }
			if (best == "") break
			taken[best] = 1
			sel[++nsel] = fbest[best]
			chosen[fbest[best]] = 1
		}
		# Fewer families than panels (a user's corpus of one folder): the
		# other graphs where the planners differ most fill the panels.
		filled = 0
		while (nsel < 6) {
			best = ""; spread = -1
			for (i = 1; i <= ng; i++)
				if ((i in gspread) && !(gname[i] in chosen) && gspread[i] > spread) { spread = gspread[i]; best = i }
			if (best == "") break
			chosen[gname[best]] = 1
			sel[++nsel] = gname[best]
			filled++
		}
	}
	# What the caption says of the choice: every graph, or which and why.
	if (nsel == ng) bytes_choice = "all " ng " graphs"
	else if (bytes_graphs != "") bytes_choice = nsel " of the " ng " graphs (BYTES_GRAPHS)"
	else bytes_choice = nsel " of the " ng " graphs, where the planners differ most" \
		(("chain_24k" in gidx_of) ? " (and chain_24k)" : "")
	out = dir "/bytes.csv"
	print "panel,graph,pidx,planner,lb,frag_top,peak,pad,clipped,unit" > out
	for (i = 1; i <= nsel; i++) {
		g = sel[i]
		# y range: the non-linear peaks set the scale; a taller linear bar
		# is clipped and labelled with its height.
		top = 0; lin = 0
		for (j = 1; j <= np; j++) {
			k = g SUBSEP ord[j] SUBSEP ab
			if (!(k in peak)) continue
			hi = (peak1[k] > peak[k]) ? peak1[k] : peak[k]
			if (ord[j] == "linear") lin = hi
			else if (hi > top) top = hi
		}
		if (top == 0) top = lin
		yclip = top * 1.35
		unit = unit_of(yclip)
		for (j = 1; j <= np; j++) {
			k = g SUBSEP ord[j] SUBSEP ab
			if (!(k in peak)) continue
			hi = (peak1[k] > peak[k]) ? peak1[k] : peak[k]
			print i "," g "," j "," ord[j] "," lb[g] "," peak1[k] "," peak[k] "," pad[k] "," \
				(hi > yclip ? yclip : 0) "," unit >> out
		}
		ytop[i] = yclip
	}
	close(out)

	layout_choice(np, ord, ab)

	out = dir "/results.gp"
	print "planners = " gq(join(ord, np)) > out
	print "align_ratio = " a >> out
	print "align_bytes = " ab >> out
	print "bytes_choice = " gq(bytes_choice) >> out
	print "n_graphs = " ng >> out
	print "n_families = " nf >> out
	print "ratio_cap = " rcap >> out
	w = 0
	for (i = 1; i <= ng; i++) if (length(gname[i]) > w) w = length(gname[i])
	print "graph_name_len = " w >> out
	print "n_panels = " nsel >> out
	s = ""
	for (i = 1; i <= nsel; i++) s = s (i > 1 ? " " : "") sel[i]
	print "panel_graphs = " gq(s) >> out
	s = ""
	for (i = 1; i <= nsel; i++) s = s (i > 1 ? " " : "") ytop[i]
	print "panel_ytop = " gq(s) >> out
	s = ""
	for (j = 1; j <= np; j++)
		s = s (j > 1 ? " " : "") sprintf("%d|%.2f|%.3g", ncdf[ord[j]], cdf_geo[ord[j]], cdf_max[ord[j]])
	print "cdf_stats = " gq(s) >> out
	close(out)
}

# 5. the graphs of the plan layouts, from the results only: first the graph
# where the reuse-aware planners' peaks differ most at align ab (largest
# worst/best ratio; ties: more buffers), among graphs of at most
# layout_max_buffers buffers (default 400, so that rectangles stay
# visible); then the largest graph (most buffers) when it is another.
# Writes layout_candidates.csv: role,graph,buffers,spread,best,worst,source
# (role "spread" rows in order of preference, then one "largest" row).
function layout_choice(np, ord, ab,    i, j, g, k, lo, hi, plo, phi, sp, n, cand, key, out, big, lim) {
	lim = (layout_max_buffers != "") ? layout_max_buffers + 0 : 400
	out = dir "/layout_candidates.csv"
	print "role,graph,buffers,spread,best,worst,source" > out
	n = 0
	for (i = 1; i <= ng; i++) {
		g = gname[i]
		lo = hi = ""; plo = phi = ""
		for (j = 1; j <= np; j++) {
			if (ord[j] == "linear") continue
			k = g SUBSEP ord[j] SUBSEP ab
			if (!(k in peak)) continue
			if (lo == "" || peak[k] + 0 < lo) { lo = peak[k] + 0; plo = ord[j] }
			if (hi == "" || peak[k] + 0 > hi) { hi = peak[k] + 0; phi = ord[j] }
		}
		if (lo == "" || lo == 0) continue
		sp = hi / lo
		spread_of[g] = sp; best_of_g[g] = plo; worst_of_g[g] = phi
		if (big == "" || gbuf[g] > gbuf[big]) big = g
		if (gbuf[g] > lim) continue
		# Sort key: spread descending, then buffers descending, then name.
		cand[++n] = sprintf("%020.9f %012d %s", 1e6 - sp, 1e9 - gbuf[g], g)
	}
	nsort(cand, n)
	for (i = 1; i <= n; i++) {
		g = cand[i]; sub(/^[^ ]* [^ ]* /, "", g)
		print "spread," g "," gbuf[g] "," sprintf("%.4f", spread_of[g]) "," best_of_g[g] "," worst_of_g[g] "," gsrc[g] >> out
	}
	if (big != "")
		print "largest," big "," gbuf[big] "," sprintf("%.4f", spread_of[big]) "," best_of_g[big] "," worst_of_g[big] "," gsrc[big] >> out
	close(out)
}

function unit_of(m) {
	return m >= 2 * 1024 ^ 3 ? 1024 ^ 3 : m >= 2 * 1024 ^ 2 ? 1024 ^ 2 : m >= 2048 ? 1024 : 1
}

function join(arr, n,    s, i) {
	s = ""
	for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") arr[i]
	return s
}

# 6. padding against alignment on one family (zoo by default).
function sweep_end(    np, ord, j, p, out, fam, a, al, na, i, g, k, sum, cnt, ngf, sum1, worst, wg, r) {
	np = order_planners(pseen, ord)
	fam = (family != "") ? family : "zoo"
	ngf = 0
	for (i = 1; i <= ng; i++) if (gfam[i] == fam) ngf++
	if (ngf == 0) {
		note("no graph of family '" fam "' in " FILENAME "; the alignment sweep uses every graph")
		fam = ""
		ngf = ng
	}
	na = 0
	for (a in aseen) al[++na] = a + 0
	nsort(al, na)
	for (j = 1; j <= np; j++) {
		p = ord[j]
		out = dir "/sweep_" p ".csv"
		# peak_align1_bytes: the same graphs' align-1 peaks summed;
		# worst_pct: the largest padding / align-1 peak of one graph, in %.
		print "align,padding_bytes,graphs,peak_align1_bytes,worst_pct,worst_graph" > out
		for (i = 1; i <= na; i++) {
			sum = 0; cnt = 0; sum1 = 0; worst = ""; wg = ""
			for (g = 1; g <= ng; g++) {
				if (fam != "" && gfam[g] != fam) continue
				k = gname[g] SUBSEP p SUBSEP al[i]
				if (!(k in pad)) continue
				sum += pad[k]; cnt++; sum1 += peak1[k]
				r = peak1[k] > 0 ? 100 * pad[k] / peak1[k] : 0
				if (worst == "" || r > worst) { worst = r; wg = gname[g] }
			}
			if (cnt) printf "%s,%s,%d,%.0f,%.6g,%s\n", al[i], sum, cnt, sum1, worst, wg >> out
		}
		close(out)
	}
	out = dir "/sweep.gp"
	print "sweep_planners = " gq(join(ord, np)) > out
	print "sweep_family = " gq(fam == "" ? "all" : fam) >> out
	print "sweep_graphs = " ngf >> out
	s = ""
	for (i = 1; i <= na; i++) s = s (i > 1 ? " " : "") al[i]
	print "sweep_aligns = " gq(s) >> out
	close(out)
}

# 4. the fitted slopes (scripts/lib/slopes.awk) for the legend and lines:
# slope|intercept|timed out|first fitted size|last fitted size per planner.
function slopes_end(    np, ord, j, p, out, s) {
	np = order_planners(pseen, ord)
	out = dir "/scaling.gp"
	print "scaling_planners = " gq(join(ord, np)) > out
	s = ""
	for (j = 1; j <= np; j++) {
		p = ord[j]
		if (fslope[p] == "")
			s = s (j > 1 ? " " : "") "n/a|n/a|" ftout[p] "|0|0"
		else
			s = s (j > 1 ? " " : "") sprintf("%.2f|%s|%d|%d|%d", fslope[p], ficpt[p], ftout[p], flo[p], fhi[p])
	}
	print "scaling_slopes = " gq(s) >> out
	close(out)
}

# hyperfine.csv: one row per measurement; row = the figure's row (a
# planner, in legend order, then each command that names no planner);
# input = which input of the planner rows (its marker), 0 for none.
# hyperfine_rows.csv labels the rows; hf_input_<k> names the inputs.
function hyperfine_end(    out, i, np, ord, j, rowof, nrow, rlab, ni, iname, iidx, f, c, hp) {
	np = order_planners(pseen, ord)
	nrow = 0
	for (j = 1; j <= np; j++) { rowof[ord[j]] = ++nrow; rlab[nrow] = ord[j] }
	ni = 0
	for (i = 1; i <= nh; i++) {
		split(hrow[i], f, ",")
		c = f[2]; hp = f[3]
		if (hp != "") {
			if (!(c in iidx)) { iidx[c] = ++ni; iname[ni] = c }
		} else if (!(("cmd" SUBSEP c) in rowof)) {
			rowof["cmd" SUBSEP c] = ++nrow; rlab[nrow] = c
		}
	}
	out = dir "/hyperfine.csv"
	print "idx,command,planner,mean,stddev,min,max,row,input" > out
	for (i = 1; i <= nh; i++) {
		split(hrow[i], f, ",")
		c = f[2]; hp = f[3]
		print hrow[i] "," (hp != "" ? rowof[hp] : rowof["cmd" SUBSEP c]) "," (hp != "" ? iidx[c] : 0) >> out
	}
	close(out)
	out = dir "/hyperfine_rows.csv"
	print "row,label" > out
	for (i = 1; i <= nrow; i++) print i "," rlab[i] >> out
	close(out)
	out = dir "/hyperfine.gp"
	print "hf_n = " nh > out
	print "hf_min = " hmin >> out
	print "hf_max = " hmax >> out
	print "hf_planners = " gq(join(ord, np)) >> out
	print "hf_rows = " nrow >> out
	print "hf_inputs = " ni >> out
	for (i = 1; i <= ni; i++) print "hf_input_" i " = " gq(iname[i]) >> out
	close(out)
}
