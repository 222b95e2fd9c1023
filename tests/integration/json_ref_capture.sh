#!/bin/bash
# json_ref_capture.sh - write the real Slurm 22.05 documents and layouts
# json.sh, sstat.sh and test_slurm_json compare against, from the reference
# cluster (/work/shared/slurm, user alice, jobacct_gather/linux):
# tests/data/json/{squeue,sacct}_real.json, squeue_real_cancelled.json (a job
# cancelled while pending, one while running) and sacct_real_measured.json
# (ids and times masked), tests/data/output/sstat_*.out. Four jobs: one that
# completed, one that failed (exit 3), one running (-t 10, then cancelled:
# the measured one) and one held. Run as root with SL_CAPTURE=1 with that cluster up;
# not part of `make check`. Job ids and sizes in sstat_*.out are the run's.
set -eu
# A reference capture rewrites files under tests/data: never by accident
# (a run of every tests/integration/*.sh), only when asked (77: skipped).
if [ "${SL_CAPTURE:-}" != 1 ]; then
	echo "$(basename "$0"): rewrites tests/data from a real Slurm; run it with SL_CAPTURE=1" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../data"
work=$(mktemp -d /tmp/json-ref.XXXXXX)
chmod 1777 "$work"
cd "$work"
as() { runuser -u alice -- "$@"; }
printf '#!/bin/bash\npython3 -c "a = bytearray(50 << 20); import time; time.sleep(1)"\n' >mem.sh
chmod 755 mem.sh
as /usr/bin/sbatch -D "$work" -J memjob mem.sh
as /usr/bin/sbatch -D "$work" -J failjob --wrap "exit 3"
run=$(as /usr/bin/sbatch --parsable -D "$work" -J runjob -t 10 \
	--wrap "python3 -c 'a = bytearray(30 << 20); import time; time.sleep(300)'")
as /usr/bin/sbatch -D "$work" -J heldjob -H --wrap "sleep 1"
sleep 35 # one jobacct_gather sample (JobAcctGatherFrequency=30)
/usr/bin/squeue --json >squeue.json
/usr/bin/sacct --json -j "$((run - 2)),$((run - 1)),$run,$((run + 1))" >sacct.json
as /usr/bin/sstat -j "$run.batch" >"$data/output/sstat_default.out"
as /usr/bin/sstat -a -j "$run" -P >"$data/output/sstat_aP.out"
as /usr/bin/sstat -a -j "$run" -p -n -o JobID,MaxRSS >"$data/output/sstat_pn.out"
/usr/bin/sstat -e >"$data/output/sstat_e.out"
/usr/bin/sstat --help >"$data/output/sstat_help.out"
/usr/bin/scancel "$run" "$((run + 1))"
sleep 3
/usr/bin/sacct --json -j "$run" >sacct_measured.json
/usr/bin/squeue --json >squeue_cancelled.json
python3 - "$data/json" <<'PY'
import json, sys
T = {'accrue_time', 'eligible_time', 'end_time', 'start_time', 'submit_time',
     'last_sched_evaluation', 'eligible', 'end', 'start', 'submission', 'resize_time',
     'preempt_time', 'suspend_time'}
def mask(o, ids):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in T and isinstance(v, int) and not isinstance(v, bool) and v > 1000000:
                o[k] = 1700000000
            elif k == 'job_id' and isinstance(v, int) and v > 0:
                o[k] = ids.setdefault(v, len(ids) + 1)
            else:
                mask(v, ids)
    elif isinstance(o, list):
        for v in o:
            mask(v, ids)
d = json.load(open('squeue_cancelled.json'))
held = [j for j in d['jobs'] if j['name'] == 'heldjob' and j['job_state'] == 'CANCELLED']
ran = [j for j in d['jobs'] if j['name'] == 'runjob' and j['job_state'] == 'CANCELLED']
d['jobs'] = held[-1:] + ran[-1:]
json.dump(d, open('squeue_cancelled.json', 'w'))
for src, dst in [('squeue_cancelled.json', 'squeue_real_cancelled.json'), ('squeue.json', 'squeue_real.json'), ('sacct.json', 'sacct_real.json'),
                 ('sacct_measured.json', 'sacct_real_measured.json')]:
    d = json.load(open(src))
    mask(d, {})
    open(sys.argv[1] + '/' + dst, 'w').write(json.dumps(d, indent=2) + "\n")
PY
cd / && rm -rf "$work"
echo "written: $data/json/*_real*.json, $data/output/sstat_*.out"
