/* qos_limits_check.c - which QOS or association limit holds a job back: the
 * usage tally and Slurm's reason codes (src/common/job_state_reason.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "qos_limits_int.h"
#include "xalloc.h"

struct tally {
	char *key;
	int64_t jobs;
	int64_t tres[SL_TRES_N];
};

struct sl_lim_usage {
	struct tally *t;
	size_t n, cap;   /* open addressing; cap a power of two */
};

struct sl_lim_usage *sl_lim_usage_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_lim_usage));
}

void sl_lim_usage_free(struct sl_lim_usage *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->cap; i++)
		free(u->t[i].key);
	free(u->t);
	free(u);
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)(*s | 0x20)) * 1099511628211ULL;
	return h;
}

static struct tally *find(const struct sl_lim_usage *u, const char *key)
{
	if (!u->cap)
		return NULL;
	for (size_t h = hash(key) & (u->cap - 1);; h = (h + 1) & (u->cap - 1)) {
		if (!u->t[h].key)
			return NULL;
		if (strcasecmp(u->t[h].key, key) == 0)
			return &u->t[h];
	}
}

static struct tally *get(struct sl_lim_usage *u, const char *key)
{
	struct tally *t = find(u, key);
	if (t)
		return t;
	if (2 * (u->n + 1) > u->cap) {
		struct tally *old = u->t;
		size_t oldcap = u->cap;
		u->cap = u->cap ? 2 * u->cap : 64;
		u->t = sl_xcalloc(u->cap, sizeof(*u->t));
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].key) {
				size_t h = hash(old[i].key) & (u->cap - 1);
				while (u->t[h].key)
					h = (h + 1) & (u->cap - 1);
				u->t[h] = old[i];
			}
		free(old);
	}
	size_t h = hash(key) & (u->cap - 1);
	while (u->t[h].key)
		h = (h + 1) & (u->cap - 1);
	u->t[h].key = sl_xstrdup(key);
	u->n++;
	return &u->t[h];
}

/* Keys: "q|QOS", "q|QOS|USER", "a|ACCOUNT", "a|ACCOUNT|USER". */
static void key(char *buf, size_t len, char kind, const char *name, const char *user)
{
	snprintf(buf, len, "%c|%s%s%s", kind, name ? name : "", user ? "|" : "", user ? user : "");
}

static void bump(struct sl_lim_usage *u, const char *k, const struct sl_lim_job *j, int sign)
{
	struct tally *t = get(u, k);
	t->jobs += sign;
	for (int i = 0; i < SL_TRES_N; i++)
		t->tres[i] += sign * j->tres[i];
}

