#!/bin/sh
# kill -9 of sluiced between an acknowledged action and its signal: acts.c
# replies to scancel, scontrol requeue and suspend first and acts
# ACT_DELAY_MS later (5 s here, SLUICED_TEST_ACT_DELAY_MS, so that the kill
# lands inside that window on a loaded host). The record already says what
# was acknowledged (COMPLETING, the requeue mark, SUSPENDED): after the
# restart the local executor's adopt asks the supervisor again. A job the
# record calls RUNNING after a resume has its processes continued.
. "$top_srcdir/tests/integration/lib.sh"
make_users
export SLUICED_TEST_ACT_DELAY_MS=5000
CPUS=4 write_conf
start_daemon
cd "$T/work"

# start_job NAME: a running job of USER1 whose script is one process (exec
# sleep): its id in $id, the process's pid in $pid.
start_job() {
	id=$(submit $USER1 -o /dev/null --wrap "echo \$\$ >$T/work/$1.pid; exec sleep 300") ||
		fail "submit $1"
	wait_state "$id" RUNNING
	wait_until "$1: no pid file" "[ -s '$T/work/$1.pid' ]"
	pid=$(cat "$T/work/$1.pid")
}
# pstate PID: the process's state letter (T: stopped), or "gone".
pstate() {
	_s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	echo "${_s:-gone}"
}
# acted WHAT PID STATE: the action's signal has not reached PID yet (its
# state is still STATE): the kill -9 that follows lands inside the window.
acted() {
	expect_eq "$1: the process before the kill -9 (the action waits)" "$3" "$(pstate "$2")"
}

# scancel: CANCELLED after the restart, its process gone.
start_job c
jc=$id cpid=$pid
as $USER1 "$BIN/scancel" "$jc" || fail "scancel"
expect_eq "squeue after scancel" CG "$("$BIN/squeue" -h -j "$jc" -o %t)"
acted scancel "$cpid" S
kill9_daemon
start_daemon
wait_state "$jc" CANCELLED 30
wait_until "the cancelled job's process still runs" "[ \"\$(pstate $cpid)\" = gone ]"
expect_eq "sacct" "CANCELLED by $(id -u $USER1)" "$("$BIN/sacct" -n -X -P -j "$jc" -o State)"
ok "scancel acknowledged, then kill -9 before its signal: CANCELLED after the restart"

# scontrol requeue: the run ends REQUEUED, the job waits out BeginTime.
start_job r
jr=$id rpid=$pid
as $USER1 "$BIN/scontrol" requeue "$jr" || fail "requeue"
acted requeue "$rpid" S
kill9_daemon
start_daemon
wait_until "the requeued job is not pending" \
	"[ \"\$(\"\$BIN/squeue\" -h -j $jr -o %T)\" = PENDING ]"
expect_eq "requeue across kill -9" "PENDING BeginTime" "$("$BIN/squeue" -h -j "$jr" -o '%T %r')"
expect_eq "the first run" REQUEUED "$("$BIN/sacct" -D -X -n -P -j "$jr" -o State | head -n1)"
wait_until "the requeued run's process still runs" "[ \"\$(pstate $rpid)\" = gone ]"
"$BIN/scancel" "$jr"
ok "scontrol requeue acknowledged, then kill -9 before its signal: requeued after the restart"

# scontrol suspend: stopped after the restart; resume continues it.
start_job s
js=$id spid=$pid
"$BIN/scontrol" suspend "$js" || fail "suspend"
expect_eq "squeue after suspend" S "$("$BIN/squeue" -h -j "$js" -o %t)"
acted suspend "$spid" S
kill9_daemon
start_daemon
wait_until "the suspended job's process is not stopped" "[ \"\$(pstate $spid)\" = T ]"
expect_eq "squeue after the restart" S "$("$BIN/squeue" -h -j "$js" -o %t)"
"$BIN/scontrol" resume "$js" || fail "resume"
wait_until "the resumed job's process is still stopped" "[ \"\$(pstate $spid)\" = S ]"
ok "scontrol suspend acknowledged, then kill -9 before its SIGSTOP: stopped after the restart"

# A job the record calls RUNNING after a resume, its processes stopped (a
# SIGCONT that never came): continued on adopt. One never suspended and
# stopped by its owner stays stopped.
start_job u
ju=$id upid=$pid
kill -STOP "$spid" "$upid" || fail "kill -STOP"
wait_until "not stopped" "[ \"\$(pstate $spid)\" = T ] && [ \"\$(pstate $upid)\" = T ]"
kill9_daemon
start_daemon
wait_until "the resumed job's process is still stopped after the restart" \
	"[ \"\$(pstate $spid)\" = S ]"
expect_eq "squeue" R "$("$BIN/squeue" -h -j "$js" -o %t)"
expect_eq "the owner's stop of a job never suspended" T "$(pstate "$upid")"
ok "a RUNNING job's stopped processes after a resume are continued on adopt"
"$BIN/scancel" "$js" "$ju"
wait_state "$js" CANCELLED 30
wait_state "$ju" CANCELLED 30

# A job that ends on its own between scancel's reply and the signal is
# CANCELLED, as slurmctld marks it at the cancel; its exit code is its own.
o=$(submit $USER1 -o /dev/null --wrap "touch $T/work/o.run; while [ ! -e $T/work/o.end ]; do sleep 0.1; done; exit 0") ||
	fail "submit"
wait_state "$o" RUNNING
wait_until "the job did not start" "[ -e '$T/work/o.run' ]"
as $USER1 "$BIN/scancel" "$o" || fail "scancel"
touch "$T/work/o.end" # inside the 5 s before the signal
wait_state "$o" CANCELLED 30
expect_eq "sacct" "CANCELLED by $(id -u $USER1)|0:0" "$("$BIN/sacct" -n -X -P -j "$o" -o State,ExitCode)"
ok "a job that outran its scancel's signal is CANCELLED"
