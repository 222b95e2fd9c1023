#!/bin/sh
# srun inside an allocation, the tasks' environment as Slurm 22.05's
# (each expected line seen on a live cluster): a step's share of the
# job's GPUs (DeepSpeed's `srun --gpus`, mmdet's `--gres=gpu:1`, a job's
# --gpus-per-task inherited) and the variables that name them, and
# Slurm's refusal of a step asking more than the job holds; srun's
# address and port (SLURM_LAUNCH_NODE_IPADDR, SLURM_SRUN_COMM_PORT, ...).
. "$top_srcdir/tests/integration/lib.sh"
RESOURCE_GROUPS='  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}
      - {name: nvidia.com/gpu, nominalQuota: 8}' write_conf
start_daemon
cd "$T" || fail "cd $T"
PATH="$BIN:$PATH"
export PATH

# run_job SBATCH-OPTIONS... < SCRIPT: its output, once it has ended
run_job() {
	cat >job.sh
	"$BIN/sbatch" --wait -o job.out "$@" job.sh >/dev/null || true
	cat job.out
}
# the GPU variables of each task, "STEP.TASK: K=V"
cat >show.sh <<'EOF'
#!/bin/sh
env | grep -E '^(CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|ZE_AFFINITY_MASK|SLURM_STEP_GPUS|SLURM_GPUS_ON_NODE|SLURMD_TRES_BIND)=' |
	sed "s/^/$SLURM_STEP_ID.$SLURM_PROCID: /"
EOF
chmod +x show.sh
mask() { sed -e 's/job [0-9]*:/job N:/' | sort; }

out=$(run_job -n2 --gpus=2 <<EOF | mask
#!/bin/sh
srun -n 2 --nodes 1 --gpus 2 --export=ALL,K=V $T/show.sh | grep 0.1:
srun --gres=gpu:1 -n1 $T/show.sh
srun -n1 --gpus 3 true; echo rc=\$?
echo batch: \$ROCR_VISIBLE_DEVICES \$ZE_AFFINITY_MASK
EOF
)
expect_eq "srun --gpus and --gres=gpu:1 in a --gpus=2 job" "0.1: CUDA_VISIBLE_DEVICES=0,1
0.1: GPU_DEVICE_ORDINAL=0,1
0.1: ROCR_VISIBLE_DEVICES=0,1
0.1: SLURM_GPUS_ON_NODE=2
0.1: SLURM_STEP_GPUS=0,1
0.1: ZE_AFFINITY_MASK=0,1
1.0: CUDA_VISIBLE_DEVICES=0
1.0: GPU_DEVICE_ORDINAL=0
1.0: ROCR_VISIBLE_DEVICES=0
1.0: SLURM_GPUS_ON_NODE=1
1.0: SLURM_STEP_GPUS=0
1.0: ZE_AFFINITY_MASK=0
batch: 0,1 0,1
rc=1
srun: error: Step requested gres=gpu:3 is more than the job's gres=gpu:2
srun: error: Unable to create step for job N: Invalid generic resource (gres) specification" "$out"
ok "a step's --gpus and --gres=gpu:N out of the job's"

out=$(run_job -n2 --gpus-per-task=1 <<EOF | mask
#!/bin/sh
srun -n2 $T/show.sh | grep -E 'CUDA|TRES|STEP_GPUS|ON_NODE'
srun -n1 $T/show.sh | grep -E 'CUDA|TRES|STEP_GPUS|ON_NODE'
srun -n2 --gpus-per-task=2 true; echo rc=\$?
EOF
)
expect_eq "a job's --gpus-per-task in its steps" "0.0: CUDA_VISIBLE_DEVICES=0
0.0: SLURMD_TRES_BIND=gpu:per_task:1
0.0: SLURM_GPUS_ON_NODE=2
0.0: SLURM_STEP_GPUS=0
0.1: CUDA_VISIBLE_DEVICES=1
0.1: SLURMD_TRES_BIND=gpu:per_task:1
0.1: SLURM_GPUS_ON_NODE=2
0.1: SLURM_STEP_GPUS=1
1.0: CUDA_VISIBLE_DEVICES=0
1.0: SLURM_GPUS_ON_NODE=1
1.0: SLURM_STEP_GPUS=0
rc=1
srun: error: Step requested gres_per_task=gpu:2 is more than the job's gres_per_task=gpu:1
srun: error: Unable to create step for job N: Invalid generic resource (gres) specification" "$out"
ok "the job's --gpus-per-task binds each task of its steps"

