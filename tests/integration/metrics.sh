#!/bin/sh
# metrics.sh - sluiced's /metrics (metrics: {listen: ...}): scraped over real
# HTTP while jobs run, wait and are preempted; Kueue's gauges and counters
# and the slurm_ job counts agree with what squeue shows.
. "$(dirname "$0")/lib.sh"

command -v curl >/dev/null 2>&1 || skip "no curl"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
CPUS=2 EXTRA_OBJECTS=$WPC_LOW_HIGH write_conf "metrics: {listen: \"127.0.0.1:$PORT\"}"
preempt_within_cq
start_daemon

scrape() { curl -s --max-time 5 "$URL/metrics"; }
# metric LINE-PREFIX: the value of the first sample starting with it
metric() { scrape | awk -v p="$1 " 'index($0, p) == 1 { print $NF; exit }'; }
# wait_metric PREFIX VALUE: snapshots are at most a second old
wait_metric() {
	n=0
	while [ "$(metric "$1")" != "$2" ]; do
		n=$((n + 1))
		[ $n -lt 50 ] || fail "$1: $(metric "$1"), expected $2"
		sleep 0.1
	done
}

a=$(submit root -o /dev/null -c 1 --wrap "sleep 60")
b=$(submit root -o /dev/null -c 1 --wrap "sleep 60")
wait_state "$a" RUNNING
wait_state "$b" RUNNING
c=$(submit root -o /dev/null -c 2 --wrap "sleep 60")
pd=$("$BIN/squeue" -h -t PD | wc -l)
r=$("$BIN/squeue" -h -t R | wc -l)
expect_eq "squeue pending" 1 "$pd"
expect_eq "squeue running" 2 "$r"
wait_metric 'kueue_pending_workloads{cluster_queue="main",status="active"}' "$pd"
wait_metric 'kueue_admitted_active_workloads{cluster_queue="main"}' "$r"
expect_eq "local queue" "$pd" "$(metric 'kueue_local_queue_pending_workloads{name="batch",namespace="general",status="active"}')"
expect_eq "inadmissible" 0 "$(metric 'kueue_pending_workloads{cluster_queue="main",status="inadmissible"}')"
expect_eq "admitted total" 2 "$(metric 'kueue_admitted_workloads_total{cluster_queue="main"}')"
expect_eq "cpu used" 2 "$(metric 'kueue_cluster_queue_resource_usage{cohort="",cluster_queue="main",flavor="default",resource="cpu"}')"
expect_eq "cpu quota" 2 "$(metric 'kueue_cluster_queue_nominal_quota{cohort="",cluster_queue="main",flavor="default",resource="cpu"}')"
expect_eq "memory quota" 34359738368 "$(metric 'kueue_cluster_queue_nominal_quota{cohort="",cluster_queue="main",flavor="default",resource="memory"}')"
expect_eq "wait count" 2 "$(metric 'kueue_admission_wait_time_seconds_count{cluster_queue="main"}')"
expect_eq "wait +Inf" 2 "$(metric 'kueue_admission_wait_time_seconds_bucket{cluster_queue="main",le="+Inf"}')"
expect_eq "slurm running" "$r" "$(metric 'slurm_jobs{state="RUNNING"}')"
expect_eq "slurm pending" "$pd" "$(metric 'slurm_jobs{state="PENDING"}')"
expect_eq "by partition" "$pd" "$(metric 'slurm_partition_jobs{partition="batch",state="PENDING"}')"
expect_eq "by user" "$("$BIN/squeue" -h -t R -u root | wc -l)" "$(metric 'slurm_user_jobs{user="root",state="RUNNING"}')"
expect_eq "by account" "$pd" "$(metric 'slurm_account_jobs{account="general",state="PENDING"}')"
expect_eq "queue active" 1 "$(metric 'kueue_cluster_queue_status{cluster_queue="main",status="active"}')"
cycles=$(metric slurm_scheduler_cycles_total)
[ "${cycles:-0}" -ge 2 ] || fail "slurm_scheduler_cycles_total: $cycles"
# one scrape: the counters move between two
scrape | awk '/^kueue_admission_attempt_duration_seconds_count/ { a += $NF }
	/^slurm_scheduler_cycles_total / { c = $NF } END { exit !(a == c && c > 0) }' ||
	fail "the cycle histogram does not count every cycle"
