#!/bin/sh
# Runs every test binary given; prints one summary line; fails if any fails.
# Criterion prints its own "Synthesis" line per binary.
set -u
failed=0
for t in "$@"; do
	echo "== $t"
	if ! "$t" --jobs=2; then
		failed=$((failed + 1))
		echo "FAILED: $t"
	fi
done
if [ "$failed" -ne 0 ]; then
	echo "make test: $failed test binaries failed"
	exit 1
fi
echo "make test: all $# test binaries passed"
