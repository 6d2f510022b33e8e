#!/bin/sh
# The Python package's tests as one step of `make test` (scripts/run-tests.sh):
# builds the package's library (make python), runs python/tests with
# Debian's pytest, names every skip on a line "skipped: WHY" and closes on
# "python: N passed, N failed, N skipped".  Usage: python/tests/run.sh [BUILD]
set -u
cd "$(dirname "$0")/../.."
# make gets BUILD as given (its objects' dependency files name it so);
# pytest gets it absolute
make_build=${1:-build}
build=$(cd "$make_build" 2>/dev/null && pwd || echo "$PWD/$make_build")
python=${PYTHON:-/usr/bin/python3}
sh scripts/deps.sh python-test || exit 1
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} --no-print-directory -j2 BUILD="$make_build" \
	"$make_build/arenabench" python >/dev/null || { echo "python: make python failed"; exit 1; }
log=$build/test-logs/pytest.out
mkdir -p "$build/test-logs"
(cd python && AB_BUILD_DIR="$build" "$python" -m pytest -q -rs -p no:cacheprovider tests) >"$log" 2>&1
rc=$?
cat "$log"
summary=$(tail -1 "$log")
count() { echo "$summary" | sed -nE "s/(^|.*[^0-9])([0-9]+) $1.*/\2/p" | head -1; }
p=$(count passed) f=$(count failed) s=$(count skipped) e=$(count error)
p=${p:-0} f=$((${f:-0} + ${e:-0})) s=${s:-0}
sed -nE 's/^SKIPPED \[[0-9]+\] [^:]+:[0-9]+: (.*)$/skipped: \1/p' "$log"
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
echo "python: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
