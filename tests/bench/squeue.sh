#!/bin/bash
# squeue with 10 000 pending jobs (issue 12's acceptance: at most a fifth
# of Slurm 22.05's time, default format, ~820 kB of output). Run on
# demand, not by make check (timings on a loaded host lie).
#   - a private sluiced gets 10 000 held jobs (sbatch -H, 4 loops);
#   - `squeue` (default format) and `squeue -h -t PD | wc -l` are timed,
#     the median of 11 runs, output to /dev/null;
#   - with --slurm, the same 10 000 held jobs are submitted to the real
#     Slurm on this machine as $SLURM_USER (default alice), timed with
#     /usr/bin/squeue -u $SLURM_USER side by side, and cancelled again
#     (only those: scancel of the ids it submitted); the two are also
#     timed in turn and their ratio taken pair by pair (paired.sh);
#   - with OLD=BUILD_DIR of an older build, its squeue is timed too, on
#     the same daemon and jobs, runs alternated with this build's (an
#     older squeue asks for whole records, which the daemon still sends).
# Usage: [OLD=DIR] tests/bench/squeue.sh [--slurm] [BUILD_DIR]   (default ./build)
set -eu
slurm=0
if [ "${1:-}" = --slurm ]; then slurm=1; shift; fi
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
B="$build/bin"
N=${N:-10000}
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
. "$top/tests/integration/conf.sh"
. "$top/tests/bench/paired.sh"
write_conf
start_bench_daemon
slurm_ids="$T/slurm_ids"
cleanup() {
	kill $pid 2>/dev/null; wait $pid 2>/dev/null
	if [ -s "$slurm_ids" ]; then xargs -n 500 scancel <"$slurm_ids" 2>/dev/null || :; fi
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
now() { date +%s.%N; }
median() { # median-of-11 wall time of a shell command
	for r in $(seq 11); do
		s=$(now); bash -c "$1" >/dev/null; e=$(now)
		echo "$s $e" | awk '{printf "%.4f\n", $2 - $1}'
	done | sort -n | awk 'NR == 6 {print $1}'
}
submit_loops() { # submit_loops SBATCH: N held jobs in 4 parallel loops
	loops=""
	for k in 1 2 3 4; do
		(for i in $(seq $((N / 4))); do $1 --parsable -H --wrap true; done) >"$T/ids.$k" &
		loops="$loops $!"
	done
	wait $loops # not a bare wait: sluiced is our child too
}
echo "# squeue bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) jobs=$N"
submit_loops "$B/sbatch"
echo "sluice: pending $("$B/squeue" -h -t PD | wc -l), output $("$B/squeue" | wc -c) bytes"
echo "sluice: squeue (default format)             $(median "$B/squeue") s"
echo "sluice: squeue -h -t PD | wc -l             $(median "$B/squeue -h -t PD | wc -l") s"
if [ -n "${OLD:-}" ]; then
	old=$(cd "$OLD" && pwd)/bin/squeue
	cmp -s <("$old") <("$B/squeue") || echo "sluice: the two builds' outputs differ"
	for r in $(seq 11); do # alternated, so that a busy moment hits both
		s=$(now); "$old" >/dev/null; e=$(now); echo "old $s $e"
		s=$(now); "$B/squeue" >/dev/null; e=$(now); echo "new $s $e"
	done | awk 'function med(a, k,  i, j, x) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
			return a[int((k + 1) / 2)] }
		{ t[$1, ++n[$1]] = $3 - $2 }
		END { for (i = 1; i <= n["old"]; i++) o[i] = t["old", i]
		      for (i = 1; i <= n["new"]; i++) w[i] = t["new", i]
		      printf "sluice: squeue, old build %.4f s, this build %.4f s (alternated)\n",
			     med(o, n["old"]), med(w, n["new"]) }'
fi
if [ $slurm = 1 ]; then
	u=${SLURM_USER:-alice}
	mkdir -p "$T/slurm" && chmod 1777 "$T/slurm"
	cd "$T/slurm"
	submit_loops "runuser -u $u -- /usr/bin/sbatch -o /dev/null"
	cat "$T"/ids.* | cut -d';' -f1 >"$slurm_ids"
	echo "slurm:  pending $(/usr/bin/squeue -h -u "$u" -t PD | wc -l), output $(/usr/bin/squeue -u "$u" | wc -c) bytes"
	echo "slurm:  squeue -u $u (default format)      $(median "/usr/bin/squeue -u $u") s"
	# In turn, the ratio pair by pair: a drifting host compares fairly.
	echo "paired: sluice (A) / slurm (B): $(paired 21 "'$B/squeue'" "/usr/bin/squeue -u $u")"
fi
