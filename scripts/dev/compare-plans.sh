#!/bin/sh
# Plans of two builds compared byte for byte (a refactoring or a faster
# mechanic must not move one offset):
#
#   sh scripts/dev/compare-plans.sh OLD_BIN NEW_BIN "PLANNERS" "ALIGNS" INPUT...
#
# Each (input, planner, alignment) is planned by both with `plan
# --emit-plan`; the first difference stops with the input named.  An input
# both builds refuse with the same exit status (an ONNX model that needs
# --dim, say) is counted as skipped.  Exit 0 when every plan is identical.
set -eu
[ $# -ge 5 ] || { echo "usage: $0 OLD_BIN NEW_BIN \"PLANNERS\" \"ALIGNS\" INPUT..." >&2; exit 2; }
old=$1 new=$2 planners=$3 aligns=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 skipped=0
for f in "$@"; do
	for p in $planners; do
		for a in $aligns; do
			rm -f "$tmp/old.csv" "$tmp/new.csv"
			so=0 sn=0
			"$old" plan "$f" --planner "$p" --align "$a" --emit-plan "$tmp/old.csv" >/dev/null 2>"$tmp/old.err" || so=$?
			"$new" plan "$f" --planner "$p" --align "$a" --emit-plan "$tmp/new.csv" >/dev/null 2>"$tmp/new.err" || sn=$?
			if [ "$so" -ne 0 ] || [ "$sn" -ne 0 ]; then
				if [ "$so" -eq "$sn" ] && [ ! -e "$tmp/old.csv" ] && [ ! -e "$tmp/new.csv" ]; then
					skipped=$((skipped + 1))
					continue
				fi
				echo "compare-plans: $f $p align $a: exit $so (old) against $sn (new)" >&2
				exit 1
			fi
			if ! cmp -s "$tmp/old.csv" "$tmp/new.csv"; then
				echo "compare-plans: $f $p align $a: plans differ" >&2
				exit 1
			fi
			n=$((n + 1))
		done
	done
done
echo "compare-plans: $n plans identical, $skipped refused by both"
