#!/bin/sh
# Proves check-deps.sh can fail: on a temp copy of the tree, a deliberate
# upstream include (core including cli/) and a printf in check/ must each
# be reported, and the check must exit 1.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/harness" "$here/planners" "$tmp/"
echo '#include "cli/cli.h"' >> "$tmp/harness/core/plan.c"
printf 'static void noisy(void) { printf("x\\n"); }\n' >> "$tmp/harness/check/validate.c"
out=$(sh "$here/scripts/check-deps.sh" "$tmp"); rc=$?
echo "$out" | grep -q 'harness/core/plan.c:.*core includes "cli/cli.h" from the later stage cli' &&
echo "$out" | grep -q 'harness/check/validate.c:.*prints to stdout or stderr' && [ "$rc" -eq 1 ] || {
	echo "test-check-deps: FAILED: the deliberate violations were not reported (exit $rc):"; echo "$out"; exit 1; }
echo "test-check-deps: the deliberate upstream include and printf are reported (exit 1)"
