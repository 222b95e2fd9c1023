#!/bin/sh
# scontrol update NodeName=... on the local executor's node, as an admin
# migrating from Slurm types it: DRAIN with a reason (sinfo drng then
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
out=$("$SC" update PartitionName=batch State=DOWN 2>&1); rc=$?
expect_eq "a partition" "1 scontrol: error: update PartitionName is not supported by Sluice: set stopPolicy (Hold, HoldAndDrain) on its LocalQueue or ClusterQueue and run scontrol reconfigure" "$rc $out"
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
"$SC" update NodeName="$H" State=UNDRAIN || fail "undrain"
wait_state "$p" COMPLETED
expect_eq "no reason left" "" "$("$BIN/sinfo" -h -R)"
"$SC" show node "$H" | grep -q '^   Reason=' && fail "a Reason line after UNDRAIN"
ok "the drain outlives kill -9; UNDRAIN lets the waiting job start"

# IDLE only from an idle or a down node, as slurmctld's
r=$(submit $USER1 -o /dev/null --wrap 'sleep 30') || fail "submit"
nq=$(submit $USER1 --no-requeue -o /dev/null --wrap 'sleep 30') || fail "submit"
wait_state "$r" RUNNING
wait_state "$nq" RUNNING
"$SC" update NodeName=ALL State=DRAIN Reason=fan || fail "drain ALL"
out=$("$SC" update NodeName="$H" State=IDLE 2>&1); rc=$?
expect_eq "IDLE on a busy node" "1 slurm_update error: Invalid node state specified" "$rc $out"

# DOWN: the requeueable job back in the queue, the other NODE_FAIL
"$SC" update NodeName="$H" State=DOWN Reason="psu dead" || fail "down"
wait_state "$nq" NODE_FAIL
expect_eq "NODE_FAIL's exit code" "0:0" "$("$BIN/sacct" -n -X -P -j "$nq" -o ExitCode)"
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
