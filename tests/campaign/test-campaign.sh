#!/bin/sh
# Campaigns (scripts/study/campaign.sh) against a single `arenabench bench`
# of the same inputs, for real: local slots through `make bench -j2`, two
# ssh "hosts" (two sshd on loopback ports, each with its own directory),
# a one-node Slurm cluster started here, runs stopped by SIGINT to the
# process group, SIGTERM to make alone, SIGHUP to the process group and
# SIGKILL of one worker, a Slurm array cancelled midway, a corrupt shard,
# shards of two binaries (refused, then taken with --accept-mixed), two
# campaigns at once, missing tools, and `bench --out` into a missing
# folder.  Every daemon it starts it stops by pid.
#
#   sh tests/campaign/test-campaign.sh [BUILD] [PART...]
#   PARTs: local kill corrupt mixed concurrent out faults hosts ssh slurm (default all)
#
# The reference is one `arenabench bench` process over the same inputs:
# its CSV must equal the campaign's byte for byte with --no-timing, and in
# every non-timing column otherwise (plan_ns, plan_ns_stddev, reorder_ns
# dropped by name).  ssh and Slurm need openssh-server, rsync, slurm-wlm
# and munge (scripts/deps.sh campaign-test) and root for the daemons;
# without them those parts are skipped with a message (under CI=true
# they fail).
set -u
cd "$(dirname "$0")/../.."
TREE=$(pwd -P)
BUILD=${1:-build}
[ $# -gt 0 ] && shift
PARTS=${*:-local kill corrupt mixed concurrent out faults hosts ssh slurm}
BIN=$BUILD/arenabench
HERE=tests/campaign
. "$HERE/lib.sh"

W=$BUILD/campaign-test
# the campaigns of earlier test runs (folders named after their OUT)
rm -rf "$W" "$BUILD"/campaigns/*campaign-test*
mkdir -p "$W/corpus/zz_first" "$W/corpus/aa_second" "$W/timed"
# Two folders whose names sort against the order given: rows must follow
# the order of the INPUTs, then byte order inside a folder.
cp graphs/starter/two_branch.graph graphs/starter/conv_relu_chain.graph "$W/corpus/zz_first/"
cp graphs/synthetic/dense_small_s1.graph graphs/synthetic/chain_small_s1.graph \
	graphs/starter/residual_block.graph "$W/corpus/aa_second/"
CORPUS="$W/corpus/zz_first $W/corpus/aa_second"
FLAGS="--no-timing"
# shellcheck disable=SC2086
"$BIN" bench $CORPUS --align 1,16,64 $FLAGS --quiet --out "$W/serial.csv" ||
	fail_now "the serial reference run failed"
# the timed corpus for the kill tests: each shard plans for about a second
cp graphs/starter/*.graph graphs/synthetic/inception_small_s1.graph graphs/synthetic/unet_small_s1.graph "$W/timed/"
TFLAGS="--benchmark_min_time=0.05 --benchmark_repetitions=2"
case " $PARTS " in *" kill "* | *" concurrent "* | *" faults "* | *" slurm "*)
	# shellcheck disable=SC2086
	"$BIN" bench "$W/timed" --align 1,16,64 $TFLAGS --quiet --out "$W/timed-serial.csv" ||
		fail_now "the timed serial reference run failed" ;;
esac

mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s BUILD="$BUILD" "$@"; }

for part in $PARTS; do
	t0=$(date +%s)
	echo "== campaign: $part" >&2
	. "$HERE/part-$part.sh"
	echo "== campaign: $part took $(($(date +%s) - t0)) s" >&2
done
finish
