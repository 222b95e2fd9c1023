#!/bin/sh
# Replay speed: `sluice replay` over a synthetic GPU trace of N jobs
# (default 1 000 000) under one queue, then under FCFS. Run on demand:
#   sh tests/bench/replay.sh BUILD_DIR [N]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: replay.sh BUILD_DIR [N]}
n=${2:-1000000}
tmp=$(mktemp -d /tmp/sl-replay-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/bench/replay_trace.py" "$n" 1 >"$tmp/trace"
for policy in kueue fcfs; do
	s=$(date +%s.%N)
	"$build/bin/sluice" replay "$tmp/trace" --config "$top/tests/data/replay/gpu100.yaml" \
		--policy "$policy" >"$tmp/out"
	e=$(date +%s.%N)
	printf 'replay %s jobs, policy %s (with history and kueue): %.2f s\n' "$n" "$policy" \
		"$(echo "$e - $s" | bc)"
done
