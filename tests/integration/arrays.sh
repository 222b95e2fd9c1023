#!/bin/sh
# Job arrays end to end: the transcript of arrays_scenario.sh (throttle,
# collapsed and -r squeue, scontrol, scancel, sacct, SLURM_ARRAY_*, %A/%a,
# dependencies on arrays) diffed against a real Slurm 22.05's
# (tests/data/arrays/arrays.golden, written by arrays_capture.sh); then
# what a transcript cannot show: the throttle is never exceeded while the
# tasks run through, the tasks' raw ids, maxArraySize from the config, and
# an acknowledged array survives kill -9 of sluiced whole.
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf "maxArraySize: 10001"
start_daemon
cd "$T/work"

SBATCH=$BIN/sbatch SQUEUE=$BIN/squeue SCONTROL=$BIN/scontrol SCANCEL=$BIN/scancel
SACCT=$BIN/sacct OWNER=$USER1
as_user() { as "$@"; }
. "$top_srcdir/tests/integration/arrays_scenario.sh"

# Ids past 1000 first, as the reference cluster's are, so that masking an
# array's id never touches a task id or a count (one array of 999 tasks:
# ids 1-1000).
z=$(submit $USER1 -H --array=0-998 --wrap true) || fail "submit 999"
"$BIN/scancel" "$z" || fail "scancel 999"

scenario_arrays >"$T/arrays.out" || fail "scenario: $(tail -n 5 "$T/arrays.out")"
diff -u "$top_srcdir/tests/data/arrays/arrays.golden" "$T/arrays.out" >&2 ||
	fail "the transcript differs from Slurm 22.05's (- Slurm, + Sluice)"
ok "throttle, squeue, scontrol, scancel, sacct, environment, dependencies: as Slurm 22.05"

# The throttle holds while 8 tasks of 1 s run through, 3 at a time at most.
a=$(submit $USER1 --array=1-8%3 -o /dev/null --wrap 'sleep 1') || fail "submit"
most=0
while :; do
	r=$("$BIN/squeue" -h -r -j "$a" -t R,CG -o %i | wc -l)
	left=$("$BIN/squeue" -h -r -j "$a" -o %i | wc -l)
	[ "$r" -gt "$most" ] && most=$r
	[ "$left" -eq 0 ] && break
	sleep 0.1
done
[ "$most" -le 3 ] || fail "throttle %3: $most tasks ran at once"
[ "$most" -ge 2 ] || fail "throttle %3: never more than $most at once"
expect_eq "all ran" 8 "$("$BIN/sacct" -X -n -P -j "$a" -o State | grep -c COMPLETED)"
ok "%3: at most $most tasks ran at once, all 8 completed"

# %1 runs the tasks one after another in index order, the last (which
# holds the array's id) last, as pipelines that chain stages rely on.
o=$(submit $USER1 --array=1-5%1 -o /dev/null --wrap "echo \$SLURM_ARRAY_TASK_ID >> $T/work/order") ||
	fail "submit"
k=0
while [ "$("$BIN/squeue" -h -r -j "$o" | wc -l)" -gt 0 ]; do
	k=$((k + 1)); [ $k -lt 600 ] || fail "the %1 array never ended: $(cat "$T/work/order")"
	sleep 0.1
done
expect_eq "%1's order" "1 2 3 4 5" "$(tr '\n' ' ' < "$T/work/order" | sed 's/ $//')"
ok "%1: the tasks ran in index order"

# aftercorr: each task waits on its own partner, and slurmctld splits every
# task off the meta record: listed one by one, each with its own raw id.
ca=$(submit $USER1 -H --array=1-3 -o /dev/null --wrap true) || fail "submit"
cb=$(submit $USER1 --array=1-3 -d "aftercorr:$ca" -o /dev/null --wrap true) || fail "submit"
expect_eq "aftercorr tasks listed alone" "${cb}_1 $((cb + 1))
${cb}_2 $((cb + 2))
${cb}_3 $cb" "$("$BIN/squeue" -h -j "$cb" -o '%i %A' | sort)"
"$BIN/scancel" "$ca" "$cb"
ok "aftercorr: each task on its own line"

# Raw ids: N is the array's, its tasks N+1..N+K-1 in task order and the
# last one N (array.h).
# As in Slurm, a pending task its meta record holds shows N (%A, JobId=);
# one split off (acted on by its own id) or run shows its own.
b=$(submit $USER1 -H --array=5,7,9 --wrap true) || fail "submit"
expect_eq "raw ids while held" "${b}_5|$b
${b}_7|$b
${b}_9|$b" "$("$BIN/squeue" -h -r -j "$b" -o '%i|%A')"
expect_eq "sacct: pending tasks fold" "${b}_[5,7,9]|$b" \
	"$("$BIN/sacct" -X -n -P -j "$b" -o JobID,JobIDRaw)"
