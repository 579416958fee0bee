#!/usr/bin/env bash
# A private single-node Slurm cluster (Debian's slurm-wlm and munge) in one folder, for the farm
# test: munged on its own key and socket, slurmctld and slurmd as the calling user on ports of
# their own, one node with this machine's cores and one GPU slot (gres.conf names /dev/null as
# its device: jobs that ask for --gres=gpu:1 are scheduled as on a GPU node, one at a time per
# slot, and the CPU backend renders). Nothing outside DIR is written.
#   slurm_cluster.sh start DIR   starts it; prints the SLURM_CONF to export
#   slurm_cluster.sh stop DIR    stops the daemons
set -euo pipefail
command=$1 dir=$(realpath -m "$2")
conf=$dir/slurm.conf

stop() {
  if [ -f "$conf" ]; then SLURM_CONF=$conf scontrol shutdown >/dev/null 2>&1 || true; fi
  for name in slurmd slurmctld; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null || true
  done
  [ -f "$dir/munged.pid" ] && kill "$(cat "$dir/munged.pid")" 2>/dev/null || true
  return 0
}

start() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  head -c 1024 /dev/urandom >"$dir/munge.key"
  chmod 600 "$dir/munge.key"
  /usr/sbin/munged -f --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed"
  local host user port
  host=$(hostname -s)
  user=$(id -un)
  # Ports of this cluster alone, so that tests running at once do not meet.
  port=$((20000 + ($$ % 10000) * 2))
  cat >"$conf" <<EOF
ClusterName=starlens-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MinJobAge=3600
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 Gres=gpu:1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  echo "NodeName=$host Name=gpu File=/dev/null" >"$dir/gres.conf"
  export SLURM_CONF=$conf
  /usr/sbin/slurmctld -f "$conf"
  /usr/sbin/slurmd -f "$conf" -N "$host"
  for _ in $(seq 100); do
    if [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; then
      echo "$conf"
      return 0
    fi
    sleep 0.2
  done
  echo "slurm_cluster.sh: the node did not come up idle: $(sinfo -h -o '%t %E' 2>&1)" >&2
  tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  stop
  return 1
}

case $command in
  start) start ;;
  stop) stop ;;
  *) echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
