#!/bin/sh
# What workflow tools type, as they type it: submitit's --wckey and
# --open-mode, Snakemake's sacct --name/--starttime now-2days, Nextflow's
# squeue -t all, squeue %E for a dependency, and the wckey selectors.
. "$top_srcdir/tests/integration/lib.sh"
write_conf
start_daemon
cd "$T" || fail "cd"

# submitit: sbatch --parsable, a wckey, append mode, a warning signal.
a=$("$BIN/sbatch" --parsable --wckey=submitit --open-mode=append --signal=USR2@90 \
	-J wf-a -o "$T/a.out" --wrap 'echo hi') || fail "sbatch (submitit's options)"
wait_state "$a" COMPLETED
expect_eq "squeue %w" "submitit" "$("$BIN/squeue" -h -t all -j "$a" -o %w)"
expect_eq "sacct WCKey" "$a|submitit" "$("$BIN/sacct" -X -n -P -j "$a" -o JobIDRaw,WCKey)"
expect_eq "sacct -W" "$a" "$("$BIN/sacct" -X -n -P -W submitit -o JobIDRaw)"
expect_eq "sacct -W other" "" "$("$BIN/sacct" -X -n -P -W other -o JobIDRaw)"
ok "--wckey recorded and shown"

# Snakemake: the job name as a key, a two-day window ending now.
out=$("$BIN/sacct" -X --parsable2 --noheader --format=JobIdRaw,State \
	--starttime now-2days --endtime now --name wf-a)
expect_eq "snakemake's sacct" "$a|COMPLETED" "$out"

# A dependency shows in squeue's %E as scontrol prints it; Nextflow's -t all.
b=$("$BIN/sbatch" --parsable -H -J wf-b --wckey=wk2 --wrap true) || fail "sbatch b"
c=$("$BIN/sbatch" --parsable -J wf-c -d "afterok:$b" --wrap true) || fail "sbatch c"
expect_eq "squeue %E" "afterok:$b(unfulfilled)" "$("$BIN/squeue" -h -j "$c" -o %E)"
expect_eq "squeue %E without one" "(null)" "$("$BIN/squeue" -h -j "$b" -o %E)"
expect_eq "nextflow's squeue" "$a CD
$b PD
$c PD" "$("$BIN/squeue" --noheader -o '%i %t' -t all | sort -n)"
ok "squeue %E and -t all"

# scancel --wckey selects by it.
"$BIN/scancel" --wckey=other || fail "scancel --wckey=other"
expect_eq "--wckey other cancels nothing" "PENDING" "$(state "$b")"
"$BIN/scancel" --wckey=wk2 || fail "scancel --wckey=wk2"
wait_state "$b" CANCELLED
expect_eq "--wckey selects only its jobs" "PENDING" "$(state "$c")"
ok "scancel --wckey"

# Tools probe scontrol's other entities: none of these exist here.
expect_eq "show reservation" "No reservations in the system" "$("$BIN/scontrol" show reservation)"
out=$("$BIN/scontrol" -a show res foo); rc=$?
expect_eq "show res NAME (ReFrame)" "Reservation foo not found 1" "$out $rc"
expect_eq "show licenses" "No licenses configured in Slurm." "$("$BIN/scontrol" show lic)"
out=$("$BIN/scontrol" show assoc_mgr 2>&1); rc=$?
expect_eq "show assoc_mgr" "1:scontrol: error: show assoc_mgr is not supported by Sluice" "$rc:$out"
ok "scontrol show reservation, licenses, assoc_mgr"
