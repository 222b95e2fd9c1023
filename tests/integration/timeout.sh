#!/bin/sh
# A job reaching its time limit: SIGTERM at the limit (Slurm rounds -t up to
# whole minutes), SIGKILL killWait later, state TIMEOUT, Slurm's message.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

cat >to.sh <<'EOS'
#!/bin/sh
#SBATCH -t 0:05
#SBATCH -o to.out
trap 'echo got TERM; exit 143' TERM
echo start
while :; do sleep 1; done
EOS
id=$(submit $USER1 to.sh) || fail "submit"
# Submitted together so that both limits run out in the same minute.
id2=$(submit $USER1 -t 1 -o stubborn.out --wrap 'trap "" TERM; echo x; sleep 600') || fail "submit 2"
wait_state "$id" RUNNING
expect_eq "time limit column" "1:00" "$("$BIN/squeue" -h -j "$id" -o %l)"
wait_state "$id" TIMEOUT 90
grep -q "got TERM" to.out || fail "job did not see SIGTERM: $(cat to.out)"
grep -q "CANCELLED AT .* DUE TO TIME LIMIT" to.out || fail "no time-limit message: $(cat to.out)"
expect_eq "sacct" "TIMEOUT|0:0" "$("$BIN/sacct" -n -X -P -j "$id" -o State,ExitCode)"
expect_eq "squeue %L of a TIMEOUT" "INVALID" "$("$BIN/squeue" -h -t all -j "$id" -o %L)"
ok "time limit enforced: TIMEOUT"

# A job that ignores SIGTERM is killed killWait (2 s) later.
wait_state "$id2" TIMEOUT 30
ok "SIGKILL after killWait for a job that ignores SIGTERM"
