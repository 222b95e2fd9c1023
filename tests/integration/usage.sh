#!/bin/sh
# Resource use through the real sluiced and sluice-stepd: a job that holds
# 64 MiB and burns CPU ends with sacct's MaxRSS, AveRSS, MaxVMSize on its
# batch step's row, in Slurm's forms (sizes in K, CPU times as
# MM:SS.mmm), its CPU times on both rows, CPUTime = elapsed x CPUs, and
# nothing measured on the job's own row (as Slurm, whose job row shows
# only the CPU times).
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"
cat >mem.sh <<'S'
#!/bin/sh
python3 -c '
import time
a = bytearray(64 << 20)
for i in range(64 << 8):
    a[i << 12] = 1
s = 0
for i in range(3000000):
    s += i
time.sleep(3)
'
S
chmod 755 mem.sh
command -v python3 >/dev/null || skip "needs python3"
id=$(submit "$USER1" -c 2 mem.sh) || fail "sbatch"
wait_state "$id" COMPLETED 60
row=$("$BIN/sacct" -n -P -j "$id" -o JobID,MaxRSS,AveRSS,MaxVMSize,NTasks,MaxRSSNode,MaxRSSTask,AveCPU,UserCPU,SystemCPU,TotalCPU,CPUTimeRAW,ElapsedRaw)
echo "$row"
job=$(echo "$row" | sed -n 1p)
step=$(echo "$row" | sed -n 2p)
field() { echo "$1" | cut -d'|' -f"$2"; }
# a size in KiB: sacct steps up to M (or G) when the figure is a whole
# half-unit (Slurm's CONVERT_NUM_UNIT_EXACT), which depends on what the
# job's memory came to
to_kib() { echo "$1" | awk '/K$/ { print int($0) } /M$/ { print int($0 * 1024) }
	/G$/ { print int($0 * 1048576) }'; }
expect_eq "job row: no memory figures" "|||" "$(echo "$job" | cut -d'|' -f2-5)"
rss=$(field "$step" 2)
kib=$(to_kib "$rss")
[ -n "$kib" ] || fail "MaxRSS [$rss] not a size"
[ "$kib" -ge 65536 ] && [ "$kib" -lt 1048576 ] || fail "MaxRSS $rss: not the 64 MiB held"
expect_eq "AveRSS (one task)" "$rss" "$(field "$step" 3)"
vm=$(to_kib "$(field "$step" 4)")
[ "$vm" -ge "$kib" ] || fail "MaxVMSize $vm below MaxRSS $kib"
expect_eq "NTasks" 1 "$(field "$step" 5)"
expect_eq "MaxRSSNode" "$(hostname -s)" "$(field "$step" 6)"
expect_eq "MaxRSSTask" 0 "$(field "$step" 7)"
user=$(field "$step" 9)
echo "$user" | grep -Eq '^00:0[0-9][:.][0-9]{2,3}$|^00:[0-9]{2}\.[0-9]{3}$' || fail "UserCPU [$user] not Slurm's form"
[ "$user" != "00:00:00" ] || fail "UserCPU zero for a job that computed"
expect_eq "UserCPU, job row = step row" "$user" "$(field "$job" 9)"
expect_eq "TotalCPU, job row = step row" "$(field "$step" 11)" "$(field "$job" 11)"
el=$(field "$job" 13)
expect_eq "CPUTimeRAW = elapsed x 2 CPUs" $((el * 2)) "$(field "$job" 12)"
ok "sacct shows the batch step's use"
# an srun step's use is its own row's, not the batch step's (as Slurm,
# where the step's tasks run under a slurmstepd of their own), so adding
# the rows up, as seff does, gives the job's CPU time once
# (usage_steps.sh has the details)
ids=$(submit "$USER1" -o /dev/null --wrap "$BIN/srun ./mem.sh") || fail "sbatch srun"
wait_state "$ids" COMPLETED 60
rows=$("$BIN/sacct" -n -P -j "$ids" -o JobID,TotalCPU,MaxRSS)
echo "$rows"
kib0=$(to_kib "$(echo "$rows" | sed -n 3p | cut -d'|' -f3)")
[ -n "$kib0" ] && [ "$kib0" -ge 65536 ] || fail "srun step row: MaxRSS [$kib0] KiB, not its 64 MiB"
kibb=$(to_kib "$(echo "$rows" | sed -n 2p | cut -d'|' -f3)")
[ -n "$kibb" ] && [ "$kibb" -lt 65536 ] || fail "batch row: MaxRSS [$kibb] KiB, the step's"
# MM:SS.mmm (or 00:00:00) in ms
ms0=$(echo "$rows" | sed -n 3p | cut -d'|' -f2 | awk -F'[:.]' '{ print ($1 * 60 + $2) * 1000 + (NF > 2 && /\./ ? $3 : 0) }')
expect_eq "sacct --json: the srun step's total CPU as its row's" "$ms0" \
	"$("$BIN/sacct" -j "$ids" --json | python3 -c 'import json, sys
t = [s for s in json.load(sys.stdin)["jobs"][0]["steps"] if s["step"]["id"] == "0"][0]["time"]["total"]
print(t["seconds"] * 1000 + t["microseconds"] // 1000)')"
ok "an srun step's use on its own row, not the batch step's"
# survives a restart of the daemon: the figures are in the store
stop_daemon
start_daemon
expect_eq "MaxRSS after restart" "$rss" "$("$BIN/sacct" -n -P -j "$id" -o MaxRSS | sed -n 2p)"
ok "figures kept across a restart"
# a job that ends while sluiced is down (kill -9): its supervisor's result
# carries the figures, read when the daemon comes back
id2=$(submit "$USER1" mem.sh) || fail "sbatch 2"
wait_state "$id2" RUNNING 30
kill9_daemon
sleep 6
start_daemon
wait_state "$id2" COMPLETED 30
rss2=$("$BIN/sacct" -n -P -j "$id2" -o MaxRSS | sed -n 2p)
kib2=$(to_kib "$rss2")
[ -n "$kib2" ] && [ "$kib2" -ge 65536 ] || fail "after kill -9: MaxRSS [$rss2]"
ok "figures of a job that ended while sluiced was down"
