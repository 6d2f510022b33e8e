# scripts/lib/common.awk: helpers shared by the awk scripts that turn CSVs into
# figures and LaTeX (load it first: awk -f scripts/lib/common.awk -f X.awk).

# LaTeX-escapes s; tt(s) sets it in \texttt.
function tex(s) {
	gsub(/\\/, "\\textbackslash{}", s)
	gsub(/[{}$&#%_]/, "\\\\&", s)
	gsub(/\^/, "\\textasciicircum{}", s)
	gsub(/~/, "\\textasciitilde{}", s)
	return s
}
function tt(s) { return "\\texttt{" tex(s) "}" }

# Sorts a[1..n] in place (shell sort; numbers compare as numbers, other
# strings as strings; n is at most a few thousand).
function nsort(a, n,    gap, i, j, t) {
	for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
		for (i = gap + 1; i <= n; i++) {
			t = a[i]
			for (j = i; j > gap && a[j - gap] > t; j -= gap)
				a[j] = a[j - gap]
			a[j] = t
		}
}

# A duration in nanoseconds in LaTeX, three significant digits.
function nsfmt(t) {
	if (t >= 1e9) return sprintf("%.3g\\,s", t / 1e9)
	if (t >= 1e6) return sprintf("%.3g\\,ms", t / 1e6)
	if (t >= 1e3) return sprintf("%.3g\\,\\textmu{}s", t / 1e3)
	return sprintf("%.0f\\,ns", t)
}

# An integer with thousands separators: 1048576 -> 1,048,576.
function commas(x,    s, r) {
	s = sprintf("%d", x); r = ""
	while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
	return s r
}

# --- the one median, geometric mean and log-log fit of every report --------
# (plots, paper and README all call these; never a copy.)

# Median of a[1..n] (sorts a); "" when n is 0.
function median(a, n) {
	if (n == 0) return ""
	nsort(a, n)
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# Geometric mean by accumulation: geo_add(S, N, key, x) for each positive
# x, then geo_mean(S, N, key) ("" when nothing was added).
function geo_add(S, N, key, x) { S[key] += log(x); N[key]++ }
function geo_mean(S, N, key) { return (N[key] + 0) ? exp(S[key] / N[key]) : "" }

# Least-squares slope of log10(y) on log10(x), by accumulation:
# fit_add(key, x, y) for each point, then fit_slope(key) ("" with fewer
# than two distinct x), fit_icpt(key) the intercept, fit_n[key] the points.
function fit_add(key, x, y,    lx, ly) {
	lx = log(x) / log(10); ly = log(y) / log(10)
	fit_n[key]++; fit_sx[key] += lx; fit_sy[key] += ly
	fit_sxx[key] += lx * lx; fit_sxy[key] += lx * ly
}
function fit_slope(key,    d) {
	d = fit_n[key] * fit_sxx[key] - fit_sx[key] * fit_sx[key]
	if (fit_n[key] < 2 || d <= 1e-12) return ""
	return (fit_n[key] * fit_sxy[key] - fit_sx[key] * fit_sy[key]) / d
}
function fit_icpt(key,    b) {
	b = fit_slope(key)
	return b == "" ? "" : (fit_sy[key] - b * fit_sx[key]) / fit_n[key]
}

# minimalloc's public suite is the problems of its paper, A..K, named in
# paper/data/minimalloc-published.csv with their published peaks.  Other
# minimalloc-format problems (its README's 12-byte example, input.12) are
# not in it.  suite_load(FILE, PUB) fills PUB[problem] = published peak;
# suite_problem("A.1048576") is "A" (the capacity suffix dropped).
function suite_load(file, PUB,    line, f) {
	while ((getline line < file) > 0) {
		sub(/\r$/, "", line)
		if (line ~ /^#/ || line ~ /^problem,/ || line == "") continue
		split(line, f, ",")
		PUB[f[1]] = f[2] + 0
	}
	close(file)
}
function suite_problem(g) { sub(/\.[0-9]+$/, "", g); return g }
