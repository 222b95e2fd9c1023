#!/bin/sh
# Kubernetes executor, the basic life: a 1-node job and a 4-node x 8-GPU job
# become JobSets equal to their goldens (flavor nodeSelector + tolerations),
# Slurm states CF -> R -> CD in squeue/sacct, %N shows the pods' nodes, the
# output file written from the pod log as the user, and only 2 writes per job;
# without a shared filesystem, -o and -e apart split from the pod log.
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
'"$(gpu_queue h100 512 4Ti 32)" write_k8s_conf
# The first job's pods: Pending 0.8 s, ready, then run 6 s (long enough to
# see CF and R, and its JobSet before it ends, on a loaded machine too).
fk PUT /fake/schedule '{"pending_ms": 800, "running_ms": 6000, "log": "hello from the pod\n"}' >/dev/null ||
	fail "fake schedule"
start_daemon
cd "$T/work"

seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
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
# the later jobs' pods run 2 s: nothing after looks at them mid-run so closely
fk PUT /fake/schedule '{"pending_ms": 800, "running_ms": 2000, "log": "hello from the pod\n"}' >/dev/null ||
	fail "fake schedule"
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
# (its pods run 2 s, which a slow host spends on the golden: the node
# count is read from its record once it ended)
wait_state "$j2" COMPLETED 30
expect_eq "4 nodes" 4 "$("$BIN/sacct" -n -X -P -j "$j2" -o NNodes)"
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

# Without a shared filesystem, -e apart from -o travels in the pod log after
# a boundary line of the job's attempt (k8s/podlog.h); sluiced splits it. The
# fake runs no command, so each job is held until its pod log is set.
# logjob LOG [FAKE-SCHEDULE]: a job's id, released with that pod log (\n for
# newlines, BOUNDARY for the boundary line).
logjob() {
	j=$(submit $USER1 -H -o "o-%j.txt" -e "e-%j.txt" --wrap 'echo out; echo err >&2') ||
		fail "submit -o/-e apart"
	extra=${2:-'{}'}
	ov=$(J="$j" LOG="$1" EXTRA="$extra" python3 -c 'import json, os
e = os.environ
b = "--- sluice: stderr of job %s attempt 0 follows (5f0c9a7e3b1d48e2a6c4f8b0d2e97153) ---" % e["J"]
log = e["LOG"].replace("\\n", "\n").replace("BOUNDARY", b)
print(json.dumps(dict(json.loads(e["EXTRA"]), selector="sluice.io/job-id=" + e["J"], log=log)))')
	fk POST /fake/overrides "$ov" >/dev/null || fail "fake override for job $j"
	as $USER1 "$BIN/scontrol" release "$j" || fail "release $j"
	echo "$j"
}
# expect_file NAME FILE PRINTF-TEXT: FILE holds exactly those bytes.
expect_file() {
	printf "$3" >"$T/want"
	cmp -s "$2" "$T/want" || fail "$1: $2 holds [$(cat "$2")], expected [$(cat "$T/want")]"
}

j3=$(logjob 'out 1\nlast line, no newline\nBOUNDARY\nerr 1\nerr 2\n')
wait_state "$j3" COMPLETED 30
wait_for test -e "e-$j3.txt"
expect_file "-o apart" "o-$j3.txt" 'out 1\nlast line, no newline'
expect_file "-e apart" "e-$j3.txt" 'err 1\nerr 2\n'
expect_eq "-e owner" "$USER1" "$(stat -c %U "e-$j3.txt")"
ok "-o and -e apart without a shared filesystem: split at the boundary, as $USER1"

# Killed hard (no boundary): the whole log is stdout, and -e says why.
j4=$(logjob 'out 1\npartial' '{"exit_code": 137}')
wait_state "$j4" FAILED 30
wait_for test -e "e-$j4.txt"
expect_file "-o without boundary" "o-$j4.txt" 'out 1\npartial'
expect_file "-e without boundary" "e-$j4.txt" "sluice: stderr of job $j4 was lost: its pod log \
has no stderr section, so the container was killed before its script ended (e.g. SIGKILL after \
the grace period); the whole log is in $T/work/o-$j4.txt\n"
ok "no boundary in the log: -o holds all of it, -e says stderr was lost"

# -i cannot reach a pod without a shared filesystem: refused at submit.
echo data >"$T/work/in.txt"
err=$(as $USER1 "$BIN/sbatch" -i "$T/work/in.txt" --wrap cat 2>&1 >/dev/null); rc=$?
expect_eq "-i exit status" 1 "$rc"
expect_eq "-i refusal" "sbatch: error: Batch job submission failed: --input is not supported by \
Sluice on partition batch: it has no shared filesystem (kubernetes.partitions.batch.volumeMounts), \
so the pod cannot read $T/work/in.txt" "$err"
ok "-i without a shared filesystem is refused at submit with the reason"

# An update is held to what the executor can do, as a submission is.
j4=$(submit $USER1 -H --mem=100M --wrap true) || fail "submit -H"
err=$(as $USER1 "$BIN/scontrol" update JobId="$j4" MinMemoryNode=0 2>&1); rc=$?
expect_eq "update MinMemoryNode=0 exit status" 1 "$rc"
case "$err" in
*"--mem=0 is not supported by Sluice on Kubernetes"*) ;;
*) fail "update MinMemoryNode=0 on Kubernetes: [$err]" ;;
esac
as $USER1 "$BIN/scancel" "$j4"
ok "scontrol update MinMemoryNode=0 is refused on Kubernetes, as --mem=0 is at submit"
err=$(as $USER1 "$BIN/sbatch" --tmp=1G --wrap true 2>&1); rc=$?
expect_eq "--tmp on Kubernetes" "1 sbatch: error: Batch job submission failed: --tmp is not supported by Sluice on Kubernetes: \
a pod's scratch space is its node's ephemeral storage, which no ClusterQueue counts" "$rc $err"
ok "--tmp is refused on Kubernetes by name"
err=$(as $USER1 "$BIN/sbatch" --wait-all-nodes=1 --wrap true 2>&1); rc=$?
expect_eq "--wait-all-nodes=1 on Kubernetes" "1 sbatch: error: Batch job submission failed: \
--wait-all-nodes=1 is not supported by Sluice on Kubernetes: the batch script starts in pod 0 as \
soon as it runs" "$rc $err"
