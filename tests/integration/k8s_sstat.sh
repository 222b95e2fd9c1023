#!/bin/sh
# sstat with the Kubernetes executor: its jobs' use is not measured, so a
# running job's step is refused by name (exit 1), and sacct prints its
# usage cells as Slurm does for a step without accounting data.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
CPUS=2 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

j=$(submit root -c 1 -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R
out=$("$BIN/sstat" -n -j "$j.batch" 2>&1); rc=$?
expect_eq "sstat on kubernetes" "1 sstat: error: sstat is not supported by Sluice with the kubernetes executor: its jobs' use is not measured" "$rc $out"
ok "sstat refused on Kubernetes"
"$BIN/scancel" "$j" || fail "scancel"
wait_state "$j" CANCELLED 20
expect_eq "sacct: nothing measured" "$j|||00:00:00
$j.batch|||00:00:00" "$("$BIN/sacct" -n -P -j "$j" -o JobID,MaxRSS,AveCPU,TotalCPU)"
ok "sacct's usage cells empty, CPU times 00:00:00"
