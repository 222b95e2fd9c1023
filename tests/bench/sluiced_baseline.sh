#!/bin/bash
# sluiced_baseline.sh - Kueue's scheduler performance "baseline" against the
# whole sluiced on real time (issue 3, benchmark part 2). Writes a private
# configuration (5 cohorts x 6 ClusterQueues, WorkloadPriorityClasses small,
# medium and large), starts sluiced on it, runs the C submitter
# (sluiced_baseline.c), and prints its figures plus what the daemon logged.
# Run on demand, not by make check:
#   tests/bench/sluiced_baseline.sh [--build DIR] [--state-shm] [--keep]
#       [--perf] [--shell] [-- sluiced_baseline options: --scale 0.1 ...]
# Each job sleeps for its runtime as tests/bench/sleeper.c (`#!sleeper
# SECONDS`), a program that does nothing else, so what is measured is the
# batch system; --shell runs `#!/bin/sh` + `sleep` instead (1.5 ms of CPU a
# job on this VM). --light, the default, is still accepted. --state-shm puts
# the state directory on /dev/shm; --perf records sluiced with `perf record
# -g` into the run directory.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build="$top/build"
state_shm=0 keep=0 use_perf=0 light=1
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--state-shm) state_shm=1; shift ;;
	--keep) keep=1; shift ;;
	--perf) use_perf=1; shift ;;
	--light) light=1; shift ;;
	--shell) light=0; shift ;;
	--) shift; break ;;
	*) break ;;
	esac
done
build=$(cd "$build" && pwd) || exit 2
SLUICED="$build/bin/sluiced/sluiced"
export SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd"
export SLUICE_CONNECT_TIMEOUT=10
[ -x "$SLUICED" ] && [ -x "$SLUICE_STEPD" ] || { echo "no sluiced/sluice-stepd in $build" >&2; exit 2; }

T=$(mktemp -d /tmp/sl-bench-sluiced.XXXXXX)
chmod 0755 "$T"
state="$T/state"
if [ $state_shm = 1 ]; then
	state=$(mktemp -d /dev/shm/sl-bench-state.XXXXXX)
fi
export SLUICE_CONF="$T/sluice.yaml"
DPID="" PPID_PERF=""

cleanup() {
	if [ -n "$PPID_PERF" ]; then kill -INT "$PPID_PERF" 2>/dev/null; wait "$PPID_PERF" 2>/dev/null; fi
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
	fi
	# Supervisors outlive the daemon by design: end this run's, by pid.
	for p in $(pgrep -f "sluice-stepd $T/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	[ $state_shm = 1 ] && rm -rf "$state"
	if [ $keep = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT

# The submitter: the build's, else compiled here against that build's
# library and its source tree's headers (struct layouts must agree).
prog="$build/tests/bench/sluiced_baseline"
if [ ! -x "$prog" ]; then
	src=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
	prog="$T/sluiced_baseline"
	gcc -O2 -D_GNU_SOURCE -std=c11 -I"$src" -iquote "$src/libbatch" -iquote "$src/compat" \
		"$top/tests/bench/sluiced_baseline.c" "$build/libbatch/libbatch.a" \
		"$build/compat/libcompat.a" $(pkg-config --cflags --libs yaml-0.1 json-c) -lm -pthread \
		-o "$prog" || exit 2
fi

# What a job costs without any batch system: the sleeper alone, or with
# --shell the shell and its sleep (the kernel runs it as `sleeper SECONDS
# SCRIPT`; it ignores the script).
job_args=() what="a #!/bin/sh script running sleep"
printf '#!/bin/sh\nsleep 0\n' >"$T/calib.sh"
if [ $light = 1 ]; then
	gcc -O2 -static -nostdlib -fno-stack-protector -DSLEEPER_NOLIBC -o "$T/sleeper" \
		"$top/tests/bench/sleeper.c" 2>/dev/null ||
		gcc -O2 -static -o "$T/sleeper" "$top/tests/bench/sleeper.c" || exit 2
	printf '#!%s 0\n' "$T/sleeper" >"$T/calib.sh"
	job_args=(--sleeper "$T/sleeper") what="a #!sleeper script (tests/bench/sleeper.c)"
fi
chmod +x "$T/calib.sh"
calib() {
	T="$T" bash -c 'for _ in $(seq 200); do "$T/calib.sh"; done; times' | awk -v what="$what" 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "bare job cpu         %.2f ms (%s, without sluiced; mean of 200)\n",
			(u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1e3 / 200, what }'
}
calib_line=$(calib)

cqs=()
for c in 0 1 2 3 4; do for q in 0 1 2 3 4 5; do cqs+=("cq-0-$q-cohort-$c"); done; done
{
	cat <<EOC
apiVersion: sluice.io/v1alpha1
kind: SluiceConfiguration
socket: $T/sock/sluiced.sock
stateDir: $state
executor: local
auth: none
defaultPartition: ${cqs[0]}
killWait: 1
minJobAge: 600
clusterName: bench
accounts:
  "*": [$(IFS=,; echo "${cqs[*]}" | sed 's/,/, /g')]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
EOC
	for w in small:50 medium:100 large:200; do
		cat <<EOC
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: ${w%%:*}}
value: ${w##*:}
EOC
	done
	for n in "${cqs[@]}"; do
		cat <<EOC
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: $n}
spec:
  cohort: ${n#cq-0-?-}
  namespaceSelector: {}
  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 20, borrowingLimit: 100}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: $n, namespace: $n}
spec: {clusterQueue: $n}
EOC
	done
} >"$SLUICE_CONF"

"$SLUICED" -D -f "$SLUICE_CONF" >>"$T/sluiced.log" 2>&1 &
DPID=$!
i=0
until "$build/bin/squeue" -h >/dev/null 2>&1; do
	i=$((i + 1))
	kill -0 "$DPID" 2>/dev/null || { echo "sluiced exited at start:" >&2; tail "$T/sluiced.log" >&2; exit 1; }
	[ $i -lt 100 ] || { echo "sluiced did not answer within 10 s" >&2; exit 1; }
	sleep 0.1
done
if [ $use_perf = 1 ]; then
	perf record -g -o "$T/perf.data" -p "$DPID" >/dev/null 2>&1 &
	PPID_PERF=$!
	sleep 0.5
fi

echo "$calib_line"
echo "run directory $T (state $state$([ $state_shm = 1 ] && echo ', on /dev/shm'))"
start=$(date +%s.%N)
"$prog" --pid "$DPID" --csv "$T/jobs.csv" "${job_args[@]}" "$@" | tee "$T/report.txt"
rc=${PIPESTATUS[0]}
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "benchmark wall       %.1f s including the final record fetch\n", b - a }'

if [ -n "$PPID_PERF" ]; then
	kill -INT "$PPID_PERF" 2>/dev/null
	wait "$PPID_PERF" 2>/dev/null
	PPID_PERF=""
	echo "--- perf report (sluiced, self, top 25)"
	perf report -i "$T/perf.data" --no-children --sort symbol --stdio 2>/dev/null |
		grep -E '^ +[0-9]' | head -25
fi

echo "--- sluiced.log: $(wc -l <"$T/sluiced.log") lines"
grep -ciE 'error|warn' "$T/sluiced.log" | sed 's/^/error or warning lines: /'
grep -iE 'error|warn' "$T/sluiced.log" | sed -E 's/job [0-9]+/job N/g; s/[0-9]+(\.[0-9]+)?/#/g' |
	sort | uniq -c | sort -rn | head -15
exit $rc
