#!/bin/sh
# tracejob through the real sluiced: a qsub job's life (queued, run, its
# end with MOM's lines and the usage line GC3Pie reads the exit status
# from) as the server, scheduler, MOM and accounting logs would have it,
# rebuilt from the job record; the accounting lines root's alone; a hold
# released; deletes of a running and of a held job; an sbatch job; -f,
# -a, -w; the messages and statuses of an unknown job, of the usage and of
# -p (compat/pbs_tracejob.c; OpenPBS's src/tools/tracejob.c).
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"
S=$(hostname -s)
TJ="$BIN/tracejob"
seq_of() { echo "${1%%.*}"; } # (lib.sh's wait_state uses n and s)
# when JOB FIELD: sacct's Submit, Start or End as tracejob writes a date
when() {
	date -d "$("$BIN/sacct" -n -X -P -j "$1" -o "$2" | head -n1)" '+%m/%d/%Y %H:%M:%S'
}
# line DATE SOURCE MESSAGE: one line of tracejob's
line() { printf '%-20s %-5s%s' "$1" "$2" "$3"; }
has() { # has WHAT TEXT LINE: TEXT holds LINE as a whole line
	printf '%s\n' "$2" | grep -qxF -- "$3" || fail "$1: no line [$3] in
$2"
}

# 1. A job's life: queued, run, ended (exit 3) with its usage
id=$(as $USER1 "$BIN/qsub" -N tj -- /bin/sh -c 'exit 3') || fail "qsub: $id"
jn=$(seq_of "$id")
wait_state "$jn" FAILED
out=$("$TJ" "$id" 2>"$T/err") || fail "tracejob $id: exit $? $(cat "$T/err")"
[ ! -s "$T/err" ] || fail "tracejob $id: stderr $(cat "$T/err")"
expect_eq "the job's header (a blank line, the id, a blank line)" "|Job: $jn.$S||" \
	"$(printf '%s\n' "$out" | head -n3 | tr '\n' '|')"
q=$(when "$jn" Submit) r=$(when "$jn" Start) e=$(when "$jn" End)
has "queued" "$out" "$(line "$q" S "enqueuing into batch, state Q hop 1")"
has "queued" "$out" "$(line "$q" S "Job Queued at request of $USER1@$S, owner = $USER1@$S, job name = tj, queue = batch")"
has "run" "$out" "$(line "$r" L "Considering job to run")"
has "run" "$out" "$(line "$r" S "Job Run at request of Scheduler@$S on exec_vnode ($S:ncpus=1)")"
has "run" "$out" "$(line "$r" L "Job run")"
has "MOM's end" "$out" "$(line "$e" M "Terminated")"
has "obit" "$out" "$(line "$e" S "Obit received momhop:1 serverhop:1 state:R substate:42")"
printf '%s\n' "$out" | grep -Eq "^$e  S    Exit_status=3 resources_used\.cpupercent=[0-9]+ resources_used\.cput=[0-9:]{8} resources_used\.mem=[0-9]+kb resources_used\.ncpus=1 resources_used\.vmem=[0-9]+kb resources_used\.walltime=[0-9:]{8}$" ||
	fail "the usage line: $out"
# the accounting records: Q, S and E
printf '%s\n' "$out" | grep -Eq "^$q  A    user=$USER1 group=$USER1 account=\"general\" project=_pbs_project_default jobname=tj queue=batch ctime=[0-9]+ qtime=[0-9]+ etime=[0-9]+ Resource_List.ncpus=1 Resource_List.nodect=1 Resource_List.place=pack Resource_List.select=1:ncpus=1 $" ||
	fail "the Q record: $out"
printf '%s\n' "$out" | grep -Eq "^$r  A    user=.* start=[0-9]+ exec_host=$S/0\*1 exec_vnode=\($S:ncpus=1\) .* resource_assigned.ncpus=1 $" ||
	fail "the S record: $out"
printf '%s\n' "$out" | grep -Eq "^$e  A    user=.* session=0 end=[0-9]+ Exit_status=3 resources_used\..* run_count=1$" ||
	fail "the E record: $out"
# in time order
d=$(printf '%s\n' "$out" | tail -n +4 | cut -c1-19)
expect_eq "in time order" "$(printf '%s\n' "$d" | sort)" "$d"
# the owner reads the same lines but the accounting log's (root's)
mine=$(as $USER1 "$TJ" "$jn") || fail "tracejob as $USER1: exit $?"
expect_eq "the owner's lines: no A" "$(printf '%s\n' "$out" | grep -v '^.\{21\}A    ')" "$mine"
# -a leaves the accounting out, -f job the job events, -m MOM's
expect_eq "-a" "$mine" "$("$TJ" -a "$jn")"
"$TJ" -f job "$jn" | grep -q 'Job Queued' && fail "-f job kept Job Queued"
"$TJ" -f job "$jn" | grep -qF 'Exit_status=3 resources_used' || fail "-f job dropped the usage line"
"$TJ" -m "$jn" | grep -q '^.\{21\}M' && fail "-m kept MOM's lines"
# -w 60: each line cut at a blank within 60 columns, the rest indented 26
w=$("$TJ" -w 60 "$jn")
printf '%s\n' "$w" | grep -q '^                          Resource_List' || fail "-w 60: $w"
[ "$(printf '%s\n' "$w" | awk 'length > 60 && !/^ /' | wc -l)" -eq 0 ] || fail "-w 60: long lines $w"
ok "a job's life: queued, run, ended, the usage line; A root's; -a -f -m -w"

