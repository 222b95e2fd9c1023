#!/bin/sh
# Issue 11, hole 1: counts whose products wrap. `-c 536870911
# --ntasks-per-node=8` was stored with NumCPUs=-8 and --mem=17592145084 with
# a negative memory request, and fifteen such jobs ran at once on an 8-CPU
# quota. Both are refused with the numbers and Slurm's words, and nothing is
# queued.
. "$top_srcdir/tests/integration/lib.sh"
start_daemon
cd "$T"

err=$("$BIN/sbatch" -c 536870911 --ntasks-per-node=8 --wrap 'sleep 30' 2>&1); rc=$?
expect_eq "cpus rc" 1 "$rc"
expect_eq "cpus" "sbatch: error: 8 tasks per node of 536870911 CPUs each on 1 node(s) is more than 2147483647 CPUs
sbatch: error: Batch job submission failed: More processors requested than permitted" "$err"
ok "sbatch -c 536870911 --ntasks-per-node=8 is refused"

err=$("$BIN/sbatch" --mem=17592145084 --wrap 'sleep 30' 2>&1); rc=$?
expect_eq "mem rc" 1 "$rc"
expect_eq "mem" "sbatch: error: --mem=17592145084M on 1 node(s) is more than the 8796093022M of memory Sluice can count
sbatch: error: Batch job submission failed: Memory required by task is not available" "$err"
ok "sbatch --mem=17592145084 is refused"

err=$("$BIN/sbatch" -N 99999999999 --wrap true 2>&1); rc=$?
expect_eq "nodes rc" 255 "$rc"
expect_eq "nodes" 'sbatch: error: "99999999999" is not a valid node count' "$err"
ok "a node count past an int is refused by sbatch"

expect_eq "nothing queued" "" "$("$BIN/squeue" -h -o %i)"
kill -0 "$DPID" || fail "sluiced died"
ok "nothing was queued, and sluiced still serves"
