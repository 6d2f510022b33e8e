#!/bin/sh
# The stages of `arenabench plan FILE --planner P --emit-plan OUT --timings`
# (CPU ms: load, lower bound, plan, geometric and execution checks, write),
# two builds interleaved on one core, ROUNDS rounds, with peak RSS:
#
#   sh scripts/study/plan-stages.sh OLD_BIN NEW_BIN FILE PLANNER [ROUNDS]
#
# Each round runs OLD then NEW pinned to CPU ${PIN:-1} with taskset, under
# /usr/bin/time -f %M.  Prints one CSV row per run, then per build the
# smallest figure of each column over the rounds (a loaded machine only
# ever adds time), and "overhead": load + bound + both checks + write.
# Either binary may be "-" to run one build only.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 OLD_BIN NEW_BIN FILE PLANNER [ROUNDS]" >&2; exit 2; }
old=$1 new=$2 file=$3 planner=$4 rounds=${5:-3}
pin=${PIN:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "build,round,load,bound,plan,geometric,execution,write,rest,overhead,rss_kib"
r=1
while [ "$r" -le "$rounds" ]; do
	for which in old new; do
		if [ $which = old ]; then bin=$old; else bin=$new; fi
		[ "$bin" = - ] && continue
		taskset -c "$pin" /usr/bin/time -f 'rss_kib=%M' -o "$out/rss" "$bin" plan "$file" \
			--planner "$planner" --emit-plan "$out/plan.csv" --timings >/dev/null 2>"$out/err"
		# timings:      CPU ms: load L, lower bound B, plan P, geometric check G, execution check E, write W, rest R; ...
		sed -n 's/^timings: *CPU ms: load \([0-9.]*\), lower bound \([0-9.]*\), plan \([0-9.]*\), geometric check \([0-9.]*\), execution check \([0-9.]*\), write \([0-9.]*\), rest \([0-9.]*\);.*/\1 \2 \3 \4 \5 \6 \7/p' "$out/err" |
			awk -v b=$which -v r="$r" -v rss="$(sed -n 's/^rss_kib=//p' "$out/rss")" \
				'{ printf "%s,%d,%s,%s,%s,%s,%s,%s,%s,%.1f,%s\n", b, r, $1, $2, $3, $4, $5, $6, $7, $1 + $2 + $4 + $5 + $6, rss }'
	done
	r=$((r + 1))
done | tee "$out/rows"
awk -F, '{ for (c = 3; c <= 11; c++) if (!(($1, c) in m) || $c + 0 < m[$1, c]) m[$1, c] = $c + 0; seen[$1] = 1 }
	END { for (b in seen) { printf "%s,min", b; for (c = 3; c <= 11; c++) printf ",%s", m[b, c]; printf "\n" } }' "$out/rows" | sort
