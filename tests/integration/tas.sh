#!/bin/sh
# Topology-aware scheduling through the real sluiced on the local executor:
# the config's nodes: and a Topology behind the flavor; sbatch --topology
# and --switches become Kueue's pod set constraints; a job goes to the rack
# that fits it best, waits when no rack holds it (Kueue's message in
# scontrol's Reason), and runs when a rack frees up. Slurm has no such
# placement on one host, so nothing here is diffed against it; --switches'
# refusal is Slurm's text (reference: sbatch --switches=x on the cluster).
. "$top_srcdir/tests/integration/lib.sh"

tas_conf() {
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
  - nodeLabel: cloud.com/topology-rack
  - nodeLabel: kubernetes.io/hostname' \
	CPUS=16 write_conf 'nodes:
- {name: n1, labels: {cloud.com/topology-rack: r1, kubernetes.io/hostname: n1}, allocatable: {cpu: "2", memory: 8Gi}}
- {name: n2, labels: {cloud.com/topology-rack: r1, kubernetes.io/hostname: n2}, allocatable: {cpu: "2", memory: 8Gi}}
- {name: n3, labels: {cloud.com/topology-rack: r2, kubernetes.io/hostname: n3}, allocatable: {cpu: "4", memory: 16Gi}}'
}

WRITE_CONF=tas_conf
start_daemon
mkdir -p "$T/work"
cd "$T/work"

reason() {
	"$BIN/scontrol" show job "$1" | sed -n 's/.*Reason=\([^ ]*\).*/\1/p' | head -n 1
}

out=$("$BIN/sbatch" --switches=x --wrap true 2>&1) && fail "--switches=x accepted"
expect_eq "--switches=x" 'sbatch: error: Invalid numeric value "x" for --switches.' "$out"
out=$("$BIN/sbatch" --topology=rack --switches=1 --wrap true 2>&1) && fail "both accepted"
expect_eq "--topology with --switches" \
	"sbatch: error: --switches and --topology are mutually exclusive" "$out"
out=$("$BIN/sbatch" --topology=required: --wrap true 2>&1) && fail "bad --topology accepted"
expect_eq "bad --topology" "sbatch: error: Invalid --topology specification" "$out"
ok "--switches, --topology: bad values refused at submit"

"$BIN/scontrol" show config | grep -qx 'Nodes *= n1,n2,n3' ||
	"$BIN/scontrol" show config | grep -q 'n1,n2,n3' || fail "show config: nodes"

id1=$(submit root -N 3 -c 1 --mem=1G --topology=rack --wrap 'sleep 60') || fail "sbatch -N 3"
wait_state "$id1" RUNNING
id2=$(submit root -N 4 -c 1 --mem=1G --topology=rack --wrap 'sleep 60') || fail "sbatch -N 4"
wait_state "$id2" RUNNING
ok "-N 3 and -N 4 --topology=rack: each fits a rack, both run"

id3=$(submit root -N 2 -c 1 --mem=1G --switches=1 --wrap 'sleep 60') || fail "sbatch --switches=1"
sleep 1
expect_eq "--switches=1 waits" PENDING "$(state "$id3")"
r=$("$BIN/scontrol" show job "$id3")
echo "$r" | grep -q 'topology_"dc"_allows_to_fit_only_1_out_of_2_pod(s)' ||
	fail "scontrol show job: no topology reason: $r"
ok "--switches=1 with one free pod per rack waits, with Kueue's topology message"

id4=$(submit root -N 2 -c 1 --mem=1G --topology=preferred:rack --wrap 'sleep 60') ||
	fail "sbatch --topology=preferred:rack"
sleep 1
expect_eq "preferred still waits for the head" PENDING "$(state "$id4")"
"$BIN/scancel" "$id1" || fail "scancel"
wait_state "$id3" RUNNING
ok "a rack freed: the waiting job runs"

# kill -9: the running jobs' assignments come back from the store and hold
# their nodes. Only n3 has 4 cpus, and id2's 4 pods hold them: a one-pod
# job of 4 cpus waits after the restart, and runs once id2 is gone.
"$BIN/scancel" "$id3" "$id4" 2>/dev/null
[ "$(state "$id2")" = RUNNING ] || fail "job $id2 not running before the kill"
kill9_daemon
start_daemon
wait_state "$id2" RUNNING
id5=$(submit root -N 1 -c 4 --mem=1G --topology=kubernetes.io/hostname --wrap 'sleep 60') ||
	fail "sbatch after restart"
sleep 1
expect_eq "after kill -9" PENDING "$(state "$id5")"
"$BIN/scancel" "$id2" || fail "scancel $id2"
wait_state "$id5" RUNNING
ok "kill -9: running jobs' assignments are charged again; freed, the next job runs"
