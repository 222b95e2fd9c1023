#!/bin/sh
# srun inside a batch script of the local executor: the same scenario runs
# here and ran on a real Slurm 22.05 (srun_scenario.sh; the golden file
# tests/data/srun/srun.golden was written by srun_capture.sh): task
# variables, exit codes, -l labels, --multi-prog, -K, stdin to every task,
# per-task output files, Slurm's refusals beyond the allocation, and the
# steps' sacct rows, diffed after masking. Then what Slurm also does but
# the diff cannot time: squeue -s, scancel N.S (and another user's refused),
# scancel of the job ending its steps' tasks, step rows across kill -9 of
# sluiced; srun outside an allocation, salloc, Ctrl-C twice, sattach.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/srun_lib.sh"
make_users
write_conf "minJobAge: 300"
start_daemon
cd "$T/work"
mkdir scen && chmod 777 scen

j=$(as $USER1 env SRUN="$BIN/srun" SCEN_DIR="$T/work/scen" "$BIN/sbatch" --parsable -N 1 -n 4 \
	-o "$T/work/scen.out" "$top_srcdir/tests/integration/srun_scenario.sh") || fail "submit"
wait_state "$j" COMPLETED 120
{
	cat scen.out
	echo "== sacct"
	"$BIN/sacct" -j "$j" -P -o JobID,JobName,State,ExitCode,NTasks,AllocCPUS,NNodes
} | srun_mask "$j" >scen.masked
diff -u "$top_srcdir/tests/data/srun/srun.golden" scen.masked >&2 ||
	fail "the transcript differs from Slurm 22.05's (- Slurm, + Sluice)"
ok "task variables, exit codes, labels, multi-prog, -K, stdin, -o, refusals, sacct rows: as Slurm"

# sacct -j's step parts, as the reference cluster answered them: a step
# alone, the batch step alone, "N.1,N" the job and step 1, a step it lacks.
expect_eq "sacct -j N.1" "$j.1" "$("$BIN/sacct" -n -P -j "$j.1" -o JobID)"
expect_eq "sacct -j N.batch" "$j.batch" "$("$BIN/sacct" -n -P -j "$j.batch" -o JobID)"
expect_eq "sacct -j N.1,N" "$j
$j.1" "$("$BIN/sacct" -n -P -j "$j.1,$j" -o JobID)"
expect_eq "sacct -j N.99" "" "$("$BIN/sacct" -n -P -j "$j.99" -o JobID)"
ok "sacct -j N.S lists that step alone, as Slurm's"

# A running step: squeue -s, another user's scancel refused, the owner's
# aborts it (SIGKILL, Slurm's lines, CANCELLED by uid).
cat >steps.sh <<EOS
#!/bin/sh
$BIN/srun -n 2 -l sh -c 'echo start; sleep 60; echo never'
echo "rc=\$?"
$BIN/srun -n 1 sleep 61
EOS
chmod 755 steps.sh
j=$(submit $USER1 -n 2 -o "$T/work/steps.out" steps.sh) || fail "submit steps"
wait_state "$j" RUNNING
n=0
until "$BIN/squeue" -h -s | grep -q "^ *$j\.0 "; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "step $j.0 not in squeue -s"; sleep 0.1
done
expect_eq "squeue -s" "$(printf '%15s %8s %9s %8s %9s %s' STEPID NAME PARTITION USER TIME NODELIST)" \
	"$("$BIN/squeue" -s | head -n1)"
"$BIN/squeue" -h -s | sed 's/ *[0-9]*:[0-9][0-9] / T /' >ss.out
printf '%15s %8s %9s %8s T %s\n' "$j.0" sh batch $USER1 "$(hostname -s)" \
	"$j.batch" batch batch $USER1 "$(hostname -s)" >ss.want
diff -u ss.want ss.out >&2 || fail "squeue -s"
# scontrol show step: the running step and the batch step, in Slurm's form
"$BIN/scontrol" show step "$j.0" >sst.out || fail "show step $j.0"
expect_eq "show step: name, tasks" "   Nodes=1 CPUs=2 Tasks=2 Name=sh Network=(null)" "$(sed -n 3p sst.out)"
expect_eq "show step: its srun" "   SrunHost:Pid=$(hostname -s):" "$(sed -n 7p sst.out | sed 's/:[0-9]*$/:/')"
expect_eq "show step: dist" "   CPUFreqReq=Default Dist=Block" "$(sed -n 6p sst.out)"
expect_eq "show steps: the batch step first" "StepId=$j.batch StepId=$j.0" \
	"$("$BIN/scontrol" -o show steps "$j" | cut -d' ' -f1 | paste -sd' ')"
