# paired.sh - sourced by the benchmarks: `paired N A B` runs the commands A
# and B (strings, eval'd, output thrown away) in turn N times and prints the
# median of each one's wall time and the median of the pair-by-pair ratios
# A/B, so that a host whose speed drifts during the run still compares them
# fairly. Both carry the same fork from bash; bash's EPOCHREALTIME times it.
paired() {
	local n=$1 a=$2 b=$3 i t0 t1 t2 f
	f=$(mktemp)
	for ((i = 0; i < n; i++)); do
		t0=$EPOCHREALTIME
		eval "$a" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		eval "$b" >/dev/null 2>&1
		t2=$EPOCHREALTIME
		echo "$t0 $t1 $t2"
	done >"$f"
	# the median of column 1, 2 or 3 of "A B A/B" lines
	awk '{ a = $2 - $1; b = $3 - $2; printf "%.6f %.6f %.6f\n", a, b, (b > 0 ? a / b : 0) }' "$f" >"$f.d"
	med() { cut -d' ' -f"$1" "$f.d" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
	printf 'A %.4f s, B %.4f s, A/B %.3f (medians of %d pairs)\n' "$(med 1)" "$(med 2)" "$(med 3)" "$n"
	rm -f "$f" "$f.d"
}
