# paper/gen/sources-table.awk: provenance of the paper.  Input lines
# CSV|ORIGIN|META (paper/gen/paper-numbers.sh); writes \SourcesLine (for the
# title block: every source revision, dirty flag included) and
# \SourcesTable (one row per CSV: file, origin, revision, date, machine).
#
#   ... | awk -F'|' -f scripts/lib/common.awk -f paper/gen/sources-table.awk

function meta(file, M,    line, k) {
	delete M
	while ((getline line < file) > 0) {
		sub(/\r$/, "", line)
		k = line; sub(/=.*/, "", k); sub(/^[^=]*=/, "", line); M[k] = line
	}
	close(file)
}
{
	csv = $1; origin = $2
	meta($3, M)
	rev = ("git_revision" in M && M["git_revision"] != "") ? substr(M["git_revision"], 1, 10) : "unknown"
	if (M["git_dirty"] == "yes" || M["git_dirty"] == "1" || M["git_dirty"] == "true") rev = rev "+dirty"
	else if (!("git_dirty" in M)) rev = rev " (dirty flag unknown)"
	date = ("date_utc" in M) ? substr(M["date_utc"], 1, 10) : "unknown"
	mach = ("cpu_model" in M) ? M["cpu_model"] (("cores" in M) ? ", " M["cores"] " cores" : "") : "unknown"
	name = csv; sub(/^.*\//, "", name)
	line = line (line == "" ? "" : "; ") tt(name) " " tex(rev) " (" origin ", " date ")"
	rows = rows tt(csv) " & " origin " & " tt(rev) " & " date " & " tex(mach) " \\\\\n"
}
END {
	printf "\\newcommand{\\SourcesLine}{%s}\n", line
	printf "\\newcommand{\\SourcesTable}{%%\n\\begin{tabular}{lllll}\\toprule\nCSV & origin & revision & date & machine \\\\\\midrule\n%s\\bottomrule\\end{tabular}}\n", rows
}
