#!/bin/sh
# Issue 12, the query side, through the real sluiced: squeue's order, -O,
# -w, -q and its refusals; sacct's rows for jobs that never ran, the
# exit status of a TERM trap, Timelimit, and the -S window; scancel's
# signal scopes (no steps, -b, --full), its filters and exit codes.
. "$top_srcdir/tests/integration/lib.sh"
make_users
EXTRA_OBJECTS=$WPC_LOW_HIGH write_conf
start_daemon
cd "$T/work"

# --- squeue ---------------------------------------------------------------
r1=$(submit $USER1 -J r1 -o /dev/null --wrap 'sleep 60') || fail "submit r1"
r2=$(submit $USER1 -J r2 -o /dev/null --wrap 'sleep 60') || fail "submit r2"
r3=$(submit $USER1 -J r3 --qos=high -o /dev/null --wrap 'sleep 60') || fail "submit r3"
h1=$(submit $USER1 -J h1 -H -o /dev/null --wrap true) || fail "submit h1"
h2=$(submit $USER1 -J h2 -H -o /dev/null --wrap true) || fail "submit h2"
wait_state "$r3" RUNNING
# Slurm's default order: running jobs of one priority by start time,
# newest first, then by ascending id (not by descending id); held jobs
# (no start time) in reverse.
sq_r=$("$BIN/squeue" -h -t R -o '%i %S' -S P,t,-p | grep -v "^$r3 ")
want=$(printf '%s\n' "$sq_r" | sort -s -k2,2r -k1,1n)
expect_eq "running jobs: start desc, then ascending ids" "$want" "$sq_r"
expect_eq "held jobs in reverse" "$h2
$h1" "$("$BIN/squeue" -h -t PD -o %i)"
ok "squeue's default order is Slurm's"

host=$("$BIN/squeue" -h -j "$r1" -o %N)
expect_eq "-O widths" "$(printf '%-20s%8s|%-4s' "$r1" RUNNING r1)" \
	"$("$BIN/squeue" -h -j "$r1" -O 'jobid,state:.8|,name:4')"
expect_eq "-O header" "JOBID       NAME" "$("$BIN/squeue" -j "$r1" -O 'jobid:12,name:4' | head -n1)"
err=$("$BIN/squeue" -h -j "$r1" -O 'jobid:4,bogus' 2>&1 >/dev/null)
expect_eq "-O unknown name" "squeue: error: Invalid job format specification: bogus" "$err"
expect_eq "-w" "$r1 $r2 $r3" "$("$BIN/squeue" -h -w "$host" -o %i -S i | tr '\n' ' ' | sed 's/ $//')"
expect_eq "-w an unknown node" "squeue: error: Invalid node name nosuchnode" \
	"$("$BIN/squeue" -h -w nosuchnode -o %i 2>&1)"
"$BIN/squeue" -h -w nosuchnode >/dev/null 2>&1 && fail "-w an unknown node: exit status 0"
expect_eq "-w localhost" "$r1 $r2 $r3" "$("$BIN/squeue" -h -w localhost -o %i -S i | tr '\n' ' ' | sed 's/ $//')"
expect_eq "-q" "$r3" "$("$BIN/squeue" -h -q high -o %i)"
for opt in "-L lic"; do
	out=$("$BIN/squeue" $opt 2>&1); rc=$?
	expect_eq "squeue $opt rc" 1 "$rc"
	case "$out" in "squeue: error: --"*" is not supported by Sluice") ;;
	*) fail "squeue $opt said [$out]" ;; esac
done
ok "squeue -O, -w, -q; -L refused"

# --- scancel: what a signal reaches --------------------------------------
cat >fam.sh <<'EOS'
#!/bin/bash
trap 'echo shell got USR1' USR1
(trap 'echo child got USR1' USR1; while :; do sleep 0.2; done) &
echo up
while :; do sleep 0.2; done
EOS
for x in s b f; do
	eval "fam_$x=\$(submit $USER1 -o fam-$x.out fam.sh)" || fail "submit fam $x"
done
for x in s b f; do
	eval "id=\$fam_$x"
	wait_state "$id" RUNNING
	n=0
	until grep -q '^up' "fam-$x.out" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "fam $x did not start"
		sleep 0.1
	done
