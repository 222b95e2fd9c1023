#!/bin/sh
# scontrol's job control: hold, uhold, release, requeue, requeuehold, top,
# suspend, resume, update, and its errors, diffed against a real Slurm
# 22.05's transcript (tests/data/scontrol/control.golden, written by
# ref_capture.sh); then what a transcript cannot show: a suspended job's
# processes are stopped, a requeued run is a REQUEUED row in sacct -D and
# the job runs again, top changes the order, updates survive a restart,
# show partition|node|config, and ping when sluiced is down.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

SBATCH=$BIN/sbatch SCONTROL=$BIN/scontrol SCANCEL=$BIN/scancel
OWNER=$USER1 OTHER=$USER2
as_user() { as "$@"; }
. "$top_srcdir/tests/integration/scontrol_scenario.sh"

scenario_control >"$T/control.out" || fail "scenario: $(tail -n 5 "$T/control.out")"
diff -u "$top_srcdir/tests/data/scontrol/control.golden" "$T/control.out" >&2 ||
	fail "the transcript differs from Slurm 22.05's (- Slurm, + Sluice)"
ok "hold, release, requeue, requeuehold, top, suspend, resume, update, errors: as Slurm 22.05"

state_line() { "$BIN/scontrol" show job "$1" | sed -n 's/^ *\(JobState=.*\)$/\1/p'; }
field() { "$BIN/scontrol" show job "$1" | tr ' ' '\n' | sed -n "s/^ *$2=//p"; }

# Suspend: every process of the job stopped (state T), then going again.
j=$(submit $USER1 -o susp.out --wrap 'sleep 300 & sleep 300; wait') || fail "submit"
wait_state "$j" RUNNING
# The states of the processes of the job's process group (sluice-stepd
# writes it to job.pgid once the script runs, before the script's start
# time), counted: "3 S".
procs() {
	pgid=$(cut -d' ' -f1 "$T/state/jobs/$j/job.pgid" 2>/dev/null)
	case "$pgid" in ''|*[!0-9]*) return ;; esac
	ps -o stat= -g "$pgid" | cut -c1 | sort | uniq -c | tr -s ' ' | sed 's/^ //'
}
n=0
until [ "$(procs)" = "3 S" ]; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "job $j before suspend: [$(procs)]"; sleep 0.1
done
"$BIN/scontrol" suspend "$j" || fail "suspend"
n=0
until [ "$(procs)" = "3 T" ]; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "job $j suspended: processes [$(procs)]"; sleep 0.1
done
expect_eq "squeue while suspended" "S" "$("$BIN/squeue" -h -j "$j" -o %t)"
"$BIN/scontrol" resume "$j" || fail "resume"
n=0
until [ "$(procs)" = "3 S" ]; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "job $j resumed: processes [$(procs)]"; sleep 0.1
done
expect_eq "after resume" RUNNING "$(state "$j")"
# A suspended job that is cancelled goes on to its end.
"$BIN/scontrol" suspend "$j" || fail "suspend again"
"$BIN/scancel" "$j" || fail "scancel a suspended job"
wait_state "$j" CANCELLED 10
ok "suspend stops the job's processes (T), resume continues them, scancel ends a suspended job"

# Requeue: the run before it is a REQUEUED row of sacct -D (not of plain
# sacct), the job says why in its output, and it runs again.
r=$(submit $USER1 -o req.out --wrap 'echo run; sleep 300') || fail "submit"
wait_state "$r" RUNNING
until grep -q run req.out 2>/dev/null; do sleep 0.1; done
submit1=$(field "$r" SubmitTime)
eligible1=$(field "$r" EligibleTime)
sleep 1 # the requeue's new submit time is a later second than the run's
as $USER1 "$BIN/scontrol" requeue "$r" || fail "requeue"
n=0
until state_line "$r" | grep -q "JobState=PENDING Reason=BeginTime"; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "job $r after requeue: $(state_line "$r")"; sleep 0.1
done
expect_eq "restarts" 1 "$(field "$r" Restarts)"
expect_eq "sacct -D" "$r|REQUEUED
$r|PENDING" "$("$BIN/sacct" -D -X -n -P -j "$r" -o JobID,State)"
expect_eq "sacct" "$r|PENDING" "$("$BIN/sacct" -X -n -P -j "$r" -o JobID,State)"
# the run's record keeps its own submit and eligible times (slurmdbd's);
# the pending record has the requeue's
run1=$("$BIN/sacct" -D -X -n -P -j "$r" -o Submit,Eligible,Start,End | head -n1)
expect_eq "the REQUEUED record's submit and eligible times" "$submit1|$eligible1" \
	"$(printf '%s\n' "$run1" | cut -d'|' -f1-2)"
