/* h_stat.c - STAT (request 23): what a running job has used so far, for
 * sstat. The job's supervisor writes its samples to <jobdir>/usage
 * (bin/sluice-stepd/stepd_usage.c); this reads the last one, so sstat
 * works the same after sluiced restarted and never waits on a supervisor.
 * Slurm's refusals are the command's to word: the errors here carry the
 * case (unknown, not running, not the caller's, not local), and a refusal
 * of someone else's job carries the node as its message. */
#include "authz.h"
#include "conf.h"
#include "handlers.h"
#include "hostlist.h"
#include "jobdir.h"
#include "jobtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int running(const struct sl_job *j)
{
	return j->state == SL_JOB_RUNNING || j->state == SL_JOB_SUSPENDED ||
	       j->state == SL_JOB_COMPLETING;
}

/* The batch host: the first node of the job's list. Caller frees. */
static char *batch_host(const struct sl_job *j)
{
	char host[256];

	sl_hostlist_first(j->nodelist, host, sizeof(host));
	return sl_xstrdup(host);
}

int sl_h_stat(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
	      struct sl_err *err)
{
	struct sl_err rerr = SL_ERR_INIT;
	struct sl_usage u;
	struct sl_job *j;
	json_object *v;
	char *dir = NULL, *host = NULL, *text = NULL;
	unsigned long long id;
	int r;

	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "stat: id is missing");
	id = (unsigned long long)json_object_get_int64(v);
	if ((j = sl_jobtab_get(d->jobs, id)) == NULL)
		return sl_err_set(err, SL_ENOENT, "Unknown Job Id %llu", id);
	if (!running(j))
		return sl_err_set(err, SL_ESTATE, "Job %llu is not running", id);
	host = batch_host(j);
	/* refused: the message is the node, which Slurm's refusal names */
	if ((r = sl_authz_job(p, j, SL_OP_SEE_PRIVATE, &rerr)) != 0) {
		r = sl_err_set(err, -r, "%s", host);
		goto out;
	}
	if (strcmp(sl_conf_executor(d->conf), "local") != 0) {
		r = sl_err_set(err, SL_EUNSUPP, "sstat is not supported by Sluice with the %s "
			       "executor: its jobs' use is not measured", sl_conf_executor(d->conf));
		goto out;
	}
	dir = sl_xasprintf("%s/jobs/%llu", sl_conf_state_dir(d->conf), id);
	/* none yet (the first sample comes a second after the launch): zeros */
	if (sl_jobdir_read(dir, SL_JOBDIR_USAGE, &text, &rerr) != 0 || sl_jobdir_blank(text) ||
	    sl_usage_from_json(text, &u) != 0)
		memset(&u, 0, sizeof(u));
	json_object_object_add(rep, "usage", sl_usage_to_obj(&u));
	json_object_object_add(rep, "node", json_object_new_string(host));
	r = 0;
out:
	free(host);
	free(text);
	free(dir);
	return r;
}
