# A corrupt shard: the merge refuses it by name; the next run redoes it alone.
out=$W/corrupt/results.csv
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$out" $CORPUS -- --align 1,16,64 $FLAGS 2> "$W/corrupt.log" ||
	bad "campaign failed: $(tail -n 2 "$W/corrupt.log")"
run=$(sed -n 's/^campaign=//p' "${out%.csv}.meta")
victim=$(sed -n 3p "$run/plan" | cut -f1)
vname=$(sed -n 3p "$run/plan" | cut -f2)
sdir=$(dirname "$run")/../shards
sed -i '2s/,yes,/,no,/' "$sdir/$victim.csv"
cp "$out" "$W/corrupt/before.csv"
if sh scripts/study/campaign.sh merge "$run" 2> "$W/corrupt-merge.log"; then
	bad "the merge took a corrupt shard"
else
	grep -q "$victim.csv ($vname).*checksum" "$W/corrupt-merge.log" &&
		ok "the merge refuses the corrupt shard by name: $(grep -o 'shard [^ ]*' "$W/corrupt-merge.log" | head -n 1)" ||
		bad "the merge's message does not name $victim: $(cat "$W/corrupt-merge.log")"
fi
same "$out" "$W/corrupt/before.csv" "the refused merge leaves OUT as it was"
rm "$sdir/$(sed -n 1p "$run/plan" | cut -f1).meta"
# shellcheck disable=SC2086
sh scripts/study/campaign.sh run --build "$BUILD" --jobs 2 --out "$out" $CORPUS -- --align 1,16,64 $FLAGS 2> "$W/corrupt2.log" ||
	bad "the run after the corruption failed"
grep -q '(2 ran, 3 reused)' "$W/corrupt2.log" && ok "the next run redoes the corrupt shard and the one without .meta (2 ran, 3 reused)" ||
	bad "the next run: $(grep wrote "$W/corrupt2.log")"
same "$out" "$W/serial.csv" "and the CSV is the serial one again"