expect_eq "JobId of a pending task" "JobId=$b ArrayJobId=$b ArrayTaskId=9 JobName=wrap" \
	"$("$BIN/scontrol" show job "${b}_9" | head -n1)"
# slurmdbd's meta record has no task id: sacct -j N_I finds no task it holds.
expect_eq "sacct -j N_I of a task the meta holds" "" \
	"$("$BIN/sacct" -X -n -P -j "${b}_9,${b}_5" -o JobID)"
expect_eq "sacct -j N,N_I" "${b}_[5,7,9]" "$("$BIN/sacct" -X -n -P -j "$b,${b}_9" -o JobID)"
as $USER1 "$BIN/scontrol" release "${b}_7" || fail "release ${b}_7"
wait_state "$((b + 2))" COMPLETED
expect_eq "squeue %A of the split task" "${b}_5|$b
${b}_9|$b" "$("$BIN/squeue" -h -r -j "$b" -o '%i|%A')"
expect_eq "sacct: the task that ran" "${b}_7|$((b + 2))" \
	"$("$BIN/sacct" -X -n -P -j "${b}_7" -o JobID,JobIDRaw)"
expect_eq "JobId of the task that ran" "JobId=$((b + 2)) ArrayJobId=$b ArrayTaskId=7 JobName=wrap" \
	"$("$BIN/scontrol" show job "${b}_7" | head -n1)"
ok "raw ids N+1..N+K once split or run; N while the meta record holds them; sacct folds pending tasks as Slurm"

# The last task has N itself, as Slurm's meta record becomes the task it
# starts last: its raw id, SLURM_JOB_ID and %j are N, and the next job
# gets N+K. N alone still names the whole array (release, update,
# dependencies); N_I one task, the last one too.
c=$(submit $USER1 -H --array=1-3 -o 'c_%A_%a_%j.out' --wrap 'echo "$SLURM_JOB_ID"') ||
	fail "submit"
nx=$(submit $USER1 -H --wrap true) || fail "submit"
expect_eq "the next job's id" "$((c + 3))" "$nx"
"$BIN/scancel" "$nx"
dc=$(submit $USER1 -d "afterok:$c" -o /dev/null --wrap true) || fail "submit -d"
as $USER1 "$BIN/scontrol" update JobId="${c}_3" TimeLimit=7 || fail "update ${c}_3"
# (split off, it lists before the meta record, which slurmctld appends anew)
expect_eq "update N_K: the last task alone" "${c}_3|7:00
${c}_1|UNLIMITED
${c}_2|UNLIMITED" "$("$BIN/squeue" -h -r -j "$c" -o '%i|%l')"
as $USER1 "$BIN/scontrol" release "${c}_3" || fail "release ${c}_3"
wait_state "${c}_3" COMPLETED
expect_eq "the last task's raw id, SLURM_JOB_ID and %j" "${c}_3|$c $c" \
	"$("$BIN/sacct" -X -n -P -j "${c}_3" -o JobID,JobIDRaw) $(cat "c_${c}_3_$c.out")"
expect_eq "release N_K left the others held" "${c}_[1-2]|JobHeldUser" \
	"$("$BIN/squeue" -h -j "$c" -o '%i|%r')"
expect_eq "afterok:N waits for every task" "Dependency" "$("$BIN/squeue" -h -j "$dc" -o %r)"
out=$(as $USER1 "$BIN/scontrol" release "$c" 2>&1); rc=$?
expect_eq "release N: as 22.05's, the ended task answers too" "1|${c}_1-2: No error
${c}_3: Job has already finished" "$rc|$out"
wait_state "$dc" COMPLETED
expect_eq "sacct: tasks in index order, the last with N" "${c}_1|$((c + 1))
${c}_2|$((c + 2))
${c}_3|$c" "$("$BIN/sacct" -X -n -P -j "$c" -o JobID,JobIDRaw)"
expect_eq "scontrol show job N: N's record first" "JobId=$c ArrayTaskId=3|JobId=$((c + 2)) ArrayTaskId=2|JobId=$((c + 1)) ArrayTaskId=1" \
	"$("$BIN/scontrol" show job "$c" | sed -n 's/^\(JobId=[0-9]*\) ArrayJobId=[0-9]* \(ArrayTaskId=[0-9]*\).*/\1 \2/p' | paste -sd'|')"
ok "the last task has N (raw id, SLURM_JOB_ID, %j); N names the array, N_K its last task"

# hold and release on N and on N_I (${b}_7 released above).
expect_eq "others still held" "2" "$("$BIN/squeue" -h -r -j "$b" -t PD -o %r | grep -c JobHeldUser)"
# Each task answers for itself once one has ended (slurmctld's
# job_array_resp_msg), and scontrol exits 1, as the reference cluster.
out=$("$BIN/scontrol" release "$b" 2>&1); rc=$?
expect_eq "release b" "1 ${b}_5,9: No error
${b}_7: Job has already finished" "$rc $out"
wait_state "${b}_9" COMPLETED
wait_state "${b}_5" COMPLETED
# A refusal is each task's too; a task cancelled while it pended is gone
# from the array (Slurm's meta record) and does not answer.
k=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
as $USER1 "$BIN/scancel" "${k}_1" || fail "scancel ${k}_1"
out=$(as $USER2 "$BIN/scontrol" hold "$k" 2>&1); rc=$?
expect_eq "hold of another's array" "1 ${k}_2-3: Invalid user id" "$rc $out"
"$BIN/scancel" "$k" || fail "scancel $k"
ok "release N_I releases one task, release N the others"

