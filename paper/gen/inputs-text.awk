# paper/gen/inputs-text.awk: from a bench's .meta, one sentence on the
# inputs it skipped (their reasons are in the .meta and the report) and
# one on those planned with --dim values (the layouts use the same).
# Appended to corpus.tex by paper/gen/paper-numbers.sh.
function stem(p) { sub(/^.*\//, "", p); sub(/\.[^.]*$/, "", p); return p }
function names(a, n,   s, i) { for (i = 1; i <= n; i++) s = s (i > 1 ? (i == n ? " and " : ", ") : "") tt(a[i]); return s }
/^skipped_input=/ { v = substr($0, 15); sk[++ns] = stem(substr(v, 1, index(v, ": ") - 1)) }
/^input_dims=/ { v = substr($0, 12); dm[++nd] = stem(substr(v, 1, index(v, ": ") - 1)) }
END {
	if (ns)
		printf " The bench could not plan %d input%s, skipped with the reason recorded in \\texttt{results.meta}: %s.", ns, (ns > 1 ? "s" : ""), names(sk, ns)
	if (nd)
		printf " %s planned with the \\texttt{-{}-dim} values recorded there (the plan layouts use the same): %s.", (nd > 1 ? nd " models were" : "One model was"), names(dm, nd)
	if (ns || nd)
		printf "\n"
}
