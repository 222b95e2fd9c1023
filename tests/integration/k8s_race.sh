#!/bin/sh
# Kubernetes executor: a job's in-flight API calls never outlive it. The
# crash this guards against (SIGSEGV after "job N: OUT_OF_MEMORY"): the
# JobSet's Failed condition arrived before the pod watch showed why, so the
# executor LISTed the pods; the pod watch then explained the end first, the
# executor went on to read the failed child Job, and the LIST's handle was
# overwritten instead of cancelled. The job ended and was forgotten; the late
# LIST answer then wrote into the freed job. The fake delays that LIST by 3 s
# and the pod watch by 1 s to make the order certain; the daemon must live,
# and (in the ASan build) stay silent.
#
# Then several jobs end at the same moment and are cancelled while their
# logs are being read (the log GETs are delayed): each ends once, CANCELLED,
# the daemon lives.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
# Without ASan a write into freed memory may go unnoticed: glibc fills freed
# blocks with this byte, so a stale job's pointers crash at once.
export MALLOC_PERTURB_=165
CPUS=8 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1}' >/dev/null || fail "schedule"
start_daemon
mkdir -p "$T/work" && cd "$T/work"

alive() {
	kill -0 "$DPID" 2>/dev/null ||
		fail "sluiced died: $(grep -E -A30 'ERROR: AddressSanitizer|runtime error' "$T/sluiced.log" | head -40)"
}
sanitizer_silent() {
	! grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$T/sluiced.log" >/dev/null ||
		fail "sanitizer report: $(grep -E -A30 'AddressSanitizer|runtime error' "$T/sluiced.log" | head -40)"
}

j=$(submit root -o /dev/null --wrap 'eat memory') || fail "submit"
wait_sq "$j" %t R
fk POST /fake/faults '{"type": "delay", "method": "GET", "watch": false, "path": "^/api/v1/namespaces/[^/]+/pods$", "delay_ms": 3000}' \
	>/dev/null || fail "fault list"
# Two pod watches reconnect: the job's and sinfo's (every namespace): both wait.
fk POST /fake/faults '{"type": "delay", "method": "GET", "watch": true, "path": "^/api/v1/pods$", "delay_ms": 1000, "count": 2}' \
	>/dev/null || fail "fault watch"
fk POST /fake/watches/close '{}' >/dev/null || fail "close watches"
fk POST /fake/pods "{\"selector\": \"sluice.io/job-id=$j\", \"action\": \"oom\"}" >/dev/null ||
	fail "oom"
wait_state "$j" OUT_OF_MEMORY 20
# The delayed LIST answers 3 s after it was sent: outlive it. It must have
# been sent, or this test proved nothing.
sleep 3.5
expect_eq "delayed pod LISTs" 0 "$(fk GET /fake/faults | jpath 'sum(f["remaining"] for f in d["faults"])')"
alive
sanitizer_silent
grep -q "job $j: OUT_OF_MEMORY (0:9)" "$T/sluiced.log" || fail "no OUT_OF_MEMORY line"
ok "a pod LIST overtaken by the pod watch answers after the job is forgotten: no crash"

# Several jobs end together; their log reads are slow; scancel meanwhile.
fk DELETE /fake/faults >/dev/null
fk POST /fake/faults '{"type": "delay", "method": "GET", "count": 4, "path": "/log$", "delay_ms": 1500}' \
	>/dev/null || fail "fault log"
ids=""
for i in 1 2 3 4; do
	ids="$ids $(submit root -o "$T/work/out-%j" --wrap 'echo hi')" || fail "submit $i"
done
for i in $ids; do wait_sq "$i" %t R; done
for i in $ids; do
	fk POST /fake/pods "{\"selector\": \"sluice.io/job-id=$i\", \"action\": \"succeed\"}" >/dev/null ||
		fail "succeed $i"
done
sleep 0.3
"$BIN/scancel" $ids 2>/dev/null
for i in $ids; do
	n=0
	while :; do
		s=$(state "$i")
		case "$s" in COMPLETED* | CANCELLED*) break ;; esac
		n=$((n + 1)); [ $n -lt 200 ] || fail "job $i: state '$s' after 20 s"
		sleep 0.1
	done
done
sleep 2
alive
sanitizer_silent
expect_eq "delayed log reads" 0 "$(fk GET /fake/faults | jpath 'sum(f["remaining"] for f in d["faults"])')"
wait_n 0 jobsets "" 20
ok "jobs cancelled while their logs were read each ended once; no crash"
