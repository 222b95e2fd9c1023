#!/bin/sh
# PBS's dialect through the real sluiced, on the same job record as Slurm's:
# a #PBS script (select, walltime, -j oe) runs unchanged with PBS's variables,
# node file, TMPDIR and output file name; qstat shows qsub's and sbatch's
# jobs and squeue qsub's; qdel, qsig and qselect; arrays (-J, -t) as N[] with
# subjobs N[I], their files NAME.oN.I and their deletes; a Torque nodes=2:ppn=4
# script; qhold/qrls by the owner, another user and an operator (root) as
# PBS's rules say; other users refused with PBS's text; Sluice's refusals.
# Texts and exit statuses are OpenPBS's (compat/pbs_job.h).
. "$top_srcdir/tests/integration/lib.sh"
make_users
EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: debug, namespace: general}
spec: {clusterQueue: main}' CPUS=16 write_conf
start_daemon
cd "$T/work"
S=$(hostname -s) # pbsServer's default: this host's short name
Q="$BIN/qstat"

# runs CMD ARGS as USER; fails unless it exits STATUS with stderr ERR and stdout OUT
# (lib.sh's wait_state uses n and s: this file names its own otherwise)
expect_run() {
	user=$1 status=$2 err=$3 out=$4
	shift 4
	got=$(as "$user" "$@" 2>"$T/err")
	rc=$?
	expect_eq "$* (exit)" "$status" "$rc"
	expect_eq "$* (stderr)" "$err" "$(cat "$T/err")"
	expect_eq "$* (stdout)" "$out" "$got"
}
seq_of() { echo "${1%%.*}"; }
row() { printf '%-17s %-16s %-16s  %8s %s %-16s' "$1" "$2" "$3" 0 "$4" "$5"; }
HEADER='Job id            Name             User              Time Use S Queue
----------------  ---------------- ----------------  -------- - -----'

# 1. A #PBS script runs unchanged: NAME.oSEQ in the submit directory (-j oe
#    joins stderr), PBS's variables, a node file, its own TMPDIR
cat >job.pbs <<'EOF'
#!/bin/sh
#PBS -N pbsjob
#PBS -l select=1:ncpus=2:mem=512mb
#PBS -l walltime=00:05:00
#PBS -j oe
cd "$PBS_O_WORKDIR"
echo "jobid=$PBS_JOBID name=$PBS_JOBNAME queue=$PBS_QUEUE env=$PBS_ENVIRONMENT"
echo "ncpus=$NCPUS omp=$OMP_NUM_THREADS workdir=$PBS_O_WORKDIR pwd=$(pwd)"
echo "nodefile=$(wc -l <"$PBS_NODEFILE") $(sort -u "$PBS_NODEFILE") tmpdir=$TMPDIR"
test -d "$TMPDIR" && touch "$TMPDIR/scratch" && echo tmpdir-ok
echo "jobdir=$PBS_JOBDIR momport=$PBS_MOMPORT cookie=${#PBS_JOBCOOKIE}"
echo to-stderr >&2
EOF
id=$(as $USER1 "$BIN/qsub" job.pbs) || fail "qsub: $id"
pn=$(seq_of "$id")
expect_eq "qsub prints N.server" "$pn.$S" "$id"
wait_state "$pn" COMPLETED
[ -f "$T/work/pbsjob.o$pn" ] || fail "no output file pbsjob.o$pn: $(ls "$T/work")"
[ ! -e "$T/work/pbsjob.e$pn" ] || fail "-j oe wrote an error file too"
expect_eq "the job's output" "jobid=$id name=pbsjob queue=batch env=PBS_BATCH
ncpus=2 omp=2 workdir=$T/work pwd=$T/work
nodefile=1 $S tmpdir=$T/pbs.$id
tmpdir-ok
jobdir=$(getent passwd $USER1 | cut -d: -f6) momport=15003 cookie=32
to-stderr" "$(cat "$T/work/pbsjob.o$pn")"
[ ! -e "$T/pbs.$id" ] || fail "TMPDIR $T/pbs.$id left behind"
expect_eq "PBS's umask 077" "-rw-------" "$(stat -c %A "$T/work/pbsjob.o$pn")"
ok "a #PBS script ran unchanged, with PBS's environment and file names"

# 2. One job record: qstat shows an sbatch job, squeue a qsub job
j1=$(as $USER1 "$BIN/qsub" -N sleeper -l walltime=10:00 -- /bin/sleep 300) || fail "qsub: $j1"
j2=$(submit $USER1 -J slurmy --wrap "sleep 300") || fail "sbatch"
wait_state "$(seq_of "$j1")" RUNNING
wait_state "$j2" RUNNING
expect_run root 0 "" "$HEADER
$(row "$j1" sleeper $USER1 R batch)
$(row "$j2.$S" slurmy $USER1 R batch)" "$Q"
expect_eq "squeue shows the qsub job" "$(seq_of "$j1") sleeper" \
	"$("$BIN/squeue" -h -o '%i %j' -j "$(seq_of "$j1")")"
expect_run root 0 "" "$HEADER
$(row "$id" pbsjob $USER1 F batch)" "$Q" -x "$pn"
expect_run root 35 "qstat: $id Job has finished, use -x or -H to obtain historical job information" "" "$Q" "$pn"
expect_run root 153 "qstat: Unknown Job Id 99999.$S" "" "$Q" 99999
# "ID@SERVER" asks that server (PBS 13's form, Cylc's pbs_multi_cluster)
expect_run root 0 "" "$HEADER
$(row "$id" pbsjob $USER1 F batch)" "$Q" -x "$id@$S"
expect_run root 153 "qstat: Unknown Job Id 99999.$S@other" "" "$Q" "99999.$S@other"
"$Q" -f "$j1" | grep -qx "    Resource_List.walltime = 00:10:00" || fail "qstat -f: walltime"
"$Q" -f "$j1" | grep -q "^    comment = Job run at .* on ($S:ncpus=1)$" || fail "qstat -f: comment"
ok "qstat shows qsub's and sbatch's jobs, squeue shows qsub's"

