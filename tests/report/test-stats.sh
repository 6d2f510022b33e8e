#!/bin/sh
# make test: the one median, geometric mean and log-log fit of the reports
# (scripts/lib/common.awk, scripts/lib/slopes.awk), and make scaling's
# multiples of the sort and peak comparison (scripts/lib/scaling-peaks.awk),
# on values worked by hand.
set -eu
cd "$(dirname "$0")/../.."
fail=0
check() { # NAME GOT WANT
	if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want '$3'"; fail=1; fi
}
stat() { awk -f scripts/lib/common.awk -f /dev/stdin /dev/null; }

# median: {3,1,2} sorted 1 2 3 -> 2; {4,1,3,2} -> (2+3)/2 = 2.5; {} -> "".
check "median odd" "$(printf 'END { a[1]=3; a[2]=1; a[3]=2; print median(a, 3) }' | stat)" 2
check "median even" "$(printf 'END { a[1]=4; a[2]=1; a[3]=3; a[4]=2; print median(a, 4) }' | stat)" 2.5
check "median empty" "$(printf 'END { print "[" median(a, 0) "]" }' | stat)" "[]"
# geo-mean: {1, 4} -> sqrt(4) = 2; {2, 8, 4} -> cbrt(64) = 4; per key.
check "geo two" "$(printf 'END { geo_add(S, N, "k", 1); geo_add(S, N, "k", 4); printf "%%.6f", geo_mean(S, N, "k") }' | stat)" 2.000000
check "geo keys" "$(printf 'END { geo_add(S, N, "a", 2); geo_add(S, N, "a", 8); geo_add(S, N, "a", 4); geo_add(S, N, "b", 9); printf "%%.6f %%.6f", geo_mean(S, N, "a"), geo_mean(S, N, "b") }' | stat)" "4.000000 9.000000"
check "geo empty" "$(printf 'END { print "[" geo_mean(S, N, "z") "]" }' | stat)" "[]"

# slopes.awk.  x: (10^2, 5) is outside the default range 10^4..10^6;
# (10^4, 100) and (10^6, 10^4) are log points (4, 2) and (6, 4): slope
# (4-2)/(6-4) = 1, intercept 2 - 1*4 = -2.  y: (4, 2) and (5, 4): slope 2,
# intercept 2 - 2*4 = -6; its 10^6 row timed out (counted, from 10^6).
# z: one point only: no slope.
got=$(printf 'planner,buffers,plan_ns,status\nx,100,5,ok\nx,10000,100,ok\nx,1000000,10000,ok\ny,10000,100,ok\ny,100000,10000,ok\ny,1000000,,timed_out\nz,10000,50,ok\n' |
	awk -F, -f scripts/lib/common.awk -f scripts/lib/slopes.awk | tr '\n' ' ')
check "slopes" "$got" "planner,points,min_buffers,max_buffers,slope,intercept,timed_out,timed_out_from x,2,10000,1000000,1.000,-2.0000,0, y,2,10000,100000,2.000,-6.0000,1,1000000 z,1,10000,10000,,,0, "
# With fit_min=100 the first x point joins: log points (2, 0.699), (4, 2),
# (6, 4): mean x 4, mean y 2.233; Sxy = (-2)(-1.534) + 0 + 2(1.767) = 6.602,
# Sxx = 8: slope 0.825.
got=$(printf 'planner,buffers,plan_ns,status\nx,100,5,ok\nx,10000,100,ok\nx,1000000,10000,ok\n' |
	awk -F, -v fit_min=100 -f scripts/lib/common.awk -f scripts/lib/slopes.awk | sed -n 2p | cut -d, -f2-5)
check "slopes range" "$got" "3,100,1000000,0.825"

# scaling-peaks.awk.  Reference: a (10^3, seed 1) peak 500, b 700, c
# timed out (no peak).  Rows: a same peak 500, plan_ns 30 over sort_ns 20
# = 1.5 (< 10: three decimals), CPU 2500 over 100 = 25.0; b's peak 700 ->
# 721, +3%, listed; c has a peak now but the reference none: no_peak; d
# has no reference row.  No sort (empty): no multiple.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-stats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
printf 'planner,buffers,seed,peak_bytes,align,status\na,1000,1,500,1,ok\nb,1000,1,700,1,ok\nc,1000,1,,1,timed_out\n' > "$tmp/ref.csv"
got=$(printf 'planner,buffers,seed,plan_ns,first_plan_cpu_ns,peak_bytes,align,sort_ns,sort_cpu_ns\na,1000,1,30,2500,500,1,20,100\nb,1000,1,,,721,1,20,100\nc,1000,1,5,5,900,1,,\nd,1000,1,5,5,900,1,20,100\n' |
	awk -F, -v ref="$tmp/ref.csv" -v changes="$tmp/changes" -f scripts/lib/scaling-peaks.awk | cut -d, -f1,10- | tr '\n' ' ')
check "scaling peaks" "$got" "planner,plan_sorts,first_plan_cpu_sorts,reference_peak_bytes,peak_change a,1.500,25.0,500,same b,,,700,changed c,,,,no_peak d,0.250,0.050,,no_reference "
check "scaling peaks listed" "$(cat "$tmp/changes")" "  b buffers=1000 seed=1 align=1: 700 -> 721 bytes (+3.0000%)"

[ "$fail" = 0 ] || exit 1
echo "test-stats: all cases pass"
