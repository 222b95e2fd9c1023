#!/bin/sh
# srun through the step agents of a Kubernetes job's pods, without
# Kubernetes: two agents (`sluice-stepd --agent` and the static
# `sluice-agent --agent`) on their own loopback addresses stand for two
# pods, a hosts file names them (SLUICE_AGENT_HOSTS, the agents' test mode),
# and srun runs with the variables a pod has. Checks: the tasks' variables
# per node and -l labels, the highest exit code and Slurm's lines, stdin to
# the tasks (20 MB too), a signal reaching every task, Ctrl-C, a wrong
# job secret refused (and no task started), --pty and --mpi=pmi2 refused
# (and SLURM_MPI_TYPE=pmi2 the same), and the agent's
# end (its command exits) ending the tasks it started; pbsdsh's copies
# through the same agents. sluiced is not running: each step says it is
# not recorded (k8s_srun.sh records them).
. "$top_srcdir/tests/integration/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
# node 0's agent is sluice-stepd --agent, node 1's the static sluice-agent
AGENTS="$top_builddir/bin/sluice-stepd/sluice-stepd $top_builddir/bin/sluice-stepd/sluice-agent"
cd "$T"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '127.0.0.61 n0\n127.0.0.62 n1\n' >hosts
# agent I CMD...: the agent of node nI on 127.0.0.6(I+1), its log in agentI.log
agent() {
	i=$1
	shift
	prog=$(echo $AGENTS | cut -d' ' -f$((i + 1)))
	SLUICE_JOB_SECRET=s3cret SLUICE_AGENT_ADDR=127.0.0.6$((i + 1)) SLUICE_AGENT_PORT=$PORT \
		"$prog" --agent -- "$@" 2>"agent$i.log" &
}
agent 0 sh -c "while [ ! -e '$T/stop0' ]; do sleep 0.1; done; exit 4"
A0=$!
agent 1 sh -c "while [ ! -e '$T/stop1' ]; do sleep 0.1; done"
A1=$!
for a in 127.0.0.61 127.0.0.62; do
	wait_port() { python3 -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 1)' "$a" "$PORT" 2>/dev/null; }
	n=0
	until wait_port; do n=$((n + 1)); [ $n -lt 100 ] || fail "agent on $a not listening"; sleep 0.1; done
done
export SLURM_JOB_ID=42 SLURM_JOB_NODELIST='n[0-1]' SLURM_JOB_CPUS_PER_NODE='4(x2)'
export SLUICE_AGENT_PORT=$PORT SLUICE_AGENT_HOSTS=$T/hosts SLUICE_JOB_SECRET=s3cret
unset SLUICE_CONF
export KUBERNETES_SERVICE_HOST=10.0.0.1 SLUICE_SOCKET=$T/no-sluiced SLUICE_CONNECT_TIMEOUT=0 TMPDIR=$T
SRUN="$BIN/srun"
NOTREC="srun: warning: step not recorded: sluiced is not reachable from this pod"

"$SRUN" -l -n 4 --ntasks-per-node=2 sh -c 'echo $SLURM_NODEID $SLURM_LOCALID $SLURM_STEP_ID $SLURM_NTASKS $SLURM_STEP_NODELIST $(pwd) ${SLUICE_JOB_SECRET:-nosecret} $((SLURM_TASK_PID == $$))' \
	>out 2>err </dev/null || fail "srun -l -n 4: $(cat err)"
expect_eq "labelled output" "0: 0 0 0 4 n[0-1] $T nosecret 1
1: 0 1 0 4 n[0-1] $T nosecret 1
2: 1 0 0 4 n[0-1] $T nosecret 1
3: 1 1 0 4 n[0-1] $T nosecret 1" "$(sort out)"
grep -q "^$NOTREC" err || fail "no warning that the step is not recorded: $(cat err)"
ok "srun -l -n 4 over two agents: labels, node/local ids, cwd, no job secret in the tasks"

"$SRUN" -n 4 sh -c 'exit $((SLURM_PROCID + 1))' >out 2>err </dev/null
expect_eq "exit status" 4 "$?"
grep -q "^srun: error: n0: task 0: Exited with exit code 1$" err || fail "exit lines: $(cat err)"
grep -q "^srun: error: n1: task 3: Exited with exit code 4$" err || fail "exit lines: $(cat err)"
ok "the highest task exit code, told per node as Slurm"

printf '0 echo zero %%t\n1 sh -c \047echo one $SLURM_NODEID\047\n' >mp.conf
"$SRUN" -N 2 -n 2 -l --multi-prog mp.conf >out 2>err </dev/null || fail "multi-prog: $(cat err)"
expect_eq "multi-prog" "0: zero 0
1: one 1" "$(sort out)"
"$SRUN" -N 2 -n 2 -o "$T/task-%t-%N.out" sh -c 'echo $SLURM_PROCID' >out 2>err </dev/null ||
	fail "-o %t: $(cat err)"
