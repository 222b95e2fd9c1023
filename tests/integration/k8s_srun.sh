#!/bin/sh
# srun across the pods of a JobSet, end to end: the real sluiced
# (executor: kubernetes, kubernetes.agentImage set) against the fake API
# server in exec mode, whose kubelet runs each pod as local processes in
# mount and UTS namespaces of their own (tests/fake-k8s/fk_exec.py), the
# init container's copy of the agent included. A 4-pod job runs
# `srun -l -n 8 hostname`: the labelled output names the four pods, the
# step is in sacct, the JobSet matches its golden and its Secret is owned
# by it. Then a job whose steps' 8 tasks sleep: squeue -s shows its step,
# scancel N.S ends that step's tasks in every pod, and scancel of the job
# ends the next step's.
. "$top_srcdir/tests/integration/k8s_lib.sh"
make_users
# the fake's pods are processes: end them with it (TERM), then the rest
trap 'stop_fake; cleanup' EXIT
command -v unshare >/dev/null 2>&1 || skip "unshare not found"
unshare --mount --uts true 2>/dev/null || skip "cannot make mount/UTS namespaces"
start_fake
AGENT="$top_builddir/bin/sluice-stepd/sluice-agent"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
write_k8s_conf "kubernetes:
  kubeconfig: $T/kc/token.kubeconfig
  qps: 50
  burst: 100
  image: ubuntu:24.04
  agentImage: sluice/agent:test"
# The pods' "image" is this machine; the agent image holds the built
# sluice-agent where the init container looks for it, and the build's
# commands in its PATH. A free port stands for 6818 (other tests' pods
# share the loopback addresses).
fk PUT /fake/schedule "{\"exec\": true, \"pending_ms\": 0,
	\"images\": {\"sluice/agent:test\": {\"/usr/local/bin/sluice-agent\": \"$AGENT\"}},
	\"env\": {\"SLUICE_AGENT_PORT\": \"$PORT\", \"PATH\": \"$BIN:/usr/bin:/bin\"}}" >/dev/null ||
	fail "fake schedule"
start_daemon
cd "$T/work"

# The job waits for the test's go: the JobSet goes when it ends, and the
# golden must see it first.
cat >hostname.sh <<SCRIPT
#!/bin/sh
n=0
while [ ! -e "$T/work/go-hosts" ] && [ \$n -lt 600 ]; do sleep 0.1; n=\$((n + 1)); done
srun -l -n 8 hostname >hosts-\$SLURM_JOB_ID.txt
rc=\$?
sort hosts-\$SLURM_JOB_ID.txt
echo "srun exit \$rc"
SCRIPT
j=$(submit $USER1 -N 4 --ntasks-per-node=2 -J hosts -o "hosts-%j.out" hostname.sh) ||
	fail "submit the 4-pod job"
wait_n 1 jobsets "sluice.io/job-id=$j"
fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$j" |
	golden jobset-agent-4node.json || fail "the JobSet with the agent differs from its golden"
ok "4-pod JobSet with the agent's init container, wrapped command and secretKeyRef (golden)"
touch go-hosts
wait_state "$j" COMPLETED 60
wait_for test -s "hosts-$j.out"
expect_eq "labelled output" "0: sl-$j-node-0-0
1: sl-$j-node-0-0
2: sl-$j-node-0-1
3: sl-$j-node-0-1
4: sl-$j-node-0-2
5: sl-$j-node-0-2
6: sl-$j-node-0-3
7: sl-$j-node-0-3
srun exit 0" "$(cat "hosts-$j.out")"
ok "srun -l -n 8 hostname ran 2 tasks in each of the 4 pods, labelled"
expect_eq "the step in sacct" "$j.0|hostname|COMPLETED|0:0|8|4" \
	"$("$BIN/sacct" -n -P -j "$j" -o JobID,JobName,State,ExitCode,NTasks,NNodes | grep "^$j\.0")"
ok "the step is recorded: sacct shows $j.0 COMPLETED with 8 tasks on 4 nodes"

cat >sleep.sh <<SCRIPT
#!/bin/sh
srun -n 8 sh -c 'echo \$\$ >"$T/work/step0-\$SLURM_PROCID.pid"; exec sleep 300'
echo "step 0 exit \$?"
srun -n 8 sh -c 'echo \$\$ >"$T/work/task-\$SLURM_PROCID.pid"; exec sleep 300'
SCRIPT
j2=$(submit $USER1 -N 4 --ntasks-per-node=2 -J sleepers -o "sleep-%j.out" sleep.sh) || fail "submit 2"
wait_n 1 secrets "sluice.io/job-id=$j2"
owner=$(fk GET "/fake/objects?resource=secrets&labelSelector=sluice.io/job-id=$j2" |
	jpath '[(o["kind"], o["name"]) for o in d["items"][0]["metadata"]["ownerReferences"]]')
expect_eq "the Secret's owner" '[["JobSet", "sl-'"$j2"'"]]' "$owner"
ok "the job's Secret exists and is owned by its JobSet"

# pids PREFIX: the 8 tasks' pids, once all wrote them
pids() {
	WAIT=60 wait_for sh -c 'ls "$0"/"$1"-*.pid 2>/dev/null | wc -l | grep -qx 8' "$T/work" "$1"
	cat "$1"-*.pid
}
# gone PIDS...: until none of them runs
gone() {
	WAIT=60 wait_for sh -c "! { $(for p in "$@"; do printf 'kill -0 %s 2>/dev/null || ' "$p"; done) false; }"
}
p0=$(pids step0)
for p in $p0; do kill -0 "$p" 2>/dev/null || fail "task $p is not running"; done
wait_for sh -c "\"$BIN/squeue\" -h -s | grep -q '^ *$j2\.0 '"
ok "squeue -s shows step $j2.0 running in the pods"
as $USER1 "$BIN/scancel" "$j2.0" || fail "scancel $j2.0"
gone $p0
expect_eq "the cancelled step" "CANCELLED" \
	"$("$BIN/sacct" -n -P -j "$j2" -o JobID,State | sed -n "s/^$j2\.0|\([A-Z]*\).*/\1/p")"
ok "scancel $j2.0 ended its 8 tasks in the 4 pods (queued by sluiced, taken by srun's poll)"

p1=$(pids task)
as $USER1 "$BIN/scancel" "$j2" || fail "scancel"
wait_state "$j2" CANCELLED 60
gone $p1
ok "scancel of the job ended all 8 tasks of its next step in the 4 pods"
