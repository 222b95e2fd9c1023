#!/bin/sh
# Topology-aware scheduling on the Kubernetes executor: with no `nodes:` in
# the config, Kueue TAS places pods on the Nodes the executor watches
# (labels, allocatable, taints; cordoned or NotReady nodes are not used)
# minus what pods Sluice did not place take. Sluice's own TAS pods are
# charged by the engine's assignments, not counted again from the pods.
# A job placed on a rack gets required node affinity to its nodes in its
# JobSet; a job with no room waits with Kueue's TopologyPlacementFailed
# message; after kill -9 the running jobs' placements hold their nodes.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
for r in 1 2 3; do
	fk POST /fake/nodes "{\"count\": 2, \"prefix\": \"r$r-\", \"cpu\": \"4\", \"memory\": \"16Gi\",
		\"labels\": {\"cloud.com/topology-block\": \"b1\", \"cloud.com/topology-rack\": \"r$r\"}}" \
		>/dev/null || fail "rack r$r nodes"
done
FLAVORS='apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
spec: {topologyName: dc}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Topology
metadata: {name: dc}
spec:
  levels:
  - nodeLabel: cloud.com/topology-block
  - nodeLabel: cloud.com/topology-rack
  - nodeLabel: kubernetes.io/hostname'
CPUS=48 write_k8s_conf
# Every pod the fake runs is bound to r3-0: were Sluice's own pods counted
# as foreign usage, r3 could never hold a job of two 4-CPU pods.
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1, "node": "r3-0"}' >/dev/null
start_daemon
mkdir -p "$T/work" && cd "$T/work"

# job $1's JobSet's required node affinity: "KEY OP VALUES" per expression
# (the assignment's lowest level is the host: a host list)
affinity() {
	fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
items = d["items"] if isinstance(d, dict) else d
for js in items:
    for rj in js["spec"]["replicatedJobs"]:
        pod = rj["template"]["spec"]["template"]
        assert pod["metadata"]["labels"].get("sluice.io/tas") == "true", pod["metadata"]
        na = pod["spec"]["affinity"]["nodeAffinity"]
        for t in na["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]:
            for e in t["matchExpressions"]:
                print(e["key"], e["operator"], " ".join(e["values"]))'
}

reason() { "$BIN/squeue" -h -j "$1" -o %r; }

wait_for grep -q "topology: 6 nodes from the cluster, 6 placeable" "$T/sluiced.log"
ok "the cluster's 6 Nodes fed to the engine"

# A pod of another workload takes all of r1-0's CPUs: r1 cannot hold two
# 4-CPU pods any more.
fk POST /fake/objects '{"object": {"apiVersion": "v1", "kind": "Pod",
	"metadata": {"name": "other", "namespace": "kube-system"},
	"spec": {"nodeName": "r1-0", "containers": [{"name": "c", "image": "x",
	"resources": {"requests": {"cpu": "4", "memory": "1Gi"}}}]},
	"status": {"phase": "Running"}}}' >/dev/null || fail "foreign pod"
# sinfo sees it: the watch event is in, and its feed runs before the submit
r1_alloc() { "$BIN/sinfo" -h -N -o "%N %t" | grep -qx "r1-0 alloc"; }
wait_for r1_alloc
j1=$(submit root -N 2 -c 4 --mem=1G --topology=rack -o /dev/null --wrap 'sleep 1000') ||
	fail "sbatch j1"
wait_sq "$j1" %t R
expect_eq "job $j1 affinity" "kubernetes.io/hostname In r2-0 r2-1" "$(affinity "$j1")"
ok "--topology=rack -N 2: required node affinity to one rack's nodes, not the rack a foreign pod fills"

# r3-1 cordoned: r3 has one usable node, no rack holds the next job.
fk POST /fake/nodes/action '{"name": "r3-1", "action": "cordon"}' >/dev/null || fail cordon
wait_for grep -q "6 nodes from the cluster, 5 placeable" "$T/sluiced.log"
j2=$(submit root -N 2 -c 4 --mem=1G --topology=rack -o /dev/null --wrap 'sleep 1000') ||
	fail "sbatch j2"
