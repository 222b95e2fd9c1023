#!/bin/sh
# pbsdsh in qsub jobs, as HyperQueue's PBS allocations run it (`pbsdsh --
# bash -l -c CMD` in a select=2 job): a copy per vnode with its node and
# task numbers, -n, -c round the vnodes, -h, -s and -v's lines, -o not
# waiting, a copy's exit status and an exec failure told as OpenPBS's
# pbsdsh tells them, TERM killing the copies, the steps in sacct; vnodes
# per MPI process (mpiprocs=2); in an sbatch job too; and outside a job,
# OpenPBS's refusals. srun_agent.sh runs pbsdsh through pods' step agents.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=8 write_conf
start_daemon
cd "$T/work"
S=$(hostname -s)
P="$BIN/pbsdsh"

# run NAME SCRIPT_BODY SELECT: a qsub job of two chunks running the body
# (@P@ is pbsdsh) in $T/work; its output in NAME.out; its sequence number.
run() {
	{
		printf '#!/bin/sh\n#PBS -l select=%s\n#PBS -j oe\n#PBS -o %s.out\ncd "$PBS_O_WORKDIR"\n' \
			"$3" "$1"
		printf '%s\n' "$2" | sed "s|@P@|$P|g"
	} >"$1.pbs"
	_id=$(as $USER1 "$BIN/qsub" "$1.pbs") || fail "qsub $1: $_id"
	echo "${_id%%.*}"
}

