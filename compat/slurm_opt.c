/* slurm_opt.c - sbatch's option table and the parse that builds a job spec
 * from it.
 *
 * One table row per real sbatch 22.05 option: the command line, #SBATCH
 * directives, #PBS directives (translated by pbs_xlate.c into these rows)
 * and SBATCH_* variables all resolve through it. Options Sluice does not
 * implement stay in the table, flagged, so they fail loudly instead of being
 * mistaken for typos or silently ignored; options that only shape placement
 * inside a node, which Sluice's executors do not choose, are accepted and
 * recorded (scontrol shows them) and flagged so. README's table of options
 * is printed from this one (sl_sbatch_options_markdown). The setters are in
 * slurm_opt_set.c. */
#include "slurm_opt_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "optable.h"
#include "pbs_xlate.h"
#include "rlimit.h"
#include "script.h"
#include "xalloc.h"

#define OPTF_EARLY 0x100u    /* applied in the first pass over the command line */
#define OPTF_NOEFFECT 0x200u /* accepted and recorded; shapes nothing Sluice decides */
#define OPTF_CLI_ONLY 0x400u /* Slurm's sbatch_early_pass: a script's is passed over */
#define OPTF_REFUSES 0x800u  /* a setter that always refuses, in Slurm's words */

/* ---- the table: every sbatch 22.05 option ---- */

#define R SL_OPT_REQ
#define N SL_OPT_NOARG
#define O SL_OPT_OPTARG
#define S(fn) sl_sbopt_##fn
#define OK(nm, k, a, env, fn) {nm, k, a, {env, NULL}, 0, S(fn)}
#define OK2(nm, k, a, env, env2, fn) {nm, k, a, {env, env2}, 0, S(fn)}
#define EARLY(nm, k, a, env, fn) {nm, k, a, {env, NULL}, OPTF_EARLY, S(fn)}
#define CLI(nm, k, a, env, fn) {nm, k, a, {env, NULL}, OPTF_EARLY | OPTF_CLI_ONLY, S(fn)}
#define NOEFF(nm, k, a, env, fn) {nm, k, a, {env, NULL}, OPTF_NOEFFECT, S(fn)}
#define NOEFF2(nm, k, a, env, env2, fn) {nm, k, a, {env, env2}, OPTF_NOEFFECT, S(fn)}
#define NO(nm, k, a, env) {nm, k, a, {env, NULL}, SL_OPTF_UNSUPP, NULL}
#define REFUSE(nm, k, a, env, fn) {nm, k, a, {env, NULL}, OPTF_REFUSES, S(fn)}
#define NO2(nm, k, a, env, env2) {nm, k, a, {env, env2}, SL_OPTF_UNSUPP, NULL}