scrape | grep -q '^# TYPE kueue_admission_wait_time_seconds histogram$' || fail "no histogram TYPE line"
scrape | grep -q '^kueue_cluster_queue_borrowing_limit{' && fail "a borrowing limit where none is set"
ok "running, pending, quota and job counts agree with squeue"

# A high-priority job preempts both running ones within the ClusterQueue.
"$BIN/scancel" "$c"
h=$(submit root -o /dev/null -c 2 --qos=high --wrap "sleep 60")
wait_state "$h" RUNNING
wait_metric 'kueue_preempted_workloads_total{preempting_cluster_queue="main",reason="InClusterQueue"}' 2
expect_eq "evicted" 2 "$(metric 'kueue_evicted_workloads_total{cluster_queue="main",reason="Preempted"}')"
wait_metric 'kueue_admitted_workloads_total{cluster_queue="main"}' 3
wait_metric 'kueue_admitted_active_workloads{cluster_queue="main"}' "$("$BIN/squeue" -h -t R | wc -l)"
ok "preemption counted: preempted and evicted"

# Only GET /metrics.
expect_eq "404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "$URL/other")"
expect_eq "405" 405 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/metrics")"
expect_eq "content type" "text/plain; version=0.0.4; charset=utf-8" \
	"$(curl -s -o /dev/null -w '%{content_type}' "$URL/metrics")"
ok "404, 405, Prometheus content type"

# A bad address is refused by --check-config; a busy one stops sluiced at start.
sed "s|^metrics: .*|metrics: {listen: \"nocolon\"}|" "$T/sluice.yaml" >"$T/bad.yaml"
out=$("$SLUICED" --check-config "$T/bad.yaml" 2>&1) && fail "bad metrics address accepted"
case "$out" in *metrics.listen*) ;; *) fail "bad address message: $out" ;; esac
sed -e "s|^socket: .*|socket: $T/sock/other.sock|" -e "s|^stateDir: .*|stateDir: $T/state2|" \
	"$T/sluice.yaml" >"$T/busy.yaml"
out=$("$SLUICED" -D -f "$T/busy.yaml" 2>&1) && fail "second sluiced on a busy metrics port started"
case "$out" in *"metrics: cannot listen on 127.0.0.1:$PORT"*) ;; *) fail "busy port message: $out" ;; esac
ok "bad and busy metrics addresses refused"

# The Grafana dashboard graphs only metrics that exist.
scrape >"$T/scrape"
python3 - "$top_srcdir/etc/grafana-sluice.json" "$T/scrape" <<'PY' || fail "grafana dashboard"
import json, re, sys
d = json.load(open(sys.argv[1]))
types = {l.split()[2] for l in open(sys.argv[2]) if l.startswith("# TYPE ")}
used = set()
for p in d["panels"]:
    for t in p["targets"]:
        for name in re.findall(r"\b(?:kueue|slurm|sluice)_[a-z_]+", t["expr"]):
            used.add(re.sub(r"_(bucket|sum|count)$", "", name))
missing = sorted(used - types)
if missing or not used:
    sys.exit("dashboard uses metrics sluiced does not serve: %s" % missing)
PY
ok "etc/grafana-sluice.json: valid JSON, every metric it graphs is served"

# A new metrics address on SIGHUP is not taken: sluiced says so and serves on.
sed -i "s|^metrics: .*|metrics: {listen: \"127.0.0.1:1\"}|" "$T/sluice.yaml"
kill -HUP "$DPID"
n=0
until grep -q 'SIGHUP: metrics changes need a restart' "$T/sluiced.log"; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "no restart warning after SIGHUP"; sleep 0.1
done
scrape | grep -q '^slurm_scheduler_cycles_total ' || fail "no metrics after SIGHUP"
ok "SIGHUP: a metrics change is refused with a warning, the old address serves on"
