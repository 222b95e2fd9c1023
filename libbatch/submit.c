/* submit.c - the submit policy (submit.h). The texts are Slurm's, word for
 * word: sbatch users and the integration tests compare them. */
#include "submit.h"
#include "authz.h"
#include "conf.h"
#include "kueue.h"
#include "sched/sched.h"
#include "workload.h"
#include "xalloc.h"

#include <string.h>

#define NAME_MAX_LEN 1024 /* job names, paths and the like */

static int validate(const struct sl_peer *w, const struct sl_jobspec *s,
		    struct sl_err *err)
{
	int r;
	const char *const strs[][2] = {
		{"job name", s->name}, {"partition", s->partition}, {"account", s->account},
		{"qos", s->qos}, {"output path", s->std_out}, {"error path", s->std_err},
		{"input path", s->std_in}, {"working directory", s->work_dir}};

	if (s->script == NULL || s->script[0] == '\0')
		return sl_err_set(err, SL_EINVAL, "Batch script is empty!");
	if (s->work_dir == NULL || s->work_dir[0] != '/')
		return sl_err_set(err, SL_EINVAL, "working directory must be an absolute path");
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i][1] != NULL && strlen(strs[i][1]) > NAME_MAX_LEN)
			return sl_err_set(err, SL_EINVAL, "%s is longer than %d bytes", strs[i][0],
					  NAME_MAX_LEN);
	if ((s->nodes != SL_NO_VAL && s->nodes < 1) || (s->ntasks != SL_NO_VAL && s->ntasks < 1) ||
	    (s->cpus_per_task != SL_NO_VAL && s->cpus_per_task < 1) ||
	    (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node < 1))
		return sl_err_set(err, SL_EINVAL, "node, task and cpu counts must be positive");
	if ((r = sl_authz_spec(w, s, err)) != 0)
		return r;
	if (s->nice > 2147483645 || s->nice < -2147483645)
		return sl_err_set(err, SL_EINVAL, "Invalid nice value");
	return 0;
}

/* The record fields that depend on who asked and on the config. */
static int resolve(const struct sl_conf *conf, const struct sl_peer *w, struct sl_job *j,
		   struct sl_err *err)
{
	const char *const *accts = sl_conf_accounts(conf, w->user);
	struct sl_jobspec *s = &j->spec;
	int r;

	j->uid = w->uid;
	j->gid = w->gid;
	j->user = sl_xstrdup(w->user);
	j->group = sl_xstrdup(w->group);
	if (s->partition == NULL)
		s->partition = sl_xstrdup(sl_conf_default_partition(conf));
	if (s->account == NULL) {
		if (accts == NULL || accts[0] == NULL)
			return sl_err_set(err, SL_EACCOUNT,
					  "Invalid account or account/partition combination specified: "
					  "user %s has no account in the configuration", w->user);
		s->account = sl_xstrdup(accts[0]);
	} else if ((r = sl_authz_account(conf, w, s->account, err)) != 0) {
		return r;
	}
	if (s->name == NULL) {
		const char *base = s->script_path ? strrchr(s->script_path, '/') : NULL;
		s->name = sl_xstrdup(s->wrapped ? "wrap" :
				     s->script_path ? (base ? base + 1 : s->script_path) : "sbatch");
	}
	return 0;
}

int sl_submit_priority(const struct sl_conf *conf, struct sl_job *j, struct sl_err *err)
{
	int32_t base = 0;
	if (j->spec.qos != NULL &&
	    sl_kueue_priority_class(sl_conf_kueue(conf), j->spec.qos, &base) != 0)
		return sl_err_set(err, SL_EINVAL, "Invalid qos specification");
	if (j->spec.priority != SL_NO_VAL)
		base = (int32_t)j->spec.priority;
	j->priority = (int64_t)base - j->spec.nice;
	return 0;
}

/* The features resolve, and the engine says the job can ever fit. */
int sl_submit_can_fit(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_job *j, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_job_wl b;
	int r;

	if ((r = sl_job_workload(j, sl_conf_features(conf), &b, err)) != 0 ||
	    (r = sl_job_selector_known(sl_conf_kueue(conf), &b, err)) != 0)
		return r;
	/* A LocalQueue of that name in another namespace: the account is what
	 * is wrong (Slurm: "Invalid account or account/partition combination"). */
	r = sl_sched_check(engine, &b.wl, &e);
	if (r == -SL_ENOENT && sl_kueue_find_lq(sl_conf_kueue(conf), NULL, j->spec.partition))
		return sl_err_set(err, SL_EACCOUNT,
				  "Invalid account or account/partition combination specified");
	if (r == -SL_ENOENT)
		return sl_err_set(err, SL_EPARTITION, "%s\nInvalid partition name specified",
				  e.msg);
	if (r == -SL_ENOFIT)
		return sl_err_set(err, SL_ENOFIT, "%s\nRequested node configuration is not available",
				  e.msg);
	if (r != 0)
		return sl_err_set(err, e.code ? e.code : SL_EINTERNAL, "%s", e.msg);
	return 0;
}

int sl_submit_prepare(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_peer *who, struct sl_job *j, struct sl_err *err)
{
	struct sl_jobshape sh;
	int r;

	if ((r = validate(who, &j->spec, err)) != 0 || (r = resolve(conf, who, j, err)) != 0 ||
	    (r = sl_submit_priority(conf, j, err)) != 0 ||
	    (r = sl_submit_can_fit(conf, engine, j, err)) != 0)
		return r;
	sl_jobspec_shape(&j->spec, &sh);
	j->state = SL_JOB_PENDING;
	j->alloc_cpus = sh.cpus_per_node * sh.nodes;
	j->reason = sl_xstrdup(j->spec.hold ? "JobHeldUser" : "None");
	if (j->spec.hold)
		j->priority = 0;
	return 0;
}
