#!/bin/sh
# scontrol requeue, requeuehold, suspend and scancel of the job they run in
# (PyTorch Lightning's and submitit's auto-requeue run `scontrol requeue
# $SLURM_JOB_ID` from their SIGUSR1 handler): the command gets its reply and
# exits 0, and the line after it runs, before the signals reach the job, as
# on Slurm 22.05 (whose agent carries the kill after the reply). Then what
# must not change: a client that goes before reading its reply, and a kill
# -9 of sluiced between the reply and the signals, still requeue the job; a
# resume right after a suspend does not leave the job stopped.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

field() { "$BIN/scontrol" show job "$1" | tr ' ' '\n' | sed -n "s/^ *$2=//p"; }
state_line() { "$BIN/scontrol" show job "$1" | sed -n 's/^ *\(JobState=.*\)$/\1/p'; }
# wait_reason JOB TEXT: its JobState line holds TEXT within 10 s
wait_reason() {
	wait_until "job $1: $(state_line "$1"), expected $2" "state_line $1 | grep -q '$2'"
}

# Each job writes its lines to its own file, and only in its first run
# (SLURM_RESTART_COUNT is unset until a requeue).
inside() { # inside NAME COMMAND: a batch script that runs COMMAND in its first run
	cat >"$1.sh" <<EOS
#!/bin/bash
[ -z "\${SLURM_RESTART_COUNT:-}" ] || exit 0
$2
sleep 60
echo late >> $T/work/$1.log
EOS
	chmod 644 "$1.sh"
	: >"$1.log"
	chmod 666 "$1.log"
}

# 1. requeue from the batch script
inside rq "\"$BIN/scontrol\" requeue \$SLURM_JOB_ID; echo rc=\$? >> $T/work/rq.log"
j=$(submit $USER1 -o /dev/null rq.sh) || fail "submit rq"
wait_reason "$j" "JobState=PENDING Reason=BeginTime"
expect_eq "the script's line after scontrol requeue" "rc=0" "$(cat rq.log)"
expect_eq "restarts" 1 "$(field "$j" Restarts)"
expect_eq "sacct -D" "$j|REQUEUED
$j|PENDING" "$("$BIN/sacct" -D -X -n -P -j "$j" -o JobID,State)"
"$BIN/scancel" "$j"
ok "scontrol requeue \$SLURM_JOB_ID in the batch script: rc=0 printed, then requeued"

# 2. requeuehold from an srun task
inside rqh "\"$BIN/srun\" -n1 bash -c '\"$BIN/scontrol\" requeuehold \$SLURM_JOB_ID; echo task rc=\$? >> $T/work/rqh.log'"
j=$(submit $USER1 -o /dev/null rqh.sh) || fail "submit rqh"
wait_reason "$j" "JobState=PENDING Reason=job_requeued_in_held_state"
expect_eq "the task's line after scontrol requeuehold" "task rc=0" "$(cat rqh.log)"
"$BIN/scancel" "$j"
ok "scontrol requeuehold \$SLURM_JOB_ID in an srun task: rc=0 printed, then requeued held"

# 3. scancel of its own job
inside sc "\"$BIN/scancel\" \$SLURM_JOB_ID; echo rc=\$? >> $T/work/sc.log"
j=$(submit $USER1 -o /dev/null sc.sh) || fail "submit sc"
wait_state "$j" CANCELLED
expect_eq "the script's line after scancel" "rc=0" "$(cat sc.log)"
ok "scancel \$SLURM_JOB_ID in the batch script: rc=0 printed, then cancelled"

# 4. suspend of its own job (an operator's: root's job), resumed from outside
inside su "\"$BIN/scontrol\" suspend \$SLURM_JOB_ID; echo rc=\$? >> $T/work/su.log; sleep 1; echo resumed >> $T/work/su.log; exit 0"
j=$(submit root -o /dev/null su.sh) || fail "submit su"
wait_until "job $j: not suspended: $(state_line "$j")" \
	"[ \"\$(\"\$BIN/squeue\" -h -j $j -o %t)\" = S ]"
sleep 0.5
expect_eq "the script's line after scontrol suspend" "rc=0" "$(cat su.log)"
"$BIN/scontrol" resume "$j" || fail "resume"
wait_state "$j" COMPLETED
expect_eq "after the resume" "rc=0
resumed" "$(cat su.log)"
ok "scontrol suspend \$SLURM_JOB_ID in the batch script: rc=0 printed, then suspended"

