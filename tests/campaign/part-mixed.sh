# Shards of two binaries: a run takes the other binary's shards only with
# --accept-mixed, the merge refuses the mix without it (naming each shard),
# and the merged .meta says what was mixed.
M=$W/mixed
mkdir -p "$M/b2"
# a second binary: the same program plus one byte at the end (another
# sha256, the same rows)
cp "$BIN" "$M/b2/arenabench"
printf x >> "$M/b2/arenabench"
sa=$(sha256sum "$BIN" | cut -d' ' -f1)
sb=$(sha256sum "$M/b2/arenabench" | cut -d' ' -f1)
camp() { sh scripts/study/campaign.sh run --jobs 2 --dir "$M/camp" --out "$M/results.csv" "$@" -- --align 1,16,64 $FLAGS; }
# binary A: the 2 inputs of zz_first
camp --build "$BUILD" "$W/corpus/zz_first" 2> "$M/a.log" || bad "mixed: the run of binary A failed: $(tail -n 2 "$M/a.log")"
# binary B, told: A's 2 shards are taken, the 3 of aa_second run
# shellcheck disable=SC2086
camp --build "$M/b2" --accept-mixed $CORPUS 2> "$M/b.log" || bad "mixed: the --accept-mixed run failed: $(tail -n 2 "$M/b.log")"
grep -q '5 shards: 2 reused (2 of another revision or binary, --accept-mixed), 3 to run' "$M/b.log" &&
	grep -q '(3 ran, 2 reused)' "$M/b.log" && ok "--accept-mixed takes binary A's 2 shards and runs the other 3" ||
	bad "--accept-mixed: $(grep 'shards:\|wrote' "$M/b.log")"
same "$M/results.csv" "$W/serial.csv" "--accept-mixed: the CSV = serial bench"
meta=$M/results.meta
# A's 2 shards and B's 3, values in byte order as the merge sorts them
if [ "$sa" \< "$sb" ]; then both="$sa|$sb" counts="$sa:2,$sb:3"; else both="$sb|$sa" counts="$sb:3,$sa:2"; fi
grep -qx 'accept_mixed=yes' "$meta" && grep -qx "binary_sha256=$both" "$meta" &&
	grep -qx "shards_by_binary_sha256=$counts" "$meta" &&
	ok "--accept-mixed: the merged .meta says accept_mixed=yes and 2 shards of A, 3 of B" ||
	bad "--accept-mixed: the merged .meta: $(grep 'mixed\|binary' "$meta")"
# the same run's merge, not told: it refuses A's 2 shards by name
run=$(sed -n 's/^campaign=//p' "$meta")
cp "$M/results.csv" "$M/before.csv"
if sh scripts/study/campaign.sh merge "$run" 2> "$M/merge.log"; then
	bad "the merge took shards of two binaries without --accept-mixed"
else
	n=$(grep -c "(.*zz_first/.*): its binary_sha256 differs from this campaign's ($sa); --accept-mixed takes it" "$M/merge.log")
	[ "$n" = 2 ] && grep -q '2 of 5 shards missing or bad' "$M/merge.log" &&
		ok "without --accept-mixed the merge refuses the 2 shards of binary A by name" ||
		bad "the merge's refusal of a mix: $(cat "$M/merge.log")"
fi
same "$M/results.csv" "$M/before.csv" "the refused merge leaves OUT as it was"
# not told: a run of binary B does not take A's shards, it runs them again
# shellcheck disable=SC2086
camp --build "$M/b2" $CORPUS 2> "$M/c.log" || bad "mixed: the run without --accept-mixed failed"
grep -q '(2 ran, 3 reused)' "$M/c.log" && grep -qx 'accept_mixed=no' "$meta" && grep -qx "binary_sha256=$sb" "$meta" &&
	ok "without --accept-mixed binary A's 2 shards run again (2 ran, 3 reused), one binary in the .meta" ||
	bad "without --accept-mixed: $(grep wrote "$M/c.log") $(grep 'mixed\|binary' "$meta")"
