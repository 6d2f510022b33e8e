# Stop a campaign midway four ways; the previous results stay, no worker
# survives (INT, TERM, HUP), and running again resumes to the serial CSV.
campdir() { echo "$BUILD/campaigns/$(echo "$1" | sed 's|^\./||; s|/|_|g')"; }
shards_done() { ls "$1"/shards/*.meta 2>/dev/null | wc -l; }
some_done() { [ "$(shards_done "$1")" -ge 1 ] && [ -n "$(ours)" ]; }
pick_victim() { victim=$(ours "^$BIN bench .*$W" | head -n 1); [ -n "$victim" ]; }
none_left() { [ -z "$(ours)" ] && ! kill -0 "$2" 2>/dev/null; }
for how in INT TERM HUP KILL; do
	out=$W/kill-$how/results.csv
	cd_=$(campdir "$out")
	mkdir -p "$W/kill-$how"
	echo "previous results" > "$out"
	echo "previous meta" > "${out%.csv}.meta"
	# setsid: a process group of its own, as a terminal gives a foreground
	# job; perl: SIGINT as a terminal leaves it (a background job of a
	# script starts with SIGINT ignored, and sh could not trap it then),
	# and SIGHUP too (under nohup, as `nohup make test`, it starts ignored,
	# so the campaign rightly ignores the hangup and the test would fail)
	setsid perl -e '$SIG{INT} = $SIG{QUIT} = $SIG{HUP} = "DEFAULT"; exec @ARGV or die "exec: $!"' make -s BUILD="$BUILD" bench -j2 CORPUS_DIRS="$W/timed" BENCH_FLAGS="$TFLAGS" BENCH_OUT="$out" \
		> "$W/kill-$how.log" 2>&1 &
	pid=$!
	if ! wait_for 60 some_done "$cd_"; then
		bad "$how: no shard finished within 60 s, or all finished at once"
		kill -TERM -"$pid" 2>/dev/null
		continue
	fi
	t=$(now_ms)
	case $how in
	INT) kill -INT -"$pid"; what="SIGINT to the process group" ;;
	TERM) kill -TERM "$pid"; what="SIGTERM to make alone" ;;
	HUP) kill -HUP -"$pid"; what="SIGHUP to the process group (a hangup)" ;;
	KILL)
		# between two shards no worker runs for a moment: wait for the next
		if ! wait_for 10 pick_victim; then
			bad "SIGKILL of worker: no worker running within 10 s"
			kill -TERM -"$pid" 2>/dev/null
			continue
		fi
		kill -KILL "$victim"; what="SIGKILL of worker $victim" ;;
	esac
	if wait_for 10 none_left x "$pid"; then
		ms=$(($(now_ms) - t))
		if [ "$how" = KILL ] || [ "$ms" -le 2000 ]; then
			ok "$what: every worker and make gone after $ms ms"
		else
			bad "$what: workers gone only after $ms ms (over 2 s)"
		fi
	else
		bad "$what: workers survive 10 s later: $(ours | tr '\n' ' ')"
		for p in $(ours); do kill -KILL "$p"; done
	fi
	wait "$pid" 2>/dev/null && bad "$what: make exited 0"
	[ "$(cat "$out")" = "previous results" ] && [ "$(cat "${out%.csv}.meta")" = "previous meta" ] &&
		ok "$what: the previous results are untouched" || bad "$what: $out or its .meta changed"
	kept=$(shards_done "$cd_")
	ls "$cd_"/shards/.tmp.* >/dev/null 2>&1 && bad "$what: a worker's temporary folder was left in $cd_/shards"
	[ "$how" = KILL ] && { grep -q 'shard for .* failed' "$W/kill-$how.log" && ok "$what: the failed shard is named" ||
		bad "$what: no failed shard named in $W/kill-$how.log"; }
	mk bench -j2 CORPUS_DIRS="$W/timed" BENCH_FLAGS="$TFLAGS" BENCH_OUT="$out" 2> "$W/kill-$how-resume.log" ||
		bad "$what: resuming failed: $(tail -n 2 "$W/kill-$how-resume.log")"
	grep -q "$kept reused)" "$W/kill-$how-resume.log" && ok "$what: the resume reused the $kept finished shards" ||
		bad "$what: the resume did not reuse $kept shards: $(grep wrote "$W/kill-$how-resume.log")"
	same_untimed "$out" "$W/timed-serial.csv" "$what: resumed CSV = serial bench (non-timing columns)"
done
