#!/bin/sh
# Kubernetes executor: scancel deletes the JobSet (Background, grace =
# killWait) and records CANCELLED; a high-priority job preempts a running
# low one, whose JobSet is deleted and which is requeued (PREEMPTED ->
# PENDING), then runs again as a new attempt (object sl-<id>-1).
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
EXTRA_OBJECTS=$WPC_LOW_HIGH CPUS=2 write_k8s_conf
preempt_within_cq
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

j=$(submit root -c 1 -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R
seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
"$BIN/scancel" "$j" || fail "scancel"
wait_state "$j" CANCELLED 20
wait_n 0 jobsets "sluice.io/job-id=$j"
expect_eq "one delete" 1 "$(fk GET "/fake/stats?since=$seq0" | jpath 'd["by_verb"].get("delete",0)')"
ok "scancel: one DELETE of the JobSet, job CANCELLED"

low=$(submit root --qos=low -c 2 -o /dev/null --wrap 'sleep 1000') || fail "submit low"
wait_sq "$low" %t R
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 1500}' >/dev/null
high=$(submit root --qos=high -c 2 -o /dev/null --wrap 'sleep 1') || fail "submit high"
wait_sq "$high" %t R 30
expect_eq "victim pending" PD "$(sq "$low" %t)"
wait_n 0 jobsets "sluice.io/job-id=$low"
ok "the high job preempted the low one: its JobSet deleted, it waits again"
wait_state "$high" COMPLETED 30
wait_state "$low" COMPLETED 40
expect_eq "restarts" "Restarts=1" "$("$BIN/scontrol" show job "$low" | grep -o 'Restarts=[0-9]*')"
fk GET /fake/requests | jpath '[r["path"] for r in d["requests"] if r["verb"] == "create"]' |
	grep -q "jobsets" || fail "no create"
n=$(fk GET /fake/requests | jpath 'len([r for r in d["requests"] if r["verb"] == "create" and r["status"] == 201])')
expect_eq "creates (cancelled, low twice, high)" 4 "$n"
ok "the victim ran again as attempt 1 and COMPLETED"