static int acct_ix(const struct sl_limits *l, const char *name)
{
	for (size_t i = 0; l && name && i < l->nacct; i++)
		if (strcasecmp(l->acct[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A job counts in its QOS, for its user in it, in its account for its user,
 * and in its account and every parent (Grp limits cover the subtree). */
void sl_lim_usage_add(struct sl_lim_usage *u, const struct sl_limits *l,
		      const struct sl_lim_job *j, int sign)
{
	char k[512];
	key(k, sizeof(k), 'q', j->qos, NULL);
	bump(u, k, j, sign);
	key(k, sizeof(k), 'q', j->qos, j->user);
	bump(u, k, j, sign);
	key(k, sizeof(k), 'a', j->account, j->user);
	bump(u, k, j, sign);
	key(k, sizeof(k), 'a', j->account, NULL);
	bump(u, k, j, sign);
	int guard = 0;
	for (int p = acct_ix(l, j->account); p >= 0 && l->acct[p].parent_ix >= 0 &&
					      guard++ < (int)l->nacct;
	     p = l->acct[p].parent_ix) {
		key(k, sizeof(k), 'a', l->acct[l->acct[p].parent_ix].name, NULL);
		bump(u, k, j, sign);
	}
}

static const struct lim_obj *qos_of(const struct sl_limits *l, const char *qos)
{
	for (size_t i = 0; l && qos && i < l->nqos; i++)
		if (strcasecmp(l->qos[i].name, qos) == 0)
			return &l->qos[i];
	return NULL;
}

/* Reason codes by scope (QOS, association) x limit x TRES. */
enum lim_kind { K_MAX_PJ, K_MAX_PU, K_GRP, K_MIN_PJ, K_NKINDS };
static const char *const tres_reason[2][K_NKINDS][SL_TRES_N] = {
	{
		{"QOSMaxCpuPerJobLimit", "QOSMaxMemoryPerJob", "QOSMaxNodePerJobLimit", "QOSMaxGRESPerJob"},
		{"QOSMaxCpuPerUserLimit", "QOSMaxMemoryPerUser", "QOSMaxNodePerUserLimit", "QOSMaxGRESPerUser"},
		{"QOSGrpCpuLimit", "QOSGrpMemLimit", "QOSGrpNodeLimit", "QOSGrpGRES"},
		{"QOSMinCpuNotSatisfied", "QOSMinMemory", "QOSMinNode", "QOSMinGRES"},
	},
	{
		{"AssocMaxCpuPerJobLimit", "AssocMaxMemPerJob", "AssocMaxNodePerJobLimit", "AssocMaxGRESPerJob"},
		{NULL, NULL, NULL, NULL},
		{"AssocGrpCpuLimit", "AssocGrpMemLimit", "AssocGrpNodeLimit", "AssocGrpGRES"},
		{NULL, NULL, NULL, NULL},
	},
};
static const char *const tres_name[SL_TRES_N] = {"cpu", "mem", "node", "gres/gpu"};
static const char *const kind_name[K_NKINDS] = {"MaxTRESPerJob", "MaxTRESPerUser", "GrpTRES",
						 "MinTRESPerJob"};

static const char *say(char *text, size_t len, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static const char *say(char *text, size_t len, const char *reason, const char *fmt, ...)
{
	va_list ap;
	if (text && len) {
		va_start(ap, fmt);
		vsnprintf(text, len, fmt, ap);
		va_end(ap);
	}
	return reason;
}

static const char *per_job(const struct lim_obj *o, int assoc, const struct sl_lim_job *j,
			   char *text, size_t len)
{
	const char *scope = assoc ? "Account" : "QOS";
	for (int t = 0; t < SL_TRES_N; t++) {
		int64_t max = o->set.max_tres_pj[t], min = assoc ? LIM_NONE : o->set.min_tres_pj[t];
		if (max != LIM_NONE && j->tres[t] > max)
			return say(text, len, tres_reason[assoc][K_MAX_PJ][t],
				   "%s %s: the job asks for %s=%lld, %s allows %lld", scope, o->name,
				   tres_name[t], (long long)j->tres[t], kind_name[K_MAX_PJ], (long long)max);
		if (min != LIM_NONE && j->tres[t] < min)
			return say(text, len, tres_reason[0][K_MIN_PJ][t],
				   "%s %s: the job asks for %s=%lld, %s is %lld", scope, o->name,
				   tres_name[t], (long long)j->tres[t], kind_name[K_MIN_PJ], (long long)min);
	}
	if (o->set.max_wall != LIM_NONE && j->time_limit > o->set.max_wall)
		return say(text, len, assoc ? "AssocMaxWallDurationPerJobLimit" : "QOSMaxWallDurationPerJobLimit",
			   "%s %s: the job's time limit is %lld minutes, MaxWall is %lld", scope, o->name,
			   (long long)j->time_limit, (long long)o->set.max_wall);
	return NULL;
}

const char *sl_limits_job_reason(const struct sl_limits *l, const struct sl_lim_job *j,
				 char *text, size_t len)
{
	const struct lim_obj *q = qos_of(l, j->qos);
	const char *r = q ? per_job(q, 0, j, text, len) : NULL;
	for (int a = acct_ix(l, j->account), guard = 0; !r && a >= 0 && guard++ <= (int)l->nacct;
	     a = l->acct[a].parent_ix)
		r = per_job(&l->acct[a], 1, j, text, len);
	return r;
}

static const struct tally *tally(const struct sl_lim_usage *u, char kind, const char *name,
				 const char *user)
{
	char k[512];
	static const struct tally zero;
	key(k, sizeof(k), kind, name, user);
	const struct tally *t = find(u, k);
	return t ? t : &zero;
}

static int over(int64_t limit, int64_t have, int64_t add)
{
	return limit != LIM_NONE && have + add > limit;
}

const char *sl_limits_submit_reason(const struct sl_limits *l, const struct sl_lim_usage *u,
				    const struct sl_lim_job *j, char *text, size_t len)
{
	const struct lim_obj *q = qos_of(l, j->qos);
	if (q && over(q->set.grp_submit, tally(u, 'q', q->name, NULL)->jobs, 1))
		return say(text, len, "QOSGrpSubmitJobsLimit", "QOS %s: GrpSubmitJobs=%lld reached",
			   q->name, (long long)q->set.grp_submit);
	if (q && over(q->set.max_submit_pu, tally(u, 'q', q->name, j->user)->jobs, 1))
		return say(text, len, "QOSMaxSubmitJobPerUserLimit",
			   "QOS %s: MaxSubmitJobsPerUser=%lld reached by %s", q->name,
			   (long long)q->set.max_submit_pu, j->user);
	int a = acct_ix(l, j->account);
	if (a >= 0 && over(l->acct[a].set.max_submit_pu, tally(u, 'a', l->acct[a].name, j->user)->jobs, 1))
		return say(text, len, "AssocMaxSubmitJobLimit",
			   "Account %s: MaxSubmitJobsPerUser=%lld reached by %s", l->acct[a].name,
			   (long long)l->acct[a].set.max_submit_pu, j->user);
	for (int guard = 0; a >= 0 && guard++ <= (int)l->nacct; a = l->acct[a].parent_ix)
		if (over(l->acct[a].set.grp_submit, tally(u, 'a', l->acct[a].name, NULL)->jobs, 1))
			return say(text, len, "AssocGrpSubmitJobsLimit",
				   "Account %s: GrpSubmitJobs=%lld reached", l->acct[a].name,
				   (long long)l->acct[a].set.grp_submit);
	return NULL;
}

static const char *tres_over(const int64_t *limit, const struct tally *t, const struct sl_lim_job *j,
			     int assoc, enum lim_kind kind, const char *scope, const char *name,
			     char *text, size_t len)
{
	for (int i = 0; i < SL_TRES_N; i++)
		if (over(limit[i], t->tres[i], j->tres[i]))
			return say(text, len, tres_reason[assoc][kind][i],
				   "%s %s: %s %s=%lld would be passed (%lld in use, the job asks for %lld)",
				   scope, name, kind_name[kind], tres_name[i], (long long)limit[i],
				   (long long)t->tres[i], (long long)j->tres[i]);
	return NULL;
}

const char *sl_limits_run_reason(const struct sl_limits *l, const struct sl_lim_usage *u,
				 const struct sl_lim_job *j, char *text, size_t len)
{
	const struct lim_obj *q = qos_of(l, j->qos);
	const char *r;
	if (q) {
		const struct tally *g = tally(u, 'q', q->name, NULL), *pu = tally(u, 'q', q->name, j->user);
		if (over(q->set.grp_jobs, g->jobs, 1))
			return say(text, len, "QOSGrpJobsLimit", "QOS %s: GrpJobs=%lld running",
				   q->name, (long long)q->set.grp_jobs);
		if ((r = tres_over(q->set.grp_tres, g, j, 0, K_GRP, "QOS", q->name, text, len)))
			return r;
		if (over(q->set.max_jobs_pu, pu->jobs, 1))
			return say(text, len, "QOSMaxJobsPerUserLimit",
				   "QOS %s: MaxJobsPerUser=%lld running for %s", q->name,
				   (long long)q->set.max_jobs_pu, j->user);
		if ((r = tres_over(q->set.max_tres_pu, pu, j, 0, K_MAX_PU, "QOS", q->name, text, len)))
			return r;
	}
	int a = acct_ix(l, j->account);
	if (a >= 0 && over(l->acct[a].set.max_jobs_pu, tally(u, 'a', l->acct[a].name, j->user)->jobs, 1))
		return say(text, len, "AssocMaxJobsLimit", "Account %s: MaxJobsPerUser=%lld running for %s",
			   l->acct[a].name, (long long)l->acct[a].set.max_jobs_pu, j->user);
	for (int guard = 0; a >= 0 && guard++ <= (int)l->nacct; a = l->acct[a].parent_ix) {
		const struct lim_obj *o = &l->acct[a];
		const struct tally *g = tally(u, 'a', o->name, NULL);
		if (over(o->set.grp_jobs, g->jobs, 1))
			return say(text, len, "AssocGrpJobsLimit", "Account %s: GrpJobs=%lld running",
				   o->name, (long long)o->set.grp_jobs);
		if ((r = tres_over(o->set.grp_tres, g, j, 1, K_GRP, "Account", o->name, text, len)))
			return r;
	}
	return NULL;
}
