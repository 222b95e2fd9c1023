#!/bin/sh
# squeue --json, sacct --json and scontrol --json through the real sluiced,
# checked against the documents real Slurm 22.05 printed for jobs in the
# same states (tests/data/json/*_real.json, ids and times masked): the
# same keys in the same order at every level, the same JSON types
# (json_shape.py). Values that mean the same here are checked too: ids,
# states, reasons, exit codes, names, the measured step.
. "$top_srcdir/tests/integration/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
make_users
start_daemon
cd "$T/work"
D="$top_srcdir/tests/data/json"
shape() { python3 "$top_srcdir/tests/integration/json_shape.py" "$@" || fail "shape of $2"; }
get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

printf '#!/bin/sh\npython3 -c "a = bytearray(20 << 20)"\nsleep 1\n' >mem.sh
chmod 755 mem.sh
a=$(submit "$USER1" -J memjob mem.sh)
b=$(submit "$USER1" -J failjob --wrap "exit 3")
c=$(submit "$USER1" -J runjob -t 10 --wrap "sleep 600")
d=$(submit "$USER1" -J heldjob -H --wrap "sleep 1")
wait_state "$a" COMPLETED 30
wait_state "$b" FAILED 30
wait_state "$c" RUNNING 30

as "$USER1" "$BIN/squeue" --json >sq.json || fail "squeue --json"
shape "$D/squeue_real.json" sq.json COMPLETED,FAILED,RUNNING,PENDING
# 22.05's --json ignores the filters and lists every job
as "$USER1" "$BIN/squeue" --json -j "$a" -t R >sq1.json || fail "squeue --json -j"
expect_eq "squeue --json -j: every job" 4 "$(get sq1.json 'len(d["jobs"])')"
expect_eq "ids" "[$a, $b, $c, $d]" "$(get sq.json '[j["job_id"] for j in d["jobs"]]')"
expect_eq "states" "['COMPLETED', 'FAILED', 'RUNNING', 'PENDING']" \
	"$(get sq.json '[j["job_state"] for j in d["jobs"]]')"
expect_eq "reasons" "['None', 'NonZeroExitCode', 'None', 'JobHeldUser']" \
	"$(get sq.json '[j["state_reason"] for j in d["jobs"]]')"
expect_eq "exit codes (wait status)" "[0, 768, 0, 0]" \
	"$(get sq.json '[j["exit_code"] for j in d["jobs"]]')"
expect_eq "time limits" "[None, None, 10, None]" \
	"$(get sq.json '[j["time_limit"] for j in d["jobs"]]')"
expect_eq "names" "['memjob', 'failjob', 'runjob', 'heldjob']" \
	"$(get sq.json '[j["name"] for j in d["jobs"]]')"
expect_eq "command: absolute, \"\" for --wrap" "['$T/work/mem.sh', '']" \
	"$(get sq.json '[j["command"] for j in d["jobs"][:2]]')"
expect_eq "held: no job_resources" "False" "$(get sq.json '"job_resources" in d["jobs"][3]')"
expect_eq "user" "$USER1" "$(get sq.json 'd["jobs"][0]["user_name"]')"
expect_eq "slashes escaped as Slurm's" 1 "$(grep -c '"openapi\\/v0.0.38"' sq.json)"
ok "squeue --json"

# --yaml: the same document through Slurm's YAML form
as "$USER1" "$BIN/squeue" --yaml >sq.yaml || fail "squeue --yaml"
expect_eq "--yaml head" "%YAML 1.1
--- !!map
!!str meta: !!map" "$(sed -n 1,3p sq.yaml)"
expect_eq "--yaml: an empty string is null (slurmctld's)" 4 \
	"$(grep -c '^  !!str admin_comment: !!null null$' sq.yaml)"
expect_eq "--yaml: one job_id a job" 4 "$(grep -c '^  !!str job_id: !!int ' sq.yaml)"
expect_eq "--yaml ends" "..." "$(tail -n1 sq.yaml)"
as "$USER1" "$BIN/sacct" --yaml -j "$a" | grep -q '^  !!str constraints: !!str$' ||
	fail "sacct --yaml: an empty string stays a string (slurmdbd's)"
