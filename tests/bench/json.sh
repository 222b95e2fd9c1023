#!/bin/sh
# json.sh [N] - the cost of the --json documents: N held jobs (2000 by
# default) in a private sluiced, then the wall time of squeue (default
# format), squeue --json, sacct -P and sacct --json over all of them, best
# of three, with the documents' sizes. Not part of `make check` (timings on
# a shared host lie); run as root from the build tree:
#   top_srcdir=SRC top_builddir=BUILD sh SRC/tests/bench/json.sh 2000
# When real Slurm's squeue is installed (/usr/bin/squeue), its --json over
# the jobs it holds is timed too, with their count.
. "$top_srcdir/tests/integration/lib.sh"
N=${1:-2000}
make_users
start_daemon
cd "$T/work"
i=0
while [ $i -lt "$N" ]; do "$BIN/sbatch" -Q -H --wrap true || fail "sbatch"; i=$((i + 1)); done
ids=$(seq -s, 1 "$N")
best() { # best WHAT CMD...: the least of three wall times, in seconds
	what=$1; shift
	b=""
	for k in 1 2 3; do
		t0=$(date +%s.%N); "$@" >out.txt; t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc)
		[ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ] && b=$t
	done
	printf '%-28s %6.3f s %9d bytes\n' "$what" "$b" "$(wc -c <out.txt)"
}
echo "$N jobs in sluiced:"
best "squeue" "$BIN/squeue"
best "squeue --json" "$BIN/squeue" --json
best "sacct -P -j ALL" "$BIN/sacct" -P -a -j "$ids"
best "sacct --json -j ALL" "$BIN/sacct" --json -a -j "$ids"
if [ -x /usr/bin/squeue ] && /usr/bin/squeue -h >/dev/null 2>&1; then
	echo "real Slurm, $(/usr/bin/squeue -h -t all | wc -l) jobs:"
	best "squeue --json (Slurm)" /usr/bin/squeue --json
fi
