#!/bin/sh
# Proves check-deps.sh can fail: on a temp copy of the tree, a deliberate
# upstream include (core including cli/), a sideways one (a report
# including a planner-library header, which no row of the table allows
# though planners/lib comes earlier in the pipeline), a planner including
# a harness header, and a printf in check/ must each be reported, and the
# check must exit 1.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp -r "$here/harness" "$here/planners" "$tmp/"
cp "$here/scripts/check-deps.sh" "$tmp/scripts/"
echo '#include "cli/cli.h"' >> "$tmp/harness/core/plan.c"
echo '#include "lib/placement.h"' >> "$tmp/harness/report/explain.c"
echo '#include "check/check.h"' >> "$tmp/planners/linear.c"
printf 'static void noisy(void) { printf("x\\n"); }\n' >> "$tmp/harness/check/validate.c"
out=$(sh "$tmp/scripts/check-deps.sh" "$tmp"); rc=$?
for want in 'harness/core/plan.c:.*core includes "cli/cli.h": core may include only core' \
	    'harness/report/explain.c:.*report includes "lib/placement.h": report may include only' \
	    'planners/linear.c:.*a planner includes "check/check.h"' \
	    'harness/check/validate.c:.*prints to stdout or stderr'; do
	echo "$out" | grep -q "$want" || {
		echo "test-check-deps: FAILED: not reported: $want (exit $rc):"; echo "$out"; exit 1; }
done
[ "$rc" -eq 1 ] || { echo "test-check-deps: FAILED: exit $rc, expected 1:"; echo "$out"; exit 1; }
# and the untouched tree passes
sh "$here/scripts/check-deps.sh" "$here" > /dev/null || {
	echo "test-check-deps: FAILED: the tree itself is refused"; exit 1; }
echo "test-check-deps: the planted upstream and sideways includes, the planner's harness include and the printf are reported (exit 1)"
