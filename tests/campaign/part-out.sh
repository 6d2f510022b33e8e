# bench --out into a missing folder fails before planning, at once, with
# nothing written; the campaign checks OUT's folder before any shard.
rm -rf "$W/missing"
t=$(now_ms)
if "$BIN" bench graphs/starter graphs/synthetic --out "$W/missing/dir/x.csv" --quiet 2> "$W/out.log"; then
	bad "bench --out into a missing folder succeeded"
else
	ms=$(($(now_ms) - t))
	[ "$ms" -lt 500 ] && [ ! -e "$W/missing" ] && grep -q "$W/missing/dir" "$W/out.log" &&
		ok "bench --out into a missing folder fails in $ms ms, naming it, writing nothing" ||
		bad "bench --out into a missing folder: $ms ms, $(ls -R "$W/missing" 2>/dev/null | head -n 3) $(cat "$W/out.log")"
fi
mkdir -p "$W/ro"
: > "$W/ro/file"
t=$(now_ms)
if sh scripts/study/campaign.sh run --build "$BUILD" --out "$W/ro/file/x.csv" graphs/starter 2> "$W/out2.log"; then
	bad "a campaign into an impossible folder succeeded"
else
	ms=$(($(now_ms) - t))
	! ls "$BUILD"/campaigns/*ro_file* >/dev/null 2>&1 && grep -q "$W/ro/file" "$W/out2.log" &&
		ok "a campaign into an impossible folder fails in $ms ms before any shard" ||
		bad "campaign into $W/ro/file: $(cat "$W/out2.log")"
fi
