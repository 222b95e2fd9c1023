#!/bin/bash
# estimate_trace.sh - how often and by how much jobs start later than first
# estimated (issue 16), and what backfill does to waits, on a synthetic
# trace run by `sluice simulate` (timed scenarios, sim_clock.c).
#
# The trace (fixed seed, awk): N jobs (default 2000) into one ClusterQueue
# of 64 cpus (or --cqs C ClusterQueues of 64/C cpus in one cohort, job i
# into queue i % C, borrowing as Kueue allows); sizes 1-32 cpus, mostly
# small; time limits of 10 min to 4 h; each runs a uniform 10-100 % of its
# limit; arrivals Poisson at about 95 % of the capacity by limits. The
# same trace runs four times: StrictFIFO or BestEffortFIFO, backfill off
# or on.
# Usage: estimate_trace.sh [--build DIR] [--jobs N] [--seed S] [--cqs C]
set -eu
build=${top_builddir:-.}
jobs=2000
seed=16
cqs=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--cqs) cqs=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--jobs N] [--seed S] [--cqs C]" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d /tmp/sl-trace.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

scenario() { # strategy backfill
	cat <<EOS
name: trace-$1-$2
description: synthetic trace ($jobs jobs, seed $seed, $cqs ClusterQueues)
config: {backfill: $2}
objects:
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ResourceFlavor
  metadata: {name: default}
EOS
	for q in $(seq 0 $((cqs - 1))); do
		cat <<EOS
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ClusterQueue
  metadata: {name: cq$q}
  spec:
    namespaceSelector: {}
    cohort: co
    queueingStrategy: $1
    resourceGroups:
    - coveredResources: [cpu]
      flavors:
      - name: default
        resources:
        - {name: cpu, nominalQuota: '$((64 / cqs))'}
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: LocalQueue
  metadata: {name: q$q, namespace: ns}
  spec: {clusterQueue: cq$q}
EOS
	done
	echo "workloads:"
	awk -v n="$jobs" -v seed="$seed" -v cqs="$cqs" 'BEGIN {
		srand(seed); t = 0
		split("600 1800 3600 7200 14400", lims, " ")
		split("1 1 1 2 2 4 4 8 16 32", sizes, " ")
		# mean cpu-seconds per job by limits: about 5.2 cpus x 5640 s
		mean_gap = 5.2 * 5640 / 64 / 0.95
		for (i = 1; i <= n; i++) {
			t += int(-log(1 - rand()) * mean_gap)
			lim = lims[1 + int(rand() * 5)]
			cpus = sizes[1 + int(rand() * 10)]
			run = int(lim * (0.1 + 0.9 * rand()))
			printf "- {name: j%d, queue: ns/q%d, created: %d, timeLimit: %d, runtime: %d,\n", i, i % cqs, t, lim, run
			printf "   podSets: [{name: main, count: %d, requests: {cpu: \"1\"}}]}\n", cpus
		}
	}'
}

printf '%-15s %-8s %10s %8s %10s %10s %8s %10s %10s %8s\n' strategy backfill started late "late mean" "late max" earlier "wait mean" "wait max" "run s"
for strat in StrictFIFO BestEffortFIFO; do
	for bf in false true; do
		scenario $strat $bf >"$tmp/s.yaml"
		t0=$(date +%s.%N)
		"$build/bin/sluice" simulate "$tmp/s.yaml" >"$tmp/out" 2>&1 || true
		t1=$(date +%s.%N)
		est=$(grep '^estimates:' "$tmp/out")
		wait=$(grep '^waits:' "$tmp/out")
		started=$(echo "$est" | sed -E 's/^estimates: ([0-9]+) started.*/\1/')
		late=$(echo "$est" | sed -E 's/.* started, ([0-9]+) later.*/\1/')
		lmean=$(echo "$est" | sed -nE 's/.*\(mean ([0-9.]+) s, max.*/\1/p')
		lmax=$(echo "$est" | sed -nE 's/.*max ([0-9]+) s\).*/\1/p')
		early=$(echo "$est" | sed -E 's/.*, ([0-9]+) earlier.*/\1/')
		wmean=$(echo "$wait" | sed -E 's/^waits: mean ([0-9.]+) s.*/\1/')
		wmax=$(echo "$wait" | sed -E 's/.*max ([0-9]+) s$/\1/')
		printf '%-15s %-8s %10s %8s %10s %10s %8s %10s %10s %8.2f\n' $strat $bf "$started" "$late" \
			"${lmean:-0}" "${lmax:-0}" "$early" "$wmean" "$wmax" "$(echo "$t1 - $t0" | bc)"
	done
done