out=$("$BIN/scontrol" show step "$j.9"); rc=$?
expect_eq "show step of none" "1 Job step $j.9 not found" "$rc $out"
ok "scontrol show step(s)"
ok "squeue -s lists the step and the batch step"
expect_eq "squeue -s N.0" "$j.0" "$("$BIN/squeue" -h -s "$j.0" -o %i)"
err=$("$BIN/squeue" --steps="$j" 2>&1) && fail "squeue --steps=N took a job id"
expect_eq "squeue --steps=N" "squeue: error: Invalid job_step id: $j.??" "$err"
ok "squeue -s N.S lists that step; a bare job id is refused, as Slurm's"
err=$(as $USER2 "$BIN/scancel" "$j.0" 2>&1) && fail "another user cancelled step $j.0"
expect_eq "other user" "scancel: error: Kill job error on job step id $j.0: Access/permission denied" "$err"
as $USER1 "$BIN/scancel" "$j.0" || fail "scancel $j.0"
n=0
until grep -q '^rc=' steps.out; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "srun did not end: $(cat steps.out)"; sleep 0.1
done
sed -e 's/AT [0-9T:-]* \*\*\*/AT TS ***/' -e "s/$(hostname -s)/NODE/g" steps.out >steps.masked
printf '%s\n' "0: start" "1: start" \
	"srun: Job step aborted: Waiting up to 32 seconds for job step to finish." \
	"0: slurmstepd-NODE: error: *** STEP $j.0 ON NODE CANCELLED AT TS ***" \
	"srun: error: NODE: tasks 0-1: Killed" "rc=137" >steps.want
sort steps.want >a; sort steps.masked >b
cmp -s a b || { diff -u steps.want steps.masked >&2; fail "scancel $j.0: srun's output"; }
expect_eq "sacct after scancel N.S" "CANCELLED by $(id -u $USER1)|0:9" \
	"$("$BIN/sacct" -n -P -j "$j" -o JobID,State,ExitCode | sed -n "s/^$j\.0|//p")"
ok "scancel N.S aborts the step as Slurm does; another user's is refused"

# scancel of the job ends the step's tasks too (they lead their own
# process groups in the job's session).
n=0
until "$BIN/squeue" -h -s | grep -q "^ *$j\.1 "; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "step $j.1 not running"; sleep 0.1
done
pgrep -u $USER1 -f "^sleep 61$" >/dev/null || fail "no task of step $j.1 runs"
as $USER1 "$BIN/scancel" "$j"
wait_state "$j" CANCELLED
n=0
while pgrep -u $USER1 -f "^sleep 61$" >/dev/null; do
	n=$((n + 1))
	if [ $n -ge 50 ]; then
		ps -eo pid,pgid,sid,user,args | grep "[s]leep 61" >&2
		fail "a task of $j.1 outlived scancel $j"
	fi
	sleep 0.1
done
expect_eq "step of a cancelled job" "CANCELLED" \
	"$("$BIN/sacct" -n -P -j "$j" -o JobID,State | sed -n "s/^$j\.1|//p" | cut -c1-9)"
ok "scancel of the job ends its steps' tasks"

# The step rows are in the store: kill -9 of sluiced loses none.
kill9_daemon
start_daemon
expect_eq "steps after kill -9" "$j.0 $j.1" \
	"$("$BIN/sacct" -n -P -j "$j" -o JobID | grep '\.[0-9]' | tr '\n' ' ' | sed 's/ $//')"
ok "step records survive kill -9 of sluiced"

# In a Kubernetes pod without the step agent (kubernetes.agentImage unset):
# refused by name (srun_agent.sh and k8s_srun.sh run it through agents).
err=$(SLURM_JOB_ID=1 SLURM_JOB_NODELIST=n1 KUBERNETES_SERVICE_HOST=10.0.0.1 "$BIN/srun" true 2>&1) &&
	fail "srun in a Kubernetes job ran"
expect_eq "k8s" "srun: error: job steps in a Kubernetes pod without Sluice's step agent are not supported by Sluice" "$err"
ok "srun in a Kubernetes pod without an agent: refused by name"

