#!/bin/sh
# Submit, run, output, exit codes, environment and output patterns, through
# the real sluiced and the real commands, as an unprivileged user.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

cat >env.sh <<'EOS'
#!/bin/sh
#SBATCH -J envjob
#SBATCH -o env-%j.out
env | grep '^SLURM_' | sort
echo "cwd=$(pwd)"
echo "whoami=$(id -un)"
exit 3
EOS
id1=$(submit $USER1 env.sh) || fail "sbatch env.sh failed"
case "$id1" in ''|*[!0-9]*) fail "--parsable printed [$id1]" ;; esac
wait_state "$id1" FAILED
out="$T/work/env-$id1.out"
[ -f "$out" ] || fail "no output file $out"
expect_eq "output owner" "$USER1" "$(stat -c %U "$out")"
grep -qx "SLURM_JOB_ID=$id1" "$out" || fail "SLURM_JOB_ID missing: $(cat "$out")"
grep -qx "SLURM_JOBID=$id1" "$out" || fail "SLURM_JOBID missing"
grep -qx "SLURM_JOB_NAME=envjob" "$out" || fail "SLURM_JOB_NAME"
grep -qx "SLURM_JOB_USER=$USER1" "$out" || fail "SLURM_JOB_USER"
grep -qx "SLURM_JOB_UID=$(id -u $USER1)" "$out" || fail "SLURM_JOB_UID"
grep -qx "SLURM_JOB_PARTITION=batch" "$out" || fail "SLURM_JOB_PARTITION"
grep -qx "SLURM_JOB_ACCOUNT=general" "$out" || fail "SLURM_JOB_ACCOUNT"
grep -qx "SLURM_SUBMIT_DIR=$T/work" "$out" || fail "SLURM_SUBMIT_DIR"
grep -qx "SLURM_CLUSTER_NAME=sluicetest" "$out" || fail "SLURM_CLUSTER_NAME"
grep -qx "SLURM_NNODES=1" "$out" || fail "SLURM_NNODES"
grep -qx "SLURM_JOB_NUM_NODES=1" "$out" || fail "SLURM_JOB_NUM_NODES"
grep -q "^SLURM_JOB_NODELIST=." "$out" || fail "SLURM_JOB_NODELIST"
grep -qx "SLURM_PROCID=0" "$out" || fail "SLURM_PROCID"
grep -qx "cwd=$T/work" "$out" || fail "working directory"
grep -qx "whoami=$USER1" "$out" || fail "job did not run as $USER1"
expect_eq "sacct exit code" "3:0" "$("$BIN/sacct" -n -X -P -j "$id1" -o ExitCode)"
ok "env job: FAILED 3:0, SLURM_* variables, runs as the user"

id2=$(submit $USER1 --wrap 'echo hello; echo oops >&2') || fail "sbatch --wrap"
wait_state "$id2" COMPLETED
expect_eq "wrap output" "hello
oops" "$(cat "slurm-$id2.out")"
expect_eq "wrap sacct" "$id2|wrap|COMPLETED|0:0" \
	"$("$BIN/sacct" -n -X -P -j "$id2" -o JobID,JobName,State,ExitCode)"
ok "--wrap: default slurm-%j.out holds stdout and stderr"

# No signal ignored, none blocked, as under slurmstepd: glibc's posix_spawn
# leaves its internal signals 32 and 33 ignored in the supervisor.
ids=$(submit $USER1 -o sig.out --wrap 'exec grep -E "^Sig(Ign|Blk)" /proc/self/status') ||
	fail "sbatch signals"
wait_state "$ids" COMPLETED
expect_eq "a job's signal dispositions" "SigBlk:	0000000000000000
SigIgn:	0000000000000000" "$(cat sig.out)"
ok "a job starts with no signal ignored or blocked"

id3=$(submit $USER1 -J pat -o 'pat-%j-%x-%u-%%.out' -e 'err-%A-%a.txt' \
	--wrap 'echo to-out; echo to-err >&2') || fail "sbatch -o pattern"
wait_state "$id3" COMPLETED
expect_eq "pattern stdout" "to-out" "$(cat "pat-$id3-pat-$USER1-%.out")"
expect_eq "pattern stderr" "to-err" "$(cat "err-$id3-4294967294.txt")"
ok "output patterns %j %x %u %% %A %a"

