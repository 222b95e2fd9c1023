#!/bin/sh
# kill -9 of sluiced in the middle of a burst of 200 submissions: every id
# that sbatch printed exists afterwards, and no job ran twice.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=4 write_conf
start_daemon
cd "$T/work"
chmod 1777 .

# Each job appends its id to one shared file: a duplicate run shows twice.
cat >mark.sh <<EOS
#!/bin/sh
echo "\$SLURM_JOB_ID" >> $T/work/ran.txt
EOS
chmod 644 mark.sh
: >ids.txt
: >ran.txt
chmod 666 ran.txt ids.txt
(
	for i in $(seq 1 200); do
		as $USER1 "$BIN/sbatch" --parsable -o /dev/null mark.sh >>ids.txt 2>/dev/null
	done
) &
burst=$!
sleep 0.7
kill9_daemon
echo "killed sluiced after $(wc -l <ids.txt) acknowledged submissions"
sleep 0.3
start_daemon
wait "$burst"
acked=$(wc -l <ids.txt)
[ "$acked" -gt 0 ] || fail "no submission was acknowledged"
# Wait until nothing is pending or running.
n=0
while [ -n "$("$BIN/squeue" -h -t PD,R,CG 2>/dev/null)" ]; do
	n=$((n + 1)); [ $n -lt 600 ] || fail "jobs did not drain"
	sleep 0.2
done
for id in $(cat ids.txt); do
	s=$(state "$id")
	[ "$s" = COMPLETED ] || fail "acknowledged job $id is [$s], not COMPLETED"
done
dups=$(sort ran.txt | uniq -d)
[ -z "$dups" ] || fail "jobs ran twice: $dups"
missing=0
for id in $(cat ids.txt); do grep -qx "$id" ran.txt || missing=$((missing + 1)); done
expect_eq "acknowledged jobs that never ran" 0 "$missing"
ok "$acked acknowledged jobs survived kill -9, each ran exactly once"

# kill -9 right after scontrol requeue: the requeue is on disk, so the run
# that ends meanwhile is still a REQUEUED row and the job waits out
# BeginTime (it came back at once, its first run lost); requeuehold holds.
for kind in requeue requeuehold; do
	rq=$(submit $USER1 -o /dev/null --wrap 'trap "sleep 1; exit 3" TERM; sleep 60 & wait') ||
		fail "submit $kind"
	wait_state "$rq" RUNNING
	sleep 0.5
	as $USER1 "$BIN/scontrol" "$kind" "$rq" || fail "$kind"
	kill9_daemon
	sleep 2 # the run ends while no daemon runs
	start_daemon
	n=0
	until "$BIN/squeue" -h -j "$rq" -o %T | grep -q PENDING; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "$kind: not pending again: $(state "$rq")"; sleep 0.1
	done
	want=BeginTime
	[ "$kind" = requeuehold ] && want="job requeued in held state"
	expect_eq "$kind across kill -9" "PENDING $want" "$("$BIN/squeue" -h -j "$rq" -o '%T %r')"
	expect_eq "$kind: the first run" "REQUEUED" "$("$BIN/sacct" -D -X -n -P -j "$rq" -o State | head -n1)"
	"$BIN/scancel" "$rq"
done
ok "scontrol requeue and requeuehold survive kill -9 of sluiced"

# A request cut short by kill -9 is sent again once sluiced is back: scancel
# of a held job, sent while the daemon is stopped (the kernel queues the
# connection), then killed and restarted under it.
hc=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit held"
kill -STOP "$DPID"
SLUICE_CONNECT_TIMEOUT=10 as $USER1 "$BIN/scancel" "$hc" 2>hc.err &
sc=$!
sleep 0.5
kill9_daemon
start_daemon
wait "$sc" || fail "scancel across the restart: $(cat hc.err)"
expect_eq "the job it cancelled" CANCELLED "$(state "$hc" | cut -d' ' -f1)"
ok "scancel rides out a kill -9 and restart of sluiced"
