#!/bin/sh
# What PBS workflow tools type, as they type them: Nextflow's pbs executor
# reads `qstat -f -1` (Torque's unfolded -f) through grep, writes its
# clusterOptions' `-l` before its own so that PBS keeps the first, and
# names a project with `-P`; qselect and qalter then see that project.
# HyperQueue puts qstat's options after its job ids; pysqa reads
# PBS_O_WORKDIR out of qstat -f's Variable_List; CIME asks ompthreads in
# its select, signac-flow Torque's procs.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=4 write_conf
start_daemon
cd "$T/work"
S=$(hostname -s)

# Nextflow's .command.run header: clusterOptions' -l first, then its own.
cat > nf.run <<'EOF'
#!/bin/bash
#PBS -N nf-task_1
#PBS -o /dev/null
#PBS -j oe
#PBS -l walltime=48:00:00
#PBS -l nodes=1:ppn=1
#PBS -l walltime=01:00:00
#PBS -P genomics
sleep 300
EOF
id=$(as $USER1 "$BIN/qsub" nf.run) || fail "qsub: $id"
jn=${id%%.*}
expect_eq "qsub's id" "$jn.$S" "$id"
wait_state "$jn" RUNNING

# PbsExecutor's status command, as it runs it (set -o pipefail, bash -c)
out=$(as $USER1 bash -c "set -o pipefail; $BIN/qstat -f -1 | { grep -E '(Job Id:|job_state =)' || true; }") ||
	fail "qstat -f -1: exit $?"
expect_eq "nextflow's qstat -f -1" "Job Id: $id
    job_state = R" "$out"
ok "qstat -f -1: Torque's unfolded -f, which Nextflow's pbs executor reads"

full=$(as $USER1 "$BIN/qstat" -f "$id")
echo "$full" | grep -qx "    Resource_List.walltime = 48:00:00" ||
	fail "the first directive's walltime: $full"
echo "$full" | grep -qx "    project = genomics" || fail "project: $full"
expect_eq "squeue %w" "genomics" "$("$BIN/squeue" -h -j "$jn" -o %w)"
ok "the first #PBS -l walltime wins; -P is the project (the job's wckey)"

expect_eq "qselect -P" "$id" "$(as $USER1 "$BIN/qselect" -P genomics)"
expect_eq "qselect -P other" "" "$(as $USER1 "$BIN/qselect" -P other)"
# a queued job's project changes (a running one's, like its account, not)
h=$(as $USER1 "$BIN/qsub" -h nf.run) || fail "qsub -h: $h"
as $USER1 "$BIN/qalter" -P proteomics "$h" || fail "qalter -P"
as $USER1 "$BIN/qstat" -f "$h" | grep -qx "    project = proteomics" ||
	fail "qalter -P: $(as $USER1 "$BIN/qstat" -f "$h")"
ok "qselect -P and qalter -P"

as $USER1 "$BIN/qdel" "$id" "$h" || fail "qdel"
wait_state "$jn" CANCELLED