# 3. Signals, deletes, and another user's refusals, in PBS's words
expect_run $USER2 159 "qdel: Unauthorized Request  $j1" "" "$BIN/qdel" "$j1"
expect_run $USER2 159 "qsig: Unauthorized Request  $j1" "" "$BIN/qsig" -s USR1 "$j1"
expect_run $USER1 0 "" "" "$BIN/qdel" "$j1@$S"
wait_state "$(seq_of "$j1")" CANCELLED
# PBS's MOM writes nothing of a delete into the job's files (the
# "CANCELLED AT" line is slurmstepd's)
[ -f "sleeper.e$(seq_of "$j1")" ] || fail "qsub -N sleeper: no sleeper.e$(seq_of "$j1")"
! grep -q "CANCELLED AT" "sleeper.e$(seq_of "$j1")" || fail "qdel: slurmstepd's line in a qsub job's stderr"
expect_run $USER1 35 "qdel: Job has finished $j1" "" "$BIN/qdel" "$j1"
expect_run root 153 "qdel: Unknown Job Id 99999.$S" "" "$BIN/qdel" 99999
expect_run root 1 "qdel: illegally formed job identifier: x1" "" "$BIN/qdel" x1
expect_run $USER1 165 "qsig: Unknown/illegal signal name $j2.$S" "" "$BIN/qsig" -s NOSUCH "$j2"
expect_run $USER1 0 "" "" "$BIN/qsig" -s KILL "$j2"
wait_state "$j2" CANCELLED
ok "qdel and qsig: the owner's act, another user's are refused"

# 4. A Torque script: nodes=2:ppn=4 is 2 nodes of 4 MPI processes, with
#    Torque's MOM's variables (start_exec.c: PBS_NP the slots, PBS_NUM_NODES
#    and PBS_NUM_PPN of the nodes spec, PBS_WALLTIME, PBS_VNODENUM) and -d's
#    PBS_O_INITDIR, where the job starts
cat >torque.pbs <<'EOF'
#!/bin/sh
#PBS -l nodes=2:ppn=4
#PBS -l walltime=5:00
#PBS -e $PBS_O_WORKDIR/${PBS_JOBNAME}.err.$PBS_JOBID
start=$(pwd)
cd $PBS_O_WORKDIR
echo "ranks=$(wc -l <$PBS_NODEFILE) tasks=$SLURM_TASKS_PER_NODE nodes=$SLURM_JOB_NUM_NODES ncpus=$NCPUS"
echo "np=$PBS_NP num_nodes=$PBS_NUM_NODES num_ppn=$PBS_NUM_PPN walltime=$PBS_WALLTIME vnodenum=$PBS_VNODENUM"
echo "initdir=$PBS_O_INITDIR start=$start"
EOF
mkdir -p "$T/work/init"
t=$(as $USER1 "$BIN/qsub" -d init torque.pbs) || fail "qsub torque: $t"
wait_state "$(seq_of "$t")" COMPLETED
expect_eq "Torque's nodes=2:ppn=4" "ranks=8 tasks=4(x2) nodes=2 ncpus=4
np=8 num_nodes=2 num_ppn=4 walltime=300 vnodenum=0
initdir=$T/work/init start=$T/work/init" \
	"$(cat "$T/work/torque.pbs.o$(seq_of "$t")")"
# Torque's MOM expands the job's variables in -o/-e (start_exec.c:9651)
expect_eq "stderr apart, named by its variables, empty" "" "$(cat "$T/work/torque.pbs.err.$t")"
# OpenPBS's does not: the name is the one written
l=$(as $USER1 "$BIN/qsub" -W block=true -o '$PBS_JOBID.lit' -j oe -- /bin/true) || fail "qsub: $l"
[ -f "$T/work/\$PBS_JOBID.lit" ] || fail "an OpenPBS job's -o with \$PBS_JOBID: $(ls "$T/work")"
# OpenPBS's server keeps nodes= beside the select it converts it into,
# placed scatter (svr_jobfunc.c:1805-1819)
expect_eq "qstat -f: Torque's nodes beside PBS's select" "    Resource_List.mpiprocs = 8
    Resource_List.ncpus = 8
    Resource_List.nodect = 2
    Resource_List.nodes = 2:ppn=4
    Resource_List.place = scatter
    Resource_List.select = 2:ncpus=4:mpiprocs=4
    Resource_List.walltime = 00:05:00" "$("$Q" -f -x "$t" | grep '^    Resource_List\.')"
ok "a Torque nodes=2:ppn=4 script ran on 2 nodes of 4"

# 5. Holds: a user hold is the owner's or an operator's, an operator hold an
#    operator's alone; releasing a hold the job does not have changes nothing
h=$(as $USER1 "$BIN/qsub" -h -N held -- /bin/true) || fail "qsub -h: $h"
hold_types() { "$Q" -f "$1" | sed -n 's/^    Hold_Types = //p'; }
expect_eq "qsub -h" "u" "$(hold_types "$h")"
expect_run $USER2 159 "qrls: Unauthorized Request  $h" "" "$BIN/qrls" "$h"
expect_run $USER1 159 "qhold: Unauthorized Request  $h" "" "$BIN/qhold" -h o "$h"
expect_run root 0 "" "" "$BIN/qhold" -h o "$h"
expect_eq "an operator's hold" "o" "$(hold_types "$h")"
expect_run $USER1 0 "" "" "$BIN/qrls" "$h"
expect_eq "the user's release leaves the operator's hold" "o" "$(hold_types "$h")"
expect_run $USER1 159 "qrls: Unauthorized Request  $h" "" "$BIN/qrls" -h o "$h"
expect_run root 0 "" "" "$BIN/qrls" -h o "$h"
wait_state "$(seq_of "$h")" COMPLETED
h2=$(as $USER1 "$BIN/qsub" -N held2 -- /bin/sleep 300) || fail "qsub: $h2"
wait_state "$(seq_of "$h2")" RUNNING
expect_run $USER1 181 "qhold: No support for requested service $h2" "" "$BIN/qhold" "$h2"
expect_run $USER1 0 "" "" "$BIN/qdel" "$h2"
wait_state "$(seq_of "$h2")" CANCELLED
h3=$(as $USER1 "$BIN/qsub" -h -N held3 -- /bin/true) || fail "qsub: $h3"
expect_run root 0 "" "" "$BIN/qhold" "$h3" # an operator's user hold: the owner may release it
expect_eq "still a user hold" "u" "$(hold_types "$h3")"
expect_run $USER1 0 "" "$h3" "$BIN/qselect" -u $USER1 -s H
expect_run $USER1 0 "" "" "$BIN/qrls" "$h3"
wait_state "$(seq_of "$h3")" COMPLETED
ok "qhold/qrls: owner, other user and operator as PBS rules them"

