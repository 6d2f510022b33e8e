# Two campaigns at once on one tree: on two OUTs both are right; on one
# OUT the second refuses at once, naming the holder.
mkdir -p "$W/conc"
# shellcheck disable=SC2086
"$BIN" bench "$W/corpus/aa_second" --align 1,16,64 $FLAGS --quiet --out "$W/conc/serial-b.csv"
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$W/conc/a.csv" $CORPUS -- --align 1,16,64 $FLAGS 2> "$W/conc-a.log" &
pa=$!
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$W/conc/b.csv" "$W/corpus/aa_second" -- --align 1,16,64 $FLAGS 2> "$W/conc-b.log" &
pb=$!
wait "$pa" || bad "campaign A failed"
wait "$pb" || bad "campaign B failed"
same "$W/conc/a.csv" "$W/serial.csv" "two campaigns at once, two OUTs: A = its serial bench"
same "$W/conc/b.csv" "$W/conc/serial-b.csv" "two campaigns at once, two OUTs: B = its serial bench"
# one OUT: the zoo-like run holds it, a second one starting now must refuse
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$W/conc/same.csv" "$W/timed" -- --align 1,16,64 $TFLAGS 2> "$W/conc-c.log" &
pc=$!
wait_for 30 grep -q 'shards:' "$W/conc-c.log"
t=$(now_ms)
# shellcheck disable=SC2086
if sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$W/conc/same.csv" $CORPUS -- --align 1,16,64 $FLAGS 2> "$W/conc-d.log"; then
	bad "a second campaign on the same OUT ran"
else
	ms=$(($(now_ms) - t))
	grep -q "in use by pid=$pc host=" "$W/conc-d.log" && [ "$ms" -lt 3000 ] &&
		ok "the second campaign on one OUT refuses in $ms ms, naming pid $pc" ||
		bad "the second campaign's refusal ($ms ms): $(cat "$W/conc-d.log")"
fi
wait "$pc" || bad "the first campaign on the shared OUT failed"
same_untimed "$W/conc/same.csv" "$W/timed-serial.csv" "the first campaign's CSV is its own"
