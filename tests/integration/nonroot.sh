#!/bin/sh
# sluiced run by an ordinary user: jobs run as that user, and nobody else's
# jobs are accepted (it could not run them as their owner).
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf
mkdir -p "$T/state" "$T/sock"
chown "$USER1" "$T/state" "$T/sock" "$T/sluice.yaml"
DAEMON_USER=$USER1 start_daemon
cd "$T/work"

id=$(submit $USER1 -o own.out --wrap 'id -un') || fail "own submit"
wait_state "$id" COMPLETED
expect_eq "runs as the daemon's user" "$USER1" "$(cat own.out)"
ok "a non-root sluiced runs its own user's jobs"

err=$(as $USER2 "$BIN/sbatch" --wrap true 2>&1); rc=$?
expect_eq "other user rc" 1 "$rc"
expect_eq "other user" "sbatch: error: Batch job submission failed: Access/permission denied: sluiced runs as $USER1 and accepts only $USER1's jobs" "$err"
ok "and refuses anyone else's"