# Outside an allocation srun makes one (the job ends with the step's exit
# code) and salloc runs a command in one.
out=$(as $USER1 "$BIN/srun" -n 2 -l sh -c 'echo $SLURM_PROCID/$SLURM_NTASKS' 2>&1 | sort)
expect_eq "srun outside" "$(printf '0: 0/2\n1: 1/2')" "$out"
as $USER1 "$BIN/srun" -n 1 -J fails sh -c 'exit 3' 2>/dev/null
expect_eq "srun outside rc" 3 $?
j=$("$BIN/sacct" -n -X -P -a --name fails -o JobID | tail -n1)
expect_eq "its job" "fails|FAILED|3:0" "$("$BIN/sacct" -n -X -P -j "$j" -o JobName,State,ExitCode)"
ok "srun outside an allocation makes one and ends it with the step's exit code"
# A --multi-prog file that misses a task is refused before any job exists
# (a job was left RUNNING for good); without -n, a bad file ends the job.
printf '0 true\n' >mp1.conf
out=$(as $USER1 "$BIN/srun" -n 2 -J mpbad --multi-prog mp1.conf 2>&1); rc=$?
expect_eq "multi-prog missing a task" "1 srun: error: Configuration file mp1.conf invalid, no record for task id 1" "$rc $out"
expect_eq "no job for it" "" "$("$BIN/sacct" -n -X -P -a --name mpbad -o JobID)"
printf 'abc\n' >mp2.conf
out=$(as $USER1 "$BIN/srun" -J mpbad2 --multi-prog mp2.conf 2>&1); rc=$?
expect_eq "multi-prog bad line" "1 srun: error: Line 1 of configuration file mp2.conf invalid" "$rc $out"
expect_eq "its job ended" "FAILED" "$("$BIN/sacct" -n -X -P -a --name mpbad2 -o State)"
ok "srun --multi-prog: a bad file leaves no allocation behind"
out=$(as $USER1 "$BIN/salloc" -n 2 sh -c 'echo $SLURM_NTASKS $SLURM_JOB_NAME ${SLURM_PROCID:-none}; exit 4' 2>&1)
rc=$?
j=$(echo "$out" | sed -n 's/^salloc: Granted job allocation //p')
expect_eq "salloc" "$(printf 'salloc: Granted job allocation %s\n2 interactive none\nsalloc: Relinquishing job allocation %s' "$j" "$j")" "$out"
expect_eq "salloc rc" 4 "$rc"
expect_eq "salloc's job" "FAILED|4:0" "$("$BIN/sacct" -n -X -P -j "$j" -o State,ExitCode)"
# an allocation has no batch step, as Slurm's
expect_eq "salloc's rows" "$j" "$("$BIN/sacct" -n -P -j "$j" -o JobID)"
expect_eq "salloc's job requeued" "Only batch jobs are accepted or processed for job $j" \
	"$("$BIN/scontrol" requeue "$j" 2>&1)"
expect_eq "salloc's BatchFlag" 0 "$("$BIN/scontrol" show job "$j" | tr ' ' '\n' | sed -n 's/^ *BatchFlag=//p')"
ok "salloc: Slurm's lines, the job's variables, the command's exit code, no batch step"

# Ctrl-C once prints the tasks, twice within a second aborts the step.
as $USER1 "$BIN/srun" -n 2 -l sleep 30 >intr.out 2>&1 &
p=$!
n=0
until "$BIN/squeue" -h -s | grep -q '\.0 '; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "no step for Ctrl-C"; sleep 0.1
done
s=$(pgrep -P "$p" -x srun || echo "$p")
kill -INT "$s"; sleep 0.2; kill -INT "$s"
wait "$p"
expect_eq "Ctrl-C rc" 130 $?
sed -e 's/AT [0-9T:-]* \*\*\*/AT TS ***/' -e "s/$(hostname -s)/NODE/g" -e 's/StepId=[0-9]*/StepId=N/' \
	-e 's/STEP [0-9]*\./STEP N./' intr.out >intr.masked
printf '%s\n' "srun: interrupt (one more within 1 sec to abort)" "srun: StepId=N.0 tasks 0-1: running" \
	"srun: sending Ctrl-C to StepId=N.0" "srun: forcing job termination" \
	"srun: Job step aborted: Waiting up to 32 seconds for job step to finish." \
	"0: slurmstepd-NODE: error: *** STEP N.0 ON NODE CANCELLED AT TS ***" >intr.want
diff -u intr.want intr.masked >&2 || fail "Ctrl-C twice"
ok "Ctrl-C twice within a second aborts the step with Slurm's lines, exit 130"

err=$("$BIN/sattach" 1.0 2>&1) && fail "sattach ran"
expect_eq "sattach" "sattach: error: sattach is not supported by Sluice" "$err"
ok "sattach is refused by name"

# Steps share the allocation as in Slurm 22.05: a second step waits for
# the CPUs the first holds (Slurm's two lines), --exact and --overlap do not.
j=$(as $USER1 env SRUN="$BIN/srun" "$BIN/sbatch" --parsable -n 2 -o "$T/work/share.out" \
	"$top_srcdir/tests/integration/srun_share.sh") || fail "submit share"
wait_state "$j" COMPLETED 60
printf '%s\n' "srun: Job $j step creation temporarily disabled, retrying (Requested nodes are busy)" \
	"srun: Step created for job $j" "plain waited W" "exact waited 0" "overlap waited 0" >share.want
# whole seconds: the plain step waits out the first (1 to 3 s; more on a
# loaded host), the others not
sed 's/^plain waited [1-6]$/plain waited W/; s/^\(exact\|overlap\) waited 1$/\1 waited 0/' share.out |
	diff -u share.want - >&2 || fail "steps sharing the allocation"
ok "a step waits for the CPUs another holds; --exact and --overlap do not"

