#!/bin/bash
# srun_share.sh - steps sharing an allocation (srun.sh runs it in sbatch -n 2):
# a step waits while another holds the CPUs, --exact and --overlap do not.
S=${SRUN:-srun}
$S -n 1 sleep 3 &
sleep 1
a=$(date +%s); $S -n 1 true; b=$(date +%s); echo "plain waited $((b-a))"
wait
$S --exact -n 1 sleep 3 &
sleep 1
a=$(date +%s); $S --exact -n 1 true; b=$(date +%s); echo "exact waited $((b-a))"
wait
$S -n 1 sleep 3 &
sleep 1
a=$(date +%s); $S --overlap -n 1 true; b=$(date +%s); echo "overlap waited $((b-a))"
wait