# NERSC's GPU pattern: the task count from -N and --ntasks-per-node, which
# sbatch and srun take as -n before --gpus-per-task is checked
out=$(run_job -N1 --ntasks-per-node=2 --gpus-per-task=1 <<EOF | mask
#!/bin/sh
echo ntasks=\$SLURM_NTASKS gpus=\$SLURM_GPUS_ON_NODE
srun $T/show.sh | grep CUDA
EOF
)
expect_eq "-N1 --ntasks-per-node=2 --gpus-per-task=1" "0.0: CUDA_VISIBLE_DEVICES=0
0.1: CUDA_VISIBLE_DEVICES=1
ntasks=2 gpus=2" "$out"
out=$("$BIN/srun" -N1 --ntasks-per-node=2 --gpus-per-task=1 "$T/show.sh" | grep CUDA | sort)
expect_eq "srun -N1 --ntasks-per-node=2 --gpus-per-task=1" "0.0: CUDA_VISIBLE_DEVICES=0
0.1: CUDA_VISIBLE_DEVICES=1" "$out"
ok "--gpus-per-task with the tasks from -N and --ntasks-per-node"

# --gpus-per-task with no task count: outside a job, the allocation's check
# with both of Slurm's lines (and --test-only's third); -N 1 alone is one
# task a node; in a job, a step has a task a node (the reference cluster)
out=$("$BIN/srun" --gpus-per-task=1 true 2>&1); rc=$?
gpt_lines="srun: error: Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.
srun: error: Invalid generic resource (gres) specification"
expect_eq "srun --gpus-per-task alone" "1 $gpt_lines" "$rc $out"
out=$("$BIN/srun" --test-only --gpus-per-task=1 true 2>&1); rc=$?
expect_eq "srun --test-only --gpus-per-task alone" "1 $gpt_lines
allocation failure: No error" "$rc $out"
expect_eq "srun -N1 --gpus-per-task" "1 0" \
	"$("$BIN/srun" -N1 --gpus-per-task=1 sh -c 'echo $SLURM_NTASKS $CUDA_VISIBLE_DEVICES' 2>&1)"
out=$(run_job -N1 -G1 <<EOF
#!/bin/sh
srun --gpus-per-task=1 sh -c 'echo \$SLURM_NTASKS \$CUDA_VISIBLE_DEVICES'
EOF
)
expect_eq "srun --gpus-per-task alone in a job" "1 0" "$out"
ok "--gpus-per-task without a task count: Slurm's two lines, or a task a node"

out=$("$BIN/srun" -n1 --gpus 1 env | grep -E '^(SLURM_STEP_GPUS|CUDA_VISIBLE_DEVICES|SLURM_JOB_GPUS|SLURM_GPUS)=' | sort)
expect_eq "srun -G outside a job" "CUDA_VISIBLE_DEVICES=0
SLURM_STEP_GPUS=0" "$out"
ok "srun --gpus outside a job: the step's GPUs"

