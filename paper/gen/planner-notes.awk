# paper/gen/planner-notes.awk: the header comment of each planners/*.c as
# LaTeX (paper/generated/planners.tex), so the paper describes exactly the
# planners in the tree.  A header reads
#   name: one-line summary.
#   Algorithm[ (where)]: ...  with optional numbered steps " 1. ..."
#   Complexity: ...  Source: ...  Weak spots: ...  (also Ties, Alignment)
# Labels are optional; text before the first label belongs to the summary.
#
#   awk -f paper/gen/planner-notes.awk planners/*.c > planners.tex

function tex(s,    out, pre) {
	gsub(/\\/, "\001", s)
	gsub(/[{}$&#%_]/, "\\\\&", s)
	gsub(/\001/, "\\textbackslash{}", s)
	gsub(/\^/, "\\textasciicircum{}", s)
	gsub(/~/, "\\textasciitilde{}", s)
	gsub(/--/, "-{}-", s)
	gsub(/<=/, "$\\le$", s)
	gsub(/>=/, "$\\ge$", s)
	gsub(/</, "\\textless{}", s)
	gsub(/>/, "\\textgreater{}", s)
	# Long paths and identifiers may break after / and _.
	gsub(/\//, "/\\allowbreak{}", s)
	gsub(/\\_/, "\\_\\allowbreak{}", s)
	# `code` -> \texttt{code}
	out = ""
	while (match(s, /`[^`]*`/)) {
		out = out substr(s, 1, RSTART - 1) "\\texttt{" substr(s, RSTART + 1, RLENGTH - 2) "}"
		s = substr(s, RSTART + RLENGTH)
	}
	return quotes(powers(mathify(out s)))
}

# 10^6, 2^62 (escaped as \textasciicircum{}) as math: $10^{6}$.
function powers(s,    out, m, k) {
	out = ""
	while (match(s, /[0-9]+\\textasciicircum\{\}-?[0-9]+/)) {
		m = substr(s, RSTART, RLENGTH)
		k = index(m, "\\")
		out = out substr(s, 1, RSTART - 1) "$" substr(m, 1, k - 1) "^{" substr(m, k + 18) "}$"
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

# "quoted" -> ``quoted'' (pairs on one line only).
function quotes(s) {
	while (match(s, /"[^"]*"/))
		s = substr(s, 1, RSTART - 1) "``" substr(s, RSTART + 1, RLENGTH - 2) "''" substr(s, RSTART + RLENGTH)
	return s
}

# Simple complexities as math: O(n log n), O(n^2), O(n * pool) become
# $O(n \log n)$, $O(n^{2})$, $O(n \cdot \mathit{pool})$; anything with
# nested parentheses or other words stays text.
function mathify(s,    out, m, inner, w, nw, i, r) {
	out = ""
	while (match(s, /O\(([A-Za-z0-9 +*]|\\textasciicircum\{\})+\)/)) {
		m = substr(s, RSTART + 2, RLENGTH - 3)
		if (m ~ /(^| )(of|the|per|over|sum|cost|whose)( |$)/) {	# prose: leave it
			out = out substr(s, 1, RSTART + RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
			continue
		}
		gsub(/\\textasciicircum\{\}/, "^", m)
		nw = split(m, w, " ")
		inner = ""
		for (i = 1; i <= nw; i++) {
			r = w[i]
			if (r == "log") r = "\\log"
			else if (r == "*") r = "\\cdot"
			else if (r ~ /^[A-Za-z][A-Za-z]+$/) r = "\\mathit{" r "}"
			else if (r ~ /\^[0-9]+$/) sub(/\^/, "^{", r) && r = r "}"
			inner = inner (i > 1 ? " " : "") r
		}
		out = out substr(s, 1, RSTART - 1) "$O(" inner ")$"
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

# A body with numbered steps (marked \002, the step's own label, \003)
# becomes text + enumerate, each item under its label as the header
# gives it (a "6a." between 6 and 7 stays 6a).
function body_tex(b,    n, part, i, s, lab) {
	n = split(b, part, "\002")
	s = tex(part[1])
	if (n > 1) {
		s = s "\n\\begin{enumerate}[nosep]"
		for (i = 2; i <= n; i++) {
			lab = part[i]; sub(/\003.*/, "", lab)
			sub(/^[^\003]*\003/, "", part[i])
			s = s "\n\\item[" lab "] " tex(part[i])
		}
		s = s "\n\\end{enumerate}"
	}
	return s
}

function flush(    i) {
	if (name == "") return
	printf "\\paragraph{\\texttt{%s}} %s\n", tex(name), body_tex(summary)
	if (nl > 0) {
		print "\\begin{description}[itemsep=1pt,topsep=2pt,font=\\normalfont\\itshape]"
		for (i = 1; i <= nl; i++)
			printf "\\item[%s] %s\n", tex(label[i]), body_tex(body[i])
		print "\\end{description}"
	}
	print ""
	name = ""
}

FNR == 1 { flush(); state = 0; nl = 0; summary = "" }
state == 2 { next }
state == 0 && /^\/\*/ { state = 1; next }
state == 0 { next }
state == 1 && /\*\// { state = 2; flush(); next }
state == 1 {
	line = $0
	sub(/^[ \t]*\*[ \t]?/, "", line)
	if (name == "" && line ~ /^[a-z0-9_]+:/) {
		name = line; sub(/:.*/, "", name)
		summary = line; sub(/^[^:]*:[ \t]*/, "", summary)
		next
	}
	if (name == "") next
	if (match(line, /^(Algorithm|Complexity|Source|Sources|Weak spots|Ties|Alignment|Limits|Provenance|Notes?)( \([^)]*\))?:/)) {
		nl++
		label[nl] = substr(line, 1, RLENGTH - 1)
		body[nl] = substr(line, RLENGTH + 1)
		sub(/^[ \t]+/, "", body[nl])
		next
	}
	step = (line ~ /^[ \t]*[0-9]+[a-z]?\.[ \t]/)
	sub(/^[ \t]+/, "", line)
	if (step) {
		match(line, /^[0-9]+[a-z]?\./)
		line = "\002" substr(line, 1, RLENGTH) "\003" substr(line, RLENGTH + 1)
		sub(/\003[ \t]+/, "\003", line)
	}
	if (line == "") next
	if (nl > 0) body[nl] = body[nl] (step ? "" : " ") line
	else summary = summary (step ? "" : " ") line
}
END { flush() }