done
as $USER1 "$BIN/scancel" -s USR1 "$fam_s" || fail "scancel -s"
as $USER1 "$BIN/scancel" -s USR1 -b "$fam_b" || fail "scancel -s -b"
as $USER1 "$BIN/scancel" -s USR1 --full "$fam_f" || fail "scancel -s --full"
sleep 1
expect_eq "no -b: no steps, no process reached" "up" "$(cat fam-s.out)"
expect_eq "-b: the batch script alone" "up
shell got USR1" "$(cat fam-b.out)"
grep -q "shell got USR1" fam-f.out && grep -q "child got USR1" fam-f.out ||
	fail "--full did not reach the script and its child: $(cat fam-f.out)"
err=$(as $USER1 "$BIN/scancel" -s USR1 "$h1" 2>&1); rc=$?
expect_eq "signal to a pending job rc" 228 "$rc"
expect_eq "signal to a pending job" \
	"scancel: error: Kill job error on job id $h1: Job can not be altered now, try again later" "$err"
ok "scancel --signal: steps only without -b, the script with -b, its group with --full"

# TERM without -b reaches the job's srun steps, each with slurmstepd's
# CANCELLED line, the batch shell going on; with -b the script alone gets
# it, the JOB line first (as the reference Slurm 22.05 wrote them).
st=$(submit $USER1 -o st.out --wrap "$BIN/srun sleep 60; echo rc=\$?") || fail "submit st"
wait_state "$st" RUNNING
n=0
until "$BIN/squeue" -h -s | grep -q "^ *$st\.0 "; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "step $st.0 not running"; sleep 0.1
done
as $USER1 "$BIN/scancel" -s TERM "$st" || fail "scancel -s TERM"
wait_state "$st" COMPLETED
sed "s/ AT [0-9T:-]* / AT T /" st.out >st.masked
expect_eq "TERM to the steps" "slurmstepd-$(hostname -s): error: *** STEP $st.0 ON $(hostname -s) CANCELLED AT T ***
srun: error: $(hostname -s): task 0: Terminated
srun: Force Terminated StepId=$st.0
rc=143" "$(cat st.masked)"
expect_eq "its step" "CANCELLED 0:15" "$("$BIN/sacct" -n -P -j "$st.0" -o State,ExitCode | tr '|' ' ')"
sb=$(submit $USER1 -o sb.out --wrap 'trap "echo got TERM" TERM; echo up; sleep 60 & wait; echo after') ||
	fail "submit sb"
n=0
until grep -q '^up' sb.out 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "sb did not start"; sleep 0.1
done
as $USER1 "$BIN/scancel" -s TERM -b "$sb" || fail "scancel -s TERM -b"
wait_state "$sb" COMPLETED
sed "s/ AT [0-9T:-]* / AT T /" sb.out >sb.masked
expect_eq "TERM to the script" "up
slurmstepd-$(hostname -s): error: *** JOB $sb ON $(hostname -s) CANCELLED AT T ***
got TERM
after" "$(cat sb.masked)"
ok "scancel -s TERM: the steps' srun and the script, with slurmstepd's lines"