# A: two chunks of one CPU, one vnode each (HyperQueue's -l select=2).
a=$(run a '
@P@ -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM task \$PBS_TASKNUM step \$SLURM_STEP_ID \$SLURMD_NODENAME \$PBS_JOBID \$(pwd)" >all.out
echo "all $?"
@P@ -- bash -l -c "echo hq \$PBS_NODENUM" >hq.out
@P@ -n 1 -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM task \$PBS_TASKNUM step \$SLURM_STEP_ID \$SLURMD_NODENAME" >n1.out
echo "n1 $?"
@P@ -c 3 -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM task \$PBS_TASKNUM" >c3.out
echo "c3 $?"
@P@ -- sh -c "exit \$((PBS_VNODENUM + 2))" >exit.out
echo "exit $?"
@P@ -n 0 -- /nonexistent/prog >exec.out 2>exec.err
echo "exec $?"
@P@ -v -s -- true >vs.out
echo "vs $?"
@P@ -v -- sh -c "if [ \$PBS_VNODENUM = 0 ]; then touch m0; else while [ ! -e m0 ]; do sleep 0.1; done; sleep 0.3; fi" >v.out
echo "v $?"
@P@ -h '"$S"' -- sh -c "echo h \$PBS_VNODENUM" >h.out
@P@ -h nosuch -- true >hbad.out 2>&1
echo "hbad $?"
@P@ -- "" >empty.out 2>&1
echo "empty $?"
@P@ -o -- sh -c "sleep 1; echo late >o\$PBS_VNODENUM"
echo "o $? $(ls o0 o1 2>/dev/null | wc -l)"
@P@ -- sh -c "sleep 30; : pbsdsh_marker_'"$$"'" >term.out &
pid=$!
while [ "$(pgrep -f pbsdsh_marker_'"$$"' | wc -l)" -lt 3 ]; do sleep 0.1; done
kill -TERM $pid
wait $pid
echo "term $?"
sleep 1.5
echo "left $(pgrep -f pbsdsh_marker_'"$$"' | wc -l) $(cat o0 o1)"
' 2:ncpus=1)
# B: two chunks of two MPI processes: four vnodes, two on each node.
b=$(run b '
@P@ -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM task \$PBS_TASKNUM local \$SLURM_LOCALID" >b_all.out
@P@ -n 3 -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM \$SLURMD_NODENAME" >b_n3.out
@P@ -c 6 -- sh -c "echo copy \$PBS_VNODENUM node \$PBS_NODENUM task \$PBS_TASKNUM" >b_c6.out
@P@ -- sh -c "touch sc\$PBS_VNODENUM; exec sleep 30" >b_sc.out
echo "sc $?" >>b_sc.out
' 2:ncpus=2:mpiprocs=2)
# C: an sbatch job of two nodes: spank_pbs's PBS_JOBID, no PBS_ENVIRONMENT
printf '#!/bin/sh\n#SBATCH -N 2 -o c.out\n%s -- sh -c "echo \\$PBS_NODENUM \\$PBS_VNODENUM \\$PBS_TASKNUM \\$PBS_JOBID"\n' \
	"$P" >c.sh
c=$(as $USER1 "$BIN/sbatch" --parsable c.sh) || fail "sbatch: $c"
wait_until "B's fourth step" '[ -e sc0 ] && [ -e sc1 ] && [ -e sc2 ] && [ -e sc3 ]'
as $USER1 "$BIN/scancel" "$b.3" || fail "scancel $b.3"
wait_state "$a" COMPLETED 60
wait_state "$b" COMPLETED 60
wait_state "$c" COMPLETED 60

expect_eq "A's statuses" "all 0
n1 0
c3 0
exit 0
exec 0
vs 0
v 0
hbad 1
empty 0
o 0 0
term 1
left 0 late
late" "$(cat a.out)"
ok "pbsdsh exits 0 whatever the copies' statuses, 1 on a bad command line or TERM; -o does not wait"

expect_eq "a copy per vnode" "copy 0 node 0 task 00000002 step 0 $S-0 $a.$S $T/work
copy 1 node 1 task 00000003 step 0 $S-1 $a.$S $T/work" "$(sort all.out)"
expect_eq "bash -l -c, as HyperQueue runs its workers" "hq 0
hq 1" "$(sort hq.out)"
expect_eq "-n 1" "copy 1 node 1 task 00000002 step 2 $S-1" "$(cat n1.out)"
expect_eq "-c 3 goes round the vnodes" "copy 0 node 0 task 00000002
copy 0 node 0 task 00000004
copy 1 node 1 task 00000003" "$(sort c3.out)"
ok "select=2: a copy on each node, PBS_NODENUM, PBS_VNODENUM, PBS_TASKNUM as MOM's; -n, -c"

expect_eq "exit statuses" "$P: task 0x00000000 exit status 2
$P: task 0x00000001 exit status 3" "$(sort exit.out)"
expect_eq "exec failure (pbsdsh)" "$P: task 0x00000000 exit status 254" "$(cat exec.out)"
expect_eq "exec failure (task)" "/nonexistent/prog: No such file or directory" "$(cat exec.err)"
ok "a copy's non-zero exit status told; a program that cannot run: MOM's line, 254"

expect_eq "-v -s" "$P: spawned task 0x00000000 on logical node 0 event 2
pbsdsh: waiting on 1 spawned and 0 obits
pbsdsh: waiting on 0 spawned and 1 obits
$P: task 0x00000000 exit status 0
$P: spawned task 0x00000001 on logical node 1 event 4
pbsdsh: waiting on 1 spawned and 0 obits
pbsdsh: waiting on 0 spawned and 1 obits
$P: task 0x00000001 exit status 0" "$(cat vs.out)"
expect_eq "-v" "$P: spawned task 0x00000000 on logical node 0 event 2
$P: spawned task 0x00000001 on logical node 1 event 3
pbsdsh: waiting on 2 spawned and 0 obits
pbsdsh: waiting on 1 spawned and 1 obits
pbsdsh: waiting on 0 spawned and 2 obits
$P: task 0x00000000 exit status 0
pbsdsh: waiting on 0 spawned and 1 obits
$P: task 0x00000001 exit status 0" "$(cat v.out)"
ok "-s and -v: OpenPBS's spawn, wait and obit lines and event numbers"

expect_eq "-h" "h 0" "$(cat h.out)"
grep -qx "$P: spawn failed on node 1 err no matching job found (17006)" empty.out ||
	fail "empty program: $(cat empty.out)"
expect_eq "term" "pbsdsh: killing task 0x00000002 signal 15
pbsdsh: killing task 0x00000003 signal 15" "$(cat term.out)"
ok "-h names a node file's host; an empty program; TERM kills the copies"

# sacct: each pbsdsh a step of the job, its copies its tasks
steps=$("$BIN/sacct" -n -P -j "$a" -o JobID,JobName,NTasks,State,ExitCode | grep "^$a\.[0-9]")
expect_eq "steps" "$a.0|sh|2|COMPLETED|0:0
$a.1|bash|2|COMPLETED|0:0
$a.2|sh|1|COMPLETED|0:0
$a.3|sh|3|COMPLETED|0:0
$a.4|sh|2|FAILED|3:0" "$(echo "$steps" | head -n 5)"
echo "$steps" | grep -q "^$a\.[0-9]*|sh|2|CANCELLED|0:15$" || fail "TERM's step: $steps"
ok "sacct shows every pbsdsh as a step, its copies as its tasks"

expect_eq "B: a copy per MPI process" "copy 0 node 0 task 00000002 local 0
copy 1 node 0 task 00000003 local 1
copy 2 node 1 task 00000004 local 0
copy 3 node 1 task 00000005 local 1" "$(sort b_all.out)"
expect_eq "B: -n 3" "copy 3 node 1 $S-1" "$(cat b_n3.out)"
expect_eq "B: -c 6" "copy 0 node 0 task 00000002
copy 0 node 0 task 00000006
copy 1 node 0 task 00000003
copy 1 node 0 task 00000007
copy 2 node 1 task 00000004
copy 3 node 1 task 00000005" "$(sort b_c6.out)"
ok "mpiprocs=2: four vnodes, two on each node, as PBS_NODEFILE's lines; -n and -c over them"
expect_eq "B: scancel of the step" "$P: task 0x00000000 exit status 265
$P: task 0x00000001 exit status 265
$P: task 0x00000002 exit status 265
$P: task 0x00000003 exit status 265
sc 0" "$(sort b_sc.out)"
expect_eq "B: the step cancelled" "CANCELLED by $(id -u $USER1)" "$("$BIN/sacct" -n -P -j "$b.3" -o State)"
ok "scancel N.S kills the copies (SIGKILL: 256 + 9, as MOM's obit has it)"

expect_eq "C: an sbatch job" "0 0 00000002 $c
1 1 00000003 $c" "$(sort c.out)"
ok "an sbatch job's copies: a job with spank_pbs's PBS_JOBID is one to pbsdsh"

# outside a job: OpenPBS's words, after the usage checks
outside() {
	got=$(as $USER1 env -u PBS_ENVIRONMENT -u PBS_JOBID -u SLURM_JOB_ID "$@" 2>"$T/err")
	echo "$? $(cat "$T/err")"
}
expect_eq "outside a job" "1 $P: not executing under PBS" "$(outside "$P" -- hostname)"
expect_eq "usage first" "1 $P: invalid option -- 'x'
Usage: $P [-c copies][-s][-v][-o] -- program [args...]" "$(outside "$P" -x -- hostname | head -n 2)"
expect_eq "no job's variables" "1 $P: tm_init failed, rc = bad environment (17005) (17005)" \
	"$(outside env PBS_ENVIRONMENT=PBS_BATCH "$P" -- hostname)"
J="SLURM_JOB_NODELIST=$S SLURM_JOB_CPUS_PER_NODE=1 PBS_ENVIRONMENT=PBS_BATCH"
expect_eq "a job sluiced does not run" "1 $P: tm_init failed, rc = no matching job found (17006) (17006)" \
	"$(outside env $J SLURM_JOB_ID=99999 "$P" -- true)"
expect_eq "no sluiced" "1 $P: tm_init failed, rc = system error - MOM cannot be contacted (17000) (17000)" \
	"$(outside env -u SLUICE_CONF SLUICE_SOCKET="$T/none" SLUICE_CONNECT_TIMEOUT=0 $J SLURM_JOB_ID="$a" \
		"$P" -- true)"
"$P" --version | grep -qx 'pbs_version = .* (Sluice)' || fail "--version: $("$P" --version)"
ok "outside a job: not executing under PBS (1), the usage (1); tm_init's failures (1)"
