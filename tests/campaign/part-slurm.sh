# make bench-slurm on a one-node Slurm started here = serial.
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
	else
		bad "slurm: the cluster did not come up: $(tail -n 3 "$L"/*.log "$L"/*.err 2>/dev/null | tail -n 6)"
	fi
	slurm_stop
fi
