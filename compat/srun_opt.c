/* srun_opt.c - srun's option table (Slurm 22.05's names, short letters and
 * input variables) and the checks Slurm makes while parsing, with its
 * words. What Sluice cannot do has a row that refuses it by name, so no
 * option is ever ignored in silence. The step's shape against the
 * allocation is srun_layout.c's. */
#include "srun_opt_int.h"
#include "srun_gpus.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "optable.h"
#include "query_opt.h"
#include "hostlist.h"
#include "slurm_opt.h"
#include "slurm_time.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_srun_opts *)(ctx))
#define ENVROW(name, key, arg, e1, e2, fn) {name, key, arg, {e1, e2}, 0, fn}

/* A positive count: Slurm's parse_int() words. */
int sl_srun_count(const char *arg, const char *what, int zero_ok, int *out, struct sl_err *err)
{
	char *end;
	long v = arg ? strtol(arg, &end, 10) : -1;
	if (arg == NULL || *arg == '\0' || *end != '\0' || v < (zero_ok ? 0 : 1) || v > INT_MAX)
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid numeric value \"%s\" for %s.",
				  arg ? arg : "", what);
	*out = (int)v;
	return 0;
}

static int replace(char **dst, const char *arg)
{
	free(*dst);
	*dst = sl_xstrdup(arg);
	return 0;
}

SET(set_ntasks)
{
	O(ctx)->ntasks_opt = 1;
	return sl_srun_count(arg, "--ntasks", 0, &O(ctx)->ntasks, err);
}
SET(set_ntasks_env) { return sl_srun_count(arg, "--ntasks", 0, &O(ctx)->ntasks, err); }
SET(set_tpn)
{
	return sl_srun_count(arg, "--ntasks-per-node", 0, &O(ctx)->ntasks_per_node, err);
}
SET(set_cpt) { return sl_srun_count(arg, "--cpus-per-task", 0, &O(ctx)->cpus_per_task, err); }
SET(set_wait) { return sl_srun_count(arg, "--wait", 1, &O(ctx)->wait_secs, err); }
SET(set_relative) { return sl_srun_count(arg, "--relative", 1, &O(ctx)->relative, err); }
SET(set_label) { (void)arg; (void)err; O(ctx)->label = 1; return 0; }
SET(set_unbuf) { (void)arg; (void)err; O(ctx)->unbuffered = 1; return 0; }
SET(set_multi) { (void)arg; (void)err; O(ctx)->multi_prog = 1; return 0; }
SET(set_overlap) { (void)arg; (void)err; O(ctx)->overlap = 1; return 0; }
SET(set_exact) { (void)arg; (void)err; O(ctx)->exact = 1; return 0; }
static int alloc_push(struct sl_srun_opts *o, const char *name, const char *arg);
/* -O: tasks beyond the CPUs (srun_layout.c); srun's own allocation gets
 * one task's CPUs a node, as sbatch -O asks */
SET(set_overcommit)
{
	(void)arg, (void)err;
	O(ctx)->overcommit = 1;
	return alloc_push(O(ctx), "overcommit", NULL);
}
SET(set_pty) { (void)arg; (void)err; O(ctx)->pty = 1; return 0; }
SET(set_quiet) { (void)arg; (void)err; O(ctx)->quiet++; return 0; }
SET(set_verbose) { (void)arg; (void)err; O(ctx)->verbose++; return 0; }
SET(set_help) { (void)arg; (void)err; O(ctx)->help = 1; return 0; }
SET(set_usage) { (void)arg; (void)err; O(ctx)->usage = 1; return 0; }
SET(set_test_only) { (void)arg; (void)err; O(ctx)->test_only = 1; return 0; }
SET(set_version) { (void)arg; (void)err; O(ctx)->version = 1; return 0; }
SET(set_name) { (void)err; return replace(&O(ctx)->name, arg); }
SET(set_out) { (void)err; return replace(&O(ctx)->out, arg); }
SET(set_err) { (void)err; return replace(&O(ctx)->err, arg); }
SET(set_in) { (void)err; return replace(&O(ctx)->in, arg); }
SET(set_export) { (void)err; return replace(&O(ctx)->export_env, arg); }
SET(set_chdir) { (void)err; return replace(&O(ctx)->chdir, arg); }
SET(set_clusters) { (void)err; return replace(&O(ctx)->clusters, arg); }

static int nodes_value(struct sl_srun_opts *o, const char *arg, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	int lo, hi;

	/* sbatch's reading (and its two errors); "-N 2-4": Sluice takes the
	 * minimum, which a step always gets here */
	if (sl_slurm_parse_nodes(arg, &lo, &hi, &e) != 0) {
		o->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: %s", e.msg);
	}
	/* 0 is the controller's to refuse, "Node count specification invalid" */
	o->nodes = lo == 0 ? SL_SRUN_NODES_ZERO : lo;
	o->nodes_max = lo == 0 || hi < 0 ? 0 : hi;
	return 0;
}

SET(set_nodes) { O(ctx)->nodes_opt = 1; return nodes_value(O(ctx), arg, err); }
SET(set_nodes_env) { return nodes_value(O(ctx), arg, err); }

