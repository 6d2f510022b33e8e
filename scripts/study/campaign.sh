#!/bin/sh
# Bench campaigns: `arenabench bench` over many inputs, one shard per input,
# on this machine, over ssh or as a Slurm job array, merged into the CSV a
# single `arenabench bench` of the same inputs writes (timing columns
# aside).  Built on GNU parallel.  docs/campaigns.md has the commands.
#
#   campaign.sh run   [OPTIONS] --out OUT INPUT... [-- BENCH_FLAGS...]
#   campaign.sh slurm [OPTIONS] [--wait] [--sbatch 'ARGS'] --out OUT INPUT... [-- BENCH_FLAGS...]
#   campaign.sh merge RUN_DIR            (a run's folder: DIR/runs/ID)
#   OPTIONS: --build BUILD (build)  --jobs N (1)  --hosts SSHLOGINS
#            --dir DIR ($BUILD/campaigns/<OUT with / as _>)
#            --remote-dir D (.arenabench-campaigns/ID, below the login dir)
#
# A shard is one input x the planner set x the alignments, named by a key:
# the sha256 of the input's path and content, the binary's sha256, the
# planner list, the git revision and the bench flags.  Shards live in
# DIR/shards/KEY.{csv,meta}, written by scripts/study/campaign-worker.sh
# (the .meta last, with the CSV's checksum).  A run reuses every shard
# whose key is unchanged and whose files check out, so an interrupted run
# resumes and adding an input runs only that input.  Each run has its own
# DIR/runs/ID (the list of shards in corpus order, the joblog); a run
# holds OUT's lock (.NAME.lock in OUT's resolved folder, the one
# `arenabench bench` and `arenabench merge` take, so any spelling of OUT
# shares it) and DIR/lock from start to merge, and a second run on the
# same OUT is refused at once naming the holder (pid, host, start).  OUT
# follows docs/io.md's output rules (scripts/lib/outputs.sh) before any
# shard runs.  The merge checks every shard (present, checksum, key,
# binary, flags, revision, header, schema version), names each bad or
# missing one, and hands the shards to `arenabench merge`, which writes
# OUT and its .meta (hosts, shards ran and reused, the CSV's sha256) as a
# checked pair by rename: OUT is never partial, and on any failure (a
# full disk) the old pair stays and the merge exits 2.
# SIGINT, SIGTERM and SIGHUP stop every job (GNU parallel kills local and
# remote jobs; at the same moment the runner stops every worker by the pid
# it wrote, here and on every host) and leave OUT and the finished shards
# as they were.
# Exit: 0; 1 when some plan was invalid (rows kept, as bench does); 2 on error.
set -eu
me=scripts/study/campaign.sh
# (a run that fails removes OUT's lock: only a killed run leaves a stale one)
die() { echo "$me: $*" >&2; [ -z "${olock_held:-}" ] || rm -f "$olock_held"; exit 2; }
say() { echo "campaign: $*" >&2; }
need() { # need COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' is not installed (Debian package $2: sudo apt-get install $2, or sh scripts/deps.sh campaign)"
}
sha() { sha256sum "$1" | cut -d' ' -f1; }
# value of KEY= in a key=value file
get() { awk -v k="$2=" 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }' "$1"; }
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
. scripts/lib/outputs.sh

# OUT's lock file: .NAME.lock in the folder OUT resolves to (the path
# `arenabench` locks, core/outlock.h), whatever OUT's spelling
out_lock_path() {
	t=$(out_target "$1")
	echo "$(dirname -- "$t")/.$(basename -- "$t").lock"
}
# take_out_lock OUT WHAT WAIT: OUT's lock on fd 9, with our holder line;
# refuses naming the holder (a Slurm reservation names its jobs while they
# are queued; a lock left by a dead run is taken over, saying so)
take_out_lock() {
	olock=$(out_lock_path "$1")
	# a holder removes the file on release: a lock on a file gone by then
	# is no lock, so it is taken again on the new one
	while :; do
		exec 9>>"$olock" || die "$1: cannot open its lock $olock"
		if ! { if [ "$3" = 0 ]; then flock -n 9; else flock -w "$3" 9; fi; }; then
			die "$1 is in use by $(head -n 1 "$olock" 2>/dev/null || echo 'another run') (lock $olock); $1 is left to it"
		fi
		held=$(stat -L -c %d:%i /proc/self/fd/9 2>/dev/null || true)
		[ -n "$held" ] && [ "$held" != "$(stat -c %d:%i "$olock" 2>/dev/null)" ] || break
	done
	prev=$(head -n 1 "$olock" 2>/dev/null || true)
	case $prev in
	*slurm_jobs=*)
		sj=${prev##*slurm_jobs=}
		if [ "$2" != "merge ${run_arg:-}" ] && command -v squeue >/dev/null 2>&1 &&
			squeue -h -j "$sj" 2>/dev/null | grep -q .; then
			die "$1 is in use by Slurm jobs $sj (array, merge), submitted as ${prev%% slurm_jobs=*}; $1 is left to them (wait, or scancel $(echo "$sj" | tr , ' '))"
		fi ;;
	esac
	case $prev in
	*slurm_jobs=*) [ "$2" = "merge ${run_arg:-}" ] || say "took over the lock $olock of Slurm jobs that have ended ($prev)" ;;
	?*) say "took over the stale lock $olock of a run that ended without releasing it ($prev)" ;;
	esac
	olock_held=$olock
	echo "pid=$$ host=$(uname -n) started=$(date -u +%Y-%m-%dT%H:%M:%SZ) command=campaign.sh $2" > "$olock" ||
		die "$1: cannot write its lock $olock (a full disk?); nothing run"
}

