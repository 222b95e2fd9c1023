#!/bin/sh
# Kubernetes executor under a misbehaving API server: 429 with Retry-After
# and 500 on creates, patches (suspend) and deletes are retried and the job
# goes on, with one object; watches that fail (500), end abruptly or get 410
# Gone reconnect or re-list, and the job's end and the nodes' changes still
# arrive. Nothing polls: the reads after the faults are watches and lists.
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
fk POST /fake/nodes '{"count": 2}' >/dev/null || fail "nodes"
# No right to list Nodes at first (RBAC): said once, then the nodes come.
fk POST /fake/faults '{"type": "status", "code": 403, "count": 3, "method": "GET", "path": "^/api/v1/nodes$", "message": "nodes is forbidden: User \"sluice\" cannot list resource \"nodes\""}' \
	>/dev/null || fail "fault 403"
CPUS=4 write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 100, "running_ms": -1, "node": "fake-node-0"}' >/dev/null
start_daemon
mkdir -p "$T/work" && cd "$T/work"
WAIT=30 wait_for sh -c "\"$BIN/sinfo\" -h -N -o %N | grep -q fake-node-1"
expect_eq "one warning" 1 "$(grep -c 'sinfo.s nodes: nodes is forbidden' "$T/sluiced.log")"
ok "403 on the nodes list: one warning, retried, the nodes listed"
# How many watches the daemon holds when all are connected: the count once
# it has held still for a second.
watches() { fk GET /fake/state | jpath 'd["active_watches"]'; }
nwatch=$(watches) n=0
while :; do
	sleep 1
	w=$(watches)
	[ "$w" = "$nwatch" ] && [ "$w" -gt 0 ] && break
	nwatch=$w n=$((n + 1)); [ $n -lt 30 ] || fail "the watches never settled at start"
done
fault() { fk POST /fake/faults "$1" >/dev/null || fail "fault $1"; }
reqs() { # reqs VERB PATH-REGEX: statuses of the matching requests, in order
	fk GET /fake/requests | python3 -c 'import json,re,sys; d=json.load(sys.stdin)
print(" ".join(str(r["status"]) for r in d["requests"] if r["verb"] == sys.argv[1] and re.search(sys.argv[2], r["path"])))' "$1" "$2"
}

# 429 (Retry-After 1) then 500 on the create: retried, one JobSet.
fault '{"type": "status", "code": 429, "retryAfter": 1, "count": 1, "method": "POST", "path": "jobsets"}'
fault '{"type": "status", "code": 500, "count": 1, "method": "POST", "path": "jobsets"}'
j=$(submit root -c 1 -o /dev/null --wrap 'sleep 1000') || fail "submit"
wait_sq "$j" %t R 30
expect_eq "create statuses" "429 500 201" "$(reqs create jobsets)"
expect_eq "objects" 1 "$(nobjs jobsets)"
ok "create: 429 and 500 retried, one JobSet"

# 500 and 429 on the suspend's PATCH: retried until it lands.
fault '{"type": "status", "code": 500, "count": 2, "method": "PATCH", "path": "jobsets"}'
"$BIN/scontrol" suspend "$j" || fail "suspend"
n=0
until [ "$(fk GET "/fake/objects?resource=jobsets" | jpath 'd["items"][0]["spec"].get("suspend")')" = True ]; do
	n=$((n + 1)); [ $n -lt 200 ] || fail "suspend never landed: $(reqs patch jobsets)"; sleep 0.1
done
expect_eq "patch statuses" "500 500 200" "$(reqs patch jobsets)"
"$BIN/scontrol" resume "$j" || fail "resume"
ok "suspend: PATCH retried after 500s"