# --- scancel: filters and ids -------------------------------------------
as $USER1 "$BIN/scancel" --state=RUNNING --name=r2 || fail "scancel --state --name"
wait_state "$r2" CANCELLED
expect_eq "r1 untouched" RUNNING "$(state "$r1")"
as $USER1 "$BIN/scancel" --qos=HIGH --partition=batch || fail "scancel --qos"
wait_state "$r3" CANCELLED
as $USER1 "$BIN/scancel" --nodelist=nosuchnode --account=general || fail "scancel -w other"
expect_eq "r1 still running" RUNNING "$(state "$r1")"
err=$(as $USER1 "$BIN/scancel" -v --account=nosuch 2>&1); rc=$?
expect_eq "no match rc" 0 "$rc"
expect_eq "no match -v" "scancel: error: No active jobs match ALL job filters, including: account=nosuch " "$err"
err=$(as $USER1 "$BIN/scancel" "${r1}_3" 2>&1); rc=$?
expect_eq "task of a job that is no array rc" 0 "$rc" # Slurm 22.05: silent, 0
expect_eq "task of a job that is no array" "" "$err"
expect_eq "r1 untouched" RUNNING "$(state "$r1")"
err=$(as $USER1 "$BIN/scancel" -t PD,R 2>&1); rc=$?
expect_eq "--state list rc" 1 "$rc"
expect_eq "--state list" "Invalid job state specified: PD,R
Valid job states are PENDING, RUNNING, and SUSPENDED" "$err"
err=$(as $USER1 "$BIN/scancel" -s USR1 999999 2>&1); rc=$?
expect_eq "signal to an unknown id rc" 1 "$rc"
expect_eq "signal to an unknown id" "scancel: error: Kill job error on job id 999999: Invalid job id specified" "$err"
printf 'x\nn\n' | as $USER1 "$BIN/scancel" -i "$r1" >prompt.out || fail "scancel -i"
expect_eq "-i asks again, then no" \
	"Cancel job_id=$r1 name=r1 partition=batch [y/n]? Cancel job_id=$r1 name=r1 partition=batch [y/n]? " \
	"$(cat prompt.out)"
expect_eq "-i no: untouched" RUNNING "$(state "$r1")"
echo y | as $USER1 "$BIN/scancel" -i "$r1" >/dev/null || fail "scancel -i yes"
wait_state "$r1" CANCELLED
as $USER1 "$BIN/scancel" --full "$fam_s" "${fam_b}_*" "$fam_f" || fail "scancel the fam jobs"
ok "scancel --state --name --qos --partition --nodelist --account -i; N_* and N_T"

# --- sacct ----------------------------------------------------------------
as $USER1 "$BIN/scancel" "$h1" || fail "cancel held"
wait_state "$h1" CANCELLED
expect_eq "cancelled while pending: no batch step" "$h1|CANCELLED by $(id -u $USER1)|Partition_Limit" \
	"$("$BIN/sacct" -n -P -j "$h1" -o JobID,State,Timelimit)"
t=$(submit $USER1 -o t.out --wrap 'trap "exit 143" TERM; echo up; sleep 60 & wait') || fail "submit trap"
wait_state "$t" RUNNING
n=0
until grep -q up t.out 2>/dev/null; do n=$((n + 1)); [ $n -lt 100 ] || fail "trap job"; sleep 0.1; done
as $USER1 "$BIN/scancel" -s TERM -b "$t" || fail "TERM the script"
wait_state "$t" FAILED
expect_eq "exit 143 reads 15:0" "$t|FAILED|15:0|UNLIMITED
$t.batch|FAILED|15:0|" "$("$BIN/sacct" -n -P -j "$t" -o JobID,State,ExitCode,Timelimit)"
ok "sacct: no batch step without a run; Partition_Limit until a job ran; 128+ exit statuses"

done_id=$(submit $USER1 -o /dev/null --wrap true) || fail "submit done"
wait_state "$done_id" COMPLETED
in_list() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
ids=$("$BIN/sacct" -a -n -X -P -o JobID -S now-3600 | tr '\n' ' ')
in_list "$ids" "$done_id" || fail "sacct -S: $done_id missing from [$ids]"
ids=$("$BIN/sacct" -a -n -X -P -o JobID -s CD -S now-3600 | tr '\n' ' ')
in_list "$ids" "$done_id" && fail "sacct -s CD -S without -E is an instant in Slurm: [$ids]"
ids=$("$BIN/sacct" -a -n -X -P -o JobID -s CD -S now-3600 -E now | tr '\n' ' ')
in_list "$ids" "$done_id" || fail "sacct -s CD -S -E: $done_id missing from [$ids]"
ids=$("$BIN/sacct" -a -n -X -P -o JobID | tr '\n' ' ')
in_list "$ids" "$h2" && fail "a job never eligible (held) listed without -j: [$ids]"
"$BIN/sacct" -n -X -P -j "$h2" -o JobID | grep -qx "$h2" || fail "sacct -j of a held job"
expect_eq "sacct -e" "Account             AdminComment        AllocCPUS           AllocNodes         " \
	"$("$BIN/sacct" -e | head -n1)"
