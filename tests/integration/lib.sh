# lib.sh - shared by the integration tests: start the real sluiced on a
# private socket and state directory, run the real commands, assert.
# Sourced by tests/integration/*.sh (run by `make check` with top_srcdir and
# top_builddir exported). Exit 77 = skipped (automake's convention).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
BIN="$top_builddir/bin"
SLUICED="$top_builddir/bin/sluiced/sluiced"
export SLUICE_STEPD="$top_builddir/bin/sluice-stepd/sluice-stepd"
export SLUICE_CONNECT_TIMEOUT=3
T=$(mktemp -d /tmp/sl-it.XXXXXX)
chmod 0755 "$T"
export SLUICE_CONF="$T/sluice.yaml"
DPID=""
TESTNAME=$(basename "$0" .sh)
USER1=sluicet1
USER2=sluicet2

fail() {
	echo "FAIL [$TESTNAME]: $*" >&2
	if [ -f "$T/sluiced.log" ]; then
		echo "--- sluiced.log (tail)" >&2
		tail -n 30 "$T/sluiced.log" >&2
	fi
	exit 1
}
skip() { echo "SKIP [$TESTNAME]: $*"; exit 77; }
ok() { echo "ok - $*"; }

cleanup() {
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
	fi
	# Jobs of this test's daemon run under their own supervisors: end them.
	for p in $(pgrep -f "sluice-stepd $T/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	pkill -KILL -f "$T/" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (to run jobs as two test users)"
}

# Two unprivileged users for ownership tests (created once per machine).
make_users() {
	need_root
	for u in "$USER1" "$USER2"; do
		id "$u" >/dev/null 2>&1 || useradd -M -s /bin/sh "$u" >/dev/null 2>&1 ||
			skip "cannot create user $u"
	done
	mkdir -p "$T/work"
	chmod 1777 "$T/work"
}

# Run a command as a user (root when no user given).
as() {
	u="$1"; shift
	if [ "$u" = root ] || [ "$u" = "$(id -un)" ]; then "$@"; return; fi
	setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups \
		env SLUICE_CONF="$SLUICE_CONF" SLUICE_CONNECT_TIMEOUT=3 HOME="$T/work" "$@"
}

. "$top_srcdir/tests/integration/conf.sh"

# Two WorkloadPriorityClasses for preemption tests (EXTRA_OBJECTS=$WPC_LOW_HIGH).
WPC_LOW_HIGH='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: low}
value: 10
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000'

# A WorkloadPriorityClass high of 100 and a LocalQueue batch in namespace
# physics (account physics), for the tests of accounts and QOS.
PHYSICS_HIGH='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: high}
value: 100
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: batch, namespace: physics}
spec: {clusterQueue: main}'

# write_conf_accounts ENTRIES [KEYS]: write_conf with `accounts:` holding
# ENTRIES (indented lines), which replace its own {"*": [general]}.
write_conf_accounts() {
	write_conf "${2:+$2
}accounts:
$1"
	sed -i '0,/^accounts:$/{/^accounts:$/{N;d}}' "$T/sluice.yaml"
}

# Let the written ClusterQueue preempt lower priorities within itself.
preempt_within_cq() {
	sed -i 's/^  namespaceSelector: {}$/  namespaceSelector: {}\n  preemption: {withinClusterQueue: LowerPriority}/' \
		"$T/sluice.yaml"
}

start_daemon() {
	[ -f "$T/sluice.yaml" ] || ${WRITE_CONF:-write_conf}
	# Not through the `as` function: a backgrounded function is a subshell,
	# and $! would name it instead of sluiced (kill -9 would miss).
	if [ -n "${DAEMON_USER:-}" ]; then
		setpriv --reuid="$DAEMON_USER" --regid="$(id -g "$DAEMON_USER")" --init-groups \
			"$SLUICED" -D -f "$T/sluice.yaml" >>"$T/sluiced.log" 2>&1 &
	else
		"$SLUICED" -D -f "$T/sluice.yaml" >>"$T/sluiced.log" 2>&1 &
	fi
	DPID=$!
	i=0
	until "$BIN/squeue" -h >/dev/null 2>&1; do
		i=$((i + 1))
		kill -0 "$DPID" 2>/dev/null || fail "sluiced exited at start"
		[ $i -lt 100 ] || fail "sluiced did not answer within 10 s"
		sleep 0.1
	done
}

stop_daemon() {
	kill -TERM "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	DPID=""
}

kill9_daemon() {
	kill -KILL "$DPID" 2>/dev/null || fail "kill -9: no such process $DPID"
	wait "$DPID" 2>/dev/null
	# The test must be able to fail: make sure the daemon is really gone.
	pgrep -f "sluiced -D -f $T/sluice.yaml" >/dev/null && fail "sluiced survived kill -9"
	DPID=""
}

# state JOBID -> the job's state as sacct -P shows it (history included).
state() {
	_st=$("$BIN/sacct" -n -X -P -a -j "$1" -o State 2>/dev/null | head -n1)
	# sacct says CANCELLED once cancelled, TIMEOUT once out of time
	# (slurmdbd's); the tests wait for the end: while its processes end,
	# squeue says COMPLETING
	case "$_st" in
	CANCELLED* | TIMEOUT) [ "$("$BIN/squeue" -h -t all -j "$1" -o %T 2>/dev/null | head -n1)" != COMPLETING ] ||
		_st=COMPLETING ;;
	esac
	echo "$_st"
}

# wait_state JOBID STATE [SECONDS]
wait_state() {
	n=0
	lim=$((${3:-30} * 10))
	while :; do
		s=$(state "$1")
		case "$s" in "$2"*) return 0 ;; esac
		n=$((n + 1))
		[ $n -lt $lim ] || fail "job $1: state '$s', expected $2 after ${3:-30} s"
		sleep 0.1
	done
}

# wait_until WHAT CONDITION: CONDITION (shell text, eval'd each time)
# holds within 10 s, looked at every 0.1 s; else the test fails with WHAT.
wait_until() {
	_wu=0
	until eval "$2"; do
		_wu=$((_wu + 1))
		[ $_wu -lt 100 ] || fail "$1"
		sleep 0.1
	done
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"
}

submit() { # submit [user] args... -> prints id
	u="$1"; shift
	as "$u" "$BIN/sbatch" --parsable "$@"
}

# request USER TYPE BODY [READ [HOLD]]: the reply's body to one request of
# TYPE (PROTOCOL.md) with the JSON text BODY, as USER sends it straight on
# the daemon's socket, past the commands. READ=0: it sends and goes without
# the reply; HOLD: the seconds it keeps the connection afterwards.
request() {
	as "$1" python3 - "$T/sock/sluiced.sock" "$2" "$3" \
		"$(sed -n 's/^#define SL_PROTO_VERSION \([0-9]*\)$/\1/p' "$top_srcdir/libbatch/proto.h")" \
		"${4:-1}" "${5:-0}" <<'EOP'
import socket, struct, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
body = sys.argv[3].encode()
s.sendall(struct.pack(">IHHI", 0x534C5549, int(sys.argv[4]), int(sys.argv[2]), len(body)) + body)
if sys.argv[5] == "1":
    hdr = b""
    while len(hdr) < 12: hdr += s.recv(12 - len(hdr))
    n = struct.unpack(">IHHI", hdr)[3]
    rep = b""
    while len(rep) < n: rep += s.recv(n - len(rep))
    sys.stdout.write(rep.decode())
    sys.stdout.flush()
time.sleep(float(sys.argv[6]))
EOP
}
