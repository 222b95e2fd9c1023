#!/bin/bash
# `sluice migrate` on a large site (run on demand, not part of make check):
# 10 000 nodes in 40 racks, 100 overlapping partitions with tiers, 1 050
# nested accounts and 5 000 users; then sluiced --check-config on the
# result (100 000 LocalQueues: one per account and partition).
# Usage: tests/bench/migrate.sh [BUILD_DIR]   (default ./build)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
python3 - "$T" <<'PY'
import random, sys
random.seed(1)
d = sys.argv[1]
with open(d + "/big.conf", "w") as f:
    f.write("ClusterName=big\nSelectTypeParameters=CR_Core_Memory\n"
            "PriorityType=priority/multifactor\nPriorityWeightFairshare=1000\n"
            "AccountingStorageEnforce=associations\n"
            "PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\n")
    for r in range(40):
        f.write("NodeName=r%02dn[0001-0250] CPUs=64 RealMemory=256000 Features=rack%d,%s%s\n"
                % (r, r, random.choice(["icelake", "milan"]), " Gres=gpu:a100:4" if r % 5 == 0 else ""))
    for p in range(100):
        racks = random.sample(range(40), 8)
        f.write("PartitionName=p%03d Nodes=%s PriorityTier=%d%s\n"
                % (p, ",".join("r%02dn[0001-0250]" % r for r in racks), random.randint(1, 5),
                   " Default=YES" if p == 0 else ""))
with open(d + "/big.dump", "w") as f:
    f.write("Cluster - 'big':Fairshare=1\nParent - 'root'\n")
    for a in range(50):
        f.write("Account - 'dept%d':Fairshare=%d\n" % (a, random.randint(1, 100)))
    for a in range(50):
        f.write("Parent - 'dept%d'\n" % a)
        for g in range(20):
            f.write("Account - 'grp%d_%d':Fairshare=%d:GrpTRES=cpu=%d\n"
                    % (a, g, random.randint(1, 10), random.randint(64, 1024)))
    for a in range(50):
        for g in range(20):
            f.write("Parent - 'grp%d_%d'\n" % (a, g))
            for u in range(5):
                f.write("User - 'u%d':DefaultAccount='grp%d_%d':Fairshare=1\n"
                        % ((a * 20 + g) * 5 + u, a, g))
PY
echo "# sluice migrate bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc)"
TIMEFORMAT='%R s'
echo "migrate (10 000 nodes, 100 partitions, 5 000 users): $( { time "$build/bin/sluice" migrate "$T/big.conf" --sacctmgr "$T/big.dump" -o "$T/out" >/dev/null; } 2>&1 )"
ls -l "$T/out" | awk 'NR > 1 {print "  " $NF ": " $5 " bytes"}'
echo "sluiced --check-config on it: $( { time "$build/bin/sluiced/sluiced" --check-config "$T/out/sluice.yaml" >/dev/null; } 2>&1 )"
