#!/bin/sh
# replay.sh - every fuzz harness over its seed corpus, tests/fuzz/corpus/NAME
# (real inputs from tests/data and the reproducers of every crash the fuzzer
# found): a crash, a sanitizer report or a leak fails. Run by `make check`
# (replay.c's main) and by `make fuzz-replay` (libFuzzer's: same arguments).
# Every harness source needs its corpus, and every corpus its harness.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
dir="$top_srcdir/tests/fuzz"
fail=0
for src in "$dir"/fuzz_*.c; do
	h=$(basename "$src" .c)
	h=${h#fuzz_}
	[ -d "$dir/corpus/$h" ] || { echo "FAIL: fuzz/$h: no corpus/$h"; fail=1; }
done
for c in "$dir"/corpus/*/; do
	h=$(basename "$c")
	prog="$top_builddir/tests/fuzz/fuzz_$h"
	if [ ! -x "$prog" ]; then
		echo "FAIL: fuzz/$h: $prog was not built"
		fail=1
		continue
	fi
	n=$(find "$c" -type f | wc -l)
	start=$(date +%s)
	# (libFuzzer's main writes the crashing input there; replay.c's ignores it)
	if out=$("$prog" -runs=0 -timeout=10 -artifact_prefix="${TMPDIR:-/tmp}/sluice-fuzz-$h-" "$c" 2>&1); then
		echo "ok - fuzz/$h: $n inputs ($(($(date +%s) - start)) s)"
	else
		echo "$out" | tail -n 40
		echo "FAIL: fuzz/$h"
		fail=1
	fi
done
exit $fail
