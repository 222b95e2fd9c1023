#!/bin/bash
# Issue 2's daemon benchmark (run on demand, not part of make check):
#   a1  1000 sequential `sbatch --parsable --wrap true -H` (jobs/s)
#   a1l median and p99 latency of one sbatch call
#   b3  `squeue` wall time with 10000 pending jobs
#   b4  `squeue -h -t PD | wc -l` with 10000 pending jobs
#   c2  `scancel -u USER` wall time with 10000 pending jobs
#   d0/d1 sluiced VmRSS empty and at 10000 pending
# Usage: tests/bench/submit.sh [BUILD_DIR]   (default ./build)
# Compare with ../shared/slurm/bench.sh (real Slurm 22.05 on this machine).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
B="$build/bin"
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
. "$top/tests/integration/conf.sh"
write_conf
start_bench_daemon
cd "$T"
rss() { awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$pid/status"; }
now() { date +%s.%N; }
echo "# sluice bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc)"
echo "d0  sluiced VmRSS, empty queue                 $(rss) MiB"

# a1 exactly as ../shared/slurm/bench.sh measures Slurm: a plain loop.
t0=$(now)
for i in $(seq 1000); do "$B/sbatch" --parsable --wrap 'sleep 1000' -H >/dev/null; done
t1=$(now)
awk -v a="$t0" -v b="$t1" 'BEGIN {printf "a1  sequential sbatch x1000                  %.3f s (%.1f jobs/s)\n", b - a, 1000 / (b - a)}'
t0=$(now)
for i in $(seq 1000); do /bin/true; done
t1=$(now)
awk -v a="$t0" -v b="$t1" 'BEGIN {printf "    floor: the same loop of /bin/true         %.3f s\n", b - a}'
# Latency of single calls, timed in-process by bash (no extra forks).
lat="$T/lat.txt"
: >"$lat"
for i in $(seq 300); do
	s=$EPOCHREALTIME
	"$B/sbatch" --parsable --wrap true -H >/dev/null
	echo "$s $EPOCHREALTIME" >>"$lat"
done
awk '{print $2 - $1}' "$lat" | sort -n |
	awk '{v[NR] = $1} END {printf "a1l one sbatch call: median %.2f ms, p99 %.2f ms\n", v[int(NR*0.5)]*1000, v[int(NR*0.99)]*1000}'

# Up to 10000 pending with parallel loops (as Slurm's a3).
loops=""
for k in 1 2 3 4; do
	(for i in $(seq 2250); do "$B/sbatch" --parsable --wrap true -H >/dev/null; done) &
	loops="$loops $!"
done
wait $loops # not a bare wait: sluiced is our child too
n=$("$B/squeue" -h -t PD | wc -l)
echo "    pending jobs: $n"
best() { # best-of-5 wall time of a shell command
	for r in 1 2 3 4 5; do
		s=$(now); bash -c "$1" >/dev/null; e=$(now)
		echo "$s $e" | awk '{printf "%.4f\n", $2 - $1}'
	done | sort -n | awk 'NR == 3 {print $1}'
}
echo "b3  squeue, $n pending (median of 5)          $(best "$B/squeue") s"
echo "b4  squeue -h -t PD | wc -l, $n pending       $(best "$B/squeue -h -t PD | wc -l") s"
echo "d1  sluiced VmRSS, $n pending                 $(rss) MiB"
s=$(now)
"$B/scancel" -u "$(id -un)"
e=$(now)
echo "$s $e" | awk '{printf "c2  scancel -u, 10000 pending                 %.3f s\n", $2 - $1}'
