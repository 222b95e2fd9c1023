#!/bin/sh
# Kubernetes executor: scontrol suspend sets spec.suspend on the JobSet (a
# JSON merge patch; spec.runPolicy.suspend on an MPIJob): its controller
# deletes the pods, the job is SUSPENDED and keeps its quota. resume sets it
# back: the pods come again and the job is RUNNING. The time limit's clock
# stops while suspended: a job of one minute suspended for a while runs
# its whole minute of running time, then TIMEOUT.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
# With the gang timeout on: a suspended job has no pods, and must not be
# evicted for it (after a restart either).
EXTRA_OBJECTS=$(pods_ready 3s) CPUS=4 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

# live_pods SELECTOR: pods of the job that are not terminating
live_pods() {
	fk GET "/fake/objects?resource=pods&labelSelector=$1" |
		jpath 'len([p for p in d["items"] if not p["metadata"].get("deletionTimestamp")])'
}
wait_pods() {
	n=0
	until [ "$(live_pods "$1")" = "$2" ]; do
		n=$((n + 1)); [ $n -lt 200 ] || fail "pods of $1: $(live_pods "$1"), expected $2"
		sleep 0.1
	done
}
patches() {
	fk GET /fake/requests | jpath '[(r["path"], r["status"]) for r in d["requests"] if r["verb"] == "patch"]'
}

j=$(submit root -c 2 -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R
wait_pods "sluice.io/job-id=$j" 1
"$BIN/scontrol" suspend "$j" || fail "suspend"
expect_eq "squeue" S "$(sq "$j" %t)"
expect_eq "JobState" "JobState=SUSPENDED" "$("$BIN/scontrol" show job "$j" | grep -o 'JobState=[A-Z]*')"
wait_pods "sluice.io/job-id=$j" 0
expect_eq "spec.suspend" True "$(fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$j" |
	jpath 'd["items"][0]["spec"]["suspend"]')"
expect_eq "one merge patch" "[[\"/apis/jobset.x-k8s.io/v1alpha2/namespaces/general/jobsets/sl-$j\", 200]]" "$(patches)"
# The quota stays with it: a second job of 4 CPUs cannot start.
k=$(submit root -c 4 -o /dev/null --wrap 'sleep 1') || fail "submit 2"
sleep 1
expect_eq "second job waits" PD "$(sq "$k" %t)"
"$BIN/scontrol" suspend "$j" || fail "suspend twice: silent, as Slurm"
ok "suspend: spec.suspend by merge patch, pods deleted, SUSPENDED, quota kept"

kill9_daemon
start_daemon
sleep 4
expect_eq "suspended after kill -9 and the gang timeout" S "$(sq "$j" %t)"
ok "kill -9 while suspended: adopted still SUSPENDED, not evicted for having no pods"

"$BIN/scontrol" resume "$j" || fail "resume"
expect_eq "squeue" R "$(sq "$j" %t)"
wait_pods "sluice.io/job-id=$j" 1
expect_eq "spec.suspend" False "$(fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$j" |
	jpath 'd["items"][0]["spec"]["suspend"]')"
sleep 1
expect_eq "still running" R "$(sq "$j" %t)"
out=$("$BIN/scontrol" resume "$j" 2>&1) && fail "resume of a running job succeeded"
expect_eq "resume twice (Slurm's words)" "Job is not suspended for job $j" "$out"
ok "resume: spec.suspend false, the pods again, RUNNING; a second resume refused"
"$BIN/scancel" "$j" "$k"
wait_state "$j" CANCELLED 20

# MPIJob: spec.runPolicy.suspend; the workers go.
m=$(submit root -N 2 --ntasks-per-node=1 --mpi=openmpi -o /dev/null --wrap 'sleep 1000') ||
	fail "submit mpi"
wait_sq "$m" %t R 30
n0=$(live_pods "sluice.io/job-id=$m")
[ "$n0" -ge 2 ] || fail "MPIJob pods: $n0"
"$BIN/scontrol" suspend "$m" || fail "suspend mpi"
# The patch follows scontrol's reply (acts.c): read the object once its
# controller has acted on it.
wait_pods "sluice.io/job-id=$m" 0
expect_eq "runPolicy.suspend" True "$(fk GET "/fake/objects?resource=mpijobs&labelSelector=sluice.io/job-id=$m" |
	jpath 'd["items"][0]["spec"]["runPolicy"]["suspend"]')"
"$BIN/scontrol" resume "$m" || fail "resume mpi"
wait_pods "sluice.io/job-id=$m" "$n0"
expect_eq "mpi running" R "$(sq "$m" %t)"
ok "MPIJob: spec.runPolicy.suspend, workers deleted and back"
"$BIN/scancel" "$m"
wait_state "$m" CANCELLED 20

# The limit's clock: one minute of running time, 5 s of it suspended, and
# sluiced killed after the resume.
t=$(submit root -c 1 -t 1 -o /dev/null --wrap 'sleep 1000') || fail "submit timed"
wait_sq "$t" %t R
sleep 2
"$BIN/scontrol" suspend "$t" || fail "suspend timed"
sleep 5
"$BIN/scontrol" resume "$t" || fail "resume timed"
sleep 1
kill9_daemon # the clock must survive a restart: the record keeps it
start_daemon
wait_state "$t" TIMEOUT 90
se=$("$BIN/sacct" -n -X -P -j "$t" -o Start,End)
el=$(( $(date -d "${se#*|}" +%s) - $(date -d "${se%|*}" +%s) ))
# 60 s running + 5 s suspended; the object's own deadline would restart at
# the resume and end it at 67 s.
[ "$el" -ge 64 ] && [ "$el" -le 66 ] || fail "start to end $el s: expected 60 s running + 5 s suspended"
expect_eq "reason" "TIMEOUT" "$("$BIN/sacct" -n -X -P -j "$t" -o State)"
ok "the time limit does not count the suspended time (start to end $el s)"
stop_daemon
! grep -E -A20 "AddressSanitizer|LeakSanitizer|runtime error" "$T/sluiced.log" ||
	fail "sanitizer report"