# --gpu-bind (NERSC's single:1, LUMI's map_gpu): each rank its GPUs,
# slurmstepd's lines on its stderr ("verbose,"), none names no GPU
cat >bind.sh <<'EOF'
#!/bin/sh
echo "$SLURM_PROCID ${CUDA_VISIBLE_DEVICES-unset} ${SLURM_STEP_GPUS-unset} ${SLURMD_TRES_BIND-unset} ${SLURM_GPUS_ON_NODE-unset}"
EOF
chmod +x bind.sh
out=$(run_job -n3 --gpus-per-node=2 <<EOF
#!/bin/sh
for b in single:1 single:2 map_gpu:1,0 map_gpu:1*2,0 mask_gpu:0x1,0x2 closest per_task:1 none; do
	echo "\$b"
	srun -n2 --gpu-bind=\$b $T/bind.sh | sort
done
srun -n2 --gpu-bind=verbose,map_gpu:1,0 true 2>&1 | sort
srun -n2 --gpu-bind=mask_gpu:0x4 true 2>&1 | sort
srun -n1 --gpu-bind=map_gpu:1 $T/bind.sh
EOF
)
out=$(echo "$out" | sed 's/^slurmstepd-[^:]*:/slurmstepd-H:/')
expect_eq "srun --gpu-bind in a --gpus-per-node=2 job" "single:1
0 0 0 gpu:single:1 2
1 1 1 gpu:single:1 2
single:2
0 0 0 gpu:single:2 2
1 0 0 gpu:single:2 2
map_gpu:1,0
0 1 1 gpu:map_gpu:1,0 2
1 0 0 gpu:map_gpu:1,0 2
map_gpu:1*2,0
0 1 1 gpu:map_gpu:1*2,0 2
1 1 1 gpu:map_gpu:1*2,0 2
mask_gpu:0x1,0x2
0 0 0 gpu:mask_gpu:0x1,0x2 2
1 1 1 gpu:mask_gpu:0x1,0x2 2
closest
0 0,1 0,1 gpu:closest 2
1 0,1 0,1 gpu:closest 2
per_task:1
0 0 0 gpu:per_task:1 2
1 1 1 gpu:per_task:1 2
none
0 unset unset gpu:none 2
1 unset unset gpu:none 2
gpu-bind: usable_gres=0x1; bit_alloc=0x3; local_inx=0; global_list=0; local_list=0
gpu-bind: usable_gres=0x2; bit_alloc=0x3; local_inx=0; global_list=1; local_list=1
slurmstepd-H: error: Bind request gpu:mask_gpu:0x4 does not specify any devices within the allocation for task 0. Binding to the first device in the allocation instead.
slurmstepd-H: error: Bind request gpu:mask_gpu:0x4 does not specify any devices within the allocation for task 1. Binding to the first device in the allocation instead.
0 0,1 0,1 unset 2" "$out"
# sbatch's --gpu-bind: SLURM_GPU_BIND in the job, which its steps take
out=$(run_job -n2 --gpus-per-node=2 --gpu-bind=single:1 <<EOF
#!/bin/sh
echo "\$SLURM_GPU_BIND"
srun $T/bind.sh | sort
EOF
)
expect_eq "sbatch --gpu-bind=single:1" "single:1
0 0 0 gpu:single:1 2
1 1 1 gpu:single:1 2" "$out"
ok "--gpu-bind binds each task to its GPUs"

# --ntasks-per-gpu: the job holds a GPU for each N tasks, with no
# SLURM_GPUS; its steps bind each N tasks to one (gpu:single:N) and get
# SLURM_NTASKS_PER_TRES
out=$(run_job -n2 --ntasks-per-gpu=1 <<EOF
#!/bin/sh
echo "gpus=\${SLURM_GPUS-unset} per_gpu=\$SLURM_NTASKS_PER_GPU on_node=\$SLURM_GPUS_ON_NODE"
srun sh -c 'echo \$SLURM_PROCID \$CUDA_VISIBLE_DEVICES \$SLURMD_TRES_BIND \$SLURM_NTASKS_PER_TRES' | sort
EOF
)
expect_eq "sbatch -n2 --ntasks-per-gpu=1" "gpus=unset per_gpu=1 on_node=2
0 0 gpu:single:1 1
1 1 gpu:single:1 1" "$out"
out=$(run_job -n2 --gpus-per-node=2 <<EOF
#!/bin/sh
srun --ntasks-per-gpu=1 sh -c 'echo \$SLURM_PROCID \$CUDA_VISIBLE_DEVICES \$SLURMD_TRES_BIND \$SLURM_NTASKS_PER_TRES' | sort
EOF
)
expect_eq "srun --ntasks-per-gpu=1 in a --gpus-per-node=2 job" "0 0 gpu:single:1 1
1 1 gpu:single:1 1" "$out"
out=$("$BIN/srun" -n2 --ntasks-per-gpu=1 sh -c 'echo $SLURM_PROCID $CUDA_VISIBLE_DEVICES $SLURMD_TRES_BIND' | sort)
expect_eq "srun -n2 --ntasks-per-gpu=1 outside a job" "0 0 gpu:single:1
1 1 gpu:single:1" "$out"
ok "--ntasks-per-gpu: a GPU for each task, no SLURM_GPUS"

