#!/bin/sh
# The whole test suite: install what is missing, build with -Werror, run
# `make check` (unit, golden, scenarios, integration against the real
# sluiced), then rebuild with ASan/UBSan and run the unit tests under it.
# The last line is "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
. tests/deps.sh
sluice_install_missing $SLUICE_BUILD_DEPS $SLUICE_TEST_DEPS || exit 1

jobs=$(nproc 2>/dev/null || echo 2)
log() { printf '==> %s\n' "$*"; }
pass=0 fail=0

# Sum automake's test-suite.log summaries (a directory's, or a named log).
count() {
	f="$1"
	[ -d "$f" ] && f="$f/test-suite.log"
	if [ ! -f "$f" ]; then fail=$((fail + 1)); return; fi
	p=$(sed -n 's/^# PASS: *//p' "$f" | head -n1)
	x=$(sed -n 's/^# FAIL: *//p' "$f" | head -n1)
	e=$(sed -n 's/^# ERROR: *//p' "$f" | head -n1)
	xp=$(sed -n 's/^# XPASS: *//p' "$f" | head -n1)
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${x:-0} + ${e:-0} + ${xp:-0}))
}

log "autoreconf"
autoreconf -fi >/dev/null 2>&1 || { autoreconf -fi; echo "0 passed, 1 failed"; exit 1; }

log "build with -Werror (build-check/)"
mkdir -p build-check
(cd build-check && ../configure --quiet --enable-werror >/dev/null) &&
	make -s -C build-check -j"$jobs" >/dev/null || {
	make -C build-check 2>&1 | grep -E 'error|Error' | head -n 40
	echo "0 passed, 1 failed"
	exit 1
}

# ajv validates rendered manifests against the upstream CRDs; without npm
# that test skips rather than fails.
if command -v npm >/dev/null 2>&1; then
	npm ci --prefix tests/node --no-audit --no-fund >/dev/null 2>&1 ||
		log "npm ci failed: the CRD validation test will be skipped"
fi

log "make check"
# A stale log must never be counted: a check that cannot even build fails.
rm -f build-check/test-suite.log build-check/waiting-suite.log build-check/waiting.out
# The tests in WAITING_TESTS spend most of their time asleep (a time limit
# Slurm counts in whole minutes, a backoff), so they run one at a time in a
# lane of their own beside make check's $jobs lanes for the rest: the machine
# has room for them, and make check no longer waits on them. Every check
# program is built first, so the two runs share a tree neither rebuilds.
if make -C build-check -j"$jobs" check TESTS= >build-check/check.out 2>&1; then
	all=$(make -s --no-print-directory -C build-check print-tests | tail -n 1)
	waiting=$(make -s --no-print-directory -C build-check print-waiting-tests | tail -n 1)
	rest=$(for t in $all; do
		case " $waiting " in *" $t "*) ;; *) echo "$t" ;; esac
	done | tr '\n' ' ')
	make -C build-check check TESTS="$waiting" TEST_SUITE_LOG=waiting-suite.log \
		>build-check/waiting.out 2>&1 &
	wpid=$!
	make -C build-check -j"$jobs" check TESTS="$rest" >>build-check/check.out 2>&1
	wait "$wpid"
else
	grep -E 'error|Error' build-check/check.out | head -n 20 # counted as a failure below
fi
cat build-check/waiting.out >>build-check/check.out 2>/dev/null
grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' build-check/check.out
count build-check
count build-check/waiting-suite.log
for t in $(sed -n 's/^\(FAIL\|ERROR\): \(.*\)$/\2/p' build-check/check.out); do
	# automake names a test's log after the test without its .sh
	echo "---- ${t%.sh}.log (tail)"
	tail -n 40 "build-check/${t%.sh}.log" 2>/dev/null
done

log "unit tests under -fsanitize=address,undefined (build-asan/)"
mkdir -p build-asan
if (cd build-asan && ../configure --quiet --enable-sanitize >/dev/null) &&
	make -s -C build-asan -j"$jobs" >/dev/null 2>&1; then
	units=$(make -s --no-print-directory -C build-asan print-unit-tests 2>/dev/null | tail -n 1)
	rm -f build-asan/test-suite.log
	# k8s_race.sh too: only ASan sees its use-after-free deterministically.
	# kept.sh: the fork server's bookkeeping of the supervisors it keeps,
	# which a use-after-free under load would only crash now and then.
	# The scenarios too: the engine's out-of-bounds reads and UB crash
	# nothing in an ordinary build. The two longest go first, so that the
	# lanes do not end with one of them alone.
	ASAN_OPTIONS=detect_leaks=1 make -C build-asan -j"$jobs" check \
		TESTS="tests/integration/kept.sh tests/scenarios/run.sh tests/integration/k8s_race.sh $units" \
		>build-asan/check.out 2>&1
	grep -E '^(PASS|FAIL|ERROR|XPASS):' build-asan/check.out | sed 's/^/asan /'
	count build-asan
else
	make -C build-asan 2>&1 | grep -E "error|Error" | head -n 20
	echo "ASan build failed"
	fail=$((fail + 1))
fi

# Every fuzz corpus (tests/fuzz/corpus), replayed once through the harnesses
# with replay.c's main in build-asan/ (gcc, ASan and UBSan): the code under
# test is the build above, so this costs only the harnesses. Replaying needs
# no libFuzzer; `make fuzz` builds the clang tree when fuzzing for real, and
# a whole third build here would push CI past its 20 minutes on two cores.
log "fuzz corpora under -fsanitize=address,undefined"
rm -f build-check/fuzz.out
make -s -C build-asan -j"$jobs" fuzz-replay-here >build-check/fuzz.out 2>&1
grep -E '^(ok|FAIL)' build-check/fuzz.out
p=$(grep -c '^ok - fuzz/' build-check/fuzz.out)
x=$(grep -c '^FAIL' build-check/fuzz.out)
[ "$p" -gt 0 ] || { tail -n 30 build-check/fuzz.out; x=$((x + 1)); }
pass=$((pass + p))
fail=$((fail + x))

# distcheck asks whether the tarball is whole: it builds from it (at -O0,
# since code generation is not what it checks) and runs the unit tests that
# read files from the source tree, the ones a file missing from the tarball
# would break. The rest ran twice above already.
if [ "${SLUICE_DISTCHECK:-1}" = 1 ]; then
	log "make distcheck (unit tests that read the source tree)"
	units=$(make -s --no-print-directory -C build-check print-unit-tests | tail -n 1)
	data=$(cd tests/unit && grep -l -E 'srcdir|SRCDIR|tests/data' test_*.c test_*.sh | sed -e 's/\.c$//' -e 's|^|tests/unit/|')
	dtests=$(for t in $data; do case " $units " in *" $t "*) echo "$t" ;; esac; done | tr '\n' ' ')
	if make -s -C build-check -j"$jobs" distcheck TESTS="$dtests" \
		DISTCHECK_CONFIGURE_FLAGS='CFLAGS=-O0' \
		>build-check/distcheck.out 2>&1; then
		pass=$((pass + 1))
		echo "PASS: distcheck"
	else
		tail -n 30 build-check/distcheck.out
		echo "FAIL: distcheck"
		fail=$((fail + 1))
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
