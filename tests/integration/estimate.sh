#!/bin/bash
# Start-time estimates and backfill through the real sluiced (issue 16):
# squeue --start in Slurm's columns, %S, scontrol's StartTime/EndTime of a
# pending job, sbatch --test-only's line and Sluice's --time line, and a
# short job backfilled ahead of a blocked one while a long one waits.
. "$top_srcdir/tests/integration/lib.sh"
make_users
cd "$T/work" || fail "cd"
HOST=$(hostname -s)

# a second partition, spare, with a ClusterQueue of its own
CPUS=4 EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: spare}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 4}
      - {name: memory, nominalQuota: 32Gi}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: spare, namespace: general}
spec: {clusterQueue: spare}' write_conf
# StrictFIFO so that only backfill may pass the blocked head
sed -i 's/^  namespaceSelector: {}$/  namespaceSelector: {}\n  queueingStrategy: StrictFIFO\n  backfill: true/' \
	"$T/sluice.yaml"
start_daemon

ts() { date -d "@$1" +%Y-%m-%dT%H:%M:%S; }
start_of() { # unix start time of a job (StartTime= of scontrol)
	date -d "$("$BIN/scontrol" show job "$1" | grep -o 'StartTime=[^ ]*' | cut -d= -f2)" +%s
}

a=$(submit $USER1 -J runs -n 3 --time=10 --wrap 'sleep 300') || fail "sbatch a"
wait_state "$a" RUNNING
sa=$(start_of "$a")
b=$(submit $USER1 -J big -n 4 --time=5 --wrap 'sleep 1') || fail "sbatch b"
c=$(submit $USER1 -J long -n 1 --time=60 --wrap 'sleep 1') || fail "sbatch c"
sleep 1
expect_eq "the long job is not backfilled" PENDING "$(state "$c")"

# --- squeue --start -------------------------------------------------------------
# b starts when a's 10 minutes are up; c (StrictFIFO) when b's 5 are
out=$("$BIN/squeue" --start)
expect_eq "squeue --start" "             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)
$(printf '%18s %9s %8s %8s %2s %19s %6s %-20s %s' "$b" batch big $USER1 PD "$(ts $((sa + 600)))" 1 '(null)' '(Resources)')
$(printf '%18s %9s %8s %8s %2s %19s %6s %-20s %s' "$c" batch long $USER1 PD "$(ts $((sa + 900)))" 1 '(null)' '(Priority)')" "$out"
expect_eq "%S of a pending job" "$(ts $((sa + 600)))" "$("$BIN/squeue" -h -j "$b" -o %S)"
# a --begin job: its begin time, as Slurm shows it (reference.md, squeue --start)
e=$(submit $USER1 -J later --begin=now+2hours --time=1 --wrap true) || fail "sbatch --begin"
eligible=$("$BIN/scontrol" show job "$e" | grep -o 'EligibleTime=[^ ]*' | cut -d= -f2)
expect_eq "%S of a --begin job" "$eligible" "$("$BIN/squeue" -h -j "$e" -o %S)"
expect_eq "%R of a --begin job" "(BeginTime)" "$("$BIN/squeue" -h -j "$e" -o %R)"
"$BIN/scancel" "$e"
ok "squeue --start: Slurm's columns, the plan's start times, a --begin job's begin"

# --- scontrol: StartTime and EndTime of a pending job ------------------------------
out=$("$BIN/scontrol" show job "$b" | grep -o 'StartTime=[^ ]* EndTime=[^ ]*')
expect_eq "scontrol StartTime" "StartTime=$(ts $((sa + 600))) EndTime=$(ts $((sa + 900)))" "$out"
# PBS's view of the same job: queued, not started
out=$("$BIN/qstat" -f "$b")
echo "$out" | grep -q 'job_state = Q' || fail "qstat -f: [$out]"
expect_eq "qstat -f: no stime for a queued job" 0 "$(echo "$out" | grep -c 'stime =')"
ok "scontrol show job: StartTime/EndTime of a pending job from the plan; qstat -f: no stime"

