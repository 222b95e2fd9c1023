#!/bin/sh
# k8s_calls.sh [N] - the Kubernetes executor against the fake API server,
# QPS 50 / burst 100 (Kueue's performance test settings):
#  1. API calls per job over its whole life (reads, writes, by verb), from
#     the fake's /fake/stats, for N jobs (default 1000);
#  2. the time from admission to create when N jobs are admitted at once
#     (a blocker holding the whole quota is cancelled; its quota admits all
#     N in one scheduling cycle), from the fake's request log.
# Run from the source tree after a build: top_srcdir=. top_builddir=BUILD sh tests/bench/k8s_calls.sh
N=${1:-1000}
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
CPUS=$N write_k8s_conf
fk PUT /fake/schedule '{"pending_ms": 0, "running_ms": 500}' >/dev/null || fail "schedule"
fk POST /fake/overrides '{"selector": "sluice.io/job-id=1", "running_ms": -1}' >/dev/null
start_daemon
mkdir -p "$T/work" && cd "$T/work"
blocker=$(submit root -c "$N" -o /dev/null --wrap 'sleep 1000') || fail "blocker"
wait_sq "$blocker" %t R 30
echo "submitting $N jobs..."
i=0
while [ $i -lt "$N" ]; do
	"$BIN/sbatch" --parsable -c 1 -o /dev/null --wrap true >/dev/null || fail "submit $i"
	i=$((i + 1))
done
seq0=$(fk GET /fake/stats | jpath 'd["seq"]')
t0=$(python3 -c 'import time; print(time.time())')
"$BIN/scancel" "$blocker" || fail "scancel"
# Until every job ended (sacct shows them COMPLETED).
n=0
while :; do
	left=$("$BIN/squeue" -h 2>/dev/null | wc -l)
	[ "$left" -eq 0 ] && break
	n=$((n + 1)); [ $n -lt 6000 ] || fail "$left jobs still queued after 600 s"
	sleep 0.1
done
t1=$(python3 -c 'import time; print(time.time())')
# The ends are recorded; the deletes (and log reads) drain at the QPS limit.
wait_n 0 jobsets "" 600
fk GET "/fake/requests?since=$seq0" >"$T/req.json"
python3 - "$T/req.json" "$t0" "$t1" "$N" <<'PY'
import json, sys
reqs = json.load(open(sys.argv[1]))["requests"]
t0, t1, n = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
creates = sorted(r["time"] for r in reqs if r["verb"] == "create" and "jobsets" in r["path"])
by = {}
for r in reqs:
    by[r["verb"]] = by.get(r["verb"], 0) + 1
writes = sum(1 for r in reqs if r["write"])
reads = len(reqs) - writes
jobs = n + 1  # the blocker's delete is in the window too
print("jobs admitted at once:        %d (QPS 50, burst 100)" % n)
print("API requests in the window:   %d (reads %d, writes %d) by verb %s" % (len(reqs), reads, writes, json.dumps(by, sort_keys=True)))
print("writes per job:               %.2f" % (writes / n))
print("reads per job:                %.2f (watches and lists are per daemon, not per job)" % (reads / n))
if creates:
    lat = [c - t0 for c in creates]
    print("admission -> create:          first %.2f s, median %.2f s, p99 %.2f s, last %.2f s" %
          (lat[0], lat[len(lat) // 2], lat[int(len(lat) * 0.99) - 1], lat[-1]))
    print("create rate:                  %.1f creates/s" % (len(creates) / max(creates[-1] - creates[0], 1e-9)))
print("all %d jobs ended after:     %.1f s" % (n, t1 - t0))
PY
