#!/bin/sh
# Kubernetes executor: kill -9 of sluiced after it acknowledged scancel,
# scontrol requeue or suspend, before the DELETE or PATCH went out (acts.c
# acts after the reply; SLUICED_TEST_ACT_DELAY_MS makes that 5 s here), or
# after it went out but before its answer. The record says what was
# acknowledged (COMPLETING, the requeue mark, SUSPENDED): the restarted
# daemon's adopt does it, whether the object is still there or already gone
# (never created again). A resume whose PATCH never landed is done again:
# the record says RUNNING. An object that agrees with its record costs no
# write.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
CPUS=8 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
export SLUICED_TEST_ACT_DELAY_MS=5000
start_daemon
mkdir -p "$T/work" && cd "$T/work"

fseq() { fk GET /fake/stats | jpath 'd["seq"]'; }
# verbs SEQ VERB: API requests of VERB since SEQ
verbs() { fk GET "/fake/stats?since=$1" | jpath "d[\"by_verb\"].get(\"$2\",0)"; }
# lists SEQ: LISTs of JobSets and MPIJobs since SEQ (the watches' first)
lists() {
	fk GET /fake/requests | jpath "len([r for r in d['requests'] if r['seq'] > $1 and r['verb'] == 'list' and (r['path'].endswith('/jobsets') or r['path'].endswith('/mpijobs'))])"
}
live_pods() {
	fk GET "/fake/objects?resource=pods&labelSelector=sluice.io/job-id=$1" |
		jpath 'len([p for p in d["items"] if not p["metadata"].get("deletionTimestamp")])'
}
suspended() {
	fk GET "/fake/objects?resource=jobsets&labelSelector=sluice.io/job-id=$1" |
		jpath 'd["items"][0]["spec"].get("suspend")'
}
running_job() { # -> $j, RUNNING with its pod
	j=$(submit root -c 1 -o /dev/null --wrap 'sleep 1000') || fail "submit"
	wait_sq "$j" %t R
	wait_until "job $j: no live pod" "[ \"\$(live_pods $j)\" = 1 ]"
}

# scancel, the DELETE not yet sent: CANCELLED after the restart.
running_job
s0=$(fseq)
"$BIN/scancel" "$j" || fail "scancel"
expect_eq "deletes before the kill -9 (the cancel waits)" 0 "$(verbs "$s0" delete)"
kill9_daemon
start_daemon
wait_state "$j" CANCELLED 30
wait_n 0 jobsets "sluice.io/job-id=$j"
expect_eq "sacct" "CANCELLED by 0" "$("$BIN/sacct" -n -X -P -j "$j" -o State)"
expect_eq "creates after the restart" 0 "$(verbs "$s0" create)"
ok "scancel acknowledged, kill -9 before its DELETE: the JobSet deleted after the restart, CANCELLED"

# scancel, the DELETE done but its answer lost (drop_after): the object is
# gone when the daemon comes back; its job is CANCELLED, not created again.
running_job
fk POST /fake/faults '{"type": "drop_after", "count": 1000, "method": "DELETE", "path": "jobsets"}' >/dev/null ||
	fail "fault"
s0=$(fseq)
"$BIN/scancel" "$j" || fail "scancel"
wait_n 0 jobsets "sluice.io/job-id=$j"
expect_eq "squeue before the kill -9 (the DELETE's answer lost)" CG "$(sq "$j" %t)"
kill9_daemon
fk DELETE /fake/faults >/dev/null
s1=$(fseq)
start_daemon
wait_state "$j" CANCELLED 30
# A create would follow the first lists of both kinds at once.
wait_until "no lists after the restart" "[ \"\$(lists $s1)\" -ge 2 ]"
sleep 1
expect_eq "creates after the restart" 0 "$(verbs "$s0" create)"
expect_eq "objects" 0 "$(nobjs jobsets "sluice.io/job-id=$j")"
ok "scancel whose DELETE landed, kill -9 before its answer: CANCELLED, the JobSet not created again"

# scontrol requeue, the DELETE not yet sent: requeued after the restart.
running_job
s0=$(fseq)
"$BIN/scontrol" requeue "$j" || fail "requeue"
expect_eq "deletes before the kill -9 (the requeue waits)" 0 "$(verbs "$s0" delete)"
kill9_daemon
start_daemon
wait_sq "$j" %T PENDING 30
expect_eq "requeue across kill -9" "PENDING BeginTime" "$(sq "$j" '%T %r')"
expect_eq "the first run" REQUEUED "$("$BIN/sacct" -D -X -n -P -j "$j" -o State | head -n1)"
wait_n 0 jobsets "sluice.io/job-id=$j"
"$BIN/scancel" "$j"
ok "scontrol requeue acknowledged, kill -9 before its DELETE: the JobSet deleted, requeued"

# scontrol suspend, the PATCH not yet sent: suspended after the restart.
running_job
s0=$(fseq)
"$BIN/scontrol" suspend "$j" || fail "suspend"
expect_eq "patches before the kill -9 (the suspend waits)" 0 "$(verbs "$s0" patch)"
kill9_daemon
start_daemon
wait_until "job $j: spec.suspend not set after the restart" "[ \"\$(suspended $j)\" = True ]"
wait_until "job $j: pods still run" "[ \"\$(live_pods $j)\" = 0 ]"
expect_eq "squeue" S "$(sq "$j" %t)"
ok "scontrol suspend acknowledged, kill -9 before its PATCH: suspended after the restart"

# scontrol resume whose PATCH never landed (dropped unanswered): the record
# says RUNNING, the object suspended; the adopt patches it.
fk POST /fake/faults '{"type": "drop", "count": 1000, "method": "PATCH", "path": "jobsets"}' >/dev/null ||
	fail "fault"
"$BIN/scontrol" resume "$j" || fail "resume"
expect_eq "squeue after resume" R "$(sq "$j" %t)"
kill9_daemon
fk DELETE /fake/faults >/dev/null
expect_eq "spec.suspend while no daemon runs" True "$(suspended "$j")"
start_daemon
wait_until "job $j: still suspended after the restart" "[ \"\$(suspended $j)\" = False ]"
wait_until "job $j: no pod again" "[ \"\$(live_pods $j)\" = 1 ]"
expect_eq "squeue" R "$(sq "$j" %t)"
ok "scontrol resume whose PATCH never landed, kill -9: resumed after the restart"

# A job adopted as it is patches nothing.
kill9_daemon
s0=$(fseq)
start_daemon
wait_until "no lists after the restart" "[ \"\$(lists $s0)\" -ge 2 ]"
sleep 1 # a PATCH would follow the list at once
expect_eq "patches after a plain restart" 0 "$(verbs "$s0" patch)"
expect_eq "deletes after a plain restart" 0 "$(verbs "$s0" delete)"
"$BIN/scancel" "$j"
wait_state "$j" CANCELLED 30
ok "a job whose object agrees with its record is left alone"

stop_daemon
! grep -E -A20 "AddressSanitizer|LeakSanitizer|runtime error" "$T/sluiced.log" ||
	fail "sanitizer report"
