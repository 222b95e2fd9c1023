/* h_query.c - read-only requests: ping, jobs (squeue/sacct/scontrol), info. */
#include "conf.h"
#include "handlers.h"
#include "jobtab.h"
#include "schedule.h"
#include "store.h"
#include "xalloc.h"

#include <stdlib.h>
#include <time.h>

int sl_h_ping(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	json_object_object_add(rep, "uid", json_object_new_int64(p->uid));
	json_object_object_add(rep, "user", json_object_new_string(p->user));
	json_object_object_add(rep, "operator", json_object_new_boolean(p->operator));
	return 0;
}

struct hist {
	const struct sl_dfilter *f;
	json_object *arr;
};

static int hist_cb(const struct sl_job *j, void *arg)
{
	struct hist *h = arg;
	if (sl_dfilter_match(h->f, j))
		json_object_array_add(h->arr, sl_job_to_listing(j));
	return 0;
}

/* Single-uid history queries go to SQL's index; the rest filters in C. */
static int64_t single_uid(const struct sl_dfilter *f)
{
	return f->n_uids == 1 ? f->uids[0] : -1;
}

int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	struct sl_dfilter f;
	json_object *fo = NULL, *arr;
	size_t n = sl_jobtab_count(d->jobs);
	int r;

	json_object_object_get_ex(req, "filter", &fo);
	if ((r = sl_dfilter_decode(fo, &f, err)) != 0)
		return r;
	arr = json_object_new_array();
	if (f.history) {
		struct hist h = {&f, arr};
		r = sl_store_history(d->store, single_uid(&f), f.start_after, f.end_before,
				     hist_cb, &h, err);
		if (r != 0) {
			json_object_put(arr);
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* History already listed the finished ones from the store. */
		if (f.history && sl_jobstate_is_final(j->state))
			continue;
		if (!sl_dfilter_match(&f, j))
			continue;
		if (j->state == SL_JOB_PENDING)
			sl_schedctl_explain(d->sched, j);
		json_object_array_add(arr, sl_job_to_listing(j));
	}
	json_object_object_add(rep, "jobs", arr);
	json_object_object_add(rep, "now", json_object_new_int64((int64_t)time(NULL)));
out:
	sl_dfilter_clear(&f);
	return r;
}

static int show_cb(const char *key, const char *value, const char *help, void *arg)
{
	json_object_object_add(arg, key, json_object_new_string(value ? value : ""));
	return 0;
}

int sl_h_info(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	json_object *cfg = json_object_new_object();
	sl_conf_show(d->conf, show_cb, cfg);
	json_object_object_add(rep, "config", cfg);
	json_object_object_add(rep, "host", json_object_new_string(d->hostname));
	json_object_object_add(rep, "queues", sl_schedctl_usage_json(d->sched));
	return 0;
}
