#!/bin/sh
# The long tier's sanitizer pass: every C test binary, and the local
# campaign parts, built with AddressSanitizer + UndefinedBehaviorSanitizer
# into build-san/.  AB_TEST_SAMPLE=4 makes the corpus test plan every 4th
# corpus input (the other tests run in full): a full sanitizer pass over
# the corpus takes longer than CI's budget.  OPT and LDFLAGS are exported,
# not given to one make: the campaign parts call `make BUILD=build-san
# bench` themselves, and a make with other flags would rebuild the
# version stamp (`arenabench --version` names the flags) and relink
# build-san/arenabench without the sanitizers' runtime.
set -eu
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export OPT="-O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
export LDFLAGS="-fsanitize=address,undefined"
AB_TEST_SAMPLE=4 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory BUILD=build-san -j2 test-unit
sh tests/campaign/test-campaign.sh build-san local out
