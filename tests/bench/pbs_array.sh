#!/bin/bash
# PBS arrays' benchmark (issue 13; on demand, not part of make check):
#   p1  qsub -h -J 1-10000: one submission of 10,000 subjobs
#   p2  qstat (the array as one line "N[]")
#   p3  qstat -t (10,001 lines), p4 qstat -t N[]
#   p5  qstat -f N[] (array_indices_remaining and array_state_count over
#       10,000 subjobs), p6 qselect -J -T
#   p7  qdel N[]
# Best of 5 wall times. No PBS server exists here to compare with.
# Usage: tests/bench/pbs_array.sh [BUILD_DIR]   (default ./build)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
B="$build/bin"
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
. "$top/tests/integration/conf.sh"
write_conf "maxArraySize: 10001"
export SLUICE_CONF="$T/sluice.yaml" SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd"
"$build/bin/sluiced/sluiced" -D -f "$SLUICE_CONF" 2>"$T/log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$T"' EXIT
until "$B/squeue" -h >/dev/null 2>&1; do sleep 0.05; done
cd "$T"
now() { date +%s.%N; }
best() { # best-of-5 wall time of a shell command, in seconds
	b=""
	for r in 1 2 3 4 5; do
		s=$(now); bash -c "$1" >/dev/null 2>&1; e=$(now)
		b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN {t = e - s; if (b == "" || t < b) b = t; printf "%.3f", b}')
	done
	echo "$b"
}
line() { printf '%-4s %-44s %8s s\n' "$1" "$2" "$3"; }
echo "# sluice PBS array bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc)"

s=$(now); id=$("$B/qsub" -h -J 1-10000 -- /bin/true); e=$(now)
line p1 "qsub -h -J 1-10000 (10,000 subjobs)" "$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')"
echo "     lines: $("$B/qstat" | wc -l) qstat, $("$B/qstat" -t | wc -l) with -t"
line p2 "qstat" "$(best "'$B/qstat'")"
line p3 "qstat -t (10,001 lines)" "$(best "'$B/qstat' -t")"
line p4 "qstat -t N[]" "$(best "'$B/qstat' -t '$id'")"
line p5 "qstat -f N[]" "$(best "'$B/qstat' -f '$id'")"
line p6 "qselect -J -T (10,001 ids)" "$(best "'$B/qselect' -J -T")"
s=$(now); "$B/qdel" "$id"; e=$(now)
line p7 "qdel N[] (10,000 subjobs)" "$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')"
