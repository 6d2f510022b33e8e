# make bench HOSTS=... over two ssh "hosts" = serial; SIGINT stops the
# remote workers too.
if ! command -v /usr/sbin/sshd >/dev/null || ! command -v rsync >/dev/null || [ "$(id -u)" != 0 ]; then
	skip "ssh: needs root, openssh-server and rsync (sh scripts/deps.sh campaign-test)"
else
	. "$HERE/sshd.sh"
	if sshd_start A && sshd_start B; then
		export PARALLEL_SSH="ssh -F $S/ssh_config"
		H="2/arenabench-test-A,2/arenabench-test-B"
		out=$W/ssh/results.csv
		mk bench HOSTS="$H" CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/ssh.log" ||
			bad "make bench HOSTS=... failed: $(tail -n 3 "$W/ssh.log")"
		same "$out" "$W/serial.csv" "make bench over two ssh hosts = serial bench"
		[ "$(ls -A "$S/hostA/.arenabench-campaigns" "$S/hostB/.arenabench-campaigns" 2>/dev/null | grep -v : | grep -c .)" = 0 ] &&
			ok "each host's campaign folder is removed at the end" || bad "left on the hosts: $(find "$S/hostA" "$S/hostB" -type f | head -n 3)"
		grep -q 'wrote.*(5 ran, 0 reused)' "$W/ssh.log" && ok "ssh: 5 shards ran" || bad "ssh: $(grep wrote "$W/ssh.log")"
		grep -q 'shards done.*elapsed.*left' "$W/ssh.log" && ok "ssh: progress (done/total, elapsed, estimate)" ||
			bad "ssh: no progress line in $W/ssh.log"
		# 4 slots (GNU parallel numbers them 1-4 across the hosts) on this
		# machine's CPUs: every shard pinned to one that exists here
		cpus=$(sed -n 's/^pinned_cpu=//p' "$BUILD"/campaigns/*campaign-test_ssh_results.csv/shards/*.meta | sort -u | paste -sd' ' -)
		n=0
		for c in $cpus; do [ "$c" -lt "$(nproc)" ] && n=$((n + 1)); done
		[ -n "$cpus" ] && [ "$n" = "$(echo "$cpus" | wc -w)" ] && ok "ssh: 4 slots pinned to CPUs of the host: $cpus" ||
			bad "ssh: pinned CPUs '$cpus' (the host has $(nproc))"
		# stop midway: no worker survives on the hosts.  With a worker GNU
		# parallel does not know on host A (as parallel misses one starting
		# or ending as the signal comes) and a parallel slow to stop (the
		# runner waits 3 s more after it, ARENABENCH_TEST_PARALLEL_STOP_DELAY):
		# the runner must stop that worker by the pid it wrote at once, not
		# after parallel has stopped (docs/campaigns.md, Stopping).
		out=$W/ssh-int/results.csv
		mkdir -p "$W/ssh-int"
		echo "previous results" > "$out"
		setsid env ARENABENCH_TEST_PARALLEL_STOP_DELAY=3 perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV or die' \
			make -s BUILD="$BUILD" bench HOSTS="$H" CORPUS_DIRS="$W/timed" BENCH_FLAGS="$TFLAGS" BENCH_OUT="$out" \
			> "$W/ssh-int.log" 2>&1 &
		pid=$!
		remote() { [ -n "$(ours "arenabench bench $W/timed")" ]; }
		# host A's campaign folder, once GNU parallel has copied the worker there
		host_a() { ra=$(ls -d "$S"/hostA/.arenabench-campaigns/*/scripts/study/campaign-worker.sh 2>/dev/null | head -n 1); [ -n "$ra" ]; }
		missed_runs() { [ -n "$(ours "arenabench bench $W/timed/unet_small_s1.graph .*--benchmark_repetitions=30")" ]; }
		rshards=$BUILD/campaigns/$(echo "$out" | sed 's|^\./||; s|/|_|g')/shards
		if wait_for 90 remote && wait_for 30 host_a; then
			ra=${ra%/scripts/study/campaign-worker.sh}
			mkdir -p "$ra/$W/timed"
			cp "$W/timed/unet_small_s1.graph" "$ra/$W/timed/"
			# (CPU locks of its own, so it plans at once; it writes its pid first)
			mkdir -p "$W/ssh-missed-tmp"
			mtmp=$(cd "$W/ssh-missed-tmp" && pwd)
			(cd "$ra" && TMPDIR=$mtmp exec sh scripts/study/campaign-worker.sh "$BIN" "$rshards" \
				000000000000000000000000 r no "$W/timed/unet_small_s1.graph" --benchmark_min_time=1 --benchmark_repetitions=30) \
				> "$W/ssh-missed.log" 2>&1 &
			missed=$!
			wait_for 10 missed_runs || bad "ssh: the worker parallel does not know is not planning: $(cat "$W/ssh-missed.log")"
			kill -0 "$pid" 2>/dev/null || bad "ssh: the campaign ended before the signal: $(tail -n 3 "$W/ssh-int.log")"
			t=$(now_ms)
			kill -INT -"$pid"
			if wait_for 10 eval '! remote'; then
				ms=$(($(now_ms) - t))
				[ "$ms" -le 2000 ] && ok "ssh: SIGINT stops the remote workers, one parallel does not know among them, in $ms ms" ||
					bad "ssh: remote workers gone only after $ms ms"
			else
				bad "ssh: remote workers survive SIGINT: $(ours "arenabench bench $W/timed" | head -n 2)"
			fi
			# (gone or a zombie: killed, not yet waited for)
			missed_ended() { st=$(cat "/proc/$missed/stat" 2>/dev/null) || return 0; st=${st##*) }; [ "${st%% *}" = Z ]; }
			wait_for 10 missed_ended || kill -KILL "$missed"
			wait "$missed"
			rc=$?
			[ "$rc" = 143 ] && ok "ssh: the worker parallel does not know was stopped by SIGTERM" ||
				bad "ssh: the worker parallel does not know exited $rc: $(tail -n 2 "$W/ssh-missed.log")"
			# make waits for the hosts' folders to be removed (an ssh round trip each, at most 30 s)
			wait_for 40 eval '! kill -0 "$pid" 2>/dev/null' && ok "ssh: make exits $(($(now_ms) - t)) ms after SIGINT" ||
				bad "ssh: make still runs 40 s after SIGINT"
			[ "$(cat "$out")" = "previous results" ] && ok "ssh: the previous results are untouched" || bad "ssh: $out changed"
			[ -z "$(find "$S/hostA" "$S/hostB" -type f)" ] && ok "ssh: nothing left on the hosts after SIGINT" ||
				bad "ssh: left on the hosts after SIGINT: $(find "$S/hostA" "$S/hostB" -type f | head -n 3)"
		else
			bad "ssh: no remote worker started within 90 s: $(tail -n 3 "$W/ssh-int.log")"
			kill -INT -"$pid" 2>/dev/null
		fi
		wait "$pid" 2>/dev/null
	else
		bad "ssh: sshd did not start: $(cat "$S"/sshd_*.log | tail -n 3)"
	fi
	unset PARALLEL_SSH
	sshd_stop
fi
