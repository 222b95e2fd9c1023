#!/bin/sh
# PAM, as Slurm's UsePAM (`pam: {service: NAME}`), through libpam_wrapper:
# sluiced and its supervisors read a private service file under $T, made of
# the system's own modules with options pointing at files under $T.
#   (a) the account stack refuses a submission with PAM's words (or
#       pam_strerror), exit 1, and nothing is stored;
#   (b) the session's pam_env variables and pam_limits limits reach the job,
#       and the supervisor keeps its own limits;
#   (c) the session is opened and closed exactly once per job, in the same
#       supervisor, whether the job completes, is cancelled or times out; a
#       job cancelled while pending gets none; a session that cannot open
#       fails the launch (JobLaunchFailure) and is not closed.
. "$top_srcdir/tests/integration/lib.sh"
make_users

. "$top_srcdir/tests/integration/pam_lib.sh"
pam_wrap
write_conf "pam: {service: sluice-test}"
start_daemon
cd "$T/work"

# Submitted first: its time limit runs out while the rest goes on.
tid=$(submit $USER1 -t 1 -o to.out --wrap 'sleep 600') || fail "submit the timeout job"

# ---- (a) the account stack at submit
echo "Job submission is closed for maintenance." >"$T/nologin"
err=$(as $USER2 "$BIN/sbatch" --wrap true 2>&1); rc=$?
expect_eq "refused rc" 1 "$rc"
expect_eq "refused text" \
	"sbatch: error: Batch job submission failed: Job submission is closed for maintenance." \
	"$err"
err=$(as $USER2 "$BIN/sbatch" --parsable -H --wrap true 2>&1); rc=$?
expect_eq "refused rc, held" 1 "$rc"
expect_eq "nothing queued" "" "$("$BIN/squeue" -h -u $USER2)"
expect_eq "nothing stored" "" "$("$BIN/sacct" -n -X -P -a -u $USER2 -o JobID)"
ok "pam_acct_mgmt refuses with PAM's text, exit 1, nothing stored"

echo "$USER1" >"$T/pam-denied"
err=$(as $USER1 "$BIN/sbatch" --wrap true 2>&1); rc=$?
expect_eq "denied rc" 1 "$rc"
expect_eq "denied text" "sbatch: error: Batch job submission failed: Authentication failure" "$err"
rm "$T/pam-denied"
ok "a refusal without a message gives pam_strerror's"

rm "$T/nologin"
id2=$(submit $USER2 -o u2.out --wrap 'echo "site=$SLUICE_PAM_SITE nofile=$(ulimit -Sn)"') ||
	fail "$USER2 refused once the nologin file is gone"
wait_state "$id2" COMPLETED
expect_eq "stored: the timeout job and $USER2's" "$tid $id2" \
	"$("$BIN/sacct" -n -X -P -a -o JobID | sort -n | tr '\n' ' ' | sed 's/ $//')"
ok "each submission asks PAM again: accepted once the file is gone"

# ---- (b) the session's environment and limits reach the job. As in Slurm,
# limits propagated from the submitting shell win over pam_limits' (applied
# after the session opens), so this job propagates none.
id1=$(as $USER1 env SLUICE_PAM_MINE=from-user "$BIN/sbatch" --parsable --propagate=NONE -o u1.out --wrap \
	'echo "site=$SLUICE_PAM_SITE mine=$SLUICE_PAM_MINE nofile=$(ulimit -Sn)/$(ulimit -Hn)"') ||
	fail "submit as $USER1"
wait_state "$id1" COMPLETED
expect_eq "$USER1's job" "site=scratch-$USER1 mine=from-user nofile=555/777" "$(cat u1.out)"
case "$(cat u2.out)" in
"site=scratch-$USER2 nofile=555") fail "$USER1's limit reached $USER2's job" ;;
"site=scratch-$USER2 nofile="*) ;;
*) fail "$USER2's job: $(cat u2.out)" ;;
esac
ok "pam_env's variables (under the exported ones) and pam_limits' limits reach the job"

# ---- (c) one session per job, closed whatever ends the job
# log_of ID -> the session lines of job ID: "TYPE USER PID", in order.
log_of() { awk -v id="$1" '$3 == id {print $1, $2, $4}' "$T/pam.log"; }
one_session() { # one_session ID USER
	set -- "$1" "$2" "$(log_of "$1")"
	pid=$(echo "$3" | awk 'NR == 1 {print $3}')
	expect_eq "job $1's sessions" "open_session $2 $pid
close_session $2 $pid" "$3"
}
one_session "$id1" $USER1
one_session "$id2" $USER2
# A session leaves its marks on the process (limits, nice value): the
# supervisor of a job with PAM is never kept for another job.
n=0
while pgrep -f "sluice-stepd( -D)? --free $T/" >/dev/null; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "a PAM job's supervisor was kept for the next job"
	sleep 0.1
done
ok "a completed job: one open, one close, by its supervisor, which then exits"

cid=$(submit $USER1 -o c.out --wrap 'echo started; sleep 600') || fail "submit the job to cancel"
wait_state "$cid" RUNNING
i=0
until grep -q started c.out 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "the job to cancel did not start"; sleep 0.1
done
spid=$(cut -d' ' -f1 "$T/state/jobs/$cid/stepd.pid")
expect_eq "open while it runs" "open_session $USER1 $spid" "$(log_of "$cid")"
# The supervisor took its own limits back once the job was forked: those
# of sluiced, or without CAP_SYS_RESOURCE (to raise a hard limit) its soft
# limit up to the session's hard one.
nofile() { awk '/^Max open files/ {print $4 "/" $5}' "/proc/$1/limits"; }
capeff=$(awk '/^CapEff/ {print $2}' /proc/self/status)
want=$(nofile "$DPID")
[ $(((0x$capeff >> 24) & 1)) = 1 ] || want="777/777"
expect_eq "the supervisor's own limits" "$want" "$(nofile "$spid")"
as $USER1 "$BIN/scancel" "$cid" || fail "scancel"
wait_state "$cid" CANCELLED
one_session "$cid" $USER1
ok "a cancelled job: its session is closed once, after it ends"

hid=$(submit $USER1 -H --wrap 'echo never') || fail "held submit"
as $USER1 "$BIN/scancel" "$hid" || fail "cancel the held job"
wait_state "$hid" CANCELLED
expect_eq "no session for a job that never ran" "" "$(log_of "$hid")"
ok "a job cancelled while pending opens no session"

echo "$USER1" >"$T/pam-nosession"
fid=$(submit $USER1 -o f.out --wrap 'echo ran') || fail "submit with the session refused"
wait_state "$fid" FAILED
rm "$T/pam-nosession"
expect_eq "refused session" "FAILED|0:53" "$("$BIN/sacct" -n -X -P -j "$fid" -o State,ExitCode)"
[ ! -s f.out ] || fail "the job ran without its session: $(cat f.out)"
expect_eq "no session lines" "" "$(log_of "$fid")"
grep -q "job $fid: PAM service sluice-test, user $USER1: pam_open_session: " "$T/sluiced.log" ||
	fail "the supervisor did not log why the session failed"
# slurmd's error for the launch: slurmctld's jobs_failed, the only one here
expect_eq "sdiag: a failed launch" "Jobs failed:    1" "$("$BIN/sdiag" | grep '^Jobs failed')"
ok "a session that cannot open fails the launch (0:53) and is never closed"

wait_state "$tid" TIMEOUT 90
one_session "$tid" $USER1
ok "a timed-out job: one open, one close"

expect_eq "session lines in all" 8 "$(wc -l <"$T/pam.log")"
ok "8 session lines for the 4 jobs that ran"