static const struct sl_opt sbatch_opts[] = {
	OK("account", 'A', R, "SBATCH_ACCOUNT", account),
	OK("array", 'a', R, "SBATCH_ARRAY_INX", array),
	OK("begin", 'b', R, NULL, begin),
	OK("chdir", 'D', R, NULL, chdir),
	OK("comment", 0, R, NULL, comment),
	OK("constraint", 'C', R, "SBATCH_CONSTRAINT", constraint),
	OK("container-image", 0, R, NULL, container_image),
	NOEFF("cores-per-socket", 0, R, NULL, cores_per_socket),
	OK("cpus-per-gpu", 0, R, "SBATCH_CPUS_PER_GPU", cpus_per_gpu),
	OK("cpus-per-task", 'c', R, NULL, cpus),
	OK("deadline", 0, R, NULL, deadline),
	OK("dependency", 'd', R, NULL, dependency),
	OK("error", 'e', R, "SBATCH_ERROR", error),
	OK("exclude", 'x', R, NULL, exclude),
	OK("exclusive", 0, O, "SBATCH_EXCLUSIVE", exclusive),
	OK("export", 0, R, "SBATCH_EXPORT", export),
	NOEFF("extra-node-info", 'B', R, NULL, extra_node_info),
	OK("gpus", 'G', R, "SBATCH_GPUS", gpus),
	OK("gpus-per-node", 0, R, "SBATCH_GPUS_PER_NODE", gpus_per_node),
	OK("gpus-per-task", 0, R, "SBATCH_GPUS_PER_TASK", gpus_per_task),
	OK("gres", 0, R, "SBATCH_GRES", gres),
	CLI("help", 'h', N, NULL, help),
	NOEFF2("hint", 0, R, "SBATCH_HINT", "SLURM_HINT", hint),
	OK("hold", 'H', N, NULL, hold),
	OK("ignore-pbs", 0, N, "SBATCH_IGNORE_PBS", ignore_pbs),
	OK("input", 'i', R, "SBATCH_INPUT", input),
	OK("job-name", 'J', R, "SBATCH_JOB_NAME", name),
	OK("kill-on-invalid-dep", 0, R, NULL, kill_invalid_dep),
	OK("mail-type", 0, R, NULL, mail_type),
	OK("mail-user", 0, R, NULL, mail_user),
	OK("mem", 0, R, "SBATCH_MEM_PER_NODE", mem),
	OK("mem-per-cpu", 0, R, "SBATCH_MEM_PER_CPU", mem_per_cpu),
	OK("mem-per-gpu", 0, R, "SBATCH_MEM_PER_GPU", mem_per_gpu),
	OK("mincpus", 0, R, NULL, mincpus),
	OK("mpi", 0, R, NULL, mpi),
	OK("nice", 0, O, NULL, nice),
	OK("no-requeue", 0, N, "SBATCH_NO_REQUEUE", no_requeue),
	OK("nodelist", 'w', R, NULL, nodelist),
	OK("nodes", 'N', R, NULL, nodes),
	OK("ntasks", 'n', R, NULL, ntasks),
	NOEFF("ntasks-per-core", 0, R, NULL, ntasks_per_core),
	OK("ntasks-per-node", 0, R, NULL, tpn),
	NOEFF("ntasks-per-socket", 0, R, NULL, ntasks_per_socket),
	OK("open-mode", 0, R, "SBATCH_OPEN_MODE", open_mode),
	OK("output", 'o', R, "SBATCH_OUTPUT", output),
	NOEFF("oversubscribe", 's', N, NULL, oversubscribe),
	EARLY("parsable", 0, N, NULL, parsable),
	OK("partition", 'p', R, "SBATCH_PARTITION", partition),
	OK("priority", 0, R, NULL, priority),
	OK("qos", 'q', R, "SBATCH_QOS", qos),
	CLI("quiet", 'Q', N, NULL, quiet),
	OK("requeue", 0, N, "SBATCH_REQUEUE", requeue),
	OK("signal", 0, R, "SBATCH_SIGNAL", signal),
	NOEFF("sockets-per-node", 0, R, NULL, sockets_per_node),
	OK("switches", 0, R, "SBATCH_REQ_SWITCH", switches),
	OK("tasks-per-node", 0, R, NULL, tpn), /* Slurm's older spelling */
	OK("test-only", 0, N, NULL, test_only),
	NOEFF("threads-per-core", 0, R, "SBATCH_THREADS_PER_CORE", threads_per_core),
	OK("time", 't', R, "SBATCH_TIMELIMIT", time),
	OK("topology", 0, R, NULL, topology), /* Sluice: Kueue TAS (sched.h) */
	CLI("usage", 'u', N, NULL, usage),
	CLI("verbose", 'v', N, "SBATCH_DEBUG", verbose),
	CLI("version", 'V', N, NULL, version),
	OK("wait", 'W', N, "SBATCH_WAIT", wait),
	CLI("wrap", 0, R, NULL, wrap),

	OK("acctg-freq", 0, R, "SBATCH_ACCTG_FREQ", acctg_freq),
	NO("batch", 0, R, "SBATCH_BATCH"),
	NO("bb", 0, R, NULL),
	NO("bbf", 0, R, NULL),
	NO("cluster-constraint", 0, R, "SBATCH_CLUSTER_CONSTRAINT"),
	OK2("clusters", 'M', R, "SBATCH_CLUSTERS", "SLURM_CLUSTERS", clusters),
	OK("cluster", 0, R, NULL, clusters),
	NO("container", 0, R, "SBATCH_CONTAINER"),
	NOEFF("contiguous", 0, N, NULL, contiguous),
	OK("core-spec", 'S', R, "SBATCH_CORE_SPEC", core_spec),
	NOEFF("cpu-freq", 0, R, "SBATCH_CPU_FREQ_REQ", cpu_freq),
	OK("delay-boot", 0, R, "SBATCH_DELAY_BOOT", delay_boot),
	OK("distribution", 'm', R, "SBATCH_DISTRIBUTION", distribution),
	OK("export-file", 0, R, NULL, export_file),
	OK("get-user-env", 0, O, "SBATCH_GET_USER_ENV", get_user_env),
	REFUSE("gid", 0, R, NULL, gid),
	OK("gpu-bind", 0, R, "SBATCH_GPU_BIND", gpu_bind),
	NOEFF("gpu-freq", 0, R, "SBATCH_GPU_FREQ", gpu_freq),
	NO("gpus-per-socket", 0, R, "SBATCH_GPUS_PER_SOCKET"),
	NOEFF("gres-flags", 0, R, "SBATCH_GRES_FLAGS", gres_flags),
	NO("licenses", 'L', R, NULL),
	NO("mcs-label", 0, R, NULL),
	NOEFF("mem-bind", 0, R, "SBATCH_MEM_BIND", mem_bind),
	NO("network", 0, R, "SBATCH_NETWORK"),
	OK("no-kill", 'k', O, "SBATCH_NO_KILL", no_kill),
	OK("nodefile", 'F', R, NULL, nodefile),
	OK("ntasks-per-gpu", 0, R, NULL, ntasks_per_gpu),
	OK("overcommit", 'O', N, "SBATCH_OVERCOMMIT", overcommit),
	NO("power", 0, R, "SBATCH_POWER"),
	NO("prefer", 0, R, NULL),
	OK("profile", 0, R, "SBATCH_PROFILE", profile),
	OK("propagate", 0, O, NULL, propagate),
	NO("reboot", 0, N, NULL),
	NO("reservation", 0, R, "SBATCH_RESERVATION"),
	NOEFF("spread-job", 0, N, "SBATCH_SPREAD_JOB", spread_job),
	OK("thread-spec", 0, R, "SBATCH_THREAD_SPEC", thread_spec),
	OK("time-min", 0, R, NULL, time_min),
	OK("tmp", 0, R, NULL, tmp),
	REFUSE("uid", 0, R, NULL, uid),
	OK("use-min-nodes", 0, N, "SBATCH_USE_MIN_NODES", use_min_nodes),
	OK("wait-all-nodes", 0, R, "SBATCH_WAIT_ALL_NODES", wait_all_nodes),
	OK("wckey", 0, R, "SBATCH_WCKEY", wckey),
	{NULL, 0, N, {NULL, NULL}, 0, NULL},
};