# 6. Queues, server and node; Sluice's refusals
"$Q" -Q | grep -qx "batch                0     0 yes yes     0     0     0     0     0     0 Exe\*" ||
	fail "qstat -Q: $("$Q" -Q)"
"$Q" -Qf | grep -qx "    resources_available.ncpus = 16" || fail "qstat -Qf: $("$Q" -Qf)"
expect_eq "pbsnodes -a" "$S" "$("$BIN/pbsnodes" -a | head -n1)"
# marking the node offline (an operator's; scontrol's DRAIN), as OpenPBS
expect_run $USER1 159 "Error marking node $S - Unauthorized Request " "" "$BIN/pbsnodes" -o "$S"
expect_run root 214 "Error marking node nosuch - Unknown node " "" "$BIN/pbsnodes" -o nosuch
expect_run root 0 "" "" "$BIN/pbsnodes" -o -C "bad disk" "$S"
expect_run root 0 "" "$(printf '%-20s offline bad disk' "$S")" "$BIN/pbsnodes" -l
"$BIN/pbsnodes" -a | grep -qx "     comment = bad disk" || fail "pbsnodes -a: $("$BIN/pbsnodes" -a)"
expect_eq "sinfo -R" "bad disk" "$("$BIN/sinfo" -h -R -o %E)"
expect_run root 0 "" "" "$BIN/pbsnodes" -r "$S"
expect_run root 0 "" "" "$BIN/pbsnodes" -l
expect_run root 0 "" "" "$BIN/pbsnodes" -c "$S"
"$BIN/pbsnodes" -o -r "$S" 2>/dev/null && fail "pbsnodes -o -r: not a usage error"
expect_run $USER1 1 "Node: nosuch,  Error: Unknown node " "" "$BIN/pbsnodes" nosuch
# the summaries (OpenPBS's prt_node_summary()) while a job runs: -S, -Sj,
# and -aSj -F json read as Open OnDemand's PBS Pro adapter reads it
# (cluster_info: each node's "ncpus f/t" and "ngpus f/t", free/total)
nj=$(as $USER1 "$BIN/qsub" -N onnode -l select=1:ncpus=2:mem=512mb -- /bin/sleep 300) ||
	fail "qsub: $nj"
wait_state "$(seq_of "$nj")" RUNNING
expect_run $USER1 0 "" "vnode           state           OS       hardware host            queue        mem     ncpus   nmics   ngpus  comment
--------------- --------------- -------- -------- --------------- ---------- -------- ------- ------- ------- ---------
$(printf '%-15.15s %-15s %-8s %-8s %-15.15s %-10s %8s %7s %7s %7s %s' "$S" free -- -- "$S" -- 32gb 16 0 0 --)" \
	"$BIN/pbsnodes" -aS
expect_run $USER1 0 "" "                                                        mem       ncpus   nmics   ngpus
vnode           state           njobs   run   susp      f/t        f/t     f/t     f/t   jobs
--------------- --------------- ------ ----- ------ ------------ ------- ------- ------- -------
$(printf '%-15.15s %-15s %6d %5d %6d %12s %7s %7s %7s %s' "$S" free 1 1 0 31gb/32gb 14/16 0/0 0/0 "$(seq_of "$nj")")" \
	"$BIN/pbsnodes" -Sj "$S"
ood=$(as $USER1 "$BIN/pbsnodes" -aSj -F json) || fail "pbsnodes -aSj -F json: exit $?"
expect_eq "pbsnodes -aSj -F json as OOD reads it" \
	"nodes=1 cpus=14/16 active=2 gpus=0/0 jobs=[\"$nj\"] State=free server=$S" \
	"$(printf '%s' "$ood" | python3 -c '
import json, sys
d = json.load(sys.stdin)
(name, n), = d["nodes"].items()
f, t = (int(x) for x in n["ncpus f/t"].split("/"))
fg, tg = (int(x) for x in n["ngpus f/t"].split("/"))
print("nodes=%d cpus=%d/%d active=%d gpus=%d/%d jobs=%s State=%s server=%s" % (
    len(d["nodes"]), f, t, t - f, fg, tg, json.dumps(n["jobs"]), n["State"], d["pbs_server"]))')"
expect_eq "pbsnodes -a -F json: the node's jobs" "[\"$nj\"] 2" "$(as $USER1 "$BIN/pbsnodes" -a -F json |
	python3 -c 'import json, sys; v, = json.load(sys.stdin)["nodes"].values()
print(json.dumps(v["jobs"]), v["resources_assigned"]["ncpus"])')"
expect_run $USER1 0 "" "" "$BIN/qdel" "$nj"
wait_state "$(seq_of "$nj")" CANCELLED
expect_run $USER1 1 "qsub: -R is not supported by Sluice" "" "$BIN/qsub" -R oe job.pbs
expect_run $USER1 1 "qsub: -W depend=beforeok is not supported by Sluice (only after, afterok, afternotok and afterany)" "" \
	"$BIN/qsub" -W depend=beforeok:1 job.pbs
