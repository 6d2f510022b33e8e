#!/bin/sh
# make test: plots and paper numbers describe a user's own corpus and
# nothing else (issue 16).  Builds a corpus unlike ours in a temp dir (two
# folders of real models from ../shared/models, symlinked), runs
# `arenabench bench`, plots/plots.sh and paper/gen/paper-numbers.sh on it,
# and checks the generated text and figure data: counts computed here from
# the files, families from the folders, no graph of our zoo or starter set,
# no chain_24k, no section from a CSV this run does not have, and every
# caption naming the local CSV.
#   sh tests/report/test-own-corpus.sh [BUILD]
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
bin=$build/arenabench
shared=${SHARED_DIR:-../shared}
say() { printf 'own-corpus: %s\n' "$*" >&2; }
if [ ! -d "$shared/models/mediapipe" ] || [ ! -d "$shared/models/tflm" ]; then
	say "SKIP: $shared/models/{mediapipe,tflm} absent (the shared data is not next to this tree)"
	exit 0
fi
command -v gnuplot >/dev/null 2>&1 || { say "FAIL: gnuplot missing (sh scripts/deps.sh plots)"; exit 1; }
[ -x "$bin" ] || { say "FAIL: no $bin (make)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/own-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/corpus/faces" "$tmp/corpus/micro" "$tmp/res"
for m in face_detection_short_range hand_recrop iris_landmark; do
	ln -s "$(cd "$shared/models/mediapipe" && pwd)/$m.tflite" "$tmp/corpus/faces/$m.tflite"
done
for m in hello_world_float magic_wand micro_speech_quantized person_detect; do
	ln -s "$(cd "$shared/models/tflm" && pwd)/$m.tflite" "$tmp/corpus/micro/$m.tflite"
done
# Expected, from the files themselves: 3 + 4 graphs in 2 families.
n_graphs=$(ls "$tmp"/corpus/*/*.tflite | wc -l | tr -d ' ')
n_fam=$(ls -d "$tmp"/corpus/*/ | wc -l | tr -d ' ')

"$bin" bench "$tmp/corpus/faces" "$tmp/corpus/micro" --no-timing --out "$tmp/res/results.csv" 2>"$tmp/bench.log" ||
	{ say "FAIL: bench"; cat "$tmp/bench.log" >&2; exit 1; }
ARENABENCH=$bin RESULTS_DIR=$tmp/res PLOTS_OUT=$tmp/plots FORMATS="svg pdf" sh plots/plots.sh 2>"$tmp/plots.log" ||
	{ say "FAIL: plots"; cat "$tmp/plots.log" >&2; exit 1; }
RESULTS_DIR=$tmp/res PLOTS_OUT=$tmp/plots PAPER_GENERATED=$tmp/gen sh paper/gen/paper-numbers.sh 2>"$tmp/paper.log" ||
	{ say "FAIL: paper numbers"; cat "$tmp/paper.log" >&2; exit 1; }

fail=0
bad() { say "FAIL: $*"; fail=1; }
macro() { sed -n "s/^\\\\newcommand{\\\\$1}{\\(.*\\)}\$/\\1/p" "$tmp/gen/$2"; }

# Counts and families.
[ "$(macro NumGraphs numbers.tex)" = "$n_graphs" ] || bad "NumGraphs is '$(macro NumGraphs numbers.tex)', the corpus has $n_graphs files"
[ "$(macro NumFamilies numbers.tex)" = "$n_fam" ] || bad "NumFamilies is '$(macro NumFamilies numbers.tex)', the corpus has $n_fam folders"
[ "$(macro CorpusSize numbers.tex)" = "$n_graphs graphs in $n_fam families" ] || bad "CorpusSize is '$(macro CorpusSize numbers.tex)'"
fams=$(awk -F, 'NR > 1 { print $1 }' "$tmp/plots/data/families.csv" | sort | tr '\n' ' ')
[ "$fams" = "faces micro " ] || bad "the heat map's families are '$fams', not the two folders 'faces micro'"
grep -q 'These results hold 7 graphs in 2 families' "$tmp/gen/corpus.tex" || bad "corpus.tex: $(cat "$tmp/gen/corpus.tex")"
grep -q 'texttt{faces} (3 .tflite models' "$tmp/gen/corpus.tex" || bad "corpus.tex does not describe folder faces as 3 models"
grep -q 'texttt{micro} (4 .tflite models' "$tmp/gen/corpus.tex" || bad "corpus.tex does not describe folder micro as 4 models"

# Nothing of our corpus: the zoo's and starter graphs' names, our families, chain_24k.
ls graphs/zoo graphs/starter | sed -n 's/\.graph$//p' | sed 's/_/\\\\_/g' > "$tmp/ours.tex"
ls graphs/zoo graphs/starter | sed -n 's/\.graph$//p' > "$tmp/ours.txt"
for w in zoo starter synthetic chain_24k minimalloc; do echo "$w" >> "$tmp/ours.txt"; echo "$w" | sed 's/_/\\\\_/g' >> "$tmp/ours.tex"; done
# (planners.tex is the planners' header comments: it names the algorithms'
# sources, such as minimalloc, not the corpus.)
if grep -rlwF -f "$tmp/ours.tex" --exclude=planners.tex "$tmp/gen" > "$tmp/hits" 2>/dev/null; then
	bad "the paper's generated text names our corpus: $(grep -rhowF -f "$tmp/ours.tex" --exclude=planners.tex "$tmp/gen" | sort -u | tr '\n' ' ') in $(tr '\n' ' ' < "$tmp/hits")"
fi
if grep -rlwF -f "$tmp/ours.txt" "$tmp/plots/data" > "$tmp/hits" 2>/dev/null; then
	bad "figure data names our corpus: $(grep -rhowF -f "$tmp/ours.txt" "$tmp/plots/data" | sort -u | tr '\n' ' ') in $(tr '\n' ' ' < "$tmp/hits")"
fi
grep -q 'no worked example' "$tmp/gen/example.tex" || bad "example.tex has a worked example for a graph not in the results"

# Layout figures: a graph of the results, the one where planners differ most.
lg=$(sed -n 's/^layout_graph = "\(.*\)"$/\1/p' "$tmp/plots/data/layout.gp")
[ -e "$tmp/corpus/faces/$lg.tflite" ] || [ -e "$tmp/corpus/micro/$lg.tflite" ] || bad "layout graph '$lg' is not a file of the corpus"
want=$(awk -F, '$1 == "spread" { print $2; exit }' "$tmp/plots/data/layout_candidates.csv")
[ "$lg" = "$want" ] || bad "layout graph '$lg' is not the first candidate '$want'"
ls "$tmp"/plots/layout_*.svg >/dev/null 2>&1 || bad "no layout figure drawn"

# The checks a reader makes, on every figure of this corpus.
ARENABENCH=$bin sh plots/figure-check.sh "$tmp/plots" "$tmp/res/results.csv" 2>"$tmp/figure-check.log" ||
	bad "figure-check: $(cat "$tmp/figure-check.log")"

# Optional CSVs this run does not have: their sections are left out.
for t in tab-scaling.tex tab-baselines.tex tab-transforms.tex tab-hard.tex; do
	[ ! -f "$tmp/gen/$t" ] || bad "$t was written although this run has no CSV for it"
done
grep -q 'no scaling run' "$tmp/gen/scaling.tex" || bad "scaling.tex does not say there is no scaling run"
for f in scaling hyperfine hard-ratio; do
	[ ! -f "$tmp/plots/$f.svg" ] || bad "figure $f drawn without its CSV"
done

# Provenance: the captions and the sources table name the local CSV only.
grep -q "local run: $tmp/res/results.csv, rev " "$tmp/plots/data/meta.gp" || bad "caption: $(cat "$tmp/plots/data/meta.gp")"
[ "$(grep -c 'local run' "$tmp/gen/sources.tex")" -ge 1 ] || bad "sources.tex does not say local run"
! grep -q 'reference' "$tmp/gen/sources.tex" || bad "sources.tex names a committed reference CSV: $(cat "$tmp/gen/sources.tex")"

# The paper itself, built on this corpus in a copy of paper/ beside these
# figures (one pdflatex pass: citations may stay open): no box for a figure
# not drawn, no caption without a figure, no note of a section left out; one
# "Figure N:" caption per figure drawn (the layouts' own file counts its).
if command -v pdflatex >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1; then
	mkdir -p "$tmp/tree/paper" "$tmp/tree/plots"
	cp paper/paper.tex paper/paper.bib "$tmp/tree/paper/"
	cp -r "$tmp/gen" "$tmp/tree/paper/generated"
	ln -s "$tmp/plots" "$tmp/tree/plots/out"
	(cd "$tmp/tree/paper" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex > latex.log 2>&1) ||
		bad "pdflatex failed on this corpus: $(grep -m 3 '^!' "$tmp/tree/paper/latex.log")"
	pdftotext "$tmp/tree/paper/paper.pdf" "$tmp/paper.txt" 2>/dev/null || : > "$tmp/paper.txt"
	for w in 'not drawn' 'was found' 'omitted' 'make hard' 'make transforms' 'make baselines'; do
		! grep -qi "$w" "$tmp/paper.txt" || bad "the paper on this corpus says '$w': $(grep -i -m 1 "$w" "$tmp/paper.txt")"
	done
	drawn=0
	for f in overhead cdf bytes sweep scaling hyperfine hard-ratio hard-profile; do
		[ ! -f "$tmp/plots/$f.pdf" ] || drawn=$((drawn + 1))
	done
	[ ! -f "$tmp/gen/fig-layout.tex" ] || drawn=$((drawn + $(grep -c '\\caption' "$tmp/gen/fig-layout.tex")))
	captions=$(grep -c '^Figure [0-9]*: ' "$tmp/paper.txt" || true)
	[ "$captions" = "$drawn" ] || bad "the paper on this corpus has $captions figure captions for $drawn figures drawn"
else
	say "the paper's PDF not checked: pdflatex or pdftotext missing (sh scripts/deps.sh paper)"
fi

[ "$fail" = 0 ] || { say "generated files kept in $tmp.keep"; cp -r "$tmp" "$tmp.keep"; exit 1; }
say "ok: $n_graphs graphs in $n_fam families; only they appear in the paper's text and the figures' data"