#undef R
#undef N
#undef O

/* ---- README's table of options, from the one above ---- */

/* What each option does here, for the table; an option without a line is
 * plain Slurm. Refused options name why when there is more to say. */
static const struct {
	const char *name, *note;
} notes[] = {
	{"account", "the job's namespace (`accounts:` in the config; Slurm's spelling kept, "
		    "see Accounts)"},
	{"tmp", "a node's temporary disk: local, at most the config's `tmpDisk` (Slurm's "
		"TmpDisk, default 0), more is refused as Slurm refuses it; Kubernetes: refused "
		"above 0"},
	{"wait-all-nodes", "local: both values hold, the job's nodes being this host, ready when "
			   "it starts; Kubernetes: 1 refused (the script starts in pod 0 as it runs)"},
	{"delay-boot", "recorded (scontrol's DelayBoot=): Sluice never reboots a node for a "
		       "job's features, so no delay is ever needed"},
	{"overcommit", "the job holds one task's CPUs a node (`-c`'s, else one) however many "
		       "tasks it asks, as Slurm's; `SLURM_OVERCOMMIT=1` lets its srun steps start "
		       "them all"},
	{"gres-flags", "`enforce-binding`, `disable-binding`: recorded (scontrol's "
		       "GresEnforceBind=); which CPUs a GPU comes with is the kernel's and the "
		       "device plugin's"},
	{"cpu-freq", "checked as Slurm checks it (its default CpuFreqGovernors), recorded "
		     "(scontrol's CPU_min_freq/CPU_max_freq/Governor) and exported as "
		     "SLURM_CPU_FREQ_REQ, which the job's srun steps take; Sluice sets no frequency: "
		     "a local job's CPUs are not its own, so one job's frequency would be every "
		     "job's, and a pod's node is the kubelet's"},
	{"gpu-freq", "checked as Slurm checks it, recorded (scontrol's TresFreq) and exported as "
		     "SLURM_GPU_FREQ; Sluice sets no GPU frequency"},
	{"core-spec", "Slurm's line for its default AllowSpecResourcesUsage=No (`Ignoring -S "
		      "since it's not allowed by configuration`), and the job runs without it, as "
		      "there"},
	{"thread-spec", "as `-S`: Slurm's line for AllowSpecResourcesUsage=No, and the job runs "
			"without it"},
	{"spread-job", "recorded (scontrol's SpreadJob=Yes): the local executor's nodes are "
		       "names on one host, and a JobSet's pods are placed by the Kubernetes "
		       "scheduler"},
	{"export-file", "the job's environment from the file's NUL-ended `NAME=value` entries "
			"(or an open descriptor's), with `--export`'s over them, as Slurm's sbatch "
			"(its own environment left out; `--export=NONE` drops the file)"},
	{"profile", "`none` (Sluice gathers no HDF5 profile); the others refused by name"},
	{"time-min", "recorded (scontrol's TimeMin=, squeue's MinTime); Sluice's backfill plans "
		     "with the whole `--time` and never lowers it, which Slurm's \"may\" allows; "
		     "above `--time` refused as Slurm refuses it"},
	{"use-min-nodes", "`-N MIN-MAX` takes MIN nodes (without it, MAX as the quota allows: "
			  "Kueue's partial admission)"},
	{"contiguous", "recorded (scontrol's Contiguous=1): the local executor's nodes are names "
		       "on one host and a JobSet's pods have no order"},
	{"no-kill", "local: the job's nodes are names on this one host, which cannot fail "
		    "alone, so no node failure ever ends a job; Kubernetes: refused"},
	{"partition", "a LocalQueue of the account's namespace; a list of two partitions "
		      "(`a,b`) is refused: a workload waits in one LocalQueue"},
	{"qos", "a WorkloadPriorityClass: the job's priority"},
	{"constraint", "features joined with `&`: node labels (`features:`)"},
	{"container-image", "pyxis's spelling: the image of the Kubernetes executor's pods"},
	{"cpus-per-gpu", "CPUs per node = GPUs per node x this, when more than the tasks'"},
	{"acctg-freq", "local: `task=N` (or `N`) is how often sluice-stepd samples the job's "
		       "processes for sstat and sacct (0: only the end's totals); `energy`, "
		       "`network`, `filesystem` taken, with no data to gather, as a Slurm "
		       "without those plugins"},
	{"begin", "every form of Slurm's parser; the job waits out of the queue (reason "
		  "BeginTime)"},
	{"dependency", "`after`, `afterany`, `afterok`, `afternotok`, `aftercorr`, `singleton`, "
		       "`+MIN`, `:` `,` `?`, an array's tasks `N_T`, `N_*`, `N_[1-3,5]` (one term "
		       "each, as Slurm expands them); the job waits out of the queue (reason "
		       "Dependency); "
		       "an id Sluice never had is met at once, as Slurm's for a purged one"},
	{"kill-on-invalid-dep", "`yes`: a dependency that can never be satisfied cancels the "
				"job (default: the config's `killInvalidDepend`)"},
	{"deadline", "a pending job that cannot end by then is ended: DEADLINE, reason "
		     "DeadLine; a started local job's time limit is cut to it"},
	{"exclude", "local: excluding this host is refused (the job could never run), a name "
		    "no node has, or one `--nodelist` also gives, is Slurm's `Invalid node name "
		    "specified`, this host's other "
		    "node names (`HOST-N`) change nothing; Kubernetes: refused; a value with "
		    "`/` is a host file, read before `--nodefile`'s"},
	{"exclusive", "local: the job takes the whole node, its partition's largest flavor's "
		      "CPU quota; Kubernetes: pod anti-affinity keeps other Sluice pods off "
		      "its nodes; `=user`, `=mcs` refused"},
	{"get-user-env", "local: sluice-stepd reads the user's login environment (`su - USER` "
			 "runs `env`, as slurmd), the submitted one over it, as slurmd, also for "
			 "an `--export` other than ALL; Kubernetes: refused"},
	{"distribution", "`block`, `cyclic` and the socket and core levels (`block:cyclic`, "
			 "`*:*`), exported as SLURM_DISTRIBUTION for the job's srun steps (tasks "
			 "laid out by the node level; the others are placement hints with no "
			 "effect here); `plane`, `arbitrary` and `Pack`/`NoPack` refused"},
	{"gpus", "spread over the nodes; `TYPE:N` selects the type's node labels"},
	{"gpus-per-task", "GPUs per node = tasks per node x this; it needs a task count "
			  "(`-n`, `--ntasks-per-node`, `-G`, or `-N K` without `-c`, a task a "
			  "node), else Slurm's two lines (sbatch, salloc, srun)"},
	{"gres", "`gpu[:type][:N]` only"},
	{"hint", "recorded (scontrol's ReqB:S:C:T), exported as SLURM_HINT"},
	{"threads-per-core", "1; more is refused as Slurm refuses it on nodes of one thread "
			     "per core (`Socket, core and/or thread specification can not be "
			     "satisfied`), which is what Sluice's nodes show"},
	{"cores-per-socket", "1; more is refused in slurmctld's words, as "
			     "`--threads-per-core` (Sluice's nodes show one core per socket)"},
	{"extra-node-info", "`S:1:1`; a core or thread count above 1 is refused as "
			    "`--cores-per-socket` and `--threads-per-core` are"},
	{"gpu-bind", "checked as Slurm checks it, recorded (scontrol's TresBind) and exported "
		     "as SLURM_GPU_BIND, which the job's srun steps take: each task's GPU "
		     "variables name the GPUs the binding gives it (README's srun section)"},
	{"mem-bind", "checked as Slurm checks it, recorded and exported as SLURM_MEM_BIND, "
		     "which the job's srun steps take; Sluice binds no memory"},
	{"mail-type", "sluiced runs `mailProg` at each state change, as slurmctld does"},
	{"mail-user", "default: the submitting user"},
	{"mem", "`--mem=0`: all of a node's memory, the partition's largest flavor's memory "
		"quota (local executor; refused on Kubernetes)"},
	{"mem-per-gpu", "memory per node = GPUs per node x this; without GPUs asked for (those "
			"`--ntasks-per-gpu` implies count), slurmctld's refusal"},
	{"propagate", "the submitting shell's soft limits (all by default, as Slurm's "
		      "PropagateResourceLimits=ALL) become the job's, up to the node's hard limits "
		      "(local executor; pods keep the node's)"},
	{"wckey", "recorded and shown back (squeue `%w`, sacct `WCKey`), and `scancel --wckey` "
		  "selects by it; Sluice keeps no per-wckey usage"},
	{"clusters", "the one cluster the config names (`clusterName`), or `all`; other names "
		     "are refused as Slurm refuses an unknown cluster"},
	{"cluster", "as `--clusters`"},
	{"uid", "a user gets Slurm's `--uid only permitted by root user` (exit 255); root: not "
		"supported by Sluice"},
	{"gid", "as `--uid`"},
	{"mpi", "`openmpi`, `intel`, `mpich`: an MPIJob on Kubernetes; `none`"},
	{"nodelist", "local: this host's name (or `host-N` of a multi-node job); other names "
		     "are refused; Kubernetes: refused; a value with `/` is a host file, as "
		     "`--nodefile`"},
	{"nodefile", "the host file's names (Slurm's format: `,` or lines, `#` comments, "
		     "`name*N`) as `--nodelist`"},
	{"nodes", "`MIN-MAX` is Kueue's partial admission"},
	{"ntasks", "without `-N` (and without `--ntasks-per-node`), all tasks share one node "
		   "(one pod): Sluice does not spread them"},
	{"oversubscribe", "jobs share nodes anyway (scontrol: OverSubscribe=YES)"},
	{"ntasks-per-gpu", "with GPUs asked for (`--gpus`, or `--gres`/`--gpus-per-node` on each "
			   "node) that many tasks for each; with `-n` alone a GPU for every N "
			   "tasks (slurmctld's count: no SLURM_GPUS); exported as "
			   "SLURM_NTASKS_PER_GPU, which binds each N tasks of the job's steps to "
			   "a GPU (`gpu:single:N`); with neither GPUs nor `-n`/`-N`, or `-n` not a "
			   "multiple of N, slurmctld's refusal (sbatch, salloc and srun)"},
	{"priority", "operators; a user's is dropped without a word, as slurmctld does"},
	{"signal", "local: sluice-stepd sends it TIME seconds before the time limit, to the "
		   "batch shell with `B:`, else to the tasks of the job's srun steps (not the batch shell, as Slurm); Kubernetes: "
		   "refused"},
	{"tasks-per-node", "Slurm's older spelling of `--ntasks-per-node`"},
	{"test-only", "the start from the engine's plan (time limits of running and queued "
		      "jobs); a line more when a shorter `--time` (backfill) or another "
		      "partition starts it sooner; Slurm's `allocation failure` when no start "
		      "is known"},
	{"time", "enforced; `--signal` warns before it"},
	{"switches", "Kueue TAS on the flavor's leaf switch level (the lowest above the hosts): "
		     "`1` is required there, more switches or `@TIME` preferred (no waiting)"},
	{"topology", "Sluice: Kueue TAS: `LEVEL` (required), `required:LEVEL`, "
		     "`preferred:LEVEL` or `unconstrained`, then `,slice:LEVEL:SIZE` (more slices: "
		     "inner layers); a level is a node label or its last word (`rack`)"},
	{"wait", "polls sluiced (2 s, backing off to 10 s), exits with the job's exit code"},
	{"array", "the array is job N, its tasks jobs N+1..N+K-1 and its last task N, as "
		  "Slurm's meta record becomes its last task; ids taken at submit (Slurm gives "
		  "a task its own id when it starts)"},
	{"container", "an OCI bundle run by slurmstepd: the Kubernetes executor runs "
		      "images, see `--container-image`"},
};

