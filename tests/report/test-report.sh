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
# One of everything: singular words.
printf 'graph,family,planner,align,valid,peak_bytes,lower_bound_bytes\ng1,fa,p,64,yes,100,100\n' > "$tmp/one.csv"
awk -F, -f plots/report/summary.awk "$tmp/one.csv" > "$tmp/one.html" 2>&1 || fail "summary.awk exit $?"
expect_line "$tmp/one.html" '<p class="corpus">1 row: 1 graph in 1 family, alignment 64; 1 planner.</p>' "summary: singular forms (1 family, not 1 families)"
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
grep -q '<figcaption>Figure [0-9]*\. Where the bytes go per planner: lower bound, fragmentation and padding\. Drawn by <code>plots/bytes.gp</code>\.</figcaption>' "$page" &&
	pass "captions name the script, not a bare '(bytes)' under an axis in MiB" || fail "the bytes figure's caption: $(grep -o '<figcaption>[^<]*bytes[^/]*' "$page" | head -2)"
# The command row as the .meta has it, escaped and nothing else.
cmdline=$(sed -n 's/^command=//p' results/reference/results.meta | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')
grep -qF "<tr><th>command</th><td>$cmdline</td></tr>" "$page" && pass "provenance: the command row as recorded" || fail "provenance: the command row is not '$cmdline'"
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
# overflow PAGE WIDTH OUT: PAGE in a frame WIDTH px wide (a headless window
# is 500 px at the least: a phone's width needs the frame); OUT gets
# "viewport W scroll S" (the page's scrollWidth: above W, the reader
# scrolls sideways) and each element sticking out of the frame but inside
# a box that scrolls on its own (div.scroll, pre, svg); with
# REPORT_SHOTS=DIR a screenshot DIR/report-WIDTH.png of the frame too.
overflow() {
	dir=$(dirname "$1")
	cat > "$dir/frame$2.html" <<HTML
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>frame</title><style>body { margin: 0; }</style></head>
<body><iframe id="f" src="$(basename "$1")" style="width: $2px; height: 2400px; border: 0"></iframe>
<pre id="probe">no result</pre>
<script>window.addEventListener("load", function () {
	var f = document.getElementById("f").contentWindow, d = f.document, w = f.innerWidth;
	var r = ["viewport " + w + " scroll " + d.documentElement.scrollWidth];
	d.querySelectorAll("body *").forEach(function (e) {
		if (e.closest("div.scroll,pre,svg") && !e.matches("div.scroll,pre,svg")) return;
		var b = e.getBoundingClientRect();
		if (b.right > w + 1 && r.length < 6)
			r.push("sticks out " + e.tagName.toLowerCase() + (typeof e.className == "string" && e.className ? "." + e.className : "") + " to " + Math.round(b.right));
	});
	document.getElementById("probe").textContent = r.join("\n");
});</script></body></html>
HTML
	profile=$(mktemp -d "${TMPDIR:-/tmp}/test-report-chromium.XXXXXX")
	flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
		--disable-component-update --disable-sync --hide-scrollbars --allow-file-access-from-files --user-data-dir=$profile"
	# shellcheck disable=SC2086
	timeout 180 "$chrome" $flags --window-size="$(($2 < 400 ? 500 : $2 + 100)),900" --virtual-time-budget=10000 --dump-dom \
		"file://$dir/frame$2.html" > "$3.dom" 2> "$tmp/chromium.err"
	if [ -n "${REPORT_SHOTS:-}" ]; then
		mkdir -p "$REPORT_SHOTS"
		# shellcheck disable=SC2086
		timeout 180 "$chrome" $flags --window-size="$(($2 < 400 ? 500 : $2)),2400" --virtual-time-budget=10000 \
			--screenshot="$REPORT_SHOTS/report-$2.png" "file://$dir/frame$2.html" > /dev/null 2>&1
	fi
	rm -rf "$profile"
	awk '/<pre id="probe">/ { on = 1; sub(/.*<pre id="probe">/, "") } on { if (sub(/<\/pre>.*/, "")) { print; exit } print }' "$3.dom" > "$3"
}
# fits OUT WIDTH WHAT: the page is no wider than the window.
fits() {
	if awk -v w="$2" '$1 == "viewport" { ok = ($2 == w && $4 <= w) } END { exit !ok }' "$1"; then
		pass "browser: $3 at $2 px: no sideways scrolling ($(head -n 1 "$1"))"
	else
		fail "browser: $3 at $2 px runs off the right edge: $(tr '\n' ';' < "$1")"
	fi
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
		# Two widths: a laptop and a phone.
		for w in 1280 390; do
			overflow "$page" "$w" "$tmp/over$w.txt"
			fits "$tmp/over$w.txt" "$w" "the report"
		done
		# The check can fail: a table too wide for a phone.
		cat > "$tmp/wide.html" <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>wide</title></head>
<body><table><tr><td>a_cell_far_too_long_to_wrap_on_a_phone_of_390_pixels_wide_so_the_page_scrolls_sideways</td></tr></table></body></html>
HTML
		REPORT_SHOTS= overflow "$tmp/wide.html" 390 "$tmp/wide.txt"
		if awk '$1 == "viewport" { exit !($4 > 390) }' "$tmp/wide.txt" && grep -q '^sticks out table' "$tmp/wide.txt"; then
			pass "browser: the overflow probe reports a table too wide for a phone"
		else
			fail "browser: the overflow probe missed a table too wide for 390 px: $(tr '\n' ';' < "$tmp/wide.txt")"
		fi
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