# Job lists and task lists, as 22.05's scontrol reads them.
c=$(submit $USER1 -H --array=1-4 --wrap true) || fail "submit"
d=$(submit $USER1 -H --wrap true) || fail "submit"
out=$("$BIN/scontrol" hold "${c}_[1-2],$d" 2>&1) || fail "hold list: $out"
out=$("$BIN/scontrol" update "JobId=${c}_[3-6],$d" Comment=x 2>&1); rc=$?
expect_eq "update task list" "1 ${c}_3-4: No error
${c}_5-6: Invalid job id specified" "$rc $out"
expect_eq "comments" "x x" "$("$BIN/squeue" -h -j "${c}_3,$d" -o %k | tr '\n' ' ' | sed 's/ $//')"
out=$("$BIN/scontrol" release "9999999,$d" 2>&1); rc=$?
expect_eq "release list" "1 Invalid job id specified for job 9999999
slurm_suspend error: Invalid job id specified" "$rc $out"
"$BIN/scontrol" release "${c}_[1-4]" || fail "release c"
wait_state "$d" COMPLETED
wait_state "${c}_4" COMPLETED
ok "job lists and task lists in hold, release and update"

# sent TYPE CMD...: how many requests of TYPE (PROTOCOL.md) CMD sends, from
# the frames' headers in its system calls ("" where strace cannot tell).
sent() {
	type=$1; shift
	command -v strace >/dev/null 2>&1 || return 0
	strace -f -s 8 -xx -e trace=sendto,write,writev -o "$T/strace" "$@" >/dev/null 2>&1
	grep -q '"\\x53\\x4c\\x55\\x49' "$T/strace" 2>/dev/null || return 0
	grep -c "\"\\\\x53\\\\x4c\\\\x55\\\\x49\\\\x00\\\\x..\\\\x00\\\\x$(printf %02x "$type")" "$T/strace"
}
# expect_sent WHAT TYPE N CMD...: CMD sends N requests of TYPE.
expect_sent() {
	what=$1 type=$2 n=$3; shift 3
	got=$(sent "$type" "$@")
	[ -z "$got" ] || expect_eq "$what" "$n" "$got"
}

# limits N: the TimeLimit of tasks 0-2, as scontrol shows each (squeue -r
# shows the pending ones' first).
limits() {
	for i in 0 1 2; do
		echo "$i $("$BIN/scontrol" show job "${1}_$i" | tr ' ' '\n' | sed -n 's/^TimeLimit=//p')"
	done | tr '\n' ' ' | sed 's/ $//'
}

