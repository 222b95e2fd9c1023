#!/bin/bash
# drain.sh - issue 16's drain rate: how fast sluiced runs a burst of 5,000
# local `true` jobs submitted 50 at a time, from the first submit to the last
# job COMPLETED (jobs/s). Run on demand, not by make check:
#   tests/bench/drain.sh [--build DIR] [--runs K] [--jobs N] [--batch B]
#       [--state-shm] [--sbatch] [--slurm] [--floor] [--tiny] [--perf] [--strace] [--keep]
# The daemon is private: tests/integration/conf.sh's write_conf with CPUS=N so
# that quota never holds a job back. Submitting goes through the client
# library (tests/bench/drain.c: B threads, one submit each per batch), since
# B sbatch processes per batch cost as much CPU as sluiced does; --sbatch
# submits with `sbatch --wrap true` processes instead (B in parallel, then
# wait) and times the same span. --slurm runs the --sbatch variant against
# the real Slurm on this machine (its jobs are cancelled by id if the run
# times out), as $SLURM_USER when set (runuser), else as the caller. --runs K repeats on a fresh daemon and prints the median.
# --floor first runs the same job script N times with no batch system, one
# loop per CPU (bash forks and execs it), and prints its rate and CPU per
# job: the fork/exec floor on this host under its current load, so that a
# rate can be read as a fraction of it.
# --tiny makes each job `#!TINY`, TINY a static program without libc that
# only exits (built here with cc -nostdlib -static), for the floor too: the
# dynamic loader's start-up (cpuid probing, which traps on a VM) is then out
# of both, and what remains per job is Sluice's own cost.
# --perf records sluiced and all it starts with `perf record -g`, --strace
# counts sluiced's own system calls (strace -c); both into the run
# directory, shown at the end.
set -u -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build="$top/build"
runs=1 njobs=5000 batch=50 state_shm=0 use_sbatch=0 slurm=0 use_perf=0 use_strace=0 keep=0 floor=0 tiny=0
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--jobs) njobs=$2; shift 2 ;;
	--batch) batch=$2; shift 2 ;;
	--state-shm) state_shm=1; shift ;;
	--sbatch) use_sbatch=1; shift ;;
	--slurm) slurm=1; use_sbatch=1; shift ;;
	--floor) floor=1; shift ;;
	--tiny) tiny=1; shift ;;
	--perf) use_perf=1; shift ;;
	--strace) use_strace=1; shift ;;
	--keep) keep=1; shift ;;
	*) echo "drain.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
build=$(cd "$build" && pwd) || exit 2
T=$(mktemp -d /tmp/sl-bench-drain.XXXXXX)
chmod 0755 "$T"
DPID="" TPID="" slurm_ids=""

