#!/bin/sh
# Suspended time is not run time: squeue's TIME, scontrol's RunTime and
# sacct's Elapsed leave it out, as Slurm's do (tot_sus_time); sacct's
# Suspended counts it, for the job and its batch step.
. "$top_srcdir/tests/integration/lib.sh"
write_conf
start_daemon
cd "$T" || fail "cd"
secs() { # H:MM:SS, M:SS or D-HH:MM:SS -> seconds
	echo "$1" | awk -F'[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'
}
id=$("$BIN/sbatch" --parsable -o /dev/null --wrap 'sleep 60') || fail "sbatch"
wait_state "$id" RUNNING
sleep 2
"$BIN/scontrol" suspend "$id" || fail "suspend"
wait_state "$id" SUSPENDED
sleep 4
t=$(secs "$("$BIN/squeue" -h -j "$id" -o %M)")
[ "$t" -ge 1 ] && [ "$t" -le 3 ] || fail "squeue TIME while suspended: $t s (ran about 2)"
"$BIN/scontrol" resume "$id" || fail "resume"
wait_state "$id" RUNNING
sleep 1
t=$(secs "$("$BIN/squeue" -h -j "$id" -o %M)")
[ "$t" -ge 2 ] && [ "$t" -le 5 ] || fail "squeue TIME after resume: $t s (ran about 3)"
"$BIN/scancel" "$id"
wait_state "$id" CANCELLED
e=$("$BIN/sacct" -n -X -P -j "$id" -o ElapsedRaw)
[ "$e" -ge 2 ] && [ "$e" -le 5 ] || fail "sacct Elapsed: $e s (ran about 3 of 7)"
s=$(secs "$("$BIN/sacct" -n -P -j "$id" -o Suspended | head -n1)")
[ "$s" -ge 3 ] && [ "$s" -le 6 ] || fail "sacct Suspended: $s s (about 4)"
expect_eq "the batch step's Suspended is the job's" "$("$BIN/sacct" -n -P -j "$id" -o Suspended | head -n1)" \
	"$("$BIN/sacct" -n -P -j "$id.batch" -o Suspended)"
r=$(secs "$("$BIN/scontrol" show job "$id" | sed -n 's/.*RunTime=\([^ ]*\).*/\1/p')")
[ "$r" -ge 2 ] && [ "$r" -le 5 ] || fail "scontrol RunTime: $r s"
ok "suspended time counts in none of TIME, Elapsed, RunTime, and is sacct's Suspended"
