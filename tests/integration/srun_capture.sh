#!/bin/sh
# srun_capture.sh - write tests/data/srun/srun.golden from a real Slurm
# 22.05 (run by hand on a machine with one, as a user who may submit):
#   SL_CAPTURE=1 sh tests/integration/srun_capture.sh [USER]
# It runs srun_scenario.sh in `sbatch -N 1 -n 4`, then the job's sacct
# rows, masked as srun.sh masks Sluice's (srun_mask).
set -eu
# A reference capture rewrites files under tests/data: never by accident
# (a run of every tests/integration/*.sh), only when asked (77: skipped).
if [ "${SL_CAPTURE:-}" != 1 ]; then
	echo "$(basename "$0"): rewrites tests/data from a real Slurm; run it with SL_CAPTURE=1" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
user=${1:-alice}
dir=$(mktemp -d /tmp/srun-cap.XXXXXX)
chmod 777 "$dir"
. "$here/srun_lib.sh"
job=$(runuser -u "$user" -- env SCEN_DIR="$dir" sbatch --parsable -N 1 -n 4 -o "$dir/job.out" \
	"$here/srun_scenario.sh")
while squeue -h -j "$job" 2>/dev/null | grep -q .; do sleep 1; done
sleep 2 # slurmdbd
{
	cat "$dir/job.out"
	echo "== sacct"
	sacct -j "$job" -P -o JobID,JobName,State,ExitCode,NTasks,AllocCPUS,NNodes
} | srun_mask "$job" >"$here/../data/srun/srun.golden"
rm -rf "$dir"
echo "wrote tests/data/srun/srun.golden (job $job)"