[ $# -ge 1 ] || die "usage: $me run|slurm|merge ... (see the header of $me)"
# the command as typed (an argument with a space or quote quoted), for the .meta
typed=$me; for w in "$@"; do case $w in *[!A-Za-z0-9_./,:=+@%-]* | '') typed="$typed '$(printf '%s' "$w" | sed "s/'/'\\\\''/g")'" ;; *) typed="$typed $w" ;; esac; done
cmd=$1
shift

# --- checking a shard and merging ---------------------------------------------

# check_shard SHARDS KEY INPUT CONF [MIXED]: prints "bad<TAB>why" when the
# shard is unusable, else "ok<TAB>host<TAB>cpu_model<TAB>cores<TAB>kernel<TAB>
# git_revision<TAB>git_dirty<TAB>binary_sha256<TAB>invalid_plans".  With
# MIXED=yes a shard of another revision or binary is usable (--accept-mixed);
# the bench flags and the planner set must match always.
check_shard() {
	c=$1/$2.csv m=$1/$2.meta
	if [ ! -f "$m" ]; then
		[ -f "$c" ] && printf 'bad\tits .meta is missing (the job did not finish)\n' || printf 'bad\tmissing\n'
		return
	fi
	[ -f "$c" ] || { printf 'bad\tits .csv is missing\n'; return; }
	awk -v key="$2" -v input="$3" -v sum="$(sha "$c")" -v rows="$(($(wc -l < "$c") - 1))" \
		-v ish="$(get "$4" "input_sha256.$3")" -v mixed="${5:-no}" -F'\n' '
	FILENAME == ARGV[1] { i = index($0, "="); if (i) want[substr($0, 1, i - 1)] = substr($0, i + 1); next }
	{ i = index($0, "="); if (i) v[substr($0, 1, i - 1)] = substr($0, i + 1) }
	END {
		if (v["shard_format"] != "2") r = "its .meta is not a shard'"'"'s (of this format)"
		else if (v["shard_key"] != key) r = "its .meta names another key"
		else if (v["shard_input"] != input) r = "its .meta names input " v["shard_input"]
		else if (v["csv_sha256"] != sum) r = "its .csv does not match the checksum in its .meta (corrupt or truncated)"
		else if (v["input_sha256"] != ish) r = "its input_sha256 differs from the input'"'"'s"
		else if (v["rows"] != rows) r = "its row count differs from its .meta"
		else {
			n = split("bench_flags planners binary_sha256 git_revision git_dirty", k, " ")
			if (mixed == "yes") n = 2
			for (j = 1; j <= n && r == ""; j++)
				if (v[k[j]] != want[k[j]])
					r = "its " k[j] " differs from this campaign'"'"'s (" v[k[j]] ")" \
						(j > 2 ? "; --accept-mixed takes it" : "")
		}
		if (r != "") printf "bad\t%s\n", r
		else printf "ok\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v["host"], v["cpu_model"], v["cores"], v["kernel"],
			v["git_revision"], v["git_dirty"], v["binary_sha256"], v["invalid_plans"]
	}' "$4" "$m"
}