expect_eq "-o per task" "0 1" "$(cat "$T/task-0-n0.out") $(cat "$T/task-1-n1.out")"
ok "--multi-prog and -o per-task files through the agents"

# pbsdsh in the same pods (a qsub job's have PBS_ENVIRONMENT): a copy per
# vnode through the agents, MOM's variables, a copy's exit status told.
PBS_ENVIRONMENT=PBS_BATCH SLURM_TASKS_PER_NODE='1(x2)' "$BIN/pbsdsh" -- sh -c \
	'echo $PBS_NODENUM $PBS_VNODENUM $PBS_TASKNUM $SLURMD_NODENAME $(pwd) ${SLUICE_JOB_SECRET:-nosecret}; exit $PBS_NODENUM' \
	>out 2>err </dev/null || fail "pbsdsh: $(cat err)"
expect_eq "pbsdsh's copies" "0 0 00000002 n0 $T nosecret
1 1 00000003 n1 $T nosecret" "$(grep -v pbsdsh out | sort)"
expect_eq "pbsdsh's line" "$BIN/pbsdsh: task 0x00000001 exit status 1" "$(grep pbsdsh out)"
grep -q "^$BIN/pbsdsh: warning: step not recorded: sluiced is not reachable from this pod" err ||
	fail "pbsdsh: no warning that the step is not recorded: $(cat err)"
ok "pbsdsh runs a copy in each pod through the step agents"

echo "from stdin" | "$SRUN" -n 2 -l cat >out 2>err
expect_eq "stdin to every task" "0: from stdin
1: from stdin" "$(sort out)"
ok "stdin reaches every task"

# More stdin than the pipes and sockets hold, to a task that first writes
# 5 MB and only then reads it: relayed whole, no deadlock.
head -c 20000000 /dev/zero | "$SRUN" -n 1 sh -c 'seq 700000; wc -c' >out 2>err ||
	fail "large stdin: $(cat err)"
expect_eq "large stdin" "700001 700000 20000000" "$(wc -l <out) $(sed -n 700000p out) $(tail -n 1 out)"
ok "20 MB of stdin reach a task that writes 5 MB first: no deadlock"

SLUICE_JOB_SECRET= "$SRUN" -n 1 true >out 2>err </dev/null
expect_eq "no secret status" 1 "$?"
expect_eq "no secret" "srun: error: \$SLUICE_JOB_SECRET is not set: the step agents of this job's pods cannot be asked to start tasks" "$(cat err)"
ok "without the job secret srun says so"

"$SRUN" -l -N 2 -n 2 sh -c 'trap "echo got USR1; exit 7" USR1; echo ready; while :; do sleep 0.1; done' \
	>out 2>err </dev/null &
S=$!
n=0
until [ "$(grep -c ready out)" = 2 ]; do n=$((n + 1)); [ $n -lt 200 ] || fail "tasks not ready"; sleep 0.1; done
kill -USR1 $S
wait $S
expect_eq "status after USR1" 7 "$?"
expect_eq "USR1 in every task" "0: got USR1
1: got USR1" "$(grep got out | sort)"
ok "a signal to srun reaches every task in every pod"

# Ctrl-C once: the tasks' states; twice within a second: SIGINT to every
# task, the step aborted, exit 130 (srun.sh checks the same locally).
rm -f task*.pid
"$SRUN" -N 2 -n 2 sh -c 'echo $$ >"$TMPDIR/task$SLURM_PROCID.pid"; exec sleep 300' >out 2>err </dev/null &
S=$!
n=0
until [ -s task0.pid ] && [ -s task1.pid ]; do n=$((n + 1)); [ $n -lt 200 ] || fail "tasks not started"; sleep 0.1; done
kill -INT $S; sleep 0.2; kill -INT $S
wait $S
expect_eq "Ctrl-C twice status" 130 "$?"
grep -q "^srun: interrupt (one more within 1 sec to abort)$" err || fail "Ctrl-C once: $(cat err)"
grep -q "^srun: StepId=42\.[0-9]* task 1: running$" err || fail "task states: $(cat err)"
grep -q "^srun: sending Ctrl-C to StepId=42\.[0-9]*$" err || fail "Ctrl-C twice: $(cat err)"
for t in 0 1; do
	n=0
	while kill -0 "$(cat task$t.pid)" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "task $t outlived Ctrl-C twice"; sleep 0.1
	done
done
rm -f task*.pid
ok "Ctrl-C once prints the task states, twice aborts the step in both pods (exit 130)"

