#!/bin/sh
# sluice replay: a synthetic 2 000-job GPU trace under one queue, a split
# cohort (--compare) and FCFS; an SWF trace; refusals; and the HTML report
# opened in a real headless browser, which must find every chart drawn.
. "$top_srcdir/tests/integration/lib.sh"
SLUICE="$BIN/sluice"
D="$top_srcdir/tests/data/replay"
python3 "$top_srcdir/tests/bench/replay_trace.py" 2000 7 >"$T/trace" || fail "trace generator"

"$SLUICE" replay "$T/trace" --config "$D/gpu100.yaml" --compare "$D/gpu100-split.yaml" \
	--policy fcfs --html "$T/report.html" >"$T/out" 2>"$T/err" || fail "replay: $(cat "$T/err")"
head -n 3 "$T/out" | grep -q 'history  *gpu100.yaml  *gpu100-split.yaml  *fcfs$' ||
	fail "columns: $(head -n 3 "$T/out")"
grep -q '^jobs started  *2000  *2000  *2000  *2000$' "$T/out" || fail "$(grep 'jobs started' "$T/out")"
[ ! -s "$T/err" ] || fail "a progress bar or noise without a terminal: $(cat "$T/err")"
# Same machine, same work: utilisation within a point of each other.
u=$(sed -n 's/^utilisation nvidia.com\/gpu  *//p' "$T/out")
echo "$u" | awk '{ for (i = 1; i <= NF; i++) { v = $i; sub("%", "", v); if (v + 0 < 10 || v + 0 > 100) exit 1 } }' ||
	fail "GPU utilisation out of range: $u"
grep -q '^wait p50/p90/p99 by user' "$T/out" || fail "no per-user table"
[ "$(grep -c '^user[0-9][0-9] ' "$T/out")" -eq 50 ] || fail "not every user in the per-user table"
ok "sacct trace under two configs and FCFS"

# SWF: 18 numbers per job; -1 where unknown.
cat >"$T/trace.swf" <<'SWF'
; Computer: test
1 0 10 600 4 -1 -1 4 1200 -1 1 1 1 -1 1 -1 -1 -1
2 30 5 300 8 -1 -1 8 600 -1 1 2 1 -1 1 -1 -1 -1
3 60 -1 -1 4 -1 -1 4 600 -1 5 2 1 -1 1 -1 -1 -1
SWF
"$SLUICE" replay "$T/trace.swf" --config "$D/gpu100.yaml" >"$T/swf.out" 2>&1 || fail "swf: $(cat "$T/swf.out")"
grep -q '^2 jobs in the trace, 1 rows left out' "$T/swf.out" || fail "swf: $(head -n 2 "$T/swf.out")"
grep -q '^moved to a default  *0  *2$' "$T/swf.out" || fail "swf mapping: $(grep moved "$T/swf.out")"
ok "SWF trace, mapped to the default account and partition"

printf 'JobID|Partition|Submit|Start|End|ReqTRES\n1|gpu|2026-01-01T00:00:00|2026-01-01T00:00:01|2026-01-01T00:00:02|cpu=1,mem=lots\n' >"$T/bad"
out=$("$SLUICE" replay "$T/bad" --config "$D/gpu100.yaml" 2>&1) && fail "a bad trace was accepted"
[ "$out" = "sluice: error: $T/bad:2: ReqTRES mem \"lots\"" ] || fail "bad trace: $out"
out=$("$SLUICE" replay "$T/trace" 2>&1) && fail "no --config accepted"
echo "$out" | grep -q '^Usage: sluice replay' || fail "usage: $out"
out=$("$SLUICE" replay "$T/trace" --config "$D/gpu100.yaml" --policy sjf 2>&1) && fail "--policy sjf accepted"
[ "$out" = 'sluice: error: --policy: "sjf" is neither kueue nor fcfs' ] || fail "policy: $out"
ok "bad traces and options refused with their reason"

browser=$(command -v chromium || command -v chromium-browser) || skip "no chromium to open the report"
dom=$(timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$T/chromium" \
	--dump-dom "file://$T/report.html" 2>/dev/null) || fail "chromium could not open the report"
drawn=$(echo "$dom" | sed -n 's/.*data-charts="\([0-9]*\/[0-9]*\)".*/\1/p' | head -n 1)
[ -n "$drawn" ] || fail "the page's check did not run"
[ "${drawn%/*}" = "${drawn#*/}" ] && [ "${drawn%/*}" -ge 5 ] || fail "charts drawn: $drawn"
ok "the HTML report's $drawn charts drew in headless chromium"