start1=$(printf '%s\n' "$run1" | cut -d'|' -f3)
end1=$(printf '%s\n' "$run1" | cut -d'|' -f4)
expect_eq "the pending record's submit and eligible times" \
	"$(field "$r" SubmitTime)|$(field "$r" EligibleTime)" \
	"$("$BIN/sacct" -X -n -P -j "$r" -o Submit,Eligible)"
# without -D the window picks the record: the pending one is not eligible
# yet, so a window up to now holds the run's alone (reportseff's query:
# no -j, no -D), with -s too
expect_eq "sacct -S -E of a job pending again" "$r|REQUEUED|$start1|$end1" \
	"$("$BIN/sacct" -X -n -P -u $USER1 -S "$start1" -E now -o JobID,State,Start,End |
		grep "^$r|")"
expect_eq "sacct -s RQ of a job pending again" "$r|REQUEUED" \
	"$("$BIN/sacct" -X -n -P -u $USER1 -s RQ -S "$start1" -E now -o JobID,State | grep "^$r|")"
grep -q "^slurmstepd-.*: error: \*\*\* JOB $r ON .* CANCELLED AT .* DUE TO JOB REQUEUE \*\*\*$" req.out ||
	fail "no requeue line in the job's output: $(cat req.out)"
eligible=$(field "$r" EligibleTime)
submitted=$(field "$r" SubmitTime)
expect_eq "begin delay" 121 $(( $(date -d "$eligible" +%s) - $(date -d "$submitted" +%s) ))
sleep 1 # the second run starts a later second than the first ended (the windows below)
as $USER1 "$BIN/scontrol" update JobId="$r" StartTime=now || fail "StartTime=now"
wait_state "$r" RUNNING
# the second run's output replaces the first's (no --open-mode=append)
n=0
until [ "$(cat req.out)" = run ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "job $r did not run again anew: $(cat req.out)"; sleep 0.1
done
"$BIN/scancel" "$r"
wait_state "$r" CANCELLED
# the REQUEUED record of a run the requeue killed: 0:0, as slurmdbd's
expect_eq "sacct -D after" "$r|REQUEUED|0:0
$r|CANCELLED by 0" "$("$BIN/sacct" -D -X -n -P -j "$r" -o JobID,State,ExitCode | sed '2s/|[0-9:]*$//')"
# a window before the requeue holds the first run's record alone: sacct
# without -D shows it, not nothing (the job's newest record is outside)
expect_eq "sacct -S -E -j of the first run" "$r|REQUEUED|$start1|$end1" \
	"$("$BIN/sacct" -P -n -X -o JobID,State,Start,End --starttime="$start1" \
		--endtime="$end1" -j "$r")"
expect_eq "the same with -D" "$r|REQUEUED|$start1|$end1" \
	"$("$BIN/sacct" -P -n -X -D -o JobID,State,Start,End --starttime="$start1" \
		--endtime="$end1" -j "$r")"
expect_eq "a window holding both runs: the newest" "$r|CANCELLED by 0" \
	"$("$BIN/sacct" -P -n -X -o JobID,State -S "$start1" -E now -j "$r")"
ok "requeue: BeginTime for 121 s, Restarts=1, its run a REQUEUED record with its own times, it ran again, its output anew"

# A cancel after a requeue, while the killed run is still ending, wins
# (Slurm's scancel of a job PENDING|COMPLETING): CANCELLED with its run
# kept, never back in the queue. The script outlasts the requeue's TERM.
q=$(submit $USER1 -o /dev/null --wrap 'trap "sleep 1; exit 3" TERM; sleep 300 & wait') ||
	fail "submit"
wait_state "$q" RUNNING
sleep 0.3 # the trap is set
as $USER1 "$BIN/scontrol" requeue "$q" || fail "requeue"
as $USER1 "$BIN/scancel" "$q" || fail "scancel after requeue"
wait_state "$q" CANCELLED
sleep 1.5 # a requeue that still won would show now
state_line "$q" | grep -q "^JobState=CANCELLED Reason=None" || fail "after cancel: $(state_line "$q")"
expect_eq "cancelled after requeue: its node kept" "CA $(hostname -s)" \
	"$("$BIN/squeue" -h -t all -j "$q" -o '%t %N')"
ok "a cancel after a requeue, before the run ended: CANCELLED, not queued again"

# Two requeues: each run its own REQUEUED row, with its own nodes (the
# first run's NodeList ran on into the second's record)
t=$(submit $USER1 -o /dev/null --wrap 'exit 3') || fail "submit"
wait_state "$t" FAILED
as $USER1 "$BIN/scontrol" requeue "$t" || fail "requeue 1"
as $USER1 "$BIN/scontrol" update JobId="$t" StartTime=now || fail "StartTime=now"
wait_state "$t" FAILED
as $USER1 "$BIN/scontrol" requeue "$t" || fail "requeue 2"
rows=$("$BIN/sacct" -D -X -n -P -j "$t" -o State,ExitCode,NodeList)
host=$(printf '%s\n' "$rows" | sed -n '2s/^REQUEUED|3:0|//p')
[ -n "$host" ] || fail "sacct -D, second run: $rows"
expect_eq "sacct -D of two requeues" "REQUEUED|3:0|$host
REQUEUED|3:0|$host
PENDING|0:0|None assigned" "$rows"
ok "two requeues: two REQUEUED rows in sacct -D, each with its nodes"

# A finished batch job is requeued too (Slurm's _job_requeue_op): no output,
# exit 0, its run a REQUEUED row with its exit code; requeuehold holds it;
# --no-requeue refuses, and the refused job is left as it was.
f=$(submit $USER1 -o /dev/null --wrap 'exit 4') || fail "submit"
c=$(submit $USER1 --begin=now+1 -o /dev/null --wrap true) || fail "submit"
nr=$(submit $USER1 --no-requeue -o /dev/null --wrap true) || fail "submit"
wait_state "$f" FAILED
wait_state "$c" COMPLETED
wait_state "$nr" COMPLETED
expect_eq "requeue of a FAILED job" "" "$(as $USER1 "$BIN/scontrol" requeue "$f" 2>&1)"
state_line "$f" | grep -q "JobState=PENDING Reason=BeginTime" || fail "after requeue: $(state_line "$f")"
expect_eq "restarts of the requeued FAILED job" 1 "$(field "$f" Restarts)"
expect_eq "sacct -D of the requeued FAILED job" "$f|REQUEUED|4:0
$f|PENDING|0:0" "$("$BIN/sacct" -D -X -n -P -j "$f" -o JobID,State,ExitCode)"
c_run=$("$BIN/sacct" -X -n -P -j "$c" -o Eligible,Priority,Reason)
expect_eq "the reason c waited for" BeginTime "${c_run##*|}"
as $USER1 "$BIN/scontrol" requeuehold "$c" || fail "requeuehold of a COMPLETED job"
state_line "$c" | grep -q "JobState=PENDING Reason=job_requeued_in_held_state" ||
	state_line "$c" | grep -q "JobState=PENDING Reason=job requeued in held state" ||
	fail "after requeuehold: $(state_line "$c")"
# the hold is the pending record's: the run's keeps its eligible time,
# priority and reason (the reference's REQUEUED record after requeuehold)
expect_eq "the REQUEUED record of a requeuehold" "REQUEUED|$c_run
PENDING|0" "$("$BIN/sacct" -D -X -n -P -j "$c" -o State,Eligible,Priority,Reason |
	sed '2s/^\(PENDING\)|[^|]*|\([^|]*\)|.*/\1|\2/')"
# requeue's options: refused by name before any job is touched
out=$(as $USER1 "$BIN/scontrol" requeuehold State=SpecialExit "$f" 2>&1); rc=$?
expect_eq "requeuehold State=SpecialExit" "1 scontrol: error: requeuehold State=SpecialExit is not supported by Sluice" "$rc $out"
state_line "$f" | grep -q "JobState=PENDING Reason=BeginTime" || fail "State=SpecialExit touched it: $(state_line "$f")"
out=$(as $USER1 "$BIN/scontrol" requeue Incomplete "$f" 2>&1); rc=$?
expect_eq "requeue Incomplete" "1 scontrol: error: requeue Incomplete is not supported by Sluice" "$rc $out"
out=$(as $USER1 "$BIN/scontrol" requeue "$nr" 2>&1); rc=$?
expect_eq "requeue of a --no-requeue job" 1 "$rc"
expect_eq "requeue of a --no-requeue job, the job" COMPLETED "$(state "$nr")"
expect_eq "its exit code kept" "0:0" "$(field "$nr" ExitCode)"
# cancelled while pending: it never ran, so no REQUEUED row; a held one
# keeps its hold, one waiting for --begin its begin time; one that has run
# before waits out BeginTime again (each as the reference Slurm 22.05 did)
cp=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit"
"$BIN/scancel" "$cp"
wait_state "$cp" CANCELLED
as $USER1 "$BIN/scontrol" requeue "$cp" || fail "requeue of a job cancelled while pending"
state_line "$cp" | grep -q "JobState=PENDING Reason=JobHeldUser" || fail "after requeue: $(state_line "$cp")"
expect_eq "sacct -D of a job that never ran" "$cp|PENDING" "$("$BIN/sacct" -D -X -n -P -j "$cp" -o JobID,State)"
bp=$(submit $USER1 --begin=now+1hour -o /dev/null --wrap true) || fail "submit --begin"
bt=$(field "$bp" StartTime)
"$BIN/scancel" "$bp"
wait_state "$bp" CANCELLED
as $USER1 "$BIN/scontrol" requeue "$bp" || fail "requeue of a --begin job"
state_line "$bp" | grep -q "JobState=PENDING Reason=BeginTime" || fail "after requeue: $(state_line "$bp")"
expect_eq "its begin time kept" "$bt" "$(field "$bp" StartTime)"
"$BIN/scancel" "$f"
wait_state "$f" CANCELLED
as $USER1 "$BIN/scontrol" requeue "$f" || fail "requeue of a requeued job cancelled while pending"
state_line "$f" | grep -q "JobState=PENDING Reason=BeginTime" || fail "after requeue: $(state_line "$f")"
"$BIN/scancel" "$f" "$c" "$cp" "$bp"
ok "requeue of a finished job: PENDING again, its run a REQUEUED row; --no-requeue refused"

# TimeLimit=+T and -T: the current limit moved, as 22.05's scontrol works it
# out; its refusals in its words.
tl=$(submit $USER1 -H -t 10 -o /dev/null --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" update JobId="$tl" TimeLimit=+5 || fail "TimeLimit=+5"
expect_eq "TimeLimit=+5" 00:15:00 "$(field "$tl" TimeLimit)"
as $USER1 "$BIN/scontrol" update JobId="$tl" TimeLimit=-3 || fail "TimeLimit=-3"
expect_eq "TimeLimit=-3" 00:12:00 "$(field "$tl" TimeLimit)"
expect_eq "decrement too large" "scontrol: error: TimeLimit decrement larger than current time limit (30 > 12)" \
	"$(as $USER1 "$BIN/scontrol" update JobId="$tl" TimeLimit=-30 2>&1)"
expect_eq "JobId after TimeLimit=+5" "scontrol: error: JobId must precede TimeLimit increment or decrement" \
	"$(as $USER1 "$BIN/scontrol" update TimeLimit=+5 JobId="$tl" 2>&1)"
# An array whose tasks all wait in its meta record loads as one record:
# +5 moves them all; once a task is split off (updated by N_I), scontrol
# refuses (the reference cluster: 15:00 each, then 20:00 for N_1, then
# "not supported for job arrays").
ta=$(submit $USER1 -H -t 10 --array=0-2 -o /dev/null --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" update JobId="$ta" TimeLimit=+5 || fail "TimeLimit=+5 of an array"
expect_eq "+5 on a pending array" "15:00 15:00 15:00" \
	"$("$BIN/squeue" -h -r -j "$ta" -o %l | paste -sd' ')"
as $USER1 "$BIN/scontrol" update JobId="${ta}_1" TimeLimit=+5 || fail "TimeLimit=+5 of a task"
expect_eq "TimeLimit=+5 of a task" 00:20:00 "$(field "${ta}_1" TimeLimit)"
expect_eq "+5 on an array, a task split off" \
	"scontrol: error: TimeLimit increment/decrement not supported for job arrays" \
	"$(as $USER1 "$BIN/scontrol" update JobId="$ta" TimeLimit=+5 2>&1)"
# Slurm's abbreviations and "KEY VALUE" words (update_job.c), and
# "show job=N" (as the reference scontrol took them)
as $USER1 "$BIN/scontrol" update Job="$tl" TimeLim=7 || fail "Job= TimeLim="
expect_eq "TimeLim=7" 00:07:00 "$(field "$tl" TimeLimit)"
as $USER1 "$BIN/scontrol" update JobID "$tl" TimeLimit 8 W k2 || fail "JobID N TimeLimit 8"
expect_eq "TimeLimit 8" "00:08:00 k2" "$(field "$tl" TimeLimit) $("$BIN/squeue" -h -j "$tl" -o %w)"
expect_eq "show job=N" "JobId=$tl JobName=wrap" "$("$BIN/scontrol" show job="$tl" | head -n1)"
expect_eq "show jobid=N" "JobId=$tl JobName=wrap" "$("$BIN/scontrol" show jobid="$tl" | head -n1)"
"$BIN/scancel" "$tl" "$ta"
ok "TimeLimit=+5 and -3 move the limit; too large a decrement, JobId after it, a whole array refused; Slurm's abbreviations"

# top: of two waiting jobs of a user, the later one goes first.
big=$(submit $USER1 -c 8 --wrap 'sleep 300') || fail "submit"
wait_state "$big" RUNNING
first=$(submit $USER1 -c 8 -o first.out --wrap 'date +%s.%N; sleep 1') || fail "submit"
second=$(submit $USER1 -c 8 -o second.out --wrap 'date +%s.%N; sleep 1') || fail "submit"
"$BIN/scontrol" top "$second" || fail "top"
"$BIN/scancel" "$big"
wait_state "$first" COMPLETED 20
wait_state "$second" COMPLETED 20
[ "$(cat second.out)" \< "$(cat first.out)" ] || fail "top: $second started after $first"
ok "top: the later job ran first"

# update: what it changed is in the store (a restart keeps it).
# (lib.sh's `as` sets u: the job is uj)
uj=$(submit $USER1 -H -t 10 --wrap true) || fail "submit"
as $USER1 "$BIN/scontrol" update JobId="$uj" TimeLimit=30 JobName=kept Comment=note Nice=7 ||
	fail "update"
stop_daemon
start_daemon
expect_eq "after a restart" "00:30:00 kept 7 note" \
	"$(field "$uj" TimeLimit) $(field "$uj" JobName) $(field "$uj" Nice) $(field "$uj" Comment)"
"$BIN/scancel" "$uj"
ok "updates are stored"

# Where a job may run, updated (each answer as Slurm 22.05's, checked by
# hand on its reference cluster): names through the executor's check, a
# feature through the engine, operators' fields refused to users, the
# fields Sluice has no meaning for refused by name.
pl=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit"
node=$(hostname -s)
upd() { as "$1" "$BIN/scontrol" update JobId="$pl" "$2" 2>&1; echo "rc=$?"; }
expect_eq "Features=nosuch" "Invalid feature specification for job $pl
rc=1" "$(upd $USER1 Features=nosuch)"
expect_eq "Features=" "rc=0" "$(upd $USER1 Features=)"
expect_eq "Features=a|b" "scontrol: error: Features=a|b: only features joined with & are supported by Sluice
rc=1" "$(upd $USER1 'Features=a|b')"
expect_eq "ReqNodeList=this node" "rc=0" "$(upd $USER1 ReqNodeList="$node")"
expect_eq "ReqNodeList=elsewhere" "Invalid node name specified for job $pl
rc=1" "$(upd $USER1 ReqNodeList=nosuch9)"
expect_eq "ExcNodeList=elsewhere" "Invalid node name specified for job $pl
rc=1" "$(upd $USER1 ExcNodeList=nosuch9)"
expect_eq "NodeList=" "rc=0" "$(upd $USER1 NodeList=)"
expect_eq "Contiguous=yes by a user" "Access/permission denied for job $pl
rc=1" "$(upd $USER1 Contiguous=yes)"
expect_eq "Contiguous=yes by root" "rc=0" "$(upd root Contiguous=yes)"
expect_eq "Contiguous=no by a user" "rc=0" "$(upd $USER1 Contiguous=no)"
expect_eq "Deadline by a user" "Access/permission denied for job $pl
rc=1" "$(upd $USER1 Deadline=now+1hour)"
expect_eq "TasksPerNode by a user" "Access/permission denied for job $pl
rc=1" "$(upd $USER1 TasksPerNode=2)"
expect_eq "DelayBoot=10" "rc=0" "$(upd $USER1 DelayBoot=10)"
expect_eq "Switches=1@5" "rc=0" "$(upd $USER1 Switches=1@5)"
expect_eq "wait-for-switch=x" "scontrol: error: Invalid wait-for-switch value: x
rc=1" "$(upd $USER1 wait-for-switch=x)"
expect_eq "Licenses=" "scontrol: error: update Licenses= is not supported by Sluice
rc=1" "$(upd $USER1 Licenses=x)"
expect_eq "shown" "ReqNodeList=(null) ExcNodeList=(null) Features=(null) DelayBoot=00:10:00 Contiguous=0" \
	"$("$BIN/scontrol" show job "$pl" | tr ' ' '\n' |
		grep -E '^(ReqNodeList|ExcNodeList|Features|DelayBoot|Contiguous)=' | tr '\n' ' ' | sed 's/ $//')"
as $USER1 "$BIN/scontrol" update JobId="$pl" ReqNodeList="$node" || fail "ReqNodeList"
as root "$BIN/scontrol" update JobId="$pl" Contiguous=1 ExcNodeList="$node-7" || fail "Contiguous"
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
start_daemon
expect_eq "kept across kill -9" "$node $node-7 1 00:10:00" \
	"$(field "$pl" ReqNodeList) $(field "$pl" ExcNodeList) $(field "$pl" Contiguous) $(field "$pl" DelayBoot)"
as $USER1 "$BIN/scontrol" update JobId="$pl" ExcNodeList= || fail "ExcNodeList="
as $USER1 "$BIN/scontrol" release "$pl" || fail "release"
wait_state "$pl" COMPLETED
# A running job: its own nodes are no change, a name it lacks is Slurm's
# invalid name, a feature is no longer pending.
rn=$(submit $USER1 -o /dev/null --wrap 'sleep 30') || fail "submit"
wait_state "$rn" RUNNING
expect_eq "running: NodeList= its own" "" "$(as $USER1 "$BIN/scontrol" update JobId="$rn" NodeList="$node" 2>&1)"
expect_eq "running: NodeList= another" "Invalid node name specified for job $rn" \
	"$(as $USER1 "$BIN/scontrol" update JobId="$rn" NodeList=nosuch9 2>&1)"
expect_eq "running: Features=" "Job is no longer pending execution for job $rn" \
	"$(as $USER1 "$BIN/scontrol" update JobId="$rn" Features=a 2>&1)"
"$BIN/scancel" "$rn"
wait_state "$rn" CANCELLED # its CPUs are free for show node's CPUAlloc=0 below
ok "update of Features, ReqNodeList, ExcNodeList, Contiguous, Deadline, TasksPerNode, DelayBoot, Switches: as Slurm; Licenses= refused by name"

# show partition, node, config: Slurm's keys from Sluice's config.
"$BIN/scontrol" show partition batch | head -n 1 | grep -qx "PartitionName=batch" || fail "show partition"
"$BIN/scontrol" show partition | grep -q "^   State=UP TotalCPUs=8 TotalNodes=1 " ||
	fail "show partition: $("$BIN/scontrol" show partition)"
err=$("$BIN/scontrol" show partition nosuch 2>/dev/null); rc=$?
expect_eq "no partition" "1 Partition nosuch not found" "$rc $err"
"$BIN/scontrol" show node | grep -q "^   CPUAlloc=0 CPUEfctv=8 CPUTot=8 " || fail "show node: $("$BIN/scontrol" show node)"
"$BIN/scontrol" -o show node | grep -q "^NodeName=$(hostname -s) " || fail "show -o node"
"$BIN/scontrol" show config | grep -qx "ClusterName             = sluicetest" || fail "show config"
"$BIN/scontrol" show config | tail -n 1 | grep -qx "Slurmctld(primary) at $(hostname -s) is UP" ||
	fail "show config: its last line"
ok "show partition, node, config"

# EligibleTime through a hold: a time still ahead (--begin) stays through
# the hold and the release, as slurmctld keeps it.
e1=$(submit $USER1 -o /dev/null --begin=now+600 --wrap true) || fail "submit"
before=$("$BIN/scontrol" show job "$e1" | grep -o 'EligibleTime=[^ ]*')
as $USER1 "$BIN/scontrol" hold "$e1" || fail "hold"
expect_eq "held, --begin ahead" "$before" "$("$BIN/scontrol" show job "$e1" | grep -o 'EligibleTime=[^ ]*')"
as $USER1 "$BIN/scontrol" release "$e1" || fail "release"
expect_eq "released, --begin ahead" "BeginTime" "$("$BIN/squeue" -h -j "$e1" -o %r)"
as $USER1 "$BIN/scancel" "$e1"
ok "a hold and release keep an EligibleTime still ahead"

stop_daemon
out=$("$BIN/scontrol" ping); rc=$?
expect_eq "ping, down" "1 Slurmctld(primary) at $(hostname -s) is DOWN" "$rc $out"
ok "ping says DOWN when sluiced is not there"

