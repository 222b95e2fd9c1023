#!/bin/sh
# Kubernetes executor, the gang rule (Kueue's waitForPodsReady): a job whose
# pods are not all ready within the timeout is evicted: its JobSet deleted,
# its quota released at once (a job behind it is admitted), and it is
# requeued at its original position after the backoff, as a new attempt
# (object sl-<id>-1); scontrol show job says why. With backoffLimitCount: 1
# the second eviction ends it (Kueue deactivates it: RequeuingLimitExceeded)
# as FAILED.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
EXTRA_OBJECTS='---
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
waitForPodsReady:
  enable: true
  timeout: 3s
  requeuingStrategy: {backoffBaseSeconds: 2, backoffMaxSeconds: 10, backoffLimitCount: 1}' CPUS=2 write_k8s_conf
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
"$BIN/scontrol" show job "$a" | grep -q "Exceeded the PodsReady timeout general/sl-$a" ||
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
echo "$show" | grep -q "exceeding the maximum number of re-queuing retries" ||
	fail "scontrol does not say the re-queue limit ended it: $show"
wait_n 0 jobsets "sluice.io/job-id=$a" 10
ok "evicted again past backoffLimitCount 1: FAILED (RequeuingLimitExceeded), no JobSet left"
