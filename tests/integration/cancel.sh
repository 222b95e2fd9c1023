#!/bin/sh
# Cancel by the owner; cancel denied to another user (Slurm's text, exit
# 210); a pending job cancelled; the CANCELLED line in the job's output.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

id=$(submit $USER1 -o c.out --wrap 'echo started; sleep 60') || fail "submit"
wait_state "$id" RUNNING
err=$(as $USER2 "$BIN/scancel" "$id" 2>&1)
rc=$?
expect_eq "denied exit code" 210 "$rc"
expect_eq "denied text" "scancel: error: Kill job error on job id $id: Access/permission denied" "$err"
expect_eq "still running" RUNNING "$(state "$id")"
ok "another user's scancel is denied with exit 210"

as $USER1 "$BIN/scancel" "$id" || fail "owner scancel failed"
wait_state "$id" CANCELLED 20
grep -q "CANCELLED AT" c.out || fail "no CANCELLED line in output: $(cat c.out)"
exit_code=$("$BIN/sacct" -n -P -j "$id" -o JobID,State,ExitCode | grep "^$id.batch|")
expect_eq "batch step" "$id.batch|CANCELLED|0:15" "$exit_code"
ok "owner cancels a running job: CANCELLED, signal 15 recorded"

hid=$(submit $USER1 -H --wrap 'echo never') || fail "held submit"
expect_eq "held reason" "(JobHeldUser)" "$("$BIN/squeue" -h -j "$hid" -o %R)"
as $USER1 "$BIN/scancel" "$hid" || fail "cancel pending"
wait_state "$hid" CANCELLED
[ ! -e "slurm-$hid.out" ] || fail "a cancelled pending job produced output"
ok "held job shows JobHeldUser and is cancelled without running"

as $USER1 "$BIN/scancel" 999999 || fail "unknown id should exit 0"
out=$(as $USER1 "$BIN/scancel" abc 2>&1); rc=$?
expect_eq "bad id rc" 1 "$rc"
expect_eq "bad id text" "scancel: error: Invalid job id abc" "$out"
ok "scancel of unknown and malformed ids"

# Cancel by name and by user.
a=$(submit $USER1 -J byname --wrap 'sleep 60')
b=$(submit $USER1 -J other --wrap 'sleep 60')
wait_state "$a" RUNNING
as $USER1 "$BIN/scancel" -n byname || fail "scancel -n"
wait_state "$a" CANCELLED
expect_eq "other untouched" RUNNING "$(state "$b")"
as $USER1 "$BIN/scancel" -u $USER1 || fail "scancel -u"
wait_state "$b" CANCELLED
ok "scancel -n and -u"

# An operator's hold (root here) is an admin hold: another user may not
# touch the job, and its owner can neither release it nor, by holding the
# job again, turn it into a user hold that it could then release.
reason() { "$BIN/squeue" -h -j "$1" -o %R; }
denied() { printf 'Access/permission denied for job %s\nslurm_suspend error: Access/permission denied' "$1"; }
# Another user's hold or release: Slurm 22.05 says "Invalid user id" (reference.md 1.6).
not_owner() { printf 'Invalid user id for job %s\nslurm_suspend error: Invalid user id' "$1"; }
hid=$(submit $USER1 -H --wrap 'sleep 60') || fail "held submit"
"$BIN/scontrol" hold "$hid" || fail "operator hold"
expect_eq "operator's hold" "(JobHeldAdmin)" "$(reason "$hid")"
for op in hold release; do
	err=$(as $USER2 "$BIN/scontrol" $op "$hid" 2>&1); rc=$?
	expect_eq "another user's $op rc" 1 "$rc"
	expect_eq "another user's $op" "$(not_owner "$hid")" "$err"
done
for i in 1 2; do
	err=$(as $USER1 "$BIN/scontrol" release "$hid" 2>&1); rc=$?
	expect_eq "owner's release $i rc" 1 "$rc"
	expect_eq "owner's release $i" "$(denied "$hid")" "$err"
	expect_eq "after owner's release $i" "(JobHeldAdmin)" "$(reason "$hid")"
	as $USER1 "$BIN/scontrol" hold "$hid" || fail "owner's hold of an admin-held job"
	expect_eq "after owner's hold $i" "(JobHeldAdmin)" "$(reason "$hid")"
done
"$BIN/scontrol" release "$hid" || fail "operator release"
wait_state "$hid" RUNNING
as $USER1 "$BIN/scancel" "$hid" || fail "cancel released job"
wait_state "$hid" CANCELLED
ok "an admin hold is released only by an operator; the owner's hold keeps it"

# Pending array tasks cancelled while others still wait leave the array
# (slurmctld clears them from the meta record): gone from squeue -t all,
# scontrol and sacct. The cancel that empties it leaves one CANCELLED record.
aid=$(submit $USER1 -o /dev/null -a 0-9%1 --wrap 'sleep 60') || fail "submit array"
wait_state "${aid}_0" RUNNING
as $USER1 "$BIN/scancel" "${aid}_5" || fail "cancel one pending task"
as $USER1 "$BIN/scancel" "${aid}_[7-8]" || fail "cancel two pending tasks"
expect_eq "squeue -t all -r after" "${aid}_1 PENDING
${aid}_2 PENDING
${aid}_3 PENDING
${aid}_4 PENDING
${aid}_6 PENDING
${aid}_9 PENDING
${aid}_0 RUNNING" "$("$BIN/squeue" -h -t all -r -j "$aid" -o '%i %T')"
expect_eq "scontrol of a dropped task" "Job ${aid}_5 not found" \
	"$("$BIN/scontrol" show job "${aid}_5" 2>&1)"