static const char *note_of(const char *name)
{
	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (strcmp(notes[i].name, name) == 0)
			return notes[i].note;
	return NULL;
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct sl_opt *const *)a)->name,
		      (*(const struct sl_opt *const *)b)->name);
}

char *sl_sbatch_options_markdown(void)
{
	const struct sl_opt *rows[sizeof(sbatch_opts) / sizeof(sbatch_opts[0])];
	struct sl_buf *b = sl_buf_new(1u << 20);
	size_t n = 0;
	char *out;

	for (const struct sl_opt *o = sbatch_opts; o->name; o++)
		rows[n++] = o;
	qsort(rows, n, sizeof(rows[0]), row_cmp);
	sl_buf_addstr(b, "| Option | Variables | In Sluice |\n|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct sl_opt *o = rows[i];
		const char *note = note_of(o->name);
		const char *what = (o->flags & (SL_OPTF_UNSUPP | OPTF_REFUSES)) ? "refused"
				   : (o->flags & OPTF_NOEFFECT) ? "accepted, no effect here"
								: "yes";

		sl_buf_addstr(b, "| ");
		if (o->key)
			sl_buf_addf(b, "`-%c`, ", o->key);
		sl_buf_addf(b, "`--%s%s` | ", o->name,
			    o->arg == SL_OPT_REQ ? "=..." : o->arg == SL_OPT_OPTARG ? "[=...]" : "");
		for (int k = 0; k < 2; k++)
			if (o->env[k])
				sl_buf_addf(b, "%s`%s`", k ? ", " : "", o->env[k]);
		sl_buf_addf(b, " | %s%s%s |\n", what, note ? ": " : "", note ? note : "");
	}
	out = sl_buf_steal(b);
	sl_buf_free(b);
	return out;
}

