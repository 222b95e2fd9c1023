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
 * own (its srun keeps the peaks for the step's end). Sizes are the sums
 * now, not peaks: a step's figures are a sample. */
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
		/* each task is a child of srun with what it started, ranked in
		 * the order srun started them: the step's figures are the tasks',
		 * one by one (Max the largest task's, Ave the mean), as Slurm's */
		pid_t tasks[256];
		size_t nt = sl_proc_tree(st.pid, 0, tasks, sizeof(tasks) / sizeof(tasks[0]));
		size_t k = 0;
		for (size_t i = 0; i < nt; i++) {
			if (sl_proc_parent(tasks[i]) != st.pid)
				continue;
			sl_proc_sample_tree(tasks[i], 1, &x);
			int64_t cpu = hz > 0 ? x.cpu_ticks * (1000000 / hz) : 0;
			int64_t fig[SL_USE_N] = {cpu, x.rss_kib, x.vsize_kib, x.majflt, x.rchar,
						 x.wchar};
			sl_usage_tasks_add(&u->tasks, u->tasks.n, fig);
			int w = snprintf(u->pids + k, sizeof(u->pids) - k, "%s%d", k ? "," : "",
					 (int)tasks[i]);
			if (w > 0 && (size_t)w < sizeof(u->pids) - k)
				k += (size_t)w;
			else
				u->pids[k] = '\0'; /* full: the pids that fit */
		}
		u->ntasks = st.ntasks;
		u->sampled = (int64_t)time(NULL);
	}
	sl_step_clear(&st);
	return r;
}

/* The batch step's CPU so far is the script's processes' with what they
 * reaped: an srun step that ended in the script came back with its tasks'
 * time, which its srun told with its end. Taken out, as sacct takes it
 * out of the job's at the end (compat/sacct_usage.c). */
static void batch_own_cpu(struct sluiced *d, const struct sl_job *j, struct sl_usage *u)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_step *v = NULL;
	int64_t steps = 0;
	size_t n = 0;

	if (sl_store_steps(d->store, &j->id, 1, 0, &v, &n, &err) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i].in_batch && v[i].end_time != 0 && v[i].start_time >= j->start_time)
			steps += v[i].use.user_usec + v[i].use.sys_usec;
	sl_step_free_array(v, n);
	u->user_usec = u->user_usec > steps ? u->user_usec - steps : 0;
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
	batch_own_cpu(d, j, &u);
	json_object_object_add(rep, "usage", sl_usage_to_obj(&u));
	json_object_object_add(rep, "node", json_object_new_string(host));
	r = 0;
out:
	free(host);
	free(text);
	free(dir);
	return r;
}