# merge RUN_DIR MIXED: checks every shard of the run and writes its OUT (+ .meta)
merge() {
	run=$1 mixed=$2
	conf=$run/conf plan=$run/plan
	[ -f "$conf" ] && [ -f "$plan" ] || die "$run: not a campaign run (no conf or plan)"
	dir=$(get "$conf" dir) out=$(get "$conf" out)
	shards=$dir/shards
	bad=0 n=0 header= schema= invalid=0
	: > "$run/hosts"
	while IFS='	' read -r key input; do
		n=$((n + 1))
		res=$(check_shard "$shards" "$key" "$input" "$conf" "$mixed")
		if [ "${res%%	*}" != ok ]; then
			echo "$me: shard $shards/$key.csv ($input): ${res#*	}" >&2
			bad=$((bad + 1))
			continue
		fi
		h=$(head -n 1 "$shards/$key.csv")
		# (a shard of an input the bench skipped has a header and no rows)
		[ -n "$schema" ] || schema=$(awk -F, 'NR == 2 { print $1 }' "$shards/$key.csv")
		if [ -z "$header" ]; then
			header=$h first=$shards/$key.meta
		elif [ "$h" != "$header" ]; then
			echo "$me: shard $shards/$key.csv ($input): its header differs from the first shard's" >&2
			bad=$((bad + 1))
			continue
		fi
		if ! awk -F, -v s="$schema" 'NR > 1 && $1 != s { exit 1 }' "$shards/$key.csv"; then
			echo "$me: shard $shards/$key.csv ($input): schema_version differs from $schema" >&2
			bad=$((bad + 1))
			continue
		fi
		res=${res#ok	}
		[ "${res##*	}" = yes ] && invalid=$((invalid + 1))
		echo "${res%	*}" >> "$run/hosts"
	done < "$plan"
	[ "$bad" = 0 ] || die "$bad of $n shards missing or bad; $out is unchanged (run the campaign again to redo them)"
	[ "$n" -gt 0 ] || die "$run: no shards in the plan"

	skipped=$(while IFS='	' read -r key input; do grep -c '^skipped_input=' "$shards/$key.meta" || true; done < "$plan" |
		awk '{ s += $1 } END { print s + 0 }')
	meta=${out%.csv}.meta
	tmeta=$run/merged.meta
	# distinct values of column $1 of the hosts list, and with --accept-mixed
	# how many shards each has
	distinct() { cut -f"$1" "$run/hosts" | sort -u | paste -sd '|' -; }
	counted() { cut -f"$1" "$run/hosts" | sort | uniq -c | awk '{ printf "%s%s:%d", (NR > 1 ? "," : ""), $2, $1 }'; }
	{
		grep -v '^command=\|^shard_\|^input_sha256=\|^host=\|^pinned_cpu=\|^invalid_plans=\|^rows=\|^csv_sha256=\|^date_utc=\|^cpu_model=\|^cores=\|^kernel=\|^git_revision=\|^git_dirty=\|^binary_sha256=\|^skipped_input\|^input_dims=' "$first"
		echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		# one value when all shards agree, else every one (keep a planner's timings on one model)
		echo "cpu_model=$(distinct 2)"
		echo "cores=$(distinct 3)"
		echo "kernel=$(distinct 4)"
		echo "git_revision=$(distinct 5)"
		echo "git_dirty=$(distinct 6)"
		echo "binary_sha256=$(distinct 7)"
		echo "accept_mixed=$mixed"
		if [ "$mixed" = yes ]; then
			echo "shards_by_git_revision=$(counted 5)"
			echo "shards_by_binary_sha256=$(counted 7)"
		fi
		echo "command=$(get "$conf" command)"
		echo "campaign_shape=$(get "$conf" campaign_shape)"
		echo "campaign=$run"
		echo "shards=$n"
		echo "shards_ran=$(get "$conf" ran)"
		echo "shards_reused=$(get "$conf" reused)"
		echo "hosts=$(counted 1)"
		echo "parallel_jobs=$(get "$conf" jobs)"
		echo "pinning=taskset, one shard per CPU of its host (a flock per CPU)"
		# inputs the bench skipped (with the reason), then the --dim values
		# each input was planned with: both in corpus order, as one bench writes them
		echo "skipped_inputs=$skipped"
		while IFS='	' read -r key input; do grep '^skipped_input=' "$shards/$key.meta" || true; done < "$plan"
		while IFS='	' read -r key input; do grep '^input_dims=' "$shards/$key.meta" || true; done < "$plan"
		echo "merged_meta=complete"
	} > "$tmeta" && [ "$(tail -n 1 "$tmeta")" = "merged_meta=complete" ] ||
		die "$tmeta: cannot write the merged .meta (a full disk?); $out is unchanged"
	sed -i '$d' "$tmeta" || die "$tmeta: cannot write the merged .meta; $out is unchanged"
	# the one checked, atomic writer (docs/io.md): OUT and its .meta as a
	# pair or not at all; the lock we hold on fd 9 is passed down
	bin=$(get "$conf" bin)
	[ -n "$bin" ] || bin=build/arenabench
	[ -x "$bin" ] || die "$bin: no such program (the campaign's binary); $out is unchanged"
	# shellcheck disable=SC2046
	ARENABENCH_OUT_LOCK_FD=9 "$bin" merge --out "$out" --meta-from "$tmeta" \
		$(while IFS='	' read -r key input; do printf '%s\n' "$shards/$key.csv"; done < "$plan") ||
		die "arenabench merge failed (above); $out and $meta are as they were"
	rows=$(($(wc -l < "$out") - 1))
	say "wrote $rows rows from $n shards ($(get "$conf" ran) ran, $(get "$conf" reused) reused) to $out"
	"$bin" summary "$out" >&2 || true # the summary that closes `arenabench bench`
	if [ "$skipped" != 0 ]; then
		say "$skipped of $n inputs skipped, the campaign went on without them (listed in $meta):"
		sed -n 's/^skipped_input=/  /p' "$meta" >&2
	fi
	[ "$invalid" = 0 ] || { say "$invalid shards hold invalid plans (rows kept, valid=no)"; return 1; }
	return 0
}

if [ "$cmd" = merge ]; then
	mixed=no
	[ "${1:-}" = --accept-mixed ] && { mixed=yes; shift; }
	[ $# = 1 ] || die "usage: $me merge [--accept-mixed] RUN_DIR"
	need flock util-linux
	dir=$(get "$1/conf" dir 2>/dev/null) || true
	[ -n "$dir" ] || die "$1: not a campaign run (no conf)"
	out=$(get "$1/conf" out)
	run_arg=$1
	# the Slurm merge job waits for a submitter still finishing, then
	# takes over the reservation its submission left
	take_out_lock "$out" "merge $1" 60
	exec 7>>"$dir/lock"
	flock -w 60 7 || die "$dir/lock is held by $(cat "$dir/holder" 2>/dev/null || echo '?')"
	echo "pid $$ (merge $1)" > "$dir/holder"
	rc=0
	merge "$1" "$mixed" || rc=$?
	rm -f "$olock_held"
	exit "$rc"
fi

# --- planning a run ------------------------------------------------------------
BUILD=build JOBS=1 HOSTS= DIR= RDIR= OUT= WAIT=no SBATCH= MIXED=no
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--hosts) HOSTS=$2; shift 2 ;;
	--dir) DIR=$2; shift 2 ;;
	--remote-dir) RDIR=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--wait) WAIT=yes; shift ;;
	--accept-mixed) MIXED=yes; shift ;;
	--sbatch) SBATCH=$2; shift 2 ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