# 5. a suspend and a resume in quick succession from outside: the resume
# waits for the suspend's signals, so the job is left running
j=$(submit $USER1 -o /dev/null --wrap 'sleep 300') || fail "submit"
wait_state "$j" RUNNING
pgid_of() { cut -d' ' -f1 "$T/state/jobs/$1/job.pgid" 2>/dev/null; }
wait_until "job $j: no pgid" "[ -n \"\$(pgid_of $j)\" ]"
"$BIN/scontrol" suspend "$j" && "$BIN/scontrol" resume "$j" || fail "suspend, resume"
sleep 0.5
expect_eq "the processes after suspend and resume" "S" \
	"$(ps -o stat= -g "$(pgid_of "$j")" | cut -c1 | sort -u)"
expect_eq "the state" RUNNING "$(state "$j")"
"$BIN/scancel" "$j"
ok "suspend then resume at once: the job runs (the resume does not overtake the suspend)"

# A control request (scontrol's) that the client does not stay for: it
# sends it and goes (READ=0), or reads the reply and keeps the connection
# for HOLD seconds (READ=1).
control_raw() { # control_raw USER JOB OP READ HOLD
	request "$1" "$(sed -n 's/^\tSL_MSG_CONTROL = \([0-9]*\),.*$/\1/p' "$top_srcdir/libbatch/proto.h")" \
		"{\"op\":\"$3\",\"id\":$2}" "$4" "$5"
}
grep -q '^	SL_MSG_CONTROL = [0-9]*,' "$top_srcdir/libbatch/proto.h" || fail "no SL_MSG_CONTROL"

# 6. the client goes before it reads the reply: requeued all the same
j=$(submit $USER1 -o /dev/null --wrap 'sleep 300') || fail "submit"
wait_state "$j" RUNNING
control_raw $USER1 "$j" requeue 0 0 || fail "raw requeue"
wait_reason "$j" "JobState=PENDING Reason=BeginTime"
expect_eq "restarts" 1 "$(field "$j" Restarts)"
"$BIN/scancel" "$j"
ok "a requeue whose client left before the reply: requeued"

# 7. kill -9 of sluiced after the reply, before the signals (the client
# keeps its connection, so they wait): the restarted daemon requeues it
j=$(submit $USER1 -o /dev/null --wrap 'sleep 300') || fail "submit"
wait_state "$j" RUNNING
control_raw $USER1 "$j" requeue 1 3 >raw.out &
raw=$!
wait_until "no reply to the raw requeue" "[ -s raw.out ]"
expect_eq "the reply" "{}" "$(cat raw.out)"
kill9_daemon
expect_eq "the requeue's signals before the kill -9" "" \
	"$(grep "sluice-stepd: info: job $j: requeued" "$T/sluiced.log")"
start_daemon
wait "$raw"
wait_reason "$j" "JobState=PENDING Reason=BeginTime"
expect_eq "restarts" 1 "$(field "$j" Restarts)"
"$BIN/scancel" "$j"
ok "kill -9 between a requeue's reply and its signals: requeued after the restart"

# 8. the same with a suspend: the restarted daemon stops the job's processes
j=$(submit root -o /dev/null --wrap 'sleep 300') || fail "submit"
wait_state "$j" RUNNING
wait_until "job $j: no pgid" "[ -n \"\$(pgid_of $j)\" ]"
control_raw root "$j" suspend 1 3 >raw.out &
raw=$!
wait_until "no reply to the raw suspend" "[ -s raw.out ]"
kill9_daemon
expect_eq "the processes before the restart" "S" \
	"$(ps -o stat= -g "$(pgid_of "$j")" | cut -c1 | sort -u)"
start_daemon
wait "$raw"
wait_until "job $j: processes not stopped after the restart" \
	"[ \"\$(ps -o stat= -g \$(pgid_of $j) | cut -c1 | sort -u)\" = T ]"
expect_eq "squeue" S "$("$BIN/squeue" -h -j "$j" -o %t)"
"$BIN/scontrol" resume "$j" || fail "resume after the restart"
wait_until "job $j: processes stopped after resume" \
	"[ \"\$(ps -o stat= -g \$(pgid_of $j) | cut -c1 | sort -u)\" = S ]"
"$BIN/scancel" "$j"
ok "kill -9 between a suspend's reply and its signals: stopped after the restart"
