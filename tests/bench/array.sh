#!/bin/bash
# Job arrays' benchmark (issue 12; on demand, not part of make check):
#   e1  sbatch --array=0-9999 -H: one submission of 10,000 tasks
#   e2  squeue -j N (the pending tasks collapsed into one line)
#   e3  squeue -r -j N (10,000 lines)
#   e4  squeue (all users' jobs, collapsed) and e5 squeue -r
#   e6  sacct -j over ARRAYS x 10,000 finished tasks (they ran): -X, with steps
#       (Slurm is not timed here: running 100,000 tasks on it takes hours)
#   d1  sluiced VmRSS with the 10,000 pending tasks
# Best of 5 wall times. With real Slurm 22.05 up (sbatch in /usr/bin,
# user alice, MaxArraySize 10001), e1-e3 are measured there too, side by
# side (its held array is cancelled right after).
# Usage: tests/bench/array.sh [BUILD_DIR] [ARRAYS]   (default ./build, 10)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
arrays=${2:-10}
B="$build/bin"
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
. "$top/tests/integration/conf.sh"
. "$top/tests/bench/paired.sh"
write_conf "maxArraySize: 10001
minJobAge: 3600"
start_bench_daemon
cd "$T"
rss() { awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$pid/status"; }
now() { date +%s.%N; }
best() { # best-of-5 wall time of a shell command, in seconds
	b=""
	for r in 1 2 3 4 5; do
		s=$(now); bash -c "$1" >/dev/null 2>&1; e=$(now)
		b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN {t = e - s; if (b == "" || t < b) b = t; printf "%.3f", b}')
	done
	echo "$b"
}
line() { printf '%-4s %-44s %8s s' "$1" "$2" "$3"; [ -n "${4:-}" ] && printf '   slurm %8s s' "$4"; echo; }
echo "# sluice array bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc)"

slurm=""
if [ -x /usr/bin/sbatch ] && id alice >/dev/null 2>&1 && /usr/bin/sinfo -h >/dev/null 2>&1; then
	slurm=1
fi
s=$(now); n=$("$B/sbatch" --parsable -H --array=0-9999 --wrap true); e=$(now)
e1=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
e1s=""
if [ -n "$slurm" ]; then
	s=$(now); sn=$(runuser -u alice -- /usr/bin/sbatch --parsable -H --array=0-9999 -o /dev/null --wrap true); e=$(now)
	e1s=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
fi
line e1 "sbatch --array=0-9999 (10,000 tasks)" "$e1" "$e1s"
echo "     lines: $("$B/squeue" -h -j "$n" | wc -l) collapsed, $("$B/squeue" -h -r -j "$n" | wc -l) with -r"
line e2 "squeue -j N (collapsed)" "$(best "'$B/squeue' -j $n")" \
	"${slurm:+$(best "/usr/bin/squeue -j $sn")}"
line e3 "squeue -r -j N (10,000 lines)" "$(best "'$B/squeue' -r -j $n")" \
	"${slurm:+$(best "/usr/bin/squeue -r -j $sn")}"
line e4 "squeue (collapsed)" "$(best "'$B/squeue'")"
line e5 "squeue -r" "$(best "'$B/squeue' -r")"
echo "d1   sluiced VmRSS, 10,000 pending tasks          $(rss) MiB"
# Best-of-5 above carries bash's and date's start-up on both sides; in
# turn, the ratio pair by pair, a drifting host compares fairly.
if [ -n "$slurm" ]; then
	for r in "" "-r "; do
		echo "     paired, squeue ${r}-j N, sluice (A) / slurm (B):" \
			"$(paired 21 "'$B/squeue' $r-j $n" "/usr/bin/squeue $r-j $sn")"
	done
fi
if [ -n "$slurm" ]; then
	runuser -u alice -- /usr/bin/scancel "$sn"
fi

# Finished tasks: ARRAYS arrays of 10,000 tasks that run `true` (the local
# executor runs some 400 a second here), then sacct over all of them.
"$B/scancel" "$n"
all=""
s=$(now)
for i in $(seq 1 "$arrays"); do
	m=$("$B/sbatch" --parsable --array=0-9999 -o /dev/null --wrap true)
	all="$all $m"
	while [ "$("$B/squeue" -h -j "$m" | wc -l)" -gt 0 ]; do sleep 1; done
done
e=$(now)
ids=$(echo $all | tr " " ",")
total=$("$B/sacct" -X -n -j "$ids" -o JobID | wc -l)
awk -v s="$s" -v e="$e" -v t="$total" 'BEGIN {printf "     %d tasks ran in %.1f s (%.0f/s)\n", t, e - s, t / (e - s)}'
line e6 "sacct -X -j ARRAYS ($total tasks)" "$(best "'$B/sacct' -X -j $ids")"
line e6b "sacct -j ARRAYS (with .batch rows)" "$(best "'$B/sacct' -j $ids")"
m=$(echo $all | cut -d" " -f1)
line e6c "sacct -X -j N (one array, 10,000 rows)" "$(best "'$B/sacct' -X -j $m")"
echo "d2   sluiced VmRSS, $total finished tasks          $(rss) MiB"