expect_run $USER1 1 "qsub: -X is not supported by Sluice" "" "$BIN/qsub" -X job.pbs
expect_run $USER1 1 "qsub: -W x is not supported by Sluice" "" "$BIN/qsub" -W x=nmatchpolicy:exactnode job.pbs
expect_run $USER1 170 "qsub: Unknown queue" "" "$BIN/qsub" -q nosuch job.pbs
expect_run $USER1 1 "qalter: -S (the job's shell cannot be changed) is not supported by Sluice" "" \
	"$BIN/qalter" -S /bin/bash "$id"
ok "qstat -Q, pbsnodes (-S, -Sj, -F json), and what Sluice refuses"

# 7. Dependencies (-W depend onto --dependency), a begin time (-a) and
#    -W block=true (qsub waits and exits with the job's exit status)
d1=$(as $USER1 "$BIN/qsub" -N first -- /bin/sh -c 'sleep 1; exit 3') || fail "qsub: $d1"
d2=$(as $USER1 "$BIN/qsub" -N okchild -W depend=afterok:"$d1" -- /bin/true) || fail "qsub: $d2"
d3=$(as $USER1 "$BIN/qsub" -N notok -W "depend=afternotok:$(seq_of "$d1")" -- /bin/true) ||
	fail "qsub: $d3"
