#!/bin/sh
# Kubernetes executor, the gang rule (Kueue's waitForPodsReady): a job whose
# pods are not all ready within the timeout is evicted: its JobSet deleted,
# its quota released at once (a job behind it is admitted), and it is
# requeued at its original position after the backoff, as a new attempt
# (object sl-<id>-1); scontrol show job says why. With backoffLimitCount: 1
# the second eviction ends it (Kueue deactivates it: RequeuingLimitExceeded)
# as FAILED. Only pods-ready evictions count toward that limit (a manual
# requeue does not), and the count survives a restart of sluiced; so does
# the timeout, which runs from the attempt's admission, not from a restart.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
EXTRA_OBJECTS=$(pods_ready 3s \
	'  requeuingStrategy: {backoffBaseSeconds: 4, backoffMaxSeconds: 10, backoffLimitCount: 1}') \
	CPUS=2 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 1000}' >/dev/null || fail "schedule"
fk POST /fake/overrides '{"selector": "sluice.io/job-id=1", "never_ready": true}' >/dev/null ||
	fail "override"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

a=$(submit root -c 2 -o /dev/null --wrap 'true') || fail "submit a"
b=$(submit root -c 2 -o /dev/null --wrap 'true') || fail "submit b"
expect_eq "ids" "1 2" "$a $b"
wait_sq "$a" %t CF
expect_eq "b waits for quota" PD "$(sq "$b" %t)"
ok "job $a is CONFIGURING (its pod never gets ready); $b waits for quota"

wait_sq "$a" %t PD 15
"$BIN/scontrol" show job "$a" | grep -q "Exceeded_the_PodsReady_timeout_general/sl-$a" ||
	fail "scontrol does not say why: $("$BIN/scontrol" show job "$a")"
wait_n 0 jobsets "sluice.io/job-id=$a" 10
ok "evicted after 3 s: JobSet deleted, scontrol says why"
# Its quota went back: b runs (and completes) while a waits out its backoff.
wait_state "$b" COMPLETED 20
ok "quota released: job $b was admitted and completed"

# The next attempt: a new object name; the fake's override keeps it unready,
# so it is evicted again: past backoffLimitCount, it ends FAILED.
names() { fk GET "/fake/objects?resource=jobsets" | jpath '" ".join(o["metadata"]["name"] for o in d["items"])'; }
n=0
until names | grep -qw "sl-$a-1"; do
	n=$((n + 1)); [ $n -lt 150 ] || fail "no second attempt sl-$a-1: $(names)"
	sleep 0.1
done
expect_eq "attempt" "Restarts=1" "$("$BIN/scontrol" show job "$a" | grep -o 'Restarts=[0-9]*')"
ok "requeued after the backoff as attempt 1 (JobSet sl-$a-1)"

wait_state "$a" FAILED 20
show=$("$BIN/scontrol" show job "$a")
echo "$show" | grep -q "exceeding_the_maximum_number_of_re-queuing_retries" ||
	fail "scontrol does not say the re-queue limit ended it: $show"
wait_n 0 jobsets "sluice.io/job-id=$a" 10
ok "evicted again past backoffLimitCount 1: FAILED (RequeuingLimitExceeded), no JobSet left"

# backoffLimitCount counts pods-ready evictions only (Kueue's
# status.requeueState.count), not other requeues, and the count survives a
# restart. Job c is requeued by hand once (attempt 1), then evicted by the
# timeout: that is its first eviction, so it waits out the backoff instead of
# failing; a restart meanwhile; its second eviction (attempt 2) ends it.
fk POST /fake/overrides '{"selector": "sluice.io/job-id=3", "never_ready": true}' >/dev/null ||
	fail "override 3"
c=$(submit root -c 2 -o /dev/null --wrap 'true') || fail "submit c"
expect_eq "id c" 3 "$c"
wait_sq "$c" %t CF
seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
"$BIN/scontrol" requeue "$c" || fail "scontrol requeue"
# Its next attempt lives only until its own timeout (3 s, or less: whole
# seconds), which a poll of the objects (a python3 each, a second or more
# on a loaded host) can miss: its create stays in the fake's log. The
# eviction below names it sl-$c-1.
creates() {
	fk GET "/fake/requests?since=$seq0" | jpath 'len([r for r in d["requests"]
		if r["verb"] == "create" and r["resource"] == "jobsets" and r["status"] == 201])'
}
n=0
until [ "$(creates)" -ge 1 ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "no attempt sl-$c-1 after the requeue: $(names)"
	sleep 0.1
done
# No wait for CF here: the attempt is CF only for the 3 s of its timeout,
# and a slow poll that missed them would wait on to the next attempt's,
# when sl-3-1's eviction is no longer the reason shown.
n=0
until "$BIN/scontrol" show job "$c" | grep -q "Exceeded_the_PodsReady_timeout_general/sl-$c-1"; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "job $c: no eviction of sl-$c-1: $("$BIN/scontrol" show job "$c")"
	sleep 0.1
done
expect_eq "first eviction requeues" PENDING "$(state "$c")"
"$BIN/scontrol" show job "$c" | grep -q "requeued_with_backoff" ||
	fail "job $c: not requeued with backoff: $("$BIN/scontrol" show job "$c")"
ok "a manual requeue does not count: the first pods-ready eviction requeues (backoffLimitCount 1)"
stop_daemon
start_daemon
wait_state "$c" FAILED 20
show=$("$BIN/scontrol" show job "$c")
echo "$show" | grep -q "Exceeded_the_PodsReady_timeout_general/sl-$c-2" ||
	fail "job $c: the second eviction is not the one that ended it: $show"
echo "$show" | grep -q "exceeding_the_maximum_number_of_re-queuing_retries" ||
	fail "job $c: not RequeuingLimitExceeded: $show"
ok "the eviction count survived a restart: the second pods-ready eviction ended it"

# The timeout runs from the admission, across restarts: restarted every
# 1.2 s (less than the 3 s timeout), job d is still evicted about 3 s after
# it was admitted, not 3 s after the last restart.
fk POST /fake/overrides '{"selector": "sluice.io/job-id=4", "never_ready": true}' >/dev/null ||
	fail "override 4"
d=$(submit root -c 2 -o /dev/null --wrap 'true') || fail "submit d"
expect_eq "id d" 4 "$d"
wait_sq "$d" %t CF
for i in 1 2 3; do
	sleep 1.2
	stop_daemon
	start_daemon
done
n=0
until "$BIN/scontrol" show job "$d" | grep -q "Exceeded_the_PodsReady_timeout_general/sl-$d;"; do
	n=$((n + 1))
	[ $n -lt 20 ] || fail "job $d: not evicted 2 s after the third restart: $("$BIN/scontrol" show job "$d")"
	sleep 0.1
done
ok "restarts do not restart the pods-ready timeout: evicted from its admission time"