SET(set_kill_bad)
{
	int v = 1;
	if (arg != NULL && sl_srun_count(arg, "--kill-on-bad-exit", 1, &v, err) != 0)
		return -SL_EINVAL;
	O(ctx)->kill_on_bad_exit = v != 0;
	return 0;
}

SET(set_jobid)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);
	if (end == arg || *end != '\0')
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid numeric value \"%s\" for "
				  "--jobid.", arg);
	if (v == 0)
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid job id specified");
	O(ctx)->jobid = v;
	return 0;
}

SET(set_time)
{
	if (sl_slurm_time_parse_limit(arg, &O(ctx)->time_limit) != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --time specification");
	}
	return 0;
}

/* GPUs per task need -n, as Slurm's job spec check says. */
SET(set_gpt) { return sl_srun_count(arg, "--gpus-per-task", 1, &O(ctx)->gpus_per_task, err); }
/* --ntasks-per-gpu binds each N tasks to a GPU (gpu:single:N). */
SET(set_tpg)
{
	int r = sl_srun_count(arg, "--ntasks-per-gpu", 0, &O(ctx)->ntasks_per_gpu, err);
	return r != 0 ? r : alloc_push(O(ctx), "ntasks-per-gpu", arg);
}
/* The step's GPUs (srun_gpus.c places them), and the allocation's when
 * srun makes one: Slurm's srun passes the text on, and slurmctld refuses
 * what it cannot read (SL_SRUN_GPUS_BAD). */
SET(set_gpus)
{
	(void)err;
	O(ctx)->gpus = sl_srun_gpu_count(arg, 0);
	return alloc_push(O(ctx), "gpus", arg);
}
SET(set_gpn)
{
	(void)err;
	O(ctx)->gpus_per_node = sl_srun_gpu_count(arg, 0);
	return alloc_push(O(ctx), "gpus-per-node", arg);
}
/* --gres: a GPU count is the step's per node; none, no GPUs; another
 * resource only the allocation's (a step refuses it, srun.c) */
SET(set_gres)
{
	(void)err;
	if (strcasecmp(arg, "none") == 0)
		O(ctx)->gres_none = 1;
	else if (sl_srun_gpu_count(arg, 1) != 0)
		O(ctx)->gpus_per_node = sl_srun_gpu_count(arg, 1);
	return alloc_push(O(ctx), "gres", arg);
}

/* --mpi: none, pmix (Slurm's pmix_v4 plugin by its other name; srun
 * refuses it when built without libpmix) or pmi2; cray_shasta, which
 * needs Cray's PALS, is refused. */
SET(set_mpi)
{
	O(ctx)->mpi_pmix = 0;
	O(ctx)->mpi_pmi2 = 0;
	O(ctx)->mpi_given = 1;
	if (strcmp(arg, "list") == 0) {
		O(ctx)->mpi_list = 1;
		return 0;
	}
	if (strcmp(arg, "none") == 0)
		return 0;
	if (strcmp(arg, "pmix") == 0 || strcmp(arg, "pmix_v4") == 0) {
		O(ctx)->mpi_pmix = 1;
		return 0;
	}
	if (strcmp(arg, "pmi2") == 0) {
		O(ctx)->mpi_pmi2 = 1;
		return 0;
	}
	if (strcmp(arg, "cray_shasta") == 0)
		return sl_err_set(err, SL_EUNSUPP, "srun: error: --mpi=%s is not supported by Sluice",
				  arg);
	return sl_err_set(err, SL_EINVAL, "srun: error: Invalid MPI type '%s', --mpi=list for "
			  "acceptable types", arg);
}


SET(set_open_mode)
{
	if (arg[0] == 'a' || arg[0] == 'A') {
		O(ctx)->open_append = 1;
	} else if (arg[0] == 't' || arg[0] == 'T') {
		O(ctx)->open_append = 0;
	} else {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --open-mode specification");
	}
	return 0;
}

SET(set_quit_intr) { (void)arg; (void)err; O(ctx)->quit_on_interrupt = 1; return 0; }
SET(set_disable_status) { (void)arg; (void)err; O(ctx)->disable_status = 1; return 0; }

/* What sizes or places the allocation srun or salloc makes (sbatch's
 * parser reads them there); inside an allocation srun refuses them. */
static int alloc_push(struct sl_srun_opts *o, const char *name, const char *arg)
{
	size_t n = sl_strv_len(o->alloc);
	o->alloc = sl_xrealloc(o->alloc, (n + 2) * sizeof(*o->alloc));
	o->alloc[n] = arg ? sl_xasprintf("--%s=%s", name, arg) : sl_xasprintf("--%s", name);
	o->alloc[n + 1] = NULL;
	return 0;
}
#define ALLOC(fn, name) \
	SET(fn) { (void)err; return alloc_push(O(ctx), name, arg); }
