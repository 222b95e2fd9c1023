#!/bin/sh
# yaml_anchors.sh - YAML anchors, aliases and merge keys as admins paste
# them: a config whose queues share blocks through &x / *x / <<: *x loads,
# serves its partitions and runs jobs; a scenario written with them
# simulates exactly as its plain twin; an alias bomb is refused with a
# clear error and exit 1 (issue 16).
. "$top_srcdir/tests/integration/lib.sh"

# write_conf's queue main, its resources through anchors; queue small reuses
# blocks of its own document through a merge key and an alias.
RESOURCE_GROUPS='  - coveredResources: &cov [cpu, memory]
    flavors:
    - name: default
      resources: &res
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}' \
EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: small}
spec:
  <<: &common
    namespaceSelector: {}
    queueingStrategy: BestEffortFIFO
  queueingStrategy: StrictFIFO
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - &cpu {name: cpu, nominalQuota: 2}
      - {<<: *cpu, name: memory, nominalQuota: 4Gi}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: &lq {name: tiny, namespace: general}
spec: {clusterQueue: small}' write_conf
out=$("$SLUICED" --check-config "$T/sluice.yaml" 2>&1) || fail "config with anchors refused: $out"
ok "--check-config accepts anchors, aliases and merge keys"
# Anchors belong to their document, as YAML scopes them: each object is one.
sed 's/^  - coveredResources: \[cpu, memory\]$/  - coveredResources: *cov/' \
	"$T/sluice.yaml" >"$T/crossdoc.yaml"
line=$(grep -n 'coveredResources: \*cov' "$T/crossdoc.yaml" | cut -d: -f1)
out=$("$SLUICED" --check-config "$T/crossdoc.yaml" 2>&1) && fail "alias across documents accepted"
case "$out" in
*"crossdoc.yaml:$line: YAML alias *cov: no anchor &cov before it in this document"*) ;;
*) fail "alias across documents: $out" ;;
esac
ok "an alias to another document's anchor: $out"

start_daemon
cd "$T"
out=$("$BIN/sinfo" -h -o '%P %a' 2>&1)
expect_eq "partitions" "batch* up
tiny up" "$out"
# small's namespaceSelector came from the merge, its cpu quota from its own
# keys: 3 cpus do not fit in it (2), and do in main (8).
big=$("$BIN/sbatch" --parsable -p tiny -c 3 --wrap true 2>&1) || fail "-p tiny -c 3: $big"
wait_until "3 cpus in tiny: $("$BIN/squeue" -h -j "$big" -o '%t %r')" \
	'[ "$("$BIN/squeue" -h -j "$big" -o "%t %r")" = "PD PartitionConfig" ]'
"$BIN/scancel" "$big"
ok "the merged ClusterQueue keeps its own quota: 3 cpus wait there (PartitionConfig)"
id=$("$BIN/sbatch" --parsable -p tiny -c 2 -o /dev/null --wrap true) || fail "submit to tiny"
wait_state "$id" COMPLETED
id=$("$BIN/sbatch" --parsable -p batch -c 3 -o /dev/null --wrap true) || fail "submit to batch"
wait_state "$id" COMPLETED
ok "jobs run in both partitions"

# A scenario written with anchors simulates as its plain twin.
plain="$top_srcdir/tests/scenarios/admission-fits-single-cq.yaml"
cat >"$T/anchored.yaml" <<'EOS'
name: admission-fits-single-cq
source: 'kubernetes-sigs/kueue pkg/scheduler/scheduler_test.go :: workload fits in single clusterQueue, with check
  state ready'
description: the same, with anchors
config: {}
objects:
- apiVersion: &api kueue.x-k8s.io/v1beta1
  kind: ResourceFlavor
  metadata: {name: default}
  spec: {}
- apiVersion: *api
  kind: ClusterQueue
  metadata: {name: sales}
  spec:
    namespaceSelector: {}
    queueingStrategy: StrictFIFO
    resourceGroups:
    - coveredResources: [cpu]
      flavors:
      - name: default
        resources:
        - {name: cpu, nominalQuota: '50'}
- apiVersion: *api
  kind: LocalQueue
  metadata: {name: main, namespace: sales}
  spec: {clusterQueue: sales}
workloads:
- &wl
  name: foo
  queue: sales/main
  priority: 0
  created: 0
  podSets:
  - &ps {name: one, count: 10, requests: {cpu: '1'}, nodeSelector: {}, tolerations: []}
expect:
  admitted:
    foo:
      one: {cpu: default}
  preempted: []
  pending: []
EOS
a=$("$BIN/sluice" simulate "$T/anchored.yaml" 2>&1); ra=$?
p=$("$BIN/sluice" simulate "$plain" 2>&1); rp=$?
expect_eq "simulate rc (anchored)" "$rp" "$ra"
expect_eq "simulate output (anchored vs plain)" "$(printf '%s\n' "$p" | sed 1d)" \
	"$(printf '%s\n' "$a" | sed 1d)"
ok "a scenario with anchors simulates as its plain twin"

# Billion laughs in a config: refused, with the reason, before memory goes.
{
	printf 'apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n'
	printf 'x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n'
	i=1
	while [ $i -le 9 ]; do
		j=$((i - 1))
		printf 'x%d: &x%d [*x%d, *x%d, *x%d, *x%d, *x%d, *x%d, *x%d, *x%d, *x%d, *x%d]\n' \
			$i $i $j $j $j $j $j $j $j $j $j $j
		i=$((i + 1))
	done
} >"$T/bomb.yaml"
out=$(ulimit -v 1000000; timeout 20 "$SLUICED" --check-config "$T/bomb.yaml" 2>&1); rc=$?
expect_eq "alias bomb rc" 1 "$rc"
case "$out" in
*"bomb.yaml:8: YAML alias *x4: aliases expand the input past 64 MiB (an alias bomb?)"*) ;;
*) fail "alias bomb message: $out" ;;
esac
ok "alias bomb refused: $out"
