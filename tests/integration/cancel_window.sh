#!/bin/sh
# scancel of a job whose supervisor is not ready for it yet: the hooked build
# of sluice-stepd (tests/unit/stepd_window.c) holds each new supervisor
# between its fork and the moment it takes over its signals. The job ends
# CANCELLED, never runs and never returns to the queue, whether the
# supervisor takes the cancel once ready or is killed before it could write
# `started`.
. "$top_srcdir/tests/integration/lib.sh"
HOOKED="$top_builddir/tests/unit/sluice-stepd-hooked"
[ -x "$HOOKED" ] || skip "no $HOOKED (make check builds it)"
make_users
# One job per supervisor: each job's is a new one, held at its start.
export SLUICE_STEPD="$HOOKED" SL_TEST_WINDOW="$T/hold" SLUICE_STEPD_JOBS_MAX=1
mkdir "$T/hold"
start_daemon
cd "$T/work"

# p: the pid of the supervisor held at its start, within 10 s.
held() {
	n=0
	until p=$(ls "$T/hold") && [ -n "$p" ]; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "no supervisor held at its start"
		sleep 0.1
	done
}

# The cancel reached the held supervisor: its SIGTERM is pending there (it
# blocks its signals until it takes them over). sluiced sends it a moment
# after scancel's reply (acts.c); within 10 s.
cancel_sent() {
	n=0
	until pnd=$(sed -n 's/^ShdPnd:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null) &&
		[ -n "$pnd" ] && [ $((0x${pnd#????????????} & (1 << 14))) -ne 0 ]; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "supervisor $p: no SIGTERM pending after scancel [$pnd]"
		sleep 0.1
	done
}

# The job ended CANCELLED without running, and nothing starts it again: no
# supervisor comes to the hold, and its output never appears.
never_ran() {
	wait_state "$1" CANCELLED 10
	sleep 1
	expect_eq "supervisors started after the cancel" "" "$(ls "$T/hold")"
	expect_eq "$1 after its cancel" CANCELLED "$(state "$1" | cut -d' ' -f1)"
	[ ! -e "w-$1.out" ] || fail "job $1 ran: $(cat "w-$1.out")"
}

id=$(submit $USER1 -o 'w-%j.out' --wrap 'echo ran') || fail "submit"
held
as $USER1 "$BIN/scancel" "$id" || fail "scancel"
cancel_sent
rm "$T/hold/$p"
never_ran "$id"
ok "a cancel that comes before the supervisor is ready waits for it: CANCELLED"

id=$(submit $USER1 -o 'w-%j.out' --wrap 'echo ran') || fail "submit"
held
as $USER1 "$BIN/scancel" "$id" || fail "scancel"
cancel_sent
kill -KILL "$p" || fail "kill -9 $p"
rm "$T/hold/$p"
never_ran "$id"
ok "a cancelled job whose supervisor dies before it starts is CANCELLED, not requeued"
