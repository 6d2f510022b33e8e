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
# A missing tool is named with its Debian package, before any work: PATH
# holds stand-ins for the campaign's tools but the one taken away.
T=$W/tools
mkdir -p "$T"
ln -sf "$(command -v dirname)" "$T/dirname"
for t in parallel flock sha256sum ssh rsync sbatch; do printf '#!/bin/sh\nexit 0\n' > "$T/$t"; chmod +x "$T/$t"; done
for case in "parallel parallel run" "ssh openssh-client run --hosts 2/h1" "rsync rsync run --hosts 2/h1" "sbatch slurm-client slurm"; do
	# shellcheck disable=SC2086
	set -- $case
	t=$1 pkg=$2
	shift 2
	mv "$T/$t" "$T/$t.away"
	if PATH=$T /bin/sh scripts/study/campaign.sh "$@" --out "$W/tools/x.csv" graphs/starter 2> "$W/tools.log"; then
		bad "a campaign without $t ran"
	elif grep -q "'$t' is not installed (Debian package $pkg: " "$W/tools.log" && [ ! -e "$W/tools/x.csv" ]; then
		ok "without $t the campaign stops at once naming the package $pkg"
	else
		bad "without $t: $(cat "$W/tools.log")"
	fi
	mv "$T/$t.away" "$T/$t"
done
