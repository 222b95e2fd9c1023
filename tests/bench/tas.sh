#!/bin/sh
# Kueue's TAS scheduler performance test (15 000 workloads on 640 nodes;
# Kueue needs 401 s of wall time) on the admission engine alone, on
# simulated time: tests/bench/sched_tas.c, built optimised against the
# libraries of a build tree. Run on demand, never from make check:
#   sh tests/bench/tas.sh BUILD_DIR [--no-check]
# --no-check skips the per-instant check that no host holds more than its
# cpu (it reads every running workload's assignment back).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tas.sh BUILD_DIR [--no-check]}
shift
tmp=$(mktemp -d /tmp/sl-tas-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
gcc -O2 -D_GNU_SOURCE -std=c11 -I"$build" -I"$top" -iquote "$top/libbatch" -iquote "$top/compat" \
	"$top/tests/bench/sched_tas.c" "$build/compat/libcompat.a" "$build/libbatch/libbatch.a" \
	$(pkg-config --cflags --libs yaml-0.1 json-c) -lm -o "$tmp/sched_tas"
"$tmp/sched_tas" "$@"
