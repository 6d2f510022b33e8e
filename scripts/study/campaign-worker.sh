#!/bin/sh
# One shard of a campaign (scripts/study/campaign.sh), run where the job
# lands: locally, on an ssh host (copied there by GNU parallel beside the
# binary) or in a Slurm task.  Needs only sh, coreutils and util-linux.
#
#   sh campaign-worker.sh BIN SHARDS KEY REVISION DIRTY INPUT [BENCH_FLAGS...]
#   sh campaign-worker.sh --stop SHARDS
#
# Plans INPUT with `BIN bench`, pinned to one CPU of this host that no other
# arenabench shard on the host holds (a flock per CPU under
# ${TMPDIR:-/tmp}/arenabench-cpus-UID, so the pinning is right whatever
# the slot count, and two campaigns on one host never share a core; with
# more slots than CPUs a slot waits for a free core).  Then writes
# SHARDS/KEY.csv and SHARDS/KEY.meta, the .meta last: it carries the
# CSV's sha256, the input's and the binary's, so a shard is complete
# exactly when its .meta matches (campaign.sh checks it before using it).
# REVISION and DIRTY are the git state of the tree the binary was built
# in (a host may have no git checkout); binary_sha256 proves the binary.
# An input the bench cannot plan is skipped (--allow-empty: the shard is
# the CSV header and a .meta naming it with the reason), as in one bench
# of many inputs.
# Exit: 0 (also when some plan was invalid: the .meta says so), else the
# bench's or the signal's status.
#
# --stop SHARDS (campaign.sh, when it is stopped; here and on each host):
# sends SIGTERM to every worker that wrote its pid in SHARDS and is still
# running, then waits for them to end (each removes its folder), at most
# 5 s.  A worker writes its pid whole (a temporary file renamed) into its
# folder SHARDS/.tmp.KEY.PID; a pid is signalled only when it is the
# folder's PID and /proc/PID/cmdline still names this script and KEY, so
# a pid the system has reused for another process is left alone.
set -eu
if [ "${1:-}" = --stop ]; then
	[ $# = 2 ] || { echo "campaign-worker.sh: usage: --stop SHARDS" >&2; exit 2; }
	pids=
	for f in "$2"/.tmp.*/pid; do
		[ -f "$f" ] || continue
		d=${f%/pid}
		p=$(cat "$f" 2>/dev/null) || continue
		key=${d##*/.tmp.}
		[ -n "$p" ] && [ "$p" = "${key##*.}" ] || continue
		key=${key%.*}
		{ tr '\0' '\n' < "/proc/$p/cmdline"; } 2>/dev/null |
			awk -v k="$key" '$0 == k { key = 1 } /(^|\/)campaign-worker\.sh$/ { me = 1 } END { exit !(key && me) }' ||
			continue
		kill -TERM "$p" 2>/dev/null && pids="$pids $p"
	done
	# running PID: not gone, nor a zombie (an orphan waits for init to
	# reap it, which may take a second)
	running() {
		st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
		st=${st##*) }
		[ "${st%% *}" != Z ]
	}
	n=50
	while [ -n "$pids" ] && [ "$n" -gt 0 ]; do
		alive=
		for p in $pids; do running "$p" && alive="$alive $p"; done
		pids=$alive
		[ -z "$pids" ] || sleep 0.1
		n=$((n - 1))
	done
	exit 0
fi
[ $# -ge 6 ] || { echo "campaign-worker.sh: usage: BIN SHARDS KEY REVISION DIRTY INPUT [FLAGS...]" >&2; exit 2; }
BIN=$1 SHARDS=$2 KEY=$3 REV=$4 DIRTY=$5 INPUT=$6
shift 6

tmp=$SHARDS/.tmp.$KEY.$$
# Stopped: stop the bench, leave nothing behind (the shard stays absent,
# the campaign resumable).  The traps are set before the folder is made,
# so a signal as the worker starts leaves none.  The bench runs in the
# background so a signal is handled at once, not when the bench ends.
# A signal between starting the bench and learning its pid is kept in
# $stopping and acted on as soon as the pid is known.
child= stopping= starting=no
quit() {
	stopping=$1
	[ -n "$child" ] || [ "$starting" = no ] || return 0
	# a second signal (GNU parallel's and the runner's can both come)
	# must not cut this short and leave the bench running
	trap '' INT TERM HUP
	[ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true
	rm -rf "$tmp"
	exit "$1"
}
trap 'rm -rf "$tmp"' EXIT
trap 'quit 130' INT
trap 'quit 143' TERM
trap 'quit 129' HUP
bench() {
	starting=yes
	"$@" &
	child=$!
	starting=no
	[ -z "$stopping" ] || quit "$stopping"
	wait "$child"
}
mkdir -p "$SHARDS"
rm -rf "$tmp"
mkdir "$tmp"
# the pid whole or not at all (campaign-worker.sh --stop reads it)
echo $$ > "$tmp/pid.new"
mv "$tmp/pid.new" "$tmp/pid"

host=$(uname -n)
cpus=
if command -v taskset >/dev/null 2>&1 && command -v flock >/dev/null 2>&1; then
	cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
		awk -F- 'NF == 2 { for (c = $1; c <= $2; c++) print c; next } NF { print $1 }')
fi
locks=${TMPDIR:-/tmp}/arenabench-cpus-$(id -u)
rc=0
pinned=none
if [ -n "$cpus" ]; then
	mkdir -p "$locks"
	# take the first free CPU: its lock file open on fd 8 and locked, kept
	# by the bench (which inherits fd 8) until it ends
	while [ "$pinned" = none ]; do
		for c in $cpus; do
			exec 8>"$locks/cpu$c"
			if flock -n 8; then pinned=$c; break; fi
			exec 8>&-
		done
		[ "$pinned" != none ] || sleep 0.2
	done
	# the bench is this shell's own child, so a signal here stops it
	bench taskset -c "$pinned" "$BIN" bench "$INPUT" --quiet --allow-empty --out "$tmp/s.csv" "$@" 2>"$tmp/err" || rc=$?
	exec 8>&-
else
	bench "$BIN" bench "$INPUT" --quiet --allow-empty --out "$tmp/s.csv" "$@" 2>"$tmp/err" || rc=$?
fi
# the bench's messages, naming the shard rather than this temporary folder
# (which is gone once the job ends)
awk -v t="$tmp/s.csv" -v s="$SHARDS/$KEY.csv" '{
	while ((i = index($0, t)) > 0) $0 = substr($0, 1, i - 1) s substr($0, i + length(t))
	print
}' "$tmp/err" >&2
[ "$rc" -le 1 ] || exit "$rc"
[ -s "$tmp/s.csv" ] && [ -s "$tmp/s.meta" ] || { echo "campaign-worker.sh: $INPUT: the bench wrote no CSV" >&2; exit 2; }

sha() { sha256sum "$1" | cut -d' ' -f1; }
{
	# the bench's own .meta, with the revision of the tree it was built in
	grep -v '^git_revision=\|^git_dirty=\|^rows=\|^csv_sha256=' "$tmp/s.meta"
	echo "git_revision=$REV"
	echo "git_dirty=$DIRTY"
	echo "shard_format=2"
	echo "shard_key=$KEY"
	echo "shard_input=$INPUT"
	echo "input_sha256=$(sha "$INPUT")"
	echo "binary_sha256=$(sha "$BIN")"
	echo "bench_flags=$*"
	echo "planners=$("$BIN" list | awk '{ print $1 }' | paste -sd, -)"
	echo "host=$host"
	echo "pinned_cpu=$pinned"
	echo "invalid_plans=$([ "$rc" = 1 ] && echo yes || echo no)"
	echo "rows=$(($(wc -l < "$tmp/s.csv") - 1))"
	echo "csv_sha256=$(sha "$tmp/s.csv")"
} > "$tmp/s.meta2"
mv "$tmp/s.csv" "$SHARDS/$KEY.csv"
mv "$tmp/s.meta2" "$SHARDS/$KEY.meta"
exit 0
