/* limgate.c - QOS and association limits in front of the engine. */
#include "limgate.h"
#include "conf.h"
#include "idsorted.h"
#include "jobtab.h"
#include "log.h"
#include "partdef.h"
#include "qos_limits.h"
#include "schedule.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct held {
	uint64_t id;
	const char *reason;      /* static: qos_limits.c's codes */
	char text[256];
	int seen;                /* still waiting after this turn's pass */
};

struct sl_limgate {
	struct held *h;
	size_t n, cap;
};

struct sl_limgate *sl_limgate_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_limgate));
}

void sl_limgate_free(struct sl_limgate *g)
{
	if (!g)
		return;
	free(g->h);
	free(g);
}

static int has_limits(const struct sluiced *d)
{
	const struct sl_limits *l = sl_conf_limits(d->conf);
	return (l != NULL && sl_limits_active(l)) || sl_conf_has_partdefs(d->conf);
}

/* The partition's MaxTime, MaxNodes and MinNodes: a job beyond them waits,
 * as with Slurm's EnforcePartLimits=NO. */
static const char *partition_reason(const struct sluiced *d, const struct sl_job *j, char *text,
				    size_t len)
{
	const struct sl_partdef *p = sl_conf_partdef(d->conf, j->spec.partition);
	struct sl_jobshape sh;
	if (p == NULL)
		return NULL;
	if (p->max_time >= 0 && (j->spec.time_limit == SL_TIME_INFINITE ||
				 j->spec.time_limit > p->max_time)) {
		snprintf(text, len, "partition %s: the job's time limit is above MaxTime (%lld minutes)",
			 p->name, (long long)p->max_time);
		return "PartitionTimeLimit";
	}
	sl_job_shape(j, &sh);
	if ((p->max_nodes >= 0 && sh.nodes > p->max_nodes) ||
	    (p->min_nodes >= 0 && sh.nodes < p->min_nodes)) {
		snprintf(text, len, "partition %s: %d nodes, outside MinNodes..MaxNodes", p->name,
			 sh.nodes);
		return "PartitionNodeLimit";
	}
	return NULL;
}

/* What the limits count of a job: its whole request. */
static void lim_job(const struct sl_job *j, struct sl_lim_job *out)
{
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	memset(out, 0, sizeof(*out));
	out->user = j->user;
	out->account = j->spec.account;
	out->qos = j->spec.qos;
	out->tres[SL_TRES_CPU] = (int64_t)sh.cpus_per_node * sh.nodes;
	out->tres[SL_TRES_MEM] = sh.mem_per_node * sh.nodes;
	out->tres[SL_TRES_NODE] = sh.nodes;
	out->tres[SL_TRES_GPU] = (int64_t)sh.gpus_per_node * sh.nodes;
	out->time_limit = j->spec.time_limit > 0 ? j->spec.time_limit : 0;
}

static int is_final(enum sl_jobstate s)
{
	return sl_jobstate_is_final(s);
}

int sl_limgate_submit(struct sluiced *d, const struct sl_job *j, struct sl_err *err)
{
	if (!has_limits(d))
		return 0;
	const struct sl_limits *l = sl_conf_limits(d->conf);
	struct sl_lim_usage *u = sl_lim_usage_new();
	struct sl_lim_job lj;
	char text[256];
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *o = sl_jobtab_at(d->jobs, i);
		if (!is_final(o->state)) {
			lim_job(o, &lj);
			sl_lim_usage_add(u, l, &lj, 1);
		}
	}
	lim_job(j, &lj);
	const char *why = sl_limits_submit_reason(l, u, &lj, text, sizeof(text));
	sl_lim_usage_free(u);
	if (why == NULL)
		return 0;
	return sl_err_set(err, SL_EPOLICY, "%s\n%s", why, sl_strerror(-SL_EPOLICY));
}

/* g->h is kept in id order: lookups are binary searches, so that a deep
 * queue held back by one user's limit costs n log n a turn, not n^2. */
static size_t lower(const struct sl_limgate *g, uint64_t id)
{
	return sl_idsorted_lower(g->h, g->n, sizeof(*g->h), id);
}