stop_daemon() {
	if [ -n "$TPID" ]; then kill -INT "$TPID" 2>/dev/null; wait "$TPID" 2>/dev/null; TPID=""; fi
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
		while kill -0 "$DPID" 2>/dev/null; do sleep 0.02; done
	fi
	[ -n "${PERFPID:-}" ] && wait "$PERFPID" 2>/dev/null
	DPID="" PERFPID=""
	# Supervisors outlive the daemon by design: end this run's, by pid.
	for p in $(pgrep -f "sluice-stepd $T/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
}
cleanup() {
	stop_daemon
	[ -n "$slurm_ids" ] && /usr/bin/scancel $slurm_ids 2>/dev/null # ours alone, by id
	if [ $keep = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT

now() { date +%s.%N; }

interp=""
if [ $tiny = 1 ]; then
	[ $use_sbatch = 1 ] && { echo "drain.sh: --tiny is for the client-library runs" >&2; exit 2; }
	printf 'void _start(void) { __asm__ volatile("mov $231, %%eax; xor %%edi, %%edi; syscall"); }\n' >"$T/tiny.c"
	cc -O2 -nostdlib -static -o "$T/tiny" "$T/tiny.c" || { echo "drain.sh: cannot build tiny" >&2; exit 2; }
	interp="$T/tiny"
fi

# One run with sbatch processes against whatever sbatch/squeue $1 names
# (sluice's or Slurm's). Prints the same line as drain.c.
run_sbatch() {
	local bin=$1 out="$T/ids" t0 t1 t2 left pids as=""
	[ $slurm = 1 ] && [ -n "${SLURM_USER:-}" ] && as="runuser -u $SLURM_USER --"
	: >"$out"
	t0=$(now)
	for ((b = 0; b < njobs; b += batch)); do
		pids=""
		for ((i = b; i < b + batch && i < njobs; i++)); do
			$as "$bin/sbatch" --parsable -o /dev/null -D /tmp --wrap true >>"$out" &
			pids="$pids $!"
		done
		wait $pids # not a bare wait: sluiced is our child too
	done
	t1=$(now)
	slurm_ids=$([ $slurm = 1 ] && tr '\n' ' ' <"$out")
	while :; do
		left=$($as "$bin/squeue" -h -j "$(paste -sd, "$out")" -t PD,CF,R,CG 2>/dev/null | wc -l)
		[ "$left" = 0 ] && break
		awk -v a="$t0" -v b="$(now)" 'BEGIN { exit !(b - a > 600) }' && {
			echo "drain.sh: $left jobs unfinished after 600 s" >&2; return 1; }
		sleep 0.02
	done
	t2=$(now)
	slurm_ids=""
	awk -v n="$(wc -l <"$out")" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
		printf "jobs %d submit %.3f s drain %.3f s rate %.0f jobs/s\n", n, b - a, c - a, n / (c - a) }'
}

start_daemon() {
	rm -rf "$T/state" "$T/sock" "$state"
	mkdir -p "$state"
	write_conf "minJobAge: 600"
	sed -i "s#^stateDir: .*#stateDir: $state#" "$T/sluice.yaml"
	# Under perf stat: the task-clock of sluiced and of everything it
	# starts (fork server, supervisors, job scripts), reaped or not, so
	# that the CPU a job costs is known on a host other users load too.
	# --perf: perf record the same way, from the start, children included.
	if [ $use_strace = 0 ] && command -v perf >/dev/null; then
		if [ $use_perf = 1 ]; then
			perf record -g -o "$T/perf.data" -- \
				"$build/bin/sluiced/sluiced" -D -f "$SLUICE_CONF" >>"$T/sluiced.log" 2>&1 &
		else
			perf stat -e task-clock -x, -o "$T/cpu.txt" -- \
				"$build/bin/sluiced/sluiced" -D -f "$SLUICE_CONF" >>"$T/sluiced.log" 2>&1 &
		fi
		PERFPID=$!
		i=0
		until DPID=$(pgrep -P "$PERFPID" sluiced); do
			i=$((i + 1)); [ $i -lt 100 ] || { echo "sluiced did not start" >&2; exit 1; }
			sleep 0.02
		done
	else
		"$build/bin/sluiced/sluiced" -D -f "$SLUICE_CONF" >>"$T/sluiced.log" 2>&1 &
		DPID=$! PERFPID=""
	fi
	local i=0
	until "$build/bin/squeue" -h >/dev/null 2>&1; do
		i=$((i + 1))
		kill -0 "$DPID" 2>/dev/null || { echo "sluiced exited at start:" >&2; tail "$T/sluiced.log" >&2; exit 1; }
		[ $i -lt 100 ] || { echo "sluiced did not answer within 10 s" >&2; stop_daemon; exit 1; }
		sleep 0.1
	done
	if [ $use_strace = 1 ]; then
		strace -c -o "$T/strace.txt" -p "$DPID" 2>/dev/null &
		TPID=$!
		sleep 0.5
	fi
}

run_floor() {
	local cpus t0 t1
	cpus=$(nproc)
	if [ -n "$interp" ]; then
		printf '#!%s\n' "$interp" >"$T/floor.sh"
	else
		printf '#!/bin/sh\n# This script was created by sbatch --wrap.\n\ntrue\n' >"$T/floor.sh"
	fi
	chmod +x "$T/floor.sh"
	t0=$(now)
	perf stat -e task-clock -x, -o "$T/floor.txt" -- bash -c '
		for ((w = 0; w < $1; w++)); do
			(for ((i = w; i < $2; i += $1)); do "$3"; done) &
		done
		wait' floor "$cpus" "$njobs" "$T/floor.sh"
	t1=$(now)
	awk -F, -v n="$njobs" -v a="$t0" -v b="$t1" -v c="$cpus" '$3 == "task-clock" {
		printf "floor: %d x fork+exec of the job script, %d loops: %.3f s, %.0f jobs/s, all %.3f ms/job\n",
			n, c, b - a, n / (b - a), $1 / n }' "$T/floor.txt"
}
[ $floor = 1 ] && run_floor

if [ $slurm = 1 ]; then
	echo "# real Slurm: $njobs x sbatch --wrap true, $batch at a time, $runs run(s)"
	for ((r = 0; r < runs; r++)); do run_sbatch /usr/bin || exit 1; done | tee "$T/runs.txt"
else
	. "$top/tests/integration/conf.sh"
	export SLUICE_CONF="$T/sluice.yaml" SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd"
	export SLUICE_CONNECT_TIMEOUT=10
	[ -x "$build/bin/sluiced/sluiced" ] && [ -x "$SLUICE_STEPD" ] || {
		echo "no sluiced/sluice-stepd in $build" >&2; exit 2; }
	state="$T/state"
	[ $state_shm = 1 ] && state=/dev/shm/$(basename "$T")-state
	export CPUS=$((njobs + 8))
	prog="$build/tests/bench/drain"
	[ -x "$prog" ] || make -C "$build" -s tests/bench/drain >/dev/null || exit 2
	how="client library, $batch threads"
	[ $use_sbatch = 1 ] && how="sbatch processes, $batch in parallel"
	echo "# sluiced: $njobs local true jobs, $batch at a time ($how), $runs run(s)$([ $state_shm = 1 ] && echo ', state on /dev/shm')"
	for ((r = 0; r < runs; r++)); do
		start_daemon
		if [ $use_sbatch = 1 ]; then
			run_sbatch "$build/bin" | tr -d '\n' || { stop_daemon; exit 1; }
		else
			${DRAIN_ENV:-} "$prog" -s "$T/sock/sluiced.sock" -n "$njobs" -b "$batch" ${interp:+-x "$interp"} | tr -d '\n' || { stop_daemon; exit 1; }
		fi
		# sluiced's own CPU (its loop is single-threaded: the ceiling) in
		# clock ticks, then, after it ends, all of it with its descendants.
		own=$(awk '{ print $14 + $15 }' "/proc/$DPID/stat")
		stop_daemon
		touch "$T/cpu.txt" # none without perf: the sluiced figure alone
		awk -F, -v n="$njobs" -v own="$own" -v hz="$(getconf CLK_TCK)" '
			$3 == "task-clock" { all = $1 }
			END {
				printf " sluiced %.3f ms/job", own * 1000 / hz / n
				if (all != "") printf " all %.3f ms/job", all / n
				printf "\n" }' "$T/cpu.txt" 2>/dev/null
		rm -f "$T/cpu.txt"
	done | tee "$T/runs.txt"
	[ $state_shm = 1 ] && rm -rf "$state"
fi
[ "$runs" -gt 1 ] && sort -k10 -n "$T/runs.txt" | awk '{ r[NR] = $10 } END {
	printf "median rate %d jobs/s (min %d, max %d, %d runs)\n", r[int((NR + 1) / 2)], r[1], r[NR], NR }'
if [ $use_perf = 1 ] && [ -f "$T/perf.data" ]; then
	echo "--- perf report: CPU by process (sluiced, its fork server and supervisors, the jobs)"
	perf report -i "$T/perf.data" --no-children --sort comm --stdio 2>/dev/null |
		grep -E '^ +[0-9]' | head -8
	echo "--- perf report (all of them, self, top 30)"
	perf report -i "$T/perf.data" --no-children --sort comm,dso,symbol --stdio 2>/dev/null |
		grep -E '^ +[0-9]' | head -30
fi
if [ $use_strace = 1 ] && [ -f "$T/strace.txt" ]; then
	echo "--- strace -c (sluiced alone)"
	head -30 "$T/strace.txt"
fi
if [ -f "$T/sluiced.log" ]; then
	n=$(grep -ciE 'error|warn' "$T/sluiced.log")
	[ "$n" != 0 ] && { echo "--- sluiced.log: $n error or warning lines"; grep -iE 'error|warn' "$T/sluiced.log" | head -5; }
fi
exit 0
