#!/bin/sh
# Builds the libFuzzer targets with clang and runs each for SECONDS.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   SECONDS  run time of each target (default 60)
#   TARGET   tflite, text and/or onnx (default: all three, one after the other)
# Environment: FUZZ_CC (default clang), FUZZ_JOBS (parallel jobs of one
# target, default 1), FUZZ_FLAGS (extra libFuzzer flags).
#
# Everything goes to $BUILD/fuzz/ (BUILD defaults to build; `make fuzz`
# passes its own): the binaries, the corpora corpus-<target>/
# (seeded from tests/fuzz/seeds, tests/fuzz/regressions, graphs/, the
# writer's fixture models and ../shared when present; kept between runs)
# and crash-<target>-* artifacts.  Exits non-zero if any target found a
# crash; minimise one with
#   $BUILD/fuzz/fuzz_<target> -minimize_crash=1 -runs=10000 CRASH
# and add it under tests/fuzz/regressions/ (see tests/fuzz/README.md).
set -eu

cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-tflite text onnx}
cc=${FUZZ_CC:-clang}
cxx=${FUZZ_CXX:-clang++}
jobs=${FUZZ_JOBS:-1}
out=${BUILD:-build}/fuzz
shared=../shared

case "$secs" in
*[!0-9]* | "") echo "scripts/fuzz.sh: SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;;
esac
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "scripts/fuzz.sh: $cc not found (install with: sh scripts/deps.sh fuzz)" >&2
	exit 1
fi

san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
cflags="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Iharness -Iplanners -Itests/lib $san"
mkdir -p "$out/obj"

# The harness as a static library, so that each target pulls in only the
# modules it needs.  A module that does not compile yet is skipped (a
# target that needs it then fails to link, naming the symbol).
objs=""
for src in harness/*/*.c planners/lib/*.c planners/linear.c \
	   planners/size_first_fit.c tests/lib/tflite_writer.c; do
	# main.c is the CLI; registry.c needs the planner list from make.
	case "$src" in harness/cli/*.c | harness/core/registry.c) continue ;; esac
	[ -f "$src" ] || continue
	obj="$out/obj/$(echo "${src%.c}" | tr / _).o"
	if $cc $cflags -c "$src" -o "$obj" 2>"$obj.log"; then
		objs="$objs $obj"
	else
		echo "scripts/fuzz.sh: skipping $src (does not compile, see $obj.log)" >&2
	fi
done
rm -f "$out/libfuzzharness.a"
# shellcheck disable=SC2086
ar rcs "$out/libfuzzharness.a" $objs

# Seed corpora.
mkdir -p "$out/corpus-tflite" "$out/corpus-text"
for f in tests/fuzz/regressions/tflite-*; do
	[ -f "$f" ] && cp "$f" "$out/corpus-tflite/"
done
for f in tests/fuzz/regressions/text-* tests/fuzz/seeds/*.graph \
	 tests/fuzz/seeds/*.csv; do
	[ -f "$f" ] && cp "$f" "$out/corpus-text/"
done
find graphs -name '*.graph' -size -64k -exec cp {} "$out/corpus-text/" \; 2>/dev/null || true
if [ -d "$shared" ]; then
	# Small models only: libFuzzer mutates large inputs slowly.
	find "$shared/models" -name '*.tflite' -size -128k \
		-exec cp {} "$out/corpus-tflite/" \; 2>/dev/null || true
	find "$shared/problems" "$shared/reference" -name '*.csv' -size -16k \
		-exec sh -c 'for f; do cp "$f" "$0/$(basename "$(dirname "$f")")-$(basename "$f")"; done' \
		"$out/corpus-text" {} + 2>/dev/null || true
fi
# Fixture models from the test suite's writer (metadata, offline plans,
# external buffers, dynamic shapes, strings: rare in the shared models).
$cc $cflags -fno-sanitize=fuzzer-no-link tests/fuzz/gen_seeds.c \
	"$out/libfuzzharness.a" -lm -o "$out/gen_seeds"
"$out/gen_seeds" "$out/corpus-tflite"

# The ONNX target: its C++ reader with the same sanitizers, libonnx as
# Debian ships it; seeds are the test fixtures (written by python3-onnx),
# small shared models and a slice of Debian's node tests.
mkdir -p "$out/corpus-onnx"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
	/usr/bin/python3 tests/onnx/fixtures.py "$out/corpus-onnx" || true
fi
for f in tests/fuzz/regressions/onnx-*; do
	[ -f "$f" ] && cp "$f" "$out/corpus-onnx/"
done
[ -d "$shared/models/onnx" ] && find "$shared/models/onnx" -name '*.onnx' -size -40k \
	-exec cp {} "$out/corpus-onnx/" \; 2>/dev/null || true
for d in /usr/share/libonnx-testdata/data/node/test_[a-c]*; do
	[ -f "$d/model.onnx" ] && cp "$d/model.onnx" "$out/corpus-onnx/$(basename "$d").onnx"
done

status=0
for t in $targets; do
	extra="" libs=""
	case "$t" in
	tflite | text) ;;
	onnx)
		$cxx -std=c++17 -g -O1 -fno-omit-frame-pointer -Iharness $san \
			-DONNX_ML=1 -DONNX_NAMESPACE=onnx -c harness/import/onnx_proto.cc \
			-o "$out/obj/onnx_proto.o"
		# the C++ object before the archive, which holds what it calls
		# (core/isolate.c)
		extra="$out/obj/onnx_proto.o" libs="-lonnx -lonnx_proto -lprotobuf" ;;
	*) echo "scripts/fuzz.sh: unknown target '$t' (expected tflite, text or onnx)" >&2; exit 2 ;;
	esac
	# shellcheck disable=SC2086
	if [ -n "$extra" ]; then
		# C++ objects: clang++ links the sanitizers' C++ runtime.
		$cc $cflags -c "tests/fuzz/fuzz_$t.c" -o "$out/obj/fuzz_$t.o"
		$cxx $san -fsanitize=fuzzer "$out/obj/fuzz_$t.o" $extra \
			"$out/libfuzzharness.a" $libs -lm -o "$out/fuzz_$t"
	else
		$cc $cflags -fsanitize=fuzzer "tests/fuzz/fuzz_$t.c" \
			"$out/libfuzzharness.a" -lm -o "$out/fuzz_$t"
	fi
	echo "scripts/fuzz.sh: running fuzz_$t for ${secs}s" >&2
	par=""
	[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
	# shellcheck disable=SC2086
	if ! "$out/fuzz_$t" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=131072 $par \
		-dict="tests/fuzz/$t.dict" -print_final_stats=1 \
		-artifact_prefix="$out/crash-$t-" ${FUZZ_FLAGS:-} \
		"$out/corpus-$t" >"$out/fuzz_$t.log" 2>&1; then
		echo "scripts/fuzz.sh: fuzz_$t FAILED; see $out/fuzz_$t.log and $out/crash-$t-*" >&2
		tail -40 "$out/fuzz_$t.log" >&2
		status=1
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' \
			"$out/fuzz_$t.log" >&2 || true
	fi
done
exit $status
