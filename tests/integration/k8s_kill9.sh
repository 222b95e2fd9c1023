#!/bin/sh
# Kubernetes executor: sluiced is killed (-9) after the API server stored
# the create but before the reply reached it (fault drop_after: processed,
# then the connection closed). The restarted daemon finds the object and
# adopts it: one object, never two, and the job completes. A second restart
# in a row changes nothing.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": 8000}' >/dev/null || fail "schedule"
# Every create: stored, then the connection dropped (the client would retry
# and get 409; we kill it before it can).
fk POST /fake/faults '{"type": "drop_after", "count": 1000, "method": "POST", "path": "jobsets"}' >/dev/null ||
	fail "fault"
start_daemon
mkdir -p "$T/work" && cd "$T/work"
j=$(submit root -o /dev/null --wrap 'sleep 2') || fail "submit"
wait_n 1 jobsets "sluice.io/job-id=$j"
kill9_daemon
fk DELETE /fake/faults >/dev/null
ok "sluiced killed after its create was stored and its reply lost"
start_daemon
sleep 1
kill9_daemon
start_daemon
expect_eq "the job's objects" "sl-$j" \
	"$(fk GET "/fake/objects?resource=jobsets" | jpath '" ".join(o["metadata"]["name"] for o in d["items"])')"
wait_state "$j" COMPLETED 30
# Every create was dropped after being processed (status 0) or refused
# (409): only the first stored anything; none got a 201. (The restarted
# daemon usually finds the object in its first list and creates nothing.)
expect_eq "creates answered 201" 0 \
	"$(fk GET /fake/requests | jpath 'len([r for r in d["requests"] if r["verb"] == "create" and r["status"] == 201])')"

ok "two restarts later: adopted, one object, COMPLETED"
