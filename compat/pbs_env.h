/* pbs_env.h - the PBS variables a batch job sees, beside the SLURM_* ones
 * (slurm_env.h). Pure functions.
 *
 * An sbatch job gets the variables Slurm's spank_pbs plugin gives every
 * job on the sites that run it, as the reference cluster does (a PBS
 * script sent with sbatch still finds $PBS_O_WORKDIR): PBS_JOBID (the
 * Slurm id), PBS_JOBNAME, PBS_JOBDIR, PBS_NODENUM, PBS_TASKNUM, PBS_O_*
 * from the submission's variables, PBS_ARRAY_ID/INDEX. A job submitted
 * with qsub gets what PBS's MOM sets: PBS_ENVIRONMENT, PBS_JOBID
 * "N.server", PBS_QUEUE, PBS_ACCOUNT, PBS_O_* (the ones qsub sent win),
 * and from its resources NCPUS and OMP_NUM_THREADS: a Slurm job does not
 * expect OMP_NUM_THREADS to change under it. A qsub job of Torque's own
 * forms (jobspec.torque) gets what Torque's pbs_mom adds too: PBS_NP,
 * PBS_NUM_NODES, PBS_NUM_PPN, PBS_WALLTIME, PBS_VNODENUM. PBS_NODEFILE
 * and TMPDIR name files the local supervisor makes (sl_pbs_nodefile(),
 * sl_pbs_tmpdir()); a Kubernetes pod has neither. Both executors build the job's whole
 * environment with sl_pbs_env_job(). */
#ifndef SL_PBS_ENV_H
#define SL_PBS_ENV_H

#include <stdint.h>
#include "job.h"

struct sl_pbs_env_in {
	const struct sl_job *job;        /* spec (env, names, dirs), id, account */
	const struct sl_jobshape *shape; /* CPUs per node */
	const char *server;              /* the PBS server name (pbsServer) */
};

/* The value of name in envp ("K=V" entries), borrowed; NULL when unset. */
const char *sl_pbs_env_get(char *const *envp, const char *name);
/* Slurm's spank_pbs PBS_O_* (PBS_O_HOME from HOME, ... PBS_O_SYSTEM) from
 * env, the ones it has; NULL when none. Its plugin reads the job's final
 * environment: a job's that loads the login environment is known to its
 * supervisor alone. Caller frees (sl_strv_free). */
char **sl_pbs_env_o(char *const *env);

/* What Slurm's spank_pbs sets in a task of a step (its task_init): from
 * the task's final environment env, PBS_JOBID, PBS_JOBNAME, PBS_NODENUM,
 * PBS_TASKNUM (SLURM_PROCID + 1), PBS_ARRAY_*, PBS_O_WORKDIR and PBS_O_*
 * where env has their sources, and PBS_JOBDIR, the task's directory cwd.
 * NULL when none. Caller frees (sl_strv_free). */
char **sl_pbs_env_spank(char *const *env, const char *cwd);

/* "K=V", sorted by name, NULL-terminated; caller frees with sl_strv_free(). */
char **sl_pbs_env_build(const struct sl_pbs_env_in *in);

/* A batch job's whole environment, as every executor gives it: the
 * submission's exported variables, PBS's over them, then `over` (Slurm's,
 * sl_slurm_env_build()) over both. Caller frees with sl_strv_free(). */
char **sl_pbs_env_job(const struct sl_pbs_env_in *in, char *const *over);

/* qstat -f's Variable_List of j: "K=V" items joined by ',', a quote,
 * comma or backslash in one escaped with a backslash (encode_arst_bs()).
 * A qsub job's is what OpenPBS's qsub sends (PBS_O_HOME, _LANG, _LOGNAME,
 * _PATH, _MAIL, _SHELL, _TZ, _WORKDIR, _SYSTEM, then the -v and -V
 * variables) and its server appends (PBS_O_QUEUE, PBS_O_HOST). An sbatch
 * job's has the PBS_O_* its spank_pbs plugin makes, in that order (no
 * TZ), and the queue and host: none of its other variables, as Slurm's
 * export is no PBS list. Without the job's environment (another user's
 * job, whose environment a listing leaves out), PBS_O_WORKDIR, _QUEUE and
 * _HOST alone. NULL when it has none. Caller frees. */
char *sl_pbs_variable_list(const struct sl_job *j);

/* PBS_NODEFILE's text: the host once per MPI process, node by node
 * (tasks per node of each node). Caller frees. */
char *sl_pbs_nodefile(const struct sl_jobshape *shape, char *const *hosts, int nhosts);

/* TMPDIR of a qsub job: OpenPBS's $tmpdir/pbs.JOBID (start_exec.c
 * tmpdirname(), TMP_DIR /var/tmp by default). Caller frees. */
char *sl_pbs_tmpdir(const struct sl_job *j, const char *server, const char *base);

#endif