ALLOC(set_alloc_account, "account")
ALLOC(set_alloc_begin, "begin")
ALLOC(set_alloc_comment, "comment")
ALLOC(set_alloc_constraint, "constraint")
ALLOC(set_alloc_dependency, "dependency")
ALLOC(set_alloc_gpus, "gpus")
/* checked here too: in a job no sbatch parser reads it (srun.c) */
SET(set_alloc_tmp)
{
	int64_t mb;
	if (sl_slurm_parse_mem(arg, &mb) != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --tmp specification");
	}
	return alloc_push(O(ctx), "tmp", arg);
}
ALLOC(set_alloc_contiguous, "contiguous")
ALLOC(set_alloc_use_min_nodes, "use-min-nodes")
ALLOC(set_alloc_cores_per_socket, "cores-per-socket")
ALLOC(set_alloc_cpus_per_gpu, "cpus-per-gpu")
ALLOC(set_alloc_deadline, "deadline")
ALLOC(set_alloc_gpu_bind, "gpu-bind")
ALLOC(set_alloc_gpus_per_node, "gpus-per-node")
ALLOC(set_alloc_mem_per_gpu, "mem-per-gpu")
ALLOC(set_alloc_mincpus, "mincpus")
ALLOC(set_alloc_no_kill, "no-kill")
ALLOC(set_alloc_ntasks_per_core, "ntasks-per-core")
ALLOC(set_alloc_ntasks_per_gpu, "ntasks-per-gpu")
ALLOC(set_alloc_ntasks_per_socket, "ntasks-per-socket")
ALLOC(set_alloc_sockets_per_node, "sockets-per-node")
ALLOC(set_alloc_switches, "switches")
ALLOC(set_alloc_threads_per_core, "threads-per-core")
ALLOC(set_alloc_wckey, "wckey")
ALLOC(set_alloc_distribution, "distribution")
ALLOC(set_alloc_delay_boot, "delay-boot")
ALLOC(set_alloc_wait_all_nodes, "wait-all-nodes")
ALLOC(set_alloc_gres_flags, "gres-flags")
ALLOC(set_alloc_time_min, "time-min")
ALLOC(set_alloc_profile, "profile")
ALLOC(set_alloc_spread_job, "spread-job")
/* salloc's: checked here (srun's words, salloc's name), and kept on the
 * job, which gives them to its steps as sbatch's do. */
SET(set_alloc_cpu_freq)
{
	int r = sl_srun_set_cpu_freq(ctx, arg, err);
	return r != 0 ? r : alloc_push(O(ctx), "cpu-freq", arg);
}
SET(set_alloc_gpu_freq)
{
	int r = sl_srun_set_gpu_freq(ctx, arg, err);
	return r != 0 ? r : alloc_push(O(ctx), "gpu-freq", arg);
}
/* Also the step's, in an allocation (srun.c's step_options). */
SET(set_alloc_exclusive)
{
	if (sl_slurm_parse_exclusive(arg) < 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --exclusive specification");
	}
	O(ctx)->step_exclusive = arg == NULL;
	return alloc_push(O(ctx), "exclusive", arg);
}

/* -w, -F and -x: kept as given, read by host_files() once every option is
 * in (only the last of -w and -F counts, as Slurm's) */
SET(set_alloc_nodelist)
{
	(void)err;
	O(ctx)->nodefile = 0;
	return replace(&O(ctx)->nodelist, arg);
}
SET(set_alloc_nodefile)
{
	(void)err;
	O(ctx)->nodefile = 1;
	return replace(&O(ctx)->nodelist, arg);
}
/* "-x ''": no list, as Slurm's step and sbatch's -x take it (the last -x
 * counts) */
SET(set_alloc_exclude)
{
	(void)err;
	free(O(ctx)->exclude);
	O(ctx)->exclude = *arg != '\0' ? sl_xstrdup(arg) : NULL;
	return 0;
}
ALLOC(set_alloc_gres, "gres")
/* Checked here, as srun's own parser does, not when the allocation is
 * asked for (where the error would read as the controller's). */
