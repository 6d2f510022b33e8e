#!/bin/sh
# paper/gen/paper.sh: builds paper/paper.pdf (`make paper`): redraws the
# figures (plots/plots.sh), regenerates paper/generated/ from the results
# CSVs (paper/gen/paper-numbers.sh), then runs pdflatex, bibtex
# (paper/paper.bib) and pdflatex twice more.
set -eu
cd "$(dirname "$0")/../.."

command -v pdflatex >/dev/null 2>&1 || {
	echo "paper: pdflatex not found (install it with: sh scripts/deps.sh paper)" >&2
	exit 1
}
# `make paper` has just run `make plots`: redraw only if an input is newer
# than the figures (or there are none).
stamp=${PLOTS_OUT:-plots/out}/overhead.pdf
res=${RESULTS_DIR:-results}
if [ ! -f "$stamp" ] ||
	[ -n "$(find "$res" plots scripts/lib \
		-newer "$stamp" \( -name '*.csv' -o -name '*.meta' -o -name '*.gp' -o -name '*.sh' -o -name '*.awk' \) \
		! -path "${PLOTS_OUT:-plots/out}/*" 2>/dev/null | head -n 1)" ]; then
	sh plots/plots.sh
else
	echo "paper: figures in ${PLOTS_OUT:-plots/out}/ are up to date" >&2
fi
sh paper/gen/paper-numbers.sh

cd paper
# pdflatex, bibtex (paper.bib), then pdflatex twice for the citations and
# cross-references.
latex_pass() {
	if ! pdflatex -jobname=paper-build -interaction=nonstopmode -halt-on-error -file-line-error paper.tex >paper.build.log 2>&1; then
		echo "paper: pdflatex failed (pass $1); the first errors from paper/paper.build.log:" >&2
		grep -E '^[^ ]+:[0-9]+:|^!' paper.build.log | head -n 20 >&2
		exit 1
	fi
}
latex_pass 1
if ! bibtex paper-build >paper.bibtex.log 2>&1; then
	echo "paper: bibtex failed; from paper/paper.bibtex.log:" >&2
	grep -E 'error|Warning|^I' paper.bibtex.log | head -n 20 >&2
	exit 1
fi
if grep -q '^Warning--' paper.bibtex.log; then
	echo "paper: bibtex warnings (see paper/paper.bibtex.log):" >&2
	grep '^Warning--' paper.bibtex.log | head -n 10 >&2
fi
latex_pass 2
latex_pass 3
if grep -q 'LaTeX Warning: .*undefined' paper-build.log; then
	echo "paper: warning: undefined references (see paper/paper-build.log)" >&2
fi
pages=$(sed -n 's/.*Output written on paper-build.pdf (\([0-9]*\) page.*/\1/p' paper.build.log)
# pdflatex wrote paper-build.pdf (the job's name): checked complete and
# renamed over paper.pdf (scripts/lib/outputs.sh), so a failed or
# interrupted build, or a full disk, leaves the previous paper.pdf
cd ..
. scripts/lib/outputs.sh
out_complete paper/paper-build.pdf || { echo "paper: paper/paper-build.pdf is incomplete (a full disk?); paper/paper.pdf is unchanged" >&2; exit 1; }
out_install paper/paper-build.pdf paper/paper.pdf || { echo "paper: paper/paper.pdf is unchanged" >&2; exit 1; }
rm -f paper/paper-build.pdf
cd paper
echo "paper: wrote paper/paper.pdf (${pages:-?} pages)" >&2
