#!/bin/sh
# sstat through the real sluiced and a job's supervisor: a running job's
# batch step with its live figures, Slurm 22.05's layouts (header, -P, -p,
# -n, -o with widths, -i, --noconvert, -e, --help from
# tests/data/output/sstat_*.out, captured from real sstat), and its errors
# and exit codes for a step that is not running, an unknown job, a job of
# another user, no job and a bad one.
. "$top_srcdir/tests/integration/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
make_users
start_daemon
cd "$T/work"
G="$top_srcdir/tests/data/output"
S="$BIN/sstat"
H=$(hostname -s)

id=$(submit "$USER1" --wrap "python3 -c 'import time; a = bytearray(48 << 20); time.sleep(60)'")
done_id=$(submit "$USER1" --wrap "true")
wait_state "$id" RUNNING 30
wait_state "$done_id" COMPLETED 30
sleep 5 # the supervisor samples every 2 s

out=$(as "$USER1" "$S" -j "$id.batch" -P -o JobID,MaxRSS,AveRSS,NTasks,Nodelist,MaxRSSNode,MaxRSSTask,Pids) ||
	fail "sstat -P: exit $?"
echo "$out"
expect_eq "-P header" "JobID|MaxRSS|AveRSS|NTasks|Nodelist|MaxRSSNode|MaxRSSTask|Pids" \
	"$(echo "$out" | sed -n 1p)"
row=$(echo "$out" | sed -n 2p)
expect_eq "step" "$id.batch" "$(echo "$row" | cut -d'|' -f1)"
rss=$(echo "$row" | cut -d'|' -f2)
# in K, or in M when a whole or half MiB (convert_num_unit's exact steps,
# as Slurm's sstat prints it: 58880 KiB is "57.50M")
case "$rss" in
*K) kib=${rss%K} ;;
*M) kib=$(awk -v m="${rss%M}" 'BEGIN { printf "%d", m * 1024 }') ;;
*) fail "MaxRSS [$rss] neither in K nor in M" ;;
esac
[ "$kib" -ge 49152 ] || fail "MaxRSS $rss: less than the 48 MiB the job holds"
expect_eq "AveRSS of one task" "$rss" "$(echo "$row" | cut -d'|' -f3)"
expect_eq "NTasks, Nodelist, MaxRSSNode, MaxRSSTask" "1|$H|$H|0" "$(echo "$row" | cut -d'|' -f4-7)"
pids=$(echo "$row" | cut -d'|' -f8)
echo "$pids" | grep -Eq '^[0-9]+(,[0-9]+)*$' || fail "Pids [$pids]"
ok "sstat -P: the running step's figures"

# the default layout: Slurm's header and dashes, 47 fields in the row
as "$USER1" "$S" "$id.batch" >def.out || fail "sstat N.batch"
expect_eq "default header" "$(sed -n 1,2p "$G/sstat_default.out")" "$(sed -n 1,2p def.out)"
expect_eq "default row fields" 47 "$(as "$USER1" "$S" -a -j "$id" -P -n | awk -F'|' '{print NF}')"
expect_eq "-p ends in |" "JobID|MaxRSS|" "$(as "$USER1" "$S" -a -j "$id" -p -o JobID,MaxRSS | sed -n 1p)"
as "$USER1" "$S" -j "$id.batch" -o JobID%20,MaxRSS%5 >w.out
expect_eq "widths: header" "               JobID MaxRS " "$(sed -n 1p w.out)"
expect_eq "widths: cut with +" "$(printf '%20s %.4s+ ' "$id.batch" "$rss")" "$(sed -n 3p w.out)"
expect_eq "-n" "$(printf '%-12s %10s ' "$id.batch" "$rss")" "$(as "$USER1" "$S" -n -j "$id.batch" -o JobID,MaxRSS)"
expect_eq "-i header" "JobID                    Nodelist                 Pids " \
	"$(as "$USER1" "$S" -i -j "$id.batch" | sed -n 1p)"
raw=$(as "$USER1" "$S" -n -P --noconvert -j "$id.batch" -o MaxRSS)
expect_eq "--noconvert: bytes" "$((kib * 1024))" "$raw"
ok "layouts"

