#!/bin/sh
# Login nodes (issue 11): sluiced listens on TCP too, and every request
# there (and, with auth: munge, on the socket) follows a munge credential
# made for exactly that request. Two real munged (Debian's munge) on
# private sockets with their own keys; the commands as two users through
# $SLUICE_SERVER and through a login node's `controller:`; a small Python
# client for what the commands never send: no credential, a credential of
# another request, a replayed or expired one, a forged uid in the body;
# last, the same users under PAM (account refusal, one session per job).
. "$top_srcdir/tests/integration/lib.sh"
make_users
command -v munged >/dev/null && command -v munge >/dev/null ||
	skip "munge is not installed (tests/deps.sh installs it)"
VERSION=$(sed -n 's/^#define SL_PROTO_VERSION \([0-9]*\).*/\1/p' "$top_srcdir/libbatch/proto.h")

# start_munged NAME: munged with its own key; socket $T/NAME.sock.
start_munged() {
	dd if=/dev/urandom of="$T/$1.key" bs=1 count=1024 2>/dev/null
	chmod 0400 "$T/$1.key"
	munged --force -S "$T/$1.sock" --key-file="$T/$1.key" --pid-file="$T/$1.pid" \
		--log-file="$T/$1.log" --seed-file="$T/$1.seed" ||
		fail "munged $1 did not start: $(cat "$T/$1.log" 2>/dev/null)"
	n=0
	until munge -n -S "$T/$1.sock" >/dev/null 2>&1; do
		n=$((n + 1)); [ $n -lt 50 ] || fail "munged $1 does not answer"
		sleep 0.1
	done
}
start_munged munge
start_munged other
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The same port on IPv6's loopback too, where the host has one.
V6=""
python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null &&
	V6=", \"[::1]:$PORT\""
write_conf "listen: [\"127.0.0.1:$PORT\"$V6]
munge: {socket: $T/munge.sock}"
sed -i 's/^auth: none$/auth: munge/' "$T/sluice.yaml"
start_daemon # its squeue came in over the Unix socket, with a credential
grep -q "listening on 127.0.0.1:$PORT (TCP, munge)" "$T/sluiced.log" || fail "no TCP listener"
cd "$T/work"

# A login node's own config: the controller and its munged, nothing else.
login_conf() { # login_conf FILE MUNGE_SOCKET
	printf 'apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\ncontroller: 127.0.0.1:%s\nauth: munge\nmunge:\n  socket: %s\n' \
		"$PORT" "$2" >"$1"
	chmod 0644 "$1"
}
login_conf "$T/login.yaml" "$T/munge.sock"
login_conf "$T/wrongkey.yaml" "$T/other.sock"

# --- the commands as two users, through SLUICE_SERVER --------------------
export SLUICE_SERVER="127.0.0.1:$PORT"
a1=$(submit $USER1 -o "$T/work/a1.out" --wrap 'id -un; pwd') || fail "sbatch over TCP: $a1"
wait_state "$a1" COMPLETED
expect_eq "the job ran as the credential's user" "sluicet1
$T/work" "$(cat "$T/work/a1.out")"
expect_eq "its output belongs to that user" "$USER1" "$(stat -c %U "$T/work/a1.out")"
h1=$(submit $USER1 -H -J held1 --wrap true) || fail "sbatch $USER1"
h2=$(submit $USER2 -H -J held2 --wrap true) || fail "sbatch $USER2"
expect_eq "squeue over TCP" "$h1 sluicet1 held1
$h2 sluicet2 held2" "$(as $USER1 "$BIN/squeue" -h -o '%i %u %j' | sort -n)"
# (a held job was never eligible: as slurmdbd, sacct lists it only with -j)
expect_eq "sacct: own jobs only" "$a1|sluicet1|COMPLETED" \
	"$(as $USER1 "$BIN/sacct" -n -X -P -o JobID,User,State | sort -n)"
