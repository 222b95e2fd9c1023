#!/bin/sh
# Kubernetes executor: sinfo shows the cluster's Nodes, watched through the
# API. Each is in the partitions whose flavors place pods on it (nodeLabels,
# tolerations of its taints); its state is Slurm's: idle, mix (its pods
# request some CPUs), alloc (all), drain (cordoned), down (NotReady), with
# the reasons for -R. A watch that gets 410 Gone re-lists.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
fk POST /fake/nodes '{"count": 3, "cpu": "8", "memory": "32Gi"}' >/dev/null || fail "nodes"
fk POST /fake/nodes '{"count": 1, "prefix": "gpu-node-", "cpu": "16", "memory": "64Gi",
	"gpus": 4, "labels": {"accel": "a100"},
	"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]}' \
	>/dev/null || fail "gpu node"
FLAVORS='apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: a100}
spec:
  nodeLabels: {accel: a100}
  tolerations:
  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}'
EXTRA_OBJECTS=$(gpu_queue a100 16 64Gi 4) CPUS=24 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1, "node": "fake-node-1"}' >/dev/null
start_daemon
mkdir -p "$T/work" && cd "$T/work"

# until sinfo ARGS... prints what stdin holds
want_sinfo() {
	cat >"$T/want"
	n=0
	until "$BIN/sinfo" "$@" >"$T/got" 2>&1 && cmp -s "$T/want" "$T/got"; do
		n=$((n + 1))
		[ $n -lt 100 ] || { diff "$T/want" "$T/got"; fail "sinfo $*"; }
		sleep 0.1
	done
}

want_sinfo <<'EOF2'
PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
batch*       up   infinite      3   idle fake-node-[0-2]
gpu          up   infinite      1   idle gpu-node-0
EOF2
ok "default: the Nodes in the partitions their flavors place pods on, idle"

j=$(submit root -c 2 --mem=4G -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R
want_sinfo <<'EOF2'
PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
batch*       up   infinite      1    mix fake-node-1
batch*       up   infinite      2   idle fake-node-[0,2]
gpu          up   infinite      1   idle gpu-node-0
EOF2
want_sinfo -N -o '%N %t %C %m %e %G %P' <<'EOF2'
NODELIST STATE CPUS(A/I/O/T) MEMORY FREE_MEM GRES PARTITION
fake-node-0 idle 0/8/0/8 32768 32768 (null) batch*
fake-node-1 mix 2/6/0/8 32768 28672 (null) batch*
fake-node-2 idle 0/8/0/8 32768 32768 (null) batch*
gpu-node-0 idle 0/16/0/16 65536 65536 gpu:4 gpu
EOF2
ok "a running job's pod makes its node mix: CPUs 2/6/0/8, memory requested"

# Pods of other workloads count too, as every job on a Slurm node does; a
# pod reserves the larger of its containers' sum (2 + 2) and its largest
# init container (7), plus its overhead (1): all 8 CPUs.
fk POST /fake/objects '{"object": {"apiVersion": "v1", "kind": "Pod",
	"metadata": {"name": "other", "namespace": "kube-system"},
	"spec": {"nodeName": "fake-node-0", "overhead": {"cpu": "1"},
	"initContainers": [{"name": "i", "image": "x", "resources": {"requests": {"cpu": "7"}}}],
	"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}},
	{"name": "d", "image": "x", "resources": {"limits": {"cpu": "2"}}}]},
	"status": {"phase": "Running"}}}' >/dev/null || fail "other pod"
want_sinfo -N -h -o '%N %t %C' -p batch <<'EOF2'
fake-node-0 alloc 8/0/0/8
fake-node-1 mix 2/6/0/8
fake-node-2 idle 0/8/0/8
EOF2
ok "a node whose pods request every CPU is alloc"

fk POST /fake/nodes/action '{"name": "fake-node-2", "action": "cordon"}' >/dev/null || fail cordon
fk POST /fake/nodes/action '{"name": "gpu-node-0", "action": "notready"}' >/dev/null || fail notready
want_sinfo <<'EOF2'
PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
batch*       up   infinite      1  drain fake-node-2
batch*       up   infinite      1    mix fake-node-1
batch*       up   infinite      1  alloc fake-node-0
gpu          up   infinite      1  down* gpu-node-0
EOF2
"$BIN/sinfo" -R -o '%30E %N' >"$T/got" || fail "sinfo -R"
cat >"$T/want" <<'EOF2'
REASON                         NODELIST
Cordoned                       fake-node-2
Kubelet stopped posting node s gpu-node-0
EOF2
diff "$T/want" "$T/got" || fail "sinfo -R"
"$BIN/sinfo" -t drain,down -h -o '%N %T' >"$T/got" || fail "sinfo -t"
printf 'fake-node-2 drained\ngpu-node-0 down*\n' | diff - "$T/got" || fail "sinfo -t drain,down"
"$BIN/sinfo" -t no_respond -h -o '%N %E' >"$T/got" || fail "sinfo -t no_respond"
echo "gpu-node-0 Kubelet stopped posting node status." | diff - "$T/got" || fail "sinfo -t no_respond"
"$BIN/scontrol" show node gpu-node-0 >"$T/node" || fail "scontrol show node"
grep -qF "State=DOWN+NOT_RESPONDING " "$T/node" || fail "show node: state: $(cat "$T/node")"
grep -q "Reason=Kubelet stopped posting node status. \[$(id -un)@20" "$T/node" ||
	fail "show node: reason: $(cat "$T/node")"
