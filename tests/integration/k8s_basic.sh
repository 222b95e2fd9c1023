#!/bin/sh
# Kubernetes executor, the basic life: a 1-node job and a 4-node x 8-GPU job
# become JobSets equal to their goldens (flavor nodeSelector + tolerations),
# Slurm states CF -> R -> CD in squeue/sacct, %N shows the pods' nodes, the
# output file written from the pod log as the user, and only 2 writes per job.
. "$top_srcdir/tests/integration/k8s_lib.sh"
make_users
start_fake
EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: h100}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, node-pool: h100}
  nodeTaints: [{key: nvidia.com/gpu, value: "present", effect: NoSchedule}]
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: gpuq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: h100
      resources:
      - {name: cpu, nominalQuota: 512}
      - {name: memory, nominalQuota: 4Ti}
      - {name: nvidia.com/gpu, nominalQuota: 32}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: gpu, namespace: general}
spec: {clusterQueue: gpuq}' write_k8s_conf
# Pods: Pending 0.8 s, ready, then run 2 s (long enough to see CF and R).
fk PUT /fake/schedule '{"pending_ms": 800, "running_ms": 2000, "log": "hello from the pod\n"}' >/dev/null ||
	fail "fake schedule"
start_daemon
cd "$T/work"

seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
# Without a shared filesystem the pod log merges stdout and stderr: a separate
# -e file is refused at submit, never silently left empty.
err=$(as $USER1 "$BIN/sbatch" -o o.txt -e e.txt --wrap true 2>&1); rc=$?
expect_eq "-e without shared fs rc" 1 "$rc"
case "$err" in *"--error is not supported by Sluice on partition batch"*) ;;
*) fail "-e without shared fs: $err" ;; esac
ok "-e without a shared filesystem is refused with a reason"

j1=$(submit $USER1 -J one -o one-%j.out --wrap 'echo hi') || fail "submit 1-node"
wait_sq "$j1" %t CF
wait_n 1 jobsets "sluice.io/job-id=$j1"
fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$j1" | golden jobset-1node.json ||
	fail "1-node JobSet differs from its golden"
ok "1-node job is CONFIGURING (CF) while its pod is pending"
wait_sq "$j1" %t R
nodes=$(sq "$j1" %N)
case "$nodes" in fake-node-*) ;; *) fail "squeue %N: [$nodes]" ;; esac
ok "1-node job RUNNING on $nodes"
wait_state "$j1" COMPLETED 30
expect_eq "exit code" "0:0" "$("$BIN/sacct" -n -X -P -j "$j1" -o ExitCode)"
wait_for test -s "one-$j1.out"
expect_eq "output file" "hello from the pod" "$(cat "one-$j1.out")"
expect_eq "output owner" "$USER1" "$(stat -c %U "one-$j1.out")"
ok "1-node job COMPLETED; -o written from the pod log as $USER1"
wait_n 0 jobsets
ok "its JobSet was deleted after the end"

j2=$(submit $USER1 -p gpu -N 4 --gpus-per-node=8 -c 16 --mem=64G -J big -o big.out \
	--wrap 'nvidia-smi') || fail "submit 4x8"
wait_n 1 jobsets "sluice.io/job-id=$j2"
fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$j2" |
	golden jobset-4node-8gpu.json ||
	fail "4x8 JobSet differs from its golden"
ok "4-node x 8-GPU JobSet matches its golden (nodeSelector, tolerations)"
wait_sq "$j2" %t R
expect_eq "4 nodes" 4 "$(sq "$j2" %D)"
wait_state "$j2" COMPLETED 30
ok "4-node job ran and COMPLETED"

# Writes per job: one create and one delete; no polling (no repeated GET/LIST).
stats=$(fk GET "/fake/stats?since=$seq0")
writes=$(echo "$stats" | jpath 'd["writes"]')
creates=$(echo "$stats" | jpath 'd["by_verb"].get("create",0)')
deletes=$(echo "$stats" | jpath 'd["by_verb"].get("delete",0)')
expect_eq "creates" 2 "$creates"
expect_eq "deletes" 2 "$deletes"
expect_eq "writes" 4 "$writes"
ok "2 writes per job (create + delete): $stats"
