#!/bin/sh
# scontrol update on a job array named whole while some of its tasks
# refuse, and NumNodes=/NumCPUs= on running jobs: each case as a real
# Slurm 22.05 printed it (stdout|stderr, exit status; "N" the array's id).
# slurmctld answers per record and scontrol prints a line per answer once
# any task refused, "No error" included; a resize (NumNodes=) of an array
# loaded as more than its pending meta record is refused by scontrol
# itself (update_job.c's _is_single_job).
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf
start_daemon
cd "$T/work"

# upd USER ID ARGS...: "RC|STDOUT|STDERR" of scontrol update JobId=ID
# ARGS, ID's job written N where scontrol names it.
upd() {
	u=$1 id=$2; shift 2
	as "$u" "$BIN/scontrol" update JobId="$id" "$@" >"$T/o" 2>"$T/e"
	rc=$?
	m="s/(^|job |ID )${id%%_*}([_: ]|\$)/\1N\2/g"
	echo "$rc|$(sed -E "$m" "$T/o")|$(sed -E "$m" "$T/e")"
}

# running_task1 ARGS...: an array of three whose task 1 runs (%1: the
# others wait); its id.
running_task1() {
	id=$(submit $USER1 -o /dev/null "$@" -a 1-3%1 --wrap 'sleep 120') || fail "submit"
	n=0
	until [ "$("$BIN/squeue" -h -r -j "${id}_1" -t R -o %i)" = "${id}_1" ]; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "task 1 of $id did not start"; sleep 0.1
	done
	echo "$id"
}

REFUSED="1||N_1: Job is no longer pending execution
N_2-3: No error"

# Task 1 runs, 2-3 wait: a field that changes only while pending is
# refused by task 1 and taken by the others, which scontrol says of both.
d=$(submit $USER1 -H --wrap true) || fail "submit"
a=$(running_task1 -t 10)
for f in MinCPUsNode=2 Partition=batch NumCPUs=2 MinMemoryNode=100 MinMemoryCPU=10 \
	NumTasks=2 CPUsPerTask=2 Account=general WCKey=x StdOut=/tmp/x \
	StartTime=now+1hour Dependency=afterok:"$d"; do
	expect_eq "update N $f" "$REFUSED" "$(upd $USER1 "$a" "$f")"
done
expect_eq "a longer TimeLimit, by the owner" "1||N_1: Access/permission denied
N_2-3: No error" "$(upd $USER1 "$a" TimeLimit=20)"
expect_eq "a shorter TimeLimit" "0||" "$(upd $USER1 "$a" TimeLimit=5)"
expect_eq "Comment" "0||" "$(upd $USER1 "$a" Comment=c)"
expect_eq "Name" "0||" "$(upd $USER1 "$a" Name=foo)"
expect_eq "Priority, by the owner" \
	"1||N_1-3: Changes to job priority are not persistent, change nice instead" \
	"$(upd $USER1 "$a" Priority=5)"
expect_eq "NumNodes=1" "1||scontrol: error: Job resizing not supported for job arrays" \
	"$(upd $USER1 "$a" NumNodes=1)"
expect_eq "NumNodes=1-1" "1||scontrol: error: Job resizing not supported for job arrays" \
	"$(upd $USER1 "$a" NumNodes=1-1)"
expect_eq "TimeLimit=+5" \
	"1||scontrol: error: TimeLimit increment/decrement not supported for job arrays" \
	"$(upd $USER1 "$a" TimeLimit=+5)"
expect_eq "Partition=bogus" "1||N_1: Job is no longer pending execution
N_2-3: Invalid partition name specified" "$(upd $USER1 "$a" Partition=bogus)"
expect_eq "another user" "1||N_1-3: Invalid user id" "$(upd $USER2 "$a" Comment=x)"
# what each task took (the reference cluster: 1 RUNNING 1 5:00 foo,
# 2-3 PENDING 2 5:00 foo)
expect_eq "the tasks after" "1 RUNNING 1 5:00 foo
2 PENDING 2 5:00 foo
3 PENDING 2 5:00 foo" "$("$BIN/squeue" -h -r -j "$a" -o '%K %T %c %l %j' | sort)"
"$BIN/scancel" "$a" "$d"
ok "update N, task 1 running: its refusal and the others' No error, as Slurm"

