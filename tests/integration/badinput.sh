#!/bin/sh
# Bad input: malformed frames, oversize frames, bad JSON, unknown types close
# that connection only; sbatch's and the daemon's errors for bad jobs.
. "$top_srcdir/tests/integration/lib.sh"
start_daemon
cd "$T"
sock="$T/sock/sluiced.sock"
id=$("$BIN/sbatch" --parsable -H --wrap true) || fail "submit"

version=$(sed -n 's/^#define SL_PROTO_VERSION \([0-9]*\)$/\1/p' "$top_srcdir/libbatch/proto.h")
python3 - "$sock" "$version" <<'EOP' || fail "raw socket checks"
import json, socket, struct, sys
path = sys.argv[1]
VERSION = int(sys.argv[2])
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    return s
def closed(s):
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
def frame(t, body, version=VERSION):
    return struct.pack(">IHHI", 0x534C5549, version, t, len(body)) + body
# garbage
s = conn(); s.sendall(b"GET / HTTP/1.0\r\n\r\n"); assert closed(s), "garbage"
# oversize length
s = conn(); s.sendall(struct.pack(">IHHI", 0x534C5549, 1, 2, 0x7fffffff)); assert closed(s), "oversize"
# wrong version
s = conn(); s.sendall(frame(3, b"{}", version=7)); assert closed(s), "version"
# unknown type, and the retired ones (PROTOCOL.md)
for t in (99, 1, 6):
    s = conn(); s.sendall(frame(t, b"{}")); assert closed(s), "unknown type %d" % t
# bad JSON gets an error reply, connection stays usable
s = conn(); s.sendall(frame(3, b"{not json"))
hdr = s.recv(12); (m, v, t, n) = struct.unpack(">IHHI", hdr)
body = b""
while len(body) < n: body += s.recv(n - len(body))
rep = json.loads(body)
assert rep.get("code") == "EPROTO", rep
s.sendall(frame(3, b"{}"))
hdr = s.recv(12); (m, v, t, n) = struct.unpack(">IHHI", hdr)
assert t == 0x8003, t
# a submit with a bad spec is an error, not a crash
s = conn(); s.sendall(frame(2, json.dumps({"spec": {"script": 5}}).encode()))
hdr = s.recv(12); (m, v, t, n) = struct.unpack(">IHHI", hdr)
body = b""
while len(body) < n: body += s.recv(n - len(body))
assert json.loads(body)["code"] == "EPROTO", body
print("raw socket checks passed")
EOP
kill -0 "$DPID" || fail "sluiced died"
expect_eq "job still there" "$id" "$("$BIN/squeue" -h -j "$id" -o %i)"
ok "bad frames close only their connection; the daemon keeps serving"

err=$("$BIN/sbatch" -p nosuch --wrap true 2>&1); rc=$?
expect_eq "bad partition rc" 1 "$rc"
expect_eq "bad partition text" "sbatch: error: invalid partition specified: nosuch
sbatch: error: Batch job submission failed: Invalid partition name specified" "$err"
# More CPUs than the partition has: taken, to wait for PartitionConfig, as
# slurmctld (EnforcePartLimits=NO) does; with memory no node has, refused.
big=$("$BIN/sbatch" --parsable -c 64 --wrap true 2>&1) || fail "-c 64: $big"
wait_until "too many CPUs: $("$BIN/squeue" -h -j "$big" -o '%t %r')" \
	'[ "$("$BIN/squeue" -h -j "$big" -o "%t %r")" = "PD PartitionConfig" ]'
"$BIN/scancel" "$big"
# Its node count as slurmctld packs a pending job's: the tasks over the
# node's 8 CPUs (-n 100000: 12500), over the tasks of -c CPUs one holds
# (-n 20 -c 4: 10), -n over --ntasks-per-node rounded down (-n 100
# --ntasks-per-node=3: 33), as the reference cluster shows with 64 (1563,
# 2, 33); squeue %D, squeue --start and scontrol's NumNodes agree.
for want in "12500 -n 100000" "10 -n 20 -c 4" "33 -n 100 --ntasks-per-node=3" "2 -n 9"; do
	set -- $want
	n=$1; shift
	id=$("$BIN/sbatch" --parsable -H "$@" --wrap true 2>&1) || fail "sbatch -H $*: $id"
	expect_eq "squeue %D of $*" "$n" "$("$BIN/squeue" -h -j "$id" -o %D)"
	expect_eq "squeue --start of $*" "$n" "$("$BIN/squeue" --start -h -j "$id" -o '%.6D' | tr -d ' ')"
	expect_eq "NumNodes of $*" "NumNodes=$n" \
		"$("$BIN/scontrol" show job "$id" | grep -o 'NumNodes=[^ ]*')"
	"$BIN/scancel" "$id"
