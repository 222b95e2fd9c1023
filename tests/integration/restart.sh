#!/bin/sh
# A running job keeps running across a daemon restart (SIGTERM and kill -9);
# its end is recorded by the restarted daemon; a job that ended while the
# daemon was down is recorded too and never runs again. A pending job
# launched after a restart gets its script, arguments and environment, which
# sluiced keeps only in its store.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

id=$(submit $USER1 -o r.out --wrap 'echo begin; sleep 4; echo end; exit 7') || fail "submit"
wait_state "$id" RUNNING
stop_daemon
n=0
until grep -q begin r.out 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "job output missing while the daemon is down"
	sleep 0.1
done
start_daemon
expect_eq "after restart" RUNNING "$(state "$id")"
wait_state "$id" FAILED 30
expect_eq "exit code recorded" "FAILED|7:0" "$("$BIN/sacct" -n -X -P -j "$id" -o State,ExitCode)"
expect_eq "output" "begin
end" "$(cat r.out)"
ok "running job survives SIGTERM of sluiced; its end is recorded after restart"

id2=$(submit $USER1 -o r2.out --wrap 'echo run >> count.txt; sleep 2') || fail "submit 2"
wait_state "$id2" RUNNING
kill9_daemon
sleep 4 # the job ends while no daemon runs
start_daemon
wait_state "$id2" COMPLETED 20
sleep 1
expect_eq "ran once" "run" "$(cat count.txt)"
ok "job that ended while sluiced was dead (kill -9) is recorded, never rerun"

stop_daemon
start_daemon
expect_eq "history survives restart" "COMPLETED" "$(state "$id2")"
ok "sacct history survives a restart"

cat > args.sh <<'EOS'
#!/bin/sh
echo "args=$1,$2 marker=$SL_MARKER"
EOS
id3=$(as $USER1 env SL_MARKER="x y" "$BIN/sbatch" --parsable -H -o r3.out args.sh "a b" c) ||
	fail "submit 3"
kill9_daemon
start_daemon
as $USER1 "$BIN/scontrol" release "$id3" || fail "release $id3"
wait_state "$id3" COMPLETED 20
expect_eq "script, arguments and environment after restart" "args=a b,c marker=x y" \
	"$(cat r3.out)"
ok "a pending job launched after kill -9 of sluiced runs with its script, arguments and environment"
