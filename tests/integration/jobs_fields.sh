#!/bin/sh
# The jobs request's projection on the wire (PROTOCOL.md, FIELDS): records
# of the members named and the id; whole without "fields" (every command
# but squeue, and older squeues); a name the daemon does not know left out;
# a "fields" that is not an array of names refused with EPROTO, the
# connection kept. And squeue's listing, projected, is what the whole
# records print (-O asks for those).
. "$top_srcdir/tests/integration/lib.sh"
start_daemon
cd "$T"
sock="$T/sock/sluiced.sock"
id=$("$BIN/sbatch" --parsable -H -J fieldjob -A general --comment c1 --wrap true) ||
	fail "submit"

version=$(sed -n 's/^#define SL_PROTO_VERSION \([0-9]*\)$/\1/p' "$top_srcdir/libbatch/proto.h")
python3 - "$sock" "$version" "$id" <<'EOP' || fail "projection on the wire"
import json, socket, struct, sys
path, VERSION, jid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(path)
def ask(req):
    body = json.dumps(req).encode()
    s.sendall(struct.pack(">IHHI", 0x534C5549, VERSION, 3, len(body)) + body)
    (m, v, t, n) = struct.unpack(">IHHI", s.recv(12))
    out = b""
    while len(out) < n: out += s.recv(n - len(out))
    assert t == 0x8003, t
    return json.loads(out)
f = {"ids": [jid]}
job = ask({"filter": f, "fields": ["user", "spec.name", "state", "spec.no_such"]})["jobs"][0]
assert job == {"id": jid, "spec": {"name": "fieldjob"}, "state": "PENDING", "user": job["user"]}, job
job = ask({"filter": f, "fields": []})["jobs"][0]
assert job == {"id": jid, "spec": {}}, job
whole = ask({"filter": f})["jobs"][0]
for k in ("uid", "gid", "state", "user", "reason", "submit_time"):
    assert k in whole, (k, whole)
for k in ("account", "comment", "work_dir", "rlimits"):
    assert k in whole["spec"], (k, whole)
for bad in ("user", ["user", 3], {"user": 1}):
    rep = ask({"filter": f, "fields": bad})
    assert rep.get("code") == "EPROTO" and "fields" in rep.get("error", ""), rep
assert ask({"filter": f})["jobs"][0] == whole  # the same connection still serves
EOP
ok "fields: the members named and the id; whole without; unknown names left out; EPROTO"

# The default listing and -O's (whole records) print the same columns.
a=$("$BIN/squeue" -o '%.18i %.9P %.8j %.8u %.2t %.10M %.6D %a %k %R') || fail "squeue -o"
b=$("$BIN/squeue" -O 'JobID:.18 ,Partition:.9 ,Name:.8 ,UserName:.8 ,StateCompact:.2 ,TimeUsed:.10 ,NumNodes:.6 ,Account: ,Comment: ,ReasonList:') ||
	fail "squeue -O"
expect_eq "projected -o against whole -O" "$(echo "$b" | sed 's/  *$//;s/  */ /g')" \
	"$(echo "$a" | sed 's/  *$//;s/  */ /g')"
expect_eq "account and comment reach -o" "general c1" \
	"$("$BIN/squeue" -h -j "$id" -o '%a %k')"
ok "squeue -o (projected) prints what -O (whole records) prints"
