#!/bin/sh
# One user must not deny service to others (issue 11, holes 3-5): idle
# connections are capped per user and closed after a while, with room kept
# for root and operators; running out of descriptors does not make sluiced
# spin; a client that sends requests without reading the replies does not
# make sluiced buffer them.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
SOCK="$T/sock/sluiced.sock"

# hold USER COUNT SECONDS: open COUNT connections as USER, keep them idle.
hold() {
	as "$1" python3 -c '
import socket, sys, time
path, n, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
held = []
for i in range(n):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
    except OSError:
        break
    held.append(s)
print(len(held), flush=True)
time.sleep(secs)
' "$SOCK" "$2" "$3" >"$T/held" &
	HOLDER=$!
	i=0
	until [ -s "$T/held" ]; do
		i=$((i + 1)); [ $i -lt 100 ] || fail "the holder did not connect"
		sleep 0.1
	done
	sleep 0.5 # let sluiced accept (and refuse) them
}

# cpu_ticks PID: user+system clock ticks so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Hole 3: a user's 1024 idle connections keep neither another user nor
# root out, and are closed after the idle timeout.
hold $USER1 1024 30
out=$(as $USER2 "$BIN/squeue" -h 2>&1) || fail "another user was locked out: $out"
out=$("$BIN/squeue" -h 2>&1) || fail "root was locked out: $out"
ok "1024 idle connections of one user lock out neither another user nor root"
n=0
until [ "$(ls "/proc/$DPID/fd" | wc -l)" -lt 40 ]; do
	n=$((n + 1)); [ $n -lt 300 ] || fail "idle connections were not closed within 30 s"
	sleep 0.1
done
kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null
ok "idle connections are closed"

# Hole 4: out of descriptors, sluiced backs off instead of spinning.
soft=$(awk '/^Max open files/ {print $4}' "/proc/$DPID/limits")
prlimit --nofile=64: --pid "$DPID" || skip "prlimit cannot lower sluiced's descriptor limit"
hold $USER1 100 20
t0=$(cpu_ticks "$DPID"); sleep 2; t1=$(cpu_ticks "$DPID")
[ $((t1 - t0)) -lt 50 ] || fail "sluiced used $((t1 - t0)) ticks in 2 s out of descriptors"
kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null
n=0
# (the holder's connections go at the latest when idle: 10 s, then the sweep)
until "$BIN/squeue" -h >/dev/null 2>&1; do
	n=$((n + 1)); [ $n -lt 300 ] || fail "sluiced did not serve again after EMFILE"
	sleep 0.1
done
prlimit --nofile="$soft": --pid "$DPID" || fail "cannot restore the descriptor limit"
ok "out of descriptors: no busy loop, and served again once they are free"

# Hole 5: a client pipelines requests and never reads; sluiced keeps one
# reply for it, not hundreds.
i=0
while [ $i -lt 1500 ]; do
	"$BIN/sbatch" -H -J "a-rather-long-job-name-to-make-the-listing-larger-$i" --wrap true \
		>/dev/null || fail "submit $i"
	i=$((i + 1))
done
rss0=$(awk '/VmRSS/ {print $2}' "/proc/$DPID/status")
python3 -c '
import socket, struct, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
body = b"{}"
frame = struct.pack(">IHHI", 0x534c5549, int(sys.argv[2]), 3, len(body)) + body
s.sendall(frame * 300)
time.sleep(3)
' "$SOCK" "$(sed -n 's/^#define SL_PROTO_VERSION \([0-9]*\).*/\1/p' "$top_srcdir/libbatch/proto.h")" &
READER=$!
sleep 2
rss1=$(awk '/VmRSS/ {print $2}' "/proc/$DPID/status")
wait "$READER"
[ $((rss1 - rss0)) -lt 65536 ] ||
	fail "sluiced grew by $(((rss1 - rss0) / 1024)) MiB for a client that does not read"
out=$("$BIN/squeue" -h 2>&1 | wc -l)
expect_eq "still serving" 1500 "$out"
ok "a client that does not read its replies costs one reply, not 300"