SLUICE_JOB_SECRET=not-the-secret "$SRUN" -n 2 touch "$T/should-not-exist" >out 2>err </dev/null
expect_eq "wrong secret status" 1 "$?"
[ ! -e "$T/should-not-exist" ] || fail "a task ran with a wrong secret"
grep -q "^srun: error: Task launch failed on node n0: the step agent refused it: authentication failed: not this job's secret$" err ||
	fail "wrong secret message: $(cat err)"
grep -q "refused a request: authentication failed" agent0.log || fail "agent log: $(cat agent0.log)"
ok "a request with a wrong job secret is refused, no task started"

# On a terminal (script(1)); without one srun disregards --pty, as Slurm's.
if command -v script >/dev/null; then
	out=$(script -qec "\"$SRUN\" --pty -n 1 true" /dev/null </dev/null 2>&1)
	expect_eq "--pty status" 1 "$?"
	echo "$out" | tr -d '\r' | grep -qx "srun: error: --pty in a Kubernetes job is not supported by Sluice" ||
		fail "--pty refusal: [$out]"
	ok "--pty in a pod is refused by name"
fi
# the ranks are in other pods: one srun's socketpairs cannot reach them
"$SRUN" --mpi=pmi2 -n 2 touch "$T/should-not-exist" >out 2>err </dev/null
expect_eq "--mpi=pmi2 status" 1 "$?"
expect_eq "--mpi=pmi2 refusal" "srun: error: --mpi=pmi2 in a Kubernetes job is not supported by Sluice" \
	"$(cat err)"
SLURM_MPI_TYPE=pmi2 "$SRUN" -n 2 touch "$T/should-not-exist" >out 2>err </dev/null
expect_eq "SLURM_MPI_TYPE=pmi2 status" 1 "$?"
[ ! -e "$T/should-not-exist" ] || fail "a task ran under a refused --mpi=pmi2"
ok "--mpi=pmi2 in a pod is refused by name"
"$SRUN" --pty -n 1 true >out 2>err </dev/null
expect_eq "--pty without a terminal: status" 0 "$?"
expect_eq "--pty without a terminal: disregarded" "srun: error: ioctl(TIOCGWINSZ): Inappropriate ioctl for device
srun: error: Not using a pseudo-terminal, disregarding --pty option" "$(head -n 2 err)"
ok "--pty without a terminal is disregarded, as Slurm's"

"$SRUN" -l -n 4 --ntasks-per-node=2 sh -c 'echo $$ >"$TMPDIR/task$SLURM_PROCID.pid"; exec sleep 300' >out 2>err </dev/null &
S=$!
n=0
until [ -s task0.pid ] && [ -s task1.pid ] && [ -s task2.pid ] && [ -s task3.pid ]; do
	n=$((n + 1)); [ $n -lt 200 ] || fail "tasks did not start"; sleep 0.1
done
touch stop0
wait $A0
expect_eq "agent 0 exit status (its command's)" 4 "$?"
for t in 0 1; do
	kill -0 "$(cat task$t.pid)" 2>/dev/null && fail "task $t outlived its agent"
done
kill -0 "$(cat task2.pid)" 2>/dev/null || fail "task 2 (the other agent's) ended too"
touch stop1
wait $A1
expect_eq "agent 1 exit status" 0 "$?"
wait $S
expect_eq "srun status" 143 "$?"
grep -q "^srun: error: n0: tasks 0-1: Terminated$" err || fail "srun's lines: $(cat err)"
ok "an agent's end (its command exited) ends its tasks; srun reports them Terminated"

# An srun that stops reading (its own stdout is a pipe nobody reads) leaves
# the agent's session blocked writing the task's output: the agent still
# ends, FINISH_MS after its command, instead of waiting on it for ever.
rm -f stop1
agent 1 sh -c "while [ ! -e '$T/stop1' ]; do sleep 0.1; done"
A1=$!
n=0
until python3 -c 'import socket,sys; socket.create_connection(("127.0.0.62", int(sys.argv[1])), 1)' "$PORT" 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "agent 1 not listening again"; sleep 0.1
done
mkfifo stuck
SLURM_JOB_NODELIST=n1 SLURM_JOB_CPUS_PER_NODE=4 "$SRUN" -n 1 yes >stuck 2>err </dev/null &
S=$!
exec 7<stuck # opened, never read: srun's writes fill the pipe and stop
sleep 2
kill -0 $S 2>/dev/null || fail "srun yes ended: $(cat err)"
touch stop1
n=0
while kill -0 $A1 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 150 ] || { kill -KILL $A1; fail "agent 1 waits for ever on a session srun stopped reading"; }
	sleep 0.1
done
exec 7<&-
wait $A1
expect_eq "agent 1 exit status, a session stuck" 0 "$?"
wait $S
ok "the agent ends even when a session is blocked writing to an srun that stopped reading"
