# Two ssh "hosts" on loopback for part-ssh.sh (sourced): two sshd on free
# 127.0.0.1 ports with a host key and a client key made here, each running
# its sessions in its own directory (ForceCommand), so the hosts do not
# share a working directory.  Each is a Host in $S/ssh_config
# (arenabench-test-NAME), which GNU parallel's ssh reads through
# PARALLEL_SSH, so HOSTS is written as for real hosts.  sshd_stop stops
# them by pid.
S=$(cd "$W" && pwd)/ssh
mkdir -p "$S/hostA" "$S/hostB"
ssh-keygen -q -t ed25519 -N '' -f "$S/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$S/userkey"
cp "$S/userkey.pub" "$S/authorized_keys"
cat > "$S/ssh_config" <<EOC
Host *
  IdentityFile $S/userkey
  IdentitiesOnly yes
  UserKnownHostsFile $S/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  LogLevel ERROR
EOC
mkdir -p /run/sshd # sshd's privilege separation directory
sshd_pids=
sshd_start() { # sshd_start NAME: starts one; sets port
	for try in 1 2 3 4 5 6 7 8; do
		port=$(random_port)
		cat > "$S/sshd_$1.conf" <<EOC
ListenAddress 127.0.0.1
Port $port
HostKey $S/hostkey
AuthorizedKeysFile $S/authorized_keys
PidFile $S/sshd_$1.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
ForceCommand cd $S/host$1 && eval "\$SSH_ORIGINAL_COMMAND"
EOC
		/usr/sbin/sshd -f "$S/sshd_$1.conf" -D -e 2> "$S/sshd_$1.log" &
		p=$!
		if wait_for 10 grep -q 'Server listening' "$S/sshd_$1.log"; then
			sshd_pids="$sshd_pids $p"
			# the host's name for ssh (and so for GNU parallel's -S)
			printf 'Host arenabench-test-%s\n  HostName 127.0.0.1\n  Port %s\n  User root\n' "$1" "$port" >> "$S/ssh_config"
			return 0
		fi
		kill "$p" 2>/dev/null
	done
	return 1
}
sshd_stop() {
	for p in $sshd_pids; do kill "$p" 2>/dev/null; done
	for p in $sshd_pids; do wait "$p" 2>/dev/null; done
	sshd_pids=
}
