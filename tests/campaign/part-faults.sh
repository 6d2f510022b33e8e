# Faults around a campaign's output (issue 28; docs/io.md): the output
# rules (a symlink followed and kept, a FIFO, a device and a folder
# refused, an input by another spelling and a .meta that is an input
# refused), two spellings of one OUT at once (one runs, one is refused
# naming the first), and a full disk during the merge, `make plots` and
# `make report` (root: a small tmpfs), which must each exit non-zero and
# leave the previous results byte for byte.
F=$W/faults
mkdir -p "$F/real"
camp() { sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 "$@"; }
# shellcheck disable=SC2086
camp --out "$F/real/x.csv" $CORPUS -- --align 1,16,64 $FLAGS 2> /dev/null # shards for the cases below

# a symlink: its target is written, the link stays a link
ln -sf real/x.csv "$F/link.csv"
rm -f "$F/real/x.csv"
# shellcheck disable=SC2086
if camp --out "$F/link.csv" $CORPUS -- --align 1,16,64 $FLAGS 2> "$F/link.log" && [ -L "$F/link.csv" ]; then
	same "$F/real/x.csv" "$W/serial.csv" "a symlinked OUT: its target is the serial CSV, the link stays a link"
else
	bad "a symlinked OUT: $(tail -n 2 "$F/link.log"); $(ls -l "$F/link.csv")"
fi
# refused at once, the path as it was: rule WHAT OUT MESSAGE CHECK
rule() {
	t=$(now_ms)
	# shellcheck disable=SC2086
	if camp --out "$2" $CORPUS -- --align 1,16,64 $FLAGS 2> "$F/rule.log"; then
		bad "$1: the campaign ran"
	elif ms=$(($(now_ms) - t)) && grep -q -- "$3" "$F/rule.log" && eval "$4"; then
		ok "$1: refused in $ms ms, naming it; the path is as it was"
	else
		bad "$1: $(cat "$F/rule.log")"
	fi
}
mkfifo "$F/fifo.csv"
rule "a FIFO OUT" "$F/fifo.csv" "--out $F/fifo.csv: is a FIFO" '[ -p "$F/fifo.csv" ]'
mkfifo "$F/p.meta"
rule "a FIFO .meta" "$F/p.csv" "--out's .meta $F/p.meta: is a FIFO" '[ -p "$F/p.meta" ] && [ ! -e "$F/p.csv" ]'
rule "a device OUT" /dev/full "--out /dev/full: is a device" '[ -c /dev/full ]'
mkdir -p "$F/dir.csv"
rule "a folder OUT" "$F/dir.csv" "--out $F/dir.csv: is a directory" '[ -d "$F/dir.csv" ]'
cp "$W/corpus/aa_second/residual_block.graph" "$F/input.keep"
rule "an input by another spelling" "$TREE/$W/corpus/zz_first/../aa_second/residual_block.graph" \
	"is the input $W/corpus/aa_second/residual_block.graph" 'cmp -s "$F/input.keep" "$W/corpus/aa_second/residual_block.graph"'
ln -sf "$TREE/$W/corpus/aa_second/residual_block.graph" "$F/m.meta"
rule "a .meta that is an input" "$F/m.csv" "--out's .meta $F/m.meta is the input" \
	'[ -L "$F/m.meta" ] && cmp -s "$F/input.keep" "$W/corpus/aa_second/residual_block.graph" && [ ! -e "$F/m.csv" ]'

# two spellings of one OUT started together: one runs, one is refused by name
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$F/same.csv" "$W/timed" -- --align 1,16,64 $TFLAGS 2> "$F/same-a.log" &
pa=$!
wait_for 30 grep -q 'shards:' "$F/same-a.log"
# shellcheck disable=SC2086
if camp --out "$TREE/$F/real/../same.csv" "$W/timed" -- --align 1,16,64 $TFLAGS 2> "$F/same-b.log"; then
	bad "two spellings of one OUT: the second ran too"
else
	grep -q "is in use by pid=$pa host=$(uname -n) " "$F/same-b.log" &&
		ok "two spellings of one OUT: the second is refused, naming pid $pa" ||
		bad "two spellings of one OUT: the refusal: $(cat "$F/same-b.log")"
fi
wait "$pa" || bad "two spellings of one OUT: the first failed: $(tail -n 2 "$F/same-a.log")"
same_untimed "$F/same.csv" "$W/timed-serial.csv" "two spellings of one OUT: the first's CSV is the serial bench"
[ ! -e "$F/.same.csv.lock" ] && ok "the lock is gone once the run ends" || bad "left: $F/.same.csv.lock"

# the output rules against make plots and make report (scripts/lib/outputs.sh)
R=$F/rep
mkdir -p "$R/fifo" "$R/input" "$R/link" "$R/real"
mkfifo "$R/fifo/index.html"
t=$(now_ms)
if env -u MAKEFLAGS make -s report REPORT_OUT="$R/fifo" > "$R/fifo.log" 2>&1; then
	bad "make report into a FIFO index.html exited 0"
