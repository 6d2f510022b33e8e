# paper/gen/sources-table.awk: provenance of the paper.  Input lines
# CSV|ORIGIN|META (paper/gen/paper-numbers.sh); writes \SourcesLine (for the
# title block: every source revision, dirty flag included), \SourcesTable
# (one row per CSV: file, origin, revision, date, machine) and \Src<Name>
# per CSV (for the captions of the tables drawn from it).
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
	key = name; sub(/\.csv$/, "", key)
	src[key] = "source: " tt(name) ", rev " tt(rev) ", " origin
	rows = rows tt(csv) " & " origin " & " tt(rev) " & " date " & " tex(mach) " \\\\\n"
}
END {
	# \SrcResults, \SrcScaling, ...: one per CSV, for the tables' captions.
	n = split("results scaling baselines transforms hard sweep hyperfine", keys, " ")
	split("Results Scaling Baselines Transforms Hard Sweep Hyperfine", macs, " ")
	for (i = 1; i <= n; i++)
		printf "\\newcommand{\\Src%s}{%s}\n", macs[i], (keys[i] in src) ? src[keys[i]] : "no " keys[i] ".csv"
	printf "\\newcommand{\\SourcesLine}{%s}\n", line
	printf "\\newcommand{\\SourcesTable}{%%\n\\begin{tabular}{lllll}\\toprule\nCSV & origin & revision & date & machine \\\\\\midrule\n%s\\bottomrule\\end{tabular}}\n", rows
}
