#!/bin/sh
# srun --mpi=pmix with Debian's OpenMPI: the ranks srun starts wire up
# through srun's PMIx server (an Allreduce across them), SLURM_MPI_TYPE
# selects it as --mpi does, an MPI_Abort ends the step with Slurm 22.05's
# lines (the other ranks Killed, the aborting rank's exit code srun's,
# the step CANCELLED by the user), the config's mpiDefault: pmix is what a
# bare srun uses (scontrol show config says so) and --mpi=none still
# wins, and mpirun inside the job uses the allocation. Skipped when mpicc
# or this build's PMIx server is missing.
. "$top_srcdir/tests/integration/lib.sh"
# OpenMPI's by name: another MPI may own the mpicc alternative
MPICC=$(command -v mpicc.openmpi || command -v mpicc) || skip "no mpicc (Debian's libopenmpi-dev)"
"$BIN/srun" --mpi=list | grep -q pmix || skip "srun was built without libpmix"
make_users
write_conf "minJobAge: 300
mpiDefault: pmix"
start_daemon
cd "$T/work"

cat >hello.c <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int rank, size, one = 1, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (argc > 1 && rank == atoi(argv[1]))
		MPI_Abort(MPI_COMM_WORLD, 3);
	if (argc > 1)
		sleep(60);
	printf("rank %d of %d sum %d\n", rank, size, sum);
	MPI_Finalize();
	return 0;
}
EOF
"$MPICC" -o hello hello.c || fail "mpicc"
chmod 755 hello
MPIRUN=$(command -v mpirun.openmpi || command -v mpirun) || skip "no mpirun"

cat >mpi.sh <<EOS
#!/bin/sh
$BIN/srun --mpi=pmix $T/work/hello >pmix.txt
echo "pmix rc=\$?"
sort pmix.txt
SLURM_MPI_TYPE=pmix $BIN/srun -l -n 2 $T/work/hello | sort
$BIN/srun --mpi=pmix -n 1 env | grep '^SLURM_MPI_TYPE='
$BIN/srun --mpi=pmix $T/work/hello 1 2>abort.err
echo "abort rc=\$?"
$MPIRUN $T/work/hello >mpirun.txt
echo "mpirun rc=\$?"
sort mpirun.txt
$BIN/srun -n 2 $T/work/hello | sort
$BIN/srun --mpi=none -n 1 env | grep -c '^PMIX_RANK='
exit 0
EOS
chmod 755 mpi.sh
j=$(submit $USER1 -n 4 -o "$T/work/mpi.out" mpi.sh) || fail "submit"
wait_state "$j" COMPLETED 120
cat >want <<EOF
pmix rc=0
rank 0 of 4 sum 4
rank 1 of 4 sum 4
rank 2 of 4 sum 4
rank 3 of 4 sum 4
0: rank 0 of 2 sum 2
1: rank 1 of 2 sum 2
SLURM_MPI_TYPE=pmix
abort rc=3
mpirun rc=0
rank 0 of 4 sum 4
rank 1 of 4 sum 4
rank 2 of 4 sum 4
rank 3 of 4 sum 4
rank 0 of 2 sum 2
rank 1 of 2 sum 2
0
EOF
diff -u want mpi.out >&2 || fail "the MPI job's output"
ok "srun --mpi=pmix wires OpenMPI ranks up (also from SLURM_MPI_TYPE and mpiDefault); mpirun uses the allocation"
expect_eq "MpiDefault" "MpiDefault              = pmix" \
	"$("$BIN/scontrol" show config | grep '^MpiDefault ')"

sed -e 's/AT [0-9T:-]* \*\*\*/AT TS ***/' -e "s/$(hostname -s)/NODE/g" abort.err |
	grep -e '^srun' -e '^slurmstepd' >abort.masked
printf '%s\n' "srun: Job step aborted: Waiting up to 32 seconds for job step to finish." \
	"slurmstepd-NODE: error: *** STEP $j.3 ON NODE CANCELLED AT TS ***" \
	"srun: error: NODE: tasks 0,2-3: Killed" \
	"srun: error: NODE: task 1: Exited with exit code 3" >abort.want
diff -u abort.want abort.masked >&2 || fail "MPI_Abort: srun's lines"
expect_eq "aborted step" "CANCELLED by $(id -u $USER1)|0:9" \
	"$("$BIN/sacct" -n -P -j "$j.3" -o State,ExitCode)"
ok "MPI_Abort ends the step with Slurm's lines and exit code, CANCELLED by the user"

ls "${TMPDIR:-/tmp}" | grep -q "^sluice-pmix\.$j\." && fail "a PMIx directory was left"
ok "the PMIx server's directory is removed with the step"