else
	[ -p "$R/fifo/index.html" ] && grep -q 'index.html: is a FIFO' "$R/fifo.log" &&
		ok "make report: a FIFO index.html is refused in $(($(now_ms) - t)) ms, kept a FIFO" ||
		bad "make report into a FIFO: $(tail -n 2 "$R/fifo.log")"
fi
cp "$W/serial.csv" "$R/input/b.csv"
ln -s ../input/b.csv "$R/input/index.html"
if env -u MAKEFLAGS make -s report A="$W/serial.csv" B="$TREE/$R/input/b.csv" REPORT_OUT="$R/input" > "$R/input.log" 2>&1; then
	bad "make report over its input B exited 0"
else
	cmp -s "$R/input/b.csv" "$W/serial.csv" && grep -q 'is the input' "$R/input.log" &&
		ok "make report: an index.html that is the input B (a symlink) is refused, B unchanged" ||
		bad "make report over its input: $(tail -n 2 "$R/input.log")"
fi
echo "a file" > "$R/figs"
if env -u MAKEFLAGS make -s plots PLOTS_OUT="$R/figs" FORMATS=svg > "$R/figs.log" 2>&1; then
	bad "make plots into a file exited 0"
else
	[ "$(cat "$R/figs")" = "a file" ] && grep -q 'is not a directory' "$R/figs.log" &&
		ok "make plots: a PLOTS_OUT that is a file is refused, kept" || bad "make plots into a file: $(tail -n 2 "$R/figs.log")"
fi
ln -s ../real/page.html "$R/link/index.html"
if env -u MAKEFLAGS make -s report REPORT_OUT="$R/link" > "$R/link.log" 2>&1 && [ -L "$R/link/index.html" ] &&
	grep -q '</html>' "$R/real/page.html"; then
	ok "make report: a symlinked index.html writes its target and stays a link"
else
	bad "make report through a symlink: $(tail -n 2 "$R/link.log"); $(ls -l "$R/link")"
fi

# a full disk during the merge, then during make plots and make report
D=$F/full
if [ "$(id -u)" != 0 ]; then
	skip "full disk: needs root to mount a tmpfs"
elif ! full_disk "$D" 3; then
	skip "full disk: cannot mount a tmpfs here"
else
	p=$(pages "$W/serial.csv")
	# 3 pages free: the CSV cannot be written; p + 1: the CSV (and the
	# lock) fit, the .meta does not
	for free in 3 $((p + 1)); do
		full_disk "$D" "$free"
		# shellcheck disable=SC2086
		if camp --out "$D/results.csv" $CORPUS -- --align 1,16,64 $FLAGS 2> "$F/full.log"; then
			bad "local merge on a full disk ($free pages free) exited 0: $(tail -n 2 "$F/full.log")"
		else
			full_disk_kept "$D" "$F/full.log" "local merge on a full disk ($free pages free)"
		fi
	done
	# the figures: make plots into a full folder keeps the previous ones
	full_disk "$D" 1
	mkdir -p "$D/figs"
	echo "old figure" > "$D/figs/overhead.svg"
	dd if=/dev/zero of="$D/fill2" bs=4096 count=1 2>/dev/null || true
	if env -u MAKEFLAGS make -s plots PLOTS_OUT="$D/figs" FORMATS=svg > "$F/plots.log" 2>&1; then
		bad "make plots on a full disk exited 0"
	else
		[ "$(ls -A "$D/figs")" = overhead.svg ] && [ "$(cat "$D/figs/overhead.svg")" = "old figure" ] &&
			ok "make plots on a full disk: exit non-zero, the previous figures byte-identical" ||
			bad "make plots on a full disk: $(ls -A "$D/figs" | head -n 3)"
		grep -q 'previous figures.*kept' "$F/plots.log" && ok "make plots on a full disk: says the figures are kept" ||
			bad "make plots on a full disk: $(tail -n 2 "$F/plots.log")"
	fi
	rm -rf "$D/figs" "$D/fill2"
	full_disk "$D" 1
	mkdir -p "$D/report"
	echo "old page" > "$D/report/index.html"
	dd if=/dev/zero of="$D/fill2" bs=4096 count=1 2>/dev/null || true
	if env -u MAKEFLAGS make -s report REPORT_OUT="$D/report" > "$F/report.log" 2>&1; then
		bad "make report on a full disk exited 0"
	else
		[ "$(ls -A "$D/report")" = index.html ] && [ "$(cat "$D/report/index.html")" = "old page" ] &&
			ok "make report on a full disk: exit non-zero, the previous page byte-identical" ||
			bad "make report on a full disk: $(ls -A "$D/report" | head -n 3)"
		grep -q 'index.html is unchanged' "$F/report.log" && ok "make report on a full disk: says the page is kept" ||
			bad "make report on a full disk: $(tail -n 2 "$F/report.log")"
	fi
	full_disk_end "$D"
fi