# --ntasks-per-gpu with neither GPUs nor a task or node count, -n not a
# multiple of it, --mem-per-gpu without GPUs: Slurm's refusals, the same
# lines from sbatch, salloc and srun (each seen on Slurm 22.05), exit 1
for c in sbatch salloc srun; do
	for o in --ntasks-per-gpu=1 "-n3 -N2 --ntasks-per-gpu=2" "-n2 --mem-per-gpu=4G"; do
		# shellcheck disable=SC2086 # the options split
		cmd=true
		[ "$c" = sbatch ] && cmd=--wrap=true
		out=$("$BIN/$c" $o $cmd 2>&1)
		rc=$?
		case "$o" in
		--ntasks-per-gpu=1) want="gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification" ;;
		-n3*) want="Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu." ;;
		*) want="Requested mem_per_tres=gres:gpu:4096 but did not request any GPU." ;;
		esac
		expect_eq "$c $o" "$c: error: $want
$c: error: Invalid generic resource (gres) specification rc=1" "$out rc=$rc"
	done
done
ok "--ntasks-per-gpu and --mem-per-gpu without GPUs refused as Slurm does"

# srun's address and its port, the same in every task
out=$("$BIN/srun" -n2 sh -c 'echo $SLURM_LAUNCH_NODE_IPADDR $SLURM_SRUN_COMM_HOST $SLURM_SRUN_COMM_PORT $SLURM_STEP_LAUNCHER_PORT' | sort | uniq -c | sed 's/  */ /g')
case "$out" in
" 2 127.0.0.1 127.0.0.1 "[0-9]*" "[0-9]*) ;;
*) fail "SLURM_LAUNCH_NODE_IPADDR, SLURM_SRUN_COMM_*: $out" ;;
esac
port=$(echo "$out" | head -n1 | cut -d' ' -f5)
[ "$(echo "$out" | head -n1 | cut -d' ' -f6)" = "$port" ] || fail "launcher port differs: $out"
ok "srun's address and port in every task"

# In a -N2 -n2 job a plain srun -n1: the job's SLURM_JOB_NUM_NODES is -N as
# if typed, and Slurm warns before shrinking the step (seen on a live
# cluster); -r past the nodes the count leaves is refused with its words.
out=$(run_job -N2 -n2 <<EOF
#!/bin/sh
srun -n1 true 2>&1; echo rc=\$?
env -u SLURM_JOB_NUM_NODES srun -n1 true 2>&1; echo rc=\$?
srun -r1 true 2>&1; echo rc=\$?
EOF
)
expect_eq "srun -n1 in a -N2 -n2 job" "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
rc=0
rc=0
srun: error: --relative and SLURM_JOB_NUM_NODES option incompatible with count of allocated nodes (1+2>2)
rc=1" "$out"
ok "srun -n1 in a -N2 job: Slurm's warning, from SLURM_JOB_NUM_NODES"

# Which nodes a partial step's tasks see (a -N2 --ntasks-per-node=2 job on
# the reference cluster): the job's list in SLURM_NODELIST beside the
# step's count in SLURM_NNODES; the step's own in SLURM_STEP_*, and
# SLURM_TASKS_PER_NODE; the job's SLURM_JOB_* as the batch script had them.
out=$(run_job -N2 --ntasks-per-node=2 <<EOF
#!/bin/sh
srun -N1 -n2 sh -c 'env | grep -E "^SLURM_.*(NODELIST|NNODES|NUM_NODES|TASKS_PER_NODE|CPUS_PER_NODE)=" | sed "s/^/\$SLURM_PROCID: /"' | sort
EOF
)
expect_eq "srun -N1 -n2 in a -N2 job" "0: SLURM_JOB_CPUS_PER_NODE=2(x2)
0: SLURM_JOB_NODELIST=$(hostname -s)-[0-1]
0: SLURM_JOB_NUM_NODES=2
0: SLURM_NNODES=1
0: SLURM_NODELIST=$(hostname -s)-[0-1]
0: SLURM_NTASKS_PER_NODE=2
0: SLURM_STEP_NODELIST=$(hostname -s)-0
0: SLURM_STEP_NUM_NODES=1
0: SLURM_STEP_TASKS_PER_NODE=2
0: SLURM_TASKS_PER_NODE=2
1: SLURM_JOB_CPUS_PER_NODE=2(x2)
1: SLURM_JOB_NODELIST=$(hostname -s)-[0-1]
1: SLURM_JOB_NUM_NODES=2
1: SLURM_NNODES=1
1: SLURM_NODELIST=$(hostname -s)-[0-1]
1: SLURM_NTASKS_PER_NODE=2
1: SLURM_STEP_NODELIST=$(hostname -s)-0
1: SLURM_STEP_NUM_NODES=1
1: SLURM_STEP_TASKS_PER_NODE=2
1: SLURM_TASKS_PER_NODE=2" "$out"
ok "a partial step's tasks: the job's SLURM_NODELIST, the step's SLURM_NNODES and SLURM_STEP_*"

