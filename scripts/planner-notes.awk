# scripts/planner-notes.awk: the header comment of each planners/*.c as
# LaTeX (paper/generated/planners.tex), so the paper describes exactly the
# planners in the tree.  A header reads
#   name: one-line summary.
#   Algorithm: ...   Complexity: ...   Source: ...   Weak spots: ...
# (labels optional; text before the first label belongs to the summary).
#
#   awk -f scripts/planner-notes.awk planners/*.c > planners.tex

function tex(s) {
	gsub(/\\/, "\\textbackslash{}", s)
	gsub(/[{}$&#%_]/, "\\\\&", s)
	gsub(/\^/, "\\textasciicircum{}", s)
	gsub(/~/, "\\textasciitilde{}", s)
	gsub(/--/, "-{}-", s)
	gsub(/<=/, "$\\le$", s)
	gsub(/>=/, "$\\ge$", s)
	return s
}

function flush(    i) {
	if (name == "") return
	printf "\\paragraph{\\texttt{%s}} %s\n", tex(name), tex(summary)
	if (nl > 0) {
		print "\\begin{description}[itemsep=0pt,topsep=2pt,font=\\normalfont\\itshape]"
		for (i = 1; i <= nl; i++)
			printf "\\item[%s] %s\n", tex(label[i]), tex(body[i])
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
	if (match(line, /^(Algorithm|Complexity|Source|Sources|Weak spots|Limits|Provenance|Notes?):/)) {
		nl++
		label[nl] = substr(line, 1, RLENGTH - 1)
		body[nl] = substr(line, RLENGTH + 1)
		sub(/^[ \t]+/, "", body[nl])
		next
	}
	sub(/^[ \t]+/, "", line)
	if (line == "") next
	if (nl > 0) body[nl] = body[nl] " " line
	else summary = summary " " line
}
END { flush() }
