#!/bin/sh
# test_sluice_render_opts.sh - sbatch options of issue 12 on the Kubernetes
# executor, through `sluice render`: --exclusive is pod anti-affinity
# against every Sluice pod; what only the local executor does (--mem=0,
# -w, -x, --signal) is refused rather than dropped; accounts in Slurm's
# spelling render into their namespace.
top_srcdir=${top_srcdir:-.}
name=sluice_render_opts
. "$top_srcdir/tests/unit/render_testlib.sh"

"$sluice" render --exclusive cpu.sh >ex.json || fail "--exclusive: exit $?"
python3 - ex.json <<'PY' || fail "--exclusive: no anti-affinity: $(cat ex.json)"
import json, sys
o = json.load(open(sys.argv[1]))
pod = o["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
t = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
assert t["topologyKey"] == "kubernetes.io/hostname", t
assert t["labelSelector"] == {"matchExpressions": [{"key": "sluice.io/job-id", "operator": "Exists"}]}, t
PY
"$sluice" render cpu.sh | grep -q '"affinity"' && fail "affinity without --exclusive"

for o in --mem=0 -wnode1 -xnode1 --signal=USR1; do
	err=$("$sluice" render "$o" cpu.sh 2>&1) && fail "$o rendered"
	case "$err" in *"is not supported by Sluice on Kubernetes"*) ;;
	*) fail "$o: [$err]" ;; esac
done
echo "ok - --exclusive is pod anti-affinity; --mem=0, -w, -x, --signal refused on Kubernetes"
