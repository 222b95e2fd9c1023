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
#include "proctree.h"
#include "store_steps.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* A running srun step's tasks now (its srun's process tree, srun left
 * out): sluiced reads /proc itself, as the step has no supervisor of its
 * own. Sizes are the sums now, not peaks: a step's figures are a sample. */
static int step_use(struct sluiced *d, const struct sl_job *j, json_object *v,
		    struct sl_usage *u, struct sl_err *err)
{
	struct sl_step st = {0};
	struct sl_proc_sample x;
	unsigned long long started = 0;
	long hz = sysconf(_SC_CLK_TCK);
	int64_t n = json_object_get_int64(v);
	int r;

	memset(u, 0, sizeof(*u));
	if (!json_object_is_type(v, json_type_int) || n < 0 || n > UINT32_MAX)
		return sl_err_set(err, SL_EPROTO, "stat: step is not a step id");
	r = sl_store_step_get(d->store, j->id, (uint32_t)n, &st, err);
	if (r == -SL_ENOENT || (r == 0 && (st.state != SL_JOB_RUNNING || st.pid <= 0 ||
					   sl_proc_starttime(st.pid, &started) != 0 ||
					   started != st.pid_start))) {
		sl_err_clear(err); /* a step that is not there is not running */
		r = sl_err_set(err, SL_ESTATE, "Step %llu.%lld is not running",
			       (unsigned long long)j->id, (long long)n);
	}
	if (r == 0) {
		/* each task is a child of srun with what it started: the Max
		 * figures are the largest task's, AveCPU the mean, as Slurm's */
		pid_t tasks[256];
		size_t nt = sl_proc_tree(st.pid, 0, tasks, sizeof(tasks) / sizeof(tasks[0]));
		int64_t cpu = 0;
		size_t k = 0, counted = 0;
		for (size_t i = 0; i < nt; i++) {
			if (sl_proc_parent(tasks[i]) != st.pid)
				continue;
			sl_proc_sample_tree(tasks[i], 1, &x);
			u->max_rss = x.rss_kib > u->max_rss ? x.rss_kib : u->max_rss;
			u->max_vmsize = x.vsize_kib > u->max_vmsize ? x.vsize_kib : u->max_vmsize;
			u->max_pages = x.majflt > u->max_pages ? x.majflt : u->max_pages;
			u->disk_read = x.rchar > u->disk_read ? x.rchar : u->disk_read;
			u->disk_write = x.wchar > u->disk_write ? x.wchar : u->disk_write;
			cpu += x.cpu_ticks;
			counted++;
			int w = snprintf(u->pids + k, sizeof(u->pids) - k, "%s%d", k ? "," : "",
					 (int)tasks[i]);
			if (w > 0 && (size_t)w < sizeof(u->pids) - k)
				k += (size_t)w;
			else
				u->pids[k] = '\0'; /* full: the pids that fit */
		}
		u->user_usec = hz > 0 && counted ? cpu * (1000000 / hz) / (int64_t)counted : 0;
		u->ntasks = st.ntasks;
		u->sampled = (int64_t)time(NULL);
	}
	sl_step_clear(&st);
	return r;
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
	if (json_object_object_get_ex(req, "step", &v)) {
		r = step_use(d, j, v, &u, err);
		if (r == 0) {
			json_object_object_add(rep, "usage", sl_usage_to_obj(&u));
			json_object_object_add(rep, "node", json_object_new_string(host));
		}
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