case $cmd in run | slurm) ;; *) die "unknown command '$cmd' (expected run, slurm or merge)" ;; esac
case $JOBS in '' | *[!0-9]* | 0) die "--jobs expects a positive integer, got '$JOBS'" ;; esac
[ -n "$OUT" ] || die "--out OUT is required"
need parallel parallel
need flock util-linux
need sha256sum coreutils
if [ -n "$HOSTS" ]; then
	need ssh openssh-client
	need rsync rsync
fi
[ "$cmd" = slurm ] && need sbatch slurm-client
BIN=$BUILD/arenabench
[ -x "$BIN" ] || die "$BIN: no such program (run make first)"
case $ROOT in *"'"*) die "$ROOT: the tree's path holds a quote (the jobs' command line cannot carry it)" ;; esac

# Inputs, in the order `arenabench bench` takes them: the INPUTs in the
# order given, a directory's .graph/.csv/.tflite files (not hidden, not
# recursive) sorted by byte order.
inputs=$(mktemp "${TMPDIR:-/tmp}/arenabench-inputs.XXXXXX")
trap 'rm -f "$inputs"' EXIT
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	if [ -d "$1" ]; then
		find "$1/" -mindepth 1 -maxdepth 1 \( -name '*.graph' -o -name '*.csv' -o -name '*.tflite' -o -name '*.onnx' \) \
			! -name '.*' | sed 's|//*|/|g' | LC_ALL=C sort >> "$inputs"
	elif [ -f "$1" ]; then
		echo "$1" >> "$inputs"
	else
		die "$1: no such file or directory"
	fi
	shift
