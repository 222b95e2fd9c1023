#!/bin/sh
# top.sh - `sluice top`: frames of the ClusterQueues against a real sluiced:
# quota, used, pending, admitted; admissions per second between frames.
. "$(dirname "$0")/lib.sh"

CPUS=4 write_conf
start_daemon
# a ends when told (the file $T/a.go), not by a cancel, whose signal
# follows scancel's reply (sluiced's acts.c) by a moment this test's frames
# do not wait for
a=$(submit root -o /dev/null -c 2 --wrap "until [ -e $T/a.go ]; do sleep 0.1; done")
b=$(submit root -o /dev/null -c 2 --wrap "sleep 60")
wait_state "$a" RUNNING
wait_state "$b" RUNNING
c=$(submit root -o /dev/null -c 2 --wrap "sleep 60")

"$BIN/sluice" top -n 1 >"$T/top1" 2>&1 || fail "sluice top -n 1: $(cat "$T/top1")"
sed -i '1s/ - [0-9:]*  / - TIME  /' "$T/top1"
cat >"$T/want1" <<'EOT'
sluice top - TIME  1 ClusterQueues, 1 pending, 2 admitted

CLUSTERQUEUE         RESOURCE            NOMINAL       USED   BORROWED  PENDING ADMITTED  ADMIT/S
main                 cpu                       4          4          0        1        2        -
                     memory                 32Gi          0          0

EOT
diff -u "$T/want1" "$T/top1" || fail "first frame differs"
ok "a frame: quota, used, pending, admitted"

# Frame 2, two seconds later, after the pending job started: a rate > 0.
"$BIN/sluice" top -n 2 -d 2 >"$T/top2" 2>&1 &
tp=$!
# once the first frame is out, so that the admission falls between the two
wait_until "sluice top's first frame" 'grep -q "^sluice top - " "$T/top2"'
touch "$T/a.go"
wait_state "$c" RUNNING
wait "$tp" || fail "sluice top -n 2 failed: $(cat "$T/top2")"
frames=$(grep -c '^sluice top - ' "$T/top2")
expect_eq "frames" 2 "$frames"
rate=$(grep '^main ' "$T/top2" | tail -n1 | awk '{print $NF}')
# one admission in the two seconds (and a little) between the frames
case "$rate" in 0.4[5-9]|0.50) ;; *) fail "admissions per second: '$rate'" ;; esac
ok "admissions per second between frames: $rate"

out=$("$BIN/sluice" top -n 0 2>&1); rc=$?
expect_eq "bad -n exit" 2 "$rc"
expect_eq "bad -n" "sluice: error: -n 0: a number of frames from 1" "$out"
SLUICE_CONF="$T/none.yaml" SLUICE_SOCKET="$T/none.sock" "$BIN/sluice" top -n 1 >/dev/null 2>&1 &&
	fail "top without a daemon succeeded"
ok "bad input and no daemon refused"
