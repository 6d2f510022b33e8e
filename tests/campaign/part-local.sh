# make bench -j2 equals one arenabench bench; a second run reuses every
# shard; a new input runs alone.
out=$W/local/results.csv
mk bench -j2 CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/local.log" ||
	bad "make bench -j2 failed: $(tail -n 3 "$W/local.log")"
same "$out" "$W/serial.csv" "make bench -j2 = serial bench (every column, row order)"
grep -q '^shards_ran=5$' "${out%.csv}.meta" && grep -q '^parallel_jobs=2$' "${out%.csv}.meta" &&
	grep -q "^hosts=$(uname -n):5$" "${out%.csv}.meta" && ok "merged .meta: 5 shards ran, 2 jobs, the host" ||
	bad "merged .meta lacks shards_ran=5, parallel_jobs=2 or hosts: $(cat "${out%.csv}.meta")"
grep -q 'shards done.*elapsed.*left' "$W/local.log" && ok "progress: done/total, elapsed, estimate" ||
	bad "no progress line in $W/local.log"
# the campaign ends with the summary that closes `arenabench bench`
# shellcheck disable=SC2086
"$BIN" bench $CORPUS --align 1,16,64 $FLAGS --out "$W/summary-bench.csv" 2>&1 >/dev/null | sed -n '/^summary (/,/^arenabench:/p' | sed '$d' > "$W/summary.txt"
[ -s "$W/summary.txt" ] && [ -z "$(grep -vxFf "$W/local.log" "$W/summary.txt")" ] &&
	ok "make bench -j2 ends with bench's per-planner summary" ||
	bad "the campaign's log lacks bench's summary: $(cat "$W/summary.txt")"
mk bench -j2 CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/local2.log" || bad "second make bench failed"
grep -q '(0 ran, 5 reused)' "$W/local2.log" && ok "second run: 0 ran, 5 reused" || bad "second run did not reuse: $(cat "$W/local2.log")"
same "$out" "$W/serial.csv" "reused shards give the same CSV"
cp graphs/starter/chain_24k.graph "$W/corpus/aa_second/"
# shellcheck disable=SC2086
"$BIN" bench $CORPUS --align 1,16,64 $FLAGS --quiet --out "$W/serial6.csv"
mk bench -j2 CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/local3.log" || bad "third make bench failed"
grep -q '(1 ran, 5 reused)' "$W/local3.log" && ok "a new input: 1 ran, 5 reused" || bad "new input: $(cat "$W/local3.log")"
same "$out" "$W/serial6.csv" "with the new input = serial bench"
rm "$W/corpus/aa_second/chain_24k.graph"
