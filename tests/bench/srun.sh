#!/bin/bash
# Issue 14's benchmark (run on demand, not part of make check): the time
# from `srun -n 64 true` to its exit, REPS times, median and worst,
#   s1  inside a batch script (sbatch -n 64): the step alone
#   s2  outside an allocation: the allocation, the step, its release
# on Sluice (local executor), and the same two on the real Slurm 22.05 of
# this machine when `sbatch` in PATH talks to one (SLURM_USER runs them).
# Usage: tests/bench/srun.sh [BUILD_DIR]   (default ./build)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
B="$build/bin"
REPS=${REPS:-10}
T=$(mktemp -d /tmp/sl-bench-srun.XXXXXX)
chmod 755 "$T"
. "$top/tests/integration/conf.sh"
CPUS=64 write_conf
start_bench_daemon
cd "$T"
echo "# srun bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) REPS=$REPS"

# The loop a batch script runs: one line of seconds per srun.
loop() { # loop SRUN
	printf '#!/bin/bash\n'
	printf 'for i in $(seq %d); do a=$(date +%%s.%%N); %s -n 64 true; b=$(date +%%s.%%N); ' \
		"$REPS" "$1"
	printf 'echo "$a $b"; done\n'
}
stats() { # stats LABEL < "start end" lines
	awk '{print $2 - $1}' | sort -n | awk -v l="$1" '{v[NR] = $1}
		END {printf "%-44s median %.3f s  max %.3f s  (n=%d)\n", l, v[int((NR + 1) / 2)], v[NR], NR}'
}
inside() { # inside SBATCH SQUEUE SRUN [user]: s1 on that system
	local sb=$1 sq=$2 sr=$3 u=${4:-} out="$T/in.$RANDOM" j
	loop "$sr" >"$T/loop.sh"
	chmod 755 "$T/loop.sh"
	: >"$out"
	chmod 666 "$out"
	j=$(${u:+runuser -u "$u" --} "$sb" --parsable -N 1 -n 64 -o "$out" "$T/loop.sh")
	while "$sq" -h -j "$j" 2>/dev/null | grep -q .; do sleep 0.2; done
	grep -v srun "$out"
}
outside() { # outside SRUN [user]: s2
	local sr=$1 u=${2:-}
	for i in $(seq "$REPS"); do
		a=$(date +%s.%N)
		${u:+runuser -u "$u" --} "$sr" -N 1 -n 64 true
		b=$(date +%s.%N)
		echo "$a $b"
	done
}
inside "$B/sbatch" "$B/squeue" "$B/srun" | stats "s1 Sluice: srun -n 64 true in sbatch"
outside "$B/srun" | stats "s2 Sluice: srun -n 64 true (own allocation)"
if command -v sbatch >/dev/null && sinfo -h >/dev/null 2>&1; then
	u=${SLURM_USER:-alice}
	inside sbatch squeue srun "$u" | stats "s1 Slurm:  srun -n 64 true in sbatch"
	(cd /tmp && outside srun "$u") | stats "s2 Slurm:  srun -n 64 true (own allocation)"
fi
