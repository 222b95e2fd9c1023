#!/bin/sh
# Kubernetes executor: the API server goes away for 30 s (the issue's
# outage) while jobs are submitted. Nothing is lost: every job gets exactly
# one object and completes. The deadline after the outage allows for the
# client's backoff cap (30 s) on top of it.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 300}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

j0=$(submit root -o /dev/null --wrap true) || fail "submit"
wait_state "$j0" COMPLETED 20
fk POST /fake/pause '{"seconds": 30}' >/dev/null || fail "pause"
ids=""
for i in 1 2 3 4 5 6; do
	ids="$ids $(submit root -o /dev/null --wrap true)" || fail "submit during the outage"
done
sleep 1
for j in $ids; do
	case "$(state "$j")" in CONFIGURING|PENDING|RUNNING) ;; *) fail "job $j: $(state "$j") during the outage" ;; esac
done
ok "6 jobs submitted while the API server is down"
for j in $ids; do wait_state "$j" COMPLETED 120; done
n=$(fk GET /fake/requests | jpath 'len([r for r in d["requests"] if r["verb"] == "create" and r["status"] == 201])')
expect_eq "one object per job" 7 "$n"
ok "after the outage all completed, one create each"
