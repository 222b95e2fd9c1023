#!/bin/bash
# What munge costs a submission (issue 11; run on demand, not by make check).
# Two private sluiced run side by side: one with auth: none (today's Unix
# socket path), one with auth: munge listening on 127.0.0.1 too, with a
# private munged on its own key. sbatch goes three ways: "none" (the first
# daemon's socket), "socket+munge" (the second's socket) and "tcp+munge"
# (its TCP port, as from a login node). The ways take turns call by call
# and round by round, so that a busy host slows them alike:
#   - latency: the median, p90 and p99 of LAT single calls each;
#   - sequential: N submissions each, in rounds (jobs/s), and the CPU time a
#     call costs sbatch, sluiced and munged (load-proof, unlike the clock);
#   - parallel: PAR submitters at once, N submissions each (jobs/s).
# Usage: tests/bench/munge.sh [BUILD_DIR] [N] [PAR] [LAT]
#        (default ./build 1000 16 600). Target: munge adds < 0.5 ms a request.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
N=${2:-1000}
PAR=${3:-16}
LAT=${4:-600}
ROUNDS=4
B="$build/bin"
base=$(mktemp -d /tmp/sl-bench.XXXXXX)
chmod 0755 "$base"
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	if [ -f "$base/munge.pid" ]; then
		m=$(cat "$base/munge.pid")
		kill "$m" 2>/dev/null
		while kill -0 "$m" 2>/dev/null; do sleep 0.05; done # it writes its seed file as it goes
	fi
	rm -rf "$base"
}
trap cleanup EXIT
command -v munged >/dev/null || { echo "munged is not installed (tests/deps.sh)" >&2; exit 1; }
. "$top/tests/integration/conf.sh"
export SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd" SLUICE_CONNECT_TIMEOUT=5
unset SLUICE_SERVER SLUICE_SOCKET

dd if=/dev/urandom of="$base/munge.key" bs=1 count=1024 2>/dev/null
chmod 0400 "$base/munge.key"
munged --force -S "$base/munge.sock" --key-file="$base/munge.key" \
	--pid-file="$base/munge.pid" --log-file="$base/munge.log" --seed-file="$base/munge.seed"
until munge -n -S "$base/munge.sock" >/dev/null 2>&1; do sleep 0.1; done
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# daemon NAME [SETTINGS]: a sluiced of its own in $base/NAME.
daemon() {
	T="$base/$1"
	mkdir -p "$T"
	write_conf "${2:-}"
	[ -z "${2:-}" ] || sed -i 's/^auth: none$/auth: munge/' "$T/sluice.yaml"
	"$build/bin/sluiced/sluiced" -D -f "$T/sluice.yaml" 2>>"$T/log" &
	pids="$pids $!"
	until SLUICE_CONF="$T/sluice.yaml" "$B/squeue" -h >/dev/null 2>&1; do sleep 0.05; done
}
daemon plain
PLAIN=${pids# }
daemon munge "listen: [\"127.0.0.1:$PORT\"]
munge:
  socket: $base/munge.sock"
MUNGED=${pids##* }
MUNGE=$(cat "$base/munge.pid")
# cpu: clock ticks so far of this shell's children, the two sluiced, munged.
cpu() {
	echo "$(awk '{print $16 + $17}' /proc/$$/stat) $(awk '{print $14 + $15}' /proc/"$PLAIN"/stat)" \
		"$(awk '{print $14 + $15}' /proc/"$MUNGED"/stat) $(awk '{print $14 + $15}' /proc/"$MUNGE"/stat)"
}
cd "$base"
WAYS="none socket+munge tcp+munge"
# way NAME CMD...: CMD with the environment of that way.
way() {
	case "$1" in
	none) shift; SLUICE_CONF="$base/plain/sluice.yaml" "$@" ;;
	socket+munge) shift; SLUICE_CONF="$base/munge/sluice.yaml" "$@" ;;
	tcp+munge) shift; SLUICE_CONF="$base/munge/sluice.yaml" SLUICE_SERVER="127.0.0.1:$PORT" "$@" ;;
	esac
}
sub() { way "$1" "$B/sbatch" --parsable -H --wrap true >/dev/null; }