expect_eq "sacct -j: a held job" "$h1|sluicet1|PENDING" \
	"$(as $USER1 "$BIN/sacct" -n -X -P -j "$h1" -o JobID,User,State)"
err=$(as $USER2 "$BIN/scancel" "$h1" 2>&1); rc=$?
expect_eq "another user's scancel over TCP" \
	"scancel: error: Kill job error on job id $h1: Access/permission denied" "$err"
expect_eq "denied exit code" 210 "$rc"
as $USER1 "$BIN/scancel" "$h1" || fail "the owner's scancel over TCP"
wait_state "$h1" CANCELLED
expect_eq "cancelled by its owner" "PENDING" "$(state "$h2")"
ok "sbatch, squeue, sacct and scancel over TCP act as munge's user"
# A name, resolved by the (static) sbatch: localhost is 127.0.0.1 and maybe ::1.
l0=$(as $USER1 env SLUICE_SERVER="localhost:$PORT" "$BIN/sbatch" --parsable -H --wrap true) ||
	fail "sbatch to localhost:$PORT: $l0"
expect_eq "submitted by name" "sluicet1" "$("$BIN/squeue" -h -j "$l0" -o %u)"
if [ -n "$V6" ]; then
	grep -q "listening on \[::1\]:$PORT (TCP, munge)" "$T/sluiced.log" || fail "no IPv6 listener"
	out=$(as $USER2 env SLUICE_SERVER="[::1]:$PORT" "$BIN/squeue" -h -j "$h2" -o '%i %u') ||
		fail "squeue over IPv6: $out"
	expect_eq "squeue over IPv6" "$h2 sluicet2" "$out"
	ok "and over IPv6"
fi

# --- a login node's config: controller: and its munge socket --------------
unset SLUICE_SERVER
out=$(as $USER2 env SLUICE_CONF="$T/login.yaml" "$BIN/squeue" -h -j "$h2" -o '%i %u') ||
	fail "squeue through controller: $out"
expect_eq "squeue through controller:" "$h2 sluicet2" "$out"
l1=$(as $USER2 env SLUICE_CONF="$T/login.yaml" "$BIN/sbatch" --parsable -H --wrap true) ||
	fail "sbatch through controller: $l1"
expect_eq "its owner" "sluicet2" "$("$BIN/squeue" -h -j "$l1" -o %u)"
ok "a login node's controller: and munge: {socket:} are followed"

# --- refusals by the commands ------------------------------------------------
err=$(as $USER1 env SLUICE_CONF="$T/wrongkey.yaml" "$BIN/squeue" -h 2>&1); rc=$?
expect_eq "squeue, another key" \
	"slurm_load_jobs error: Protocol authentication error: Invalid credential" "$err"
expect_eq "squeue, another key: exit" 1 "$rc"
err=$(as $USER1 env SLUICE_CONF="$T/wrongkey.yaml" "$BIN/sbatch" --wrap true 2>&1); rc=$?
expect_eq "sbatch, another key" "sbatch: error: Batch job submission failed: Protocol authentication error: Invalid credential" "$err"
expect_eq "sbatch, another key: exit" 1 "$rc"
err=$(as $USER1 env SLUICE_CONF="$T/wrongkey.yaml" "$BIN/sacct" -n 2>&1); rc=$?
expect_eq "sacct, another key" "sacct: error: Protocol authentication error: Invalid credential" "$err"
expect_eq "sacct, another key: exit" 1 "$rc"
err=$(as $USER1 env SLUICE_CONF="$T/wrongkey.yaml" "$BIN/scancel" "$h2" 2>&1); rc=$?
expect_eq "scancel, another key" "scancel: error: Kill job error on job id $h2: Protocol authentication error: Invalid credential" "$err"
expect_eq "scancel, another key: exit" 1 "$rc"
expect_eq "still pending" "PENDING" "$(state "$h2")"
ok "a credential of another key is refused, in each command's words"