# update on an array's tasks (JobId=N_I,N_J): one listing of the array
# names them all. TimeLimit=+T reads one job's limit first, so it takes N
# or N_I only: a list or N_[...] is 22.05's "Invalid job ID", nothing sent.
tk=$(submit $USER1 -H -t 10 --array=0-2 --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" update JobId="${tk}_1" TimeLimit=20 || fail "TimeLimit of ${tk}_1"
out=$(as $USER1 "$BIN/scontrol" update JobId="${tk}_[1-3]" TimeLimit=+5 2>&1); rc=$?
expect_eq "TimeLimit=+5 of tasks" "1 scontrol: error: Invalid job ID ${tk}_[1-3]" "$rc $out"
out=$(as $USER1 "$BIN/scontrol" update JobId="${tk}_0,${tk}_2" TimeLimit=+5 2>&1); rc=$?
expect_eq "TimeLimit=+5 of a list" "1 scontrol: error: Invalid job ID ${tk}_0,${tk}_2" "$rc $out"
as $USER1 "$BIN/scontrol" update JobId="${tk}_1" TimeLimit=+5 || fail "TimeLimit=+5 of ${tk}_1"
expect_eq "the task's own limit, moved" "0 00:10:00 1 00:25:00 2 00:10:00" "$(limits "$tk")"
out=$(as $USER1 "$BIN/scontrol" update JobId="${tk}_2" TimeLimit=-12 2>&1); rc=$?
expect_eq "a decrement larger than a task's limit" \
	"1 scontrol: error: TimeLimit decrement larger than current time limit (12 > 10)" "$rc $out"
out=$(as $USER1 "$BIN/scontrol" update JobId="${tk}_[1-3]" TimeLimit=30 2>&1); rc=$?
expect_eq "TimeLimit=30 of tasks" "1 ${tk}_1-2: No error
${tk}_3: Invalid job id specified" "$rc $out"
expect_eq "the tasks' limits" "0 00:10:00 1 00:30:00 2 00:30:00" "$(limits "$tk")"
expect_sent "listings for three tasks" 3 1 "$BIN/scontrol" update JobId="${tk}_[0-2]" Comment=y
expect_sent "updates for three tasks" 9 3 "$BIN/scontrol" update JobId="${tk}_[0-2]" Comment=y
"$BIN/scancel" "$tk" || fail "scancel $tk"
ok "update N_[I-J]: one listing of the array; TimeLimit=+T of N_I only, as 22.05"

# update on an array whole: each task's answer comes with the update's
# ("each"), so scontrol lists nothing. As on the reference cluster (task 0
# ended, 1 running, 2-3 pending): the ended task refuses, the running one
# refuses a pending job's field, and each group is a line, "No error"
# too; another user is refused by each task but the ended one, which has
# finished whoever asks; all ended, each says so (tests/integration/
# arrays_update.sh has more).
w=$(submit $USER1 -H -o /dev/null --array=0-3 \
	--wrap '[ "$SLURM_ARRAY_TASK_ID" = 1 ] && sleep 60; true') || fail "submit"
as $USER1 "$BIN/scontrol" release "${w}_0" || fail "release ${w}_0"
wait_state "${w}_0" COMPLETED
as $USER1 "$BIN/scontrol" release "${w}_1" || fail "release ${w}_1"
wait_state "${w}_1" RUNNING
out=$(as $USER1 "$BIN/scontrol" update JobId="$w" WCKey=k1 2>&1); rc=$?
expect_eq "update of an array, one task ended" "1 ${w}_0: Job has already finished
${w}_1: Job is no longer pending execution
${w}_2-3: No error" "$rc $out"
expect_eq "the pending tasks took it" "1 RUNNING (null)
2 PENDING k1
3 PENDING k1" "$("$BIN/squeue" -h -r -j "$w" -o '%K %T %w' | sort -n)"
out=$(as $USER2 "$BIN/scontrol" update JobId="$w" Comment=x 2>&1); rc=$?
expect_eq "another user's update" "1 ${w}_0: Job has already finished
${w}_1-3: Invalid user id" "$rc $out"
out=$(as $USER2 "$BIN/scontrol" hold "$w" 2>&1); rc=$?
expect_eq "another user's hold" "1 ${w}_0: Job has already finished
${w}_1-3: Invalid user id" "$rc $out"
expect_sent "no listing after an array's update" 3 0 "$BIN/scontrol" update JobId="$w" Comment=x
expect_sent "one update" 9 1 "$BIN/scontrol" update JobId="$w" Comment=x
# PROTOCOL.md: without "each" (an older scontrol) the reply is as before;
# with it, each task's answer, the ended one marked
expect_eq "update without each" "{}" \
	"$(request root 9 "{\"id\": $w, \"set\": {\"comment\": \"p\"}}")"
each_codes() {
	python3 -c 'import json, sys
print(" ".join("%d %s %s" % (t["array_task_id"], t.get("ended", False), t.get("code", "-"))
               for t in json.load(sys.stdin)["results"]))'
}
expect_eq "update with each" "0 True ESTATE 1 False - 2 False - 3 False -" \
	"$(request root 9 "{\"id\": $w, \"set\": {\"comment\": \"p\"}, \"each\": true}" |
	   each_codes)"
# every task refusing is still an answer per task, not the request's
expect_eq "update with each, all refused" "0 True ESTATE 1 False EPERM 2 False EPERM 3 False EPERM" \
	"$(request $USER2 9 "{\"id\": $w, \"set\": {\"comment\": \"p\"}, \"each\": true}" |
	   each_codes)"
"$BIN/scancel" "$w" || fail "scancel $w"
# (cancelled while pending: its meta record holds it, which sacct -j N_I
# does not find, as slurmdbd's has no task id)
wait_until "${w}_1 CANCELLED" '[ "$("$BIN/squeue" -h -t all -j "${w}_1" -o %T)" = CANCELLED ]'
out=$(as $USER1 "$BIN/scontrol" update JobId="$w" Comment=x 2>&1); rc=$?
expect_eq "update of an array all ended" "1 ${w}_0-3: Job has already finished" "$rc $out"
ok "update N: the tasks' answers with the update's, no second listing"

# hold and release by name (scontrol_hold's Name= and JobName=): every job
# of that name, an array's pending tasks as one.
e=$(submit $USER1 -H -J byname --array=1-2 --wrap true) || fail "submit"
g=$(submit $USER1 -H -J byname --wrap true) || fail "submit"
out=$(as $USER1 "$BIN/scontrol" release Name=byname 2>&1) || fail "release Name=: $out"
wait_state "$g" COMPLETED
wait_state "${e}_2" COMPLETED
out=$(as $USER1 "$BIN/scontrol" hold JobName=nosuchname 2>&1); rc=$?
expect_eq "hold of a name no job has" "0 " "$rc $out"
# The tasks asked are those of the name's listing, each by its raw id: a
# task renamed stays held while its siblings go.
e=$(submit $USER1 -H -J byname2 --array=1-3 --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" update JobId="${e}_2" JobName=other || fail "rename ${e}_2"
out=$(as $USER1 "$BIN/scontrol" release Name=byname2 2>&1) || fail "release Name=byname2: $out"
wait_state "${e}_1" COMPLETED
wait_state "${e}_3" COMPLETED
expect_eq "the renamed task" "other PENDING JobHeldUser" \
	"$("$BIN/squeue" -h -j "${e}_2" -o '%j %T %r')"
"$BIN/scancel" "$e" || fail "scancel $e"
ok "hold and release by job name"

# An array named whole with a filter or a signal is an active job (scancel's
# check): -t PD cancels its pending tasks; a signal to a pending array is
# one refusal, exit 228 (Slurm's).
h=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
out=$(as $USER1 "$BIN/scancel" -s USR1 "$h" 2>&1); rc=$?
expect_eq "signal to a pending array" "228 scancel: error: Kill job error on job id $h: Job can not be altered now, try again later" "$rc $out"
as $USER1 "$BIN/scancel" -t PD "$h" || fail "scancel -t PD of an array"
wait_until "${h}_1 CANCELLED" '[ "$("$BIN/squeue" -h -t all -j "${h}_1" -o %T)" = CANCELLED ]'
ok "scancel with a filter or a signal on an array named whole"

# maxArraySize comes from the config (10001 here, as the reference cluster).
submit $USER1 --array=10000 -H --wrap true >/dev/null || fail "task 10000 refused"
err=$(submit $USER1 --array=10001 --wrap true 2>&1); rc=$?
expect_eq "over maxArraySize" "1 sbatch: error: Batch job submission failed: Invalid job array specification" "$rc $err"
ok "maxArraySize: task ids below it"

# scancel -v speaks of the words typed, as Slurm 22.05 (observed: one
# line for "N", one line and one error for "N_[1-2]" already cancelled).
v=$(submit $USER1 -H --array=1-5 --wrap true) || fail "submit"
out=$(as $USER1 "$BIN/scancel" -v "$v" 2>&1; as $USER1 "$BIN/scancel" -v "${v}_[1-2]" 2>&1)
expect_eq "scancel -v" "scancel: Terminating job $v
scancel: Terminating job ${v}_[1-2]
scancel: error: Kill job error on job id ${v}_[1-2]: Job/step already completing or completed" "$out"
ok "scancel -v N, N_[1-2]: Slurm's lines"

# Once every task has ended, "N" fails whole and a task that never was is
# tried anyway, each said under -v only (the reference cluster, 22.05:
# MATLAB's plugin cancels its arrays by "scancel -v 'N'").
as $USER1 "$BIN/scancel" -v "$v" 2>/dev/null
out=$(as $USER1 "$BIN/scancel" -v "$v" 2>&1; as $USER1 "$BIN/scancel" -v "${v}_9" 2>&1; echo "rc=$?")
expect_eq "scancel -v of an ended array, of no task" "scancel: Terminating job $v
scancel: error: Kill job error on job id $v: Job/step already completing or completed
scancel: Terminating job ${v}_9
scancel: error: Kill job error on job id ${v}_9: Invalid job id specified
rc=0" "$out"
expect_eq "plain scancel: silent" "0 " "$(as $USER1 "$BIN/scancel" "$v" "${v}_9" 2>&1; echo "$? ")"
ok "scancel -v N, N_I of an ended array: Slurm's errors, exit 0"

# An array cancelled while all its tasks pend is one row in sacct, as
# Slurm's meta record is (observed: "380_[0-4]  380  CANCELLED+"); a task
# that ran is its own row.
h=$(submit $USER1 -H --array=0-4 --wrap true) || fail "submit"
"$BIN/scancel" "$h" || fail "scancel"
expect_eq "cancelled while pending" "${h}_[0-4]|$h|CANCELLED by 0" \
	"$("$BIN/sacct" -X -n -P -j "$h" -o JobID,JobIDRaw,State)"
ok "an array cancelled while pending is one sacct row, N_[0-4]"

# One task ran, the others were cancelled pending: the meta record holds
# them around it, in squeue -t all, scontrol and sacct (the reference
# cluster: "18_[1,3-4] CA" then "18_2 CD"; scontrol JobId=18
# ArrayTaskId=1,3-4, then the task's own record).
m=$(submit $USER1 -H --array=1-4 --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" release "${m}_2" || fail "release ${m}_2"
wait_state "$((m + 2))" COMPLETED
as $USER1 "$BIN/scancel" "$m" || fail "scancel $m"
expect_eq "squeue -t all" "${m}_[1,3-4] CA|${m}_2 CD" \
	"$("$BIN/squeue" -h -t all -j "$m" -o '%i %t' | paste -sd'|')"
expect_eq "squeue -t all -r" "${m}_1|${m}_3|${m}_4|${m}_2" \
	"$("$BIN/squeue" -h -t all -r -j "$m" -o %i | paste -sd'|')"
expect_eq "scontrol show job N" "JobId=$m ArrayJobId=$m ArrayTaskId=1,3-4 JobName=wrap|JobId=$((m + 2)) ArrayJobId=$m ArrayTaskId=2 JobName=wrap" \
	"$("$BIN/scontrol" show job "$m" | grep '^JobId=' | paste -sd'|')"
expect_eq "scontrol show job N_3" "JobId=$m ArrayJobId=$m ArrayTaskId=3 JobName=wrap" \
	"$("$BIN/scontrol" show job "${m}_3" | head -n1)"
expect_eq "sacct: the task, then the meta (task NO_VAL)" "${m}_2|$((m + 2))|${m}_[1,3-4]|$m" \
	"$("$BIN/sacct" -X -n -P -j "$m" -o JobID,JobIDRaw | paste -sd'|')"
expect_eq "sacct -j N_3: in the meta record" "" "$("$BIN/sacct" -X -n -P -j "${m}_3" -o JobID)"
ok "tasks cancelled pending around one that ran: one meta record, as Slurm's"

# Tasks cancelled one by one by N_I until none pends: slurmctld clears each
# out of the meta record, whose row keeps the tasks slurmdbd last had
# (the reference cluster: "1339_[1-3]  1339  CANCELLED+" after scancel
# 1339_1; 1339_2; 1339_3, End the last cancel's); in any order, the meta's
# raw id is N. A task split off first (held by its own id) is a record of
# its own ("1347_1  1348" then "1347_[2-3]  1347"). One cancelled while the
# others go on to run has no record, as on Slurm.
c1=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
for i in 1 2; do as $USER1 "$BIN/scancel" "${c1}_$i" || fail "scancel ${c1}_$i"; done
sleep 1 # the last cancel in a later second: the row ends with it
as $USER1 "$BIN/scancel" "${c1}_3" || fail "scancel ${c1}_3"
expect_eq "one by one" "${c1}_[1-3]|$c1|CANCELLED by $(id -u $USER1)" \
	"$("$BIN/sacct" -X -n -P -j "$c1" -o JobID,JobIDRaw,State)"
expect_eq "one by one: sacct without -X" "${c1}_[1-3]" "$("$BIN/sacct" -n -P -j "$c1" -o JobID)"
expect_eq "one by one: the row ends with the last cancel" \
	"$("$BIN/squeue" -h -t all -j "${c1}_3" -o %e)" "$("$BIN/sacct" -X -n -P -j "$c1" -o End)"
expect_eq "one by one: sacct -j N_1 (no task id in the meta's row)" "" \
	"$("$BIN/sacct" -X -n -P -j "${c1}_1" -o JobID)"
c2=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
for i in 3 1 2; do as $USER1 "$BIN/scancel" "${c2}_$i" || fail "scancel ${c2}_$i"; done
expect_eq "one by one, N's task first" "${c2}_[1-3]|$c2" \
	"$("$BIN/sacct" -X -n -P -j "$c2" -o JobID,JobIDRaw)"
c3=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
as $USER1 "$BIN/scancel" "${c3}_1" || fail "scancel ${c3}_1"
as $USER1 "$BIN/scancel" "$c3" || fail "scancel $c3"
expect_eq "N_1 then N: the meta keeps its bitmap" "${c3}_[2-3]|$c3" \
	"$("$BIN/sacct" -X -n -P -j "$c3" -o JobID,JobIDRaw)"
c4=$(submit $USER1 -H --array=1-3 --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" hold "${c4}_1" || fail "hold ${c4}_1"
for i in 1 2 3; do as $USER1 "$BIN/scancel" "${c4}_$i" || fail "scancel ${c4}_$i"; done
expect_eq "a task split off, then cancelled" "${c4}_1|$((c4 + 1))|${c4}_[2-3]|$c4" \
	"$("$BIN/sacct" -X -n -P -j "$c4" -o JobID,JobIDRaw | paste -sd'|')"
expect_eq "sacct -j N_1 of the task split off" "${c4}_1|$((c4 + 1))" \
	"$("$BIN/sacct" -X -n -P -j "${c4}_1" -o JobID,JobIDRaw)"
c5=$(submit $USER1 -H --array=1-3 -o /dev/null --wrap true) || fail "submit"
as $USER1 "$BIN/scancel" "${c5}_1" || fail "scancel ${c5}_1"
as $USER1 "$BIN/scontrol" release "$c5" || fail "release $c5"
wait_state "${c5}_3" COMPLETED
wait_state "${c5}_2" COMPLETED
expect_eq "one cancelled, the others ran" "${c5}_2|${c5}_3" \
	"$("$BIN/sacct" -X -n -P -j "$c5" -o JobID | paste -sd'|')"
ok "tasks cancelled one by one by N_I: one meta record N_[1-3], as Slurm's"

# sbatch -W on an array: once every task ended, the highest exit code
# (Slurm 22.05 exits 3 here).
out=$(as $USER1 "$BIN/sbatch" -W --array=1-3 -o /dev/null --wrap 'exit $SLURM_ARRAY_TASK_ID'); rc=$?
expect_eq "sbatch -W array" 3 "$rc"
ok "sbatch -W on an array: the highest exit code of its tasks"

# The throttle outlives a restart: after kill -9, still 2 running, the
# others waiting with JobArrayTaskLimit.
t=$(submit $USER1 --array=1-6%2 -o /dev/null --wrap 'sleep 30') || fail "submit"
wait_until "array $t: 2 never ran" '[ "$("$BIN/squeue" -h -r -j "$t" -t R -o %i | wc -l)" -eq 2 ]'
kill9_daemon
start_daemon
sleep 1
expect_eq "running after kill -9" 2 "$("$BIN/squeue" -h -r -j "$t" -t R -o %i | wc -l)"
expect_eq "waiting after kill -9" "${t}_[3-6%2] JobArrayTaskLimit" \
	"$("$BIN/squeue" -h -j "$t" -t PD -o '%i %r')"
"$BIN/scancel" "$t" || fail "scancel"
ok "the throttle holds across kill -9 of sluiced"

# An acknowledged array is on disk whole: kill -9 right after sbatch.
c=$(submit $USER1 -H --array=0-99 --wrap true) || fail "submit 100"
kill9_daemon
start_daemon
expect_eq "after kill -9" 100 "$("$BIN/squeue" -h -r -j "$c" -o %i | wc -l)"
expect_eq "collapsed" "${c}_[0-99]" "$("$BIN/squeue" -h -j "$c" -o %i)"
"$BIN/scancel" "$c" || fail "scancel"
ok "a 100-task array survives kill -9 of sluiced"

# A task the array does not have (22.05): squeue lists nothing and exits 0;
# scontrol says "Job N_I not found" and exits 1; an unknown array is an
# invalid id for both. The last pending task, once the others started, is
# N_I; an array of one task keeps N_[I].
m=$(submit $USER1 -H --array=0-4 --wrap true) || fail "submit"
expect_eq "squeue -j N_9" "" "$("$BIN/squeue" -h -j "${m}_9" 2>&1)"
"$BIN/squeue" -h -j "${m}_9" >/dev/null 2>&1 || fail "squeue -j N_9 exit status"
expect_eq "scontrol show job N_9" "Job ${m}_9 not found" "$("$BIN/scontrol" show job "${m}_9" 2>&1)"
"$BIN/scontrol" show job "${m}_9" >/dev/null 2>&1 && fail "scontrol show job N_9 exit status"
expect_eq "squeue -j of an unknown array" "slurm_load_jobs error: Invalid job id specified" \
	"$("$BIN/squeue" -h -j 999999_9 2>&1)"
"$BIN/scancel" "$m"
o=$(submit $USER1 -H --array=7 --wrap true) || fail "submit"
expect_eq "an array of one task" "${o}_[7]" "$("$BIN/squeue" -h -j "$o" -o %i)"
l=$(submit $USER1 -o /dev/null --array=0-2%2 --wrap 'sleep 30') || fail "submit"
wait_until "two tasks of $l did not start" '[ "$("$BIN/squeue" -h -r -j "$l" -t R -o %i | wc -l)" = 2 ]'
expect_eq "the last pending task" "${l}_2|2" "$("$BIN/squeue" -h -j "$l" -t PD -o '%i|%K')"
"$BIN/scancel" "$o" "$l"
ok "N_I the array lacks: nothing listed, Job N_I not found; the last pending task is N_I"

# A pending task updated on its own leaves its array's meta record (Slurm's
# job_array_split, checked against 22.05): squeue -r shows its own limit;
# squeue folds it back while the meta record holds two tasks or more, and
# lists every task alone once the meta is down to one. The mark survives
# kill -9 of sluiced. (Slurm orders the split records by when they split:
# the lines are compared sorted.)
s=$(submit $USER1 -H -t 10 --array=1-3 --wrap true) || fail "submit"
"$BIN/scontrol" update JobId="${s}_2" TimeLimit=5 || fail "update ${s}_2"
expect_eq "-r after one split" "${s}_1 10:00|${s}_2 5:00|${s}_3 10:00" \
	"$("$BIN/squeue" -h -r -j "$s" -o '%i %l' | sort | paste -sd'|')"
expect_eq "folded after one split" "${s}_[1-3] 10:00" "$("$BIN/squeue" -h -j "$s" -o '%i %l')"
# scontrol shows the meta record and the task split off it, apart; in the
# listing of every job the meta comes after it (slurmctld appends it)
expect_eq "scontrol show job N after one split" "ArrayTaskId=1,3 TimeLimit=00:10:00|ArrayTaskId=2 TimeLimit=00:05:00" \
	"$("$BIN/scontrol" show job "$s" | grep -o -e 'ArrayTaskId=[^ ]*' -e 'TimeLimit=[^ ]*' | paste -d' ' - - | paste -sd'|')"
expect_eq "scontrol show job after one split" "ArrayTaskId=2|ArrayTaskId=1,3" \
	"$("$BIN/scontrol" show job | grep "ArrayJobId=$s " | grep -o 'ArrayTaskId=[^ ]*' | paste -sd'|')"
"$BIN/scontrol" update JobId="${s}_1" TimeLimit=7 || fail "update ${s}_1"
kill9_daemon
start_daemon
expect_eq "after two splits" "${s}_1 7:00|${s}_2 5:00|${s}_3 10:00" \
	"$("$BIN/squeue" -h -j "$s" -o '%i %l' | sort | paste -sd'|')"
expect_eq "-r after two splits" "${s}_1 7:00|${s}_2 5:00|${s}_3 10:00" \
	"$("$BIN/squeue" -h -r -j "$s" -o '%i %l' | sort | paste -sd'|')"
"$BIN/scancel" "$s"
h=$(submit $USER1 -H -t 10 --array=1-4 --wrap true) || fail "submit"
"$BIN/scontrol" uhold "${h}_4" || fail "uhold ${h}_4"
expect_eq "held on its own: folded back" "${h}_[1-4] JobHeldUser" \
	"$("$BIN/squeue" -h -j "$h" -o '%i %r')"
"$BIN/scontrol" update JobId="${h}_1" TimeLimit=3 || fail "update ${h}_1"
"$BIN/scontrol" update JobId="${h}_2" TimeLimit=3 || fail "update ${h}_2"
expect_eq "the meta holds task 3 alone" "${h}_1|${h}_2|${h}_3|${h}_4" \
	"$("$BIN/squeue" -h -j "$h" -o '%i' | sort | paste -sd'|')"
"$BIN/scancel" "$h"
# Tasks held while they ran stay held when requeued, and fold back into
# the meta record; squeue's set of a merged record has no %N (22.05).
q=$(submit $USER1 -o /dev/null -a 1-4%2 --wrap 'sleep 30') || fail "submit"
wait_until "two tasks of $q did not start" '[ "$("$BIN/squeue" -h -r -j "$q" -t R -o %i | wc -l)" = 2 ]'
as $USER1 "$BIN/scontrol" hold "$q" || fail "hold $q"
expect_eq "requeue of the array" "${q}_1-2: No error|${q}_3-4: Job is pending execution" \
	"$(as $USER1 "$BIN/scontrol" requeue "$q" 2>&1 | paste -sd'|')"
# the requeued runs end a moment later
wait_until "the tasks of $q are not all pending again" '[ "$("$BIN/squeue" -h -r -j "$q" -t PD -o %i | wc -l)" = 4 ]'
expect_eq "held while running, requeued, folded" "${q}_[1-4] JobHeldUser" \
	"$("$BIN/squeue" -h -j "$q" -o '%i %r')"
"$BIN/scancel" "$q"
ok "a task updated or held on its own is split off its meta record, as Slurm's"

# squeue -j N takes the array as slurm_load_job(N) returns it (22.05): the
# meta record, then the tasks split off it, the last split first, so that
# running tasks of one start time list newest first; by -S V too.
o=$(submit $USER1 -o /dev/null -a 1-6%3 --wrap 'sleep 30') || fail "submit"
wait_until "three tasks of $o did not start" '[ "$("$BIN/squeue" -h -r -j "$o" -t R -o %i | wc -l)" = 3 ]'
expect_eq "squeue -r -j N" "4 5 6 3 2 1" "$("$BIN/squeue" -h -r -j "$o" -o %K | paste -sd' ')"
expect_eq "squeue -r -j N -S V" "3 2 1 4 5 6" \
	"$("$BIN/squeue" -h -r -j "$o" -S V -o %K | paste -sd' ')"
expect_eq "squeue -j N" "${o}_[4-6%3] ${o}_3 ${o}_2 ${o}_1" \
	"$("$BIN/squeue" -h -j "$o" -o %i | paste -sd' ')"
"$BIN/scancel" "$o"
ok "squeue -j N: the meta record, then its tasks, the last split first, as slurm_load_job"

# suspend and resume are for operators: on an array slurmctld checks that
# once, before its tasks, and scontrol prints one line (22.05)
v=$(submit $USER1 -H -a 0-3 --wrap true) || fail "submit"
for verb in suspend resume; do
	expect_eq "$verb of an array by its owner" "Access/permission denied for job $v" \
		"$(as $USER1 "$BIN/scontrol" $verb "$v" 2>&1)"
	as $USER1 "$BIN/scontrol" $verb "$v" 2>/dev/null && fail "$verb by its owner: exit 0"
done
"$BIN/scancel" "$v"
ok "scontrol suspend/resume of an array by a user: one Access/permission denied"
