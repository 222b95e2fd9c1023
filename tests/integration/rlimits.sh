#!/bin/sh
# The submitting shell's soft limits reach the job, as Slurm's default
# PropagateResourceLimits=ALL carries them (checked on the reference
# cluster: `ulimit -S -s 4096; sbatch --wrap 'ulimit -s'` prints 4096), and
# --propagate chooses which.
. "$top_srcdir/tests/integration/lib.sh"
write_conf
start_daemon
cd "$T" || fail "cd"
daemon_stack=$(sh -c 'ulimit -S -s')
[ "$daemon_stack" != 4096 ] || skip "the daemon's own stack limit is already 4096 KiB"

run() { # run SBATCH_ARGS... -> the job's output
	id=$(sh -c "ulimit -S -s 4096; ulimit -S -c 0; ulimit -S -n 512; \"$BIN/sbatch\" --parsable -o '$T/%j.out' $* --wrap 'ulimit -s; ulimit -c; ulimit -n'") ||
		fail "sbatch $*"
	wait_state "$id" COMPLETED
	tr '\n' ' ' <"$T/$id.out"
}
expect_eq "all limits by default" "4096 0 512 " "$(run)"
expect_eq "--propagate (all)" "4096 0 512 " "$(run --propagate)"
expect_eq "--propagate=CORE" "$daemon_stack 0 $(sh -c 'ulimit -S -n') " "$(run --propagate=CORE)"
expect_eq "--propagate=NONE" "$daemon_stack $(sh -c 'ulimit -S -c') $(sh -c 'ulimit -S -n') " "$(run --propagate=NONE)"
ok "soft limits propagate, and --propagate chooses"

out=$("$BIN/sbatch" --propagate=FOO --wrap true 2>&1); rc=$?
expect_eq "--propagate=FOO" "1:sbatch: error: Bad rlimit name: FOO
sbatch: error: --propagate=FOO is not valid." "$rc:$out"
ok "an unknown limit is refused in Slurm's words"