# Every watch fails with 500 three times and the open ones end abruptly:
# they come back (backoff), and a pod's end still arrives.
fault '{"type": "status", "code": 500, "count": 6, "watch": true}'
fk POST /fake/watches/close '{"abrupt": true}' >/dev/null || fail "close"
sleep 1
fk POST /fake/pods "{\"selector\": \"sluice.io/job-id=$j\", \"action\": \"succeed\"}" >/dev/null ||
	fail "succeed"
wait_state "$j" COMPLETED 40
ok "watches: 500s and abrupt ends, reconnected; the job's end seen"

# 410 Gone for every watch that resumes from a resourceVersion: they list
# again, and see what changed meanwhile.
fk PUT /fake/config '{"stale_watches": 20}' >/dev/null
fk POST /fake/compact '{"closeWatches": true}' >/dev/null || fail "compact"
fk POST /fake/nodes/action '{"name": "fake-node-1", "action": "cordon"}' >/dev/null
k=$(submit root -c 1 -o /dev/null --wrap 'true') || fail "submit 2"
wait_sq "$k" %t R 30
fk POST /fake/pods "{\"selector\": \"sluice.io/job-id=$k\", \"action\": \"succeed\"}" >/dev/null
wait_state "$k" COMPLETED 40
n=0
until [ "$("$BIN/sinfo" -h -N -o '%N %t' | grep fake-node-1)" = "fake-node-1 drain" ]; do
	n=$((n + 1)); [ $n -lt 200 ] || fail "cordon not seen: $("$BIN/sinfo" -N)"; sleep 0.1
done
ok "410 Gone: re-listed; the next job and the cordon seen"

# Watches the server ends after every event: each resumes from the last
# resourceVersion it saw, with no new LIST; the job's whole life arrives.
fk PUT /fake/config '{"watch_end_after": 1, "stale_watches": 0}' >/dev/null
# A watch still backing off from the faults above (up to seconds) resumes
# from a resourceVersion older than the compaction and re-lists late: start
# the count once every watch is connected again, with no cluster-wide LIST
# in the second before.
relists() { fk GET "/fake/requests?since=$1" |
	jpath 'len([r for r in d["requests"] if r["verb"] == "list" and "/namespaces/" not in r["path"]])'; }
n=0
while :; do
	seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
	sleep 1
	[ "$(watches)" = "$nwatch" ] && [ "$(relists "$seq0")" = 0 ] && break
	n=$((n + 1)); [ $n -lt 60 ] || fail "the watches never settled: $(watches) of $nwatch connected"
done
fk POST /fake/watches/close '{}' >/dev/null || fail "close"
w=$(submit root -c 1 -o /dev/null --wrap true) || fail "submit w"
wait_sq "$w" %t R 30
fk POST /fake/pods "{\"selector\": \"sluice.io/job-id=$w\", \"action\": \"succeed\"}" >/dev/null
wait_state "$w" COMPLETED 40
# (A job's own pod LIST, in its namespace, is not a watch's re-list.)
[ "$(relists "$seq0")" = 0 ] ||
	fail "re-lists while watches kept ending: $(fk GET "/fake/requests?since=$seq0" |
		jpath '[(r["time"], r["verb"], r["path"], r["status"]) for r in d["requests"]]')"
[ "$(fk GET "/fake/stats?since=$seq0" | jpath 'd["by_verb"].get("watch", 0)')" -ge 5 ] || fail "watches did not end"
fk PUT /fake/config '{"watch_end_after": null}' >/dev/null
ok "watches ended after each event: resumed from their resourceVersion, no re-list"

# A 500 on the delete at the end of a job: retried, the object goes.
fault '{"type": "status", "code": 500, "count": 2, "method": "DELETE", "path": "jobsets"}'
m=$(submit root -c 1 -o /dev/null --wrap 'sleep 1000') || fail "submit 3"
wait_sq "$m" %t R 30
"$BIN/scancel" "$m"
wait_state "$m" CANCELLED 30
wait_n 0 jobsets "sluice.io/job-id=$m" 30
ok "scancel: DELETE retried after 500s, the JobSet gone"
