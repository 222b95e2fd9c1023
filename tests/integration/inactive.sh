#!/bin/sh
# Kueue keeps a ClusterQueue whose ResourceFlavor does not exist, inactive
# (FlavorNotFound), and a LocalQueue whose ClusterQueue does not exist: the
# daemon starts, the good partition runs its jobs, the broken ones keep
# theirs pending with Kueue's message, and `sluiced --check-config` warns
# but passes.
. "$top_srcdir/tests/integration/lib.sh"
EXTRA_OBJECTS="---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: gpus}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: a100
      resources:
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: gpu, namespace: general}
spec: {clusterQueue: gpus}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: typo, namespace: general}
spec: {clusterQueue: mian}" write_conf

out=$("$SLUICED" --check-config "$T/sluice.yaml" 2>"$T/check.err") || fail "--check-config failed: $(cat "$T/check.err")"
expect_eq "check-config" "$T/sluice.yaml: OK" "$out"
expect_eq "check-config warnings" "sluiced: warning: sluice.yaml:55: LocalQueue \"typo\": spec.clusterQueue: ClusterQueue \"mian\" not found: its jobs stay pending
sluiced: warning: sluice.yaml:37: ClusterQueue \"gpus\": spec.resourceGroups[0].flavors[0].name: ResourceFlavor \"a100\" not found: the ClusterQueue is inactive (FlavorNotFound) and admits nothing" \
	"$(cat "$T/check.err")"
ok "--check-config warns about both and exits 0"

start_daemon
cd "$T" || fail "cd"
g=$("$BIN/sbatch" --parsable -p gpu -o /dev/null --wrap true) || fail "sbatch -p gpu"
t=$("$BIN/sbatch" --parsable -p typo -o /dev/null --wrap true) || fail "sbatch -p typo"
b=$("$BIN/sbatch" --parsable -o /dev/null --wrap true) || fail "sbatch"
wait_state "$b" COMPLETED
expect_eq "inactive ClusterQueue" "PENDING PartitionInactive" "$("$BIN/squeue" -h -j "$g" -o '%T %r')"
expect_eq "missing ClusterQueue" "PENDING PartitionConfig" "$("$BIN/squeue" -h -j "$t" -o '%T %r')"
"$BIN/scontrol" show job "$g" | grep -q "ClusterQueue=gpus QueuePosition=1 PendingReason=Suspended:_ClusterQueue_gpus_is_inactive$" ||
	fail "scontrol, inactive: $("$BIN/scontrol" show job "$g")"
"$BIN/scontrol" show job "$t" | grep -q "PendingReason=Misconfigured:_ClusterQueue_mian_doesn't_exist$" ||
	fail "scontrol, missing: $("$BIN/scontrol" show job "$t")"
ok "the good partition runs; the broken ones pend with Kueue's reasons"

expect_eq "sinfo AVAIL (Slurm's inactive, 5 wide)" "batch*    up
gpu inact
typo inact" "$("$BIN/sinfo" -h -o '%P %.5a')"
grep -q "ResourceFlavor \"a100\" not found" "$T/sluiced.log" || fail "no warning in the log"
ok "sinfo shows the broken partitions inact; the daemon logs the warnings"

# The missing flavor appears: a reload makes the queue active, its job runs.
cat >>"$T/sluice.yaml" <<'EOC'
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: a100}
EOC
kill -HUP "$DPID"
wait_state "$g" COMPLETED
expect_eq "typo still waits" "PENDING PartitionConfig" "$("$BIN/squeue" -h -j "$t" -o '%T %r')"
ok "after a reload that adds the flavor, the queue admits"
