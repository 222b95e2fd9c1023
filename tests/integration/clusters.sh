#!/bin/sh
# -M/--clusters, as workflow tools pass it (Snakemake's `sacct --clusters
# all`, `scancel --clusters=all`): Sluice is the one cluster its config
# names. Texts as real Slurm 22.05 prints them (captured on the reference
# cluster: `sbatch -M other`, `squeue -M sluiceref`, `sacct -M nosuch`).
. "$top_srcdir/tests/integration/lib.sh"
write_conf
sed -i 's/^clusterName: .*/clusterName: skyline/' "$SLUICE_CONF"
grep -q '^clusterName: skyline' "$SLUICE_CONF" || echo "clusterName: skyline" >>"$SLUICE_CONF"
start_daemon
cd "$T" || fail "cd"

out=$("$BIN/sbatch" -M skyline -H --wrap true) || fail "sbatch -M skyline: $out"
id=${out#Submitted batch job }
id=${id%% *}
expect_eq "sbatch -M" "Submitted batch job $id on cluster skyline" "$out"
out=$("$BIN/sbatch" --parsable --clusters=all -H --wrap true) || fail "sbatch -M all"
expect_eq "sbatch --parsable -M" "$((id + 1));skyline" "$out"
out=$("$BIN/sbatch" -M other --wrap true 2>&1) && fail "sbatch -M other accepted"
expect_eq "sbatch -M other" "sbatch: error: No cluster 'other' known by database.
sbatch: error: 'other' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$out"
expect_eq "nothing submitted for -M other" "2" "$("$BIN/squeue" -h | wc -l)"
ok "sbatch -M"

out=$("$BIN/squeue" -M skyline -o %i)
expect_eq "squeue -M" "CLUSTER: skyline
JOBID
$((id + 1))
$id" "$out"
expect_eq "squeue -M -h" "$id" "$("$BIN/squeue" -M all -h -j "$id" -o %i)"
out=$("$BIN/squeue" -M skyline -j 999999 2>&1) && fail "squeue -j 999999"
expect_eq "squeue -M, unknown job" "CLUSTER: skyline
slurm_load_jobs error: Invalid job id specified" "$out"
out=$("$BIN/squeue" -M nosuch 2>&1) && fail "squeue -M nosuch"
expect_eq "squeue -M nosuch" "squeue: error: No cluster 'nosuch' known by database.
squeue: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$out"
ok "squeue -M"

"$BIN/scancel" --clusters=all "$id" || fail "scancel --clusters=all"
wait_state "$id" CANCELLED
out=$("$BIN/scancel" -M nosuch "$((id + 1))" 2>&1) && fail "scancel -M nosuch"
expect_eq "scancel -M nosuch" "scancel: error: No cluster 'nosuch' known by database.
scancel: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$out"
expect_eq "scancel -M nosuch cancels nothing" "PENDING" "$(state "$((id + 1))")"
ok "scancel -M"

out=$("$BIN/sacct" --clusters all -X -n -P -o JobIDRaw,State -j "$id")
expect_eq "sacct --clusters all" "$id|CANCELLED by 0" "$out"
out=$("$BIN/sacct" -M nosuch -X -j "$id" -o JobID,State)
rc=$?
expect_eq "sacct -M nosuch: the header, no rows, exit 0" "0:JobID             State 
------------ ---------- " "$rc:$out"
ok "sacct -M"

out=$("$BIN/sinfo" -M skyline -o %P)
expect_eq "sinfo -M" "CLUSTER: skyline
PARTITION
$(sed -n 's/^defaultPartition: //p' "$SLUICE_CONF")*" "$out"
expect_eq "sinfo -M -h: no CLUSTER line" "$("$BIN/sinfo" -h -o %P)" "$("$BIN/sinfo" -M all -h -o %P)"
out=$("$BIN/sinfo" -M nosuch 2>&1) && fail "sinfo -M nosuch"
expect_eq "sinfo -M nosuch" "sinfo: error: No cluster 'nosuch' known by database.
sinfo: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$out"
"$BIN/sinfo" -M all --json | python3 -m json.tool >/dev/null || fail "sinfo -M all --json is not JSON"
expect_eq "sinfo -M -l: the date, then the cluster" "CLUSTER: skyline" \
	"$("$BIN/sinfo" -M skyline -l | sed -n 2p)"
ok "sinfo -M"

# scontrol -M (Snakemake's `scontrol show partition -M CLUSTER`): the one
# cluster, no CLUSTER line (scontrol prints none); SLURM_CLUSTERS too.
expect_eq "scontrol -M" "$("$BIN/scontrol" show partition)" \
	"$("$BIN/scontrol" show partition -M skyline)"
expect_eq "scontrol --clusters=all" "$("$BIN/scontrol" show partition)" \
	"$("$BIN/scontrol" --clusters=all show partition)"
out=$("$BIN/scontrol" -M nosuch show partition 2>&1) && fail "scontrol -M nosuch"
expect_eq "scontrol -M nosuch" "scontrol: error: No cluster 'nosuch' known by database.
scontrol: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$out"
out=$(SLURM_CLUSTERS=nosuch "$BIN/scontrol" show partition 2>&1) && fail "SLURM_CLUSTERS=nosuch"
ok "scontrol -M"

# srun and salloc -M (22.05 takes it: the reference's `srun -M sluiceref
# hostname` runs, `-M nosuch` ends with the same two lines, exit 1).
out=$("$BIN/srun" -M skyline -t 1 echo ran 2>&1) || fail "srun -M skyline: $out"
expect_eq "srun -M" "ran" "$out"
out=$(SLURM_CLUSTERS=all "$BIN/srun" -t 1 echo ran 2>&1) || fail "SLURM_CLUSTERS=all srun: $out"
expect_eq "srun with SLURM_CLUSTERS=all" "ran" "$out"
n=$("$BIN/sacct" -X -n -a | wc -l)
for cmd in srun salloc; do
	out=$("$BIN/$cmd" -M nosuch true 2>&1); rc=$?
	expect_eq "$cmd -M nosuch" "1:$cmd: error: No cluster 'nosuch' known by database.
$cmd: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." "$rc:$out"
done
out=$(SALLOC_CLUSTERS=nosuch "$BIN/salloc" true 2>&1) && fail "SALLOC_CLUSTERS=nosuch: $out"
expect_eq "nothing allocated for -M nosuch" "$n" "$("$BIN/sacct" -X -n -a | wc -l)"
ok "srun and salloc -M"
