#!/bin/sh
# Kubernetes executor: --time becomes activeDeadlineSeconds; the child Job's
# DeadlineExceeded makes the Slurm job TIMEOUT. Slow by nature: the shortest
# Slurm time limit is one minute.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"
j=$(submit root -t 1 -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R
wait_state "$j" TIMEOUT 90
ok "a pod past --time -> TIMEOUT"
