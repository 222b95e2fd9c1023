#!/bin/bash
# srun_scenario.sh - the batch script both srun tests run, on Sluice
# (tests/integration/srun.sh) and on a real Slurm 22.05 (srun_capture.sh),
# inside `sbatch -N 1 -n 4`: $SRUN is the srun under test. Every step's
# output, stderr and exit status go to the job's output, in order; the
# callers mask job ids, node names and times and compare.
S=${SRUN:-srun}
cd "${SCEN_DIR:?}" || exit 1
step() { echo "== $*"; }
# Slurm may say this while the previous step's CPUs are being freed. Where
# srun's own lines and the step's stream (the stepd's CANCELLED line) meet,
# Slurm's order changes from run to run: those transcripts are sorted.
quiet() { grep -v -e 'step creation temporarily disabled' -e 'Step created for job'; }

step "task variables"
$S -l -n 4 bash -c 'echo $SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURM_NTASKS $SLURM_NNODES \
$SLURM_STEP_ID $SLURM_STEP_NUM_TASKS $SLURM_STEP_NUM_NODES $SLURM_STEP_TASKS_PER_NODE \
$SLURM_TASKS_PER_NODE $SLURM_GTIDS $SLURM_STEPID' 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "exit codes"
$S -n 2 -l bash -c 'exit $SLURM_PROCID' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "multi-prog"
printf '# ranks program\n0 echo zero %%t\n1-2 echo other %%t %%o\n* echo rest\n' >mp.conf
$S -l -n 4 --multi-prog mp.conf 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "kill on bad exit"
$S -n 3 -K bash -c 'if [ $SLURM_PROCID = 1 ]; then exit 3; fi; sleep 20' 2>&1 | quiet |
	sed 's/CANCELLED AT .* \*\*\*/CANCELLED AT TS ***/' | sort
echo "rc=${PIPESTATUS[0]}"
step "stdin to every task"
echo input | $S -n 2 -l cat 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "job name, exit 7"
$S -n 1 -J named bash -c 'exit 7' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "stderr labels"
$S -n 2 -l bash -c 'echo err >&2' 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "cpus per task"
$S -n 2 -c 2 -l bash -c 'echo $SLURM_CPUS_PER_TASK' 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "beyond the allocation"
$S -n 999 true 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
$S -N 5 -n 2 true 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "per-task output files"
rm -f out.*
$S -n 2 -o 'out.%t.%s' -l bash -c 'echo hi $SLURM_PROCID' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
for f in out.*; do echo "$f: $(cat "$f")"; done
$S -n 3 -o 1 -l bash -c 'echo hi $SLURM_PROCID' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "no such program"
$S -n 2 no_such_program_here 2>&1 | quiet | sort
echo "rc=${PIPESTATUS[0]}"
step "killed by a signal"
$S -n 2 -l bash -c 'kill -9 $$' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "export"
FOO=outer $S -n 1 --export=ALL,BAR=set bash -c 'echo $FOO $BAR' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "unknown option"
$S --no-such-option true 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "wait after the first exit"
$S -n 2 -W 2 -l bash -c 'if [ $SLURM_PROCID = 1 ]; then sleep 30; fi; echo done $SLURM_PROCID' 2>&1 |
	quiet | sed 's/CANCELLED AT .* \*\*\*/CANCELLED AT TS ***/' | sort
echo "rc=${PIPESTATUS[0]}"
step "a task killed ends the rest"
$S -n 3 -l bash -c 'case $SLURM_PROCID in 0) exit 0;; 1) sleep 1; kill -9 $$;; *) sleep 20;; esac' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
step "input and error patterns"
echo hi | $S -n 2 -i none -l cat 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
echo hi | $S -n 2 -i 1 -l cat 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
rm -f err.*
$S -n 2 -e 'err.%t' bash -c 'echo out; echo bad >&2' 2>&1 | quiet
echo "rc=${PIPESTATUS[0]}"
for f in err.*; do echo "$f: $(cat "$f")"; done
