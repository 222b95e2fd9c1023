#!/bin/sh
# scontrol update NodeName=... on the local executor's node, and
# PartitionName=... State=, as an admin migrating from Slurm types them: DRAIN with a reason (sinfo drng then
# drain, sinfo -R, scontrol show node's State and Reason lines), pending
# jobs wait with slurmctld's reason and start on UNDRAIN or RESUME, the
# drain outlives kill -9 of sluiced, DOWN requeues the running jobs that
# may be and ends the others NODE_FAIL, and scontrol's own refusals
# (no reason, a state change slurmctld refuses, a user, another node).
# Texts compared with real Slurm 22.05.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"
H=$(hostname -s)
SC="$BIN/scontrol"

# scontrol's refusals, before anything reaches the daemon
out=$("$SC" update NodeName="$H" State=DRAIN 2>&1); rc=$?
expect_eq "drain without a reason" "1 You must specify a reason when DOWNING or DRAINING a node. Request denied" "$rc $out"
out=$("$SC" update NodeName="$H" State=bogus 2>&1); rc=$?
expect_eq "unknown state, exit" 1 "$rc"
expect_eq "unknown state" "Invalid input: State=bogus" "$(echo "$out" | head -n1)"
expect_eq "unknown state, last line" "Not all states are valid given a node's prior state" "$(echo "$out" | tail -n1)"
out=$("$SC" update NodeName="$H" State=RESUME 2>&1); rc=$?
expect_eq "resume an available node" "1 slurm_update error: Invalid node state specified" "$rc $out"
out=$("$SC" update NodeName=nosuch State=DRAIN Reason=x 2>&1); rc=$?
expect_eq "another node" "1 slurm_update error: Invalid node name specified" "$rc $out"
out=$(as $USER1 "$SC" update NodeName="$H" State=DRAIN Reason=x 2>&1); rc=$?
expect_eq "a user" "1 slurm_update error: Invalid user id" "$rc $out"
out=$("$SC" update NodeName="$H" Weight=5 2>&1); rc=$?
expect_eq "a key Sluice lacks" "1 scontrol: error: update NodeName Weight= is not supported by Sluice" "$rc $out"
expect_eq "nothing drained" "" "$("$BIN/sinfo" -h -R)"
ok "scontrol's refusals in Slurm's words"

# DRAIN while a job runs: draining, then drained once it ends
r=$(submit $USER1 -o /dev/null --wrap 'sleep 3') || fail "submit"
wait_state "$r" RUNNING
"$SC" update NodeName="$H" State=DRAIN Reason='"disk swap"' || fail "drain"
expect_eq "sinfo while a job runs" "drng" "$("$BIN/sinfo" -h -o %t)"
expect_eq "show node while a job runs" "   State=MIXED+DRAIN" \
	"$("$SC" show node "$H" | grep -o '^   State=[A-Z+]*')"
p=$(submit $USER1 -o /dev/null --wrap 'true') || fail "submit"
wait_state "$r" COMPLETED 20
wait_until "drained" '[ "$("$BIN/sinfo" -h -o %t)" = drain ]'
expect_eq "sinfo -R" "disk swap root" "$("$BIN/sinfo" -h -R -o '%E %u')"
line=$("$SC" show node "$H" | grep '^   Reason=')
case "$line" in "   Reason=disk swap [root@"*"]") ;; *) fail "Reason line: $line" ;; esac
expect_eq "show node drained" "   State=IDLE+DRAIN" "$("$SC" show node "$H" | grep -o '^   State=[A-Z+]*')"
expect_eq "pending reason" "PENDING|Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions" \
	"$("$BIN/squeue" -h -j "$p" -o '%T|%r')"
"$SC" show job "$p" | grep -q ' Reason=Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions ' ||
	fail "scontrol show job's Reason: $("$SC" show job "$p" | grep Reason)"
ok "DRAIN: running jobs go on, the node drng then drain, new jobs wait with Slurm's reason"

# A drain is state: it outlives kill -9 of the daemon
kill9_daemon
start_daemon
sleep 1
expect_eq "drained after kill -9" "drain" "$("$BIN/sinfo" -h -o %t)"
expect_eq "still pending" PENDING "$(state "$p")"
expect_eq "no start while drained" "N/A" "$("$BIN/squeue" --start -h -j "$p" -o %S)"
"$SC" update NodeName="$H" State=UNDRAIN || fail "undrain"
wait_state "$p" COMPLETED
expect_eq "no reason left" "" "$("$BIN/sinfo" -h -R)"
"$SC" show node "$H" | grep -q '^   Reason=' && fail "a Reason line after UNDRAIN"
ok "the drain outlives kill -9; UNDRAIN lets the waiting job start"