# As in Slurm, -t idle matches the base state: a drained node with no pods.
"$BIN/sinfo" -t idle -h -N -o '%N %t' >"$T/got" || fail "sinfo -t idle"
echo "fake-node-2 drain" | diff - "$T/got" || fail "sinfo -t idle"
ok "cordoned: drain (Cordoned); NotReady: down* (not responding) with the kubelet's reason; -R, -t"

# A watch that gets 410 Gone lists again: the next changes still arrive.
fk PUT /fake/config '{"stale_watches": 10}' >/dev/null
fk POST /fake/compact '{"closeWatches": true}' >/dev/null || fail compact
fk POST /fake/nodes/action '{"name": "fake-node-2", "action": "uncordon"}' >/dev/null
fk POST /fake/nodes/action '{"name": "gpu-node-0", "action": "ready"}' >/dev/null
WAIT=30
want_sinfo -h <<'EOF2'
batch*       up   infinite      1    mix fake-node-1
batch*       up   infinite      1  alloc fake-node-0
batch*       up   infinite      1   idle fake-node-2
gpu          up   infinite      1   idle gpu-node-0
EOF2
n=$(fk GET /fake/requests | jpath 'len([r for r in d["requests"] if r["path"] == "/api/v1/nodes" and r["verb"] == "list"])')
[ "$n" -ge 2 ] || fail "nodes listed $n times, expected a re-list after 410"
ok "after 410 Gone the nodes are listed again: uncordoned and Ready back"

"$BIN/sinfo" --json >"$T/json" || fail "sinfo --json"
python3 - "$T/json" <<'EOF2' || fail "sinfo --json"
import json, sys
d = json.load(open(sys.argv[1]))
nodes = {n["name"]: n for n in d["nodes"]}
assert sorted(nodes) == ["fake-node-0", "fake-node-1", "fake-node-2", "gpu-node-0"], nodes.keys()
g = nodes["gpu-node-0"]
assert g["cpus"] == 16 and g["real_memory"] == 65536 and g["gres"] == "gpu:4", g
assert g["partitions"] == ["gpu"], g["partitions"]
assert g["features"] == "accel=a100", g["features"]
assert nodes["fake-node-0"]["features"] == "", nodes["fake-node-0"]["features"]
assert nodes["fake-node-1"]["alloc_cpus"] == 2, nodes["fake-node-1"]
EOF2
ok "--json: every node once, with its labels, allocatable and partitions"

"$BIN/scontrol" show node gpu-node-0 >"$T/node" || fail "scontrol show node"
for kv in NodeName=gpu-node-0 CPUTot=16 AvailableFeatures=accel=a100 Gres=gpu:4 \
	RealMemory=65536 State=IDLE Partitions=gpu; do
	grep -qF "$kv" "$T/node" || fail "scontrol show node: no $kv in $(cat "$T/node")"
done
"$BIN/scontrol" show partition batch >"$T/part" || fail "scontrol show partition"
for kv in "Nodes=fake-node-[0-2]" TotalCPUs=24 TotalNodes=3; do
	grep -qF "$kv" "$T/part" || fail "scontrol show partition: no $kv in $(cat "$T/part")"
done
ok "scontrol show node and partition: the same nodes"

# scontrol update NodeName= cordons through the API (a merge patch of the
# Node, as kubectl cordon), with the operator's reason for sinfo -R
"$BIN/scontrol" update NodeName=fake-node-2 State=DRAIN Reason="bad dimm" || fail "drain"
want_sinfo -h -N -n fake-node-2 -o '%N %t %E %u' <<EOF2
fake-node-2 drain bad dimm $(id -un)
EOF2
fk GET "/fake/objects?resource=nodes" | jpath '[n["spec"] for n in d["items"] if n["metadata"]["name"] == "fake-node-2"][0]["unschedulable"]' |
	grep -qx True || fail "the Node is not cordoned"
out=$("$BIN/scontrol" update NodeName=fake-node-1 State=RESUME 2>&1); rc=$?
expect_eq "RESUME of an available node" "1 slurm_update error: Invalid node state specified" "$rc $out"
out=$("$BIN/scontrol" update NodeName=nosuch State=DRAIN Reason=x 2>&1); rc=$?
expect_eq "an unknown node" "1 slurm_update error: Invalid node name specified" "$rc $out"
out=$("$BIN/scontrol" update NodeName=fake-node-1 State=DOWN Reason=x 2>&1); rc=$?
expect_eq "DOWN, exit" 1 "$rc"
echo "$out" | grep -q "kubectl drain" || fail "DOWN refusal: $out"
"$BIN/scontrol" update NodeName=fake-node-2 State=RESUME || fail "resume"
want_sinfo -h -N -n fake-node-2 -o '%N %t' <<'EOF2'
fake-node-2 idle
EOF2
fk GET "/fake/objects?resource=nodes" | jpath '[n for n in d["items"] if n["metadata"]["name"] == "fake-node-2"][0]["metadata"].get("annotations", {})' |
	grep -qx '{}' || fail "the reason's annotations are left"
ok "scontrol update NodeName= State=DRAIN/RESUME cordons and uncordons the Node, with its reason"

# The kubelet says NotReady (Ready False): down, not down* (it answers).
fk POST /fake/nodes/action '{"name": "gpu-node-0", "action": "unready"}' >/dev/null || fail unready
want_sinfo -h -p gpu -o '%N %T %E' <<'EOF2'
gpu-node-0 down container runtime is down
EOF2
ok "NotReady from the kubelet: down with its message"

"$BIN/scancel" "$j"
wait_state "$j" CANCELLED 20

# Stopped with the watches open: everything freed (the ASan build's leak
# check speaks at exit).
stop_daemon
! grep -E -A20 "AddressSanitizer|LeakSanitizer|runtime error" "$T/sluiced.log" ||
	fail "sanitizer report"
ok "sluiced stopped cleanly"
