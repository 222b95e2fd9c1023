#!/bin/sh
# Issue 11, hole 12: a full disk under the state directory killed sluiced,
# and the jobs that had finished were recorded as NODE_FAIL. Now new jobs
# are refused with a clear error, running jobs keep running, their ends are
# kept in memory and written as soon as space comes back; a submission
# whose commit meets the full disk is answered only once it is on disk.
# The state directory is a small tmpfs (root only).
. "$top_srcdir/tests/integration/lib.sh"
make_users
S="$T/state"
mkdir -p "$S"
mount -t tmpfs -o size=32m,mode=0711 sluicetest "$S" 2>/dev/null ||
	skip "cannot mount a tmpfs on the state directory"
unmount_and_cleanup() {
	if [ -n "$DPID" ]; then
		kill -TERM "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
		DPID=""
	fi
	for p in $(pgrep -f "sluice-stepd $T/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	umount -l "$S" 2>/dev/null
	cleanup
}
trap unmount_and_cleanup EXIT
start_daemon
cd "$T/work"

# Fill the state directory's file system, leaving $1 KiB (default none).
fill() {
	avail=$(df --output=avail -k "$S" | tail -n 1)
	keep=${1:-0}
	if [ "$keep" -eq 0 ]; then
		dd if=/dev/zero of="$S/filler" bs=64k >/dev/null 2>&1
	else
		dd if=/dev/zero of="$S/filler" bs=1k count=$((avail - keep)) >/dev/null 2>&1
	fi
}

# Three jobs that end once told to, while the disk is full.
ids=""
for i in 1 2 3; do
	id=$(submit $USER1 -o /dev/null --wrap "while [ ! -e $T/work/go ]; do sleep 0.1; done") ||
		fail "submit"
	ids="$ids $id"
done
for id in $ids; do wait_state "$id" RUNNING; done
hj=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit held"

fill
out=$(as $USER1 "$BIN/sbatch" -o /dev/null --wrap true 2>&1) && fail "accepted on a full disk: $out"
expect_eq "refusal" "sbatch: error: Batch job submission failed: No space left on device for the job store $S/sluice.db (less than 4 MiB free): new jobs are refused until space is freed" "$out"
ok "a full disk: new jobs refused ($out)"

touch go
for id in $ids; do wait_state "$id" COMPLETED; done # sacct: as kept in memory
kill -0 "$DPID" 2>/dev/null || fail "sluiced died"
grep -q "disk full: .* job records are kept in memory until they can be written; new jobs are refused until space is freed" \
	"$T/sluiced.log" || fail "the full disk is not in the log"
out=$(as $USER1 "$BIN/sbatch" -o /dev/null --wrap true 2>&1) && fail "accepted with ends unsaved: $out"
expect_eq "refusal" "sbatch: error: Batch job submission failed: No space left on device for the job store $S/sluice.db: new jobs are refused until space is freed" "$out"
expect_eq "squeue" "" "$("$BIN/squeue" -h -t R)"
ok "the jobs ended while the disk was full; sluiced keeps their ends and answers"

# A change asked for now is acknowledged only once it is on disk: scancel
# waits for the space (a cancelled job came back and ran after a restart).
as $USER1 "$BIN/scancel" "$hj" 2>hj.err &
scancel_pid=$!
sleep 2
kill -0 "$scancel_pid" 2>/dev/null || fail "scancel was answered before the cancel was on disk: $(cat hj.err)"
expect_eq "squeue meanwhile" "" "$("$BIN/squeue" -h -t PD)"

rm -f "$S/filler"
wait "$scancel_pid" || fail "scancel failed once space came back: $(cat hj.err)"
n=0
until grep -q "store: written again" "$T/sluiced.log"; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "the kept ends were not written within 5 s of space"
	sleep 0.1
done
id=$(submit $USER1 -o /dev/null --wrap true) || fail "submit after space came back"
wait_state "$id" COMPLETED
kill9_daemon # what is on disk now is all there is
start_daemon
for id in $ids; do
	expect_eq "job $id after a restart" "COMPLETED|0:0" \
		"$("$BIN/sacct" -n -X -P -j "$id" -o State,ExitCode)"
done
expect_eq "the held job cancelled on a full disk, after kill -9" "CANCELLED by $(id -u $USER1)" \
	"$("$BIN/sacct" -n -X -P -j "$hj" -o State)"
ok "space back: the ends were written (COMPLETED, also after kill -9), and jobs are accepted"

# A job larger than the space left past the margin: its commit meets the
# full disk, so its id may not be told until a later commit saves it. (It
# is held: launching it would need that much space again.)
{ echo '#!/bin/sh'; head -c 4000000 /dev/zero | tr '\0' '#'; echo; } >big.sh
big=$(head -c 100000 /dev/zero | tr '\0' 'x')
fill 4608
as $USER1 env B0="$big" B1="$big" B2="$big" B3="$big" B4="$big" B5="$big" B6="$big" B7="$big" \
	B8="$big" B9="$big" BA="$big" BB="$big" BC="$big" BD="$big" BE="$big" BF="$big" \
	"$BIN/sbatch" --parsable -H -o /dev/null big.sh >big.id 2>big.err &
sbatch_pid=$!
n=0
until [ "$(grep -c "disk full" "$T/sluiced.log")" -ge 2 ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "the big job's commit did not meet the full disk: $(cat big.err)"
	sleep 0.1
done
sleep 2 # retried twice meanwhile
[ -s big.id ] && fail "job $(cat big.id) was acknowledged before it was on disk"
kill -0 "$sbatch_pid" 2>/dev/null || fail "sbatch gave up: $(cat big.err)"
rm -f "$S/filler"
wait "$sbatch_pid" || fail "sbatch failed: $(cat big.err)"
big_id=$(cat big.id)
kill9_daemon
start_daemon
expect_eq "the big job after kill -9" "$big_id PENDING JobHeldUser" "$("$BIN/squeue" -h -o '%i %T %r')"
"$BIN/scancel" "$big_id" || fail "scancel"
ok "a job whose commit met the full disk was acknowledged (job $big_id) only once written"

stop_daemon
umount "$S" || fail "umount"
