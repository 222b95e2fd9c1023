#!/bin/sh
# sbcast in a job script, as users write it: the file reaches the job's
# node (this host), Slurm's errors and exit codes otherwise (the reference
# cluster's: 17 for a file that exists without -f, 255 for a source that
# cannot open, Slurm's lookup errors for a job not running or not the
# caller's, "Need a job id" outside a job).
. "$top_srcdir/tests/integration/lib.sh"
make_users
write_conf
start_daemon
cd "$T/work" || fail "cd"
chmod 0777 "$T/work"

cat >bc.sh <<SCRIPT
#!/bin/sh
echo data >"$T/work/src.txt"; chmod 640 "$T/work/src.txt"
"$BIN/sbcast" "$T/work/src.txt" "$T/work/dst.txt"; echo "rc1=\$?"
"$BIN/sbcast" "$T/work/src.txt" "$T/work/dst.txt"; echo "rc2=\$?"
"$BIN/sbcast" -f -p "$T/work/src.txt" "$T/work/dst.txt"; echo "rc3=\$?"
"$BIN/sbcast" "$T/work/nosuch" "$T/work/d2.txt"; echo "rc4=\$?"
"$BIN/sbcast" "$T/work/src.txt" rel.txt; echo "rc5=\$?"
"$BIN/sbcast" -C "$T/work/src.txt"; echo "rc6=\$?"
SCRIPT
j=$(submit $USER1 -o bc.out -e bc.out bc.sh) || fail "submit"
wait_state "$j" COMPLETED
expect_eq "sbcast in a job" "rc1=0
sbcast: error: REQUEST_FILE_BCAST($(hostname -s)): File exists
rc2=17
rc3=0
sbcast: error: Can't open \`$T/work/nosuch\`: No such file or directory
rc4=255
rc5=0
Need two file names, have 1 names
Try \"sbcast --help\" for more information
rc6=1" "$(cat bc.out)"
expect_eq "the copy" "data" "$(cat dst.txt)"
expect_eq "its mode and owner, the source's and the job's" "640 $USER1" "$(stat -c '%a %U' dst.txt)"
expect_eq "relative: to the working directory" "data" "$(cat rel.txt)"
ok "sbcast in a job script: the copy, -f, -p, Slurm's errors and exit codes"

out=$(as $USER1 "$BIN/sbcast" /etc/hostname "$T/work/x" 2>&1); rc=$?
expect_eq "outside a job" "1 sbcast: error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option." "$rc $out"
h=$(submit $USER1 -H --wrap true) || fail "submit held"
out=$(as $USER1 "$BIN/sbcast" -j "$h" /etc/hostname "$T/work/x" 2>&1); rc=$?
expect_eq "-j a pending job" "255 sbcast: error: Slurm job $h lookup error: Job is pending execution" "$rc $out"
out=$(as $USER1 "$BIN/sbcast" -j 99999 /etc/hostname "$T/work/x" 2>&1); rc=$?
expect_eq "-j no such job" "255 sbcast: error: Slurm job 99999 lookup error: Invalid job id specified" "$rc $out"
r=$(submit $USER1 --wrap 'sleep 60') || fail "submit running"
wait_state "$r" RUNNING
out=$(as $USER2 "$BIN/sbcast" -j "$r" /etc/hostname "$T/work/y" 2>&1); rc=$?
expect_eq "-j another user's job" "255 sbcast: error: Slurm job $r lookup error: Access/permission denied" "$rc $out"
as $USER1 "$BIN/sbcast" -j "$r" /etc/hostname "$T/work/z" || fail "sbcast -j a running job"
[ -f "$T/work/z" ] || fail "sbcast -j: no file"
out=$(as $USER1 "$BIN/sbcast" --send-libs -j "$r" /etc/hostname "$T/work/w" 2>&1); rc=$?
expect_eq "--send-libs" "1 sbcast: error: --send-libs is not supported by Sluice" "$rc $out"
"$BIN/scancel" "$r" "$h"
wait_state "$r" CANCELLED
out=$(as $USER1 "$BIN/sbcast" -j "$r" /etc/hostname "$T/work/v" 2>&1); rc=$?
expect_eq "-j an ended job" "255 sbcast: error: Slurm job $r lookup error: Job/step already completing or completed" "$rc $out"
ok "sbcast -j: Slurm's lookup errors; --send-libs refused by name"
