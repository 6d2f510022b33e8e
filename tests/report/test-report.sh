#!/bin/sh
# tests/report/test-report.sh BUILD: `make report` (plots/report/report.sh).
#
#  1. the summary script on a hand-made CSV, every number worked out by hand;
#     a CSV without the bench columns is refused, naming file and column;
#  2. the report of the committed reference (results/reference), alone and
#     against a copy with one row changed (A/B: the compare section);
#  3. the page is self-contained: no src/href but '#' fragments, no URL but
#     the SVG namespaces;
#  4. in a real browser (headless Chromium from file://): a script added to
#     a copy of the page records every resource that fails to load and, on
#     load, each figure's rendered size and its drawn extent (getBBox); the
#     DOM is dumped and every figure must be non-zero, no resource fetched
#     or failed.  Skipped, with a message, when Chromium cannot start.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { printf 'test-report: ok   %s\n' "$*"; }
fail() { printf 'test-report: FAIL %s\n' "$*"; fails=$((fails + 1)); }
expect_line() { # FILE LINE WHAT
	if grep -qxF -- "$2" "$1"; then pass "$3"; else fail "$3: no line '$2' in $1:"; cat "$1"; fi
}

# ------------------------------------------------- 1. summary by hand
cat > "$tmp/hand.csv" <<'CSV'
graph,family,planner,align,valid,peak_bytes,lower_bound_bytes
g1,fa,p,1,yes,200,100
g2,fb,p,1,yes,800,100
g1,fa,q,1,yes,100,100
g2,fb,q,1,no,50,100
g1,fa,q,16,yes,100,100
CSV
# p: ratios 2 and 8, geo-mean sqrt(2 * 8) = 4; none at the bound; worst 8 on g2.
# q: valid ratios 1 and 1 (g1 at align 1 and 16), geo-mean 1; both at the
#    bound, of 3 rows; g2 invalid; worst 1, the first seen (g1, align 1).
# Order by geo-mean: q, then p.  5 rows, 2 graphs, 2 families, aligns 1, 16.
awk -F, -f plots/report/summary.awk "$tmp/hand.csv" > "$tmp/hand.html" 2>&1 || fail "summary.awk exit $?"
expect_line "$tmp/hand.html" '<p class="corpus">5 rows: 2 graphs in 2 families, alignments 1, 16; 2 planners.</p>' "summary: corpus line"
expect_line "$tmp/hand.html" '<tr><td>q</td><td>1.0000</td><td>2 / 3</td><td class="bad">1</td><td>1.0000</td><td>g1</td><td>1</td></tr>' "summary: q (geo-mean 1, 2 of 3 at bound, 1 invalid)"
expect_line "$tmp/hand.html" '<tr><td>p</td><td>4.0000</td><td>0 / 2</td><td>0</td><td>8.0000</td><td>g2</td><td>1</td></tr>' "summary: p (geo-mean 4, worst 8 on g2)"
if [ "$(grep -n '<td>q</td>' "$tmp/hand.html" | cut -d: -f1)" -lt "$(grep -n '<td>p</td>' "$tmp/hand.html" | cut -d: -f1)" ]; then
	pass "summary: ordered by geo-mean"
else
	fail "summary: q (1.0) should come before p (4.0)"
fi
printf 'a,b\n1,2\n' > "$tmp/notbench.csv"
if awk -F, -f plots/report/summary.awk "$tmp/notbench.csv" > /dev/null 2> "$tmp/notbench.err"; then
	fail "summary: a CSV without the bench columns was accepted"
else
	expect_line "$tmp/notbench.err" "$tmp/notbench.csv:1: no column graph (expected a bench CSV)" "summary: refuses a non-bench CSV naming file and column"
fi

# -------------------------------------- 2. the reports of the reference
mkdir -p "$tmp/res"
ln -s "$(pwd)/results/reference" "$tmp/res/reference"
ref=results/reference/results.csv
if ! RESULTS_DIR=$tmp/res REPORT_OUT=$tmp/solo BUILD=$build sh plots/report/report.sh 2> "$tmp/solo.err"; then
	fail "make report on the reference"; cat "$tmp/solo.err"
elif grep -q 'committed reference (no local run' "$tmp/solo/index.html"; then
	pass "report of the committed reference when there is no local run"
else
	fail "the report does not say it drew the committed reference"
fi
# B: the reference with one size_first_fit peak made 64 bytes larger.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	!done && $c["planner"] == "size_first_fit" { $c["peak_bytes"] += 64; done = 1 } { print }' "$ref" > "$tmp/b.csv"
cp results/reference/results.meta "$tmp/b.meta"
page=$tmp/ab/index.html
if ! RESULTS_DIR=$tmp/res REPORT_OUT=$tmp/ab BUILD=$build sh plots/report/report.sh "$ref" "$tmp/b.csv" 2> "$tmp/ab.err"; then
	fail "make report A=reference B=changed copy"; cat "$tmp/ab.err"
	echo "test-report: $fails failed"; exit 1
fi
pass "make report A B wrote $page ($(wc -c < "$page") bytes)"
rev=$(sed -n 's/^git_revision=//p' results/reference/results.meta)
grep -q "<code>$rev</code>" "$page" && pass "provenance: the .meta's revision $rev" || fail "provenance: no revision $rev"
grep -q '<th>machine</th><td>' "$page" && pass "provenance: the machine" || fail "provenance: no machine row"
grep -q '<h2 id="compare">Comparison' "$page" && grep -q '<pre class="compare">' "$page" &&
	pass "the compare section is there" || fail "no compare section"
