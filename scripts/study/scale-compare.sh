#!/bin/sh
# Two builds' first plans on the scale sweep, interleaved on one core, as
# multiples of a radix sort of 10^6 keys measured by the same binary right
# before and after each plan (issue 29's yardstick):
#
#   sh scripts/study/scale-compare.sh OLD_BIN NEW_BIN "PLANNERS" "SIZES" [DIR]
#
# DIR holds sweep_n<SIZE>_s1.csv (default build/sweep; `make sweep-problems`
# or NEW's gen/sweep --sizes ... --seeds 1 DIR makes them).  Each
# (planner, size) runs OLD then NEW, pinned to CPU ${PIN:-0} with taskset,
# one Google Benchmark repetition, budget 600 s.  Prints CSV on stdout:
#   planner,buffers,build,first_plan_cpu_ns,first_plan_ns,peak_rss_bytes,
#   peak_bytes,status,sort_ns,cpu_over_sort
# sort_ns is the smaller of the two sorts around the plan, in thread CPU
# time as first_plan_cpu_ns is (`scale --sort-reference`'s
# sort_reference_cpu_ns, from NEW's binary), so the ratio holds on a loaded
# machine.  Either binary may be "-" to run one build only.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 OLD_BIN NEW_BIN \"PLANNERS\" \"SIZES\" [DIR]" >&2; exit 2; }
old=$1 new=$2 planners=$3 sizes=$4 dir=${5:-build/sweep}
pin=${PIN:-0}
# the yardstick from NEW (OLD may predate sort_reference_cpu_ns): the best
# thread CPU time of 7 radix sorts of 10^6 keys
if [ "$new" != - ]; then sortbin=$new; else sortbin=$old; fi
sort_cpu() {
	taskset -c "$pin" "$sortbin" scale --sort-reference 1000000 | sed -n 's/^sort_reference_cpu_ns=//p'
}
echo "planner,buffers,build,first_plan_cpu_ns,first_plan_ns,peak_rss_bytes,peak_bytes,status,sort_ns,cpu_over_sort"
for n in $sizes; do
	f=$dir/sweep_n${n}_s1.csv
	[ -f "$f" ] || { echo "scale-compare: $f: no such problem (make sweep-problems)" >&2; exit 2; }
	for p in $planners; do
		for which in old new; do
			if [ $which = old ]; then bin=$old; else bin=$new; fi
			[ "$bin" = - ] && continue
			s1=$(sort_cpu)
			row=$(taskset -c "$pin" "$bin" scale "$f" --planner "$p" --budget-seconds 600 \
				--benchmark_repetitions=1 --benchmark_min_time=0.0001 2>/dev/null | tail -n 1)
			s2=$(sort_cpu)
			# row: problem,buffers,max_live_buffers,planner,align,plan_ns,plan_ns_stddev,
			#      repetitions,first_plan_ns,first_plan_cpu_ns,load_rss_bytes,peak_rss_bytes,
			#      peak_bytes,lower_bound_bytes,status,threads
			echo "$row" | awk -F, -v p="$p" -v n="$n" -v b="$which" -v s1="$s1" -v s2="$s2" '{
				s = s1 + 0 < s2 + 0 ? s1 : s2
				printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.1f\n", p, n, b, $10, $9, $12, $13, $15, s, $10 / s }'
		done
	done
done
