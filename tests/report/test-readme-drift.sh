#!/bin/sh
# make test: README's and docs/explain.md's generated blocks match what
# scripts/dev/readme-results.sh writes from the committed reference CSVs and
# the built binary, and the check can fail: on scratch copies, one number
# of the results block, one multiple of the sort in the scaling block, one
# of the faithful table and one row of the explain excerpt are edited, and
# each copy must be refused (exit 1).
set -eu
cd "$(dirname "$0")/../.."
gen=scripts/dev/readme-results.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-drift.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
say() { printf 'readme-drift: %s\n' "$*" >&2; }

# 1. The committed files are up to date.
for f in README.md docs/explain.md; do
	if ! sh "$gen" --check "$f"; then
		say "FAIL: $f is stale (sh $gen --write $f)"
		fail=1
	fi
done

# 2. Mutations in scratch copies must be caught.
# mutate NAME FILE SED-EXPR: the copy differs from FILE, and --check refuses it.
mutate() {
	cp "$2" "$tmp/$1.md"
	sed -i "$3" "$tmp/$1.md"
	if cmp -s "$2" "$tmp/$1.md"; then
		say "FAIL: mutation '$1' changed nothing (its pattern no longer matches $2)"
		fail=1
		return
	fi
	if sh "$gen" --check "$tmp/$1.md" 2>"$tmp/$1.log"; then
		say "FAIL: mutation '$1' ($3) was not detected"
		fail=1
	elif ! grep -q 'differs from what the reference CSVs give' "$tmp/$1.log"; then
		say "FAIL: mutation '$1': the check failed without saying why:"
		cat "$tmp/$1.log" >&2
		fail=1
	else
		say "ok: mutation '$1' detected"
	fi
}
# A median in the findings (the size-order claim), one digit changed.
mutate results README.md '/generated:results begin/,/generated:results end/ s/saves a median of \([0-9]\)\.\([0-9]\)%/saves a median of 9.\2%/'
# A multiple of the sort in the scaling block (each line's first).
mutate scaling README.md '/generated:scaling begin/,/generated:scaling end/ s/= \([0-9.]*\) sorts/= 9\1 sorts/'
# The faithful table's first at-bound count.
mutate faithful README.md '/generated:faithful begin/,/generated:faithful end/ s/| \([0-9]*\)\/11 |/| 7\/11 |/'
# The explain excerpt's lower bound (needs the model and the binary).
model=${EXPLAIN_MODEL:-../shared/models/tflm/person_detect.tflite}
if [ -f "$model" ] && [ -x "${ARENABENCH:-build/arenabench}" ]; then
	mutate explain README.md '/generated:explain begin/,/generated:explain end/ s/64,512/64,513/'
	mutate explain-doc docs/explain.md '/generated:explain-full begin/,/generated:explain-full end/ s/64,512/64,513/'
else
	say "SKIP the explain excerpts: no $model or no built binary"
fi

[ "$fail" = 0 ] || exit 1
say "README.md and docs/explain.md match their generator; the mutations were detected"
