/* h_submit.c - SUBMIT: validate a job spec against the caller's rights and
 * the queue configuration, give it an id, store it. The reply waits for the
 * loop turn's commit, so a printed id is always durable. */
#include "authz.h"
#include "buf.h"
#include "conf.h"
#include "handlers.h"
#include "idcache.h"
#include "exec.h"
#include "jobtab.h"
#include "schedule.h"
#include "store.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NAME_MAX_LEN 1024 /* job names, paths and the like */

static int check_str(const char *what, const char *s, struct sl_err *err)
{
	if (s != NULL && strlen(s) > NAME_MAX_LEN)
		return sl_err_set(err, SL_EINVAL, "%s is longer than %d bytes", what,
				  NAME_MAX_LEN);
	return 0;
}

static int validate(const struct sl_peer *p, const struct sl_jobspec *s, struct sl_err *err)
{
	int r;
	if (s->script == NULL || s->script[0] == '\0')
		return sl_err_set(err, SL_EINVAL, "Batch script is empty!");
	if (s->work_dir == NULL || s->work_dir[0] != '/')
		return sl_err_set(err, SL_EINVAL, "working directory must be an absolute path");
	if ((r = check_str("job name", s->name, err)) || (r = check_str("partition", s->partition, err)) ||
	    (r = check_str("account", s->account, err)) || (r = check_str("qos", s->qos, err)) ||
	    (r = check_str("output path", s->std_out, err)) ||
	    (r = check_str("error path", s->std_err, err)) ||
	    (r = check_str("input path", s->std_in, err)) ||
	    (r = check_str("working directory", s->work_dir, err)))
		return r;
	if ((s->nodes != SL_NO_VAL && s->nodes < 1) || (s->ntasks != SL_NO_VAL && s->ntasks < 1) ||
	    (s->cpus_per_task != SL_NO_VAL && s->cpus_per_task < 1) ||
	    (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node < 1))
		return sl_err_set(err, SL_EINVAL, "node, task and cpu counts must be positive");
	if ((r = sl_authz_spec(p, s, err)) != 0)
		return r;
	if (s->nice > 2147483645 || s->nice < -2147483645)
		return sl_err_set(err, SL_EINVAL, "Invalid nice value");
	return 0;
}

/* Fill the record fields that depend on who asked and on the config. */
static int resolve(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		   struct sl_err *err)
{
	const char *const *accts = sl_conf_accounts(d->conf, p->user);
	struct sl_jobspec *s = &j->spec;
	int r;

	j->uid = p->uid;
	j->gid = p->gid;
	j->user = sl_xstrdup(p->user);
	j->group = sl_xstrdup(sl_idcache_group(d->ids, p->gid, time(NULL)));
	if (s->partition == NULL)
		s->partition = sl_xstrdup(sl_conf_default_partition(d->conf));
	if (s->account == NULL) {
		if (accts == NULL || accts[0] == NULL)
			return sl_err_set(err, SL_EACCOUNT,
					  "Invalid account or account/partition combination specified: "
					  "user %s has no account in the configuration", p->user);
		s->account = sl_xstrdup(accts[0]);
	} else if ((r = sl_authz_account(d->conf, p, s->account, err)) != 0) {
		return r;
	}
	if (s->name == NULL) {
		const char *base = s->script_path ? strrchr(s->script_path, '/') : NULL;
		s->name = sl_xstrdup(s->wrapped ? "wrap" :
				     s->script_path ? (base ? base + 1 : s->script_path) : "sbatch");
	}
	return 0;
}

/* The request is read from its text (job_parse.c) and the reply written as
 * text: no json-c tree per submission. */
int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	struct sl_jobshape sh;
	int r;

	if (d->stopping) {
		r = sl_err_set(err, SL_EBUSY, "sluiced is shutting down");
		goto out;
	}
	if ((r = sl_jobspec_parse_request(body, len, &j->spec, err)) != 0 ||
	    (r = validate(p, &j->spec, err)) != 0 || (r = resolve(d, p, j, err)) != 0 ||
	    (r = sl_schedctl_check(d->sched, j, err)) != 0)
		goto out;
	if (d->executor->check != NULL && (r = d->executor->check(d->conf, &j->spec, err)) != 0)
		goto out;
	sl_jobspec_shape(&j->spec, &sh);
	j->state = SL_JOB_PENDING;
	j->submit_time = j->eligible_time = (int64_t)time(NULL);
	j->alloc_cpus = sh.cpus_per_node * sh.nodes;
	if (j->spec.hold) {
		j->reason = sl_xstrdup("JobHeldUser");
		j->priority = 0;
	} else {
		j->reason = sl_xstrdup("None");
	}
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_next_id(d->store, &j->id, err)) != 0 ||
	    (r = sl_store_insert(d->store, j, err)) != 0)
		goto out;
	sl_job_shed(j); /* stored; read back at launch (lifecycle.c) */
	if (!j->spec.hold && (r = sl_schedctl_add(d->sched, j, err)) != 0)
		goto out;
	sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)j->id);
	sl_jobtab_add(d->jobs, j);
	j = NULL;
out:
	sl_job_free(j);
	return r;
}
