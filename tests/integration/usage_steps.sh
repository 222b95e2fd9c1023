#!/bin/sh
# An srun step's use on its own row, through the real sluiced, sluice-stepd
# and srun: in Slurm each step runs under a slurmstepd of its own, so the
# step's row carries what its tasks used and the batch step's only the
# script's own processes (srun among them), and the job's row the sum,
# which seff adds up again from the rows. A batch job runs a step that
# burns CPU and one that holds 160 MiB (sstat meanwhile shows it on the
# step, not on the batch step, nor the first step's CPU on the batch
# step), then a step of two tasks of different
# sizes; an allocation of srun's own has its step's CPU on the job's row.
. "$top_srcdir/tests/integration/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
make_users
start_daemon
cd "$T/work"
cat >burn.py <<'S'
import os, sys, time
t = time.process_time()
while time.process_time() - t < float(sys.argv[1]):
    pass
S
cat >hold.py <<'S'
import os, sys, time
mib = int(sys.argv[1]) * (int(os.environ.get("SLURM_PROCID", "0")) + 1)
a = bytearray(mib << 20)
for i in range(0, mib << 20, 4096):
    a[i] = 1
time.sleep(float(sys.argv[2]))
S
cat >job.sh <<S
#!/bin/sh
$BIN/srun python3 burn.py 1.2
$BIN/srun python3 hold.py 160 5
S
chmod 755 job.sh
# ms CPU of sacct's MM:SS.mmm, HH:MM:SS or MM:SS forms
ms() { echo "$1" | awk -F'[:.]' '/\./ { print ($1 * 60 + $2) * 1000 + $3; next }
	NF == 3 { print (($1 * 60 + $2) * 60 + $3) * 1000; next } { print ($1 * 60 + $2) * 1000 }'; }
to_kib() { echo "$1" | awk '/K$/ { print int($0) } /M$/ { print int($0 * 1024) }
	/G$/ { print int($0 * 1048576) } /^[0-9]+$/ { print int($0 / 1024) }'; }
field() { echo "$1" | cut -d'|' -f"$2"; }

id=$(submit "$USER1" -o /dev/null job.sh) || fail "sbatch"
# while the memory step runs: sstat shows its 160 MiB on the step, and the
# batch step's sample leaves srun's tasks out
wait_until "step $id.1 running" \
	"[ -n \"\$(as $USER1 $BIN/sstat -n -P -j $id.1 -o MaxRSS 2>/dev/null)\" ]"
sleep 4
live=$(as "$USER1" "$BIN/sstat" -n -P -j "$id.1,$id.batch" -o JobID,MaxRSS,AveCPU)
echo "$live"
kib=$(to_kib "$(echo "$live" | grep "^$id.1|" | cut -d'|' -f2)")
[ -n "$kib" ] && [ "$kib" -ge 150000 ] || fail "sstat $id.1: MaxRSS [$kib] KiB, not the 160 MiB held"
kib=$(to_kib "$(echo "$live" | grep "^$id.batch|" | cut -d'|' -f2)")
[ -n "$kib" ] && [ "$kib" -lt 80000 ] || fail "sstat $id.batch: MaxRSS [$kib] KiB holds the step's"
# the CPU step's 1.2 s came back to the script when it reaped that srun
expect_eq "sstat $id.batch AveCPU: not the ended step's" "00:00:00" \
	"$(echo "$live" | grep "^$id.batch|" | cut -d'|' -f3)"
ok "sstat: the step's memory on the step, not on the batch step, nor an ended step's CPU"

wait_state "$id" COMPLETED 60
rows=$("$BIN/sacct" -n -P -j "$id" -o JobID,TotalCPU,UserCPU,SystemCPU,MaxRSS,AveRSS,MaxVMSize,NTasks,MaxRSSTask,AveCPU)
echo "$rows"
job=$(echo "$rows" | sed -n 1p)
batch=$(echo "$rows" | sed -n 2p)
cpu=$(echo "$rows" | sed -n 3p)
mem=$(echo "$rows" | sed -n 4p)
expect_eq "rows" "$id $id.batch $id.0 $id.1" \
	"$(field "$job" 1) $(field "$batch" 1) $(field "$cpu" 1) $(field "$mem" 1)"
# the CPU step: its own CPU time, and the batch step has not got it
c0=$(ms "$(field "$cpu" 2)")
[ "$c0" -ge 1100 ] || fail "$id.0 TotalCPU $(field "$cpu" 2): not the 1.2 s burnt"
# (the clock's reads cost system time: the split is the kernel's)
u0=$(ms "$(field "$cpu" 3)")
s0=$(ms "$(field "$cpu" 4)")
[ "$u0" -ge 300 ] && [ $((c0 - u0 - s0)) -ge 0 ] && [ $((c0 - u0 - s0)) -le 1 ] ||
	fail "$id.0 UserCPU, SystemCPU $u0 $s0 ms: not its TotalCPU's (ms cut each)"
cb=$(ms "$(field "$batch" 2)")
[ "$cb" -lt 600 ] || fail "$id.batch TotalCPU $(field "$batch" 2) holds the step's"
expect_eq "$id.0 AveCPU (whole seconds)" "00:00:01" "$(field "$cpu" 10)"
# the memory step: its own peak (one task, Ave = Max), the batch's its own
k1=$(to_kib "$(field "$mem" 5)")
[ -n "$k1" ] && [ "$k1" -ge 163840 ] || fail "$id.1 MaxRSS $(field "$mem" 5): not the 160 MiB"
expect_eq "$id.1 AveRSS of one task" "$(field "$mem" 5)" "$(field "$mem" 6)"
[ "$(to_kib "$(field "$mem" 7)")" -ge "$k1" ] || fail "$id.1 MaxVMSize below its MaxRSS"
expect_eq "$id.1 NTasks, MaxRSSTask" "1|0" "$(echo "$mem" | cut -d'|' -f8-9)"
kb=$(to_kib "$(field "$batch" 5)")
[ -n "$kb" ] && [ "$kb" -gt 0 ] && [ "$kb" -lt 80000 ] ||
	fail "$id.batch MaxRSS $(field "$batch" 5): none, or the step's"
# the job's row is the whole, and the rows add up to it (seff's sum)
sum=$((cb + c0 + $(ms "$(field "$mem" 2)")))
cj=$(ms "$(field "$job" 2)")
[ $((cj - sum)) -le 3 ] && [ $((sum - cj)) -le 3 ] ||
	fail "job TotalCPU $cj ms, its rows add up to $sum ms"
expect_eq "job row: no memory figures" "||" "$(echo "$job" | cut -d'|' -f5-7)"
ok "sacct: each step's use on its own row, the batch step's its own, the job's the sum"

# --json: the same split
js=$("$BIN/sacct" -j "$id" --json | python3 -c 'import json, sys
st = {s["step"]["id"]: s for s in json.load(sys.stdin)["jobs"][0]["steps"]}
ms = lambda s: s["time"]["total"]["seconds"] * 1000 + s["time"]["total"]["microseconds"] // 1000
mem = lambda s: [t["count"] for t in s["tres"]["requested"]["max"] if t["type"] == "mem"][0]
print(ms(st["batch"]), ms(st["0"]), mem(st["batch"]) // 1024, mem(st["1"]) // 1024)')
echo "json: $js"
set -- $js
expect_eq "--json batch, 0 total CPU" "$cb $c0" "$1 $2"
expect_eq "--json max mem of batch and 1" "$kb $k1" "$3 $4"
ok "sacct --json: the same figures"

# a step of two tasks: Max the larger task's, Ave their mean, its rank
id2=$(submit "$USER1" -n 2 -o /dev/null --wrap "$BIN/srun -n 2 python3 $T/work/hold.py 40 3") ||
	fail "sbatch -n 2"
wait_state "$id2" COMPLETED 60
two=$("$BIN/sacct" -n -P -j "$id2.0" -o JobID,NTasks,MaxRSS,AveRSS,MaxRSSTask,TRESUsageInMaxTask)
echo "$two"
expect_eq "two tasks" "$id2.0|2" "$(echo "$two" | cut -d'|' -f1-2)"
mx=$(to_kib "$(field "$two" 3)")
av=$(to_kib "$(field "$two" 4)")
[ "$mx" -ge 81920 ] && [ "$av" -lt "$mx" ] && [ "$av" -ge 61440 ] ||
	fail "MaxRSS $mx, AveRSS $av KiB: not the larger task's and the mean of 40 and 80 MiB"
expect_eq "MaxRSSTask: rank 1" 1 "$(field "$two" 5)"
expect_eq "TRESUsageInMaxTask" "cpu=" "$(field "$two" 6 | cut -c1-4)"
ok "a step of two tasks: Max, Ave and the task of Max"

# srun's own allocation: no batch step; the job's row is its step's
as "$USER1" "$BIN/srun" -o /dev/null python3 "$T/work/burn.py" 0.8 || fail "srun"
id3=$("$BIN/sacct" -n -X -P -o JobID | tail -n1)
own=$("$BIN/sacct" -n -P -j "$id3" -o JobID,TotalCPU)
echo "$own"
expect_eq "srun's allocation: rows" "$id3 $id3.0" "$(echo "$own" | cut -d'|' -f1 | tr '\n' ' ' | sed 's/ $//')"
expect_eq "job row = its step's" "$(echo "$own" | sed -n 2p | cut -d'|' -f2)" \
	"$(echo "$own" | sed -n 1p | cut -d'|' -f2)"
[ "$(ms "$(echo "$own" | sed -n 2p | cut -d'|' -f2)")" -ge 700 ] || fail "step's CPU missing"
expect_eq "-X: the job's row alone, the same" "$(echo "$own" | sed -n 1p)" \
	"$("$BIN/sacct" -n -P -X -j "$id3" -o JobID,TotalCPU)"
ok "srun's own allocation: the job's row is its step's"

# the figures are the store's: kept across a restart
stop_daemon
start_daemon
expect_eq "after restart" "$rows" \
	"$("$BIN/sacct" -n -P -j "$id" -o JobID,TotalCPU,UserCPU,SystemCPU,MaxRSS,AveRSS,MaxVMSize,NTasks,MaxRSSTask,AveCPU)"
ok "step figures kept across a restart"