# HyperQueue's PBS queue asks "qstat -f ID1 -f ID2 -F json -x": OpenPBS's
# qstat takes options after its operands (glibc's getopt permutes them);
# Sluice's stopped at the first id and printed the text layout, without -x
d=$(as $USER1 "$BIN/qsub" -N hqdone -- /bin/true) || fail "qsub: $d"
h=$(as $USER1 "$BIN/qsub" -h -N hqheld -- /bin/true) || fail "qsub -h: $h"
wait_state "${d%%.*}" COMPLETED
out=$(as $USER1 "$BIN/qstat" -f "$d" -f "$h" -F json -x) || fail "qstat -f ID -f ID -F json -x: $out"
expect_eq "HyperQueue's qstat" "$d F hqdone
$h H hqheld" "$(echo "$out" | python3 -c 'import json, sys
for k, v in json.load(sys.stdin)["Jobs"].items(): print(k, v["job_state"], v["Job_Name"])')"
# qsub's options after the script name the job too; qdel's after the ids
l=$(as $USER1 "$BIN/qsub" -h nf.run -N late) || fail "qsub nf.run -N late: $l"
as $USER1 "$BIN/qstat" -f "$l" | grep -qx "    Job_Name = late" ||
	fail "qsub SCRIPT -N: $(as $USER1 "$BIN/qstat" -f "$l")"
as $USER1 "$BIN/qdel" "$l" "$h" -W force || fail "qdel IDS -W force"
expect_eq "qdel IDS -W force" "" "$(as $USER1 "$BIN/qselect" -u $USER1)"
ok "options after the operands: qstat -f ID -F json -x, qsub SCRIPT -N, qdel IDS -W"

# pysqa's Torque/PBS Pro adaptor reads every job's working directory from
# "qstat -f" with its whitespace removed, as PBS_O_WORKDIR=(.*?),PBS in
# Variable_List: qsub's jobs (their PBS_O_* in qsub's order, -v's after
# them), sbatch's, and another user's (whose environment stays private)
v=$(as $USER1 env -i SLUICE_CONF="$SLUICE_CONF" HOME="$T/work" PATH=/usr/bin:/bin LANG=C \
	LOGNAME=$USER1 SHELL=/bin/sh TZ=UTC "$BIN/qsub" -h -N vl -v "GREETING=hi there,PAIR='a,b'" \
	nf.run) || fail "qsub -v: $v"
b=$(submit $USER1 -H -J sb --wrap true) || fail "sbatch -H"
o=$(as $USER2 "$BIN/qsub" -h -N other nf.run) || fail "qsub as $USER2: $o"
full=$(as $USER1 "$BIN/qstat" -f "$v")
vl=$(echo "$full" | python3 -c 'import sys, re
t = sys.stdin.read()
m = re.search(r"\n    Variable_List = (.*?)\n    [a-z]", t, re.S)
print(m.group(1).replace("\n\t", ""))')
expect_eq "Variable_List of a qsub job" "PBS_O_HOME=$T/work,PBS_O_LANG=C,PBS_O_LOGNAME=$USER1,\
PBS_O_PATH=/usr/bin:/bin,PBS_O_SHELL=/bin/sh,PBS_O_TZ=UTC,PBS_O_WORKDIR=$T/work,PBS_O_SYSTEM=Linux,\
GREETING=hi there,PAIR=a\\,b,PBS_O_QUEUE=batch,PBS_O_HOST=$(hostname -s)" "$vl"
expect_eq "pysqa's working directories" "$v $T/work
$b.$S $T/work
$o $T/work" "$(as $USER1 "$BIN/qstat" -f | python3 -c 'import sys, re
s = "".join("".join(sys.stdin.read().split("\n")).split())
ids = re.findall(r"JobId:(.*?)Job_Name", s)
dirs = re.findall(r"PBS_O_WORKDIR=(.*?),PBS", s)
for i, d in zip(ids, dirs): print(i, d)
assert len(ids) == len(dirs)')"
as $USER1 "$BIN/qstat" -f -F json "$v" | python3 -c 'import json, sys
v = json.load(sys.stdin)["Jobs"]
v = v[sorted(v)[0]]["Variable_List"]
assert v["PAIR"] == "a,b" and v["PBS_O_QUEUE"] == "batch", v' || fail "qstat -f -F json: Variable_List"
as $USER1 "$BIN/qstat" -f -w "$v" | grep -q "^    Variable_List = PBS_O_HOME=.*,PBS_O_HOST=$(hostname -s)$" ||
	fail "qstat -f -w: Variable_List on one line: $(as $USER1 "$BIN/qstat" -f -w "$v")"
as $USER1 "$BIN/qdel" "$v" "$b.$S" || fail "qdel"
as $USER2 "$BIN/qdel" "$o" || fail "qdel"
ok "qstat -f: Variable_List, which pysqa reads PBS_O_WORKDIR from"

# CIME on NCAR's machines: select=N:ncpus=C:mpiprocs=P:ompthreads=T:mem=M;
# ompthreads is the job's OMP_NUM_THREADS and NCPUS (MOM's vn_threads),
# ncpus its CPUs; qsub refused it
cat > cime.run <<'EOF2'
#!/bin/bash
#PBS -N cime
#PBS -l select=1:ncpus=4:mpiprocs=2:ompthreads=2:mem=100MB
echo "omp=$OMP_NUM_THREADS ncpus=$NCPUS ranks=$(wc -l <"$PBS_NODEFILE") cpus=$SLURM_CPUS_ON_NODE"
EOF2
c=$(as $USER1 "$BIN/qsub" cime.run) || fail "qsub ompthreads: $c"
# the select as written (decode_select() keeps it so), its mem summed in
# its own unit, PBS's size written back in lower case
as $USER1 "$BIN/qstat" -f -x "$c" | grep -qx "    Resource_List.select = 1:ncpus=4:mpiprocs=2:ompthreads=2:mem=100MB" ||
	fail "qstat -f: ompthreads in the select: $(as $USER1 "$BIN/qstat" -f -x "$c")"
as $USER1 "$BIN/qstat" -f -x "$c" | grep -qx "    Resource_List.mem = 100mb" ||
	fail "qstat -f: the select's mem: $(as $USER1 "$BIN/qstat" -f -x "$c")"
# the server sums the chunks' mpiprocs into Resource_List (RASSN), not
# their ompthreads; a job-wide -l ompthreads stays in Resource_List
res() { as $USER1 "$BIN/qstat" -f -x "$1" | grep -E '^    Resource_List\.(mpiprocs|ncpus|ompthreads) '; }
expect_eq "Resource_List of the select" "    Resource_List.mpiprocs = 2
    Resource_List.ncpus = 4" "$(res "$c")"
w=$(as $USER1 "$BIN/qsub" -h -l ompthreads=2 -- /bin/true) || fail "qsub -l ompthreads: $w"
expect_eq "Resource_List of a job-wide ompthreads" "    Resource_List.ncpus = 1
    Resource_List.ompthreads = 2" "$(res "$w")"
as $USER1 "$BIN/qdel" "$w" || fail "qdel $w"
# job-wide resources: the select the server makes of them, by name, placed
# pack; a select given, free
w=$(as $USER1 "$BIN/qsub" -h -l ncpus=2,mem=4GB -- /bin/true) || fail "qsub -l ncpus,mem: $w"
expect_eq "the server's select of job-wide resources" "    Resource_List.mem = 4gb
    Resource_List.ncpus = 2
    Resource_List.nodect = 1
    Resource_List.place = pack
    Resource_List.select = 1:mem=4gb:ncpus=2" \
	"$(as $USER1 "$BIN/qstat" -f "$w" | grep '^    Resource_List\.')"
as $USER1 "$BIN/qdel" "$w" || fail "qdel $w"
wait_state "${c%%.*}" COMPLETED
expect_eq "ompthreads in the job" "omp=2 ncpus=2 ranks=2 cpus=4" "$(cat "cime.o${c%%.*}")"
sel() { as $USER1 "$BIN/qstat" -f "$1" | sed -n 's/^    Resource_List.select = //p'; }
h=$(as $USER1 "$BIN/qsub" -h cime.run) || fail "qsub -h: $h"
as $USER1 "$BIN/qalter" -l select=1:ncpus=2:ompthreads=1 "$h" || fail "qalter ompthreads"
expect_eq "qalter's ompthreads" "1:ncpus=2:ompthreads=1" "$(sel "$h")"
as $USER1 "$BIN/qalter" -l select=1:ncpus=2 "$h" || fail "qalter select"
expect_eq "a new select without ompthreads" "1:ncpus=2" "$(sel "$h")"
as $USER1 "$BIN/qdel" "$h" || fail "qdel"
ok "-l select=...:ompthreads=T (CIME's): OMP_NUM_THREADS and NCPUS, ncpus the CPUs; qalter"

# signac-flow's default template asks Torque's "#PBS -l procs=N": N
# processes of one CPU, anywhere (Torque's resc_def_all.c); qstat -f shows
# Resource_List.procs as Torque's does
cat > procs.run <<'EOF2'
#!/bin/bash
#PBS -N signac
#PBS -l procs=2
#PBS -l pmem=100mb
#PBS -l walltime=00:10:00
echo "ranks=$(wc -l <"$PBS_NODEFILE") tasks=$SLURM_NTASKS cpt=${SLURM_CPUS_PER_TASK:-1}"
EOF2
p=$(as $USER1 "$BIN/qsub" procs.run) || fail "qsub -l procs: $p"
wait_state "${p%%.*}" COMPLETED
expect_eq "procs=2: two tasks of one CPU" "ranks=2 tasks=2 cpt=1" "$(cat "signac.o${p%%.*}")"
as $USER1 "$BIN/qstat" -f -x "$p" | grep -qx "    Resource_List.procs = 2" ||
	fail "qstat -f: Resource_List.procs: $(as $USER1 "$BIN/qstat" -f -x "$p")"
as $USER1 "$BIN/qstat" -f -x "$p" | grep -qx "    Resource_List.pmem = 100mb" ||
	fail "qstat -f: Resource_List.pmem: $(as $USER1 "$BIN/qstat" -f -x "$p")"
expect_eq "procs=2 and pmem as Slurm's" "NumTasks=2 CPUs/Task=1 MinMemoryCPU=100M" \
	"$("$BIN/scontrol" show job "${p%%.*}" | grep -o 'NumTasks=[^ ]* CPUs/Task=[^ ]*\|MinMemoryCPU=[^ ]*' | paste -sd' ')"
ok "Torque's -l procs=N (signac-flow's): N tasks of one CPU, Resource_List.procs"
