#!/bin/sh
# Sluice in three minutes: install what is missing, build, start sluiced on
# the local executor with etc/sluice.yaml, submit examples/*.sbatch with the
# real sbatch and examples/*.pbs with qsub, watch squeue and qstat, print the
# jobs' output and sacct, stop.
set -eu
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
. tests/deps.sh

say() { printf '\n==> %s\n' "$*"; }

say "checking Debian packages"
sluice_install_missing $SLUICE_BUILD_DEPS

say "building (autotools, out of tree in ./build)"
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
mkdir -p build
if [ ! -f build/Makefile ]; then
	(cd build && ../configure --quiet >/dev/null)
fi
make -s -C build -j"$(nproc)" >/dev/null
B="$top/build/bin"

say "starting sluiced (config etc/sluice.yaml, log run/sluiced.log)"
mkdir -p run/out
export SLUICE_CONF="$top/etc/sluice.yaml"
export SLUICE_STEPD="$top/build/bin/sluice-stepd/sluice-stepd"
if [ -S run/sluiced.sock ] && "$B/squeue" -h >/dev/null 2>&1; then
	echo "a sluiced is already running on run/sluiced.sock: using it"
	started=""
else
	"$top/build/bin/sluiced/sluiced" -D -f "$SLUICE_CONF" >>run/sluiced.log 2>&1 &
	started=$!
	trap 'kill -TERM $started 2>/dev/null || true' EXIT INT TERM
	i=0
	until [ -S run/sluiced.sock ] && "$B/squeue" -h >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$started" 2>/dev/null; then
			echo "sluiced did not start; run/sluiced.log says:" >&2
			tail -n 20 run/sluiced.log >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "sluiced is up (pid $started)"
fi

say "submitting examples/*.sbatch from run/out"
cd run/out
ids=""
for s in "$top"/examples/*.sbatch; do
	printf '$ sbatch %s\n' "examples/$(basename "$s")"
	out=$("$B/sbatch" "$s")
	echo "$out"
	ids="$ids ${out##* }"
done

say "submitting examples/*.pbs with qsub, on the same queue"
for s in "$top"/examples/*.pbs; do
	printf '$ qsub %s\n' "examples/$(basename "$s")"
	out=$("$B/qsub" "$s")
	echo "$out"
	ids="$ids ${out%%[.[]*}" # "12.host", or an array's "12[].host"
done

say "squeue and qstat while they run: the same jobs"
"$B/squeue"
"$B/qstat"
t=0
while [ -n "$("$B/squeue" -h -j "$(echo $ids | tr ' ' ,)" 2>/dev/null)" ]; do
	sleep 1
	t=$((t + 1))
	[ $((t % 2)) -eq 0 ] && "$B/squeue"
	if [ $t -gt 150 ]; then echo "jobs still running after 150 s" >&2; break; fi
done

say "the jobs' output files"
for f in *.out *.err *.o[0-9]* *.e[0-9]*; do
	[ -f "$f" ] || continue
	printf -- '--- run/out/%s\n' "$f"
	cat "$f"
done

say "sacct"
"$B/sacct" -j "$(echo $ids | tr ' ' ,)"

if [ -n "$started" ]; then
	say "stopping sluiced"
	kill -TERM "$started"
	wait "$started" 2>/dev/null || true
	trap - EXIT INT TERM
fi
say "done. Next: ./test.sh runs the whole test suite."
