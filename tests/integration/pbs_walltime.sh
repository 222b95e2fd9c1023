#!/bin/sh
# PBS's walltime to the second (OpenPBS's MOM kills at exactly it): a qsub
# job of walltime 00:00:05 ends about 5 s after its start, not at Slurm's
# rounded-up minute, with Exit_status -29 and MOM's line in its stderr;
# qstat shows the seconds and Slurm's views the minute; qalter's new
# walltime reaches a running job to the second; a held job's seconds
# survive a daemon restart (timeout.sh keeps sbatch's -t in minutes).
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"
S=$(hostname -s)
Q="$BIN/qstat"
seq_of() { echo "${1%%.*}"; }
# elapsed JOB: sacct's Elapsed, in seconds (lib.sh's wait_state uses n and s)
elapsed() {
	"$BIN/sacct" -n -X -P -j "$1" -o ElapsedRaw | head -n1
}

# 1. walltime=00:00:05 on a script that loops: TIMEOUT about 5 s in
cat >loop.pbs <<'EOS'
#!/bin/sh
#PBS -N loop
#PBS -l walltime=00:00:05
while :; do sleep 1; done
EOS
id=$(as $USER1 "$BIN/qsub" loop.pbs) || fail "qsub: $id"
jn=$(seq_of "$id")
wait_state "$jn" RUNNING
"$Q" -f "$id" | grep -qx "    Resource_List.walltime = 00:00:05" ||
	fail "qstat -f: $("$Q" -f "$id" | grep walltime)"
expect_eq "qstat -a Req'd Time (hh:mm of 00:00:05)" "00:00" \
	"$("$Q" -a "$id" | tail -n1 | awk '{print $9}')"
# Slurm holds minutes: its views show the minute the seconds round up to
expect_eq "squeue %l" "1:00" "$("$BIN/squeue" -h -j "$jn" -o %l)"
expect_eq "scontrol TimeLimit" "TimeLimit=00:01:00" \
	"$("$BIN/scontrol" show job "$jn" | grep -o 'TimeLimit=[^ ]*')"
wait_state "$jn" TIMEOUT 20
e=$(elapsed "$jn")
[ "$e" -ge 5 ] && [ "$e" -le 8 ] || fail "walltime 5 s: the job ran $e s"
expect_eq "sacct Timelimit" "00:01:00" "$("$BIN/sacct" -n -X -P -j "$jn" -o Timelimit)"
"$Q" -x -f "$id" | grep -qx "    Exit_status = -29" ||
	fail "Exit_status: $("$Q" -x -f "$id" | grep Exit)"
"$Q" -x -f "$id" | grep -qx "    Resource_List.walltime = 00:00:05" || fail "qstat -x -f walltime"
grep -Eq '^=>> PBS: job killed: walltime [5-8] exceeded limit 5$' "loop.e$jn" ||
	fail "MOM's line: $(cat "loop.e$jn")"
ok "walltime 00:00:05 ends the job at 5 s: Exit_status -29, MOM's line"

# 2. qalter -l walltime= of a running job: shorter, to the second
id=$(as $USER1 "$BIN/qsub" -N alt -l walltime=1:00:00 -- /bin/sleep 300) || fail "qsub: $id"
jn=$(seq_of "$id")
wait_state "$jn" RUNNING
as $USER1 "$BIN/qalter" -l walltime=00:00:04 "$id" || fail "qalter"
"$Q" -f "$id" | grep -qx "    Resource_List.walltime = 00:00:04" || fail "qalter: qstat -f"
expect_eq "squeue %l after qalter" "1:00" "$("$BIN/squeue" -h -j "$jn" -o %l)"
wait_state "$jn" TIMEOUT 20
e=$(elapsed "$jn")
[ "$e" -ge 4 ] && [ "$e" -le 7 ] || fail "qalter walltime 4 s: the job ran $e s"
ok "qalter's walltime reaches a running job to the second"

# 3. scontrol TimeLimit= is whole minutes again; a held job's seconds
#    survive a restart of the daemon (the store's spec keeps them)
id=$(as $USER1 "$BIN/qsub" -h -N held -l walltime=45 -- /bin/true) || fail "qsub: $id"
jn=$(seq_of "$id")
id2=$(as $USER1 "$BIN/qsub" -h -N held2 -l walltime=45 -- /bin/true) || fail "qsub: $id2"
as $USER1 "$BIN/qalter" -l walltime=00:01:30 "$id2" || fail "qalter held"
"$BIN/scontrol" update JobId="$jn" TimeLimit=3 || fail "scontrol update"
"$Q" -f "$id" | grep -qx "    Resource_List.walltime = 00:03:00" || fail "TimeLimit=3: qstat -f"
stop_daemon
start_daemon
"$Q" -f "$id2" | grep -qx "    Resource_List.walltime = 00:01:30" ||
	fail "after a restart: $("$Q" -f "$id2" | grep walltime)"
expect_eq "squeue %l after a restart" "2:00" "$("$BIN/squeue" -h -j "$(seq_of "$id2")" -o %l)"
"$Q" -f "$id" | grep -qx "    Resource_List.walltime = 00:03:00" || fail "restart: TimeLimit=3"
as $USER1 "$BIN/qdel" "$id" "$id2" || fail "qdel"
ok "scontrol's minutes replace the seconds; the seconds survive a restart"