out=$("$BIN/sacct" --associations=x 2>&1); rc=$?
expect_eq "sacct --associations" "1 sacct: error: --associations is not supported by Sluice" "$rc $out"
ok "sacct's window: -S alone ends now, -s without -E is an instant, held jobs need -j"

# -S/-E through parse_time looking back, each line as Slurm 22.05.8's sacct
# printed it: a time of day is today's, a month later than this one last
# year's, blank text no -S at all; the refused ones at Slurm's position
# ("today now5": its doubled offset). Exit 1, nothing on stdout.
sacct_time() { # sacct_time EXPECTED_STDERR ARGS...
	want=$1; shift
	out=$("$BIN/sacct" "$@" 2>"$T/sacct_time.err"); rc=$?
	expect_eq "sacct $*" "1||$want" "$rc|$out|$(cat "$T/sacct_time.err")"
}
after() { echo "sacct: error: Start time ($1) requested is after end time ($2)."; }
today=$(date +%F)
dec31=$(($(date +%Y) - 1))-12-31
[ "$(date +%m)" = 12 ] && dec31=$(date +%Y)-12-31
sacct_time "$(after "${today}T16:30:00" 2000-01-01T00:00:00)" -S 4:30pm -E 2000-01-01
sacct_time "$(after "${today}T00:00:00" 2000-01-01T00:00:00)" -S "" -E 2000-01-01
sacct_time "$(after "${dec31}T00:00:00" 2000-01-01T00:00:00)" -S 12/31 -E 2000-01-01
sacct_time "$(after 2030-01-01T00:00:00 "$(date -d tomorrow +%F)T12:00:00")" \
	-S 2030-01-01 -E "noon tomorrow"
sacct_time "Invalid time specification (pos=13): 2026-11-26T10" -S 2030-01-01 -E 2026-11-26T10
sacct_time "Invalid time specification (pos=15): today now5" -S "today now5"
sacct_time "Invalid time specification (pos=1): Today" -S Today
ok "sacct -S/-E read as Slurm's parse_time(past): its forms, lines and positions"

# A bad sort: Slurm's squeue has printed its header by then.
out=$("$BIN/squeue" --sort bogus 2>/dev/null); rc=$?
expect_eq "squeue --sort bogus stdout" "1              JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)" "$rc $out"
expect_eq "squeue --sort bogus stderr" "squeue: error: Invalid sort specification: s" "$("$BIN/squeue" --sort bogus 2>&1 >/dev/null)"
ok "squeue's bad sort after its header, as Slurm's"
out=$("$BIN/scontrol" show hostnames '' 2>&1); rc=$?
expect_eq "show hostnames ''" "0 " "$rc $out"
expect_eq "show hostnames, SLURM_NODELIST" "a1 a2" "$(SLURM_NODELIST='a[1-2]' SLURM_JOB_NODELIST='b1' "$BIN/scontrol" show hostnames | tr '\n' ' ' | sed 's/ $//')"
out=$("$BIN/scontrol" show hostlist 2>&1); rc=$?
expect_eq "show hostlist without a list" "1 invalid encode argument" "$rc $out"
ok "scontrol show hostnames and hostlist: their lists as 22.05 reads them"
out=$("$BIN/squeue" -j '' 2>&1); rc=$?
expect_eq "squeue -j ''" "0              JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)" "$rc $out"
out=$("$BIN/squeue" -j 9999999x 2>&1); rc=$?
expect_eq "squeue -j 9999999x" "1 slurm_load_jobs error: Invalid job id specified" "$rc $out"
out=$("$BIN/squeue" -j abc 2>&1); rc=$?
expect_eq "squeue -j abc" "1 squeue: error: Invalid job id: abc" "$rc $out"
out=$("$BIN/squeue" -j 0 2>&1); rc=$?
expect_eq "squeue -j 0" "1 squeue: error: Invalid job id: 0" "$rc $out"
out=$("$BIN/squeue" -j "9999999,0_1" 2>&1); rc=$?
expect_eq "squeue -j 9999999,0_1" "1 squeue: error: Invalid job id: 0_1" "$rc $out"
ok "squeue -j read with squeue's strtol: '' lists none, '5x' is job 5, 0 is no id"
