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
# wait_for SECONDS COMMAND...: polls every 0.1 s; 0 once COMMAND succeeds
wait_for() {
	n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
