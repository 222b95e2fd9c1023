#!/bin/sh
# Run `sluice simulate` over every scenario; each must reach its expected
# end state (exit 0). Files named bad-*.yaml must be rejected with exit 2.
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
sluice=$builddir/bin/sluice
fail=0
n=0
for f in "$srcdir"/tests/scenarios/*.yaml; do
	n=$((n + 1))
	case $(basename "$f") in
	bad-*) want=2 ;;
	*) want=0 ;;
	esac
	"$sluice" simulate "$f" >/dev/null 2>"${TMPDIR:-/tmp}/sluice-scn.$$"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: $f: exit $rc, want $want"
		cat "${TMPDIR:-/tmp}/sluice-scn.$$"
		fail=$((fail + 1))
	fi
done
rm -f "${TMPDIR:-/tmp}/sluice-scn.$$"
echo "scenarios: $n run, $fail failed"
[ "$fail" -eq 0 ]