# All tasks waiting in the meta record: one record, so TimeLimit=+T and
# NumNodes= go through; a refusal is still per task.
p=$(submit $USER1 -H -t 10 -a 1-3 --wrap true) || fail "submit"
expect_eq "all pending, Partition=bogus" "1||N_1-3: Invalid partition name specified" \
	"$(upd $USER1 "$p" Partition=bogus)"
expect_eq "all pending, TimeLimit=+5" "0||" "$(upd $USER1 "$p" TimeLimit=+5)"
expect_eq "all pending, NumNodes=1-1" "0||" "$(upd $USER1 "$p" NumNodes=1-1)"
expect_eq "limits" "15:00 15:00 15:00" \
	"$("$BIN/squeue" -h -r -j "$p" -o %l | paste -sd' ')"
expect_eq "N_[2-3] with NumNodes=" "1||scontrol: error: Invalid job ID N_[2-3]" \
	"$(upd $USER1 "${p}_[2-3]" NumNodes=1)"
expect_eq "an unknown job with NumNodes=" \
	"1||scontrol: error: Could not load state information for job N: Invalid job id specified" \
	"$(upd $USER1 99999999 NumNodes=1)"
"$BIN/scancel" "$p"
ok "update N, all pending: one record (TimeLimit=+T, NumNodes=), refusals per task"

# All tasks running: every one refuses, on one line.
r=$(submit $USER1 -o /dev/null -a 1-3 --wrap 'sleep 120') || fail "submit"
n=0
until [ "$("$BIN/squeue" -h -r -j "$r" -t R -o %i | wc -l)" -eq 3 ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "array $r did not start"; sleep 0.1
done
expect_eq "all running, MinCPUsNode=2" "1||N_1-3: Job is no longer pending execution" \
	"$(upd $USER1 "$r" MinCPUsNode=2)"
"$BIN/scancel" "$r"
ok "update N, all running: N_1-3 refused"

# A running job's NumNodes= and NumCPUs=: its own node count is no
# change; more is not supported; a maximum or CPUs only while pending. A
# running task by its N_I answers the same, per task.
j=$(submit $USER1 -o /dev/null --wrap 'sleep 120') || fail "submit"
wait_state "$j" RUNNING
expect_eq "running, NumNodes=1" "0||" "$(upd $USER1 "$j" NumNodes=1)"
expect_eq "running, NumNodes=2" "1||Requested operation not supported on this system for job N" \
	"$(upd $USER1 "$j" NumNodes=2)"
expect_eq "running, NumNodes=1-1" "1||Job is no longer pending execution for job N" \
	"$(upd $USER1 "$j" NumNodes=1-1)"
expect_eq "running, NumCPUs=2" "1||Job is no longer pending execution for job N" \
	"$(upd $USER1 "$j" NumCPUs=2)"
"$BIN/scancel" "$j"
t=$(running_task1)
expect_eq "N_1 running, NumNodes=1" "0||" "$(upd $USER1 "${t}_1" NumNodes=1)"
expect_eq "N_1 running, NumNodes=2" "1||N_1: Requested operation not supported on this system" \
	"$(upd $USER1 "${t}_1" NumNodes=2)"
expect_eq "N_1 running, NumNodes=1-1" "1||N_1: Job is no longer pending execution" \
	"$(upd $USER1 "${t}_1" NumNodes=1-1)"
expect_eq "N_1 running, NumCPUs=2" "1||N_1: Job is no longer pending execution" \
	"$(upd $USER1 "${t}_1" NumCPUs=2)"
"$BIN/scancel" "$t"
ok "NumNodes= and NumCPUs= on a running job and a running task, as Slurm"