# A task farm as HPC centres document it: steps with --exclusive and
# --mem-per-cpu in a job with --mem; three fit in its memory, the fourth
# waits for one to end (Slurm's lines); a step asking a node for more than
# the job has is refused with Slurm's words. -w names one of the job's
# nodes; -m cyclic puts task 2 back on the first; hints are accepted.
cat >farm.sh <<'EOS'
#!/bin/sh
for i in 1 2 3 4; do $SRUN -n1 -c1 --exclusive --mem-per-cpu=300 sh -c 'sleep 2' & done
wait
$SRUN -n1 --mem=2G true 2>&1
$SRUN -n1 -w "$($SCONTROL show hostnames "$SLURM_JOB_NODELIST" | tail -1)" printenv SLURMD_NODENAME
$SRUN -n3 -m cyclic --hint=nomultithread -l printenv SLURM_NODEID | sort
$SRUN -n1 --open-mode=append -o app.out echo one; $SRUN -n1 --open-mode=append -o app.out echo two
EOS
j=$(as $USER1 env SRUN="$BIN/srun" SCONTROL="$BIN/scontrol" "$BIN/sbatch" --parsable -N 2 -n 4 \
	--mem=1G -o "$T/work/farm.out" farm.sh) || fail "submit farm"
wait_state "$j" COMPLETED 60
expect_eq "farm: one waits" 1 "$(grep -c "step creation temporarily disabled" farm.out)"
grep -qx "srun: error: Unable to create step for job $j: Memory required by task is not available" farm.out ||
	fail "farm: --mem past the job's: $(cat farm.out)"
grep -qx "vm-1" farm.out || fail "farm: -w: $(cat farm.out)"
expect_eq "farm: -m cyclic" "0: 0
1: 1
2: 0" "$(grep '^[0-9]: ' farm.out)"
expect_eq "farm: --open-mode=append" "one
two" "$(cat app.out)"
ok "a task farm: --exclusive and --mem-per-cpu steps wait for memory; -w, -m cyclic, --open-mode"

# --pty, driven through a pty by script(1): task 0 on a terminal of its
# own, srun's input typed into it, the exit code as over ssh.
command -v script >/dev/null || skip "no script(1) for the --pty test"
out=$(printf 'tty\necho hello $((6*7))\nexit 5\n' |
	as $USER1 script -qec "$BIN/srun --pty sh" /dev/null 2>&1)
rc=$?
expect_eq "--pty rc" 5 "$rc"
echo "$out" | grep -q '/dev/pts/[0-9]' || fail "--pty: no terminal in [$out]"
echo "$out" | grep -q '^\$ hello 42.$' || fail "--pty: no shell answer in [$out]"
ok "srun --pty: a terminal for task 0, input typed in, its exit code"
out=$(as $USER1 "$BIN/srun" --pty echo hi </dev/null 2>pty.err)
expect_eq "--pty without a terminal: no pty" "hi" "$out"
expect_eq "--pty without a terminal: Slurm's lines" "srun: error: ioctl(TIOCGWINSZ): Inappropriate ioctl for device
srun: error: Not using a pseudo-terminal, disregarding --pty option" "$(cat pty.err)"
ok "srun --pty with stdout not a terminal runs without one, as Slurm's"

# A signal srun gets reaches every task (scancel -s N.S goes the same way).
as $USER1 "$BIN/srun" -n 2 -l sh -c 'trap "echo got USR1; exit 0" USR1; while :; do sleep 0.1; done' \
	>sig.out 2>&1 &
