#!/bin/sh
# The gates in front of the queue: --dependency (a chain with a failure,
# --kill-on-invalid-dep, OR lists, singleton), --begin, and what Sluice adds
# to Slurm: jobs a dependency names that have left memory are judged from
# the store, a job never known is refused, the gates survive a restart, and
# killInvalidDepend is the config's default. The transcript of what Slurm
# also prints is diffed against a real Slurm 22.05's
# (tests/data/scontrol/deps.golden, written by ref_capture.sh).
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf "minJobAge: 1"
start_daemon
cd "$T/work"

SBATCH=$BIN/sbatch SCONTROL=$BIN/scontrol SCANCEL=$BIN/scancel
OWNER=$USER1 OTHER=$USER2
as_user() { as "$@"; }
. "$top_srcdir/tests/integration/scontrol_scenario.sh"

scenario_deps >"$T/deps.out" || fail "scenario: $(tail -n 5 "$T/deps.out")"
diff -u "$top_srcdir/tests/data/scontrol/deps.golden" "$T/deps.out" >&2 ||
	fail "the transcript differs from Slurm 22.05's (- Slurm, + Sluice)"
ok "dependency chain, --kill-on-invalid-dep, OR, singleton, --begin: as Slurm 22.05 prints them"

# --begin=now+5 starts about 5 s after its submission, woken by its timer.
j=$(submit $USER1 --begin=now+5 --wrap true) || fail "submit --begin"
wait_state "$j" COMPLETED 15
delay=$(( $("$BIN/sacct" -n -X -P -j "$j" -o Start | xargs -I{} date -d {} +%s) -
	$("$BIN/sacct" -n -X -P -j "$j" -o Submit | xargs -I{} date -d {} +%s) ))
[ "$delay" -ge 5 ] && [ "$delay" -le 7 ] || fail "--begin=now+5 started after $delay s"
ok "--begin=now+5 started after $delay s"

# A job Slurm does not know it takes for a purged one, and so done: the
# job runs at once, its dependency (null) (the reference cluster did). In a
# '?' list such a term meets the whole list. Waiting on itself is refused.
u=$(submit $USER1 -o /dev/null -d afterok:999999 --wrap true) || fail "submit afterok:unknown"
wait_state "$u" COMPLETED
held=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit held"
u2=$(submit $USER1 -o /dev/null -d "afterok:$held?afterok:999998" --wrap true) || fail "submit ?"
wait_state "$u2" COMPLETED
u3=$(submit $USER1 -o /dev/null -d "afterok:$held,afterok:999998" --wrap true) || fail "submit ,"
expect_eq "the known term stays" "afterok:${held}(unfulfilled)" \
	"$("$BIN/scontrol" show job "$u3" | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p')"
"$BIN/scancel" "$held" "$u3"
ok "a dependency on a job never known is met at once, as Slurm's on a purged one"

# Jobs past minJobAge (1 s here) are gone from memory after a restart: a
# dependency on them is judged from the store.
good=$(submit $USER1 --wrap true) && bad=$(submit $USER1 --wrap 'exit 2') || fail "submit"
wait_state "$good" COMPLETED
wait_state "$bad" FAILED
held=$(submit $USER1 -d afterok:"$bad" --begin=now+1hour --wrap true) || fail "submit held"
later=$(submit $USER1 --begin=now+1hour --wrap true) || fail "submit later"
sleep 2
stop_daemon
start_daemon
"$BIN/squeue" -h -t all -j "$good" 2>/dev/null | grep -q . && fail "job $good is still in memory"
ok1=$(submit $USER1 -d afterok:"$good" --wrap true) || fail "afterok on a stored job"
ko=$(submit $USER1 -d afterok:"$bad" --wrap true) || fail "afterok on a stored failure"
wait_state "$ok1" COMPLETED
state_line() { "$BIN/scontrol" show job "$1" | sed -n 's/^ *\(JobState=.*\)$/\1/p'; }
n=0
until state_line "$ko" | grep -q DependencyNeverSatisfied; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "job $ko: $(state_line "$ko")"; sleep 0.1
done
expect_eq "from the store" "JobState=PENDING Reason=DependencyNeverSatisfied Dependency=afterok:$bad(failed)" \
	"$(state_line "$ko")"
expect_eq "after a restart" "JobState=PENDING Reason=DependencyNeverSatisfied Dependency=afterok:$bad(failed)" \
	"$(state_line "$held")"
expect_eq "begin after a restart" "JobState=PENDING Reason=BeginTime Dependency=(null)" \
	"$(state_line "$later")"
ok "jobs past minJobAge judged from the store; the gates survived a restart"

# killInvalidDepend: yes (Slurm's DependencyParameters=kill_invalid_depend),
# taken up by scontrol reconfigure; a job may still say no.
sed -i 's/^minJobAge: 1$/minJobAge: 1\nkillInvalidDepend: yes/' "$T/sluice.yaml"
err=$(as $USER1 "$BIN/scontrol" reconfigure 2>&1); rc=$?
expect_eq "reconfigure by a user" "1 slurm_reconfigure error: Invalid user id" "$rc $err"
# a file the daemon cannot take: the reason, exit 1, the old one kept
cp "$T/sluice.yaml" "$T/sluice.yaml.good"
echo "bogusKey: 1" >>"$T/sluice.yaml"
err=$("$BIN/scontrol" reconfigure 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q "^slurm_reconfigure error: .*bogusKey" ||
	fail "a bad config was taken: $rc $err"
cp "$T/sluice.yaml.good" "$T/sluice.yaml"
"$BIN/scontrol" reconfigure || fail "reconfigure by root"
n=0
until "$BIN/scontrol" show config | grep -q '^DependencyParameters    = kill_invalid_depend$'; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "reconfigure: $("$BIN/scontrol" show config | grep Depend)"
	sleep 0.1
done
killed=$(submit $USER1 -d afterok:"$bad" --wrap true) || fail "submit"
kept=$(submit $USER1 -d afterok:"$bad" --kill-on-invalid-dep=no --wrap true) || fail "submit"
wait_state "$killed" CANCELLED 10
expect_eq "killed" "JobState=CANCELLED Reason=DependencyNeverSatisfied Dependency=afterok:$bad(failed)" \
	"$(state_line "$killed")"
sleep 0.5
expect_eq "kept" "JobState=PENDING Reason=DependencyNeverSatisfied Dependency=afterok:$bad(failed)" \
	"$(state_line "$kept")"
ok "killInvalidDepend: yes cancels, --kill-on-invalid-dep=no keeps"

# What waits on a job cancelled for its dependency learns it too.
next=$(submit $USER1 -d afterany:"$kept" --wrap true) || fail "submit"
"$BIN/scancel" "$kept" "$held"
wait_state "$next" COMPLETED 10
ok "afterany on a cancelled job ran"

# sacct's Reason of a job that ran: the last reason it waited for that was
# not None, Priority or Resources (slurmdbd's state_reason_prev_db), as the
# reference cluster shows it for a dependency chain.
ra=$(submit $USER1 -o /dev/null --wrap 'sleep 1') || fail "submit ra"
rb=$(submit $USER1 -o /dev/null -d afterok:"$ra" --wrap true) || fail "submit rb"
wait_state "$rb" COMPLETED 20
expect_eq "sacct Reason" "$ra|None
$rb|Dependency" "$("$BIN/sacct" -n -X -P -j "$ra,$rb" -o JobID,Reason)"
ok "sacct Reason: what a job waited for before it ran"