#define ALLOC_MEM(fn, name, field) \
	SET(fn) \
	{ \
		O(ctx)->mem_mib = O(ctx)->mem_per_cpu_mib = -1; /* the last one given */ \
		if (sl_slurm_parse_mem(arg, &O(ctx)->field) != 0) { \
			O(ctx)->fatal_value = 1; \
			return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --" name \
					  " specification"); \
		} \
		return alloc_push(O(ctx), name, arg); \
	}
ALLOC_MEM(set_alloc_mem, "mem", mem_mib)
ALLOC_MEM(set_alloc_mem_per_cpu, "mem-per-cpu", mem_per_cpu_mib)
ALLOC(set_alloc_partition, "partition")
ALLOC(set_alloc_qos, "qos")

static const struct sl_opt table[] = {
	ROW("account", 'A', SL_OPT_REQ, set_alloc_account),
	UNSUPP("acctg-freq", 0, SL_OPT_REQ),
	UNSUPP("bb", 0, SL_OPT_REQ),
	UNSUPP("bbf", 0, SL_OPT_REQ),
	UNSUPP("bcast", 0, SL_OPT_OPTARG),
	UNSUPP("bcast-exclude", 0, SL_OPT_REQ),
	ROW("begin", 'b', SL_OPT_REQ, set_alloc_begin),
	ROW("chdir", 'D', SL_OPT_REQ, set_chdir),
	ROW("cluster", 'M', SL_OPT_REQ, set_clusters),
	UNSUPP("cluster-constraint", 0, SL_OPT_REQ),
	ENVROW("clusters", 'M', SL_OPT_REQ, "SLURM_CLUSTERS", NULL, set_clusters),
	ROW("comment", 0, SL_OPT_REQ, set_alloc_comment),
	UNSUPP("compress", 0, SL_OPT_OPTARG),
	ROW("constraint", 'C', SL_OPT_REQ, set_alloc_constraint),
	UNSUPP("container", 0, SL_OPT_REQ),
	ROW("contiguous", 0, SL_OPT_NOARG, set_alloc_contiguous),
	ENVROW("core-spec", 'S', SL_OPT_REQ, "SLURM_CORE_SPEC", NULL, sl_srun_set_core_spec),
	UNSUPP("cores-per-socket", 0, SL_OPT_REQ),
	ENVROW("cpu-bind", 0, SL_OPT_REQ, "SLURM_CPU_BIND", NULL, sl_srun_set_cpu_bind),
	ENVROW("cpu-freq", 0, SL_OPT_REQ, "SLURM_CPU_FREQ_REQ", NULL, sl_srun_set_cpu_freq),
	/* the old spelling mpirun uses */
	ENVROW("cpu_bind", 0, SL_OPT_REQ, NULL, NULL, sl_srun_set_cpu_bind),
	UNSUPP("cpus-per-gpu", 0, SL_OPT_REQ),
	ENVROW("cpus-per-task", 'c', SL_OPT_REQ, "SRUN_CPUS_PER_TASK", NULL, set_cpt),
	UNSUPP("deadline", 0, SL_OPT_REQ),
	ROW("delay-boot", 0, SL_OPT_REQ, set_alloc_delay_boot),
	ROW("dependency", 'd', SL_OPT_REQ, set_alloc_dependency),
	ENVROW("disable-status", 'X', SL_OPT_NOARG, "SLURM_DISABLE_STATUS", NULL, set_disable_status),
	ENVROW("distribution", 'm', SL_OPT_REQ, "SLURM_DISTRIBUTION", NULL, sl_srun_set_distribution),
	UNSUPP("epilog", 0, SL_OPT_REQ),
	ROW("error", 'e', SL_OPT_REQ, set_err),
	ENVROW("exact", 0, SL_OPT_NOARG, "SLURM_EXACT", NULL, set_exact),
	ROW("exclude", 'x', SL_OPT_REQ, set_alloc_exclude),
	ROW("exclusive", 0, SL_OPT_OPTARG, set_alloc_exclusive),
	ENVROW("export", 0, SL_OPT_REQ, "SLURM_EXPORT_ENV", NULL, set_export),
	UNSUPP("extra-node-info", 'B', SL_OPT_REQ),
	ENVROW("gpu-bind", 0, SL_OPT_REQ, "SLURM_GPU_BIND", NULL, sl_srun_set_gpu_bind),
	ENVROW("gpu-freq", 0, SL_OPT_REQ, "SLURM_GPU_FREQ", NULL, sl_srun_set_gpu_freq),
	ENVROW("gpus", 'G', SL_OPT_REQ, "SLURM_GPUS", NULL, set_gpus),
	ENVROW("gpus-per-node", 0, SL_OPT_REQ, "SLURM_GPUS_PER_NODE", NULL, set_gpn),
	UNSUPP("gpus-per-socket", 0, SL_OPT_REQ),
	ENVROW("gpus-per-task", 0, SL_OPT_REQ, "SLURM_GPUS_PER_TASK", NULL, set_gpt),
	ROW("gres", 0, SL_OPT_REQ, set_gres),
	ROW("gres-flags", 0, SL_OPT_REQ, set_alloc_gres_flags),
	ROW("help", 'h', SL_OPT_NOARG, set_help),
	UNSUPP("het-group", 0, SL_OPT_REQ),
	ENVROW("hint", 0, SL_OPT_REQ, "SLURM_HINT", NULL, sl_srun_set_hint),
	UNSUPP("hold", 'H', SL_OPT_NOARG),
	UNSUPP("immediate", 'I', SL_OPT_OPTARG),
	ROW("input", 'i', SL_OPT_REQ, set_in),
	ROW("job-name", 'J', SL_OPT_REQ, set_name),
	ROW("jobid", 0, SL_OPT_REQ, set_jobid),
	ENVROW("kill-on-bad-exit", 'K', SL_OPT_OPTARG, "SLURM_KILL_BAD_EXIT", NULL, set_kill_bad),
	ENVROW("label", 'l', SL_OPT_NOARG, "SLURM_LABELIO", NULL, set_label),
	UNSUPP("licenses", 'L', SL_OPT_REQ),
	UNSUPP("mail-type", 0, SL_OPT_REQ),
	UNSUPP("mail-user", 0, SL_OPT_REQ),
	UNSUPP("mcs-label", 0, SL_OPT_REQ),
	ENVROW("mem", 0, SL_OPT_REQ, "SLURM_MEM_PER_NODE", NULL, set_alloc_mem),
	ENVROW("mem-bind", 0, SL_OPT_REQ, "SLURM_MEM_BIND", NULL, sl_srun_set_mem_bind),
	ENVROW("mem-per-cpu", 0, SL_OPT_REQ, "SLURM_MEM_PER_CPU", NULL, set_alloc_mem_per_cpu),
	ROW("mem-per-gpu", 0, SL_OPT_REQ, set_alloc_mem_per_gpu), /* the allocation's */
	ENVROW("mem_bind", 0, SL_OPT_REQ, NULL, NULL, sl_srun_set_mem_bind),
	UNSUPP("mincpus", 0, SL_OPT_REQ),
	ENVROW("mpi", 0, SL_OPT_REQ, "SLURM_MPI_TYPE", NULL, set_mpi),
	ROW("multi-prog", 0, SL_OPT_NOARG, set_multi),
	UNSUPP("network", 0, SL_OPT_REQ),
	UNSUPP("nice", 0, SL_OPT_OPTARG),
	UNSUPP("no-allocate", 'Z', SL_OPT_NOARG),
	UNSUPP("no-kill", 'k', SL_OPT_OPTARG),
	ROW("nodefile", 'F', SL_OPT_REQ, set_alloc_nodefile),
	ROW("nodelist", 'w', SL_OPT_REQ, set_alloc_nodelist),
	/* the job's count, not SLURM_NNODES (a step's; Slurm's srun reads
	 * only this one) */
	ENVROW("nodes", 'N', SL_OPT_REQ, "SLURM_JOB_NUM_NODES", NULL, set_nodes),
	ENVROW("ntasks", 'n', SL_OPT_REQ, "SLURM_NTASKS", "SLURM_NPROCS", set_ntasks),
	ROW("ntasks-per-core", 0, SL_OPT_REQ, sl_srun_set_tpcore),
	ENVROW("ntasks-per-gpu", 0, SL_OPT_REQ, "SLURM_NTASKS_PER_GPU", NULL, set_tpg),
	ENVROW("ntasks-per-node", 0, SL_OPT_REQ, "SLURM_NTASKS_PER_NODE", NULL, set_tpn),
	UNSUPP("ntasks-per-socket", 0, SL_OPT_REQ),
	ENVROW("open-mode", 0, SL_OPT_REQ, "SLURM_OPEN_MODE", NULL, set_open_mode),
	ROW("output", 'o', SL_OPT_REQ, set_out),
	ENVROW("overcommit", 'O', SL_OPT_NOARG, "SLURM_OVERCOMMIT", NULL, set_overcommit),
	ENVROW("overlap", 0, SL_OPT_NOARG, "SLURM_OVERLAP", NULL, set_overlap),
	UNSUPP("oversubscribe", 's', SL_OPT_NOARG),
	ROW("partition", 'p', SL_OPT_REQ, set_alloc_partition),
	UNSUPP("power", 0, SL_OPT_REQ),
	UNSUPP("preserve-env", 'E', SL_OPT_NOARG),
	UNSUPP("priority", 0, SL_OPT_REQ),
	ROW("profile", 0, SL_OPT_REQ, set_alloc_profile),
	UNSUPP("prolog", 0, SL_OPT_REQ),
	UNSUPP("propagate", 0, SL_OPT_OPTARG),
	ROW("pty", 0, SL_OPT_NOARG, set_pty),
	ROW("qos", 'q', SL_OPT_REQ, set_alloc_qos),
	ROW("quiet", 'Q', SL_OPT_NOARG, set_quiet),
	ROW("quit-on-interrupt", 0, SL_OPT_NOARG, set_quit_intr),
	UNSUPP("reboot", 0, SL_OPT_NOARG),
	ROW("relative", 'r', SL_OPT_REQ, set_relative),
	UNSUPP("reservation", 0, SL_OPT_REQ),
	UNSUPP("resv-ports", 0, SL_OPT_OPTARG),
	UNSUPP("send-libs", 0, SL_OPT_OPTARG),
	UNSUPP("signal", 0, SL_OPT_REQ),
	UNSUPP("slurmd-debug", 0, SL_OPT_REQ),
	UNSUPP("sockets-per-node", 0, SL_OPT_REQ),
	ENVROW("spread-job", 0, SL_OPT_NOARG, "SLURM_SPREAD_JOB", NULL, set_alloc_spread_job),
	UNSUPP("switches", 0, SL_OPT_REQ),
	UNSUPP("task-epilog", 0, SL_OPT_REQ),
	UNSUPP("task-prolog", 0, SL_OPT_REQ),
	ROW("test-only", 0, SL_OPT_NOARG, set_test_only),
	ENVROW("thread-spec", 0, SL_OPT_REQ, "SLURM_THREAD_SPEC", NULL, sl_srun_set_thread_spec),
	UNSUPP("threads", 'T', SL_OPT_REQ),
	ENVROW("threads-per-core", 0, SL_OPT_REQ, "SLURM_THREADS_PER_CORE", NULL, sl_srun_set_tpc),
	ENVROW("time", 't', SL_OPT_REQ, "SLURM_TIMELIMIT", NULL, set_time),
	ROW("time-min", 0, SL_OPT_REQ, set_alloc_time_min),
	ROW("tmp", 0, SL_OPT_REQ, set_alloc_tmp),
	ENVROW("unbuffered", 'u', SL_OPT_NOARG, "SLURM_UNBUFFEREDIO", NULL, set_unbuf),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	ROW("use-min-nodes", 0, SL_OPT_NOARG, set_alloc_use_min_nodes),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("wait", 'W', SL_OPT_REQ, set_wait),
	UNSUPP("wckey", 0, SL_OPT_REQ),
	UNSUPP("x11", 0, SL_OPT_OPTARG),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

/* Input variables set the same fields as their flags, but do not count as
 * typed (Slurm's words for a bad -r name the one or the other). */
static int apply_env(const struct sl_opt *tab, struct sl_srun_opts *o, char *const *envp,
		     struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int r = 0;
	sl_opt_from_env(tab, envp, &v, &n);
	for (size_t i = 0; i < n && r == 0; i++) {
		struct sl_optval one = v[i];
		if (one.opt->set == set_ntasks)
			r = set_ntasks_env(o, one.arg, err);
		else if (one.opt->set == set_nodes)
			r = set_nodes_env(o, one.arg, err);
		else
			r = sl_opt_apply_one(&one, o, err);
	}
	free(v);
	return r;
}

/* Slurm's own fatal for a refused row, "srun: error: ..." for the rest. */
static int apply_args(struct sl_srun_opts *o, const struct sl_optval *v, size_t n,
		      struct sl_err *err)
{
	for (size_t i = 0; i < n; i++) {
		struct sl_err e = SL_ERR_INIT;
		int r = sl_opt_apply_one(&v[i], o, &e);
		if (r == 0)
			continue;
		if (strncmp(e.msg, "srun: ", 6) == 0)
			return sl_err_set(err, e.code, "%s", e.msg);
		return sl_err_set(err, e.code, "srun: error: %s", e.msg);
	}
	return 0;
}

/* *list naming a host file (-F, or a '/' in it): the file's names
 * (hostlist.h: Slurm's slurm_read_hostfile). A file that cannot be read
 * ends -F with exit(-1) and its own line, -w and -x with error_exit. */
static int host_file(struct sl_srun_opts *o, char **list, int file, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	char *names = NULL;

	if (*list == NULL || (!file && strchr(*list, '/') == NULL))
		return 0;
	if (sl_hostfile_read(*list, &names, &e) != 0) {
		o->fatal_value = file;
		return sl_err_set(err, SL_EINVAL, "srun: error: %s%s", e.msg, file ? "\nsrun: "
				  "error: Invalid --nodefile node file" : "");
	}
	free(*list);
	*list = names;
	return 0;
}

/* The host files, in the order Slurm's _opt_verify reads them: -x's,
 * then -F's or -w's. */
static int host_files(struct sl_srun_opts *o, struct sl_err *err)
{
	int r = host_file(o, &o->exclude, 0, err);
	return r != 0 ? r : host_file(o, &o->nodelist, o->nodefile, err);
}

/* -w naming more nodes than -N's maximum (or the job's
 * SLURM_JOB_NUM_NODES): Slurm's srun says so and drops the last names
 * given, where it would otherwise ask for the larger count (22.05's
 * _opt_verify; not salloc's, whose controller refuses "-N 3-2"). */
static void nodes_trim(struct sl_srun_opts *o)
{
	struct sl_err e = SL_ERR_INIT;
	char **names = NULL;
	size_t n = 0;

	if (o->nodelist != NULL && o->nodes_max > 0 &&
	    sl_hostlist_expand(o->nodelist, &names, &n, &e) == 0 && n > (size_t)o->nodes_max) {
		o->warn = sl_xasprintf("srun: error: Required nodelist includes more nodes than "
				       "permitted by max-node count (%zu > %d). Eliminating nodes "
				       "from the nodelist.\n", n, o->nodes_max);
		free(o->nodelist);
		o->nodelist = sl_hostlist_compress_ordered(names, (size_t)o->nodes_max);
	}
	sl_strv_free(names);
}

/* The node lists, as they now stand, for the allocation srun or salloc
 * makes (sbatch's -w and -x). */
static void alloc_nodes(struct sl_srun_opts *o)
{
	if (o->nodelist != NULL)
		alloc_push(o, "nodelist", o->nodelist);
	if (o->exclude != NULL)
		alloc_push(o, "exclude", o->exclude);
}

/* srun's and salloc's: scan with tab (syntax errors as getopt's, status
 * 255), the input variables, then the flags; o->argv is the rest. */
static int parse_with(const struct sl_opt *tab, const char *prog, int argc, char **argv,
		      char *const *envp, struct sl_srun_opts *o, int *status, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, r;

	memset(o, 0, sizeof(*o));
	o->kill_on_bad_exit = -1;
	o->open_append = -1;
	o->mem_mib = o->mem_per_cpu_mib = -1;
	o->relative = -1;
	o->time_limit = -1;
	*status = 1;
	if ((r = sl_opt_scan(tab, argc, argv, 1, &v, &n, &optind, err)) != 0) {
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err->msg);
		*status = 255;
		*err = (struct sl_err)SL_ERR_INIT;
		return sl_err_set(err, -r, "%s: %s\nTry \"%s --help\" for more information", prog,
				  msg, prog);
	}
	if ((r = apply_env(tab, o, envp, err)) == 0 && (r = apply_args(o, v, n, err)) == 0)
		r = host_files(o, err);
	if (r != 0 && o->fatal_value)
		*status = 255;
	o->argv = argv + optind;
	o->argc = argc - optind;
	free(v);
	return r;
}

int sl_srun_opts_parse(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
		       int *status, struct sl_err *err)
{
	int r;
	if ((r = parse_with(table, "srun", argc, argv, envp, o, status, err)) != 0)
		return r;
	nodes_trim(o);
	alloc_nodes(o);
	/* --gpus-per-task with no task count is the allocation's to refuse
	 * (srun_alloc.c, sbatch's check with both of Slurm's lines); a step
	 * counts one task a node, as Slurm's does */
	if (o->help || o->usage || o->version || o->mpi_list || o->bind_help)
		return 0;
	if (o->argc == 0)
		return sl_err_set(err, SL_EINVAL, "srun: fatal: No command given to execute.");
	return 0;
}

/* salloc's table: what sizes an allocation is shared with srun's; the
 * rest of Slurm's salloc options are refused by name. */
static const struct sl_opt salloc_table[] = {
	ROW("account", 'A', SL_OPT_REQ, set_alloc_account),
	UNSUPP("bb", 0, SL_OPT_REQ),
	UNSUPP("bbf", 0, SL_OPT_REQ),
	ROW("begin", 'b', SL_OPT_REQ, set_alloc_begin),
	UNSUPP("bell", 0, SL_OPT_NOARG),
	ROW("chdir", 'D', SL_OPT_REQ, set_chdir),
	ROW("cluster", 'M', SL_OPT_REQ, set_clusters),
	UNSUPP("cluster-constraint", 0, SL_OPT_REQ),
	ENVROW("clusters", 'M', SL_OPT_REQ, "SALLOC_CLUSTERS", "SLURM_CLUSTERS", set_clusters),
	ROW("comment", 0, SL_OPT_REQ, set_alloc_comment),
	ROW("constraint", 'C', SL_OPT_REQ, set_alloc_constraint),
	UNSUPP("container", 0, SL_OPT_REQ),
	ROW("contiguous", 0, SL_OPT_NOARG, set_alloc_contiguous),
	ENVROW("core-spec", 'S', SL_OPT_REQ, "SALLOC_CORE_SPEC", NULL, sl_srun_set_core_spec),
	ROW("cores-per-socket", 0, SL_OPT_REQ, set_alloc_cores_per_socket),
	ENVROW("cpu-freq", 0, SL_OPT_REQ, "SALLOC_CPU_FREQ_REQ", NULL, set_alloc_cpu_freq),
	ROW("cpus-per-gpu", 0, SL_OPT_REQ, set_alloc_cpus_per_gpu),
	ENVROW("cpus-per-task", 'c', SL_OPT_REQ, "SALLOC_CPUS_PER_TASK", NULL, set_cpt),
	ROW("deadline", 0, SL_OPT_REQ, set_alloc_deadline),
	ROW("delay-boot", 0, SL_OPT_REQ, set_alloc_delay_boot),
	ROW("dependency", 'd', SL_OPT_REQ, set_alloc_dependency),
	ROW("distribution", 'm', SL_OPT_REQ, set_alloc_distribution),
	ROW("exclude", 'x', SL_OPT_REQ, set_alloc_exclude),
	ROW("exclusive", 0, SL_OPT_OPTARG, set_alloc_exclusive),
	UNSUPP("get-user-env", 0, SL_OPT_OPTARG),
	UNSUPP("gid", 0, SL_OPT_REQ),
	ROW("gpu-bind", 0, SL_OPT_REQ, set_alloc_gpu_bind),
	ENVROW("gpu-freq", 0, SL_OPT_REQ, "SALLOC_GPU_FREQ", NULL, set_alloc_gpu_freq),
	ROW("gpus", 'G', SL_OPT_REQ, set_alloc_gpus),
	ROW("gpus-per-node", 0, SL_OPT_REQ, set_alloc_gpus_per_node),
	UNSUPP("gpus-per-socket", 0, SL_OPT_REQ),
	ROW("gpus-per-task", 0, SL_OPT_REQ, set_gpt),
	ROW("gres", 0, SL_OPT_REQ, set_alloc_gres),
	ROW("gres-flags", 0, SL_OPT_REQ, set_alloc_gres_flags),
	ROW("help", 'h', SL_OPT_NOARG, set_help),
	UNSUPP("hold", 'H', SL_OPT_NOARG),
	UNSUPP("immediate", 'I', SL_OPT_OPTARG),
	ROW("job-name", 'J', SL_OPT_REQ, set_name),
	UNSUPP("kill-command", 'K', SL_OPT_OPTARG),
	UNSUPP("licenses", 'L', SL_OPT_REQ),
	UNSUPP("mail-type", 0, SL_OPT_REQ),
	UNSUPP("mail-user", 0, SL_OPT_REQ),
	UNSUPP("mcs-label", 0, SL_OPT_REQ),
	ROW("mem", 0, SL_OPT_REQ, set_alloc_mem),
	ROW("mem-per-cpu", 0, SL_OPT_REQ, set_alloc_mem_per_cpu),
	ROW("mem-per-gpu", 0, SL_OPT_REQ, set_alloc_mem_per_gpu),
	ROW("mincpus", 0, SL_OPT_REQ, set_alloc_mincpus),
	UNSUPP("nice", 0, SL_OPT_OPTARG),
	UNSUPP("no-bell", 0, SL_OPT_NOARG),
	ROW("no-kill", 'k', SL_OPT_OPTARG, set_alloc_no_kill),
	UNSUPP("no-shell", 0, SL_OPT_NOARG),
	ROW("nodefile", 'F', SL_OPT_REQ, set_alloc_nodefile),
	ROW("nodelist", 'w', SL_OPT_REQ, set_alloc_nodelist),
	ENVROW("nodes", 'N', SL_OPT_REQ, NULL, NULL, set_nodes),
	ENVROW("ntasks", 'n', SL_OPT_REQ, NULL, NULL, set_ntasks),
	ROW("ntasks-per-core", 0, SL_OPT_REQ, set_alloc_ntasks_per_core),
	ROW("ntasks-per-gpu", 0, SL_OPT_REQ, set_alloc_ntasks_per_gpu),
	ROW("ntasks-per-node", 0, SL_OPT_REQ, set_tpn),
	ROW("ntasks-per-socket", 0, SL_OPT_REQ, set_alloc_ntasks_per_socket),
	ROW("overcommit", 'O', SL_OPT_NOARG, set_overcommit),
	UNSUPP("oversubscribe", 's', SL_OPT_NOARG),
	ROW("partition", 'p', SL_OPT_REQ, set_alloc_partition),
	UNSUPP("power", 0, SL_OPT_REQ),
	UNSUPP("priority", 0, SL_OPT_REQ),
	ROW("profile", 0, SL_OPT_REQ, set_alloc_profile),
	ROW("qos", 'q', SL_OPT_REQ, set_alloc_qos),
	ROW("quiet", 'Q', SL_OPT_NOARG, set_quiet),
	UNSUPP("reboot", 0, SL_OPT_NOARG),
	UNSUPP("reservation", 0, SL_OPT_REQ),
	UNSUPP("signal", 0, SL_OPT_REQ),
	ROW("sockets-per-node", 0, SL_OPT_REQ, set_alloc_sockets_per_node),
	ENVROW("spread-job", 0, SL_OPT_NOARG, "SALLOC_SPREAD_JOB", NULL, set_alloc_spread_job),
	ROW("switches", 0, SL_OPT_REQ, set_alloc_switches),
	ENVROW("thread-spec", 0, SL_OPT_REQ, "SALLOC_THREAD_SPEC", NULL, sl_srun_set_thread_spec),
	ROW("threads-per-core", 0, SL_OPT_REQ, set_alloc_threads_per_core),
	ENVROW("time", 't', SL_OPT_REQ, "SALLOC_TIMELIMIT", NULL, set_time),
	ROW("time-min", 0, SL_OPT_REQ, set_alloc_time_min),
	ROW("tmp", 0, SL_OPT_REQ, set_alloc_tmp),
	UNSUPP("uid", 0, SL_OPT_REQ),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	ROW("use-min-nodes", 0, SL_OPT_NOARG, set_alloc_use_min_nodes),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("wait-all-nodes", 0, SL_OPT_REQ, set_alloc_wait_all_nodes),
	ROW("wckey", 0, SL_OPT_REQ, set_alloc_wckey),
	UNSUPP("x11", 0, SL_OPT_OPTARG),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

/* srun's words with salloc's name, on each line. */
static int as_salloc(int r, struct sl_err *err)
{
	if (r != 0)
		sl_err_reprefix(err, "srun: ", "salloc: ");
	return r;
}

int sl_salloc_opts_parse(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
			 int *status, struct sl_err *err)
{
	int r = parse_with(salloc_table, "salloc", argc, argv, envp, o, status, err);
	if (r == 0)
		alloc_nodes(o);
	return as_salloc(r, err);
}

void sl_srun_opts_clear(struct sl_srun_opts *o)
{
	free(o->name);
	free(o->out);
	free(o->err);
	free(o->in);
	free(o->export_env);
	free(o->chdir);
	free(o->clusters);
	free(o->nodelist);
	free(o->exclude);
	free(o->warn);
	free(o->hint);
	free(o->dist);
	free(o->cpu_freq);
	free(o->gpu_freq);
	free(o->gpu_bind);
	free(o->cpu_bind);
	sl_strv_free(o->alloc);
	memset(o, 0, sizeof(*o));
}

const char sl_srun_usage[] =
	"Usage: srun [-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]\n"
	"            [-c ncpus] [-r n] [-t minutes] [-D path] [--overlap] [--exact]\n"
	"            [--label] [--unbuffered] [-J jobname] [-W sec] [--mpi=none]\n"
	"            [--kill-on-bad-exit] [--cpu-bind=none] [--export=...]\n"
	"            [--ntasks-per-node=n] [--gpus-per-task=n] [--multi-prog]\n"
	"            executable [args...]\n";

const char sl_salloc_usage[] =
	"Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]\n"
	"              [-c cpus-per-task] [--ntasks-per-node=n] [-t minutes]\n"
	"              [-J jobname] [-D path] [--gpus-per-task=n] [-p partition]\n"
	"              [-A account] [-q qos] [--mem=MB] [command [args...]]\n";
