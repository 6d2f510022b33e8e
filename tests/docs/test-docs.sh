#!/bin/sh
# Docs are tests: every ```sh block of README.md and docs/*.md runs, in
# order, in one scratch copy of the tree (tracked files and the build,
# ../shared linked beside it when present), with `sh -eu`; a block that
# fails fails the test, naming FILE:LINE.  A ```c block preceded by
#     <!-- docs-test: file PATH -->
# is written to PATH in the scratch copy first (README's "Adding a
# strategy" planner is compiled, listed, benched and plotted that way).
# The comment line just above a block may also say
#     <!-- docs-test: shared -->            needs ../shared (a named skip without it)
#     <!-- docs-test: long -->              runs in the long tier only (make test-long)
#     <!-- docs-test: setup COMMAND -->     COMMAND runs first (a placeholder's file)
#     <!-- docs-test: not-run REASON -->    never run, and REASON says why
# and several may stand on one line, separated by ';'.  Generated blocks
# (<!-- generated:... -->) are compared with their generator by
# tests/report/test-readme-drift.sh instead.
#
# Usage: tests/docs/test-docs.sh [BUILD] [TIER]   (TIER fast or long)
# Closing line: "docs: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.."
repo=$(pwd)
build=${1:-build}
tier=${2:-${AB_TEST_TIER:-fast}}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-docs.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
tree=$scratch/c
mkdir "$tree"
pass=0 fail=0 skip=0

# The tracked files as they are now (uncommitted edits included), with
# their times, and the build, so the scratch make only builds what a block
# adds.
git ls-files -z --cached --others --exclude-standard | xargs -0 cp -p --parents -t "$tree" 2>/dev/null
if [ -d "$build" ]; then
	mkdir -p "$tree/build"
	cp -a "$build/." "$tree/build/"
fi
[ -d ../shared ] && ln -s "$(cd ../shared && pwd)" "$scratch/shared"

# blocks FILE: one record per runnable block: LINE<TAB>LANG<TAB>MARKER,
# the block's text into $scratch/blocks/FILE.LINE.
extract() {
	mkdir -p "$scratch/blocks"
	awk -v out="$scratch/blocks" -v f="$1" '
		function flush() { close(path) }
		/^```(sh|c)$/ && !inblock {
			inblock = 1; lang = substr($0, 4); start = NR
			gsub("/", "_", f); path = out "/" f "." NR
			m = prev ~ /^<!-- docs-test: .* -->$/ ? prev : ""
			sub(/^<!-- docs-test: /, "", m); sub(/ -->$/, "", m)
			printf "%d\t%s\t%s\n", NR, lang, m
			printf "" > path
			next
		}
		/^```/ && inblock { inblock = 0; flush(); next }
		inblock { print >> path; next }
		{ if ($0 != "") prev = $0 }
	' "$1"
}

# marker_value MARKER KEY: the text after KEY in the ;-separated marker.
marker_has() { echo "$1" | tr ';' '\n' | sed 's/^ *//' | grep -q "^$2\( \|$\)"; }
marker_value() { echo "$1" | tr ';' '\n' | sed 's/^ *//' | sed -n "s/^$2 //p" | head -1; }

run_block() { # DOC LINE LANG MARKER
	doc=$1 line=$2 lang=$3 marker=$4
	src=$scratch/blocks/$(echo "$doc" | tr / _).$line
	where="$doc:$line"
	if marker_has "$marker" not-run; then
		echo "not run by design: $where: $(marker_value "$marker" not-run)"
		return
	fi
	if [ "$lang" = c ]; then
		target=$(marker_value "$marker" file)
		if [ -z "$target" ]; then
			echo "not run: $where: a C fragment (no '<!-- docs-test: file PATH -->' above it)"
			return
		fi
		mkdir -p "$(dirname "$tree/$target")"
		cp "$src" "$tree/$target"
		echo "wrote $where -> $target"
		return
	fi
	if marker_has "$marker" shared && [ ! -d ../shared ]; then
		skip=$((skip + 1))
		echo "skipped: $where: needs ../shared, which is absent"
		return
	fi
	if marker_has "$marker" long && [ "$tier" != long ]; then
		skip=$((skip + 1))
		echo "skipped: $where: long (make test-long runs it)"
		return
	fi
	setup=$(marker_value "$marker" setup)
	log=$scratch/log.$$.$line
	t0=$(date +%s)
	if (cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL sh -eu -c "${setup:+$setup
}$(cat "$src")") </dev/null >"$log" 2>&1; then
		pass=$((pass + 1))
		echo "ok: $where ($(( $(date +%s) - t0 )) s)"
	else
		fail=$((fail + 1))
		echo "FAIL: $where: the block exits non-zero:"
		sed 's/^/    > /' "$src"
		tail -20 "$log" | sed 's/^/    | /'
	fi
}

for doc in README.md docs/*.md; do
	extract "$doc" >"$scratch/list"
	while IFS="$(printf '\t')" read -r line lang marker; do
		run_block "$doc" "$line" "$lang" "$marker"
	done <"$scratch/list"
done

echo "docs: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