id4=$(printf '#!/bin/sh\necho "from stdin $1"\n' | as $USER1 "$BIN/sbatch" --parsable) ||
	fail "script on stdin"
wait_state "$id4" COMPLETED
expect_eq "stdin script" "from stdin " "$(cat "slurm-$id4.out")"
expect_eq "stdin job name" "sbatch" "$("$BIN/sacct" -n -X -P -j "$id4" -o JobName)"
ok "script from stdin"

out=$(as $USER1 "$BIN/sbatch" --wrap true) || fail "plain sbatch"
case "$out" in "Submitted batch job "[0-9]*) ;; *) fail "sbatch printed [$out]" ;; esac
ok "sbatch prints 'Submitted batch job N'"

# Append mode keeps what was there.
echo "before" >app.out
chown $USER1 app.out
id5=$(submit $USER1 -o app.out --open-mode=append --wrap 'echo after') || fail "append"
wait_state "$id5" COMPLETED
expect_eq "append" "before
after" "$(cat app.out)"
ok "--open-mode=append"

# squeue shows a running job with Slurm's default columns.
id6=$(submit $USER1 -J sleeper --wrap 'sleep 30') || fail "sleeper"
wait_state "$id6" RUNNING
hdr=$("$BIN/squeue" | head -n1)
expect_eq "squeue header" "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)" "$hdr"
line=$("$BIN/squeue" -h -j "$id6" -o '%i %P %j %u %t %D')
expect_eq "squeue row" "$id6 batch sleeper $USER1 R 1" "$line"
as $USER1 "$BIN/scancel" "$id6" || fail "scancel"
wait_state "$id6" CANCELLED
ok "squeue shows the running job; scancel ends it"

# --comment is kept with the job and read back by squeue %k, sacct Comment
# and scontrol's Comment= line (with Slurm's trailing space); jobs without
# one show (null) in squeue and no Comment= line.
idc=$(submit $USER1 --comment='nightly run, 7' --wrap true) || fail "sbatch --comment"
wait_state "$idc" COMPLETED
expect_eq "squeue %k" "$idc|nightly run, 7" "$("$BIN/squeue" -h -t all -j "$idc" -o '%i|%k')"
expect_eq "sacct Comment" "$idc|nightly run, 7" \
	"$("$BIN/sacct" -n -X -P -j "$idc" -o JobID,Comment)"
expect_eq "scontrol Comment=" "   Comment=nightly run, 7 " \
	"$("$BIN/scontrol" show job "$idc" | grep '^   Comment=')"
expect_eq "sacct SubmitLine (slurmdbd's words as typed)" \
	"$BIN/sbatch --parsable --comment=nightly run, 7 --wrap true" \
	"$("$BIN/sacct" -n -X -P -j "$idc" -o SubmitLine)"
expect_eq "squeue %k unset" "(null)" "$("$BIN/squeue" -h -t all -j "$id6" -o '%k')"
"$BIN/scontrol" show job "$id6" | grep -q 'Comment=' && fail "Comment= without --comment"
ok "--comment: squeue %k, sacct Comment, scontrol Comment="

# The job's command as Slurm keeps it: the script as sbatch found it (a
# name found in the directory is made whole, ./ and / stay as given) and
# its arguments, in scontrol's Command= and squeue's %o.
mkdir -p cmd && printf '#!/bin/sh\ntrue\n' >cmd/c.sh && chmod -R a+rX cmd
idk=$(cd cmd && submit $USER1 -o /dev/null ./c.sh a 'b c') || fail "sbatch ./c.sh"
idl=$(cd cmd && submit $USER1 -o /dev/null c.sh x) || fail "sbatch c.sh"
expect_eq "Command= of ./c.sh" "   Command=./c.sh a b c" \
	"$("$BIN/scontrol" show job "$idk" | grep '^   Command=')"
expect_eq "squeue %o of c.sh" "$(pwd)/cmd/c.sh x" "$("$BIN/squeue" -h -t all -j "$idl" -o '%o')"
ok "Command= and %o: the script as found, with its arguments"

# The script runs as slurmd's copy of it, named slurm_script: its $0 and
# the shell's error lines say so, as under Slurm.
idm=$(submit $USER1 -o zero.out --wrap 'basename "$0"') || fail "sbatch \$0"
wait_state "$idm" COMPLETED
expect_eq "\$0 of the batch script" "slurm_script" "$(cat zero.out)"
ok "the batch script's \$0 is slurm_script"
