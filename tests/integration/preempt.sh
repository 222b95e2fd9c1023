#!/bin/sh
# Issue 3 through the daemon: a high-priority job preempts a running
# low-priority job in the same ClusterQueue (withinClusterQueue:
# LowerPriority). The victim gets SIGTERM, goes back to PENDING with its
# original position, squeue shows why it waits, and it runs again later.
. "$top_srcdir/tests/integration/lib.sh"
make_users
EXTRA_OBJECTS=$WPC_LOW_HIGH CPUS=2 write_conf
preempt_within_cq
start_daemon
cd "$T/work"

low=$(submit $USER1 --qos=low -c 2 -J low -o low.out \
	--wrap 'trap "echo low got TERM; exit 143" TERM; echo "low start $SLURM_RESTART_COUNT"; sleep 8 & wait; echo low done') ||
	fail "submit low"
wait_state "$low" RUNNING
# Preempt it only once its TERM trap is set (it prints after setting it).
wait_until "low did not start its script" 'grep -q "^low start" low.out 2>/dev/null'
high=$(submit $USER2 --qos=high -c 2 -J high -o high.out --wrap 'echo high ran; sleep 3') ||
	fail "submit high"
wait_state "$high" RUNNING 20
# The victim is pending again, and says why.
wait_until "low did not go back to PENDING" '[ "$("$BIN/squeue" -h -j "$low" -o %t)" = PD ]'
reason=$("$BIN/squeue" -h -j "$low" -o %r)
case "$reason" in Resources|Priority) ;; *) fail "victim's reason: [$reason]" ;; esac
"$BIN/scontrol" show job "$low" | grep -q "PendingReason=.*insufficient_unused_quota_for_cpu" ||
	fail "scontrol lacks the admission sentence: $("$BIN/scontrol" show job "$low")"
grep -q "low got TERM" low.out || fail "victim did not get SIGTERM: $(cat low.out)"
grep -q "DUE TO PREEMPTION" low.out || fail "no preemption line: $(cat low.out)"
ok "high-priority job preempted the running low one; the victim waits with reason $reason"

wait_state "$high" COMPLETED 30
wait_state "$low" COMPLETED 60
# the second run's output replaces the first's, as slurmstepd truncates
expect_eq "the victim's second run, its output anew" "low start 1
low done" "$(cat low.out)"
expect_eq "restarts" "Restarts=1" "$("$BIN/scontrol" show job "$low" | grep -o 'Restarts=[0-9]*')"
ok "the victim was requeued and ran to completion afterwards"

# A victim cancelled while its preemption's TERM is still being handled:
# victim_cancelled NAME STATE [sbatch options] submits NAME (its TERM trap
# lasts 2 s), preempts it with a high job, cancels it in the trap, and
# waits for STATE; $low is the victim.
victim_cancelled() {
	name=$1 want=$2
	shift 2
	low=$(submit $USER1 --qos=low -c 2 -J "$name" -o "$name.out" "$@" \
		--wrap "trap 'echo $name got TERM; sleep 2; exit 143' TERM; echo $name start; sleep 30 & wait") ||
		fail "submit $name"
	wait_state "$low" RUNNING
	wait_until "$name did not start its script" 'grep -q "^$name start" "$name.out" 2>/dev/null'
	high=$(submit $USER2 --qos=high -c 2 -J "h$name" -o /dev/null --wrap 'sleep 1') ||
		fail "submit h$name"
	wait_until "$name was not preempted" 'grep -q "^$name got TERM" "$name.out" 2>/dev/null'
	as $USER1 "$BIN/scancel" "$low" || fail "scancel of the victim"
	wait_state "$low" "$want" 20
	wait_state "$high" COMPLETED 30
}

# The cancel wins over the requeue that preemption meant: CANCELLED.
victim_cancelled low2 CANCELLED
expect_eq "the cancelled victim stays cancelled" "CANCELLED 1" \
	"$("$BIN/squeue" -h -t all -j "$low" -o '%T') $(grep -c '^low2 start' low2.out)"
ok "a victim cancelled during its preemption ends CANCELLED, not queued again"

# One that does not requeue (--no-requeue) stays PREEMPTED: Slurm's
# scancel finds such a victim already done.
victim_cancelled low3 PREEMPTED --no-requeue
ok "a victim that does not requeue, cancelled during its preemption, ends PREEMPTED"