/* ---- the parse: command line, script, directives, environment ---- */

enum pass { PASS_ALL, PASS_EARLY, PASS_LATE };

/* Remember "name                : value" for -v, replacing an earlier value. */
static void record(struct sl_sbatch_flags *fl, const struct sl_optval *v)
{
	char *line;
	size_t i, n = sl_strv_len(fl->defined), key;

	if (v->opt->set == sl_sbopt_verbose)
		line = sl_xasprintf("%-20s: %d", v->opt->name, fl->verbose);
	else
		line = sl_xasprintf("%-20s: %s", v->opt->name, v->arg ? v->arg : "set");
	key = strcspn(line, ":") + 1;
	for (i = 0; i < n; i++) {
		if (strncmp(fl->defined[i], line, key) == 0) {
			free(fl->defined[i]);
			fl->defined[i] = line;
			return;
		}
	}
	fl->defined = sl_xrealloc(fl->defined, (n + 2) * sizeof(char *));
	fl->defined[n] = line;
	fl->defined[n + 1] = NULL;
}

static int apply_vals(struct ctx *c, const struct sl_optval *v, size_t n, enum src src,
		      enum pass pass, struct sl_err *err)
{
	size_t i;
	int r;

	c->src = src;
	for (i = 0; i < n; i++) {
		int early = (v[i].opt->flags & OPTF_EARLY) != 0;
		struct sl_optval one = v[i];

		if ((pass == PASS_EARLY && !early) || (pass == PASS_LATE && early))
			continue;
		/* An empty value, as FireWorks' template leaves "--exclusive="
		 * or "--licenses=": Slurm's slurm_process_option makes it none
		 * for an option whose value is optional (--exclusive), and one
		 * Sluice lacks then asks for nothing (Slurm takes
		 * --reservation= and reserves none), as in apply_env. */
		if (one.arg != NULL && one.arg[0] == '\0') {
			if (one.opt->arg == SL_OPT_OPTARG)
				one.arg = NULL;
			else if (one.opt->flags & SL_OPTF_UNSUPP)
				continue;
		}
		c->status = 0;
		if ((r = sl_opt_apply_one(&one, c, err)) != 0) {
			c->fl->exit_code = (r == -SL_EUNSUPP) ? 1 : (c->status ? c->status : 255);
			return r;
		}
		record(c->fl, &one);
	}
	return 0;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

static char *abs_path(const char *cwd, const char *p)
{
	return p[0] == '/' ? sl_xstrdup(p) : sl_xasprintf("%s/%s", cwd, p);
}

/* Where sbatch looks for a script named without a directory first: the
 * command line's -D (from the current directory), else the current
 * directory (Slurm's opt.chdir at that point; a script's own -D comes
 * later). Caller frees. */
static char *search_dir(const struct sl_optval *v, size_t n, const char *cwd)
{
	const char *d = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].opt->name, "chdir") == 0)
			d = v[i].arg;
	return d != NULL && d[0] != '\0' ? abs_path(cwd, d) : sl_xstrdup(cwd);
}

