# make bench-slurm on a one-node Slurm started here = serial; the array
# cancelled midway (scancel) leaves OUT as it was and resumes to the
# serial CSV.
if ! command -v /usr/sbin/slurmctld >/dev/null || ! command -v /usr/sbin/munged >/dev/null || [ "$(id -u)" != 0 ]; then
	skip "slurm: needs root, slurm-wlm and munge (sh scripts/deps.sh campaign-test)"
else
	. "$HERE/slurmd.sh"
	if slurm_start; then
		out=$W/slurm-out/results.csv
		mk bench-slurm SLURM_WAIT=1 CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/slurm.log" ||
			bad "make bench-slurm failed: $(tail -n 4 "$W/slurm.log")"
		same "$out" "$W/serial.csv" "make bench-slurm (a job array and a merge job) = serial bench"
		grep -q '^shards_ran=5$' "${out%.csv}.meta" && ok "slurm: 5 shards ran as array tasks" ||
			bad "slurm: $(grep shards "${out%.csv}.meta" 2>/dev/null)"
		grep -q 'shards done.*elapsed.*left' "$W/slurm.log" && ok "slurm: progress while waiting (done/total, elapsed, estimate)" ||
			bad "slurm: no progress line in $W/slurm.log"

		# cancel the array midway: OUT stays, no task survives, the merge
		# job names the missing shards, and a second submission resumes
		out=$W/slurm-int/results.csv
		sd=$BUILD/campaigns/$(echo "$out" | sed 's|/|_|g')
		mkdir -p "$W/slurm-int"
		echo "previous results" > "$out"
		echo "previous meta" > "${out%.csv}.meta"
		mk bench-slurm CORPUS_DIRS="$W/timed" BENCH_FLAGS="$TFLAGS" BENCH_OUT="$out" 2> "$W/slurm-int.log" ||
			bad "slurm: the submission failed: $(tail -n 3 "$W/slurm-int.log")"
		array=$(sed -n 's/.*Slurm array \([0-9]*\) .*/\1/p' "$W/slurm-int.log")
		some_done() { [ "$(ls "$sd"/shards/*.meta 2>/dev/null | wc -l)" -ge 1 ] && [ -n "$(ours)" ]; }
		if [ -n "$array" ] && wait_for 90 some_done; then
			# while its jobs are queued or run, another run on this OUT is refused
			if sh scripts/study/campaign.sh run --build "$BUILD" --out "$out" "$W/timed" 2> "$W/slurm-busy.log"; then
				bad "slurm: a run on an OUT whose Slurm jobs run was not refused"
			else
				grep -q "in use by Slurm jobs $array," "$W/slurm-busy.log" &&
					ok "slurm: a run on the same OUT while the array runs is refused, naming the jobs" ||
					bad "slurm: the refusal: $(cat "$W/slurm-busy.log")"
			fi
			scancel "$array"
			t=$(now_ms)
			gone() { ! squeue -h 2>/dev/null | grep -q . && [ -z "$(ours)" ]; }
			wait_for 60 gone && ok "slurm: scancel of the array: no task left after $(($(now_ms) - t)) ms, the merge job ended" ||
				bad "slurm: after scancel: $(squeue -h 2>&1 | head -n 3) $(ours)"
			[ "$(cat "$out")" = "previous results" ] && [ "$(cat "${out%.csv}.meta")" = "previous meta" ] &&
				ok "slurm: the previous results are untouched" || bad "slurm: $out or its .meta changed"
			grep -q 'shards missing or bad; .* is unchanged' "$(ls "$sd"/runs/*/slurm-merge.out)" &&
				ok "slurm: the merge job names the missing shards and leaves OUT" ||
				bad "slurm: the merge job's log: $(cat "$sd"/runs/*/slurm-merge.out)"
			ls "$sd"/shards/.tmp.* >/dev/null 2>&1 && bad "slurm: a cancelled task left its temporary folder"
			kept=$(ls "$sd"/shards/*.meta | wc -l)
			mk bench-slurm SLURM_WAIT=1 CORPUS_DIRS="$W/timed" BENCH_FLAGS="$TFLAGS" BENCH_OUT="$out" 2> "$W/slurm-resume.log" ||
				bad "slurm: the resume failed: $(tail -n 3 "$W/slurm-resume.log")"
			grep -q "$kept reused)" "$W/slurm-resume.log" && ok "slurm: the resume reused the $kept finished shards" ||
				bad "slurm: the resume did not reuse $kept shards: $(grep wrote "$W/slurm-resume.log")"
			same_untimed "$out" "$W/timed-serial.csv" "slurm: resumed CSV = serial bench (non-timing columns)"
		else
			bad "slurm: no array id, or no shard finished within 90 s: $(tail -n 3 "$W/slurm-int.log")"
			[ -z "$array" ] || scancel "$array"
		fi
		# a full disk during the merge job: it fails, the previous results stay
		D=$W/slurm-full
		if full_disk "$D" 3; then
			if mk bench-slurm SLURM_WAIT=1 CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$D/results.csv" \
				2> "$W/slurm-full.log"; then
				bad "slurm: the merge job on a full disk succeeded"
			else
				full_disk_kept "$D" "$W/slurm-full.log" "slurm: the merge job on a full disk"
			fi
			full_disk_end "$D"
		else
			skip "slurm: merge on a full disk: cannot mount a tmpfs here"
		fi
	else
		bad "slurm: the cluster did not come up: $(tail -n 3 "$L"/*.log "$L"/*.err 2>/dev/null | tail -n 6)"
	fi
	slurm_stop
fi