p=$!
n=0
until [ "$(grep -c . sig.out 2>/dev/null)" = 0 ] && "$BIN/squeue" -h -s | grep -q '\.0 ' &&
	[ "$(pgrep -u $USER1 -f 'trap "echo got USR1' | wc -l)" -ge 2 ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "no step to signal"; sleep 0.1
done
sleep 0.3 # the traps are set
s=$(pgrep -P "$p" -x srun || echo "$p")
kill -USR1 "$s"
wait "$p"
expect_eq "USR1 rc" 0 $?
# (each task's sleep, in its process group, dies of it too: sh says so)
expect_eq "USR1 to every task" "$(printf '0: got USR1\n1: got USR1')" "$(grep got sig.out | sort)"
ok "a signal to srun reaches every task"

# A file -o, -e or -i names that cannot open ends the step before any task
# runs, with Slurm's line and exit 1 (the output went to the terminal, and
# the step succeeded). %J is JOB.STEP.
out=$(as $USER1 "$BIN/srun" -o /nonexistent/x echo hi 2>&1); rc=$?
expect_eq "-o into a missing directory" "1|srun: error: Could not open stdout file: No such file or directory" "$rc|$out"
out=$(as $USER1 "$BIN/srun" -l --input=nosuchfile cat 2>&1 </dev/null); rc=$?
expect_eq "-i a missing file" "1|srun: error: Could not open stdin file: No such file or directory" "$rc|$out"
as $USER1 "$BIN/srun" -o 'pj-%J.out' echo pj || fail "srun -o %J"
ls pj-*.*.out >/dev/null 2>&1 || fail "%J: $(ls pj-* 2>&1)"
ok "srun: a file that cannot open fails the step before it runs; %J is JOB.STEP"

# In an array's task %A and %a are the array's, %j the task's own (submitit's
# %A_%a_%t_log.out), as slurmstepd has them from the job.
a=$(submit $USER1 --array=2-3 -o /dev/null --wrap "$BIN/srun -o 'arr-%A_%a_%t_%j.out' echo hi") ||
	fail "submit array"
wait_state "${a}_2" COMPLETED
wait_state "${a}_3" COMPLETED
for t in 2 3; do
	id=$("$BIN/sacct" -X -n -P -j "${a}_$t" -o JobIDRaw)
	expect_eq "srun -o %A_%a_%t_%j of task $t" "hi" "$(cat "arr-${a}_${t}_0_$id.out" 2>&1)"
done
ok "srun in an array's task: %A and %a are the array's"

# -l ends a task's last line that lacks a newline (Slurm's labelled output).
out=$(as $USER1 "$BIN/srun" -n 2 -l sh -c 'if [ $SLURM_PROCID = 0 ]; then printf partial; else sleep 0.5; echo full; fi')
expect_eq "-l, a last line without newline" "0: partial
1: full" "$out"
ok "srun -l ends an unterminated last line"

# Slurm's input variables: SLURM_LABELIO is -l; SLURM_EXPORT_ENV (which an
# --export=NONE job carries) is --export.
expect_eq "SLURM_LABELIO" "0: x
1: x" "$(as $USER1 env SLURM_LABELIO=1 "$BIN/srun" -n 2 echo x | sort)"
out=$(as $USER1 env BAR=2 SLURM_EXPORT_ENV=NONE "$BIN/srun" /bin/sh -c 'echo "BAR=${BAR-unset}"')
expect_eq "SLURM_EXPORT_ENV=NONE" "BAR=unset" "$out"
ok "srun reads SLURM_LABELIO and SLURM_EXPORT_ENV"

# -D a directory that is not there: slurmstepd's line, and the task runs in /tmp.
out=$(as $USER1 "$BIN/srun" -D /nonexistent pwd 2>err.d); rc=$?
expect_eq "-D missing" "0|/tmp" "$rc|$out"
line="slurmstepd-$(hostname -s): error: couldn't chdir to \`/nonexistent': No such file or directory: going to /tmp instead"
expect_eq "-D missing, stderr (twice, as slurmstepd writes it)" "$line
$line" "$(cat err.d)"
ok "srun -D a missing directory goes to /tmp, as slurmstepd"

# salloc as 22.05: a command it cannot find is told before it would fork
# (exit 1); a command killed by SIGKILL is a normal end (0), by SIGTERM 1.
out=$(as $USER1 "$BIN/salloc" -n 1 nosuchcmd 2>&1); rc=$?
expect_eq "salloc nosuchcmd rc" 1 "$rc"
echo "$out" | grep -qx 'salloc: error: _fork_command: Unable to find command "nosuchcmd"' ||
	fail "salloc nosuchcmd: $out"
as $USER1 "$BIN/salloc" -n 1 sh -c 'kill -9 $$' 2>/dev/null
expect_eq "salloc, command killed by SIGKILL" 0 "$?"
as $USER1 "$BIN/salloc" -n 1 sh -c 'kill -TERM $$' 2>/dev/null
expect_eq "salloc, command killed by SIGTERM" 1 "$?"
ok "salloc: a missing command, and a command killed by a signal, as 22.05"

# --jobid=N from outside the job: a step in its running allocation (or
# SLURM_JOB_ID alone); Slurm's words for an unknown and an ended job.
jb=$(submit $USER1 -o /dev/null --wrap 'sleep 30') || fail "submit"
wait_state "$jb" RUNNING
expect_eq "srun --jobid" "$jb 0" "$(as $USER1 "$BIN/srun" --jobid="$jb" --overlap sh -c 'echo $SLURM_JOB_ID $SLURM_STEP_ID')"
expect_eq "SLURM_JOB_ID alone" "$jb 1" "$(as $USER1 env SLURM_JOB_ID="$jb" "$BIN/srun" --overlap sh -c 'echo $SLURM_JOB_ID $SLURM_STEP_ID')"
expect_eq "--jobid unknown" "srun: error: Unable to confirm allocation for job 999999: Invalid job id specified
srun: Check SLURM_JOB_ID environment variable. Expired or invalid job 999999" \
	"$(as $USER1 "$BIN/srun" --jobid=999999 true 2>&1)"
"$BIN/scancel" "$jb"
wait_state "$jb" CANCELLED
expect_eq "--jobid ended" "srun: error: Slurm job $jb has expired" "$(as $USER1 "$BIN/srun" --jobid="$jb" true 2>&1)"
ok "srun --jobid: a step in a running job from outside it"

# The binding options run the step unbound, as on a Slurm cluster without
# task/affinity, whose line --cpu-bind gets; a bad value is refused.
out=$(as $USER1 "$BIN/srun" -n 2 --cpu-bind=cores --mem-bind=local --gpu-bind=closest \
	sh -c 'echo ran' 2>&1)
expect_eq "--cpu-bind=cores" "srun: cluster configuration lacks support for cpu binding
ran
ran" "$out"
as $USER1 "$BIN/srun" -n 1 --cpu-bind=bogus true 2>/dev/null
expect_eq "--cpu-bind=bogus" 1 "$?"
ok "srun --cpu-bind, --mem-bind, --gpu-bind: checked, the step unbound, Slurm's line"

# In a job, --tmp, --use-min-nodes and --contiguous are taken for a step
# with no meaning there, as Slurm 22.05 takes them.
cat >stepopts.sh <<EOS
#!/bin/sh
$BIN/srun --tmp=10 --use-min-nodes --contiguous -n 1 true
echo "rc=\$?"
EOS
chmod 755 stepopts.sh
j=$(submit $USER1 -o "$T/work/stepopts.out" stepopts.sh) || fail "submit stepopts"
wait_state "$j" COMPLETED
expect_eq "step --tmp" "rc=0" "$(cat stepopts.out)"
ok "srun --tmp, --use-min-nodes, --contiguous in a job: taken, as Slurm's"
expect_eq "squeue -s N." "squeue: error: Invalid job_step id: $j.??" "$("$BIN/squeue" -s "$j." 2>&1)"
expect_eq "squeue -s abc.0" "squeue: error: Invalid job_step id: abc.0" "$("$BIN/squeue" -s abc.0 2>&1)"
expect_eq "squeue -j N." "$j" "$("$BIN/squeue" -h -t all -j "$j." -o %i)"
ok "squeue's step and job lists read as Slurm's"

# Allocation refusals: salloc's words are not srun's; -N 0 is the
# controller's to refuse, -N 3-1 the command's (reference cluster).
out=$(as $USER1 "$BIN/salloc" -N 0 true 2>&1); rc=$?
expect_eq "salloc -N 0" "1 salloc: error: Job submit/allocate failed: Node count specification invalid" "$rc $out"
out=$(as $USER1 "$BIN/srun" -N 0 true 2>&1); rc=$?
expect_eq "srun -N 0" "1 srun: error: Unable to allocate resources: Node count specification invalid" "$rc $out"
out=$(as $USER1 "$BIN/srun" -N 3-1 true 2>&1); rc=$?
expect_eq "srun -N 3-1" "255 srun: error: Maximum node count 1 is less than minimum node count 3" "$rc $out"
ok "salloc's and srun's allocation refusals, as Slurm's"

# srun's own allocation gives its tasks what Slurm's does: no memory
# variables (salloc's command has them), no SLURM_DISTRIBUTION unless the
# step asks memory (launch.c); slurmstepd's variables in salloc's steps.
out=$(as $USER1 "$BIN/srun" -n 1 env | grep -c '^SLURM_\(MEM_PER_NODE\|NODE_ALIASES\|DISTRIBUTION\)=')
expect_eq "srun's own allocation" 0 "$out"
expect_eq "with --mem" "SLURM_DISTRIBUTION=cyclic" "$(as $USER1 "$BIN/srun" -n 1 --mem=10M env | grep '^SLURM_DISTRIBUTION=')"
out=$(as $USER1 "$BIN/salloc" -n 1 "$BIN/srun" printenv SLURM_CPUS_ON_NODE SLURM_JOB_USER TMPDIR 2>/dev/null)
expect_eq "salloc's step" "1
$USER1
/tmp" "$out"
ok "srun's and salloc's steps: the environment Slurm gives them"

# A task that cannot exec: slurmstepd's line, a relative path named by the
# task's directory (reference cluster).
out=$(cd "$T/work" && as $USER1 "$BIN/srun" ./nonexist 2>&1); rc=$?
expect_eq "exec failure rc" 2 "$rc"
echo "$out" | grep -qx "slurmstepd-[^:]*: error: execve(): $T/work/./nonexist: No such file or directory" ||
	fail "execve line: [$out]"
ok "a task that cannot exec: slurmstepd's line and exit code 2"

# A job cancelled under its srun: srun hears SIGCONT and SIGTERM as Slurm's
# does, ends its tasks and reports them before the job's end is final.
j=$(submit $USER1 -o "$T/work/cx.out" --wrap "\"$BIN/srun\" sleep 300") || fail "submit"
wait_state "$j" RUNNING
n=0
until "$BIN/squeue" -h -s -j "$j" | grep -q "$j\.0"; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "no step"; sleep 0.1
done
as $USER1 "$BIN/scancel" "$j" || fail "scancel"
wait_state "$j" CANCELLED
grep -qx "srun: forcing job termination" "$T/work/cx.out" || fail "no srun line in [$(cat "$T/work/cx.out")]"
grep -qx "srun: error: [^:]*: task 0: \(Terminated\|Killed\)" "$T/work/cx.out" || fail "no task line in [$(cat "$T/work/cx.out")]"
# slurmctld's word to the step's srun, and the step's slurmstepd's line
grep -qx "srun: Job step aborted: Waiting up to 32 seconds for job step to finish." "$T/work/cx.out" ||
	fail "no step-aborted line in [$(cat "$T/work/cx.out")]"
grep -qx "slurmstepd-[^:]*: error: \*\*\* STEP $j\.0 ON [^ ]* CANCELLED AT [0-9T:-]* \*\*\*" "$T/work/cx.out" ||
	fail "no STEP line in [$(cat "$T/work/cx.out")]"
ok "a cancelled job's srun ends its tasks and says so, as Slurm's"

# A requeued job's steps stay with their run: sacct lists the new run's
# alone, sacct -D the old run's under its REQUEUED record (slurmdbd's).
rq=$(submit $USER1 -o /dev/null --wrap "\"$BIN/srun\" sleep 300") || fail "submit"
n=0
until "$BIN/squeue" -h -s -j "$rq" | grep -q "$rq\.0"; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "no step"; sleep 0.1
done
"$BIN/scontrol" requeue "$rq" || fail "requeue"
wait_state "$rq" PENDING
expect_eq "sacct, pending again" "$rq|PENDING" "$("$BIN/sacct" -n -P -j "$rq" -o JobID,State)"
expect_eq "sacct -D" "$rq|REQUEUED
$rq.batch|CANCELLED
$rq.0|CANCELLED
$rq|PENDING" "$("$BIN/sacct" -D -n -P -j "$rq" -o JobID,State)"
# the next run numbers its steps from 0 again, as slurmctld's
"$BIN/scontrol" update JobId="$rq" StartTime=now || fail "StartTime=now"
n=0
until "$BIN/squeue" -h -s -j "$rq" | grep -q "$rq\.0 "; do
	n=$((n + 1)); [ $n -lt 150 ] || fail "no step $rq.0 in the new run: $("$BIN/squeue" -h -s -j "$rq")"
	sleep 0.1
done
as $USER1 "$BIN/scancel" "$rq"
ok "a requeued job's steps stay with their run in sacct; the next run's start at 0"

# -F/--nodefile and -w or -x naming a file, for srun and salloc: the host
# file's names (Slurm's slurm_read_hostfile), its errors in Slurm's words:
# -F exits 255, -w and -x 1, -x's read first (22.05's opt.c).
node=$(hostname -s)
printf '%s # this host\n' "$node" >"$T/work/hosts.txt"
chmod 644 "$T/work/hosts.txt"
expect_eq "srun -F" "$node" "$(cd "$T/work" && as $USER1 "$BIN/srun" -F hosts.txt hostname -s)"
out=$(cd "$T/work" && as $USER1 "$BIN/srun" -F nosuch.txt true 2>&1); rc=$?
expect_eq "srun -F missing" "255 srun: error: slurm_allocate_resources error opening file nosuch.txt, No such file or directory
srun: error: Invalid --nodefile node file" "$rc $out"
out=$(cd "$T/work" && as $USER1 "$BIN/salloc" -F nosuch.txt true 2>&1); rc=$?
expect_eq "salloc -F missing" "255 salloc: error: slurm_allocate_resources error opening file nosuch.txt, No such file or directory
salloc: error: Invalid --nodefile node file" "$rc $out"
out=$(cd "$T/work" && as $USER1 "$BIN/srun" -w ./nosuch.txt true 2>&1); rc=$?
expect_eq "srun -w ./missing" "1 srun: error: slurm_allocate_resources error opening file ./nosuch.txt, No such file or directory" "$rc $out"
out=$(cd "$T/work" && as $USER1 "$BIN/srun" -w ./hosts.txt -x ./nosuch.txt true 2>&1); rc=$?
expect_eq "srun -x ./missing" "1 srun: error: slurm_allocate_resources error opening file ./nosuch.txt, No such file or directory" "$rc $out"
printf '%s-7\n' "$node" >"$T/work/other.txt"
chmod 644 "$T/work/other.txt"
expect_eq "srun -x ./file" "$node" "$(cd "$T/work" && as $USER1 "$BIN/srun" -x ./other.txt hostname -s)"
# salloc -x, as sbatch -x: a node of the cluster not this one changes
# nothing, a name no node has is the controller's refusal
expect_eq "salloc -x HOST-N" "$node" "$(as $USER1 "$BIN/salloc" -x "$node-7" hostname -s 2>/dev/null)"
out=$(as $USER1 "$BIN/salloc" -x nosuchnode true 2>&1); rc=$?
expect_eq "salloc -x nosuchnode" "1 salloc: error: Job submit/allocate failed: Invalid node name specified" "$rc $out"
out=$(cd "$T/work" && as $USER1 "$BIN/salloc" -x ./nosuch.txt true 2>&1); rc=$?
expect_eq "salloc -x ./missing" "1 salloc: error: slurm_allocate_resources error opening file ./nosuch.txt, No such file or directory" "$rc $out"
expect_eq "salloc -x ./file" "$node" "$(cd "$T/work" && as $USER1 "$BIN/salloc" -x ./other.txt hostname -s 2>/dev/null)"
out=$(as $USER1 "$BIN/salloc" -w "$node" -x "$node" true 2>&1); rc=$?
expect_eq "salloc -w and -x one node" "1 salloc: error: Job submit/allocate failed: Invalid node name specified" "$rc $out"
ok "srun and salloc -F, -w ./file, -x ./file: host files as Slurm reads them; salloc -x"

# -w naming more nodes than -N's maximum (in a job, its count when -N is
# not typed): srun's line, the last names dropped; -x naming a node of the
# cluster outside the job changes nothing, a name no node has is refused
# (the reference cluster's srun in a -N3 job, and outside one).
elim='srun: error: Required nodelist includes more nodes than permitted by max-node count'
cat >"$T/work/wmax.sh" <<EOS
#!/bin/sh
$BIN/srun -w $node-2,$node-0,$node-1 -N2 printenv SLURM_STEP_NODELIST 2>&1 | uniq
$BIN/srun -w "$node-[0-2]" -N2 -n1 printenv SLURM_STEP_NODELIST 2>&1
$BIN/srun -w "$node-[0-1]" printenv SLURM_STEP_NODELIST 2>&1 | uniq
$BIN/srun -x $node-7 printenv SLURM_STEP_NODELIST 2>&1 | uniq
$BIN/srun -x nosuchnode printenv SLURM_STEP_NODELIST 2>&1
true
EOS
chmod 755 "$T/work/wmax.sh"
j=$(submit $USER1 -N3 -o "$T/work/wmax.out" "$T/work/wmax.sh") || fail "submit"
wait_state "$j" COMPLETED 60
expect_eq "srun -w past -N's maximum in a job" "$elim (3 > 2). Eliminating nodes from the nodelist.
$node-[0,2]
$elim (3 > 2). Eliminating nodes from the nodelist.
srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
$node-0
$node-[0-2]
$node-[0-2]
srun: error: Unable to create step for job $j: Invalid node name specified" "$(cat "$T/work/wmax.out")"
expect_eq "srun -w past -N's maximum" "$elim (3 > 2). Eliminating nodes from the nodelist.
$node-[0-1]" "$(as $USER1 "$BIN/srun" -w "$node-[0-2]" -N2 printenv SLURM_JOB_NODELIST 2>&1 | uniq)"
ok "srun -w past -N's maximum: Slurm's line, the last names dropped; -x of a node outside the job"

# srun --test-only (ReFrame probes partitions with it): the line sbatch's
# --test-only prints, srun's name; nothing runs, nothing stays queued.
before=$("$BIN/squeue" -h | wc -l)
out=$(as $USER1 "$BIN/srun" --test-only -n 2 -t 5 touch "$T/work/ran" 2>&1); rc=$?
case "$rc $out" in
"0 srun: Job "[0-9]*" to start at "*" using 2 processors on nodes "*" in partition "*) ;;
*) fail "srun --test-only: [$rc $out]" ;;
esac
[ ! -e "$T/work/ran" ] || fail "srun --test-only ran its command"
expect_eq "nothing queued" "$before" "$("$BIN/squeue" -h | wc -l)"
out=$(as $USER1 "$BIN/srun" --test-only -p nosuch true 2>&1); rc=$?
expect_eq "srun --test-only -p nosuch" "1 srun: error: invalid partition specified: nosuch
allocation failure: Invalid partition name specified" "$rc $out"
expect_eq "srun -Q --test-only" "0|" "$(as $USER1 "$BIN/srun" -Q --test-only true 2>&1; echo "$?|")"
out=$(as $USER1 "$BIN/salloc" --test-only 2>&1); rc=$?
expect_eq "salloc has no --test-only (22.05)" "255 salloc: unrecognized option '--test-only'
Try \"salloc --help\" for more information" "$rc $out"
ok "srun --test-only: when, as sbatch's; salloc refuses it as 22.05's"

# A job that asked no memory has a node's (none more): a step asking more
# than the node is refused, as slurmctld refuses it; a smaller one runs.
k=$(as $USER1 "$BIN/sbatch" --parsable -o "$T/work/nomem.out" \
	--wrap "$BIN/srun --mem=99999G true; echo rc=\$?; $BIN/srun --mem=10M true; echo rc=\$?") ||
	fail "submit"
wait_state "$k" COMPLETED 60
expect_eq "a step past the node's memory" "srun: error: Unable to create step for job $k: Memory required by task is not available
rc=1
rc=0" "$(cat "$T/work/nomem.out")"
ok "a step asking more memory than a node has is refused"
