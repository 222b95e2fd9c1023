/* qos_limits.h - Slurm's QOS and association limits, beyond Kueue: per job
 * (MaxTRESPerJob, MinTRESPerJob, MaxWall), per user (MaxJobsPerUser,
 * MaxSubmitJobsPerUser, MaxTRESPerUser) and per group (GrpTRES, GrpJobs,
 * GrpSubmitJobs), on QOS objects and on accounts with parents. Pure: the
 * caller tallies the jobs that count (sl_lim_usage) and asks which limit,
 * if any, holds a job back, by Slurm's reason code.
 *
 * The config spells them as sluice.io/v1alpha1 objects:
 *   kind: QOS      metadata.name; spec: priorityClass, maxJobsPerUser,
 *                  maxSubmitJobsPerUser, maxTRESPerUser, maxTRESPerJob,
 *                  minTRESPerJob, maxWall, grpTRES, grpJobs, grpSubmitJobs
 *   kind: Account  metadata.name; spec: parent, users, maxJobsPerUser,
 *                  maxSubmitJobsPerUser, maxTRESPerJob, maxWall, grpTRES,
 *                  grpJobs, grpSubmitJobs
 * TRES maps take cpu, memory (or mem), nvidia.com/gpu (or gpu, gres/gpu)
 * and node (or nodes), Kubernetes quantities or Slurm's "16G". */
#ifndef SL_QOS_LIMITS_H
#define SL_QOS_LIMITS_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct sl_ynode;
struct sl_limits;
struct sl_lim_usage;

enum sl_tres { SL_TRES_CPU, SL_TRES_MEM, SL_TRES_NODE, SL_TRES_GPU, SL_TRES_N };

#define SL_LIM_NONE (-1) /* a limit not set */

/* One object's limits as the config spells them: counts, minutes of
 * maxWall, and TRES in cpus, MiB, nodes and GPUs; SL_LIM_NONE when not
 * set. An Account object sets no max_tres_pu or min_tres_pj. */
struct sl_lim_set {
	int64_t max_jobs_pu, max_submit_pu, grp_jobs, grp_submit, max_wall;
	int64_t max_tres_pu[SL_TRES_N], max_tres_pj[SL_TRES_N], min_tres_pj[SL_TRES_N],
		grp_tres[SL_TRES_N];
};

/* What a job asks for, as the limits see it. */
struct sl_lim_job {
	const char *user, *account, *qos;
	int64_t tres[SL_TRES_N];  /* cpus, MiB, nodes, GPUs: the whole job */
	int64_t time_limit;       /* minutes; <= 0: none */
};

struct sl_limits *sl_limits_new(void);
void sl_limits_free(struct sl_limits *l);

/* "2-00:00:00", "12:00:00", "MM:SS", "30" (minutes), "UNLIMITED" (-1):
 * to minutes, seconds rounded up. 0, or -1 on other text. */
int sl_limits_parse_time(const char *s, int64_t *min);
/* 1 when doc is a QOS or Account object (by apiVersion and kind). */
int sl_limits_is_doc(const struct sl_ynode *doc);
/* Parse one QOS or Account object. -SL_ECONFIG "FILE:LINE: ..." */
int sl_limits_add_doc(struct sl_limits *l, const char *file, const struct sl_ynode *doc,
		      struct sl_err *err);
/* After every document: parents exist and form no cycle. */
int sl_limits_finalize(struct sl_limits *l, struct sl_err *err);

/* 1 when any QOS or Account object sets a limit: else nothing to check. */
int sl_limits_active(const struct sl_limits *l);
/* 1 when a QOS object of that name exists. */
int sl_limits_has_qos(const struct sl_limits *l, const char *qos);
/* Account object i's users (NULL-terminated, maybe empty) and its name in
 * *account; NULL past the last. The config adds them to its accounts map. */
const char *const *sl_limits_account_users(const struct sl_limits *l, size_t i,
					   const char **account);
/* QOS object i (account 0) or Account object i (account 1), in the
 * config's order, for listings (sacctmgr): its name, its parent (accounts;
 * NULL: none) and its limits, borrowed. 0, or -1 past the last. */
int sl_limits_obj(const struct sl_limits *l, int account, size_t i, const char **name,
		  const char **parent, const struct sl_lim_set **set);
/* The QOS's priorityClass, or NULL (none, or no such QOS). */
const char *sl_limits_qos_class(const struct sl_limits *l, const char *qos);

/* Usage: the jobs that count, added and removed as they come and go. */
struct sl_lim_usage *sl_lim_usage_new(void);
void sl_lim_usage_free(struct sl_lim_usage *u);
void sl_lim_usage_add(struct sl_lim_usage *u, const struct sl_limits *l,
		      const struct sl_lim_job *j, int sign);

/* Per-job limits (MaxTRESPerJob, MinTRESPerJob, MaxWall): the reason code
 * a job waits with for ever, as Slurm keeps it pending, or NULL. */
const char *sl_limits_job_reason(const struct sl_limits *l, const struct sl_lim_job *j,
				 char *text, size_t len);
/* Submit limits, with u holding the jobs not yet finished: the reason code
 * sbatch prints ("QOSMaxSubmitJobPerUserLimit"), or NULL. */
const char *sl_limits_submit_reason(const struct sl_limits *l, const struct sl_lim_usage *u,
				    const struct sl_lim_job *j, char *text, size_t len);
/* Running limits, with u holding the jobs started (or let into the
 * engine): the reason code j waits with ("QOSMaxJobsPerUserLimit",
 * "AssocGrpCpuLimit", ...) and a sentence in text, or NULL when j may go. */
const char *sl_limits_run_reason(const struct sl_limits *l, const struct sl_lim_usage *u,
				 const struct sl_lim_job *j, char *text, size_t len);

#endif