/* The script from --wrap, a file (searched like sbatch does) or stdin. */
static int load_script(struct ctx *c, int argc, char **argv, int optind, char **envp,
		       const char *cwd, size_t *len, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	const char *path = optind < argc ? argv[optind] : NULL;
	char *found = NULL;
	int r;

	if (path != NULL && strcmp(path, ":") == 0) { /* "sbatch -n1 : -n1 job.sh" */
		c->status = 1;
		return sl_err_set(err, SL_EUNSUPP, "heterogeneous jobs (sbatch ... : ...) are not "
				  "supported by Sluice");
	}
	if (c->wrap_set) {
		if (path != NULL)
			return sl_sbopt_fail1(c, err, "Script arguments not permitted with --wrap option");
		s->script = sl_script_wrap(c->wrap);
		*len = strlen(s->script);
		s->wrapped = 1;
		return 0;
	}
	if (path != NULL)
		found = sl_script_resolve(path, cwd, env_get(envp, "PATH"));
	if ((r = sl_script_read(found, path, &s->script, len, err)) == 0 &&
	    (r = sl_script_check(s->script, *len, err)) == 0 && path != NULL) {
		s->script_path = sl_xstrdup(found);
		s->argv = sl_strv_dup(argv + optind + 1);
		s->command = sl_script_command_line(found, s->argv);
	}
	free(found);
	if (r != 0)
		c->status = 1;
	return r;
}

