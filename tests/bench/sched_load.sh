#!/bin/bash
# sched_load.sh - the daemon's side of sched_load (issue 11, hole 14): for
# each of sched_load's four configurations of 5 000 ClusterQueues, the wall
# time and peak RSS of `sluiced --check-config`, and the wall time from
# starting sluiced to its first answer (`squeue -h`) with its VmRSS then.
# Usage: tests/bench/sched_load.sh [--build BUILD_DIR] [--cqs N]
# (run on demand: `make bench-sched-load`; not part of make check).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
cqs=5000
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--cqs) cqs=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--cqs N]" >&2; exit 2 ;;
	esac
done
build=$(cd "$build" && pwd)
gen=$build/tests/bench/sched_load
[ -x "$gen" ] || { echo "$0: build $gen first (make tests/bench/sched_load)" >&2; exit 2; }
T=$(mktemp -d /tmp/sl-load.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
export SLUICE_CONF="$T/sluice.yaml" SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd"

conf() { # conf NFLAVORS y|n: the configuration in $T/sluice.yaml
	cat >"$T/sluice.yaml" <<EOC
apiVersion: sluice.io/v1alpha1
kind: SluiceConfiguration
socket: $T/sock/sluiced.sock
stateDir: $T/state
executor: local
auth: none
accounts:
  "*": [general]
---
EOC
	"$gen" --cqs "$cqs" --emit "$1" "$2" >>"$T/sluice.yaml"
}

for c in "1 y" "500 n" "0 n" "0 y"; do
	set -- $c
	conf "$1" "$2"
	nfl=$1
	[ "$nfl" = 0 ] && nfl=$cqs
	echo "$cqs CQs, $nfl flavors, cohorts $2"
	/usr/bin/time -f "%e %M" -o "$T/time" "$build/bin/sluiced/sluiced" \
		--check-config "$T/sluice.yaml" >/dev/null
	read -r secs kib <"$T/time"
	awk -v s="$secs" -v k="$kib" \
		'BEGIN {printf "  sluiced --check-config  %.2f s, max RSS %.1f MiB\n", s, k / 1024}'
	rm -rf "$T/state" "$T/sock"
	s=$EPOCHREALTIME
	"$build/bin/sluiced/sluiced" -D -f "$T/sluice.yaml" 2>"$T/log" &
	pid=$!
	n=0
	until "$build/bin/squeue" -h >/dev/null 2>&1; do
		n=$((n + 1))
		if [ $n -gt 6000 ] || ! kill -0 $pid 2>/dev/null; then
			cat "$T/log" >&2
			exit 1
		fi
		sleep 0.01
	done
	e=$EPOCHREALTIME
	rss=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
	kill $pid
	wait $pid || true
	pid=
	awk -v s="$s" -v e="$e" -v r="$rss" \
		'BEGIN {printf "  sluiced start to first answer  %.2f s, VmRSS %s MiB\n", e - s, r}'
done
