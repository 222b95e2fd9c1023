#!/bin/sh
# k8s_nodes.sh [NODES] [PODS_PER_NODE] - sinfo over a large Kubernetes
# cluster: the fake API server holds NODES Nodes (default 1000) and
# PODS_PER_NODE running pods bound to each (default 20), not Sluice's.
#  1. the time from sluiced's start until sinfo shows every node with its
#     pods' requests (the nodes and pods LISTs, decoded and indexed);
#  2. sinfo, sinfo -N and sinfo --json: the mean wall time of 20 runs.
# Run from the source tree after a build:
#   top_srcdir=. top_builddir=BUILD sh tests/bench/k8s_nodes.sh
NODES=${1:-1000}
PPN=${2:-20}
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
CPUS=$((NODES * 8)) write_k8s_conf
fk POST /fake/overrides '{"selector": "bench=1", "pending_ms": 0, "running_ms": -1}' >/dev/null
now() { python3 -c 'import time; print(time.time())'; }
t=$(now)
fk POST /fake/nodes "{\"count\": $NODES, \"pods_per_node\": $PPN, \"pod_cpu\": \"250m\"}" \
	>/dev/null || fail "seed"
echo "fake: $NODES nodes, $((NODES * PPN)) pods made in $(python3 -c "print('%.1f' % ($(now) - $t))") s"
want="batch*       up   infinite  $NODES    mix fake-node-[0-$((NODES - 1))]"
t0=$(now)
start_daemon
n=0
until [ "$("$BIN/sinfo" -h 2>/dev/null)" = "$(printf '%-9s %5s %10s %6s %6s %s' 'batch*' up infinite "$NODES" mix "fake-node-[0-$((NODES - 1))]")" ]; do
	n=$((n + 1)); [ $n -lt 6000 ] || fail "sinfo never showed $want: $("$BIN/sinfo" -h | head -3)"
	sleep 0.05
done
t1=$(now)
cpu=$(python3 -c 'import os,sys; f=open("/proc/%s/stat" % sys.argv[1]).read().rsplit(")",1)[1].split()
print("%.2f" % ((int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")))' "$DPID")
echo "sluiced start to every node and pod known: $(python3 -c "print('%.2f' % ($t1 - $t0))") s" \
	"(sluiced's CPU: $cpu s; the rest is the fake API server, Python)"
"$BIN/sinfo" -N -h -o '%N %C' | head -1
for args in "" "-N" "--json"; do
	t0=$(now)
	i=0
	while [ $i -lt 20 ]; do
		"$BIN/sinfo" $args >/dev/null || fail "sinfo $args"
		i=$((i + 1))
	done
	t1=$(now)
	echo "sinfo $args: $(python3 -c "print('%.1f' % (($t1 - $t0) * 1000 / 20))") ms per run"
done
