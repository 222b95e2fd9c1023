#!/bin/sh
# The fork server keeps the supervisors it forks (stepd_server.c): a job
# ends, sluiced collects it, and the same process supervises the next job.
# What that must not change: a cancel reaches the job it was meant for and
# never the next one on that supervisor; a job's usage is its own; kill -9
# of sluiced lets free supervisors go and the busy ones finish their jobs.
# The server's limits, lowered through sluiced's environment, reach it.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=16 write_conf
start_daemon
cd "$T/work"
jobs="$T/state/jobs"

free_pids() { pgrep -f "sluice-stepd( -D)? --free $jobs\$" | sort -n; }
stepd_of() { pgrep -f "sluice-stepd( -D)? $jobs/$1\$"; }
none_free() { [ -z "$(free_pids)" ]; }
is_free() { free_pids | grep -qx "$1"; }
exited() { ! kill -0 "$1" 2>/dev/null; }
# within TENTHS MESSAGE COMMAND...: COMMAND succeeds within TENTHS tenths of
# a second, else the test fails with MESSAGE.
within() {
	w_n=$1 w_msg=$2
	shift 2
	until "$@"; do
		w_n=$((w_n - 1)); [ $w_n -gt 0 ] || fail "$w_msg"
		sleep 0.1
	done
}

# 1. The supervisor of a finished job is kept, and takes the next job.
a=$(submit $USER1 -o a.out --wrap 'echo one') || fail "submit a"
wait_state "$a" COMPLETED
n=0
while [ -z "$(free_pids)" ]; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "no free supervisor after job $a"
	sleep 0.1
done
kept=$(free_pids | tail -n1)
b=$(submit $USER1 -o b.out --wrap 'echo two; sleep 30') || fail "submit b"
wait_state "$b" RUNNING
expect_eq "job $b's supervisor" "$kept" "$(stepd_of "$b")"
ok "job $b runs under the supervisor job $a had ($kept)"

# 2. A cancel is its job's: b ends CANCELLED, and the job after it on the
# same supervisor runs to COMPLETED.
as $USER1 "$BIN/scancel" "$b" || fail "scancel $b"
wait_state "$b" CANCELLED
c=$(submit $USER1 -o c.out --wrap 'echo three') || fail "submit c"
wait_state "$c" COMPLETED
expect_eq "job $c's output" three "$(cat c.out)"
ok "a cancelled job's supervisor runs the next job to its end"

# 3. Usage is the job's own: a job that burns CPU, then a trivial one on
# the same supervisor, whose TotalCPU is not the first one's.
d=$(submit $USER1 -o /dev/null --wrap 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done') ||
	fail "submit d"
wait_state "$d" COMPLETED 60
e=$(submit $USER1 -o /dev/null --wrap 'true') || fail "submit e"
wait_state "$e" COMPLETED
dcpu=$("$BIN/sacct" -n -X -P -j "$d" -o TotalCPU)
ecpu=$("$BIN/sacct" -n -X -P -j "$e" -o TotalCPU)
secs() { echo "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
awk -v x="$(secs "$dcpu")" 'BEGIN { exit !(x >= 0.1) }' || fail "job $d burned no CPU? TotalCPU $dcpu"
awk -v x="$(secs "$ecpu")" 'BEGIN { exit !(x < 0.05) }' ||
	fail "job $e: TotalCPU $ecpu carries job $d's ($dcpu)"
under() { sed -n "s/.*job $1: started under sluice-stepd pid \([0-9]*\)$/\1/p" "$T/sluiced.log"; }
expect_eq "job $e's supervisor" "$(under "$d")" "$(under "$e")"
ok "usage per job on a kept supervisor ($d: $dcpu, $e: $ecpu)"

# 4. Cancels racing the ends of short jobs: only the cancelled ones end
# CANCELLED; every other job, whichever supervisor it lands on, COMPLETED.
: >ids.txt
for i in $(seq 1 40); do
	id=$(submit $USER1 -o /dev/null --wrap "sleep 0.0$((i % 7))") || fail "submit $i"
	echo "$id $((i % 2))" >>ids.txt
	[ $((i % 2)) = 1 ] && as $USER1 "$BIN/scancel" "$id" 2>/dev/null
done
n=0
while [ -n "$("$BIN/squeue" -h -t PD,R,CG 2>/dev/null)" ]; do
	n=$((n + 1)); [ $n -lt 300 ] || fail "jobs did not drain"
	sleep 0.1
done
while read -r id odd; do
	s=$(state "$id")
	if [ "$odd" = 0 ]; then
		expect_eq "job $id (not cancelled)" COMPLETED "$s"
	else
		case "$s" in COMPLETED | CANCELLED*) ;; *) fail "job $id (cancelled): [$s]" ;; esac
	fi