done
ok "a pending job too big for a node: the nodes its tasks need, as Slurm shows them"
out=$("$BIN/sbatch" --test-only -c 64 --wrap true 2>&1); rc=$?
# Slurm's line alone, first; Sluice's reason after it
expect_eq "--test-only of a job never started" \
	"1 allocation failure: Requested node configuration is not available" "$rc $(echo "$out" | head -n1)"
expect_eq "... then Sluice's reason" 2 "$(echo "$out" | wc -l)"
echo "$out" | tail -n1 | grep -q '^sbatch: error: CPU count per node can not be satisfied (' ||
	fail "--test-only -c 64, the hint: $out"
err=$("$BIN/sbatch" -c 64 --mem=100T --wrap true 2>&1); rc=$?
expect_eq "too big rc" 1 "$rc"
case "$err" in "sbatch: error: Memory specification can not be satisfied"*"Batch job submission failed: Requested node configuration is not available") ;;
*) fail "too big: $err" ;; esac
err=$("$BIN/sbatch" -A nosuchacct --wrap true 2>&1); rc=$?
expect_eq "bad account rc" 1 "$rc"
case "$err" in *"Invalid account or account/partition combination specified"*) ;;
*) fail "bad account: $err" ;; esac
ok "daemon-side refusals use Slurm's texts"

err=$("$BIN/sbatch" --bogus x 2>&1); rc=$?
expect_eq "unknown option rc" 255 "$rc"
expect_eq "unknown option" "sbatch: unrecognized option '--bogus'
Try \"sbatch --help\" for more information" "$err"
err=$("$BIN/sbatch" -t garbage --wrap true 2>&1); rc=$?
expect_eq "bad time rc" 255 "$rc"
expect_eq "bad time" "sbatch: error: Invalid --time specification" "$err"
printf 'echo no shebang\n' >nosheb.sh
err=$("$BIN/sbatch" nosheb.sh 2>&1); rc=$?
expect_eq "no #! rc" 1 "$rc"
expect_eq "no #!" "sbatch: error: This does not look like a batch script.  The first
sbatch: error: line must start with #! followed by the path to an interpreter.
sbatch: error: For instance: #!/bin/sh" "$err"
: >empty.sh
err=$("$BIN/sbatch" empty.sh 2>&1); rc=$?
expect_eq "empty rc" 1 "$rc"
expect_eq "empty" "sbatch: error: Batch script is empty!" "$err"
err=$("$BIN/sbatch" --licenses=matlab --wrap true 2>&1); rc=$?
expect_eq "unsupported rc" 1 "$rc"
expect_eq "unsupported" "sbatch: error: --licenses is not supported by Sluice" "$err"
ok "sbatch's own errors and exit codes match Slurm"
n=$("$BIN/squeue" -h | wc -l)
expect_eq "nothing extra queued" 1 "$n"
ok "no rejected submission left a job behind"

# A script the kernel cannot exec: slurmstepd's line (a missing #!
# interpreter named) and the errno as the exit code (reference cluster).
printf '#!/nonexistent/interp\necho hi\n' >badi.sh
j=$("$BIN/sbatch" --parsable -o badi.out badi.sh) || fail "submit"
wait_state "$j" FAILED
expect_eq "bad interpreter: exit code" "FAILED 2:0" "$("$BIN/sacct" -n -X -P -j "$j" -o State,ExitCode | tr '|' ' ')"
expect_eq "bad interpreter: line" "slurmstepd-$(hostname -s): error: execve(): bad interpreter(/nonexistent/interp): No such file or directory" "$(cat badi.out)"
ok "a script with a missing interpreter: slurmstepd's line, exit code 2"