static struct held *find(const struct sl_limgate *g, uint64_t id)
{
	size_t i = lower(g, id);
	return i < g->n && g->h[i].id == id ? &g->h[i] : NULL;
}

static struct held *hold(struct sl_limgate *g, uint64_t id)
{
	size_t i = lower(g, id);
	if (i < g->n && g->h[i].id == id)
		return &g->h[i];
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->h = sl_xrealloc(g->h, g->cap * sizeof(*g->h));
	}
	memmove(&g->h[i + 1], &g->h[i], (g->n - i) * sizeof(*g->h));
	g->n++;
	memset(&g->h[i], 0, sizeof(g->h[i]));
	g->h[i].id = id;
	return &g->h[i];
}

/* Jobs the gates would let into the engine: pending, not held, eligible,
 * no dependency left. */
static int queued(const struct sl_job *j, int64_t now)
{
	return j->state == SL_JOB_PENDING && !j->spec.hold && j->dependency == NULL &&
	       j->eligible_time != 0 && j->eligible_time <= now;
}

static int by_priority(const void *a, const void *b)
{
	const struct sl_job *x = *(const struct sl_job *const *)a, *y = *(const struct sl_job *const *)b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void sl_limgate_pass(struct sluiced *d, struct sl_schedctl *s, struct sl_limgate *g)
{
	if (!has_limits(d)) {
		/* Limits gone in a reload: everyone held goes back in. */
		for (size_t i = 0; i < g->n; i++) {
			struct sl_job *j = sl_jobtab_get(d->jobs, g->h[i].id);
			struct sl_err err = SL_ERR_INIT;
			if (j && queued(j, (int64_t)time(NULL)))
				(void)sl_schedctl_add(s, j, &err);
		}
		g->n = 0;
		return;
	}
	const struct sl_limits *l = sl_conf_limits(d->conf);
	struct sl_lim_usage *u = sl_lim_usage_new();
	struct sl_lim_job lj;
	int64_t now = (int64_t)time(NULL);
	size_t n = 0, count = sl_jobtab_count(d->jobs);
	struct sl_job **want = sl_xcalloc(count + 1, sizeof(*want));

	for (size_t i = 0; i < count; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		if (j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING ||
		    j->state == SL_JOB_SUSPENDED || j->state == SL_JOB_COMPLETING) {
			lim_job(j, &lj);
			sl_lim_usage_add(u, l, &lj, 1);
		} else if (queued(j, now)) {
			want[n++] = j;
		}
	}
	for (size_t i = 0; i < g->n; i++)
		g->h[i].seen = 0;
	qsort(want, n, sizeof(*want), by_priority);
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = want[i];
		char text[256];
		struct held *h = find(g, j->id);
		lim_job(j, &lj);
		const char *why = partition_reason(d, j, text, sizeof(text));
		if (why == NULL)
			why = sl_limits_job_reason(l, &lj, text, sizeof(text));
		if (why == NULL)
			why = sl_limits_run_reason(l, u, &lj, text, sizeof(text));
		if (why == NULL) {
			sl_lim_usage_add(u, l, &lj, 1);
			if (h) { /* its turn: into the engine */
				struct sl_err err = SL_ERR_INIT;
				h->seen = 0; /* dropped below, keeping the order */
				if (sl_schedctl_add(s, j, &err) != 0)
					sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
			}
			continue;
		}
		if (!h) {
			sl_schedctl_remove(s, j->id);
			h = hold(g, j->id); /* may move the array: h is fresh */
		}
		h->reason = why;
		snprintf(h->text, sizeof(h->text), "%s", text);
		h->seen = 1;
	}
	/* Forget those that left the queue (cancelled, held, started). */
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->h[i].seen)
			g->h[k++] = g->h[i];
	g->n = k;
	free(want);
	sl_lim_usage_free(u);
}

int sl_limgate_explain(const struct sl_limgate *g, struct sl_job *j)
{
	const struct held *h = g ? find(g, j->id) : NULL;
	if (!h || !h->reason)
		return 0;
	free(j->reason);
	free(j->reason_text);
	j->reason = sl_xstrdup(h->reason);
	j->reason_text = sl_xstrdup(h->text);
	sl_job_reason_seen(j);
	return 1;
}
