#!/bin/sh
# kind: Partition (Slurm's MaxTime, DefaultTime, DefMemPerCPU, MaxNodes),
# as real Slurm 22.05 applies them with EnforcePartLimits=NO (checked on the
# reference cluster, whose debug partition has MaxTime=00:30:00 MaxNodes=1
# and gpu DefaultTime=01:00:00: `sbatch -p debug -t 60` is accepted and
# waits with PartitionTimeLimit; sinfo shows "debug up 30:00").
. "$top_srcdir/tests/integration/lib.sh"
EXTRA_OBJECTS="---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: debug, namespace: general}
spec: {clusterQueue: main}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: gpu, namespace: general}
spec: {clusterQueue: main}
---
apiVersion: sluice.io/v1alpha1
kind: Partition
metadata: {name: debug}
spec: {maxTime: \"00:30:00\", maxNodes: \"1\", defMemPerCPU: 100Mi}
---
apiVersion: sluice.io/v1alpha1
kind: Partition
metadata: {name: gpu}
spec: {maxTime: \"7-00:00:00\", defaultTime: \"01:00:00\", maxMemPerNode: 1Gi}" write_conf
start_daemon
cd "$T" || fail "cd"

long=$("$BIN/sbatch" --parsable -p debug -t 60 -o /dev/null --wrap true) || fail "sbatch -p debug -t 60"
sleep 0.5
expect_eq "beyond MaxTime: accepted, waits" "PENDING PartitionTimeLimit 1:00:00" \
	"$("$BIN/squeue" -h -j "$long" -o '%T %r %l')"
wide=$("$BIN/sbatch" --parsable -p debug -N 2 -o /dev/null --wrap true) || fail "sbatch -N 2"
sleep 0.5
expect_eq "beyond MaxNodes" "PartitionNodeLimit" "$("$BIN/squeue" -h -j "$wide" -o %r)"
"$BIN/scancel" "$long" "$wide"
ok "MaxTime and MaxNodes keep jobs pending with Slurm's reasons"

d=$("$BIN/sbatch" --parsable -p debug -H -o /dev/null --wrap true) || fail "debug, no -t"
g=$("$BIN/sbatch" --parsable -p gpu -H -o /dev/null --wrap true) || fail "gpu, no -t"
b=$("$BIN/sbatch" --parsable -H -o /dev/null --wrap true) || fail "batch, no -t"
expect_eq "no DefaultTime: MaxTime" "30:00" "$("$BIN/squeue" -h -j "$d" -o %l)"
expect_eq "DefaultTime" "1:00:00" "$("$BIN/squeue" -h -j "$g" -o %l)"
expect_eq "no Partition object" "UNLIMITED" "$("$BIN/squeue" -h -j "$b" -o %l)"
"$BIN/scontrol" show job "$d" | grep -q "MinMemoryCPU=100M" ||
	fail "DefMemPerCPU: $("$BIN/scontrol" show job "$d" | grep -o 'MinMemory[A-Za-z]*=[^ ]*')"
out=$("$BIN/sbatch" -p gpu --mem=2G --wrap true 2>&1) && fail "above MaxMemPerNode accepted"
expect_eq "MaxMemPerNode" "sbatch: error: Batch job submission failed: Memory required by task is not available" "$out"
ok "DefaultTime, MaxTime as the default, DefMemPerCPU, MaxMemPerNode"

expect_eq "sinfo TIMELIMIT" "debug 30:00
gpu 7-00:00:00" "$("$BIN/sinfo" -h -p debug,gpu -o '%P %l')"
"$BIN/scontrol" show partition debug | grep -q "MaxNodes=1 MaxTime=00:30:00 MinNodes=0" ||
	fail "scontrol show partition: $("$BIN/scontrol" show partition debug)"
"$BIN/scontrol" show partition debug | grep -q "DefMemPerCPU=100 MaxMemPerNode=UNLIMITED" ||
	fail "scontrol show partition memory: $("$BIN/scontrol" show partition debug | grep Mem)"
"$BIN/scontrol" show partition gpu | grep -q "DefaultTime=01:00:00" || fail "DefaultTime in scontrol"
ok "sinfo and scontrol show the partition's settings"
