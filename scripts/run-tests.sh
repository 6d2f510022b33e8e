#!/bin/sh
# The test tiers behind `make test` and `make test-long` (docs/testing.md).
#
# Usage: scripts/run-tests.sh TIER BUILD
#   TIER fast: the build, every C test binary (Criterion), the script checks
#              and README's examples; at most 5 minutes on the 2-core machine,
#              with or without ../shared.
#   TIER long: the campaign over sshd and Slurm, the report in Chromium,
#              the sanitizer pass, fuzzing, a bench -> plots -> paper run
#              and make fresh-check.
#   TIER unit: the C test binaries alone (CI's sanitizer pass).
#
# Each step runs with its output in BUILD/test-logs/STEP.log; a line per step
# gives its result and time, a failing step's log tail follows.  Counts:
# a Criterion binary counts its tests (from its TAP output: ok, not ok,
# SKIP); a script counts its own "N passed, N failed[, N skipped]" line when
# it prints one (and a line "skipped: WHY" per skip), else one check by its
# exit status, 77 meaning skipped (its last output line says why).  Every skip is named at the end, then the
# closing line
#     tests: N passed, N failed, N skipped
# Step times go to BUILD/test-times-TIER.tsv (revision, machine and
# whether ../shared was there in its '#' lines).  The fast tier fails when its
# steps together take more than 1.5 times its budget (TEST_BUDGET_S, 300 s).
set -u
cd "$(dirname "$0")/.."
tier=${1:?usage: scripts/run-tests.sh fast|long|unit BUILD}
build=${2:-build}
logs=$build/test-logs
mkdir -p "$logs"
times=$build/test-times-$tier.tsv
skips=$logs/.skips
: >"$skips"
{
	echo "# make test, $tier tier: revision $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); load $(cut -d' ' -f1 /proc/loadavg) at the start; ../shared $([ -d ../shared ] && echo present || echo absent)"
	printf 'step\tseconds\tresult\n'
} >"$times.tmp"
passed=0 failed=0 skipped=0 failed_steps=""
start_all=$(date +%s)
MAKE=${MAKE:-make}
export AB_TEST_TIER="$tier"

# A make of its own: the caller's -jN jobserver is not passed down.
submake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE" --no-print-directory "$@"; }

# count_tap FILE: adds the TAP file's results to the totals.
count_tap() {
	p=$(grep -c '^ok ' "$1" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$1" | tr -d ' ')
	f=$(grep -c '^not ok ' "$1" | tr -d ' ')
	grep '^ok .*# SKIP' "$1" | sed 's/^ok - \([^ ]*\) *# SKIP */\1: /' >>"$skips"
	step_p=$((p - s)) step_f=$f step_s=$s
}

# step NAME KIND COMMAND...: KIND is criterion (a test binary) or script.
step() {
	name=$1 kind=$2
	shift 2
	log=$logs/$name.log
	t0=$(date +%s)
	if [ "$kind" = criterion ]; then
		"$@" --jobs="${TEST_JOBS:-2}" -Otap:"$log.tap" >"$log" 2>&1
		rc=$?
		count_tap "$log.tap"
		# A binary that exits non-zero with no failing test (a crash
		# outside a test, a warning Criterion counts) is one failure.
		if [ "$rc" -ne 0 ] && [ "$step_f" -eq 0 ]; then
			step_f=1
		fi
	else
		"$@" >"$log" 2>&1
		rc=$?
		line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -1)
		if [ -n "$line" ]; then
			step_p=$(echo "$line" | sed -E 's/^([^ ]+: )?([0-9]+) passed.*/\2/')
			step_f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
			step_s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped$/\1/p')
			step_s=${step_s:-0}
			# a script names each skip on a line "skipped: WHY"
			[ "$step_s" -gt 0 ] && grep -E '^ *skipped: ' "$log" | sed -E "s/^ *skipped: /$name: /" >>"$skips"
			[ "$rc" -ne 0 ] && [ "$step_f" -eq 0 ] && step_f=1
		elif [ "$rc" -eq 0 ]; then
			step_p=1 step_f=0 step_s=0
		elif [ "$rc" -eq 77 ]; then
			step_p=0 step_f=0 step_s=1
			echo "$name: $(tail -1 "$log")" >>"$skips"
		else
			step_p=0 step_f=1 step_s=0
		fi
	fi
	t1=$(date +%s)
	passed=$((passed + step_p)) failed=$((failed + step_f)) skipped=$((skipped + step_s))
	if [ "$step_f" -gt 0 ]; then
		result=FAIL
		failed_steps="$failed_steps $name"
	else
		result=ok
	fi
	printf '%-28s %-4s %4ss  %s passed, %s failed, %s skipped\n' \
		"$name" "$result" "$((t1 - t0))" "$step_p" "$step_f" "$step_s"
	if [ "$result" = FAIL ]; then
		tail -25 "$log" | sed 's/^/    | /'
		echo "    (whole log: $log)"
	fi
	printf '%s\t%s\t%s\n' "$name" "$((t1 - t0))" "$result" >>"$times.tmp"
}

binaries() {
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] && step "${t##*/}" criterion "$t"
	done
}

case $tier in
fast)
	if [ -d ../shared ]; then
		echo "tests: ../shared is present: the tests on real models and suites run"
	else
		echo "tests: ../shared is absent (a public clone): the tests that need it are skipped and named below"
	fi
	step build script submake -j2 BUILD="$build" all test-binaries
	binaries
	step check-deps script sh scripts/check-deps.sh
	step check-deps-selftest script sh scripts/test-check-deps.sh
	step stats script sh tests/report/test-stats.sh
	step readme-drift script sh tests/report/test-readme-drift.sh
	step plots-selftest script sh plots/plots-selftest.sh
	step own-corpus script sh tests/report/test-own-corpus.sh "$build"
	step docs script sh tests/docs/test-docs.sh "$build"
	step python script sh python/tests/run.sh "$build"
	step test-budget script sh tests/docs/test-budget.sh "$times.tmp" "$(( $(date +%s) - start_all ))"
	;;
long)
	step build script submake -j2 BUILD="$build" all test-binaries
	step campaign script sh tests/campaign/test-campaign.sh "$build" local kill corrupt mixed concurrent out faults hosts ssh slurm
	step corpus-full-budget criterion env AB_TEST_FULL_BUDGET=1 "$build/tests/test_corpus_plans"
	step offsets-long script env BUILD="$build" JOBS=2 sh scripts/dev/offsets-digest.sh --check sweep4 sweep5 shared
	step report-browser script sh tests/report/test-report.sh "$build"
	step sanitizers script sh tests/sanitizers.sh
	step fuzz script sh scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
	step bench-plots-paper script sh tests/pipeline.sh "$build"
	step deps-lock script sh tests/test-deps-lock.sh
	step docs-long script sh tests/docs/test-docs.sh "$build" long
	step fresh-check script sh scripts/fresh-check.sh
	;;
unit)
	binaries
	;;
*)
	echo "scripts/run-tests.sh: unknown tier '$tier' (expected fast, long or unit)" >&2
	exit 2
	;;
esac

mv "$times.tmp" "$times"
if [ "$skipped" -gt 0 ]; then
	echo "skipped:"
	sed 's/^/  /' "$skips"
fi
[ -n "$failed_steps" ] && echo "failing steps:$failed_steps"
echo "make test ($tier tier): $(( $(date +%s) - start_all )) s; step times in $times"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
