#!/bin/sh
# sdiag: sluiced's statistics in Slurm 22.05's layout, counted as
# slurmctld counts them (each array task submitted, each start, each
# batch script's end, each job a cancel reached), the RPC tables by type
# and by user, sdiag -r for operators only with slurm_perror's words, and
# the option refusals. Texts compared with real Slurm 22.05.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"
SD="$BIN/sdiag"

a=$(submit $USER1 -o /dev/null --wrap true) || fail "submit"
b=$(submit $USER1 -o /dev/null --array=1-3 --wrap true) || fail "submit array"
c=$(submit $USER1 -o /dev/null --wrap 'sleep 300') || fail "submit"
# a script that signal 53 ends is FAILED 0:53 like a failed launch, but it
# ran: Slurm 22.05 counts it completed, not failed
k=$(submit $USER1 -o /dev/null --wrap 'kill -53 $$') || fail "submit"
wait_state "$k" FAILED
# an output file that cannot be opened fails the job, not its launch:
# slurmd answers success, and 22.05 counts it completed, not failed
o=$(submit $USER1 -o /nonexistent/dir/out --wrap true) || fail "submit"
wait_state "$o" FAILED
wait_state "$a" COMPLETED
wait_state "$c" RUNNING
as $USER1 "$BIN/scancel" "$c" || fail "scancel"
wait_state "$c" CANCELLED
wait_until "the array ends" '[ -z "$("$BIN/squeue" -h -j "$b" -t PD,R,CG -o %i)" ]'

out=$(as $USER1 "$SD"); rc=$?
expect_eq "sdiag exit" 0 "$rc"
expect_eq "banner" "*******************************************************" "$(echo "$out" | head -n1)"
echo "$out" | sed -n 2p | grep -Eq '^sdiag output at [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} \([0-9]+\)$' ||
	fail "sdiag output line: $(echo "$out" | sed -n 2p)"
expect_eq "submitted: each array task" "Jobs submitted: 7" "$(echo "$out" | grep '^Jobs submitted')"
expect_eq "started" "Jobs started:   7" "$(echo "$out" | grep '^Jobs started')"
expect_eq "completed: every batch script's end" "Jobs completed: 7" "$(echo "$out" | grep '^Jobs completed')"
expect_eq "canceled" "Jobs canceled:  1" "$(echo "$out" | grep '^Jobs canceled')"
expect_eq "failed" "Jobs failed:    0" "$(echo "$out" | grep '^Jobs failed')"
expect_eq "nothing pending" "Jobs pending:   0" "$(echo "$out" | grep '^Jobs pending')"
cycles=$(echo "$out" | sed -n 's/^	Total cycles: //p' | head -n1)
[ "${cycles:-0}" -gt 0 ] || fail "no scheduling cycle counted: $out"
echo "$out" | grep -q '^	Mean cycle:   [0-9]*$' || fail "no mean cycle"
echo "$out" | grep -Eq '^	REQUEST_SUBMIT +\(    2\) count:5 +ave_time:[0-9]+ +total_time:[0-9]+$' ||
	fail "submit row: $(echo "$out" | grep SUBMIT)"
echo "$out" | grep -Eq "^	$USER1 +\( *[0-9]+\) count:[0-9]+ " || fail "no row for $USER1"
expect_eq "last section" "	No pending RPCs" "$(echo "$out" | tail -n1)"
ok "counters, cycles and RPC tables"

# -i sorts by id: submit (2) before jobs (3)
out=$(as $USER1 "$SD" -i)
first=$(echo "$out" | sed -n '/by message type/{n;p;}' | awk '{print $1}')
expect_eq "sorted by id" "REQUEST_SUBMIT" "$first"

out=$(as $USER1 "$SD" -r 2>&1); rc=$?
expect_eq "reset by a user" "255 slurm_reset_statistics: Access/permission denied" "$rc $out"
out=$("$SD" -r 2>&1); rc=$?
expect_eq "reset by root" "0 Reset scheduling statistics" "$rc $out"
out=$("$SD")
expect_eq "after reset" "Jobs submitted: 0" "$(echo "$out" | grep '^Jobs submitted')"
expect_eq "after reset, cycles" "	Total cycles: 0" "$(echo "$out" | grep -m1 '^	Total cycles')"
ok "sdiag -r: operators only"

out=$("$SD" -x 2>&1); rc=$?
expect_eq "bad option" "1 $SD: invalid option -- 'x'
Try \"sdiag --help\" for more information" "$rc $out"
out=$("$SD" -M nope 2>&1); rc=$?
expect_eq "unknown cluster, exit" 1 "$rc"
expect_eq "unknown cluster" "sdiag: error: No cluster 'nope' known by database." "$(echo "$out" | head -n1)"
expect_eq "--usage" "Usage: sdiag [-M cluster] [-aritT]" "$("$SD" --usage)"
stop_daemon
out=$("$SD" 2>&1); rc=$?
expect_eq "no daemon" "255 slurm_get_statistics: Unable to contact slurm controller (connect failure)" "$rc $out"
ok "refusals in sdiag's words"