dependency() { "$BIN/scontrol" show job "$(seq_of "$1")" | sed -n 's/.* Dependency=//p'; }
expect_eq "depend as Slurm's dependency" "afterok:$(seq_of "$d1")(unfulfilled)" "$(dependency "$d2")"
wait_state "$(seq_of "$d3")" COMPLETED
# afterok of a job that failed can never run: the server deletes it
# (depend_on_term(), req_register.c: beforeok with a non-zero exit)
wait_state "$(seq_of "$d2")" CANCELLED
"$Q" -x "$d2" | grep -q "^$d2 .* F batch" || fail "afterok of a failed job deleted: $("$Q" -x "$d2")"
# while the parent runs, the dependency is a system hold
d4=$(as $USER1 "$BIN/qsub" -- /bin/sleep 30) || fail "qsub: $d4"
d5=$(as $USER1 "$BIN/qsub" -W depend=afterok:"$d4" -- /bin/true) || fail "qsub: $d5"
"$Q" "$d5" | grep -q "^$d5 .* H batch" || fail "a dependency is a system hold: $("$Q" "$d5")"
"$Q" -f "$d5" | grep -qx "    Hold_Types = s" || fail "Hold_Types s: $("$Q" -f "$d5")"
expect_run $USER1 0 "" "" "$BIN/qdel" "$d5" "$d4"
expect_run $USER1 206 "qsub: Invalid Job Dependency" "" "$BIN/qsub" -W depend=afterok:99999 job.pbs
at=$(date -d '+2 hours' +%Y%m%d%H%M)
a1=$(as $USER1 "$BIN/qsub" -a "$at" -- /bin/true) || fail "qsub -a: $a1"
expect_eq "-a CCYYMMDDhhmm is the begin time" "$(date -d "${at%????} ${at#????????}" +%Y-%m-%dT%H:%M:00)" \
	"$("$BIN/scontrol" show job "$(seq_of "$a1")" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')"
"$Q" "$a1" | grep -q "^$a1 .* W batch" || fail "-a: state W: $("$Q" "$a1")"
expect_run $USER1 0 "" "" "$BIN/qdel" "$a1"
expect_run $USER1 2 "qsub: illegal -a value
$(cat "$top_srcdir/tests/data/pbs/qsub_usage.out")" "" "$BIN/qsub" -a 2561 job.pbs
b=$(as $USER1 "$BIN/qsub" -W block=true -- /bin/sh -c 'exit 7')
expect_eq "block=true: the job's exit status" "7" "$?"
expect_eq "block=true: the id first" "$(seq_of "$b").$S" "$b"
expect_eq "block=true: the job had ended" "FAILED" "$(state "$(seq_of "$b")")"
# a signal ends the wait and deletes the job (bailout(), qsub.c:789)
"$BIN/qsub" -W block=true -- /bin/sleep 300 >"$T/bo" 2>"$T/be" &
qp=$!
n=0
until [ -s "$T/bo" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "qsub -W block: no id"; sleep 0.1; done
bid=$(head -n1 "$T/bo")
kill -INT $qp
wait $qp
expect_eq "block=true interrupted: exit" "2" "$?"
expect_eq "block=true interrupted: stdout" "$bid
Job $bid is being deleted" "$(cat "$T/bo")"
expect_eq "block=true interrupted: stderr" "qsub: wait for job $bid interrupted by signal 2" \
	"$(cat "$T/be")"
wait_state "$(seq_of "$bid")" CANCELLED
ok "-W depend, -a and -W block=true"

# 8. qalter (what scontrol update changes) and qmove (a queued job's queue)
q=$(as $USER1 "$BIN/qsub" -h -N alterme -l walltime=10:00 -- /bin/true) || fail "qsub: $q"
expect_run $USER1 0 "" "" "$BIN/qalter" -l walltime=1:30:00 -N altered -W depend=afterany:"$d1" "$q"
"$Q" -f "$q" | grep -qx "    Resource_List.walltime = 01:30:00" || fail "qalter -l walltime"
"$Q" -f "$q" | grep -qx "    Job_Name = altered" || fail "qalter -N: $("$Q" -f "$q")"
expect_eq "qalter -W depend" "afterany:$(seq_of "$d1")(unfulfilled)" "$(dependency "$q")"
expect_run $USER2 159 "qalter: Unauthorized Request  $q" "" "$BIN/qalter" -N x "$q"
expect_run $USER1 153 "qalter: Unknown Job Id 99999.$S" "" "$BIN/qalter" -N x 99999
expect_run $USER1 206 "qalter: Invalid Job Dependency $q" "" "$BIN/qalter" -W depend=afterok:99999 "$q"
expect_run $USER1 2 "qalter: illegal -N value
$(cat "$top_srcdir/tests/data/pbs/qalter_usage.out")" "" "$BIN/qalter" -N 'a b' "$q"
expect_run $USER1 0 "" "" "$BIN/qalter" -A general -m ae -M someone@example.org -r n \
	-o alt.out -e "$S:$(pwd)/alt.err" -l select=2:ncpus=2:mem=100mb "$q"
qf=$("$Q" -f "$q")
for want in "Account_Name = general" "Mail_Points = ae" "Mail_Users = someone@example.org" \
	"Rerunable = False" "Output_Path = $S:$(pwd)/alt.out" "Error_Path = $S:$(pwd)/alt.err" \
	"Resource_List.nodect = 2" "Resource_List.ncpus = 4"; do
	echo "$qf" | grep -qxF "    $want" || fail "qalter: no '$want' in: $qf"
done
expect_run $USER1 201 "qalter: Invalid Account $q" "" "$BIN/qalter" -A nosuch "$q"
expect_run $USER1 1 "qalter: -o naming a directory (name the file) is not supported by Sluice" "" \
	"$BIN/qalter" -o /tmp "$q"
"$BIN/scontrol" update PartitionName=debug State=DRAIN || fail "drain debug"
expect_run $USER1 173 "qmove: Queue is not enabled $q" "" "$BIN/qmove" debug "$q"
"$BIN/scontrol" update PartitionName=debug State=UP || fail "debug up"
expect_run $USER1 0 "" "" "$BIN/qmove" debug "$q"
"$Q" -f "$q" | grep -qx "    queue = debug" || fail "qmove: $("$Q" -f "$q")"
expect_run $USER1 170 "qmove: Unknown queue $q" "" "$BIN/qmove" nosuch "$q"
expect_run $USER1 2 "qmove: illegally formed destination: a@" "" "$BIN/qmove" a@ "$q"
expect_run $USER1 0 "" "" "$BIN/qalter" -h n "$q"
wait_state "$(seq_of "$q")" COMPLETED
expect_run $USER1 35 "qalter: Job has finished" "" "$BIN/qalter" -N x "$q"
r=$(as $USER1 "$BIN/qsub" -- /bin/sleep 300) || fail "qsub: $r"
wait_state "$(seq_of "$r")" RUNNING
expect_run $USER1 168 "qmove: Request invalid for state of job $r" "" "$BIN/qmove" debug "$r"
expect_run $USER1 167 "qalter: Cannot modify attribute while job running  Execution_Time $r" "" \
	"$BIN/qalter" -a 0101 "$r"
expect_run $USER1 167 "qalter: Cannot modify attribute while job running  Output_Path $r" "" \
	"$BIN/qalter" -o x.out "$r"
expect_run $USER1 167 "qalter: Cannot modify attribute while job running  project $r" "" \
	"$BIN/qalter" -N y -P proj "$r"
expect_run $USER1 0 "" "" "$BIN/qalter" -m e "$r"
expect_run $USER1 0 "" "" "$BIN/qdel" "$r"
ok "qalter and qmove"

# 9. qstat -F json and dsv (with -f), and their conflicts
j=$(as $USER1 "$BIN/qsub" -h -N fmt -l select=1:ncpus=2 -l place=excl -- /bin/true) || fail "qsub: $j"
"$Q" -f -F json "$j" >"$T/q.json"
python3 - "$T/q.json" "$j" <<'PY' || fail "qstat -F json: $(cat "$T/q.json")"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["Jobs"][sys.argv[2]]
assert j["Job_Name"] == "fmt" and j["job_state"] == "H", j
# excl: the whole node (16 CPUs), as sbatch --exclusive; the place as given
assert j["Resource_List"]["ncpus"] == 16 and j["Resource_List"]["place"] == "excl", j
assert isinstance(d["timestamp"], int), d
PY
"$Q" -f -F dsv -D '#' "$j" | grep -q "^Job Id: $j#Job_Name=fmt#" || fail "qstat -F dsv -D: $("$Q" -f -F dsv -D '#' "$j")"
expect_eq "dsv: one line per job" "1" "$("$Q" -f -F DSV "$j" | wc -l)"
"$Q" -B -f -F json | python3 -c 'import json,sys; assert "Server" in json.load(sys.stdin)' || fail "qstat -B -f -F json"
expect_run $USER1 2 "qstat: conflicting options.
$(cat "$top_srcdir/tests/data/pbs/qstat_usage.out")" "" "$Q" -F json "$j"
expect_run $USER1 2 "$(cat "$top_srcdir/tests/data/pbs/qstat_usage.out")" "" "$Q" -f -D , "$j"
expect_run $USER1 2 "$(cat "$top_srcdir/tests/data/pbs/qstat_usage.out")" "" "$Q" -f -F xml "$j"
expect_run $USER1 0 "" "" "$BIN/qdel" "$j"
ok "qstat -f -F json and dsv"

# 10. The examples quickstart.sh submits run unchanged
for ex in hello torque; do
	e=$(as $USER1 "$BIN/qsub" "$top_srcdir/examples/$ex.pbs") || fail "qsub examples/$ex.pbs: $e"
	wait_state "$(seq_of "$e")" COMPLETED
done
expect_eq "examples/torque.pbs (NCPUS: the chunk's, excl or not)" "job $e: 2 ranks, NCPUS=2" \
	"$(cat "$T/work/torque-style.o$(seq_of "$e")")"
ok "examples/*.pbs"

# 11. An array: a #PBS script with select, walltime, -j oe and -J runs
#     unchanged; qstat shows N[] H, then B, its subjobs with -t; each
#     subjob writes NAME.oN.I; qdel of a subjob; qhold/qrls/qsig on arrays
cutid() { printf '%s' "$1" | awk '{ if (length($0) > 17) print substr($0, 1, 16) "*"; else print }'; }
# array_rows STATE STATE1..STATE4: qstat -t's lines of array $an, named arr
array_rows() {
	row "$(cutid "$an[].$S")" arr $USER1 "$1" batch
	for i in 1 2 3 4; do
		shift
		printf '\n%s' "$(row "$(cutid "$an[$i].$S")" arr $USER1 "$1" batch)"
	done
}
cat >arr.pbs <<'EOF'
#!/bin/sh
#PBS -N arr
#PBS -l select=1:ncpus=1:mem=64mb
#PBS -l walltime=00:05:00
#PBS -j oe
#PBS -J 1-4%2
cd "$PBS_O_WORKDIR"
echo "index=$PBS_ARRAY_INDEX torque=$PBS_ARRAYID array=$PBS_ARRAY_ID jobid=$PBS_JOBID"
while [ ! -e go ]; do sleep 0.2; done
echo to-stderr >&2
EOF
aid=$(as $USER1 "$BIN/qsub" -h arr.pbs) || fail "qsub -J: $aid"
an=${aid%%\[*}
expect_eq "qsub -J prints N[].server" "$an[].$S" "$aid"
expect_run root 0 "" "$HEADER
$(row "$(cutid "$aid")" arr $USER1 H batch)" "$Q" "$aid"
dep=$(as $USER1 "$BIN/qsub" -N afterarr -W depend=afterany:"$aid" -- /bin/true) || fail "qsub: $dep"
"$Q" -f "$dep" | grep -qxF "    depend = afterany:$an[].$S@$S" || fail "depend on N[]: $("$Q" -f "$dep")"
expect_run $USER1 156 "qrls: Invalid request $an[2].$S" "" "$BIN/qrls" "$an[2]"
expect_run $USER2 159 "qrls: Unauthorized Request  $aid" "" "$BIN/qrls" "$aid"
expect_run $USER1 0 "" "" "$BIN/qalter" -l walltime=00:04:00 "$aid"
"$Q" -f "$an[4]" | grep -qxF "    Resource_List.walltime = 00:04:00" || fail "qalter N[]: $("$Q" -f "$an[4]")"
expect_run $USER1 0 "" "" "$BIN/qmove" debug "$aid"
"$Q" -f "$an[1]" | grep -qxF "    queue = debug" || fail "qmove N[]: $("$Q" -f "$an[1]")"
expect_run $USER1 0 "" "" "$BIN/qmove" batch "$aid"
"$Q" -f "$an[1]" | grep -qxF "    queue = batch" || fail "qmove N[] back: $("$Q" -f "$an[1]")"
expect_run $USER1 0 "" "" "$BIN/qrls" "$aid"
wait_state $((an + 1)) RUNNING
wait_state $((an + 2)) RUNNING
expect_run root 0 "" "$HEADER
$(row "$(cutid "$aid")" arr $USER1 B batch)" "$Q" -J
expect_run root 0 "" "$HEADER
$(array_rows B R R Q Q)" "$Q" -t "$aid"
expect_run root 0 "" "$HEADER
$(array_rows B R R Q Q | sed -n '3,4p')" "$Q" "$an[2-3]"
expect_run root 153 "qstat: Unknown Job Id $an.$S" "" "$Q" "$an"
expect_run $USER1 153 "qdel: Unknown Job Id $an.$S" "" "$BIN/qdel" "$an"
expect_run $USER1 153 "qsig: Unknown Job Id $an.$S" "" "$BIN/qsig" -s WINCH "$an"
expect_run $USER1 0 "" "$aid" "$BIN/qselect" -J
expect_run $USER1 0 "" "$an[1].$S
$an[2].$S" "$BIN/qselect" -J -T -s R
"$Q" -f "$aid" >"$T/af"
for a in "job_state = B" "array = True" "array_indices_submitted = 1-4" \
	"array_indices_remaining = 3-4" "array_state_count = Queued:2 Running:2 Exiting:0 Expired:0" \
	"max_run_subjobs = 2" "Output_Path = $S:$T/work/arr.o$an.^array_index^"; do
	grep -qxF "    $a" "$T/af" || fail "qstat -f N[]: no '$a' in $(cat "$T/af")"
done
"$Q" -f "$an[1]" | grep -qxF "    array_id = $aid" || fail "qstat -f N[1]: $("$Q" -f "$an[1]")"
# the queue counts the array job (begun) and its running subjobs, not the
# queued ones, which PBS has not made into jobs yet
unwrap() { sed -e ':a' -e 'N' -e '$!ba' -e 's/\n\t//g'; } # qstat -f's long values go on
"$Q" -Qf batch | unwrap | grep -q "^    state_count = Transit:0 Queued:0 Held:[0-9]* Waiting:0 Running:2 Exiting:0 Begun:1 $" ||
	fail "qstat -Qf state_count: $("$Q" -Qf batch | unwrap | grep state_count)"
"$Q" -Bf | unwrap | grep -q "^    state_count = .* Running:2 Exiting:0 Begun:1 $" ||
	fail "qstat -Bf state_count: $("$Q" -Bf | unwrap | grep state_count)"
expect_run $USER2 159 "qdel: Unauthorized Request  $an[3].$S" "" "$BIN/qdel" "$an[3]"
expect_run $USER1 0 "" "" "$BIN/qdel" "$an[3]"
expect_run $USER1 153 "qdel: Unknown Job Id $an[99].$S" "" "$BIN/qdel" "$an[99]"
wait_state $((an + 3)) CANCELLED
"$Q" -f "$aid" | grep -qxF "    array_state_count = Queued:1 Running:2 Exiting:0 Expired:1" ||
	fail "after qdel N[3]: $("$Q" -f "$aid")"
"$Q" -t "$aid" | grep -qF "$(row "$(cutid "$an[3].$S")" arr $USER1 X batch)" ||
	fail "a deleted subjob is X: $("$Q" -t "$aid")"
expect_run $USER1 168 "qsig: Request invalid for state of job $an[4].$S" "" "$BIN/qsig" -s USR1 "$an[4]"
touch go
wait_state $((an + 4)) COMPLETED
wait_state $((an + 1)) COMPLETED
wait_state $((an + 2)) COMPLETED
for i in 1 2 4; do
	expect_eq "subjob $i's file arr.o$an.$i" "index=$i torque=$i array=$aid jobid=$an[$i].$S
to-stderr" "$(cat "$T/work/arr.o$an.$i")"
done
[ ! -e "$T/work/arr.o$an.3" ] || fail "the deleted subjob ran"
wait_state "$(seq_of "$dep")" COMPLETED # afterany:N[]: once every subjob ended
[ ! -e "$T/work/arr.e$an.1" ] || fail "-j oe wrote an error file too"
expect_run root 35 "qstat: $aid Job has finished, use -x or -H to obtain historical job information" "" "$Q" "$aid"
expect_run root 35 "qstat: $an[2].$S Job has finished, use -x or -H to obtain historical job information" "" "$Q" "$an[2]"
expect_run $USER1 35 "qhold: Job has finished" "" "$BIN/qhold" "$aid"
expect_run root 0 "" "$HEADER
$(array_rows F X X X X)" "$Q" -x -t "$aid"
rm -f go
ok "a #PBS -J array: N[] H/B/F, subjobs with -t, NAME.oN.I files, qdel N[I]"

# 12. Torque's -t list, a whole array's qdel, qsig and qhold; -J's rules
tid=$(as $USER1 "$BIN/qsub" -t 1,3 -N tarr -- /bin/sh -c 'echo "$PBS_ARRAYID"; sleep 300') ||
	fail "qsub -t: $tid"
tn=${tid%%\[*}
expect_eq "qsub -t prints N[].server" "$tn[].$S" "$tid"
wait_state $((tn + 1)) RUNNING
wait_state $((tn + 2)) RUNNING
# Torque's job_clone() suffixes each subjob's Job_Name and files "-I":
# the default NAME.oSEQ-I (default_std(): no index for "SEQ[]")
wait_until "the -t subjobs' own files" \
	'[ "$(cat "tarr.o$tn-1" 2>/dev/null)" = 1 ] && [ "$(cat "tarr.o$tn-3" 2>/dev/null)" = 3 ]'
[ ! -e "tarr.o$tn.1" ] && [ ! -e "tarr.o$tn" ] || fail "-t: PBS Pro's names written"
expect_eq "a -t subjob's Job_Name" "    Job_Name = tarr-3" "$("$Q" -f "$tn[3]" | grep Job_Name)"
# qselect lists a -t array's subjobs, as Torque's req_select() walks
# every job (batchtools: qselect -u $USER -s EHRT), each in its state
expect_run $USER1 0 "" "$tn[1].$S
$tn[3].$S" "$BIN/qselect" -u $USER1 -s EHRT
expect_run $USER1 0 "" "" "$BIN/qselect" -u $USER1 -s QW
expect_run $USER1 0 "" "$tn[1].$S" "$BIN/qselect" -N tarr-1
expect_run $USER1 0 "" "" "$BIN/qsig" -s WINCH "$tid"
expect_run $USER1 0 "" "" "$BIN/qhold" "$tid" # nothing queued: nothing held
expect_run $USER1 156 "qhold: Invalid request $tn[1].$S" "" "$BIN/qhold" "$tn[1]"
expect_run $USER1 156 "qalter: Invalid request $tn[3].$S" "" "$BIN/qalter" -N x "$tn[3]"
expect_run $USER1 156 "qmove: Invalid request $tid" "" "$BIN/qmove" debug "$tid"
expect_run $USER1 0 "" "" "$BIN/qdel" "$tid"
wait_state $((tn + 1)) CANCELLED
wait_state $((tn + 2)) CANCELLED
# -o FILE: FILE-1, FILE-2 (R batchtools reads its results so), the job's
# PBS_JOBNAME the subjob's Job_Name
rid=$(as $USER1 "$BIN/qsub" -t 1-2 -N res -j oe -o "$T/work/res.out" -- \
	/bin/sh -c 'echo "$PBS_ARRAYID $PBS_JOBNAME"') || fail "qsub -t -o: $rid"
wait_state $((${rid%%\[*} + 1)) COMPLETED
wait_state $((${rid%%\[*} + 2)) COMPLETED
expect_eq "-t -o FILE: FILE-I" "1 res-1|2 res-2|no" \
	"$(cat "$T/work/res.out-1")|$(cat "$T/work/res.out-2")|$([ -e "$T/work/res.out" ] && echo yes || echo no)"
expect_run $USER1 153 "qdel: Unknown Job Id 99999[].$S" "" "$BIN/qdel" "99999[]"
usage=$(cat "$top_srcdir/tests/data/pbs/qsub_usage.out")
for bad in 4-1 1-4:0 1,2 5 1-4%x; do
	expect_run $USER1 2 "qsub: illegal -J value
$usage" "" "$BIN/qsub" -J "$bad" job.pbs
done
expect_run $USER1 2 "qsub:  cannot submit non-rerunable Array Job
$usage" "" "$BIN/qsub" -r n -J 1-2 job.pbs
expect_run $USER1 2 "qsub: illegal -t value
$usage" "" "$BIN/qsub" -t 3-1 job.pbs
expect_run $USER1 1 "qsub: mail option 'j' can not be used without array job" "" \
	"$BIN/qsub" -m j job.pbs
expect_run $USER1 3 "qsub: Array job exceeds server or queue size limit" "" \
	"$BIN/qsub" -J 1-5000 job.pbs
# an array begun and partly ended is deleted whole without a word
pid=$(as $USER1 "$BIN/qsub" -J 1-2 -- /bin/sh -c '[ "$PBS_ARRAY_INDEX" = 1 ] || sleep 300') ||
	fail "qsub: $pid"
pn=${pid%%\[*}
wait_state $((pn + 1)) COMPLETED
wait_state $((pn + 2)) RUNNING
expect_run $USER1 0 "" "" "$BIN/qdel" "$pid"
wait_state $((pn + 2)) CANCELLED
# -W block=true on an array: the last subjob to end gives its status
b=$(as $USER1 "$BIN/qsub" -W block=true -J 1-2 -- /bin/sh -c 'exit 0')
expect_eq "block=true, an array that succeeded" "0" "$?"
b=$(as $USER1 "$BIN/qsub" -W block=true -t 1,2 -- /bin/sh -c 'exit 5')
expect_eq "block=true, an array that failed" "1" "$?"
printf '#!/bin/sh\n#PBS -J 1-2\ntrue\n' >sbarr.sh
sb=$(submit $USER1 sbarr.sh) || fail "sbatch #PBS -J: $sb"
wait_state $((sb + 1)) COMPLETED
wait_state "${sb}_2" COMPLETED # sbatch's: a Slurm array, whose last task has N
expect_run root 0 "" "$HEADER
$(row "$(cutid "$sb[].$S")" sbarr.sh $USER1 F batch)" "$Q" -x "$sb[]"
# an acknowledged array survives kill -9 of sluiced
kid=$(as $USER1 "$BIN/qsub" -h -N durable -J 1-3 -- /bin/true) || fail "qsub: $kid"
kill9_daemon
start_daemon
expect_run root 0 "" "$HEADER
$(row "$(cutid "$kid")" durable $USER1 H batch)" "$Q" "$kid"
expect_eq "its subjobs, after kill -9" "3" "$("$Q" -t "$kid" | grep -c "\[[1-3]\]\.")"
expect_run $USER1 0 "" "" "$BIN/qdel" "$kid"
ok "Torque's -t, an array's qdel, qsig, qhold; -J's rules and texts; sbatch's #PBS -J; kill -9"

# ---- 13. qsub -I: the job holds an allocation while a shell runs here ----
# (OpenPBS's lines: src/cmds/qsub_sup.c:1466, 1566, 1600; qsub exits 0)
out=$(echo 'echo "id=$PBS_JOBID env=$PBS_ENVIRONMENT wd=$PBS_O_WORKDIR"; exit 3' |
	as $USER1 "$BIN/qsub" -I -N inter -l walltime=00:05:00 2>&1); rc=$?
iid=$(echo "$out" | sed -n 's/^qsub: waiting for job \([0-9]*\)\..*/\1/p')
[ -n "$iid" ] || fail "qsub -I: $out"
expect_eq "qsub -I" "0:qsub: waiting for job $iid.$S to start
qsub: job $iid.$S ready

id=$iid.$S env=PBS_INTERACTIVE wd=$(pwd)

qsub: job $iid.$S completed" "$rc:$out"
wait_state "$iid" FAILED
expect_eq "the job ends with the shell's status" "inter|3:0" \
	"$("$BIN/sacct" -X -n -P -j "$iid" -o JobName,ExitCode)"
out=$(echo 'echo "env=$PBS_ENVIRONMENT"' | as $USER1 "$BIN/qsub" -W interactive=true 2>&1); rc=$?
wid=$(echo "$out" | sed -n 's/^qsub: waiting for job \([0-9]*\)\..*/\1/p')
expect_eq "-W interactive=true is -I" "0:qsub: waiting for job $wid.$S to start
qsub: job $wid.$S ready

env=PBS_INTERACTIVE

qsub: job $wid.$S completed" "$rc:$out"
ok "qsub -I: PBS's lines, the job's variables in the shell, its status on the job"

# ---- 14. -l pvmem: each process's virtual memory, as setrlimit(RLIMIT_AS) --
pv=$(as $USER1 "$BIN/qsub" -W block=true -l pvmem=100MB -o pv.out -j oe -- /bin/sh -c 'ulimit -v') ||
	fail "qsub -l pvmem: $pv"
expect_eq "pvmem=100MB is the job's RLIMIT_AS (ulimit -v, KiB)" "102400" "$(cat pv.out)"
# kept in Resource_List as the server writes a size back (encode_size())
expect_eq "qstat -f: Resource_List.pvmem" "    Resource_List.pvmem = 100mb" \
	"$("$Q" -f -x "$pv" | grep '^    Resource_List\.pvmem')"
# a per-process limit, job-wide alone (no ATR_DFLAG_CVTSLT): not in a chunk
expect_run $USER1 4 "qsub: Resource invalid in \"select\" specification: pvmem" "" \
	"$BIN/qsub" -l select=1:pvmem=1gb job.pbs
expect_run $USER1 1 "qsub: -l vmem (Sluice limits real memory: use mem, or pvmem for each process's virtual memory) is not supported by Sluice" "" \
	"$BIN/qsub" -l vmem=1gb job.pbs
ok "-l pvmem sets each process's address space limit, qstat -f shows it; vmem is refused by name"

# ---- 15. The server away: OpenPBS's words, and -F json still a whole document
stop_daemon
expect_run $USER1 255 "qstat: cannot connect to server $S (errno=15010)" "" "$Q"
out=$(as $USER1 "$Q" -f -F json -x 1 2>/dev/null)
expect_eq "qstat -F json with the server away ends its document" "}" "$(printf '%s\n' "$out" | tail -n 1)"
expect_eq "... and holds no Jobs" "" "$(printf '%s\n' "$out" | grep Jobs)"
ok "the server away: qstat's message and status, a closed JSON document"

# OpenPBS's PRINT_VERSION_AND_EXIT, which every command runs first (Toil
# reads pbsnodes --version before anything else). First means before the
# server's name is looked up: a configuration file that is a FIFO with no
# writer would block that lookup, so a command reading it would time out.
mkfifo "$T/conf.fifo"
for c in qsub qstat qdel qhold qrls qsig qselect qalter qmove pbsnodes pbsdsh; do
	out=$(SLUICE_CONF="$T/conf.fifo" PBS_SERVER= timeout 10 "$BIN/$c" --version 2>&1); rc=$?
	echo "$rc $out" | grep -qx '0 pbs_version = .*' || fail "$c --version: $rc $out"
done
ok "--version: every PBS command, exit 0, before it reads the configuration"
