#!/bin/sh
# Kubernetes executor, reconcile after a restart: the JobSet of a running
# job is adopted (not re-created); objects of a job that ended and of an
# unknown job are deleted; a stopped daemon misses the end of a job and
# records it when it comes back.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 8000}' >/dev/null || fail "schedule"
# Job 1 (fresh state dir) ends at once; job 2 runs across the restart.
fk POST /fake/overrides '{"selector": "sluice.io/job-id=1", "running_ms": 100}' >/dev/null || fail "override"
start_daemon
mkdir -p "$T/work" && cd "$T/work"
done_j=$(submit root -o /dev/null --wrap true) || fail "submit"
live=$(submit root -o /dev/null --wrap 'sleep 8') || fail "submit"
expect_eq "ids" "1 2" "$done_j $live"
wait_state "$done_j" COMPLETED 20
wait_sq "$live" %t R
stop_daemon

# Objects to delete: one of the ended job, one of a job this daemon never had.
obj() { # obj NAME JOBID
	printf '{"object": {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "%s", "namespace": "general", "labels": {"sluice.io/job-id": "%s", "sluice.io/cluster": "sluicetest"}}, "spec": {"replicatedJobs": []}}}' "$1" "$2"
}
fk POST /fake/objects "$(obj "sl-$done_j" "$done_j")" >/dev/null || fail "inject 1"
fk POST /fake/objects "$(obj sl-999 999)" >/dev/null || fail "inject 2"
seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
start_daemon
wait_n 0 jobsets "sluice.io/job-id=999"
wait_n 0 jobsets "sluice.io/job-id=$done_j"
ok "objects of an ended and an unknown job deleted"
wait_state "$live" COMPLETED 30
stats=$(fk GET "/fake/stats?since=$seq0")
expect_eq "no create after the restart" 0 "$(echo "$stats" | jpath 'd["by_verb"].get("create",0)')"
ok "the running job's JobSet adopted (no create) and its end recorded"
