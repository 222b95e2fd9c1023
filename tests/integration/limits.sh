#!/bin/sh
# QOS and association limits (kind: QOS / Account), as real Slurm 22.05
# enforces them with AccountingStorageEnforce=limits,qos (checked on the
# reference cluster with a QOS of MaxSubmitJobsPerUser=1, MaxJobsPerUser=1,
# MaxTRESPerUser=cpu=2, MaxWall=00:10:00, MaxTRESPerJob=cpu=4): a per-job
# limit keeps the job pending with its reason; a submit limit refuses the
# submission in two lines; running limits hold the next job back until one
# ends.
. "$top_srcdir/tests/integration/lib.sh"
make_users
EXTRA_OBJECTS="---
apiVersion: sluice.io/v1alpha1
kind: QOS
metadata: {name: lim}
spec: {maxSubmitJobsPerUser: 1, maxJobsPerUser: 1, maxTRESPerUser: {cpu: \"2\"},
       maxWall: \"00:10:00\", maxTRESPerJob: {cpu: \"4\"}}
---
apiVersion: sluice.io/v1alpha1
kind: QOS
metadata: {name: jobs}
spec: {maxJobsPerUser: 1}
---
apiVersion: sluice.io/v1alpha1
kind: QOS
metadata: {name: cpus}
spec: {maxTRESPerUser: {cpu: \"2\"}}
---
apiVersion: sluice.io/v1alpha1
kind: Account
metadata: {name: general}
spec: {grpJobs: 3}" CPUS=16 write_conf
start_daemon
cd "$T/work" || fail "cd"
reason() { "$BIN/squeue" -h -j "$1" -o %r; }

w=$(submit $USER1 --qos=lim -t 20 -o /dev/null --wrap 'sleep 60') || fail "submit -t 20"
sleep 0.5
expect_eq "MaxWall: pending" "PENDING QOSMaxWallDurationPerJobLimit" "$(state "$w") $(reason "$w")"
out=$(as $USER1 "$BIN/sbatch" --qos=lim -o /dev/null --wrap true 2>&1); rc=$?
expect_eq "MaxSubmitJobsPerUser" "1:sbatch: error: QOSMaxSubmitJobPerUserLimit
sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)" "$rc:$out"
other=$(submit $USER2 --qos=lim -o /dev/null --wrap true) || fail "another user's submit limit is their own"
"$BIN/scancel" "$w" "$other"
c=$(submit $USER1 --qos=lim -n 8 -o /dev/null --wrap 'sleep 60') || fail "submit -n 8"
sleep 0.5
expect_eq "MaxTRESPerJob" "PENDING QOSMaxCpuPerJobLimit" "$(state "$c") $(reason "$c")"
"$BIN/scontrol" show job "$c" | grep -q "Reason=QOSMaxCpuPerJobLimit" || fail "scontrol's reason"
"$BIN/scancel" "$c"
ok "per-job and submit limits"

a=$(submit $USER1 --qos=jobs -o /dev/null --wrap 'sleep 60') || fail "jobs 1"
b=$(submit $USER1 --qos=jobs -o /dev/null --wrap 'sleep 60') || fail "jobs 2"
wait_state "$a" RUNNING
sleep 0.5
expect_eq "MaxJobsPerUser" "PENDING QOSMaxJobsPerUserLimit" "$(state "$b") $(reason "$b")"
o=$(submit $USER2 --qos=jobs -o /dev/null --wrap 'sleep 60') || fail "jobs, other user"
wait_state "$o" RUNNING
"$BIN/scancel" "$a"
wait_state "$b" RUNNING
ok "MaxJobsPerUser holds the second job until the first ends"
"$BIN/scancel" "$b" "$o"

x=$(submit $USER1 --qos=cpus -n 2 -o /dev/null --wrap 'sleep 60') || fail "cpus 1"
y=$(submit $USER1 --qos=cpus -n 1 -o /dev/null --wrap 'sleep 60') || fail "cpus 2"
wait_state "$x" RUNNING
sleep 0.5
expect_eq "MaxTRESPerUser" "PENDING QOSMaxCpuPerUserLimit" "$(state "$y") $(reason "$y")"
"$BIN/scontrol" show job "$y" | grep -q "Reason=QOSMaxCpuPerUserLimit" || fail "scontrol: $("$BIN/scontrol" show job "$y" | grep Reason)"
"$BIN/scancel" "$x"
wait_state "$y" RUNNING
"$BIN/scancel" "$y"
ok "MaxTRESPerUser"

ids=""
for i in 1 2 3 4; do ids="$ids $(submit $USER1 -o /dev/null --wrap 'sleep 60')"; done
set -- $ids
wait_state "$3" RUNNING
sleep 0.5
expect_eq "Account GrpJobs" "PENDING AssocGrpJobsLimit" "$(state "$4") $(reason "$4")"
"$BIN/scancel" "$1"
wait_state "$4" RUNNING
"$BIN/scancel" $ids
ok "an account's GrpJobs"