n=0
until "$BIN/scontrol" show job "$j2" | grep -q 'topology_"dc"_allows_to_fit_only_1_out_of_2_pod(s)'; do
	n=$((n + 1))
	[ $n -lt 200 ] || fail "job $j2: no topology reason: $("$BIN/scontrol" show job "$j2")"
	sleep 0.1
done
expect_eq "job $j2 state" PD "$(sq "$j2" %t)"
expect_eq "job $j2 reason" "(Resources)" "$("$BIN/squeue" -h -j "$j2" -o '%R')"
"$BIN/squeue" --json -j "$j2" >"$T/sq.json" || fail "squeue --json"
d=$(jpath "[x for x in d['jobs'] if x['job_id'] == $j2][0]['state_description']" <"$T/sq.json")
case "$d" in
*'couldn'"'"'t assign flavors to pod set main: topology "dc" allows to fit only 1 out of 2 pod(s)'*) ;;
*) fail "squeue --json state_description of job $j2: [$d]" ;;
esac
[ "$(nobjs jobsets "sluice.io/job-id=$j2")" = 0 ] || fail "job $j2 has a JobSet"
ok "a cordoned node is not used: no rack has room, Kueue's TopologyPlacementFailed text in squeue"

# Uncordoned: r3 holds it, although the fake bound j1's pods to r3-0 (the
# engine charges j1 on r2 only).
fk POST /fake/nodes/action '{"name": "r3-1", "action": "uncordon"}' >/dev/null || fail uncordon
wait_sq "$j2" %t R
expect_eq "job $j2 affinity" "kubernetes.io/hostname In r3-0 r3-1" "$(affinity "$j2")"
ok "uncordoned: the waiting job goes to r3; Sluice's own pods are not charged twice"

# The foreign pod gone, r1 is free again.
j3=$(submit root -N 2 -c 4 --mem=1G --topology=rack -o /dev/null --wrap 'sleep 1000') ||
	fail "sbatch j3"
sleep 1
expect_eq "job $j3 waits for r1" PD "$(sq "$j3" %t)"
curl -sfk --max-time 30 -X DELETE -H "Authorization: Bearer $KTOKEN" \
	"https://127.0.0.1:$FKPORT/api/v1/namespaces/kube-system/pods/other" >/dev/null ||
	fail "delete the foreign pod"
wait_sq "$j3" %t R
expect_eq "job $j3 affinity" "kubernetes.io/hostname In r1-0 r1-1" "$(affinity "$j3")"
ok "the foreign pod gone: its rack is used"

# kill -9: the jobs come back before the Nodes are listed again; once
# they are, the three running jobs hold the three racks again.
kill9_daemon
start_daemon
j4=$(submit root -N 2 -c 4 --mem=1G --topology=rack -o /dev/null --wrap 'sleep 1000') ||
	fail "sbatch j4"
n=0
until "$BIN/scontrol" show job "$j4" | grep -qF 'allow_to_fit_any_of_2_pod(s)._Total_nodes:_6;_excluded:_resource_"cpu":_6'; do
	n=$((n + 1))
	[ $n -lt 200 ] || fail "job $j4 after restart: $("$BIN/scontrol" show job "$j4")"
	sleep 0.1
done
expect_eq "job $j4 state" PD "$(sq "$j4" %t)"
for j in "$j1" "$j2" "$j3"; do expect_eq "job $j after restart" R "$(sq "$j" %t)"; done
ok "kill -9: the running jobs' racks are charged again once the Nodes are back"

"$BIN/scancel" "$j1" "$j2" "$j3" "$j4"
wait_state "$j3" CANCELLED 20
stop_daemon
! grep -E -A20 "AddressSanitizer|LeakSanitizer|runtime error" "$T/sluiced.log" ||
	fail "sanitizer report"
ok "sluiced stopped cleanly"