as "$USER1" "$BIN/scontrol" --yaml show job "$a" | grep -q "^  !!str job_id: !!int $a\$" ||
	fail "scontrol --yaml show job"
as "$USER1" "$BIN/scontrol" --yaml show node | grep -q '^!!str nodes: !!seq$' ||
	fail "scontrol --yaml show node"
ok "--yaml"

as "$USER1" "$BIN/scontrol" --json show job "$c" >sc.json || fail "scontrol --json show job"
shape "$D/squeue_real.json" sc.json RUNNING
expect_eq "scontrol --json: the one job" "[$c]" "$(get sc.json '[j["job_id"] for j in d["jobs"]]')"
out=$(as "$USER1" "$BIN/scontrol" --json show partition 2>&1) && fail "show partition --json: exit 0"
expect_eq "show partition --json" "scontrol: error: --json with show partition is not supported by Sluice" "$out"
ok "scontrol --json show job"

as "$USER1" "$BIN/sacct" --json -j "$a,$b,$c,$d" >sa.json || fail "sacct --json"
shape "$D/sacct_real.json" sa.json COMPLETED,FAILED,RUNNING,PENDING
expect_eq "sacct ids" "[$a, $b, $c, $d]" "$(get sa.json '[j["job_id"] for j in d["jobs"]]')"
expect_eq "steps" "[1, 1, 1, 0]" "$(get sa.json '[len(j["steps"]) for j in d["jobs"]]')"
expect_eq "pending: no nodes" "None assigned" "$(get sa.json 'd["jobs"][3]["nodes"]')"
expect_eq "time limit" "10" "$(get sa.json 'd["jobs"][2]["time"]["limit"]')"
rss=$(as "$USER1" "$BIN/sacct" -n -P -j "$a.batch" -o MaxRSS)
expect_eq "step's measured memory (bytes)" "$((${rss%K} * 1024))" \
	"$(get sa.json '[t["count"] for t in d["jobs"][0]["steps"][0]["tres"]["requested"]["max"] if t["type"] == "mem"][0]')"
ok "sacct --json"

# a cancelled job that ran: its measured step against Slurm's of the same kind
sleep 3
as "$USER1" "$BIN/scancel" "$c"
wait_state "$c" CANCELLED 30
as "$USER1" "$BIN/sacct" --json -j "$c" >sc2.json || fail "sacct --json -j"
shape "$D/sacct_real_measured.json" sc2.json CANCELLED
expect_eq "signalled step" "SIGNALED 15" \
	"$(get sc2.json 'd["jobs"][0]["steps"][0]["exit_code"]["status"] + " " + str(d["jobs"][0]["steps"][0]["exit_code"]["signal"]["signal_id"])')"
ok "sacct --json of a measured, cancelled job"

# cancelled while pending (never got nodes) and cancelled while running
as "$USER1" "$BIN/scancel" "$d"
wait_state "$d" CANCELLED 30
as "$USER1" "$BIN/squeue" --json >sq2.json || fail "squeue --json"
shape "$D/squeue_real_cancelled.json" sq2.json CANCELLED
expect_eq "never ran: resources, cpus, host, flags" "False None  []" \
	"$(get sq2.json '" ".join(str(x) for x in [[j for j in d["jobs"] if j["job_id"] == '"$d"'][0].get(k, False) if k == "job_resources" else [j for j in d["jobs"] if j["job_id"] == '"$d"'][0][k] for k in ["job_resources", "cpus", "batch_host", "flags"]])')"
expect_eq "ran, then cancelled: flags" "['JOB_ACCRUE_OVER']" \
	"$(get sq2.json '[j["flags"] for j in d["jobs"] if j["job_id"] == '"$c"'][0]')"
as "$USER1" "$BIN/sacct" --json -j "$d" >sa2.json || fail "sacct --json -j $d"
expect_eq "sacct: cancelled while pending" "[] None assigned None [] $USER1" \
	"$(get sa2.json '" ".join(str(x) for x in [d["jobs"][0]["steps"], d["jobs"][0]["nodes"], d["jobs"][0]["time"]["start"], d["jobs"][0]["flags"], d["jobs"][0]["kill_request_user"]])')"
ok "squeue --json and sacct --json of cancelled jobs"
