#!/bin/sh
# Kubernetes executor: how jobs end. Exit code 3 -> FAILED 3:0, OOMKilled ->
# OUT_OF_MEMORY, an evicted pod -> NODE_FAIL, and an MPIJob (launcher +
# workers) that completes. Job ids are predictable (fresh state dir: 1, 2...),
# so the fake's per-job pod schedules are set before the jobs exist.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 600}' >/dev/null || fail "schedule"
fk POST /fake/overrides '{"selector": "sluice.io/job-id=1", "exit_code": 3}' >/dev/null || fail "override 1"
fk POST /fake/overrides '{"selector": "sluice.io/job-id=2", "oom": true}' >/dev/null || fail "override 2"
fk POST /fake/overrides '{"selector": "sluice.io/job-id=3", "running_ms": -1}' >/dev/null || fail "override 3"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

j1=$(submit root -o /dev/null --wrap 'exit 3') || fail "submit 1"
j2=$(submit root -o /dev/null --wrap 'eat memory') || fail "submit 2"
j3=$(submit root -N 2 -o /dev/null --wrap 'sleep 100') || fail "submit 3"
expect_eq "job ids" "1 2 3" "$j1 $j2 $j3"
j4=$(submit root -N 2 --ntasks-per-node=2 --mpi=openmpi -o /dev/null --wrap 'mpirun hostname') ||
	fail "submit mpi"

wait_state "$j1" FAILED 30
expect_eq "exit code" "3:0" "$("$BIN/sacct" -n -X -P -j "$j1" -o ExitCode)"
ok "exit 3 in the pod -> FAILED 3:0"
wait_state "$j2" OUT_OF_MEMORY 30
ok "OOMKilled -> OUT_OF_MEMORY"

wait_sq "$j3" %t R
fk POST /fake/pods '{"selector": "sluice.io/job-id=3", "action": "evict"}' >/dev/null || fail "evict"
wait_state "$j3" NODE_FAIL 30
ok "evicted pod -> NODE_FAIL"

wait_state "$j4" COMPLETED 30
fk GET /fake/requests | jpath '[r["path"] for r in d["requests"] if r["verb"] == "create" and "mpijobs" in r["path"]]' |
	grep -q "/apis/kubeflow.org/v2beta1/namespaces/general/mpijobs" || fail "no MPIJob was created"
expect_eq "mpi exit" "0:0" "$("$BIN/sacct" -n -X -P -j "$j4" -o ExitCode)"
wait_n 0 mpijobs
ok "--mpi=openmpi became an MPIJob that COMPLETED and was deleted after its end"
