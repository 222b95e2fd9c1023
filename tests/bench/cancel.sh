#!/bin/bash
# scancel over many pending jobs. Run on demand, not by make check
# (timings on a loaded host lie).
#   - for each N, a private sluiced whose one ClusterQueue has a single cpu,
#     taken by a running job; two arrays of N/2 one-cpu tasks and P plain
#     jobs (default 100) then wait behind it, N + P in the admission
#     engine, queued as: the first array, the plain jobs (--nice=5), the
#     second array (--nice=10);
#   - three ways to cancel them, each on a daemon of its own:
#       user  scancel -u $USER -t PD (all N + P)
#       ids   scancel A_0 A_1 ... J ... B_0 ... (all N + P by id, one request)
#       some  scancel of every 20th task and every 5th plain job by id
#     The command's wall and CPU time (bash's time) and sluiced's CPU over
#     the cancel (/proc, utime+stime) are printed, and the script checks
#     that the others still wait;
#   - with OLD=BUILD_DIR of an older build, each case runs on it first, on
#     the same jobs, and the two builds' squeue -t all and sacct listings
#     afterwards (every job's state and reason) must be the same. The plain
#     jobs are there for that: an array task cancelled while others of its
#     array wait leaves no record, as in Slurm.
# Before each cancel sluiced explains the pending job (the reason Slurm keeps
# for it: Resources, Priority), which asks the engine for its position.
# Usage: [OLD=DIR] [NS="5000 10000 20000"] [P=100] [HOWS="user ids some"]
#        tests/bench/cancel.sh [BUILD_DIR]    (default ./build)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
NS=${NS:-5000 10000 20000}
P=${P:-100}
HOWS=${HOWS:-user ids some}
old=${OLD:+$(cd "$OLD" && pwd)}
hz=$(getconf CLK_TCK)
. "$top/tests/integration/conf.sh"
out=$(mktemp -d /tmp/sl-bench-out.XXXXXX)
trap 'rm -rf "$out"' EXIT

cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

# The daemon's end, whatever ends the case: a job outlives a killed sluiced
# (the next one adopts it), so the running one is cancelled first.
stop() {
	local tries=50
	"$build/bin/scancel" -u "$(id -un)" 2>/dev/null || :
	while [ $((tries -= 1)) -gt 0 ] && [ -n "$("$build/bin/squeue" -h -t R,CG 2>/dev/null)" ]; do
		sleep 0.1
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -rf "$T"
}

# one BUILD N HOW TAG: a daemon, the jobs, the cancel; prints the figures
# and leaves the listings in $out/TAG.*
one() {
	local b=$1 n=$2 how=$3 tag=$4 B="$1/bin" a1 a2 c0 c1 want i
	build=$b T=$(mktemp -d /tmp/sl-bench.XXXXXX)
	CPUS=1 write_conf "maxArraySize: $((n + 1))
minJobAge: 3600"
	start_bench_daemon
	trap stop EXIT
	cd "$T"
	"$B/sbatch" --parsable -c 1 --wrap 'sleep 1000' >/dev/null
	until [ "$("$B/squeue" -h -t R | wc -l)" = 1 ]; do sleep 0.1; done
	a1=$("$B/sbatch" --parsable -c 1 --array=0-$((n / 2 - 1)) --wrap true)
	for ((i = 0; i < P; i++)); do
		"$B/sbatch" --parsable -c 1 --nice=5 --wrap true
	done >"$T/plain"
	a2=$("$B/sbatch" --parsable -c 1 --nice=10 --array=0-$((n / 2 - 1)) --wrap true)
	case $how in
	user) set -- -u "$(id -un)" -t PD ;;
	ids) set -- $(seq -f "${a1}_%g" 0 $((n / 2 - 1))) $(cat "$T/plain") \
		    $(seq -f "${a2}_%g" 0 $((n / 2 - 1))) ;;
	some) set -- $(seq -f "${a1}_%g" 0 20 $((n / 2 - 1))) $(awk 'NR % 5 == 1' "$T/plain") \
		     $(seq -f "${a2}_%g" 0 20 $((n / 2 - 1))) ;;
	esac
	local k=$#
	[ "$how" != user ] || k=$((n + P))
	want=$((n + P - k))
	sleep 1 # the first cycles settle: every task tried or parked
	c0=$(cpu)
	TIMEFORMAT='%R %U %S'
	{ time "$B/scancel" "$@" >/dev/null 2>&1; } 2>"$T/time"
	sleep 0.3 # the turn after the reply (the cycle) counts too
	c1=$(cpu)
	local left
	left=$("$B/squeue" -h -r -t PD | wc -l)
	[ "$left" = "$want" ] || { echo "cancel.sh: $left jobs pending, $want expected" >&2; exit 1; }
	# squeue sorted: it orders ended jobs by their end, a second that a
	# slow cancel crosses where a fast one does not; for the same reason
	# sacct's records of an array's cancelled tasks fold differently, so
	# only those of the plain jobs are compared
	"$B/squeue" -h -t all -r -o '%i %T %r' | sort >"$out/$tag.squeue"
	"$B/sacct" -n -X -o JobID,State,Reason | grep -v '^[0-9]*_' >"$out/$tag.sacct"
	read -r wall u s <"$T/time"
	printf '%-5s %6d %-5s %6d %9.3f %9.3f %9.3f\n' "${tag%%.*}" $((n + P)) "$how" "$k" "$wall" \
		"$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')" \
		"$(awk -v a="$c0" -v b="$c1" -v hz="$hz" 'BEGIN {print (b - a) / hz}')"
}

echo "# cancel bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) load=$(cut -d' ' -f1 /proc/loadavg)"
printf '%-5s %6s %-5s %6s %9s %9s %9s\n' build pend how K 'wall s' 'cmd cpu' 'sluiced'
for n in $NS; do
	for how in $HOWS; do
		if [ -n "$old" ]; then
			(one "$old" "$n" "$how" "old.$n.$how")
			(one "$build" "$n" "$how" "new.$n.$how")
			for f in squeue sacct; do
				cmp -s "$out/old.$n.$how.$f" "$out/new.$n.$how.$f" ||
					{ echo "cancel.sh: the builds' $f listings differ ($n $how)" >&2; exit 1; }
			done
		else
			(one "$build" "$n" "$how" "this.$n.$how")
		fi
	done
done