# --cpu-bind, and SLURM_CPU_BIND in srun's environment (OpenMPI's plm sets
# it): the tasks get slurmd's SLURM_CPU_BIND* for it, as on the reference
# cluster (which, like Sluice, lacks task/affinity and says so).
cb='env | grep ^SLURM_CPU_BIND | sort'
out=$("$BIN/srun" -n1 --cpu-bind=none sh -c "$cb" 2>&1
SLURM_CPU_BIND=verbose,map_cpu:0,1 "$BIN/srun" -n1 sh -c "$cb" 2>&1
"$BIN/srun" -n1 --cpu-bind=quiet sh -c "$cb" 2>&1)
expect_eq "srun --cpu-bind" "srun: cluster configuration lacks support for cpu binding
SLURM_CPU_BIND=quiet,none
SLURM_CPU_BIND_LIST=
SLURM_CPU_BIND_TYPE=none
SLURM_CPU_BIND_VERBOSE=quiet
srun: cluster configuration lacks support for cpu binding
SLURM_CPU_BIND=verbose,map_cpu:0,1
SLURM_CPU_BIND_LIST=0,1
SLURM_CPU_BIND_TYPE=map_cpu:
SLURM_CPU_BIND_VERBOSE=verbose
srun: cluster configuration lacks support for cpu binding" "$out"
ok "srun --cpu-bind and SLURM_CPU_BIND: the tasks' SLURM_CPU_BIND* as Slurm's"

# -x in a step: the job's other nodes run it; a name the job does not hold
# is refused as slurmctld refuses it (exit 1), and excluding every node is
# srun's own error (the reference cluster's lines).
h=$(hostname -s)
out=$(run_job -N2 -n2 <<EOF | sed 's/job [0-9]*:/job N:/'
#!/bin/sh
srun -x $h-0 -n1 printenv SLURMD_NODENAME 2>&1; echo rc=\$?
srun --exclude=nosuchnode -n1 true 2>&1; echo rc=\$?
srun -x $h-[0-1] -N1 true 2>&1; echo rc=\$?
srun -x $h-0 true 2>&1; echo rc=\$?
EOF
)
expect_eq "srun -x in a -N2 job" "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
$h-1
rc=0
srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
srun: error: Unable to create step for job N: Invalid node name specified
rc=1
srun: error: Hostlist is empty!  Can't run job.
rc=1
srun: error: Only allocated 1 nodes asked for 2
srun: error: Are required nodes explicitly excluded?
rc=1" "$out"
ok "srun -x: a step on the job's other nodes, Slurm's refusals"

# sbatch --gpus-per-node: SLURM_GPUS_PER_NODE in the batch step (and so
# in its steps), which srun reads as --gpus-per-node: a step's
# --gres=none beside it is refused as slurmctld refuses it. A --gres=gpu:2
# job has no such variable, and its step may ask for none.
gpn='#!/bin/sh
echo batch: ${SLURM_GPUS_PER_NODE-unset}
srun -n1 --gres=none sh -c "echo step: \${CUDA_VISIBLE_DEVICES-none}" 2>&1; echo rc=$?'
out=$(echo "$gpn" | run_job -n1 --gpus-per-node=2 | mask)
expect_eq "--gpus-per-node job" "batch: 2
rc=1
srun: error: Unable to create step for job N: Invalid Trackable RESource (TRES) specification" "$out"
out=$(echo "$gpn" | run_job -n1 --gres=gpu:2 | mask)
expect_eq "--gres=gpu:2 job" "batch: unset
rc=0
step: none" "$out"
ok "sbatch --gpus-per-node: SLURM_GPUS_PER_NODE, and a step's --gres=none refused as Slurm's"