# a dependency on it is one on a job nobody knows: met at once
dd=$(submit $USER1 -o /dev/null -d "afterok:${aid}_5" --wrap true) || fail "afterok on a dropped task"
wait_state "$dd" COMPLETED
as $USER1 "$BIN/scancel" "${aid}_5" || fail "scancel of a dropped task exits 0, as Slurm's"
as $USER1 "$BIN/scancel" "$aid" || fail "cancel the array"
wait_state "${aid}_0" CANCELLED
expect_eq "sacct after" "${aid}_0|CANCELLED by $(id -u $USER1)
${aid}_[1-4,6,9%1]|CANCELLED by $(id -u $USER1)" \
	"$("$BIN/sacct" -n -X -P -j "$aid" -o JobID,State)"
ok "pending array tasks cancelled out of a waiting array vanish, as in Slurm"

# What a job leaves behind ends with it: a process in a process group of its
# own (job control) whose parent exited, reparented to the supervisor (a
# child subreaper), and a double-forked one in the job's group.
lid=$(submit $USER1 -o left.out --wrap 'python3 -c "import os, time
os.setpgid(0, 0)
time.sleep(300)" & echo $! >left.pids
(sleep 301 & echo $! >>left.pids); sleep 0.5; exit 0') || fail "submit leftovers"
wait_state "$lid" COMPLETED
n=0
for p in $(cat left.pids); do
	while kill -0 "$p" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 50 ] || fail "process $p outlived its job: $(ps -o pid,pgid,sid,ppid,args -p "$p")"
		sleep 0.1
	done
done
expect_eq "two leftovers recorded" 2 "$(wc -l <left.pids)"
ok "a job's leftovers (own process group, double-forked) end with the job"

# With a filter, a signal or a step on the line, scancel first checks that
# each id names an active job (Slurm's _verify_job_ids): an error for one
# that does not, before any filter, silent under -Q; filtered-out active
# jobs are no error. Each line as the reference cluster printed it.
rid=$(submit $USER1 -o /dev/null --wrap 'sleep 60') || fail "submit"
fid=$(submit $USER1 -o /dev/null --wrap true) || fail "submit"
wait_state "$fid" COMPLETED
wait_state "$rid" RUNNING
out=$(as $USER1 "$BIN/scancel" -t PD "$fid" 2>&1); rc=$?
expect_eq "-t PD finished" "1 scancel: error: Kill job error on job id $fid: Invalid job id specified" "$rc $out"
out=$(as $USER1 "$BIN/scancel" -t PD "$rid" 2>&1); rc=$?
expect_eq "-t PD running" "0 " "$rc $out"
out=$(as $USER1 "$BIN/scancel" 999999 "$fid.1" 2>&1); rc=$?
expect_eq "ids with a step" "1 scancel: error: Kill job error on job id 999999: Invalid job id specified
scancel: error: Kill job error on job step id $fid.1: Invalid job id specified" "$rc $out"
out=$(as $USER1 "$BIN/scancel" -Q 999999.0 2>&1); rc=$?
expect_eq "-Q" "1 " "$rc $out"
expect_eq "still running" RUNNING "$("$BIN/squeue" -h -j "$rid" -o %T)"
as $USER1 "$BIN/scancel" "$rid" || fail "cancel"
ok "ids checked against active jobs when filters or steps come with them"

# A job slow to end on SIGTERM ends at its cancel, not when its processes
# are gone (slurmctld's end time): Elapsed stops there.
tj=$(submit $USER1 -o /dev/null --wrap 'trap "sleep 4; exit 0" TERM; sleep 300') || fail "submit"
wait_state "$tj" RUNNING
sleep 1
as $USER1 "$BIN/scancel" "$tj" || fail "scancel"
# while it completes (or once it has): ended, its TIME no longer counting
end=$("$BIN/sacct" -n -P -j "$tj" -o State,End)
case "$end" in
"CANCELLED by $(id -u $USER1)|20"*"
CANCELLED|20"*) ;;
*) fail "sacct while completing: $end" ;;
esac
m1=$("$BIN/squeue" -h -t all -j "$tj" -o %M)
sleep 1
expect_eq "squeue %M while completing" "$m1" "$("$BIN/squeue" -h -t all -j "$tj" -o %M)"
wait_state "$tj" CANCELLED
# its End is still the cancel's, not when the signal came (after scancel's
# reply: sluiced's acts.c) nor when the processes were gone
expect_eq "sacct once it ended" "$end" "$("$BIN/sacct" -n -P -j "$tj" -o State,End)"
el=$("$BIN/sacct" -n -X -P -j "$tj" -o ElapsedRaw)
[ "$el" -le 2 ] || fail "Elapsed counts the kill wait: $el s"
ok "a cancelled job's end is its cancel, not its processes' end"

# An srun task that saves its work on SIGTERM has the kill wait for it, as
# under slurmstepd (srun's own forwarded SIGKILL does not cut it short).
sj=$(submit $USER1 -o s.out --wrap "$BIN/srun sh -c 'trap \"sleep 1; echo saved; exit 0\" TERM; echo up; sleep 300 & wait'") ||
	fail "submit"
wait_until "the step never started: $(cat s.out)" 'grep -q up s.out 2>/dev/null'
as $USER1 "$BIN/scancel" "$sj" || fail "scancel"
wait_state "$sj" CANCELLED
grep -qx saved s.out || fail "the task had no time to save: $(cat s.out)"
expect_eq "the step, by its task's exit" "$sj.0|COMPLETED|0:0" \
	"$("$BIN/sacct" -n -P -j "$sj" -o JobID,State,ExitCode | grep "^$sj\.0|")"
ok "scancel: an srun task's SIGTERM handler runs to its end"
