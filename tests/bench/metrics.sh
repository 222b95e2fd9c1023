#!/bin/bash
# The cost of /metrics (run on demand, not part of make check): with N jobs
# pending behind one running, how long the loop spends rendering the
# snapshot each second (sluiced -v logs it), and a scrape's latency.
# Usage: tests/bench/metrics.sh [BUILD_DIR] [N]   (default ./build, 10000)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
N=${2:-10000}
B="$build/bin"
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
. "$top/tests/integration/conf.sh"
CPUS=1 write_conf "metrics: {listen: \"127.0.0.1:$PORT\"}"
start_bench_daemon -v
cd "$T"
for i in $(seq "$N"); do "$B/sbatch" --parsable -o /dev/null --wrap 'sleep 1000' >/dev/null; done
sleep 3
echo "# sluice metrics bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) jobs=$N"
grep 'metrics: rendered' "$T/log" | tail -n 3 | sed 's/.*metrics: /render: /'
for i in 1 2 3; do
	curl -s -o /dev/null -w 'scrape: %{size_download} bytes in %{time_total} s\n' \
		"http://127.0.0.1:$PORT/metrics"
done
echo "pending per squeue: $("$B/squeue" -h -t PD | wc -l)"
curl -s "http://127.0.0.1:$PORT/metrics" | grep '^kueue_pending_workloads{cluster_queue="main",status="active"}'