done
[ $# -gt 0 ] && shift # the --
[ -s "$inputs" ] || die "no inputs (expected .graph/.csv/.tflite files or directories)"
! grep -q '	' "$inputs" || die "an input path holds a tab: $(grep '	' "$inputs" | head -n 1)"

# Fail early: OUT's folder exists (made), OUT and its .meta follow the
# output rules of docs/io.md (never a directory, FIFO, socket or device,
# nor any input, by device and inode), and the folder takes files, before
# any planning.
odir=$(dirname "$OUT")
mkdir -p "$odir" 2>/dev/null || die "$odir: cannot create the output folder"
out_rules() { # out_rules PATH: out_check PATH against every input
	(p=$1; set --; while IFS= read -r f; do set -- "$@" "$f"; done < "$inputs"; out_check "$p" "$@")
}
msg=$(out_rules "$OUT" 2>&1) || die "--out $msg"
msg=$(out_rules "${OUT%.csv}.meta" 2>&1) || die "--out's .meta $msg"
probe=$odir/.campaign-probe.$$
: > "$probe" 2>/dev/null || die "$odir: cannot write there"
rm -f "$probe"

[ -n "$DIR" ] || DIR=$BUILD/campaigns/$(echo "$OUT" | sed 's|^\./||; s|/|_|g')
mkdir -p "$DIR/shards" "$DIR/runs" || die "$DIR: cannot create the campaign folder"

# One run at a time per OUT, whatever its spelling: OUT's lock (the one
# arenabench takes, keyed by the resolved folder and name) is held until
# the merge has written OUT; then one per campaign folder (DIR, which
# --dir may share).  Jobs inherit both, so they stay held while any runs.
take_out_lock "$OUT" "$cmd --out $OUT" 0
exec 7>>"$DIR/lock"
if ! flock -n 7; then
	die "$DIR is in use by $(cat "$DIR/holder" 2>/dev/null || echo 'another run'); $OUT is left to it"
fi
# no run or Slurm job uses DIR now: a temporary folder left is a killed worker's
rm -rf "$DIR"/shards/.tmp.*
echo "pid $$ ($cmd --out $OUT, started $(date -u +%H:%M:%SZ) on $(uname -n))" > "$DIR/holder"

id=$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n)-$$
run=$DIR/runs/$id
mkdir -p "$run"
rev=$(git rev-parse HEAD 2>/dev/null || echo unknown)
dirty=$([ -n "$(git status --porcelain --untracked-files=no 2>/dev/null | head -c1)" ] && echo yes || echo no)
binsha=$(sha "$BIN")
planners=$("$BIN" list | awk '{ print $1 }' | paste -sd, -)
flags="$*"
# A --dims-file is read by every shard: its content is part of each key
# (an edited file reruns the shards) and it travels to ssh hosts.
dimsfile=$(printf '%s\n' "$@" | awk 'p { print; exit } $0 == "--dims-file" { p = 1; next } /^--dims-file=/ { sub(/^--dims-file=/, ""); print; exit }')
dimsha=
if [ -n "$dimsfile" ]; then
	[ -f "$dimsfile" ] || die "--dims-file $dimsfile: no such file"
	dimsha=$(sha "$dimsfile")
