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
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
top_srcdir=$top
top_builddir=$(cd "${1:-$top/build}" && pwd)
. "$top/tests/integration/lib.sh" # a private sluiced, stopped on exit
write_conf "maxArraySize: 10001"
start_daemon
cd "$T"
TIMEFORMAT=%R
best() { # the best of 5 runs of a command line, in seconds
	for r in 1 2 3 4 5; do { time bash -c "$1" >/dev/null 2>&1; } 2>&1; done | sort -n | head -n1
}
once() { { time "$@" >/dev/null 2>&1; } 2>&1; }
line() { printf '%-4s %-44s %8s s\n' "$1" "$2" "$3"; }
echo "# sluice PBS array bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc)"

line p1 "qsub -h -J 1-10000 (10,000 subjobs)" "$(once "$BIN/qsub" -h -J 1-10000 -- /bin/true)"
id=$("$BIN/qselect" -J)
echo "     lines: $("$BIN/qstat" | wc -l) qstat, $("$BIN/qstat" -t | wc -l) with -t"
line p2 "qstat" "$(best "'$BIN/qstat'")"
line p3 "qstat -t (10,001 lines)" "$(best "'$BIN/qstat' -t")"
line p4 "qstat -t N[]" "$(best "'$BIN/qstat' -t '$id'")"
line p5 "qstat -f N[]" "$(best "'$BIN/qstat' -f '$id'")"
line p6 "qselect -J -T (10,001 ids)" "$(best "'$BIN/qselect' -J -T")"
line p7 "qdel N[] (10,000 subjobs)" "$(once "$BIN/qdel" "$id")"
