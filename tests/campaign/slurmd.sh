# A one-node Slurm cluster for part-slurm.sh (sourced): a munge key made
# here, munged on its own socket, slurm.conf for this machine (its name and
# CPU count, free ports, state in $W/slurm), slurmctld and slurmd in the
# foreground; slurm_stop stops the three by pid.
L=$(cd "$W" && pwd)/slurm
mkdir -p "$L/state" "$L/spool" "$L/munge"
chmod 700 "$L/munge"
node=$(hostname -s)
ncpu=$(nproc)
mungekey -c -k "$L/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$L/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$L/munge/munge.key"
slurm_pids=
# slurm.conf with two ports from a random base (random_port)
slurm_conf() {
	port0=$(random_port)
	cat > "$L/slurm.conf" <<EOC
ClusterName=arenabench-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port0
SlurmdPort=$((port0 + 1))
AuthType=auth/munge
AuthInfo=socket=$L/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$L/state
SlurmdSpoolDir=$L/spool
SlurmctldPidFile=$L/slurmctld.pid
SlurmdPidFile=$L/slurmd.pid
SlurmctldLogFile=$L/slurmctld.log
SlurmdLogFile=$L/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=300
NodeName=$node CPUs=$ncpu State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOC
}
slurm_conf
export SLURM_CONF="$L/slurm.conf"
# Starts munged, then slurmctld on a port it can bind (it exits at once
# when the port is taken: another base is tried, up to eight), then slurmd;
# ready when the node is idle.  Each sinfo is bounded: with no controller
# one can wait for its own timeouts.
slurm_start() {
	/usr/sbin/munged -F --force --key-file="$L/munge/munge.key" --socket="$L/munge/munge.socket" \
		--pid-file="$L/munge/munged.pid" --log-file="$L/munge/munged.log" --seed-file="$L/munge/seed" 2> "$L/munged.err" &
	slurm_pids="$!"
	wait_for 10 test -S "$L/munge/munge.socket" || return 1
	for try in 1 2 3 4 5 6 7 8; do
		: > "$L/slurmctld.log"
		/usr/sbin/slurmctld -D -f "$SLURM_CONF" 2> "$L/slurmctld.err" &
		ctld=$!
		listening() { grep -q 'Running as primary controller' "$L/slurmctld.log" && kill -0 "$ctld" 2>/dev/null; }
		if wait_for 10 listening && sleep 1 && kill -0 "$ctld" 2>/dev/null; then
			slurm_pids="$slurm_pids $ctld"
			break
		fi
		kill "$ctld" 2>/dev/null
		wait "$ctld" 2>/dev/null
		ctld=
		slurm_conf # the port was taken: another base
	done
	[ -n "$ctld" ] || return 1
	/usr/sbin/slurmd -D -f "$SLURM_CONF" 2> "$L/slurmd.err" &
	slurm_pids="$slurm_pids $!"
	idle() { timeout 5 sinfo -h -o %t 2>/dev/null | grep -q idle; }
	wait_for 60 idle
}
slurm_stop() {
	for p in $slurm_pids; do kill "$p" 2>/dev/null; done
	for p in $slurm_pids; do wait "$p" 2>/dev/null; done
	slurm_pids=
	unset SLURM_CONF
}