# 2. Held at the queue, released by its owner, run; an sbatch job
id=$(as $USER1 "$BIN/qsub" -h -N held -- /bin/true) || fail "qsub -h: $id"
jn=$(seq_of "$id")
sleep 1
as $USER1 "$BIN/qrls" "$id" || fail "qrls"
wait_state "$jn" COMPLETED
out=$("$TJ" "$id") || fail "tracejob $id: exit $?"
has "held" "$out" "$(line "$(when "$jn" Submit)" S "enqueuing into batch, state H hop 1")"
printf '%s\n' "$out" | grep -Eq "^.{21}S    Holds u released at request of $USER1@$S$" ||
	fail "the release: $out"
sb=$(submit $USER1 -J slurmy --wrap "exit 0") || fail "sbatch"
wait_state "$sb" COMPLETED
out=$("$TJ" "$sb") || fail "tracejob $sb (sbatch's): exit $?"
printf '%s\n' "$out" | grep -q "job name = slurmy, queue = batch$" || fail "sbatch job: $out"
printf '%s\n' "$out" | grep -q "  S    Exit_status=0 resources_used" || fail "sbatch job's end: $out"
ok "a hold released; an sbatch job"

# 3. Deletes: a running job by its owner (TermJob, 256 + its signal), a
#    held one by root
id=$(as $USER1 "$BIN/qsub" -N del -- /bin/sleep 300) || fail "qsub: $id"
jn=$(seq_of "$id")
wait_state "$jn" RUNNING
as $USER1 "$BIN/qdel" "$id" || fail "qdel"
wait_state "$jn" CANCELLED
out=$("$TJ" "$id") || fail "tracejob $id: exit $?"
e=$(when "$jn" End)
has "delete" "$out" "$(line "$e" S "delete job request received")"
has "delete" "$out" "$(line "$e" S "Job sent signal TermJob on delete")"
has "delete" "$out" "$(line "$e" A "requestor=$USER1@$S")"
has "delete" "$out" "$(line "$e" S "Job to be deleted at request of $USER1@$S")"
printf '%s\n' "$out" | grep -Eq "^$e  S    Exit_status=2(6[5-9]|7[0-9]) resources_used" ||
	fail "a deleted job's Exit_status: $out"
id=$(as $USER1 "$BIN/qsub" -h -N heldgone -- /bin/true) || fail "qsub -h: $id"
jn=$(seq_of "$id")
"$BIN/qdel" "$id" || fail "qdel as root"
wait_state "$jn" CANCELLED
out=$("$TJ" "$id") || fail "tracejob $id: exit $?"
has "a queued job's delete" "$out" "$(line "$(when "$jn" End)" A "requestor=root@$S")"
printf '%s\n' "$out" | grep -q 'Obit\|Exit_status' && fail "a job that never ran has an end: $out"
ok "deletes: TermJob, the D record and the requester"

# 4. What tracejob says of no job, of its usage, and of -p
"$TJ" 99999 >"$T/out" 2>"$T/err" && fail "tracejob 99999: exit 0"
printf '\ntracejob: Couldn'"'"'t find Job Id 99999.%s in logs of past 1 day\n\n' "$S" >"$T/want"
cmp -s "$T/want" "$T/err" || fail "unknown job: [$(cat "$T/err")]"
[ ! -s "$T/out" ] || fail "unknown job: stdout $(cat "$T/out")"
"$TJ" -n 3 "99999.$S" 2>"$T/err"
[ $? -eq 1 ] || fail "unknown job: exit"
printf '\ntracejob: Couldn'"'"'t find Job Id 99999.%s in logs of past 3 days\n\n' "$S" >"$T/want"
cmp -s "$T/want" "$T/err" || fail "unknown job -n 3: [$(cat "$T/err")]"
# one known, one not: the known one's lines, the other's message, exit 1
"$TJ" "$jn" 99998 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "known and unknown: exit"
grep -q "^Job: $jn.$S$" "$T/out" || fail "known and unknown: $(cat "$T/out")"
grep -q "99998.$S" "$T/err" || fail "known and unknown: $(cat "$T/err")"
"$TJ" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "no operand: exit"
expect_eq "usage" "USAGE: tracejob [-a|s|l|m|v] [-w size] [-p path] [-n days] [-f filter_type] job_identifier..." \
	"$(head -n1 "$T/out")"
"$TJ" -x 1 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "-x: exit"
expect_eq "-x" "tracejob: invalid option -- 'x'" "$(cat "$T/err")"
expect_run_p=$("$TJ" -p /var/spool/pbs 1 2>&1)
[ $? -eq 1 ] || fail "-p: exit"
expect_eq "-p" "tracejob: -p is not supported by Sluice" "$expect_run_p"
expect_eq "--version" "pbs_version = $("$BIN/qstat" --version | sed 's/^pbs_version = //')" \
	"$("$TJ" --version)"
stop_daemon
"$TJ" 1 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "no server: exit"
expect_eq "no server" "tracejob: cannot connect to server $S (errno=15010)" "$(cat "$T/err")"
ok "an unknown job, the usage, -p, no server"
