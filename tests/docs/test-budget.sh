#!/bin/sh
# make test's budget, from the run's own step times (not a timed unit test):
# the fast tier is meant to take at most TEST_BUDGET_S seconds (300) on the
# 2-core machine; it fails when its steps so far took more than half as much
# again, naming the slowest steps.  README's figure comes from a recorded
# run (results/reference/test-times.tsv, scripts/dev/readme-results.sh).
#
# Usage: tests/docs/test-budget.sh TIMES.tsv ELAPSED_S
set -u
times=${1:?usage: test-budget.sh TIMES.tsv ELAPSED_S}
elapsed=${2:?usage: test-budget.sh TIMES.tsv ELAPSED_S}
budget=${TEST_BUDGET_S:-300}
limit=$((budget * 3 / 2))
if [ "$elapsed" -gt "$limit" ]; then
	echo "test-budget: make test took $elapsed s, more than 1.5 x its $budget s budget ($limit s); slowest steps:"
	grep -v '^#' "$times" | tail -n +2 | sort -t "$(printf '\t')" -k2,2nr | head -5 | sed 's/^/    /'
	echo "test-budget: 0 passed, 1 failed"
	exit 1
fi
echo "test-budget: $elapsed s of a $budget s budget (fails above $limit s)"
echo "test-budget: 1 passed, 0 failed"
