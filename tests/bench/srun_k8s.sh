#!/bin/sh
# Issue 14's benchmark on Kubernetes (run on demand, not part of make
# check): the time from `srun -n 64 true` to its exit inside a 4-pod job
# (16 tasks a pod), REPS times, median and worst, on the fake API server's
# exec-mode kubelet (pods are local processes: see k8s_srun.sh), next to
# the same loop in a local-executor job (tests/bench/srun.sh has the rest).
# The pods share this machine's CPUs, so the figure is srun's and the
# agents' own cost (one relay and one connection per task), not a
# network's. Needs root (namespaces) and a build.
# Usage: tests/bench/srun_k8s.sh [BUILD_DIR]   (default ./build)
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=$(cd "${1:-$top_srcdir/build}" && pwd)
export top_srcdir top_builddir
REPS=${REPS:-10}
. "$top_srcdir/tests/integration/k8s_lib.sh"
make_users
trap 'stop_fake; cleanup' EXIT
start_fake
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CPUS=256 write_k8s_conf "kubernetes:
  kubeconfig: $T/kc/token.kubeconfig
  qps: 50
  burst: 100
  image: ubuntu:24.04
  agentImage: sluice/agent:test"
fk PUT /fake/schedule "{\"exec\": true, \"pending_ms\": 0,
	\"images\": {\"sluice/agent:test\": {\"/usr/local/bin/sluice-agent\": \"$top_builddir/bin/sluice-stepd/sluice-agent\"}},
	\"env\": {\"SLUICE_AGENT_PORT\": \"$PORT\", \"PATH\": \"$BIN:/usr/bin:/bin\"}}" >/dev/null
start_daemon
cd "$T/work"
{
	printf '#!/bin/bash\nsrun -n 64 true >/dev/null 2>&1 # the agents are up\n'
	printf 'for i in $(seq %d); do a=$(date +%%s.%%N); srun -n 64 true || echo "srun failed $?"; ' "$REPS"
	printf 'b=$(date +%%s.%%N); echo "$a $b"; done\n'
	printf 'srun -n 64 hostname | sort | uniq -c | awk "{print \\$1}" | tr "\\n" " "\n'
} >loop.sh
j=$(submit $USER1 -N 4 --ntasks-per-node=16 -o "$T/work/loop.out" loop.sh) || fail "submit"
WAIT=600 wait_state "$j" COMPLETED 600
wait_for test -s loop.out
! grep srun loop.out || fail "srun failed in the loop"
expect_eq "tasks per pod" "16 16 16 16 " "$(tail -n 1 loop.out)"
sed -i '$d' loop.out
echo "# srun k8s bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) REPS=$REPS"
grep -v srun loop.out | awk '{print $2 - $1}' | sort -n | awk '{v[NR] = $1}
	END {printf "%-44s median %.3f s  max %.3f s  (n=%d)\n", "k8s Sluice: srun -n 64 true in 4 fake pods",
	v[int((NR + 1) / 2)], v[NR], NR}'
