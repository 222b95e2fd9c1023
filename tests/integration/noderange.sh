#!/bin/sh
# -N MIN-MAX through the real sluiced: Kueue's partial admission gives the
# job as many nodes as the quota holds (at least MIN), and that count is what
# squeue, scontrol, the job's environment and a restart of sluiced see.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=8 start_daemon
cd "$T/work"

# 2 cpus a node, 8 in the queue: -N 2-6 gets 4 nodes once released. It
# runs until told (the file $T/j.go), not for a time a loaded host's kill -9
# and restart below could outlast.
j=$(submit $USER1 -H -N 2-6 -c 2 -o range-%j.out \
	--wrap "echo \"nnodes=\$SLURM_JOB_NUM_NODES nodelist=\$SLURM_JOB_NODELIST\"; until [ -e $T/j.go ]; do sleep 0.1; done") ||
	fail "submit -N 2-6"
numnodes() { "$BIN/scontrol" show job "$1" | sed -n 's/^ *NumNodes=\([^ ]*\) NumCPUs=\([0-9]*\).*/\1 \2/p'; }
expect_eq "pending NumNodes/NumCPUs" "2-6 4" "$(numnodes "$j")"
as $USER1 "$BIN/scontrol" release "$j" || fail "release"
wait_state "$j" RUNNING 20
expect_eq "squeue nodes" "4" "$("$BIN/squeue" -h -j "$j" -o %D)"
expect_eq "running NumNodes/NumCPUs" "4 8" "$(numnodes "$j")"
ok "-N 2-6 -c 2 with 8 cpus of quota runs on 4 nodes (8 cpus)"

# The count survives a restart of sluiced (the engine is told, quota kept).
kill9_daemon
start_daemon
expect_eq "after restart" "4 8" "$(numnodes "$j")"
k=$(submit $USER1 -N 1 -c 2 --wrap true) || fail "submit 1 node"
"$BIN/squeue" -h -j "$k" -o %r | grep -q Resources || fail "job $k should wait for quota: $("$BIN/squeue" -h -j "$k" -o %r)"
ok "after kill -9 of sluiced the job keeps its 4 nodes and its quota"
touch "$T/j.go"
wait_state "$j" COMPLETED 30
expect_eq "job environment" "nnodes=4 nodelist=$(hostname -s)-[0-3]" "$(cat "range-$j.out")"
wait_state "$k" COMPLETED 30
ok "the job saw SLURM_JOB_NUM_NODES=4"

# Totals spread over the nodes cannot take a range: refused, with the reason.
err=$(as $USER1 "$BIN/sbatch" -N 2-4 -n 8 --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-N 2-4 -n 8 exit" 1 "$rc"
expect_eq "-N 2-4 -n 8 message" "sbatch: error: Batch job submission failed: --nodes=2-4 with a \
total of --ntasks is not supported by Sluice: a node's share would depend on how many nodes are \
given; use --ntasks-per-node or --gpus-per-node, or one node count" "$err"
# Not even MIN fits the queue's CPUs: taken, to wait for PartitionConfig,
# as slurmctld (EnforcePartLimits=NO) leaves a job no partition can hold.
nf=$(as $USER1 "$BIN/sbatch" --parsable -N 5-6 -c 2 --wrap true 2>&1) || fail "-N 5-6: $nf"
wait_until "-N 5-6: $("$BIN/squeue" -h -j "$nf" -o '%t %r')" \
	'[ "$("$BIN/squeue" -h -j "$nf" -o "%t %r")" = "PD PartitionConfig" ]'
"$BIN/scancel" "$nf"
ok "-N with -n refused; a range whose minimum cannot fit waits (PartitionConfig)"