grep -q 'id="fig-compare"' "$page" && pass "the compare figure is there" || fail "no compare figure"
grep -q '<table class="summary">' "$page" && pass "the summary table is there" || fail "no summary table"
nfig=$(grep -c '<figure class="plot"' "$page")
[ "$nfig" -ge 10 ] && pass "$nfig figures inlined" || fail "only $nfig figures"

# ------------------------------------------------ 3. self-contained
if grep -noE '(src|href)="[^#][^"]*"|url\([^#)][^)]*\)|<link|@import' "$page" > "$tmp/refs.txt"; then
	fail "references outside the page:"; head -5 "$tmp/refs.txt"
else
	pass "no src, href or url() outside the page"
fi
if grep -o 'https\?://[^" ]*' "$page" | grep -v '^http://www.w3.org/\(2000/svg\|1999/xlink\)$' > "$tmp/urls.txt"; then
	fail "URLs in the page:"; head -5 "$tmp/urls.txt"
else
	pass "no URL but the SVG namespaces"
fi

# ---------------------------------------------------- 4. in a browser
# probe PAGE OUT: a copy of PAGE with the probe (first in <head>, to see
# every failed load; then on load) opened by Chromium; the probe's lines
# into OUT, Chromium's exit code into probe_rc.
probe() {
	awk '
		/<head>/ && !h { print; print "<script>window.__failed=[];window.addEventListener(\"error\",function(e){var t=e.target;window.__failed.push(t&&t.tagName?t.tagName+\" \"+(t.src||t.href||\"\"):\"script: \"+e.message)},true);</script>"; h = 1; next }
		/<\/body>/ { print "<pre id=\"probe\">no result: the probe did not run</pre><script>window.addEventListener(\"load\",function(){var r=[];document.querySelectorAll(\"figure.plot\").forEach(function(f){var s=f.querySelector(\"svg\");if(!s){r.push(\"figure \"+f.dataset.name+\" nosvg\");return}var b=s.getBoundingClientRect(),x=s.getBBox();r.push(\"figure \"+f.dataset.name+\" \"+Math.round(b.width)+\" \"+Math.round(b.height)+\" \"+Math.round(x.width)+\" \"+Math.round(x.height)+\" \"+s.querySelectorAll(\"path,text,rect,polygon,polyline,line,use,circle\").length)});r.push(\"resources \"+performance.getEntriesByType(\"resource\").length);window.__failed.forEach(function(m){r.push(\"failed \"+m)});r.push(\"probe done\");document.getElementById(\"probe\").textContent=r.join(\"\\n\")});</script>" }
		{ print }' "$1" > "$1.probe.html"
	profile=$(mktemp -d "${TMPDIR:-/tmp}/test-report-chromium.XXXXXX")
	timeout 180 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --virtual-time-budget=10000 --dump-dom \
		"file://$1.probe.html" > "$2.dom" 2> "$tmp/chromium.err"
	probe_rc=$?
	rm -rf "$profile"
	sed -n '/<pre id="probe">/,/<\/pre>/p' "$2.dom" | sed -e 's/<pre id="probe">//' -e 's|</pre>.*||' > "$2"
}
# The figures a probe found without a size or drawn content.
unrendered() {
	awk '$1 == "figure" && !($3 > 0 && $4 > 0 && $5 > 0 && $6 > 0 && $7 > 0)' "$1"
}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "test-report: SKIP the browser check: chromium is not installed (sh scripts/deps.sh report-test)"
else
	probe "$page" "$tmp/probe.txt"
	if [ "$probe_rc" -ne 0 ] && ! grep -q '^probe done' "$tmp/probe.txt"; then
		echo "test-report: SKIP the browser check: chromium could not start (exit $probe_rc):"
		tail -3 "$tmp/chromium.err"
	elif ! grep -q '^probe done' "$tmp/probe.txt"; then
		fail "the probe did not report (DOM dumped before load?):"; head -3 "$tmp/probe.txt"
	else
		seen=$(grep -c '^figure ' "$tmp/probe.txt")
		[ "$seen" -eq "$nfig" ] && pass "browser: $seen figures found in the DOM" || fail "browser: $seen figures in the DOM, $nfig in the page"
		bad=$(unrendered "$tmp/probe.txt")
		[ -z "$bad" ] && pass "browser: every figure rendered with a non-zero size and drawn content" || fail "browser: figures without a size: $bad"
		expect_line "$tmp/probe.txt" "resources 0" "browser: no resource fetched (the page is self-contained)"
		if grep -q '^failed ' "$tmp/probe.txt"; then fail "browser: $(grep '^failed ' "$tmp/probe.txt")"; else pass "browser: no resource failed to load"; fi
		awk '$1 == "figure" { printf "test-report:      %s %sx%s px\n", $2, $3, $4 }' "$tmp/probe.txt" | head -3
		# The probe can fail: a page with a missing image and an empty figure.
		cat > "$tmp/bad.html" <<'HTML'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"><title>bad</title>
</head>
<body>
<img src="missing.png" alt="">
<figure class="plot" data-name="empty"><svg width="0" height="0"></svg></figure>
<figure class="plot" data-name="drawn"><svg width="100" height="50"><rect width="40" height="20"/></svg></figure>
</body>
</html>
HTML
		probe "$tmp/bad.html" "$tmp/bad.txt"
		if grep -q '^failed IMG file://.*/missing.png$' "$tmp/bad.txt" && [ "$(unrendered "$tmp/bad.txt" | awk '{ print $2 }')" = empty ]; then
			pass "browser: the probe reports a missing image and an empty figure (and only those)"
		else
			fail "browser: the probe missed a failure on a bad page:"; cat "$tmp/bad.txt"
		fi
	fi
fi

if [ "$fails" -ne 0 ]; then
	echo "test-report: $fails failed"
	exit 1
fi
echo "test-report: all passed"