done <ids.txt
ok "cancels racing short jobs reach only the jobs they name"

# 5. A job that leaves a process in a session of its own (beyond the
# reach of the job's kill) leaves its supervisor changed: it exits instead
# of taking another job, and the server goes on serving the next jobs.
server=$(pgrep -f "sluice-stepd( -D)? --server --keep $jobs\$")
[ -n "$server" ] || fail "no fork server"
: >left.txt
for i in $(seq 1 150); do
	submit $USER1 -o /dev/null --wrap 'setsid sleep 0.8 </dev/null >/dev/null 2>&1 & echo' >>left.txt ||
		fail "submit $i"
done
for id in $(cat left.txt); do wait_state "$id" COMPLETED; done
expect_eq "the fork server" "$server" "$(pgrep -f "sluice-stepd( -D)? --server --keep $jobs\$")"
grep -q "stepd server:" "$T/sluiced.log" && fail "the fork server broke: $(grep "stepd server:" "$T/sluiced.log")"
g=$(submit $USER1 -o g.out --wrap 'echo five') || fail "submit g"
wait_state "$g" COMPLETED
expect_eq "job $g's output" five "$(cat g.out)"
ok "supervisors left changed by their jobs exit; the server serves on"

# 6. kill -9 of sluiced: the free supervisors go with the server; a busy
# one finishes its job, which the next sluiced records, and then exits.
f=$(submit $USER1 -o f.out --wrap 'sleep 2; echo four') || fail "submit f"
wait_state "$f" RUNNING
h=$(submit $USER1 -o /dev/null --wrap true) || fail "submit h"
wait_state "$h" COMPLETED
fpid=$(stepd_of "$f")
[ -n "$fpid" ] || fail "no supervisor for job $f"
[ -n "$(free_pids)" ] || fail "no free supervisor before the kill"
kill9_daemon
within 50 "free supervisors outlived the server: $(free_pids)" none_free
kill -0 "$fpid" 2>/dev/null || fail "job $f's supervisor died with sluiced"
start_daemon
wait_state "$f" COMPLETED 30
expect_eq "job $f's output" four "$(cat f.out)"
within 50 "job $f's supervisor outlived its job with no server" exited "$fpid"
ok "kill -9: free supervisors gone, job $f finished under its own and recorded"

# 7. The limits, lowered through sluiced's environment, which the server it
# starts inherits (stepd_server.c): a supervisor free for
# SLUICE_STEPD_IDLE_MS is let go, and the next job runs to its end under a
# new one; a bad value is logged and its default used.
stop_daemon
within 50 "free supervisors outlived sluiced: $(free_pids)" none_free
export SLUICE_STEPD_IDLE_MS=2000 SLUICE_STEPD_JOBS_MAX=none
start_daemon
unset SLUICE_STEPD_IDLE_MS SLUICE_STEPD_JOBS_MAX
i=$(submit $USER1 -o i.out --wrap 'echo six') || fail "submit i"
wait_state "$i" COMPLETED
ipid=$(under "$i")
[ -n "$ipid" ] || fail "job $i: no supervisor in the log"
within 50 "job $i's supervisor $ipid was not kept" is_free "$ipid"
within 100 "free supervisor $ipid not let go within 10 s (idle time 2 s)" exited "$ipid"
j=$(submit $USER1 -o j.out --wrap 'echo seven') || fail "submit j"
wait_state "$j" COMPLETED
expect_eq "job $j's output" seven "$(cat j.out)"
[ -n "$(under "$j")" ] && [ "$(under "$j")" != "$ipid" ] ||
	fail "job $j: supervisor [$(under "$j")], after $ipid was let go"
grep -q "server: SLUICE_STEPD_JOBS_MAX=none: not a whole number from 1 to 1000; 1000 used" \
	"$T/sluiced.log" || fail "no word of the bad SLUICE_STEPD_JOBS_MAX in the log"
ok "SLUICE_STEPD_IDLE_MS through sluiced: $ipid let go when idle, job $j under $(under "$j")"