# auth: munge on the socket too: a command configured without munge.
sed -e 's/^auth: munge$/auth: none/' -e '/^listen:/d' -e '/^munge:/d' "$T/sluice.yaml" >"$T/plain.yaml"
err=$(SLUICE_CONF="$T/plain.yaml" "$BIN/squeue" -h 2>&1); rc=$?
expect_eq "no credential on the socket" \
	"slurm_load_jobs error: Protocol authentication error: No credential" "$err"
expect_eq "no credential: exit" 1 "$rc"
ok "with auth: munge the Unix socket wants a credential too"

# --- refusals of what only a hand-made client sends --------------------------
cat >"$T/cli.py" <<'EOP'
import hashlib, json, socket, struct, subprocess, sys, time
addr, msock, version, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
AUTH, SUBMIT, JOBS = 7, 2, 3

def connect():
    if addr.startswith("/"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(addr)
    else:
        host, port = addr.rsplit(":", 1)
        s = socket.create_connection((host, int(port)))
    s.settimeout(10)
    return s

def frame(t, body):
    return struct.pack(">IHHI", 0x534C5549, version, t, len(body)) + body

def cred(t, body, ttl=None):
    # sluiced's payload: "sluice1:TYPE:SHA256(body)" and a NUL (libbatch/auth.c)
    payload = b"sluice1:%d:%s\0" % (t, hashlib.sha256(body).hexdigest().encode())
    cmd = ["munge", "-S", msock] + (["-t", str(ttl)] if ttl else [])
    return subprocess.run(cmd, input=payload, stdout=subprocess.PIPE, check=True).stdout.strip()

def auth(c):
    return frame(AUTH, json.dumps({"munge": c.decode()}).encode())

def exchange(data, t):
    s = connect()
    s.sendall(data)
    buf = b""
    while len(buf) < 12 or len(buf) < 12 + struct.unpack(">IHHI", buf[:12])[3]:
        x = s.recv(65536)
        if not x:
            return "closed"
        buf += x
    rt = struct.unpack(">IHHI", buf[:12])[2]
    assert rt == t | 0x8000, rt
    rep = json.loads(buf[12:])
    if "error" in rep:
        return rep["code"] + ": " + rep["error"]
    return "ok id %d" % rep["id"] if "id" in rep else "ok %d jobs" % len(rep["jobs"])

jobs = json.dumps({"filter": {}}).encode()
if mode == "none":
    print(exchange(frame(JOBS, jobs), JOBS))
elif mode == "other-request":
    c = cred(JOBS, json.dumps({"filter": {"ids": [1]}}).encode())
    print(exchange(auth(c) + frame(JOBS, jobs), JOBS))
elif mode == "other-type":
    print(exchange(auth(cred(SUBMIT, jobs)) + frame(JOBS, jobs), JOBS))
elif mode == "replay":
    both = auth(cred(JOBS, jobs)) + frame(JOBS, jobs)
    print(exchange(both, JOBS).split(" ")[0])
    print(exchange(both, JOBS))
elif mode == "expired":
    c = cred(JOBS, jobs, ttl=1)
    time.sleep(2.5)
    print(exchange(auth(c) + frame(JOBS, jobs), JOBS))
elif mode == "not-a-credential":
    print(exchange(frame(AUTH, b'{"munge": 5}') + frame(JOBS, jobs), JOBS))
elif mode == "pipelined":
    # two requests in one write, each after its credential: two replies, in order
    s = connect()
    s.sendall(auth(cred(JOBS, jobs)) + frame(JOBS, jobs) +
              auth(cred(SUBMIT, jobs)) + frame(SUBMIT, jobs))
    buf, out = b"", []
    while len(out) < 2:
        x = s.recv(65536)
        if not x:
            break
        buf += x
        while len(buf) >= 12 and len(buf) >= 12 + struct.unpack(">IHHI", buf[:12])[3]:
            n = struct.unpack(">IHHI", buf[:12])[3]
            out.append("%x %s" % (struct.unpack(">IHHI", buf[:12])[2],
                                  json.loads(buf[12:12 + n]).get("code", "ok")))
            buf = buf[12 + n:]
    print("\n".join(out))
elif mode == "forged-uid":
    # Who asks is munge's word: uid, gid and user in the body are not read.
    body = json.dumps({"uid": 0, "gid": 0, "user": "root", "spec": {
        "name": "forged", "script": "#!/bin/sh\ntrue\n", "work_dir": "/tmp",
        "hold": 1}}).encode()
    print(exchange(auth(cred(SUBMIT, body)) + frame(SUBMIT, body), SUBMIT))
EOP
cli() { as "$1" python3 "$T/cli.py" "$2" "$T/munge.sock" "$VERSION" "$3"; }
TCP="127.0.0.1:$PORT"
P="EAUTH: Protocol authentication error"
expect_eq "no credential" "$P: No credential" "$(cli $USER1 "$TCP" none)"
expect_eq "a credential of another body" "$P: Credential not made for this request" \
	"$(cli $USER1 "$TCP" other-request)"
expect_eq "a credential of another type" "$P: Credential not made for this request" \
	"$(cli $USER1 "$TCP" other-type)"
expect_eq "replayed" "ok
$P: Replayed credential" "$(cli $USER1 "$TCP" replay)"
expect_eq "expired" "$P: Expired credential" "$(cli $USER1 "$TCP" expired)"
expect_eq "not a credential" "$P: auth message is not {\"munge\": CREDENTIAL}" \
	"$(cli $USER1 "$TCP" not-a-credential)"
expect_eq "two requests on one connection" "8003 ok
8002 EPROTO" "$(cli $USER1 "$TCP" pipelined)"
out=$(cli $USER1 "$TCP" forged-uid)
case "$out" in "ok id "*) ;; *) fail "forged uid: $out" ;; esac
expect_eq "a uid in the body is ignored" "sluicet1" "$("$BIN/squeue" -h -j "${out#ok id }" -o %u)"
ok "no credential, another request's, a replay, an expired one: refused; a forged uid ignored"

# On the socket, the credential's user must be the socket's.
expect_eq "socket: no credential" "$P: No credential" "$(cli root "$T/sock/sluiced.sock" none)"
expect_eq "socket: replayed" "ok
$P: Replayed credential" "$(cli root "$T/sock/sluiced.sock" replay)"
cat >"$T/mine.py" <<'EOP'
# root's connection, sluicet1's credential (made by munge run as sluicet1)
import hashlib, json, socket, struct, subprocess, sys
path, msock, version, uid, gid = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
body = json.dumps({"filter": {}}).encode()
payload = b"sluice1:3:%s\0" % hashlib.sha256(body).hexdigest().encode()
c = subprocess.run(["setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups",
                    "munge", "-S", msock], input=payload, stdout=subprocess.PIPE,
                   check=True).stdout.strip()
a = json.dumps({"munge": c.decode()}).encode()
s = socket.socket(socket.AF_UNIX)
s.connect(path)
s.sendall(struct.pack(">IHHI", 0x534C5549, version, 7, len(a)) + a +
          struct.pack(">IHHI", 0x534C5549, version, 3, len(body)) + body)
buf = b""
while True:
    x = s.recv(65536)
    if not x:
        break
    buf += x
print(json.loads(buf[12:])["error"])
EOP
uid1=$(id -u $USER1)
expect_eq "socket: another user's credential" \
	"Protocol authentication error: Credential of uid $uid1 on a connection of uid 0" \
	"$(python3 "$T/mine.py" "$T/sock/sluiced.sock" "$T/munge.sock" "$VERSION" "$uid1" "$(id -g $USER1)")"
ok "on the socket a credential must be the socket's user's, and is used once"

# Each refusal is logged with where it came from.
for why in "No credential" "Credential not made for this request" "Replayed credential" \
	"Expired credential" "Invalid credential"; do
	grep -Eq "warning: refused [a-z]+ request from 127\.0\.0\.1:[0-9]+( \(uid [0-9]+\))?: $why" \
		"$T/sluiced.log" ||
		fail "no log line for: $why"
done
grep -q "refused jobs request from uid 0 (pid [0-9]*): Credential of uid $uid1" \
	"$T/sluiced.log" || fail "no log line for the socket's refusal"
ok "sluiced logs each refusal with the peer's address"

# Unauthenticated TCP connections are capped per address; the socket, and
# TCP again once they are gone, are not affected.
export SLUICE_SERVER="$TCP"
python3 -c '
import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for i in range(200)]
print("held", flush=True)
time.sleep(90)
' "$PORT" >"$T/held" &
HOLDER=$!
n=0
until [ -s "$T/held" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "no holder"; sleep 0.1; done
sleep 0.5
grep -q "refusing connection from 127.0.0.1:[0-9]*: too many connections from this address not yet authenticated" \
	"$T/sluiced.log" || fail "no per-address cap"
out=$(SLUICE_SERVER= "$BIN/squeue" -h -j "$h2" -o %i 2>&1) || fail "the socket was locked out: $out"
n=0
# (10 s idle, then the sweep; a loaded host takes seconds to accept 200)
until [ "$(grep -c "closing the connection of 127.0.0.1:[0-9]*: idle" "$T/sluiced.log")" -ge 128 ]; do
	n=$((n + 1)); [ $n -lt 600 ] || fail "idle TCP connections were not closed within 60 s"
	sleep 0.1
done
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
n=0
until "$BIN/squeue" -h -j "$h2" -o %i >/dev/null 2>&1; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "TCP did not come back"
	sleep 0.1
done
ok "idle unauthenticated TCP connections are capped per address, and closed when idle"

# A command rides out a restart of sluiced on TCP as on the socket.
stop_daemon
(SLUICE_CONNECT_TIMEOUT=10 "$BIN/squeue" -h -j "$h2" -o %i >"$T/late" 2>&1; echo $? >>"$T/late") &
LATE=$!
sleep 1
SLUICE_SERVER= start_daemon
wait "$LATE"
expect_eq "squeue across a restart" "$h2
0" "$(cat "$T/late")"
ok "connection refused on TCP: retried until sluiced is back"
kill -0 "$DPID" || fail "sluiced died"

# --- the login node's users under PAM (pam: on the daemon) --------------------
# Over TCP the user is munge's; PAM's account stack refuses with its words,
# and the job runs inside one PAM session, opened and closed once.
stop_daemon
. "$top_srcdir/tests/integration/pam_lib.sh"
pam_wrap
write_conf "listen: [\"127.0.0.1:$PORT\"]
munge: {socket: $T/munge.sock}
pam: {service: sluice-test}"
sed -i 's/^auth: none$/auth: munge/' "$T/sluice.yaml"
SLUICE_SERVER= start_daemon
echo "Logins are closed for maintenance." >"$T/nologin"
err=$(as $USER2 env SLUICE_SERVER="127.0.0.1:$PORT" "$BIN/sbatch" --wrap true 2>&1); rc=$?
expect_eq "PAM refusal over TCP rc" 1 "$rc"
expect_eq "PAM refusal over TCP" \
	"sbatch: error: Batch job submission failed: Logins are closed for maintenance." "$err"
rm "$T/nologin"
pid=$(as $USER1 env SLUICE_SERVER="127.0.0.1:$PORT" "$BIN/sbatch" --parsable -o "$T/work/pam-%j.out" \
	--wrap 'echo "site=$SLUICE_PAM_SITE"') || fail "submit over TCP under PAM"
wait_state "$pid" COMPLETED
expect_eq "pam_env in the job" "site=scratch-$USER1" "$(cat "$T/work/pam-$pid.out")"
expect_eq "one session per job" "open_session $USER1 $pid
close_session $USER1 $pid" "$(awk -v j="$pid" '$3 == j {print $1, $2, $3}' "$T/pam.log")"
ok "over TCP: PAM's account refusal reaches the login node; the job runs in one PAM session"
