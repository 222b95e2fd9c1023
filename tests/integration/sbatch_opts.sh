#!/bin/sh
# sbatch options of real users' scripts (issue 12) through the real sluiced
# and commands: account names that are not Kubernetes names, -w/-x on the
# local executor, --exclusive, --mem=0, scontrol's values for -n, GPU types
# and %a, --test-only, --wait, #PBS directives.
. "$top_srcdir/tests/integration/lib.sh"
make_users

# Accounts in Slurm's spelling: their namespaces are accre-gpu and
# training-cpu; a GPU flavor for the TRES checks.
opts_conf() {
	RESOURCE_GROUPS='  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}
      - {name: nvidia.com/gpu, nominalQuota: 4}' \
	FLAVORS='apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}' \
	EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: batch, namespace: accre-gpu}
spec: {clusterQueue: main}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: batch, namespace: training-cpu}
spec: {clusterQueue: main}' \
	write_conf 'accounts:
  "*": [general, accre_gpu, TRAINING-CPU]
features:
  a100: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
tmpDisk: 1024'
	# write_conf's own accounts: line comes first; drop it
	sed -i '0,/^accounts:$/{/^accounts:$/{N;d}}' "$T/sluice.yaml"
}
WRITE_CONF=opts_conf
start_daemon
cd "$T/work"
HOST=$(hostname -s)
show() { "$BIN/scontrol" show job "$1"; }
field() { show "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1; }

# --- account names ---------------------------------------------------------
a1=$(submit $USER1 -A accre_gpu -o acct.out --wrap 'echo "A=$SLURM_JOB_ACCOUNT"') ||
	fail "sbatch -A accre_gpu"
wait_state "$a1" COMPLETED
expect_eq "job's account" "A=accre_gpu" "$(cat acct.out)"
expect_eq "squeue %a" "accre_gpu" "$("$BIN/squeue" -h -t all -j "$a1" -o %a)"
expect_eq "sacct Account" "accre_gpu" "$("$BIN/sacct" -n -X -P -j "$a1" -o Account)"
expect_eq "scontrol Account" "accre_gpu" "$(field "$a1" Account)"
a2=$(submit $USER1 -A TRAINING-CPU -H --wrap true) || fail "sbatch -A TRAINING-CPU"
expect_eq "an account is lowercased, as Slurm does" "training-cpu" "$(field "$a2" Account)"
"$BIN/scancel" "$a2"
ok "-A accre_gpu / TRAINING-CPU: namespaces accre-gpu / training-cpu, Slurm's spelling shown"

# --- -w / -x on the local executor ----------------------------------------
w1=$(submit $USER1 -w "$HOST" -H --wrap true) || fail "sbatch -w $HOST"
expect_eq "ReqNodeList" "$HOST" "$(field "$w1" ReqNodeList)"
"$BIN/scancel" "$w1"
err=$(as $USER1 "$BIN/sbatch" -w nosuchnode --wrap true 2>&1); rc=$?
expect_eq "-w another node" "1:sbatch: error: Batch job submission failed: Invalid node name specified" "$rc:$err"
err=$(as $USER1 "$BIN/sbatch" -x "$HOST" --wrap true 2>&1); rc=$?
expect_eq "-x this host (rc)" 1 "$rc"
echo "$err" | tail -n1 | grep -qx "sbatch: error: Batch job submission failed: Requested node configuration is not available" ||
	fail "-x this host: $err"
x1=$(submit $USER1 -N 1 -x "$HOST-1" -H --wrap true) || fail "sbatch -x $HOST-1"
expect_eq "ExcNodeList" "$HOST-1" "$(field "$x1" ExcNodeList)"
"$BIN/scancel" "$x1"
# a node both lists name: slurmctld's refusal before it looks for nodes
err=$(as $USER1 "$BIN/sbatch" -w "$HOST" -x "$HOST" --wrap true 2>&1); rc=$?
expect_eq "-w and -x one node" "1:sbatch: error: Batch job submission failed: Invalid node name specified" "$rc:$err"
ok "-w this host, -x a node the job will not have: accepted; -w another, -x this host, both one node: Slurm's refusals"

# --- --exclusive and --mem=0: the node is the partition's quota ------------
e1=$(submit $USER1 --exclusive -o excl.out --wrap 'echo "C=$SLURM_CPUS_ON_NODE M=${SLURM_MEM_PER_NODE-unset}"; sleep 5') ||
	fail "sbatch --exclusive"
wait_state "$e1" RUNNING
expect_eq "exclusive NumCPUs" 8 "$(field "$e1" NumCPUs)"
expect_eq "exclusive OverSubscribe" NO "$(field "$e1" OverSubscribe)"
e2=$(submit $USER1 --wrap true) || fail "sbatch while exclusive"
sleep 1.5
expect_eq "a job behind the exclusive one" PENDING "$(state "$e2")"
wait_state "$e1" COMPLETED
wait_state "$e2" COMPLETED
expect_eq "exclusive env" "C=8 M=unset" "$(cat excl.out)"
# pending, it shows the CPUs it asks for; the node's come with the node
# (22.05: NumCPUs=1, squeue %C 1; --test-only "using 8 processors")
e3=$(submit $USER1 --exclusive -H --wrap true) || fail "sbatch --exclusive -H"
expect_eq "pending exclusive NumCPUs" 1 "$(field "$e3" NumCPUs)"
expect_eq "pending exclusive %C" 1 "$("$BIN/squeue" -h -j "$e3" -o %C)"
"$BIN/sbatch" --test-only --exclusive --wrap true 2>&1 | grep -q ' using 8 processors ' ||
	fail "--test-only --exclusive: $("$BIN/sbatch" --test-only --exclusive --wrap true 2>&1)"
"$BIN/scancel" "$e3"
m1=$(submit $USER1 --mem=0 -H --wrap true) || fail "sbatch --mem=0"
expect_eq "--mem=0 MinMemoryNode" 0 "$(field "$m1" MinMemoryNode)"
expect_eq "--mem=0 TRES" "cpu=1,mem=32G,node=1,billing=1" "$(field "$m1" TRES)"
m2=$(submit $USER1 --mem=100 -H --wrap true) || fail "sbatch --mem=100"
"$BIN/scontrol" update JobId="$m2" MinMemoryNode=0 || fail "update MinMemoryNode=0"
expect_eq "updated to MinMemoryNode=0" 0 "$(field "$m2" MinMemoryNode)"
expect_eq "MinMemoryNode=0 TRES" "cpu=1,mem=32G,node=1,billing=1" "$(field "$m2" TRES)"
"$BIN/scancel" "$m1" "$m2"
# Several nodes share the one host: the whole of it, shared out among them
# (accelerate's submit_multicpu.sh: -N 2 --exclusive), not a host's worth
# each, which would wait for good.
e4=$(submit $USER1 -N 2 --exclusive --mem=0 -o excl2.out --wrap 'echo "$SLURM_JOB_CPUS_PER_NODE"') ||
	fail "sbatch -N 2 --exclusive"
wait_state "$e4" COMPLETED
expect_eq "-N 2 --exclusive: the host's CPUs, half a node" "4(x2)" "$(cat excl2.out)"
expect_eq "-N 2 --exclusive --mem=0 TRES" "cpu=8,mem=32G,node=2,billing=8" "$(field "$e4" TRES)"
ok "--exclusive takes the 8 CPUs of the quota (shared out among a job's nodes); --mem=0 and update MinMemoryNode=0 its 32G"

# --- scontrol: -n without -N, GPU type, %a ---------------------------------
n1=$(submit $USER1 -n 4 -H --wrap true) || fail "sbatch -n 4"
show "$n1" | grep -q "   NumNodes=1 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:\*:\*$" ||
	fail "-n 4: $(show "$n1" | grep NumNodes)"
expect_eq "-n 4 MinCPUsNode" 1 "$(field "$n1" MinCPUsNode)"
g1=$(submit $USER1 --gres=gpu:a100:2 -o 'g-%a-%A.out' -H --mail-type=END --wrap true) ||
	fail "sbatch --gres=gpu:a100:2"
expect_eq "TresPerNode keeps the type" "gres:gpu:a100:2" "$(field "$g1" TresPerNode)"
expect_eq "%a of a plain job" "$T/work/g-4294967294-$g1.out" "$(field "$g1" StdOut)"
show "$g1" | grep -qx "   MailUser=$USER1 MailType=END" || fail "MailUser line: $(show "$g1")"
h1=$(submit $USER1 --hint=nomultithread --ntasks-per-socket=2 --cores-per-socket=4 -H --wrap true) ||
	fail "sbatch --hint"
# --hint on the command line resets --cores-per-socket, as in Slurm
show "$h1" | grep -q "ReqB:S:C:T=0:0:\*:1$" || fail "--hint: $(show "$h1" | grep ReqB)"
show "$h1" | grep -q "NtasksPerN:B:S:C=0:0:2:\* CoreSpec" || fail "--ntasks-per-socket: $(show "$h1")"
"$BIN/scancel" "$n1" "$g1" "$h1"
ok "scontrol: -n 4 is MinCPUsNode=1, TresPerNode=gres:gpu:a100:2, %a is 4294967294, hints shown"

# one thread per core and one core per socket, as scontrol show node says:
# more is slurmctld's refusal (texts from Slurm 22.05 on such nodes)
for o in --threads-per-core=2 --cores-per-socket=2 "-B 1:1:2"; do
	out=$(as $USER1 "$BIN/sbatch" $o --wrap true 2>&1); rc=$?
	expect_eq "$o refused" "1 sbatch: error: Socket, core and/or thread specification can not be satisfied
sbatch: error: Batch job submission failed: Requested node configuration is not available" "$rc $out"
done
t1=$(submit $USER1 --threads-per-core=1 -B 2:1 -H --wrap true) || fail "--threads-per-core=1 -B 2:1"
"$BIN/scancel" "$t1"
ok "a second thread per core or core per socket is refused as Slurm refuses it"

# --- --test-only ---------------------------------------------------------------
before=$("$BIN/squeue" -h -t all | wc -l)
out=$(as $USER1 "$BIN/sbatch" --test-only -n 2 --wrap true 2>&1); rc=$?
expect_eq "--test-only rc" 0 "$rc"
echo "$out" | grep -Eqx "sbatch: Job [0-9]+ to start at [0-9T:-]+ using 2 processors on nodes $HOST in partition batch" ||
	fail "--test-only said [$out]"
expect_eq "--test-only stores nothing" "$before" "$("$BIN/squeue" -h -t all | wc -l)"
big=$(submit $USER1 -n 8 --wrap 'sleep 10') || fail "sbatch -n 8"
wait_state "$big" RUNNING
out=$(as $USER1 "$BIN/sbatch" --test-only --wrap true 2>&1); rc=$?
expect_eq "--test-only when full" "1:allocation failure: Requested node configuration is not available" "$rc:$out"
out=$(as $USER1 "$BIN/sbatch" --test-only -p nosuch --wrap true 2>&1); rc=$?
expect_eq "--test-only, bad partition" "1:sbatch: error: invalid partition specified: nosuch
allocation failure: Invalid partition name specified" "$rc:$out"
# no node could ever hold it: slurm_job_will_run()'s line alone in Slurm
# 22.05, so it comes first, byte for byte; Sluice's one reason follows
out=$(as $USER1 "$BIN/sbatch" --test-only --exclude="$HOST" --wrap true 2>&1); rc=$?
expect_eq "--test-only --exclude=the only node" "1:allocation failure: Requested node configuration is not available
sbatch: error: --exclude=$HOST leaves no node: the local executor's node is $HOST" "$rc:$out"
out=$(as $USER1 "$BIN/sbatch" --test-only --mem=100000000 --wrap true 2>&1); rc=$?
expect_eq "--test-only --mem past the node, Slurm's line" \
	"1:allocation failure: Requested node configuration is not available" "$rc:$(echo "$out" | head -n1)"
echo "$out" | sed 1d | grep -qx 'sbatch: error: Memory specification can not be satisfied (.*)' ||
	fail "--test-only --mem, Sluice's hint: $out"
"$BIN/scancel" "$big"
wait_state "$big" CANCELLED
ok "--test-only: now when it fits, Slurm's allocation failure otherwise"

# --- --wait -------------------------------------------------------------------
out=$(as $USER1 "$BIN/sbatch" --wait --wrap 'sleep 1; exit 7'); rc=$?
expect_eq "--wait exit code" 7 "$rc"
echo "$out" | grep -Eqx "Submitted batch job [0-9]+" || fail "--wait printed [$out]"
as $USER1 "$BIN/sbatch" -W -Q --wrap true || fail "--wait of a job that succeeds"
ok "--wait: exits with the job's exit code"

# --- #PBS directives -------------------------------------------------------------
cat >pbs.sh <<'EOS'
#!/bin/sh
#PBS -N pbsname
#PBS -l walltime=00:02:00,nodes=1:ppn=2
#PBS -j oe
#PBS -o pbs.out
echo "N=$SLURM_NTASKS name=$SLURM_JOB_NAME"
EOS
p1=$(submit $USER1 pbs.sh) || fail "sbatch pbs.sh"
wait_state "$p1" COMPLETED
expect_eq "#PBS honoured" "N=2 name=pbsname" "$(cat pbs.out)"
expect_eq "#PBS walltime" "00:02:00" "$(field "$p1" TimeLimit)"
printf '#!/bin/sh\n#PBS -a 202612312359\ntrue\n' >pbsbegin.sh
err=$(as $USER1 "$BIN/sbatch" pbsbegin.sh 2>&1); rc=$?
# -a is --begin, read by Slurm's parse_time, which knows no PBS datetime
expect_eq "#PBS -a is --begin, not dropped" "255:Invalid time specification (pos=0): 202612312359
sbatch: error: Invalid --begin specification" "$rc:$err"
ok "#PBS -N -l -o -a honoured as Slurm does"

# --ntasks-per-node: sbatch works the task count out of it (SLURM_NTASKS,
# so a bare srun starts them all), and -N out of -n with it.
cat >tpn.sh <<EOS
#!/bin/sh
echo "N=\$SLURM_NNODES n=\${SLURM_NTASKS-unset} p=\${SLURM_NPROCS-unset} tpn=\$SLURM_TASKS_PER_NODE"
"$BIN/srun" true && "$BIN/srun" hostname | wc -l
EOS
t1=$(submit $USER1 -N 2 --ntasks-per-node=2 -o tpn1.out tpn.sh) || fail "sbatch -N 2 --ntasks-per-node=2"
t2=$(submit $USER1 -n 2 --ntasks-per-node=1 -o tpn2.out tpn.sh) || fail "sbatch -n 2 --ntasks-per-node=1"
wait_state "$t1" COMPLETED 20
wait_state "$t2" COMPLETED 20
expect_eq "-N 2 --ntasks-per-node=2" "N=2 n=4 p=4 tpn=2(x2)
4" "$(cat tpn1.out)"
expect_eq "-n 2 --ntasks-per-node=1" "N=2 n=2 p=2 tpn=1(x2)
2" "$(cat tpn2.out)"
expect_eq "-n 2 --ntasks-per-node=1 NumNodes" 2 "$(field "$t2" NumNodes)"
ok "--ntasks-per-node sets SLURM_NTASKS and, with -n and no -N, the node count"

# --switches where no flavor has a topology: Slurm without a topology
# plugin takes it and gives it no meaning; the job runs (it pended for ever).
sw=$(submit $USER1 -o /dev/null --switches=1@1:00 --wrap true) || fail "submit --switches"
wait_state "$sw" COMPLETED
# scontrol shows it all the same, the wait held to max_switch_wait (300 s)
expect_eq "Switches" "Switches=1@00:01:00" "$(show "$sw" | grep -o 'Switches=.*')"
s2=$(submit $USER1 -H -o /dev/null --switches=2 --wrap true) || fail "submit --switches=2"
expect_eq "Switches, no wait given" "Switches=2@00:05:00" "$(show "$s2" | grep -o 'Switches=.*')"
expect_eq "squeue WAIT4SWITCH" "5:00" "$("$BIN/squeue" -h -j "$s2" -O wait4switch | tr -d ' ')"
as $USER1 "$BIN/scancel" "$s2"
ok "--switches without a topology runs the job, as Slurm's topology/none, and shows"

# -x a name no node has: Slurm's "Invalid node name specified" (it was
# taken and changed nothing).
out=$(as $USER1 "$BIN/sbatch" -x othernode --wrap true 2>&1); rc=$?
expect_eq "-x othernode" "1 sbatch: error: Batch job submission failed: Invalid node name specified" "$rc $out"
ok "-x of an unknown node is refused as Slurm refuses it"

# --gpu-bind and --mem-bind: hints Sluice has no binding for, kept
# (TresBind) and passed to the job's steps as Slurm's sbatch passes them.
bj=$(submit $USER1 -o "$T/work/bind.out" --gpu-bind=closest --mem-bind=local \
	--wrap "env | grep _BIND= | sort; $BIN/srun -n 1 sh -c 'echo step \$SLURM_GPU_BIND'") ||
	fail "submit --gpu-bind"
wait_state "$bj" COMPLETED
expect_eq "bind env" "SLURM_GPU_BIND=closest
SLURM_MEM_BIND=local
step closest" "$(cat "$T/work/bind.out")"
expect_eq "TresBind" "   TresBind=gpu:closest" "$("$BIN/scontrol" show job "$bj" | grep TresBind)"
ok "sbatch --gpu-bind, --mem-bind: recorded and passed to the steps"

# --tmp against the node's TmpDisk (the config's tmpDisk, here 1024 MB):
# within it the job runs and shows it; above it Slurm's two lines.
tj=$(submit $USER1 -o /dev/null --tmp=1G --wrap true) || fail "submit --tmp=1G"
wait_state "$tj" COMPLETED
expect_eq "MinTmpDiskNode" "1G" "$(field "$tj" MinTmpDiskNode)"
expect_eq "squeue %d" "1G" "$("$BIN/squeue" -h -j "$tj" -t all -o %d)"
expect_eq "sinfo %d" "1024" "$("$BIN/sinfo" -h -o %d | head -n1)"
out=$(as $USER1 "$BIN/sbatch" --tmp=1025 --wrap true 2>&1); rc=$?
expect_eq "--tmp=1025" "1 sbatch: error: Temporary disk specification can not be satisfied
sbatch: error: Batch job submission failed: Requested node configuration is not available" "$rc $out"
ok "--tmp within the node's TmpDisk runs; above it is refused as Slurm refuses it"
hj=$(submit $USER1 -H -o /dev/null --wrap true) || fail "submit -H"
as $USER1 "$BIN/scontrol" update JobId="$hj" MinTmpDiskNode=512 || fail "update MinTmpDiskNode=512"
expect_eq "updated MinTmpDiskNode" "512M" "$(field "$hj" MinTmpDiskNode)"
as $USER1 "$BIN/scontrol" update JobId="$hj" MinTmpDiskNode=2G 2>/dev/null &&
	fail "MinTmpDiskNode above tmpDisk was taken"
ok "scontrol update MinTmpDiskNode, held to the node's TmpDisk"

# -O: one task's CPUs, every task started by a bare srun (Slurm's).
oj=$(submit $USER1 -O -n 8 -o "$T/work/oc.out" --wrap "echo \$SLURM_JOB_CPUS_PER_NODE \$SLURM_OVERCOMMIT; $BIN/srun hostname | wc -l") ||
	fail "submit -O"
wait_state "$oj" COMPLETED
expect_eq "-O env and tasks" "1 1
8" "$(cat "$T/work/oc.out")"
expect_eq "-O AllocCPUS" "1" "$("$BIN/sacct" -n -X -P -j "$oj" -o AllocCPUS)"
ok "sbatch -O: one CPU, eight tasks"

# --cpu-freq, --gpu-freq: Slurm's checks; the job and its steps see the
# values as under Slurm; no frequency is set. -S: Slurm's line for
# AllowSpecResourcesUsage=No. --spread-job: recorded. (Each as the
# reference Slurm 22.05 answered.)
out=$(as $USER1 "$BIN/sbatch" --cpu-freq=High-Low --wrap true 2>&1); rc=$?
expect_eq "--cpu-freq=High-Low" "255 sbatch: error: min cpu-frec (High) must be < max cpu-freq (Low)
sbatch: error: Invalid --cpu-freq argument" "$rc $out"
out=$(as $USER1 "$BIN/sbatch" --gpu-freq=High --wrap true 2>&1); rc=$?
expect_eq "--gpu-freq=High" "255 sbatch: error: Invalid --gpu-freq argument: gpu:High" "$rc $out"
out=$(as $USER1 "$BIN/sbatch" -S 1 --thread-spec=2 --wrap true 2>&1); rc=$?
expect_eq "-S with --thread-spec" "1 sbatch: fatal: -S/--core-spec and --thred-spec options are mutually exclusive" "$rc $out"
fj=$(as $USER1 "$BIN/sbatch" --parsable -S 1 --cpu-freq=low-medium --gpu-freq=memory=5,low --spread-job \
	-o "$T/work/freq.out" --wrap "echo \$SLURM_CPU_FREQ_REQ \$SLURM_GPU_FREQ; $BIN/srun --cpu-freq=perf env | grep FREQ | LC_ALL=C sort" 2>"$T/work/freq.err") ||
	fail "submit --cpu-freq"
expect_eq "-S line" "sbatch: error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)" \
	"$(cat "$T/work/freq.err")"
wait_state "$fj" COMPLETED
expect_eq "freq env" "Low-Medium memory=5,low
SLURMD_TRES_FREQ=gpu:memory=5,low
SLURM_CPU_FREQ_REQ=Performance
SLURM_GPU_FREQ=memory=5,low" "$(cat "$T/work/freq.out")"
expect_eq "scontrol freq lines" "   CPU_min_freq=Low CPU_max_freq=Medium 
   Power=
   SpreadJob=Yes
   TresFreq=gpu:memory=5,low" "$(show "$fj" | sed -n '/CPU_min_freq/,/TresFreq/p')"
expect_eq "sacct's step frequency" "$fj.0|Unknown|Unknown|Performance|Unknown" \
	"$("$BIN/sacct" -n -P -j "$fj.0" -o JobID,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ReqCPUFreq)"
ok "--cpu-freq, --gpu-freq, -S, --spread-job as Slurm answers them"

# --export-file: the job's environment from the file's NUL-ended entries
# (DISPLAY and HOSTNAME dropped), the submitter's own left out, --export's
# over it; NONE drops it; a file that cannot be opened is Slurm's line.
# (As the reference Slurm 22.05 ran them.)
printf 'FOO=bar\0BAZ=q ux\0DISPLAY=:0\0NOEQ\0PATH=/usr/bin:/bin\0' >"$T/work/ef"
chmod 644 "$T/work/ef"
ej=$(as $USER1 env MYVAR=1 "$BIN/sbatch" --parsable --export-file="$T/work/ef" -o "$T/work/ef.out" \
	--wrap 'echo "[$FOO] [$BAZ] [${DISPLAY-unset}] [$MYVAR] [${HOME-unset}] $PATH"') || fail "submit --export-file"
lj=$(as $USER1 env MYVAR=1 "$BIN/sbatch" --parsable --export-file="$T/work/ef" --export=MYVAR,X=2 \
	-o "$T/work/ef2.out" --wrap 'echo "[$FOO] [$MYVAR] [$X]"') || fail "submit --export-file --export=list"
nj=$(as $USER1 "$BIN/sbatch" --parsable --export-file="$T/work/ef" --export=NONE -o "$T/work/ef3.out" \
	--wrap 'echo "[$FOO]"') || fail "submit --export-file --export=NONE"
out=$(as $USER1 "$BIN/sbatch" --export-file="$T/work/nonexist" --wrap true 2>&1); rc=$?
expect_eq "--export-file missing" "1 sbatch: error: Could not open user environment file $T/work/nonexist" "$rc $out"
wait_state "$ej" COMPLETED
wait_state "$lj" COMPLETED
wait_state "$nj" COMPLETED
expect_eq "--export-file env" "[bar] [q ux] [unset] [] [unset] /usr/bin:/bin" "$(cat "$T/work/ef.out")"
expect_eq "--export-file with a list" "[bar] [] [2]" "$(cat "$T/work/ef2.out")"
expect_eq "--export-file with NONE" "[]" "$(cat "$T/work/ef3.out")"
ok "--export-file as Slurm's sbatch reads it"

# --time-min: recorded (Sluice never lowers a limit); above --time refused.
tm=$(submit $USER1 -H -t 20 --time-min=10 -o /dev/null --wrap true) || fail "submit --time-min"
expect_eq "TimeMin" "00:10:00" "$(field "$tm" TimeMin)"
expect_eq "squeue MinTime" "10:00" "$("$BIN/squeue" -h -j "$tm" -O MinTime | tr -d ' ')"
# scontrol update holds TimeMin and TimeLimit to each other (slurmctld's
# ESLURM_INVALID_TIME_MIN_LIMIT), and both, given together, are checked
# together; TimeMin=0 clears it.
tmerr="Invalid time-min specification (exceeds job's time or other limits) for job $tm"
out=$(as $USER1 "$BIN/scontrol" update JobId="$tm" TimeLimit=5 2>&1); rc=$?
expect_eq "TimeLimit below TimeMin" "1 $tmerr" "$rc $out"
out=$(as $USER1 "$BIN/scontrol" update JobId="$tm" TimeMin=30 2>&1); rc=$?
expect_eq "TimeMin above TimeLimit" "1 $tmerr" "$rc $out"
out=$(as $USER1 "$BIN/scontrol" update JobId="$tm" TimeMin=-5 2>&1); rc=$?
expect_eq "TimeMin=-5" "1 scontrol: error: Invalid TimeMin value" "$rc $out"
as $USER1 "$BIN/scontrol" update JobId="$tm" TimeMin=90 TimeLimit=2:00:00 || fail "TimeMin with TimeLimit"
expect_eq "TimeLimit TimeMin" "02:00:00 01:30:00" "$(field "$tm" TimeLimit) $(field "$tm" TimeMin)"
# what update changed outlives the daemon (the stored spec takes it)
kill9_daemon
start_daemon
expect_eq "after kill -9" "02:00:00 01:30:00 512M" \
	"$(field "$tm" TimeLimit) $(field "$tm" TimeMin) $(field "$hj" MinTmpDiskNode)"
as $USER1 "$BIN/scontrol" update JobId="$tm" TimeMin=0 || fail "TimeMin=0"
expect_eq "TimeMin=0" "N/A" "$(field "$tm" TimeMin)"
as $USER1 "$BIN/scancel" "$tm" "$hj"
out=$(as $USER1 "$BIN/sbatch" -t 5 --time-min=10 --wrap true 2>&1); rc=$?
expect_eq "--time-min above -t" "1 sbatch: error: Batch job submission failed: Invalid time-min specification (exceeds job's time or other limits)" "$rc $out"
ok "--time-min: recorded, above --time refused as Slurm refuses it"

# --nodefile and -w/-x naming a file: the host file's names, as Slurm's
# slurm_read_hostfile reads them; its errors in Slurm's words and codes.
node=$(hostname -s)
printf '%s\n%s # again\n' "$node" "$node" >hosts.txt
chmod 644 hosts.txt
nf=$(submit $USER1 -H -F hosts.txt -o /dev/null --wrap true) || fail "submit -F"
expect_eq "--nodefile" "$node 1" "$(field "$nf" ReqNodeList) $(field "$nf" NumNodes)"
nw=$(submit $USER1 -H -w ./hosts.txt -o /dev/null --wrap true) || fail "submit -w ./file"
expect_eq "-w ./file" "$node" "$(field "$nw" ReqNodeList)"
as $USER1 "$BIN/scancel" "$nf" "$nw"
out=$(as $USER1 "$BIN/sbatch" -F nosuch.txt --wrap true 2>&1); rc=$?
expect_eq "--nodefile missing" "255 sbatch: error: slurm_allocate_resources error opening file nosuch.txt, No such file or directory
sbatch: error: Invalid --nodefile node file" "$rc $out"
out=$(as $USER1 "$BIN/sbatch" -w ./nosuch.txt --wrap true 2>&1); rc=$?
expect_eq "-w ./missing" "1 sbatch: error: slurm_allocate_resources error opening file ./nosuch.txt, No such file or directory" "$rc $out"
ok "--nodefile, -w ./file: host files read as Slurm reads them"

# slurmctld's string limits (_test_job_desc_fields) and its one refusal
# for them: a 1025-byte --comment (Maestro writes a step's description
# there) is refused, 1024 taken; an output path may be MAXPATHLEN long.
c1024=$(printf '%1024s' '' | tr ' ' c)
out=$(as $USER1 "$BIN/sbatch" -H --comment="${c1024}c" --wrap true 2>&1); rc=$?
expect_eq "--comment of 1025 bytes" "1 sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long" "$rc $out"
cm=$(submit $USER1 -H --comment="$c1024" -J "$c1024" -o "$T/work/$(printf '%1100s' '' | tr ' ' o)" --wrap true) ||
	fail "a 1024-byte comment and name, a 1100-byte output path"
as $USER1 "$BIN/scancel" "$cm"
ok "string limits as slurmctld's"