echo "# munge bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) N=$N PAR=$PAR LAT=$LAT"
for w in $WAYS; do sub "$w"; done # warm up

for i in $(seq "$LAT"); do
	for w in $WAYS; do
		s=$EPOCHREALTIME
		sub "$w"
		echo "$w $s $EPOCHREALTIME" >>"$base/lat"
	done
done
for w in $WAYS; do
	awk -v w="$w" '$1 == w {print ($3 - $2) * 1000}' "$base/lat" | sort -n |
		awk -v w="$w" '{v[NR] = $1} END {printf "latency  %-13s median %.3f ms  p90 %.3f ms  p99 %.3f ms\n", w, v[int(NR*0.5)], v[int(NR*0.9)], v[int(NR*0.99)]}'
done | tee "$base/latency"

for r in $(seq "$ROUNDS"); do
	for w in $WAYS; do
		c0=$(cpu)
		s=$EPOCHREALTIME
		for i in $(seq $((N / ROUNDS))); do sub "$w"; done
		echo "$w $s $EPOCHREALTIME $c0 $(cpu)" >>"$base/seq"
	done
done
for r in 1 2; do
	for w in $WAYS; do
		loops=""
		s=$EPOCHREALTIME
		for k in $(seq "$PAR"); do
			(for i in $(seq $((N / PAR / 2))); do sub "$w"; done) &
			loops="$loops $!"
		done
		wait $loops # not a bare wait: the daemons are our children too
		echo "$w $s $EPOCHREALTIME" >>"$base/par"
	done
done
for w in $WAYS; do
	awk -v w="$w" -v n=$((N / ROUNDS * ROUNDS)) -v m=$((N / PAR / 2 * PAR * 2)) -v par="$PAR" \
		-v hz="$(getconf CLK_TCK)" '
		FILENAME ~ /seq$/ && $1 == w {s += $3 - $2; cc += $8 - $4; cd += (w == "none" ? $9 - $5 : $10 - $6); cm += $11 - $7}
		FILENAME ~ /par$/ && $1 == w {p += $3 - $2}
		END {printf "sequential %-13s %6.0f jobs/s (%.3f ms a call)    %2d parallel: %6.0f jobs/s\n", w, n / s, s * 1000 / n, par, m / p
			f = 1000 / hz / n
			printf "cpu        %-13s sbatch %.3f ms  sluiced %.3f ms  munged %.3f ms a call\n", w, cc * f, cd * f, cm * f}' \
		"$base/seq" "$base/par"
done | tee "$base/thru"
n_plain=$(way none "$B/squeue" -h | wc -l)
n_munge=$(way socket+munge "$B/squeue" -h | wc -l)
[ "$n_plain" -eq $((1 + LAT + N / ROUNDS * ROUNDS + N / PAR / 2 * PAR * 2)) ] &&
	[ "$n_munge" -eq $((2 * (1 + LAT + N / ROUNDS * ROUNDS + N / PAR / 2 * PAR * 2))) ] ||
	{ echo "job counts $n_plain and $n_munge: submissions were lost" >&2; exit 1; }
awk '
	FILENAME ~ /latency$/ {med[$2] = $4}
	FILENAME ~ /thru$/ && $1 == "sequential" {ms[$2] = substr($5, 2); js[$2] = $3; pj[$2] = $(NF - 1)}
	FILENAME ~ /thru$/ && $1 == "cpu" {cpu[$2] = $4 + $7 + $10}
	END {
		for (w in med) if (w != "none")
			printf "%-13s vs none: +%.3f ms median latency, +%.3f ms a sequential call (%.2fx the jobs/s), %.2fx the jobs/s in parallel, +%.3f ms of CPU a call\n",
				w, med[w] - med["none"], ms[w] - ms["none"], js[w] / js["none"], pj[w] / pj["none"], cpu[w] - cpu["none"]
	}' "$base/latency" "$base/thru"
