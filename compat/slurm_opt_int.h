/* slurm_opt_int.h - what sbatch's option table (slurm_opt.c) shares with
 * its handlers (slurm_opt_set.c): the parse context and one setter per
 * option. Not an interface: compat/ only. */
#ifndef SL_SLURM_OPT_INT_H
#define SL_SLURM_OPT_INT_H

#include "err.h"
#include "job.h"
#include "slurm_opt.h"

enum src { SRC_SCRIPT, SRC_ENV, SRC_CLI };
#define SRC_BIT(s) (1u << (s))

struct ctx {
	struct sl_jobspec *spec;
	struct sl_sbatch_flags *fl;
	enum src src;
	int status;        /* exit status for the current failure; 0: 255 */
	int mem_cli, mem_per_cpu_cli, mem_per_gpu_cli;
	char *chdir, *wrap, *export_spec;
	char *nodefile;        /* --nodefile: read into -w once all options are in */
	char *export_file;     /* --export-file: the job's environment from it */
	int wrap_set;
	int ignore_pbs;    /* --ignore-pbs / SBATCH_IGNORE_PBS / #SBATCH --ignore-pbs */
	/* --hint against what it would override: the sources (SRC_BIT) that set
	 * each, for Slurm's validate_hint_option(). */
	unsigned hint_src, cpu_layout_src;
	int umask_set;         /* #PBS -W umask=: not the command's own umask */
	char *propagate;       /* --propagate's list; NULL: ALL (Slurm's default) */
	unsigned core_spec_src, thread_spec_src; /* -S, --thread-spec: SRC_BITs */
	int spec_thread;       /* the last of the two given was --thread-spec */
};

#define CTX(c) ((struct ctx *)(c))

/* Fail with exit status 1 (what Slurm's later checks exit with). */
int sl_sbopt_fail1(void *c, struct sl_err *err, const char *msg);

/* The setters, one per supported option (struct sl_opt's set). */
#define SBOPT_SETTERS(X)                                                          \
	X(name) X(partition) X(account) X(qos) X(comment) X(output) X(error) X(input) \
	X(chdir) X(export) X(nodes) X(ntasks) X(cpus) X(tpn) X(mem) X(mem_per_cpu)  \
	X(gres) X(constraint) X(gpus) X(gpus_per_node) X(time) X(hold) X(nice)       \
	X(open_mode) X(priority) X(requeue) X(no_requeue) X(wrap)                    \
	X(container_image) X(mpi) X(parsable) X(quiet) X(verbose) X(help) X(usage)  \
	X(version) X(mail_type) X(mail_user) X(exclusive) X(oversubscribe) X(signal) \
	X(hint) X(sockets_per_node) X(cores_per_socket) X(threads_per_core)          \
	X(ntasks_per_socket) X(ntasks_per_core) X(extra_node_info) X(nodelist)       \
	X(nodefile)                                                                  \
	X(exclude) X(wait) X(deadline) X(test_only) X(gpus_per_task)                 \
	X(cpus_per_gpu) X(mem_per_gpu) X(mincpus) X(ignore_pbs) X(dependency)         \
	X(begin) X(kill_invalid_dep) X(clusters) X(wckey) X(propagate) X(array) X(switches)  \
	X(topology) X(get_user_env) X(distribution) X(ntasks_per_gpu) X(no_kill) X(acctg_freq) \
	X(gpu_bind) X(mem_bind) X(use_min_nodes) X(contiguous) X(tmp) \
	X(wait_all_nodes) X(delay_boot) X(overcommit) X(gres_flags) X(profile) \
	X(time_min) X(cpu_freq) X(gpu_freq) X(core_spec) X(thread_spec) X(spread_job) \
	X(export_file) X(uid) X(gid)
#define SBOPT_DECL(n) int sl_sbopt_##n(void *c, const char *a, struct sl_err *e);
SBOPT_SETTERS(SBOPT_DECL)
#undef SBOPT_DECL

/* After every source is applied: --hint against the CPU layout options,
 * host files (--nodefile, -w or -x naming a path), -w's node count, and
 * checks that need all options (Slurm's _opt_verify). */
int sl_sbopt_finish(struct ctx *c, struct sl_err *err);
/* --ntasks-per-gpu's task count, or slurmctld's refusal, once every
 * source is applied; --mem-per-gpu's refusal without GPUs
 * (slurm_opt_tasks.c). */
int sl_sbopt_finish_tasks(struct ctx *c, struct sl_err *err);
int sl_sbopt_finish_mem_gpu(struct ctx *c, struct sl_err *err);
/* -S and --thread-spec against each other, and Slurm's line for the one
 * it drops (slurm_opt_bind.c). */
int sl_sbopt_finish_spec(struct ctx *c, struct sl_err *err);

#endif
