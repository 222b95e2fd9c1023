#!/bin/sh
# What happens to a job at given times (issue 12): --mail-type's mails
# through a fake mailProg that records its argv, stdin and environment;
# --signal before the time limit; --deadline for a job left pending.
. "$top_srcdir/tests/integration/lib.sh"
make_users

MAILDIR="$T/mail"
mkdir -p "$MAILDIR"
chmod 0777 "$MAILDIR"
cat >"$T/fakemail" <<EOS
#!/bin/sh
# argv, one per line, then stdin, then the variables, in a file per mail
f=\$(mktemp "$MAILDIR/mail.XXXXXX")
for a in "\$@"; do printf 'ARG %s\n' "\$a"; done >"\$f"
printf 'STDIN %s\n' "\$(cat)" >>"\$f"
env | grep '^SLURM_JOB_' | sort >>"\$f"
chmod 0644 "\$f"
EOS
chmod 0755 "$T/fakemail"
mail_conf() { write_conf "mailProg: $T/fakemail"; }
WRITE_CONF=mail_conf
start_daemon
cd "$T/work"

# mails JOBID -> the mail subjects for that job, sorted
mails() {
	grep -h "^ARG Slurm Job_id=$1 " "$MAILDIR"/mail.* 2>/dev/null | sed 's/^ARG //' | sort
}
wait_mails() { # wait_mails JOBID COUNT
	n=0
	until [ "$(mails "$1" | wc -l)" -ge "$2" ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "job $1: $2 mails expected, got: $(mails "$1")"
		sleep 0.1
	done
}

# --- mail ------------------------------------------------------------------
m1=$(submit $USER1 -J mailjob --mail-type=BEGIN,END --mail-user=someone@example.org \
	--wrap 'sleep 1') || fail "sbatch --mail-type"
wait_state "$m1" COMPLETED
wait_mails "$m1" 2
mails "$m1" | grep -Eqx "Slurm Job_id=$m1 Name=mailjob Began, Queued time 00:00:0[0-9]" ||
	fail "no Began mail: $(mails "$m1")"
mails "$m1" | grep -Eqx "Slurm Job_id=$m1 Name=mailjob Ended, Run time 00:00:0[0-9], COMPLETED, ExitCode 0" ||
	fail "no Ended mail: $(mails "$m1")"
f=$(grep -l "Name=mailjob Ended" "$MAILDIR"/mail.*)
expect_eq "mailProg's argv" "ARG -s" "$(sed -n 1p "$f")"
expect_eq "recipient" "ARG someone@example.org" "$(sed -n 3p "$f")"
expect_eq "stdin" "STDIN " "$(sed -n 4p "$f")"
grep -qx "SLURM_JOB_ID=$m1" "$f" || fail "SLURM_JOB_ID: $(cat "$f")"
grep -qx "SLURM_JOB_MAIL_TYPE=Ended" "$f" || fail "SLURM_JOB_MAIL_TYPE: $(cat "$f")"
grep -qx "SLURM_JOB_STATE=COMPLETED" "$f" || fail "SLURM_JOB_STATE: $(cat "$f")"
grep -qx "SLURM_JOB_EXIT_CODE_MAX=0" "$f" || fail "SLURM_JOB_EXIT_CODE_MAX: $(cat "$f")"
ok "--mail-type=BEGIN,END: Slurm's subjects, mailProg -s SUBJECT USER, SLURM_JOB_* set"

m2=$(submit $USER1 -J failjob --mail-type=FAIL --wrap 'exit 3') || fail "sbatch FAIL"
m3=$(submit $USER1 -J endonly --mail-type=END --wrap 'exit 3') || fail "sbatch END"
m4=$(submit $USER1 -J nomail --wrap true) || fail "sbatch without mail"
wait_state "$m2" FAILED
wait_state "$m3" FAILED
wait_state "$m4" COMPLETED
wait_mails "$m2" 1
mails "$m2" | grep -Eqx "Slurm Job_id=$m2 Name=failjob Failed, Run time 00:00:0[0-9], FAILED, ExitCode 3" ||
	fail "no Failed mail: $(mails "$m2")"
grep -l "Name=failjob" "$MAILDIR"/mail.* | xargs grep -qx "ARG $USER1" ||
	fail "the default recipient is the user"
sleep 1 # a mail that should not come has had its chance
expect_eq "END only, job failed: no mail (Slurm 22.05)" "" "$(mails "$m3")"
expect_eq "no --mail-type, no mail" "" "$(mails "$m4")"
m5=$(submit $USER1 -J cancelled -H --mail-type=ALL --wrap true) || fail "sbatch ALL"
"$BIN/scancel" "$m5"
wait_mails "$m5" 1
expect_eq "a pending job cancelled" "Slurm Job_id=$m5 Name=cancelled Ended, Run time 00:00:00, CANCELLED, ExitCode 0" \
	"$(mails "$m5")"
ok "FAIL mails a failure to the user; END alone does not; a cancel is Ended"

# --- arrays: one mail for the array unless ARRAY_TASKS (slurmctld's agent.c) --
amails() { grep -h "^ARG Slurm Array [A-Za-z]* Job_id=$1_" "$MAILDIR"/mail.* 2>/dev/null |
	sed 's/^ARG //' | sort; }
a1=$(submit $USER1 -J arr -a 0-2 --mail-type=BEGIN,END -o /dev/null \
	--wrap 'exit $((SLURM_ARRAY_TASK_ID == 1))') || fail "sbatch --array --mail-type"
a2=$(submit $USER1 -J allfail -a 0-1 --mail-type=FAIL -o /dev/null --wrap 'exit 2') ||
	fail "sbatch --array FAIL"
a3=$(submit $USER1 -J each -a 0-1 --mail-type=END,ARRAY_TASKS -o /dev/null --wrap true) ||
	fail "sbatch --array ARRAY_TASKS"
for a in $a1 $a2 $a3; do
	n=0
	until [ -z "$("$BIN/squeue" -h -j "$a" 2>/dev/null)" ]; do
		n=$((n + 1)); [ $n -lt 150 ] || fail "array $a did not end"; sleep 0.2
	done
done
sleep 1 # a mail that should not come has had its chance
expect_eq "BEGIN,END on an array: the first start, then one summary" \
"Slurm Array Summary Job_id=${a1}_* ($a1) Name=arr Began
Slurm Array Summary Job_id=${a1}_* ($a1) Name=arr Ended, Mixed, ExitCode [0-1]" "$(amails "$a1")"
expect_eq "FAIL on an array whose tasks all failed" \
	"Slurm Array Summary Job_id=${a2}_* ($a2) Name=allfail Failed, FAILED, ExitCode [2-2]" \
	"$(amails "$a2")"
r0=$("$BIN/scontrol" show job "${a3}_0" | sed -n 's/^JobId=\([0-9]*\) .*/\1/p')
r1=$("$BIN/scontrol" show job "${a3}_1" | sed -n 's/^JobId=\([0-9]*\) .*/\1/p')
amails "$a3" | sed -E 's/Run time 00:00:0[0-9]/Run time T/' >"$T/each.mails"
expect_eq "ARRAY_TASKS: a mail per task" \
"Slurm Array Task Job_id=${a3}_0 ($r0) Name=each Ended, Run time T, COMPLETED, ExitCode 0
Slurm Array Task Job_id=${a3}_1 ($r1) Name=each Ended, Run time T, COMPLETED, ExitCode 0" \
	"$(cat "$T/each.mails")"
ok "arrays mail once as a whole (Began, then Ended/Failed with the exit code range); ARRAY_TASKS per task"

# --- --signal ----------------------------------------------------------------
# The shell and a child of it trap USR1; the shell gives the child a second
# to say so before ending the job. `sleep & wait` keeps the traps prompt.
cat >sig.sh <<'EOS'
#!/bin/sh
start=$(date +%s)
sh -c 'trap "echo child got USR1; exit 0" USR1; while :; do sleep 0.2 & wait $!; done' &
child=$!
trap 'echo "shell got USR1 after $(( $(date +%s) - start ))s"; sleep 1; kill $child; exit 0' USR1
while :; do sleep 0.2 & wait $!; done
EOS
# Without B: the signal is the steps' (Slurm's default): an srun step's task
# traps it, and the batch shell, which would say so, never gets it.
cat >sigstep.sh <<EOS
#!/bin/sh
trap 'echo "shell got USR1"' USR1
"$BIN/srun" sh -c 'trap "echo step got USR1; exit 0" USR1; while :; do sleep 0.2 & wait \$!; done'
echo "batch shell reached end, srun rc=\$?"
EOS
s1=$(submit $USER1 -t 1 --signal=B:USR1@57 -o sigb.out sig.sh) || fail "sbatch --signal=B:"
s2=$(submit $USER1 -t 1 --signal=USR1@57 -o sigstep.out sigstep.sh) || fail "sbatch --signal"
wait_state "$s1" COMPLETED 20
wait_state "$s2" COMPLETED 20
grep -Eqx "shell got USR1 after [2-5]s" sigb.out || fail "B: no USR1 at 3 s: $(cat sigb.out)"
grep -q "child got" sigb.out && fail "B: the child got it too: $(cat sigb.out)"
# (the task's background sleep is in its process group and dies of the
# signal too, as under Slurm's process tracking; the task's shell may say so)
expect_eq "without B: the step's" "step got USR1
batch shell reached end, srun rc=0" "$(grep -vx 'User defined signal 1' sigstep.out)"
ok "--signal=B:USR1@57 reaches the batch shell alone 3 s in; without B: the srun steps' tasks alone"

# --- --deadline --------------------------------------------------------------
err=$(as $USER1 "$BIN/sbatch" --deadline=2020-01-01 --wrap true 2>&1); rc=$?
expect_eq "a deadline past" "1:sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)" "$rc:$err"
big=$(submit $USER1 -n 8 --wrap 'sleep 30') || fail "sbatch -n 8"
wait_state "$big" RUNNING
d1=$(submit $USER1 -t 1 --deadline=now+65seconds --mail-type=FAIL -J late --wrap true) ||
	fail "sbatch --deadline"
expect_eq "pending before its deadline" PENDING "$(state "$d1")"
"$BIN/scontrol" show job "$d1" | grep -Eq "Deadline=[0-9]{4}-" || fail "no Deadline= shown"
wait_state "$d1" DEADLINE 30
"$BIN/scontrol" show job "$d1" | grep -q "JobState=DEADLINE Reason=DeadLine " ||
	fail "scontrol: $("$BIN/scontrol" show job "$d1" | grep JobState)"
"$BIN/scontrol" show job "$d1" | grep -q "ExitCode=0:1$" || fail "ExitCode: $("$BIN/scontrol" show job "$d1")"
wait_mails "$d1" 1
mails "$d1" | grep -Eqx "Slurm Job_id=$d1 Name=late Failed, Run time 00:00:00, DEADLINE" ||
	fail "deadline mail: $(mails "$d1")"
"$BIN/scancel" "$big"
# released after its deadline passed, between two sweeps: never started
d2=$(submit $USER1 -H --deadline=now+2 -o "$T/work/d2.out" --wrap 'echo started') ||
	fail "sbatch -H --deadline"
sleep 3
as $USER1 "$BIN/scontrol" release "$d2" || fail "release"
wait_state "$d2" DEADLINE 10
[ -s "$T/work/d2.out" ] && fail "a job past its deadline started: $(cat "$T/work/d2.out")"
# sacct as slurmdbd: ExitCode 1:0 (scontrol's 0:1), no Start, no .batch row
expect_eq "sacct of a DEADLINE" "$d2|DEADLINE|1:0|None" \
	"$("$BIN/sacct" -n -P -j "$d2" -o JobID,State,ExitCode,Start)"
ok "--deadline: a past one refused; a pending job that cannot end in time is DEADLINE (DeadLine)"

# --- TIME_LIMIT_50: half the time limit gone ----------------------------------
t1=$(submit $USER1 -t 1 -J halfway --mail-type=TIME_LIMIT_50,TIME_LIMIT_90 --wrap 'sleep 100') ||
	fail "sbatch TIME_LIMIT_50"
wait_state "$t1" RUNNING
"$BIN/scontrol" show job "$t1" | grep -q "MailType=TIME_LIMIT_50,TIME_LIMIT_90$" ||
	fail "MailType before: $("$BIN/scontrol" show job "$t1" | grep Mail)"
n=0
until [ "$(mails "$t1" | wc -l)" -ge 1 ]; do
	n=$((n + 1))
	[ $n -lt 450 ] || fail "no TIME_LIMIT_50 mail after 45 s"
	sleep 0.1
done
mails "$t1" | grep -Eqx "Slurm Job_id=$t1 Name=halfway Reached 50% of time limit, Run time 00:00:3[0-9]" ||
	fail "TIME_LIMIT_50 mail: $(mails "$t1")"
"$BIN/scontrol" show job "$t1" | grep -q "MailType=TIME_LIMIT_90$" ||
	fail "a sent TIME_LIMIT bit stays: $("$BIN/scontrol" show job "$t1" | grep Mail)"
sleep 6 # another sweep: a mail sent is not sent again
expect_eq "TIME_LIMIT_50 mails" 1 "$(mails "$t1" | wc -l)"
"$BIN/scancel" "$t1"
ok "--mail-type=TIME_LIMIT_50: mailed at half the limit, once; MailType drops it as Slurm does"

# --- a mailProg that is not there --------------------------------------------
stop_daemon
sed -i "s|^mailProg: .*|mailProg: $T/nosuchmail|" "$T/sluice.yaml"
start_daemon
n1=$(submit $USER1 --mail-type=END --wrap true) || fail "sbatch"
n2=$(submit $USER1 --mail-type=END --wrap true) || fail "sbatch"
wait_state "$n1" COMPLETED
wait_state "$n2" COMPLETED
sleep 0.5
expect_eq "said once" 1 "$(grep -c "mailProg $T/nosuchmail is not an executable file" "$T/sluiced.log")"
ok "a missing mailProg is logged once; jobs go on"

# --deadline with --time-min: the limit is cut to what the deadline leaves,
# not below --time-min (Slurm's scheduler), and the job runs.
d2=$(submit $USER1 -o /dev/null --deadline=now+150seconds -t 5 --time-min=1 --wrap 'sleep 300') ||
	fail "submit"
wait_state "$d2" RUNNING
expect_eq "limit cut to the deadline" "TimeLimit=00:02:00" \
	"$("$BIN/scontrol" show job "$d2" | grep -o 'TimeLimit=[^ ]*')"
stop_daemon # the cut is in the stored spec too
start_daemon
expect_eq "the cut limit after a restart" "TimeLimit=00:02:00" \
	"$("$BIN/scontrol" show job "$d2" | grep -o 'TimeLimit=[^ ]*')"
as $USER1 "$BIN/scancel" "$d2"
ok "--deadline with --time-min: the limit cut to fit, the job runs; the cut survives a restart"
