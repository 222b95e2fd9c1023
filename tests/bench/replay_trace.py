#!/usr/bin/env python3
"""replay_trace.py N [SEED [GAP]] - a synthetic sacct -P trace of N jobs for
`sluice replay`: 50 users on one GPU partition, Poisson arrivals, GPU
counts 1/2/4/8, log-uniform run times with limits above them, a mean GAP
seconds between submissions (90: about 78 of 100 GPUs busy; less: a deep
queue). Used by
tests/integration/replay.sh and tests/bench/replay.sh."""
import math
import random
import sys
import time

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
gap = float(sys.argv[3]) if len(sys.argv) > 3 else 90.0
t = 1767225600  # 2026-01-01T00:00:00Z
out = sys.stdout
out.write("JobID|User|Account|Partition|QOS|Submit|Start|End|Timelimit|ReqTRES|State\n")
hist_free = []  # a crude history: each job starts after a random wait
for i in range(1, n + 1):
    t += rng.expovariate(1 / gap)
    gpus = rng.choice([1, 1, 1, 2, 2, 4, 8])
    run = int(math.exp(rng.uniform(math.log(60), math.log(4 * 3600))))
    limit = run * 2
    wait = int(rng.expovariate(1 / 600.0))
    sub = int(t)
    fmt = lambda s: time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(s))
    lim = "%02d:%02d:00" % (limit // 3600, (limit // 60) % 60 + (1 if limit % 60 else 0))
    if (limit // 60) % 60 + (1 if limit % 60 else 0) == 60:
        lim = "%02d:00:00" % (limit // 3600 + 1)
    out.write("%d|user%02d|ml|gpu|normal|%s|%s|%s|%s|billing=%d,cpu=%d,mem=%dG,node=1,gres/gpu=%d|COMPLETED\n" % (
        i, rng.randrange(50), fmt(sub), fmt(sub + wait), fmt(sub + wait + run), lim,
        gpus * 8, gpus * 8, gpus * 32, gpus))