/* Slurm's sbatch_early_pass options (OPTF_CLI_ONLY: --help, --usage,
 * --version, -v, -Q, --wrap) act on the command line alone: in a script
 * they are passed over. --parsable is early here but not there. */
static size_t drop_early(struct sl_optval *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!(v[i].opt->flags & OPTF_CLI_ONLY))
			v[k++] = v[i];
	return k;
}

static int apply_directives(struct ctx *c, size_t len, struct sl_err *err)
{
	char **dargv = NULL;
	int dargc = 0, dind = 0, r;
	struct sl_optval *v = NULL;
	size_t n = 0;

	if (c->spec->wrapped)
		return 0;
	if ((r = sl_script_sbatch_directives(c->spec->script, len, &dargv, &dargc,
					     &c->fl->legacy_magic, err)) != 0) {
		c->status = 1;
		goto out;
	}
	if ((r = sl_opt_scan(sbatch_opts, dargc, dargv, 1, &v, &n, &dind, err)) != 0) {
		c->fl->usage_error = 1;
		goto out;
	}
	if (dind < dargc && (strcasecmp(dargv[dind], "hetjob") == 0 ||
			     strcasecmp(dargv[dind], "packjob") == 0)) {
		/* a separator of a heterogeneous job's components */
		c->status = 1;
		r = sl_err_set(err, SL_EUNSUPP, "heterogeneous jobs (#SBATCH %s) are not supported "
			       "by Sluice", dargv[dind]);
		goto out;
	}
	if (dind < dargc) {
		r = sl_err_set(err, SL_EINVAL, "Invalid directive found in batch script: %s",
			       dargv[dind]);
		goto out;
	}
	n = drop_early(v, n);
	r = apply_vals(c, v, n, SRC_SCRIPT, PASS_ALL, err);
out:
	free(v);
	sl_strv_free(dargv);
	return r;
}

/* -W umask=, which Slurm reaches only from #PBS (its row has no name). */
static int set_umask(struct ctx *c, const char *a, struct sl_err *err)
{
	char *end;
	long m;

	errno = 0;
	m = strtol(a, &end, 0);
	if (end == a || m < 0 || m > 0777 || errno != 0)
		return sl_err_set(err, SL_EINVAL, "Invalid -W umask= specification");
	c->spec->umask = (mode_t)m;
	c->umask_set = 1;
	return 0;
}

/* #PBS directives, translated as Slurm's xlate.c does into sbatch options,
 * then applied through the table like #SBATCH ones (after them: a #PBS
 * value wins over an #SBATCH one, as in Slurm). */
static int apply_pbs(struct ctx *c, size_t len, struct sl_err *err)
{
	struct sl_pbs_opt *v = NULL;
	size_t n = 0;
	int r;

	if (c->spec->wrapped || c->ignore_pbs)
		return 0;
	if ((r = sl_pbs_xlate(c->spec->script, len, &v, &n, err)) != 0) {
		c->status = 1;
		goto out;
	}
	c->src = SRC_SCRIPT;
	for (size_t i = 0; i < n && r == 0; i++) {
		struct sl_optval one = {NULL, v[i].value};
		char *joined = NULL;

		if (strcmp(v[i].name, "umask") == 0) {
			r = set_umask(c, v[i].value, err);
			continue;
		}
		if (strcmp(v[i].name, "+export") == 0) { /* -v adds to --export */
			joined = c->export_spec ? sl_xasprintf("%s,%s", c->export_spec, v[i].value)
						: sl_xstrdup(v[i].value);
			one.arg = joined;
			one.opt = sl_opt_find(sbatch_opts, "export");
		} else {
			one.opt = sl_opt_find(sbatch_opts, v[i].name);
		}
		if (one.opt == NULL) {
			r = sl_err_set(err, SL_EINTERNAL, "#PBS: no sbatch option %s", v[i].name);
		} else {
			r = apply_vals(c, &one, 1, SRC_SCRIPT, PASS_ALL, err);
		}
		free(joined);
	}
out:
	sl_pbs_opts_free(v, n);
	return r;
}

/* --ignore-pbs counts from every source before the #PBS lines are read. */
static int pbs_ignored(const struct sl_optval *v, size_t n, char **envp)
{
	const struct sl_opt *o = sl_opt_find(sbatch_opts, "ignore-pbs");

	for (size_t i = 0; i < n; i++)
		if (v[i].opt == o)
			return 1;
	return sl_opt_env_name(o, envp) != NULL;
}

static int apply_env(struct ctx *c, char **envp, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int r;

	sl_opt_from_env(sbatch_opts, envp, &v, &n);
	/* An empty value asks for nothing (SBATCH_RESERVATION= reserves none
	 * in Slurm), so an option Sluice lacks set so is no refusal. */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!(v[i].opt->flags & SL_OPTF_UNSUPP) || (v[i].arg && v[i].arg[0] != '\0'))
			v[k++] = v[i];
	r = apply_vals(c, v, k, SRC_ENV, PASS_ALL, err);
	free(v);
	return r;
}

