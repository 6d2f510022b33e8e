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
# A shard whose header differs, one whose schema_version differs, each with
# a .meta that matches it (checksum and rows recomputed): the merge refuses
# both by name.
run=$(sed -n 's/^campaign=//p' "${out%.csv}.meta")
k4=$(sed -n 4p "$run/plan" | cut -f1) k5=$(sed -n 5p "$run/plan" | cut -f1)
cp "$sdir/$k4.csv" "$sdir/$k4.meta" "$sdir/$k5.csv" "$sdir/$k5.meta" "$W/corrupt/"
reseal() { sed -i "s/^csv_sha256=.*/csv_sha256=$(sha256sum "$1.csv" | cut -d' ' -f1)/" "$1.meta"; }
sed -i '1s/^schema_version,/schema,/' "$sdir/$k4.csv" && reseal "$sdir/$k4"
sed -i '3s/^[0-9]*,/999,/' "$sdir/$k5.csv" && reseal "$sdir/$k5"
if sh scripts/study/campaign.sh merge "$run" 2> "$W/corrupt-merge2.log"; then
	bad "the merge took a shard with another header and one with another schema_version"
else
	grep -q "$k4.csv (.*): its header differs from the first shard's" "$W/corrupt-merge2.log" &&
		grep -q "$k5.csv (.*): schema_version differs from " "$W/corrupt-merge2.log" &&
		ok "the merge refuses a shard with another header and one with another schema_version, by name" ||
		bad "header/schema refusal: $(cat "$W/corrupt-merge2.log")"
fi
same "$out" "$W/serial.csv" "and leaves OUT as it was"
cp "$W/corrupt/$k4.csv" "$W/corrupt/$k4.meta" "$W/corrupt/$k5.csv" "$W/corrupt/$k5.meta" "$sdir/"
