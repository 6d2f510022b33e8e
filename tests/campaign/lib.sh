# Shared helpers of tests/campaign/ (sourced).
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "  ok: $*" >&2; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*" >&2; }
skip() {
	if [ "${CI:-}" = true ]; then
		bad "$* (CI must run it)"
	else
		skipped=$((skipped + 1)); echo "  skipped: $*" >&2
	fi
}
fail_now() { echo "test-campaign: $*" >&2; exit 1; }
finish() {
	echo "test-campaign: $passed passed, $failed failed, $skipped skipped" >&2
	[ "$failed" = 0 ]
}
# same FILE1 FILE2 WHAT: byte-identical
same() {
	if cmp -s "$1" "$2"; then ok "$3"; else bad "$3: $1 differs from $2"; diff "$1" "$2" | head -n 5 >&2; fi
}
# untimed CSV: the CSV without its timing columns, by name
untimed() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i == "plan_ns" || $i == "plan_ns_stddev" || $i == "reorder_ns") }
		{ s = ""; for (i = 1; i <= NF; i++) if (!drop[i]) s = s (s == "" ? "" : ",") $i; print s }' "$1"
}
same_untimed() {
	untimed "$1" > "$1.untimed"
	untimed "$2" > "$2.untimed"
	same "$1.untimed" "$2.untimed" "$3"
}
# arenabench processes of this test: argv names the test folder and the
# working directory is in this tree (another worktree's campaign test has
# the same relative paths); prints pids.  ours [PATTERN]
ours() {
	for p in $(pgrep -f "${1:-arenabench bench .*$W}"); do
		case $(readlink "/proc/$p/cwd" 2>/dev/null) in "$TREE" | "$TREE"/*) echo "$p" ;; esac
	done
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# A random port for a test service, below the kernel's range of ephemeral
# ports (32768 up, where a connection's own end may hold it); the caller
# tries another when the service cannot bind it.
random_port() { echo $((20000 + $(od -An -N2 -tu2 /dev/urandom) % 12000)); }
# wait_for SECONDS COMMAND...: polls every 0.1 s; 0 once COMMAND succeeds,
# 1 after SECONDS of wall time (however long each COMMAND takes)
wait_for() {
	wf_end=$(($(now_ms) + $1 * 1000))
	shift
	while :; do
		"$@" && return 0
		[ "$(now_ms)" -lt "$wf_end" ] || return 1
		sleep 0.1
	done
}
# A full disk (root only): full_disk DIR FREE_PAGES mounts (once) a 256 KiB
# tmpfs at DIR, puts the previous pair results.csv/.meta there and fills
# it to leave FREE_PAGES pages of 4 KiB; full_disk_kept DIR LOG WHAT then
# checks the previous pair byte for byte, nothing else left, and that LOG
# names the cause.  full_disk_end DIR unmounts it.
full_disk() {
	mountpoint -q "$1" || { mkdir -p "$1" && mount -t tmpfs -o size=256k tmpfs "$1"; } || return 1
	rm -rf "${1:?}"/* "$1"/.[!.]*
	printf 'old csv\n' > "$1/results.csv"
	printf 'old meta\n' > "$1/results.meta"
	dd if=/dev/zero of="$1/fill" bs=4096 count=$((64 - 2 - $2)) 2>/dev/null || true
}
full_disk_kept() {
	if [ "$(cat "$1/results.csv")" = "old csv" ] && [ "$(cat "$1/results.meta")" = "old meta" ] &&
		[ "$(ls -A "$1" | tr '\n' ' ')" = "fill results.csv results.meta " ]; then
		ok "$3: the previous results are byte-identical, nothing else left"
	else
		bad "$3: $1 holds $(ls -A "$1" | tr '\n' ' '): $(head -c 40 "$1/results.csv")"
	fi
	grep -q 'No space left on device\|cannot write\|write error' "$2" && ok "$3: the cause is named" ||
		bad "$3: the cause is not named: $(tail -n 3 "$2")"
}
full_disk_end() { umount "$1" 2>/dev/null; rmdir "$1" 2>/dev/null || true; }
# pages FILE: its size in 4 KiB pages, rounded up
pages() { echo $((($(wc -c < "$1") + 4095) / 4096)); }