fi
# Python strategies (--planners-dir DIR, --planners ...,py:FILE) are code
# outside the binary: their files' content joins each shard's key, so an
# edited strategy is planned again (docs/python.md).
pyfiles=$(prev=""; for a in "$@"; do
	case $prev in --planners-dir) ls "$a"/*.py 2>/dev/null ;; --planners|--planner) echo "$a" | tr ',' '\n' | sed -n 's/^py://p' ;; esac
	case $a in --planners-dir=*) ls "${a#*=}"/*.py 2>/dev/null ;; --planners=*|--planner=*) echo "${a#*=}" | tr ',' '\n' | sed -n 's/^py://p' ;; esac
	prev=$a
done)
pysha=""
if [ -n "$pyfiles" ]; then
	# shellcheck disable=SC2086
	pysha=$(cat $pyfiles 2>/dev/null | sha256sum | cut -d' ' -f1)
fi
{
	echo "dir=$DIR"
	echo "out=$OUT"
	echo "bin=$BIN"
	echo "binary_sha256=$binsha"
	echo "git_revision=$rev"
	echo "git_dirty=$dirty"
	echo "bench_flags=$flags"
	echo "planners=$planners"
} > "$run/conf"

# With --accept-mixed, the shards on hand of any revision or binary:
# input, its sha256, bench flags, planners, date, key (newest first).
others=$run/others
: > "$others"
if [ "$MIXED" = yes ]; then
	find "$DIR/shards" -maxdepth 1 -name '*.meta' ! -name '.*' -exec awk -F'\n' -v OFS='\t' '
	function emit() { if (v["shard_format"] == "2") print v["shard_input"], v["input_sha256"], v["bench_flags"], v["planners"], v["date_utc"], v["shard_key"] }
	FNR == 1 && NR > 1 { emit(); split("", v) }
	{ i = index($0, "="); if (i) v[substr($0, 1, i - 1)] = substr($0, i + 1) }
	END { if (NR) emit() }' {} + | sort -t '	' -k5,5r > "$others"
fi

# The key of each shard, and which ones can be reused.
: > "$run/plan"
: > "$run/todo"
reused=0 total=0 mixed_reused=0
while IFS= read -r f; do
	total=$((total + 1))
	h=$(sha "$f")
	key=$(printf 'arenabench-shard-2\ninput=%s\ninput_sha256=%s\nbinary_sha256=%s\nplanners=%s\ngit_revision=%s\ngit_dirty=%s\nbench_flags=%s\n%s%s' \
		"$f" "$h" "$binsha" "$planners" "$rev" "$dirty" "$flags" "${dimsha:+dims_sha256=$dimsha
}" "${pysha:+python_sha256=$pysha
}" | sha256sum | cut -c1-24)
	echo "input_sha256.$f=$h" >> "$run/conf"
	res=$(check_shard "$DIR/shards" "$key" "$f" "$run/conf")
	if [ "${res%%	*}" != ok ] && [ -s "$others" ]; then
		# --accept-mixed: the newest usable shard of this input's content
		# with these flags and planners, from another revision or binary
		for k in $(awk -F'\t' -v f="$f" -v h="$h" -v b="$flags" -v p="$planners" \
			'$1 == f && $2 == h && $3 == b && $4 == p { print $6 }' "$others"); do
			r=$(check_shard "$DIR/shards" "$k" "$f" "$run/conf" yes)
			[ "${r%%	*}" = ok ] || continue
			res=$r key=$k mixed_reused=$((mixed_reused + 1))
			break
		done
	fi
	printf '%s\t%s\n' "$key" "$f" >> "$run/plan"
	if [ "${res%%	*}" = ok ]; then
		reused=$((reused + 1))
	else
		[ "$res" = "bad	missing" ] || say "shard $DIR/shards/$key.csv ($f): ${res#*	}; running it again"
		printf '%s\t%s\n' "$key" "$f" >> "$run/todo"
	fi
done < "$inputs"
rm -f "$inputs"
trap - EXIT
todo=$((total - reused))
if [ "$cmd" = slurm ]; then where="a Slurm job array"
elif [ -n "$HOSTS" ]; then where="hosts $HOSTS"
else where="$JOBS local slots"; fi
{
	echo "ran=$todo"
	echo "reused=$reused"
	echo "jobs=$([ "$cmd" = slurm ] && echo slurm-array || { [ -n "$HOSTS" ] && echo "$HOSTS" || echo "$JOBS"; })"
	echo "command=$typed"
	echo "campaign_shape=$where: $total inputs, one arenabench bench per input; bench flags: $flags"
} >> "$run/conf"
say "$total shards: $reused reused$([ "$MIXED" = yes ] && echo " ($mixed_reused of another revision or binary, --accept-mixed)"), $todo to run ($where); campaign $run"

# progress D: D of the shards to run are done
start=$(date +%s)
# The estimate only tightens: the time left is the smaller of this tick's
# projection (elapsed x shards left / shards done) and the last estimate
# less the time since, so a slow shard does not make it jump back up; it
# is recomputed only when the last estimate ran out with shards left.
left_prev= at_prev=
progress() {
	now=$(date +%s)
	el=$((now - start))
	eta=unknown
	if [ "$1" -gt 0 ]; then
		left=$((el * (todo - $1) / $1))
		if [ -n "$left_prev" ]; then
			carry=$((left_prev - (now - at_prev)))
			[ "$carry" -gt 0 ] && [ "$carry" -lt "$left" ] && left=$carry
		fi
		left_prev=$left at_prev=$now
		eta="about $(clock "$left")"
	fi
	[ "$1" = "$todo" ] && eta=0:00
	say "$((reused + $1))/$total shards done ($reused reused, $1 of $todo run), $(clock $el) elapsed, $eta left"
}

# --- Slurm: an array of the shards to run, then a dependent merge ------------
if [ "$cmd" = slurm ]; then
	echo "pid $$ (slurm submit; the merge job takes the lock when the array ends)" > "$DIR/holder"
	if [ "$todo" = 0 ]; then
		rc=0
		merge "$run" "$MIXED" || rc=$?
		rm -f "$olock_held"
		exit "$rc"
	fi
	cat > "$run/task.sh" <<-EOF
	#!/bin/sh
	# one Slurm array task: line SLURM_ARRAY_TASK_ID + 1 of todo
	cd '$ROOT' || exit 2
	line=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" '$run/todo')
	key=\$(printf '%s' "\$line" | cut -f1)
	input=\$(printf '%s' "\$line" | cut -f2-)
	exec sh scripts/study/campaign-worker.sh '$BIN' '$DIR/shards' "\$key" '$rev' '$dirty' "\$input" $flags
	EOF
	# shellcheck disable=SC2086
	array=$(sbatch --parsable $SBATCH --job-name=arenabench-shards --array=0-$((todo - 1)) \
		--ntasks=1 --cpus-per-task=1 --output="$run/slurm-%A_%a.out" --chdir="$ROOT" "$run/task.sh") ||
		die "sbatch refused the array"
	array=${array%%;*}
	# afterany: the merge runs even when a task failed, and names the shards missing
	# shellcheck disable=SC2086
	mjob=$(sbatch --parsable $SBATCH --job-name=arenabench-merge --dependency=afterany:"$array" \
		--ntasks=1 --output="$run/slurm-merge.out" --chdir="$ROOT" \
		--wrap="sh $me merge $([ "$MIXED" = yes ] && echo --accept-mixed) '$run'") || die "sbatch refused the merge job (array $array is queued: scancel $array)"
	mjob=${mjob%%;*}
	say "Slurm array $array ($todo tasks), merge job $mjob -> $OUT (log $run/slurm-merge.out)"
	# until they end, a run on this OUT is refused: OUT's lock names the
	# jobs, and the merge job takes it over when the array ends
	echo "pid=$$ host=$(uname -n) started=$(date -u +%Y-%m-%dT%H:%M:%SZ) command=campaign.sh slurm --out $OUT slurm_jobs=$array,$mjob" > "$olock_held"
	olock_held=
	flock -u 9
	flock -u 7
	[ "$WAIT" = yes ] || exit 0
	# waiting: progress from the shards' .meta files; a signal cancels both jobs
	# shellcheck disable=SC2064
	trap "scancel $array $mjob; say \"stopped: cancelled Slurm jobs $array and $mjob; \$OUT is unchanged, run again to resume\"; exit 2" INT TERM HUP
	last=-1
	while squeue -h -j "$array,$mjob" 2>/dev/null | grep -q .; do
		d=$(awk -F'\t' -v s="$DIR/shards" '{ f = s "/" $1 ".meta"; if ((getline l < f) > 0) n++; close(f) } END { print n + 0 }' "$run/todo")
		[ "$d" != "$last" ] || [ $((($(date +%s) - start) % 15)) = 0 ] && progress "$d"
		last=$d
		sleep 1
	done
	trap - INT TERM HUP
	cat "$run/slurm-merge.out" >&2 2>/dev/null || true
	[ "$(sacct -n -X -j "$mjob" -o ExitCode 2>/dev/null | tr -d ' ' | head -n 1)" = "0:0" ] ||
		grep -q "^campaign: wrote" "$run/slurm-merge.out" || die "the merge job failed (see $run/slurm-merge.out)"
	exit 0
fi

# --- run: GNU parallel over local slots or ssh hosts ---------------------------
[ -n "$RDIR" ] || RDIR=.arenabench-campaigns/$id
case $DIR in /*) rshards=$DIR/shards ;; *) rshards=$RDIR/$DIR/shards ;; esac
pid_parallel= pid_progress=
# Stopped by a signal: GNU parallel gets one SIGINT and stops its jobs,
# and at the same moment a first pass sends SIGTERM to every worker by the
# pid it wrote, here and on every host at once, so a worker parallel misses
# (one starting or ending as the signal came) is not left running until
# parallel has stopped.  Once parallel has stopped, a second pass stops a
# worker that wrote its pid after the first pass read them, and the
# temporary folders and the hosts' folders go.  (Which pid is still a
# worker: campaign-worker.sh --stop.)
stop() {
	trap - INT TERM HUP
	set +e
	[ -z "$pid_parallel" ] || kill -INT "$pid_parallel" 2>/dev/null
	[ -z "$pid_progress" ] || kill "$pid_progress" 2>/dev/null
	(stop_local & ssh_each "$stop_remote"; wait) 9>&- 7>&- &
	first_pass=$!
	[ -z "$pid_parallel" ] || wait "$pid_parallel" 2>/dev/null
	# a test's stand-in for a GNU parallel slow to stop (tests/campaign/part-ssh.sh)
	[ -z "${ARENABENCH_TEST_PARALLEL_STOP_DELAY:-}" ] || sleep "$ARENABENCH_TEST_PARALLEL_STOP_DELAY"
	wait "$first_pass"
	cleanup_local
	cleanup_remote
	say "stopped by SIG$1: $OUT is unchanged; $(ls "$DIR/shards" | grep -c '\.meta$' || true) shards are kept in $DIR/shards, run again to resume"
	rm -f "$olock_held"
	exit 2
}
# SIGTERM to the workers here that wrote their pid, and wait for them (at
# most 5 s; each removes its folder)
stop_local() { sh scripts/study/campaign-worker.sh --stop "$DIR/shards"; }
# the same on a host, with the worker script GNU parallel copied there
stop_remote="w='$RDIR/scripts/study/campaign-worker.sh'; [ ! -f \"\$w\" ] || sh \"\$w\" --stop '$rshards'"
# on_hosts COMMAND: runs it on every host at once (none without --hosts), at most 30 s
on_hosts() {
	[ -n "$HOSTS" ] || return 0
	timeout 30 parallel --nonall -S "$HOSTS" "$1" 2>/dev/null || true
}
# ssh_each COMMAND: the same through ssh itself, for the first pass (here
# `parallel --nonall` took 0.7 s where one ssh session took 0.4).  It reads
# the host forms [N/]host, [N/]user@host and [N/]ssh OPTIONS... host (with
# PARALLEL_SSH as parallel does) and skips ":" (this machine: stop_local);
# the second pass goes through parallel, so a form read wrongly here only
# costs the time the first pass would have saved.
ssh_each() {
	[ -n "$HOSTS" ] || return 0
	printf '%s\n' "$HOSTS" | tr ',' '\n' | {
		set -f
		while IFS= read -r login; do
			n=${login%%/*}
			case $n in '' | *[!0-9]*) ;; *) [ "$n" = "$login" ] || login=${login#*/} ;; esac
			# (a login or PARALLEL_SSH is a command: split into words)
			# shellcheck disable=SC2086
			case $login in
			'' | :) ;;
			*' '*) timeout 30 $login "$1" < /dev/null > /dev/null 2>&1 & ;;
			*) timeout 30 ${PARALLEL_SSH:-ssh} "$login" "$1" < /dev/null > /dev/null 2>&1 & ;;
			esac
		done
		wait
	}
}
# After the jobs: stop any worker left (by the pid it wrote), then remove
# the temporary folders (a worker killed outright never removes its own):
# no other run can use this DIR while we hold the lock.
cleanup_local() {
	stop_local
	rm -rf "$DIR"/shards/.tmp.*
}
cleanup_remote() {
	on_hosts "$stop_remote; rm -rf '$RDIR'; rmdir '$(dirname "$RDIR")' 2>/dev/null; true"
}
trap 'stop INT' INT
trap 'stop TERM' TERM
trap 'stop HUP' HUP

