#!/bin/sh
# srun --mpi=pmi2 (srun_pmi2.c, compat/pmi2.c): three ranks of a client
# speaking the wire itself (pmi_client.c) put a key each, fence and read
# every rank's, in PMI-2 and in PMI-1, inside a job and in srun's own
# allocation, with the rank, size, job id and process mapping Slurm 22.05
# gives (the same client run under Slurm's mpi/pmi2 printed these lines).
# A rank's abort ends the step with Slurm's lines and srun's 137, the step
# CANCELLED by the user; a rank that exits without finalize ends nothing;
# a program that never speaks PMI runs as it would without; the tasks'
# PMI_* variables and SLURM_MPI_TYPE; mpiDefault: pmi2 is a bare srun's;
# a probe's replies to each request byte for byte as Slurm's.
. "$top_srcdir/tests/integration/lib.sh"
CLIENT="$top_builddir/tests/integration/pmi_client"
[ -x "$CLIENT" ] || fail "no $CLIENT (make check builds it)"
make_users
write_conf "minJobAge: 300
mpiDefault: pmi2"
start_daemon
cd "$T/work"
cp "$CLIENT" pmi_client && chmod 755 pmi_client

cat >pmi.sh <<EOS
#!/bin/sh
cd $T/work
$BIN/srun --mpi=pmi2 -n 3 ./pmi_client 2 >p2.txt
echo "pmi2 rc=\$?"
sort p2.txt
SLURM_MPI_TYPE=pmi2 $BIN/srun -n 3 ./pmi_client 1 >p1.txt
echo "pmi1 rc=\$?"
sort p1.txt
$BIN/srun --mpi=pmi2 -n 3 ./pmi_client 2 nofin 1 | sort
echo "nofin rc=\$?"
$BIN/srun --mpi=pmi2 -n 1 sh -c 'echo \$SLURM_MPI_TYPE \$PMI_JOBID \$PMI_RANK \$PMI_SIZE; test -S /proc/self/fd/\$PMI_FD && echo socket'
$BIN/srun --mpi=pmi2 -n 1 hostname
$BIN/srun --mpi=pmi2 -n 3 ./pmi_client 2 abort 1 2>abort2.err
echo "abort2 rc=\$?"
$BIN/srun --mpi=pmi2 -n 3 ./pmi_client 1 abort 2 2>abort1.err
echo "abort1 rc=\$?"
$BIN/srun -n 2 ./pmi_client 2 quiet
echo "default rc=\$?"
$BIN/srun --mpi=none -n 1 env | grep -c '^PMI_'
exit 0
EOS
chmod 755 pmi.sh
j=$(submit $USER1 -n 3 -o "$T/work/pmi.out" pmi.sh) || fail "submit"
wait_state "$j" COMPLETED 120
cat >want <<EOF
pmi2 rc=0
rank 0 of 3: jobid $j.0, 3 of 3 keys, map (vector,(0,1,3))
rank 1 of 3: jobid $j.0, 3 of 3 keys, map (vector,(0,1,3))
rank 2 of 3: jobid $j.0, 3 of 3 keys, map (vector,(0,1,3))
pmi1 rc=0
rank 0 of 3: jobid $j.1, 3 of 3 keys, map (vector,(0,1,3))
rank 1 of 3: jobid $j.1, 3 of 3 keys, map (vector,(0,1,3))
rank 2 of 3: jobid $j.1, 3 of 3 keys, map (vector,(0,1,3))
rank 0 of 3: jobid $j.2, 3 of 3 keys, map (vector,(0,1,3))
rank 2 of 3: jobid $j.2, 3 of 3 keys, map (vector,(0,1,3))
nofin rc=0
pmi2 $j.3 0 1
socket
$(hostname)
abort2 rc=137
abort1 rc=137
default rc=0
0
EOF
diff -u want pmi.out >&2 || fail "the PMI job's output"
ok "srun --mpi=pmi2 serves PMI-2 and PMI-1 ranks in a job (also from SLURM_MPI_TYPE and mpiDefault)"

node=$(hostname -s)
for a in 2:5:1:0,2:1 1:6:2:0-1:7; do
	IFS=: read -r v s rank killed code <<EOA