# -j N alone: the lowest numbered step, of which there is none
out=$(as "$USER1" "$S" -j "$id" 2>&1); rc=$?
expect_eq "-j N: header only" "0 $(sed -n 1,2p "$G/sstat_default.out")" "$rc $out"
out=$(as "$USER1" "$S" -n -j "$id.0" 2>&1); rc=$?
expect_eq "N.0" "0 sstat: error: StepId=$id.0 not found running." "$rc $out"
out=$(as "$USER1" "$S" -n -j "$done_id" 2>&1); rc=$?
expect_eq "finished job" "0 sstat: error: No steps running for job $done_id" "$rc $out"
out=$(as "$USER1" "$S" -n -j 999999 2>&1); rc=$?
expect_eq "unknown job" "0 sstat: error: couldn't get steps for job 999999" "$rc $out"
out=$(as "$USER1" "$S" -n -j 999999.batch,999999.0 2>&1); rc=$?
expect_eq "unknown job's steps" "0 sstat: error: couldn't get steps for job 999999
sstat: error: couldn't get steps for job 999999" "$rc $out"
out=$(as "$USER1" "$S" -n -j "$done_id.batch" 2>&1); rc=$?
expect_eq "finished job's batch step" "0 sstat: error: StepId=$done_id.batch not found running." "$rc $out"
held=$(submit "$USER1" -H --wrap true)
out=$(as "$USER1" "$S" -n -a -j "$held" 2>&1); rc=$?
expect_eq "pending job, -a" "0 sstat: error: No steps running for job $held" "$rc $out"
out=$(as "$USER2" "$S" -n -j "$id.batch" 2>&1); rc=$?
expect_eq "another user's job" "0 sstat: error: slurm_job_step_stat: there was an error with the request to $H rc = Invalid user id
sstat: error: problem getting step_layout for StepId=$id.batch: Invalid user id" "$rc $out"
[ -n "$(as root "$S" -n -j "$id.batch" -o MaxRSS)" ] || fail "root: no row"
out=$(as "$USER1" "$S" 2>&1); rc=$?
expect_eq "no job" "1 sstat: error: You didn't give me any jobs to stat." "$rc $out"
out=$(as "$USER1" "$S" -j abc 2>&1); rc=$?
expect_eq "bad job" "1 sstat: fatal: Bad job/step specified: abc" "$rc $out"
out=$(as "$USER1" "$S" -j "$id" -o foo 2>&1); rc=$?
expect_eq "bad field" "1 sstat: error: Invalid field requested: \"foo\"" "$rc $out"
out=$(as "$USER1" "$S" --bogus 2>&1); rc=$?
expect_eq "bad option" "1 sstat: unrecognized option '--bogus'" "$rc $out"
ok "errors and exit codes"

# An srun step's tasks, measured by sluiced: -j N names the lowest running
# step, -a every one after the batch step, N.S one; a step that ended is
# not found running, as Slurm says.
sid=$(submit "$USER1" -n 2 --wrap "$BIN/srun -n 2 python3 -c 'import time; a = bytearray(32 << 20); time.sleep(60)'") ||
	fail "submit a job with a step"
wait_state "$sid" RUNNING 30
n=0
until "$BIN/squeue" -h -s | grep -q "^ *$sid\.0 "; do
	n=$((n + 1)); [ $n -lt 150 ] || fail "step $sid.0 never ran"; sleep 0.2
done
sleep 1
row=$(as "$USER1" "$S" -n -P -j "$sid.0" -o JobID,NTasks,MaxRSS,Pids --noconvert) || fail "sstat N.0"
expect_eq "N.0: its id and tasks" "$sid.0|2" "$(echo "$row" | cut -d'|' -f1,2)"
rss=$(echo "$row" | cut -d'|' -f3) # bytes, with --noconvert
[ "${rss:-0}" -ge $((32 << 20)) ] && [ "$rss" -lt $((64 << 20)) ] ||
	fail "N.0's MaxRSS: the largest of two tasks of 32 MiB each, got $row"
expect_eq "N.0: two task pids" 2 "$(echo "$row" | cut -d'|' -f4 | tr ',' '\n' | grep -c .)"
expect_eq "-j N is its lowest running step" "$sid.0" "$(as "$USER1" "$S" -n -P -j "$sid" -o JobID)"
expect_eq "-a: the batch step, then the steps" "$sid.batch
$sid.0" "$(as "$USER1" "$S" -n -P -a -j "$sid" -o JobID)"
out=$(as "$USER1" "$S" -n -j "$sid.3" 2>&1); rc=$?
expect_eq "a step that never ran" "0 sstat: error: StepId=$sid.3 not found running." "$rc $out"
"$BIN/scancel" "$sid.0" || fail "scancel N.0"
n=0
while as "$USER1" "$S" -n -P -j "$sid.0" -o JobID 2>/dev/null | grep -q .; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "N.0 still shown after its end"; sleep 0.2
done
out=$(as "$USER1" "$S" -n -j "$sid.0" 2>&1); rc=$?
expect_eq "a step that ended" "0 sstat: error: StepId=$sid.0 not found running." "$rc $out"
"$BIN/scancel" "$sid"
ok "srun steps: N.S, -j N (the lowest running), -a; ended steps not found running"

expect_eq "-e" "$(cat "$G/sstat_e.out")" "$("$S" -e)"
expect_eq "--help" "$(cat "$G/sstat_help.out")" "$("$S" --help)"
ok "-e and --help"