/* ---- finishing the spec ---- */

static int finish(struct ctx *c, char **envp, const char *cwd, const char *default_name,
		  struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	char host[256] = "";
	mode_t m;
	int r;

	if ((r = sl_sbopt_finish(c, err)) != 0)
		return r;
	if (s->name == NULL)
		s->name = sl_xstrdup(default_name);
	s->submit_dir = sl_xstrdup(cwd);
	s->work_dir = c->chdir ? abs_path(cwd, c->chdir) : sl_xstrdup(cwd);
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[strcspn(host, ".")] = '\0';
	s->submit_host = sl_xstrdup(host);
	s->submit_sid = (int)getsid(0);
	if (!c->umask_set) {
		m = umask(0);
		umask(m);
		s->umask = m;
	}
	s->export_spec = sl_xstrdup(c->export_spec);
	if (c->export_file != NULL) {
		/* Slurm reads the file whatever --export says, and NONE drops it */
		char *none[] = {NULL}, **rest = sl_slurm_export_env(c->export_spec, none);
		r = sl_slurm_export_file(c->export_file, rest, &s->env, err);
		if (r == 0 && c->export_spec != NULL && strcasecmp(c->export_spec, "NONE") == 0) {
			sl_strv_free(s->env);
			s->env = rest;
			rest = NULL;
		}
		sl_strv_free(rest);
		if (r != 0) {
			c->status = 1;
			return r;
		}
	} else {
		s->env = sl_slurm_export_env(c->export_spec, envp);
	}
	return sl_rlimit_capture(c->propagate, &s->rlimits, err);
}

static const char *default_name(const struct ctx *c, int argc, char **argv, int optind)
{
	const char *slash;

	if (c->wrap_set)
		return "wrap";
	if (optind >= argc)
		return "sbatch";
	slash = strrchr(argv[optind], '/');
	return slash ? slash + 1 : argv[optind];
}

void sl_sbatch_flags_clear(struct sl_sbatch_flags *flags)
{
	sl_strv_free(flags->defined);
	free(flags->clusters);
	free(flags->warn);
	memset(flags, 0, sizeof(*flags));
}

static int cli_scan(struct ctx *c, int argc, char **argv, struct sl_optval **v, size_t *n,
		    int *optind, struct sl_err *err)
{
	int r = sl_opt_scan(sbatch_opts, argc, argv, 1, v, n, optind, err);

	if (r != 0) {
		c->fl->usage_error = 1;
		c->fl->exit_code = 255;
	}
	return r;
}

int sl_sbatch_parse(int argc, char **argv, char **envp, struct sl_jobspec *out,
		    struct sl_sbatch_flags *flags, struct sl_err *err)
{
	struct ctx c = {.spec = out, .fl = flags, .src = SRC_CLI};
	struct sl_optval *v = NULL;
	size_t n = 0, len = 0;
	int optind = 1, r;
	char *cwd = NULL, *dir = NULL;

	memset(flags, 0, sizeof(*flags));
	sl_jobspec_init(out);
	if ((r = cli_scan(&c, argc, argv, &v, &n, &optind, err)) != 0 ||
	    (r = apply_vals(&c, v, n, SRC_CLI, PASS_EARLY, err)) != 0)
		goto out;
	if (flags->help || flags->usage || flags->version)
		goto out;
	if ((cwd = getcwd(NULL, 0)) == NULL) {
		c.status = 1;
		r = sl_err_set(err, SL_EIO, "getcwd failed: %s", strerror(errno));
		goto out;
	}
	dir = search_dir(v, n, cwd);
	if ((r = load_script(&c, argc, argv, optind, envp, dir, &len, err)) != 0 ||
	    (r = apply_directives(&c, len, err)) != 0)
		goto out;
	c.ignore_pbs |= pbs_ignored(v, n, envp);
	if ((r = apply_pbs(&c, len, err)) != 0 || (r = apply_env(&c, envp, err)) != 0 ||
	    (r = apply_vals(&c, v, n, SRC_CLI, PASS_LATE, err)) != 0)
		goto out;
	r = finish(&c, envp, cwd, default_name(&c, argc, argv, optind), err);
	if (r == 0) /* slurmdbd's submit_line: the words as typed, joined */
		out->submit_line = sl_script_command_line(argv[0], argv + 1);
out:
	if (r != 0 && flags->exit_code == 0)
		flags->exit_code = c.status ? c.status : 255;
	free(v);
	free(cwd);
	free(dir);
	free(c.chdir);
	free(c.nodefile);
	free(c.wrap);
	free(c.propagate);
	free(c.export_spec);
	free(c.export_file);
	return r;
}
