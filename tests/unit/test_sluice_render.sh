#!/bin/sh
# test_sluice_render.sh - `sluice render` end to end: the engine picks the
# flavor on an empty cluster, --flavor overrides it, and refusals are
# sbatch's errors and exit statuses.
top_srcdir=${top_srcdir:-.}
name=sluice_render
. "$top_srcdir/tests/unit/render_testlib.sh"
printf '#!/bin/sh\n#SBATCH --gpus-per-node=8\n#SBATCH -N 4\nhostname\n' >gpu.sh

"$sluice" render -p gpu -t 1-0 gpu.sh >js.json || fail "gpu job: exit $?"
grep -q '"kind": "JobSet"' js.json || fail "gpu job: not a JobSet"
grep -q '"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"' js.json || fail "no flavor nodeSelector"
grep -q '"activeDeadlineSeconds": 86400' js.json || fail "no deadline"
grep -q '"value": "sl-1-node-0-\[0-3\]"' js.json || fail "no nodelist"
echo "ok gpu job rendered as a JobSet on flavor h100"

"$sluice" render -p mpi -N 2 -n 16 gpu.sh >mpi.json || fail "mpi job: exit $?"
grep -q '"slotsPerWorker": 8' mpi.json || fail "mpi job: slots"
echo "ok mpi partition renders an MPIJob"

"$sluice" render --flavor h100 cpu.sh | grep -q '"cloud.example.com/node-pool": "h100"' ||
	fail "--flavor h100 ignored"
echo "ok --flavor"

# -N MIN-MAX: as many nodes as the queue's quota holds (64 cpu / 16 = 4).
"$sluice" render -N 2-400 -c 16 cpu.sh >range.json || fail "-N 2-400: exit $?"
grep -q '"parallelism": 4,' range.json || fail "-N 2-400 -c 16: not 4 pods"
grep -A1 '"name": "SLURM_NNODES"' range.json | grep -q '"value": "4"' || fail "SLURM_NNODES not 4"
echo "ok -N 2-400 -c 16 renders the 4 pods the quota holds"

expect_err() { # status, message, args...
	want_rc=$1 want=$2
	shift 2
	"$sluice" render "$@" >out 2>err
	rc=$?
	[ "$rc" = "$want_rc" ] || fail "$*: exit $rc, want $want_rc"
	[ "$(cat err)" = "$want" ] || fail "$*: stderr '$(cat err)', want '$want'"
	[ -s out ] && fail "$*: printed an object"
	echo "ok $*: $want_rc"
}
expect_err 1 "sbatch: error: invalid partition specified: nosuch
sbatch: error: Batch job submission failed: Invalid partition name specified" -p nosuch cpu.sh
expect_err 1 "sbatch: error: Invalid --mpi type: pmi2 (Sluice runs openmpi, intel, mpich or none)" \
	--mpi=pmi2 cpu.sh
expect_err 255 "sbatch: unrecognized option '--bogus'
Try \"sbatch --help\" for more information" --bogus cpu.sh
expect_err 1 "sbatch: error: Batch job submission failed: no ResourceFlavor named \"x\"" \
	--flavor x cpu.sh
