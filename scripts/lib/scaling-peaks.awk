# scripts/lib/scaling-peaks.awk: make scaling's rows as written
# (scripts/study/scaling.sh).  Reads the rows (the scale columns, then
# sort_ns and sort_cpu_ns, the yardstick measured around each row) and
# appends, per row:
#   plan_sorts            plan_ns / sort_ns (wall, Google Benchmark's median)
#   first_plan_cpu_sorts  first_plan_cpu_ns / sort_cpu_ns (thread CPU)
#   reference_peak_bytes  the peak_bytes of the reference's row for the
#                         same planner, buffers, seed and align
#   peak_change           same | changed | no_reference | no_peak
# Every changed row goes to the file `changes`, a line each.
#
#   awk -F, -v ref=REFERENCE.csv -v changes=FILE -f scripts/lib/scaling-peaks.awk ROWS
#
# ref empty: every row no_reference.  The reference is read by column
# name, so an older scaling CSV (without the sort columns) serves.

function ratio(t, s) { return (t != "" && s + 0 > 0) ? sprintf(t / s < 10 ? "%.3f" : "%.1f", t / s) : "" }

BEGIN {
	if (ref != "") {
		while ((getline line < ref) > 0) {
			sub(/\r$/, "", line)
			nf = split(line, f, ",")
			if (!rh++) { for (i = 1; i <= nf; i++) rc[f[i]] = i; continue }
			k = f[rc["planner"]] SUBSEP f[rc["buffers"]] SUBSEP f[rc["seed"]] SUBSEP f[rc["align"]]
			have[k] = 1
			rpeak[k] = f[rc["peak_bytes"]]
		}
		close(ref)
	}
	printf "" > changes
}
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	print $0 ",plan_sorts,first_plan_cpu_sorts,reference_peak_bytes,peak_change"
	next
}
{
	k = $c["planner"] SUBSEP $c["buffers"] SUBSEP $c["seed"] SUBSEP $c["align"]
	pk = $c["peak_bytes"]; old = (k in have) ? rpeak[k] : ""
	if (!(k in have)) change = "no_reference"
	else if (pk == "" || old == "") change = "no_peak"
	else if (pk == old) change = "same"
	else {
		change = "changed"
		printf "  %s buffers=%s seed=%s align=%s: %s -> %s bytes (%+.4f%%)\n", $c["planner"], $c["buffers"],
			$c["seed"], $c["align"], old, pk, 100 * (pk - old) / (old > 0 ? old : 1) >> changes
	}
	print $0 "," ratio($c["plan_ns"], $c["sort_ns"]) "," ratio($c["first_plan_cpu_ns"], $c["sort_cpu_ns"]) "," old "," change
}