$a
EOA
	sed -e 's/AT [0-9T:-]* \*\*\*/AT TS ***/' -e "s/$node/NODE/g" abort$v.err |
		grep -e '^srun' -e '^slurmstepd' >abort.masked
	printf '%s\n' "srun: Job step aborted: Waiting up to 32 seconds for job step to finish." \
		"slurmstepd-NODE: error: *** STEP $j.$s ON NODE CANCELLED AT TS ***" \
		"srun: error: NODE: tasks $killed: Killed" \
		"srun: error: NODE: task $rank: Exited with exit code $code" >abort.want
	diff -u abort.want abort.masked >&2 || fail "PMI-$v abort: srun's lines"
	expect_eq "PMI-$v aborted step" "CANCELLED by $(id -u $USER1)|0:9" \
		"$("$BIN/sacct" -n -P -j "$j.$s" -o State,ExitCode)"
done
ok "a rank's abort ends the step with Slurm's lines and srun's 137, CANCELLED by the user"

# Two nodes: PMI_process_mapping as Slurm's mpi/pmi2 writes it for the step's
# distribution, block (two nodes of two) and cyclic (two runs of one a node).
cat >two.sh <<EOS
#!/bin/sh
cd $T/work
$BIN/srun --mpi=pmi2 ./pmi_client 2 | sort
$BIN/srun --mpi=pmi2 -m cyclic ./pmi_client 1 | sort
EOS
chmod 755 two.sh
j2=$(submit $USER1 -N 2 -n 4 -o "$T/work/two.out" two.sh) || fail "submit two"
wait_state "$j2" COMPLETED 60
expect_eq "two nodes" "rank 0 of 4: jobid $j2.0, 4 of 4 keys, map (vector,(0,2,2))
rank 1 of 4: jobid $j2.0, 4 of 4 keys, map (vector,(0,2,2))
rank 2 of 4: jobid $j2.0, 4 of 4 keys, map (vector,(0,2,2))
rank 3 of 4: jobid $j2.0, 4 of 4 keys, map (vector,(0,2,2))
rank 0 of 4: jobid $j2.1, 4 of 4 keys, map (vector,(0,2,1),(0,2,1))
rank 1 of 4: jobid $j2.1, 4 of 4 keys, map (vector,(0,2,1),(0,2,1))
rank 2 of 4: jobid $j2.1, 4 of 4 keys, map (vector,(0,2,1),(0,2,1))
rank 3 of 4: jobid $j2.1, 4 of 4 keys, map (vector,(0,2,1),(0,2,1))" "$(cat two.out)"
ok "PMI_process_mapping of a two-node step, -m block and cyclic"

# srun's own allocation: the step is its job's step 0
out=$(as $USER1 "$BIN/srun" --mpi=pmi2 -n 3 ./pmi_client 2 2>&1 | sort |
	sed 's/jobid [0-9]*\.0,/jobid J.0,/')
expect_eq "srun's own allocation" "rank 0 of 3: jobid J.0, 3 of 3 keys, map (vector,(0,1,3))
rank 1 of 3: jobid J.0, 3 of 3 keys, map (vector,(0,1,3))
rank 2 of 3: jobid J.0, 3 of 3 keys, map (vector,(0,1,3))" "$out"
ok "srun --mpi=pmi2 outside a job"

expect_eq "--mpi=list" "MPI plugin types are...
pmi2" "$("$BIN/srun" --mpi=list | grep -e types -e pmi2 | tr -d '\t')"
expect_eq "MpiDefault" "MpiDefault              = pmi2" \
	"$("$BIN/scontrol" show config | grep '^MpiDefault ')"
ok "srun --mpi=list names pmi2; scontrol shows mpiDefault"

# One rank's requests in each version, the replies byte for byte as the
# reference Slurm 22.05's mpi/pmi2 gave them (pmi_probe.py's header); the
# frame holding the job id has that id's length, the reference's longer.
if command -v python3 >/dev/null; then
	cp "$top_srcdir/tests/integration/pmi_probe.py" . && chmod 644 pmi_probe.py
	for v in 1 2; do
		as $USER1 "$BIN/srun" --mpi=pmi2 -n 1 python3 pmi_probe.py $v >probe$v.out 2>&1 ||
			fail "PMI-$v probe: $(cat probe$v.out)"
		jl='s/^[0-9]* *\(cmd=job-getid-response\)/LEN   \1/'
		sed "$jl" "$top_srcdir/tests/data/srun/pmi_probe$v.ref" >probe$v.want
		sed "$jl" probe$v.out | diff -u probe$v.want - >&2 ||
			fail "PMI-$v replies differ from Slurm's"
	done
	ok "PMI-1 and PMI-2 replies as Slurm 22.05's, byte for byte"
fi
