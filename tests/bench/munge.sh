#!/bin/bash
# What munge costs a submission (issue 11; run on demand, not by make check).
# The same sbatch against a private sluiced three ways, each on a fresh
# state: the Unix socket with auth: none (today's path), the Unix socket
# with auth: munge, and TCP on 127.0.0.1 with munge (a login node's path),
# each with a private munged on its own key. For each: N sequential
# submissions (jobs/s), the median and p99 of one call, and PAR parallel
# submitters (jobs/s); then each munge path against the plain socket.
# Usage: tests/bench/munge.sh [BUILD_DIR] [N] [PAR]   (default ./build 1000 16)
# Target (issue 11): munge adds under 0.5 ms per request.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
N=${2:-1000}
PAR=${3:-16}
B="$build/bin"
T=$(mktemp -d /tmp/sl-bench.XXXXXX)
chmod 0755 "$T"
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[ -f "$T/munge.pid" ] && kill "$(cat "$T/munge.pid")" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
command -v munged >/dev/null || { echo "munged is not installed (tests/deps.sh)" >&2; exit 1; }
. "$top/tests/integration/conf.sh"
export SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd" SLUICE_CONNECT_TIMEOUT=5

dd if=/dev/urandom of="$T/munge.key" bs=1 count=1024 2>/dev/null
chmod 0400 "$T/munge.key"
munged --force -S "$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munge.pid" \
	--log-file="$T/munge.log" --seed-file="$T/munge.seed"
until munge -n -S "$T/munge.sock" >/dev/null 2>&1; do sleep 0.1; done
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# start AUTH: a fresh daemon; with munge it also listens on TCP.
start() {
	rm -rf "$T/state" "$T/sock"
	if [ "$1" = munge ]; then
		write_conf "listen: [\"127.0.0.1:$PORT\"]
munge:
  socket: $T/munge.sock"
		sed -i 's/^auth: none$/auth: munge/' "$T/sluice.yaml"
	else
		write_conf
	fi
	"$build/bin/sluiced/sluiced" -D -f "$T/sluice.yaml" 2>>"$T/log" &
	pid=$!
	until SLUICE_CONF="$T/sluice.yaml" "$B/squeue" -h >/dev/null 2>&1; do sleep 0.05; done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }

now() { date +%s.%N; }
# run NAME: the figures of one path (the environment says which).
run() {
	local t0 t1 lat="$T/lat.txt" i k loops=""
	t0=$(now)
	for i in $(seq "$N"); do "$B/sbatch" --parsable -H --wrap true >/dev/null; done
	t1=$(now)
	seq_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')
	: >"$lat"
	for i in $(seq 300); do
		s=$EPOCHREALTIME
		"$B/sbatch" --parsable -H --wrap true >/dev/null
		echo "$s $EPOCHREALTIME" >>"$lat"
	done
	read -r med p99 < <(awk '{print ($2 - $1) * 1000}' "$lat" | sort -n |
		awk '{v[NR] = $1} END {printf "%.3f %.3f\n", v[int(NR*0.5)], v[int(NR*0.99)]}')
	t0=$(now)
	for k in $(seq "$PAR"); do
		(for i in $(seq $((N / PAR))); do "$B/sbatch" --parsable -H --wrap true >/dev/null; done) &
		loops="$loops $!"
	done
	wait $loops # not a bare wait: sluiced is our child too
	t1=$(now)
	par_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')
	n=$(SLUICE_CONF="$T/sluice.yaml" SLUICE_SERVER= "$B/squeue" -h | wc -l)
	[ "$n" -eq $((N + 300 + PAR * (N / PAR))) ] || { echo "$1: $n jobs, expected more" >&2; exit 1; }
	awk -v name="$1" -v n="$N" -v s="$seq_s" -v med="$med" -v p99="$p99" -v par="$PAR" \
		-v q="$par_s" 'BEGIN {
		printf "%-22s %6.0f jobs/s (%.3f ms a call)  median %.3f ms  p99 %.3f ms  %2d parallel: %6.0f jobs/s\n",
			name, n / s, s * 1000 / n, med, p99, par, par * int(n / par) / q }'
	eval "seq_$2=$seq_s med_$2=$med par_$2=$par_s"
}

echo "# munge bench $(date -u +%FT%TZ) host=$(hostname -s) cpus=$(nproc) N=$N PAR=$PAR"
echo "floor: $N runs of /bin/true $(t0=$(now); for i in $(seq "$N"); do /bin/true; done; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f s", b - a}')"
start none
SLUICE_CONF="$T/sluice.yaml" run "socket, auth none" plain
stop
start munge
SLUICE_CONF="$T/sluice.yaml" run "socket, auth munge" usock
stop
start munge
SLUICE_CONF="$T/sluice.yaml" SLUICE_SERVER="127.0.0.1:$PORT" run "TCP 127.0.0.1, munge" tcp
stop
for p in usock tcp; do
	eval "s=\$seq_$p m=\$med_$p q=\$par_$p"
	awk -v name="$p" -v s="$s" -v s0="$seq_plain" -v m="$m" -v m0="$med_plain" -v q="$q" \
		-v q0="$par_plain" -v n="$N" 'BEGIN {
		printf "%-6s vs socket/none: sequential %.2fx the time (+%.3f ms a call), median +%.3f ms, parallel %.2fx\n",
			name, s / s0, (s - s0) * 1000 / n, m - m0, q / q0 }'
done
