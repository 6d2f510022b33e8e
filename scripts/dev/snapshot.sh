#!/bin/sh
# Writes the outputs of a fixed set of commands to OUTDIR, with timing
# columns blanked, so that two builds can be compared byte for byte
# (a refactoring must not change them):
#   sh scripts/dev/snapshot.sh OLD_BUILD/arenabench /tmp/before
#   sh scripts/dev/snapshot.sh build/arenabench /tmp/after
#   diff -r /tmp/before /tmp/after
# Uses ../shared when present (a few real models and minimalloc problems).
set -u
bin=$1
out=$2
cd "$(dirname "$0")/../.."
mkdir -p "$out"
shared=../shared
# CSV columns that hold times: blanked by name.
blank_timing() {
	awk -F, -v OFS=, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /(^plan_ns|_ns$|_ns_stddev$|^repetitions$|^iterations$|seconds)/) t[i] = 1; print; next }
	{ for (i in t) $i = ""; print }'
}
run() { # name, then the command; keeps stdout, stderr and the exit code
	name=$1; shift
	"$@" > "$out/$name.out" 2> "$out/$name.err"
	echo "exit $?" >> "$out/$name.err"
	sed -i -E -e 's/[0-9.]+ ?(ms|s|us|ns)\b/T\1/g' -e 's/"(time_ms|cpu_ms)": \{.*\}/"\1": T/' \
		-e 's/^(time \(wall[^:]*:).*/\1 T/' -e 's/"plan_ms": [0-9.]+/"plan_ms": T/g' -e "s|$out|OUT|g" "$out/$name.out" "$out/$name.err"
}
run list "$bin" list
"$bin" bench graphs/starter graphs/zoo graphs/synthetic --align 1,16,64 --no-timing --quiet --out "$out/bench.csv.raw" 2> "$out/bench.err"
blank_timing < "$out/bench.csv.raw" > "$out/bench.csv"; rm -f "$out/bench.csv.raw" "$out/bench.meta" "$out/bench.csv.raw.meta"
for g in graphs/starter/residual_block.graph graphs/zoo/mobilenet_v2_1.0_224_i8.graph graphs/synthetic/training_small_s1.graph; do
	b=$(basename "$g" .graph)
	for p in size_first_fit xla_best_fit exact; do
		run "plan-$b-$p" "$bin" plan "$g" --planner $p --align 16 --emit-plan "$out/plan-$b-$p.plan.csv" --emit-live "$out/plan-$b-$p.live.csv"
	done
	run "plan-$b-reorder" "$bin" plan "$g" --planner size_first_fit --reorder beam --inplace
	run "explain-$b" "$bin" explain "$g"
	run "explain-$b-json" "$bin" explain "$g" --json
done
run stats "$bin" stats graphs/starter graphs/zoo
run plan-tiers "$bin" plan graphs/zoo/mobilenet_v2_1.0_224_i8.graph --planner size_first_fit --tier sram:256KiB --tier dram
run err-missing "$bin" plan /nonexistent.graph --planner linear
run err-planner "$bin" plan graphs/starter/residual_block.graph --planner nosuch
if [ -d "$shared" ]; then
	for m in "$shared"/models/tflm/person_detect.tflite $(ls "$shared"/models/*/*.tflite 2>/dev/null | sed -n '3p;9p;15p'); do
		[ -f "$m" ] || continue
		b=$(basename "$m" .tflite)
		run "explain-$b" "$bin" explain "$m"
		run "explain-$b-tflm-json" "$bin" explain "$m" --runtime tflm --json
		run "plan-$b" "$bin" plan "$m" --planner size_first_fit
		run "export-$b" "$bin" export "$m" --out "$out/export-$b.tflite"
	done
	run stats-models "$bin" stats "$shared"/models/tflm
	if [ -d "$shared/problems/minimalloc" ]; then
		run suite "$bin" suite "$shared/problems/minimalloc" --out "$out/suite.csv"
		[ -f "$out/suite.csv" ] && { blank_timing < "$out/suite.csv" > "$out/suite.csv.b"; mv "$out/suite.csv.b" "$out/suite.csv"; rm -f "$out/suite.meta"; }
	fi
fi
echo "snapshot in $out"
