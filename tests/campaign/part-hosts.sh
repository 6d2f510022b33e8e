# Every host form of GNU parallel's --sshlogin gives the serial CSV
# (issue 28): this machine as ":" and "2/:", a mix "1/host,1/:",
# "user@host", and a host with a port in GNU parallel's form ("ssh -p PORT
# user@host"), over the loopback sshd of sshd.sh; then a full disk during
# the merge of an ssh campaign (root: a small tmpfs) exits non-zero and
# keeps the previous results byte for byte.
hosts_case() { # hosts_case WHAT HOSTS
	out=$W/hosts/$(echo "$1" | tr -c 'a-z0-9\n' _).csv
	rm -f "$out"
	if mk bench HOSTS="$2" CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$out" 2> "$W/hosts.log"; then
		same "$out" "$W/serial.csv" "HOSTS='$2' ($1) = serial bench"
	else
		bad "HOSTS='$2' ($1) failed: $(tail -n 3 "$W/hosts.log")"
	fi
}
mkdir -p "$W/hosts"
hosts_case "this machine" ":"
hosts_case "this machine, 2 slots" "2/:"
[ ! -e .arenabench-campaigns ] && ok "no work folder left in the tree by ':' jobs" ||
	bad "':' jobs left $(ls -A .arenabench-campaigns | head -n 3) in the tree"
if ! command -v /usr/sbin/sshd >/dev/null || ! command -v rsync >/dev/null || [ "$(id -u)" != 0 ]; then
	skip "host forms over ssh: needs root, openssh-server and rsync (sh scripts/deps.sh campaign-test)"
else
	rm -rf "$W/ssh"
	. "$HERE/sshd.sh"
	if sshd_start A; then
		export PARALLEL_SSH="ssh -F $S/ssh_config"
		hosts_case "a host and this machine" "1/arenabench-test-A,1/:"
		hosts_case "user@host" "2/root@arenabench-test-A"
		hosts_case "a host with a port" "2/ssh -F $S/ssh_config -p $port root@127.0.0.1"
		# a full disk during an ssh campaign's merge
		D=$W/hosts/full
		if full_disk "$D" 3; then
			if mk bench HOSTS="2/arenabench-test-A" CORPUS_DIRS="$CORPUS" BENCH_FLAGS="$FLAGS" BENCH_OUT="$D/results.csv" \
				2> "$W/hosts-full.log"; then
				bad "ssh merge on a full disk exited 0"
			else
				full_disk_kept "$D" "$W/hosts-full.log" "ssh merge on a full disk"
			fi
			full_disk_end "$D"
		else
			skip "ssh merge on a full disk: cannot mount a tmpfs here"
		fi
		unset PARALLEL_SSH
	else
		bad "host forms: sshd did not start: $(tail -n 3 "$S"/sshd_*.log)"
	fi
	sshd_stop
	rm -rf "$W/ssh"
fi
