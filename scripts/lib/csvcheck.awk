# scripts/lib/csvcheck.awk: checks a results CSV before anything is drawn from it.
#
#   awk -F, -v need="graph,planner" -v uint="peak_bytes" -v sint="padding_bytes" \
#       -v real="mean" -v enums="status=ok|timed_out" -f scripts/lib/csvcheck.awk FILE
#
# need:  columns that must be in the header
# uint:  columns holding non-negative integers
# uopt:  columns holding non-negative integers or nothing (e.g. plan_ns
#        under `bench --no-timing`)
# sint:  columns holding signed integers
# real:  columns holding decimal numbers (1.5, 2e-3)
# enums: column=value|value;... columns with a fixed set of values
# Columns are found by name.  The first problem found is printed as
# FILE:LINE: column 'NAME': what was expected, and the exit status is 1.

function fail(line, msg) {
	printf "%s:%s: %s\n", FILENAME, line, msg > "/dev/stderr"
	bad = 1
	exit 1
}

function setof(list, arr,    n, i, t) {
	n = split(list, t, ",")
	for (i = 1; i <= n; i++)
		if (t[i] != "")
			arr[t[i]] = 1
}

BEGIN {
	setof(need, want)
	setof(uint, isuint)
	setof(uopt, isuopt)
	setof(sint, issint)
	setof(real, isreal)
	ne = split(enums, et, ";")
	for (i = 1; i <= ne; i++) {
		eq = index(et[i], "=")
		if (eq)
			allowed[substr(et[i], 1, eq - 1)] = "|" substr(et[i], eq + 1) "|"
	}
}

{ sub(/\r$/, "") }

NR == 1 {
	if (NF == 0 || $0 == "")
		fail(1, "empty header line (expected comma-separated column names)")
	nh = NF
	hdr = $0
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (c in want)
		if (!(c in col))
			fail(1, "missing required column '" c "' (header: " hdr ")")
	next
}

$0 == "" { fail(NR, "empty line (expected " nh " fields)") }

{
	if (NF != nh)
		fail(NR, "expected " nh " fields as in the header, found " NF)
	for (c in col) {
		v = $(col[c])
		if (c in isuint && v !~ /^[0-9]+$/)
			fail(NR, "column '" c "' (field " col[c] "): expected a non-negative integer, found '" v "'")
		if (c in isuopt && v !~ /^[0-9]*$/)
			fail(NR, "column '" c "' (field " col[c] "): expected a non-negative integer or nothing, found '" v "'")
		if (c in issint && v !~ /^-?[0-9]+$/)
			fail(NR, "column '" c "' (field " col[c] "): expected an integer, found '" v "'")
		if (c in isreal && v !~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
			fail(NR, "column '" c "' (field " col[c] "): expected a number, found '" v "'")
		if (c in allowed && index(allowed[c], "|" v "|") == 0)
			fail(NR, "column '" c "' (field " col[c] "): expected one of " \
			     substr(allowed[c], 2, length(allowed[c]) - 2) ", found '" v "'")
	}
	rows++
}

END {
	if (bad)
		exit 1
	if (NR == 0) {
		printf "%s: empty file (expected a header line)\n", ARGV[1] > "/dev/stderr"
		exit 1
	}
}