# IDLE only from an idle or a down node, as slurmctld's
r=$(submit $USER1 -o /dev/null --wrap 'sleep 30') || fail "submit"
nq=$(submit $USER1 --no-requeue -o "$T/work/nq.out" --wrap 'sleep 30') || fail "submit"
wait_state "$r" RUNNING
wait_state "$nq" RUNNING
"$SC" update NodeName=ALL State=DRAIN Reason=fan || fail "drain ALL"
out=$("$SC" update NodeName="$H" State=IDLE 2>&1); rc=$?
expect_eq "IDLE on a busy node" "1 slurm_update error: Invalid node state specified" "$rc $out"

# DOWN: the requeueable job back in the queue, the other NODE_FAIL
"$SC" update NodeName="$H" State=DOWN Reason="psu dead" || fail "down"
wait_state "$nq" NODE_FAIL
expect_eq "NODE_FAIL's exit code" "0:0" "$("$BIN/sacct" -n -X -P -j "$nq" -o ExitCode)"
expect_eq "NODE_FAIL's reason" "Reason=NodeDown" "$("$SC" show job "$nq" | grep -o 'Reason=[A-Za-z]*')"
grep -q "^slurmstepd-$H: error: \*\*\* JOB $nq ON $H CANCELLED AT .* DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS \*\*\*$" "$T/work/nq.out" ||
	fail "no node-failure line in the job's output: $(cat "$T/work/nq.out")"
wait_until "job $r requeued" '[ "$("$BIN/squeue" -h -j "$r" -o %T)" = PENDING ]'
expect_eq "restarts" "Restarts=1" "$("$SC" show job "$r" | grep -o 'Restarts=[0-9]*')"
expect_eq "show node down" "   State=DOWN+DRAIN" "$("$SC" show node "$H" | grep -o '^   State=[A-Z+]*')"
expect_eq "sinfo -R down" "psu dead" "$("$BIN/sinfo" -h -R -o %E)"
"$SC" update NodeName="$H" State=RESUME || fail "resume"
# a requeued job waits out CredExpire (BeginTime) as on Slurm: moved to now
expect_eq "requeued job's reason" "BeginTime" "$("$BIN/squeue" -h -j "$r" -o %r)"
"$SC" update JobId="$r" StartTime=now || fail "StartTime=now"
wait_state "$r" RUNNING
expect_eq "sinfo after RESUME" "mix" "$("$BIN/sinfo" -h -o %t)"
"$BIN/scancel" "$r"
ok "DOWN requeues what may be requeued and ends the rest NODE_FAIL; RESUME starts them again"

# A partition's State=: DOWN takes jobs and starts none, DRAIN starts the
# queued ones and takes no more (sbatch and qsub in their words), both
# outlive kill -9, UP as before; scontrol's and slurmctld's refusals
wait_state "$r" CANCELLED
out=$(as $USER1 "$SC" update PartitionName=batch State=DOWN 2>&1); rc=$?
expect_eq "a user" "1 slurm_update error: Invalid user id" "$rc $out"
out=$("$SC" update PartitionName=nosuch State=DOWN 2>&1); rc=$?
expect_eq "no such partition" "1 slurm_update error: Invalid partition name specified" "$rc $out"
out=$("$SC" update PartitionName=batch State=x 2>&1); rc=$?
expect_eq "a bad state" "1 scontrol: error: Invalid input: State=x
scontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE" "$rc $out"
out=$("$SC" update PartitionName=batch MaxTime=5 2>&1); rc=$?
expect_eq "a limit" "1 scontrol: error: update PartitionName MaxTime= is not supported by Sluice: a partition's settings are its config's" "$rc $out"
"$SC" update PartitionName=batch State=DOWN || fail "partition down"
d=$(submit $USER1 -o /dev/null --wrap 'true') || fail "submit to a down partition"
wait_until "PartitionDown" '[ "$("$BIN/squeue" -h -j "$d" -o %r)" = PartitionDown ]'
expect_eq "sinfo down" "down" "$("$BIN/sinfo" -h -o %a)"
expect_eq "show partition" "   State=DOWN" "$("$SC" show partition batch | grep -o '^   State=[A-Z]*')"
kill9_daemon
start_daemon
sleep 1
expect_eq "down after kill -9" "PENDING PartitionDown" "$("$BIN/squeue" -h -j "$d" -o '%T %r')"
"$SC" update PartitionName=batch State=DRAIN || fail "partition drain"
wait_state "$d" COMPLETED
expect_eq "sinfo drain" "drain" "$("$BIN/sinfo" -h -o %a)"
out=$(as $USER1 "$BIN/sbatch" -o /dev/null --wrap true 2>&1); rc=$?
expect_eq "sbatch to a drained partition" "1 sbatch: error: Batch job submission failed: Required partition not available (inactive or drain)" "$rc $out"
out=$(as $USER1 "$BIN/qsub" -- /bin/true 2>&1); rc=$?
expect_eq "qsub to a drained queue" "173 qsub: Queue is not enabled" "$rc $out"
"$SC" update PartitionName=batch State=UP || fail "partition up"
expect_eq "sinfo up" "up" "$("$BIN/sinfo" -h -o %a)"
ok "a partition DOWN (jobs wait, PartitionDown) and DRAIN (no new jobs), across kill -9; UP again"