# --- sbatch --test-only -------------------------------------------------------------
out=$(as $USER1 "$BIN/sbatch" --test-only -n 1 --time=60 --wrap true 2>&1); rc=$?
expect_eq "--test-only rc" 0 "$rc"
line1=$(echo "$out" | head -n1)
echo "$line1" | grep -Eqx "sbatch: Job [0-9]+ to start at $(ts $((sa + 900))) using 1 processors on nodes $HOST in partition batch" ||
	fail "--test-only said [$out]"
# one cpu is free now and b's reservation is under 10 minutes away
echo "$out" | sed -n 2p | grep -Eqx "sbatch: --time=[0-9]:00 would start at [0-9T:-]+" ||
	fail "--test-only's --time line: [$out]"
out=$(as $USER1 "$BIN/sbatch" --test-only -n 2 --time=1 --wrap true 2>&1)
expect_eq "--test-only: no --time line when nothing would backfill" 0 "$(echo "$out" | grep -c -- --time=)"
out=$(as $USER1 "$BIN/sbatch" --test-only -n 4 --time=10 --wrap true 2>&1)
echo "$out" | sed -n 2p | grep -Eqx "sbatch: --partition=spare would start at [0-9T:-]+" ||
	fail "--test-only's --partition line: [$out]"
out=$(as $USER1 "$BIN/sbatch" --test-only -p spare -n 4 --time=10 --wrap true 2>&1)
expect_eq "--test-only: nothing sooner than now" 1 "$(echo "$out" | wc -l)"
ok "--test-only: the plan's start, the --time that backfill would start now, a sooner partition"
out=$(as $USER1 "$BIN/sbatch" --test-only -d bogus:1 --wrap true 2>&1); rc=$?
expect_eq "--test-only, bad dependency" "1 allocation failure: Job dependency problem" "$rc $out"
out=$(as $USER1 "$BIN/sbatch" --test-only -p spare -d afterok:9999999 --begin=2040-01-01T00:00:00 \
	--wrap true 2>&1); rc=$?
echo "$out" | grep -q "to start at 2040-01-01T00:00:00 " || fail "--test-only --begin: [$out]"
ok "--test-only: the dependency's words checked, not its jobs; not before --begin"

# --- backfill -------------------------------------------------------------------------
d=$(submit $USER1 -J short -n 1 --time=2 --wrap 'sleep 300') || fail "sbatch d"
wait_state "$d" RUNNING 10
expect_eq "the long job still waits" PENDING "$(state "$c")"
expect_eq "the head still waits" PENDING "$(state "$b")"
expect_eq "the head's start did not move" "$(ts $((sa + 600)))" "$("$BIN/squeue" -h -j "$b" -o %S)"
ok "backfill: a 2-minute job runs ahead of blocked work, a 60-minute one waits"

# --- a new time limit moves the plan --------------------------------------------
"$BIN/scontrol" update JobId="$b" TimeLimit=20 || fail "scontrol update TimeLimit"
expect_eq "the long job after the head's limit grew" "$(ts $((sa + 1800)))" \
	"$("$BIN/squeue" -h -j "$c" -o %S)"
"$BIN/scontrol" update JobId="$b" TimeLimit=5 || fail "scontrol update TimeLimit back"
ok "scontrol update TimeLimit: the jobs behind move"

# --- kill -9: the running jobs' starts and limits come back from the store -----
kill9_daemon
start_daemon
expect_eq "the head's start after kill -9" "$(ts $((sa + 600)))" "$("$BIN/squeue" -h -j "$b" -o %S)"
expect_eq "the long job's start after kill -9" "$(ts $((sa + 900)))" "$("$BIN/squeue" -h -j "$c" -o %S)"
ok "kill -9 of sluiced: the same estimates from the recovered jobs"

"$BIN/scancel" "$a" "$b" "$c" "$d"