# shards finished by this run: the joblog's lines but its header
jobs_done() { [ -f "$run/joblog" ] && awk 'END { print (NR > 1 ? NR - 1 : 0) }' "$run/joblog" || echo 0; }
if [ "$todo" -gt 0 ]; then
	set -- --halt now,fail=1 --joblog "$run/joblog" --colsep '\t' -q
	if [ -n "$HOSTS" ]; then
		[ -z "$dimsfile" ] || set -- "$@" --basefile "$dimsfile"
		set -- "$@" -S "$HOSTS" --workdir "$RDIR" --basefile "$BIN" \
			--basefile scripts/study/campaign-worker.sh --transferfile '{2}' \
			--return "$DIR/shards/{1}.csv" --return "$DIR/shards/{1}.meta"
	else
		set -- "$@" -j "$JOBS"
	fi
	# parallel in a session of its own: a terminal's Ctrl-C reaches this
	# script, which sends parallel one SIGINT (a second one would make it
	# exit at once without stopping its jobs); parallel then stops every
	# job's process group, local and remote.
	# shellcheck disable=SC2086
	# A job on this machine (":" or "N/:" in HOSTS, GNU parallel's name
	# for it) runs in the tree, where its files are; GNU parallel neither
	# copies files for it nor leaves --workdir, so the job goes back here.
	setsid parallel "$@" sh -c '[ "$PARALLEL_SSHLOGIN" != : ] || cd "$0" || exit 2; exec sh "$@"' "$ROOT" \
		scripts/study/campaign-worker.sh "$BIN" "$DIR/shards" '{1}' "$rev" "$dirty" '{2}' $flags \
		:::: "$run/todo" < /dev/null &
	pid_parallel=$!
	# progress: shards done / total, elapsed, estimate (from the joblog)
	(
		last=-1
		while sleep 1; do
			d=$(jobs_done)
			[ "$d" = "$last" ] && [ $(( ($(date +%s) - start) % 15 )) != 0 ] && continue
			last=$d
			progress "$d"
		done
	) 9>&- 7>&- &
	pid_progress=$!
	rc=0
	wait "$pid_parallel" || rc=$?
	pid_parallel=
	kill "$pid_progress" 2>/dev/null || true
	pid_progress=
	# the last progress line, also for a run shorter than the ticker's second
	[ "$rc" != 0 ] || progress "$(jobs_done)"
	cleanup_local
	cleanup_remote
	if [ "$rc" != 0 ]; then
		# the joblog's Seq is the line of todo
		awk -F'\t' 'NR == FNR { input[FNR] = $2; next }
			FNR > 1 && ($7 != 0 || $8 != 0) {
			printf "'"$me"': shard for %s failed (%s)\n", input[$1], $8 != 0 ? "signal " $8 : "exit " $7 }' \
			"$run/todo" "$run/joblog" >&2
		die "$OUT is unchanged; the finished shards are kept in $DIR/shards (run again to resume)"
	fi
fi
trap - INT TERM HUP
rc=0
merge "$run" "$MIXED" || rc=$?
rm -f "$olock_held"
say "$(clock $(($(date +%s) - start))) for $todo shards ($where)"
exit "$rc"
