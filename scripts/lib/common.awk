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
