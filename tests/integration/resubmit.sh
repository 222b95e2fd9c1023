#!/bin/sh
# Issue 11, hole 13: a submission whose reply was lost to kill -9 of sluiced
# was reported as failed although it had been committed, and the retry that
# followed made a second job. sbatch now asks again by itself, with the
# same key, and sluiced answers a key it has with the job it made for it.
# Submitters in parallel, sluiced killed and restarted several times among
# them (durability: power: the fsync widens the moment between the commit
# and the reply); a submitter that is told of a failure tries again, as a
# user would. Every id printed is one job, with the name it was printed
# for, and no name is a job twice.
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf "durability: power
minJobAge: 3600"
start_daemon
cd "$T/work"
: >printed.txt
: >failures.txt
chmod 666 printed.txt failures.txt

submitter() {
	for i in $(seq 1 60); do
		name="s$1-$i"
		for try in 1 2 3 4 5 6; do
			if out=$(as $USER1 "$BIN/sbatch" -J "$name" -o /dev/null --wrap true 2>&1); then
				echo "$name $out" >>printed.txt
				break
			fi
			echo "$name $out" >>failures.txt
			sleep 0.3
		done
	done
}
pids=""
for k in 1 2 3 4 5 6; do
	submitter $k &
	pids="$pids $!"
done
for round in 1 2 3 4 5 6; do
	n=0
	until [ "$(wc -l <printed.txt)" -ge $((round * 50)) ]; do # in the middle of the burst
		n=$((n + 1)); [ $n -lt 300 ] || fail "the submitters stalled: $(tail -n 3 failures.txt)"
		sleep 0.1
	done
	kill9_daemon
	sleep 0.2
	start_daemon
done
for p in $pids; do wait "$p"; done

expect_eq "names submitted" 360 "$(cut -d' ' -f1 printed.txt | sort -u | wc -l)"
n=0
while [ -n "$("$BIN/squeue" -h -t PD,R,CG 2>/dev/null)" ]; do
	n=$((n + 1)); [ $n -lt 600 ] || fail "jobs did not drain"
	sleep 0.2
done
"$BIN/sacct" -a -X -n -P -o JobID,JobName >jobs.txt || fail "sacct"
while read -r name submitted batch job id; do
	[ "$submitted $batch $job" = "Submitted batch job" ] || fail "$name: printed [$submitted $batch $job $id]"
	grep -qx "$id|$name" jobs.txt || fail "$name: job $id that sbatch printed is not $name: $(grep "^$id|" jobs.txt)"
done <printed.txt
twice=$(cut -d'|' -f2 jobs.txt | sort | uniq -d | tr '\n' ' ')
expect_eq "names submitted twice" "" "$twice"
expect_eq "jobs" 360 "$(wc -l <jobs.txt)"
again=$(grep -c "submitted again with its key" "$T/sluiced.log")
ok "360 submissions, 6 kill -9 of sluiced: each a job once ($again asked again after a lost reply and found taken; $(wc -l <failures.txt) failed and retried)"
