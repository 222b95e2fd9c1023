/* schedule.c - jobs <-> workloads. A Slurm job is a Kueue workload with one
 * pod set "main": count = nodes, per-pod requests = the job's per-node shape.
 * Namespace = account, LocalQueue = partition. FIFO order is the job id,
 * which a requeued job keeps (Kueue keeps the original creation time). */
#include "schedule.h"
#include "conf.h"
#include "diag.h"
#include "exec.h"
#include "gates.h"
#include "info_nodes.h"
#include "limgate.h"
#include "jobtab.h"
#include "kueue.h"
#include "log.h"
#include "loop.h"
#include "metrics.h"
#include "nodeadmin.h"
#include "partadmin.h"
#include "submit.h"
#include "workload.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sl_schedctl {
	struct sluiced *d;
	struct sl_sched *engine;
	uint64_t afs_timer;
	int64_t afs_ms;
	struct sl_gates *gates; /* in front of the engine (gates.c) */
	struct sl_limgate *limits; /* QOS and association limits (limgate.c) */
	int64_t plan_at;        /* loop ms of the last start-time plan, 0: none */
	int plan_stale;         /* the engine changed since */
	int64_t wall_off;       /* unix ms - loop ms, fixed once (wall_offset()) */
	int64_t limits_at;      /* loop ms when the limits were last summed ... */
	uint64_t limits_sum;    /* ... and the sum (limits_changed()) */
};

/* Admission fair sharing decays LocalQueue usage over time; the engine has
 * no clock, so the daemon feeds it samples at Kueue's sampling interval. */
static void on_afs_sample(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_schedctl *s = arg;
	sl_sched_afs_sample(s->engine, s->afs_ms);
	s->d->need_schedule = 1;
	s->afs_timer = sl_loop_add_timer(l, s->afs_ms, on_afs_sample, s);
}

static void afs_arm(struct sl_schedctl *s)
{
	const struct sl_kueue *k = sl_conf_kueue(s->d->conf);
	if (s->afs_timer != 0)
		sl_loop_del_timer(s->d->loop, s->afs_timer);
	s->afs_timer = 0;
	if (!k->config.afs_enable)
		return;
	s->afs_ms = k->config.afs_sampling_ms > 0 ? k->config.afs_sampling_ms : 300000;
	s->afs_timer = sl_loop_add_timer(s->d->loop, s->afs_ms, on_afs_sample, s);
}

int sl_schedctl_new(struct sluiced *d, struct sl_schedctl **out, struct sl_err *err)
{
	struct sl_schedctl *s = sl_xcalloc(1, sizeof(*s));
	s->d = d;
	struct sl_kueue *held = sl_partadmin_model(d, sl_conf_kueue(d->conf));
	s->engine = sl_sched_new(held ? held : sl_conf_kueue(d->conf)); /* cannot fail */
	sl_partadmin_model_free(held);
	s->gates = sl_gates_new(d);
	s->limits = sl_limgate_new();
	afs_arm(s);
	*out = s;
	return 0;
}

void sl_schedctl_free(struct sl_schedctl *s)
{
	if (s == NULL)
		return;
	sl_sched_free(s->engine);
	sl_gates_free(s->gates);
	sl_limgate_free(s->limits);
	free(s);
}

/* The queued jobs that asked for features (-C, --gres TYPE) again, under
 * the features map just loaded: their node selectors come from it, as
 * Slurm checks a pending job against the nodes' current features. A job
 * whose feature is gone leaves the engine (BadConstraints); one whose
 * feature is back returns. Each keeps its place: order is by id. */
static void refeature(struct sl_schedctl *s)
{
	struct sl_jobtab *t = s->d->jobs;
	int64_t now = (int64_t)time(NULL);
	for (size_t i = 0; i < sl_jobtab_count(t); i++) {
		struct sl_job *j = sl_jobtab_at(t, i);
		struct sl_err err = SL_ERR_INIT;
		if (j->state != SL_JOB_PENDING || j->spec.hold || j->spec.features == NULL ||
		    j->eligible_time > now || j->dependency != NULL) /* the gates' */
			continue;
		(void)sl_sched_remove(s->engine, j->id);
		if (sl_schedctl_add(s, j, &err) != 0)
			sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
	}
	s->d->need_schedule = 1;
}

int sl_schedctl_reconfigure(struct sl_schedctl *s, struct sl_err *err)
{
	/* the config, with the LocalQueues of partitions an operator holds */
	struct sl_kueue *held = sl_partadmin_model(s->d, sl_conf_kueue(s->d->conf));
	int r = sl_sched_reconfigure(s->engine, held ? held : sl_conf_kueue(s->d->conf), err);
	sl_partadmin_model_free(held);
	if (r == 0) {
		afs_arm(s);
		refeature(s);
	}
	return r;
}

const struct sl_sched *sl_schedctl_engine(const struct sl_schedctl *s)
{
	return s->engine;
}

struct sl_gates *sl_schedctl_gates(const struct sl_schedctl *s)
{
	return s ? s->gates : NULL;
}

/* The engine's times are the loop's monotonic ms; a job's are unix s.
 * One fixed offset converts both ways, so that a running job's planned end
 * is exactly its StartTime plus its limit on every listing. */
static int64_t limit_ms(const struct sl_job *j)
{
	return sl_jobspec_limit_secs(&j->spec) * 1000;
}

static int64_t wall_offset(struct sl_schedctl *s)
{
	if (s->wall_off == 0) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		s->wall_off = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 -
			      sl_loop_now_ms(s->d->loop);
		if (s->wall_off == 0)
			s->wall_off = 1;
	}
	return s->wall_off;
}

static int64_t engine_ms(struct sl_schedctl *s, int64_t unix_s)
{
	int64_t t = unix_s * 1000 - wall_offset(s);
	return t > 0 ? t : 1;
}

int sl_schedctl_add(struct sl_schedctl *s, const struct sl_job *j, struct sl_err *err)
{
	struct sl_job_wl b;
	struct sl_err e = SL_ERR_INIT;

	/* Checked at submit; only a feature removed from the config since can
	 * fail here. Such a job waits (loudly) rather than run anywhere or
	 * keep sluiced from starting. */
	if (sl_submit_workload(s->d->conf, j, &b, &e) != 0) {
		sl_err_log("job %llu stays pending: %s", (unsigned long long)j->id, e.msg);
		return 0;
	}
	s->d->need_schedule = 1;
	s->plan_stale = 1;
	int r = sl_sched_add(s->engine, &b.wl, err);
	if (r == 0)
		(void)sl_sched_set_time(s->engine, j->id, limit_ms(j), 0);
	return r;
}

/* "cpu=default,memory=default" <-> the pod set's flavor assignment. */
static char *flavors_text(const struct sl_sched_flavor *f, size_t n)
{
	size_t len = 1;
	char *t, *p;
	for (size_t i = 0; i < n; i++)
		len += strlen(f[i].resource) + strlen(f[i].flavor) + 2;
	p = t = sl_xmalloc(len);
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s=%s", i ? "," : "", f[i].resource, f[i].flavor);
	return t;
}

int sl_schedctl_add_running(struct sl_schedctl *s, const struct sl_job *j,
			    struct sl_err *err)
{
	struct sl_sched_flavor fl[8];
	struct sl_sched_assignment a = {j->cluster_queue, 0, fl};
	char *text = sl_xstrdup(j->flavors ? j->flavors : ""), *save = NULL, *tok;
	int r;

	for (tok = strtok_r(text, ",", &save); tok && a.n < 8; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (eq == NULL)
			continue;
		*eq = '\0';
		fl[a.n++] = (struct sl_sched_flavor){"main", tok, eq + 1};
	}
	int32_t count = j->alloc_nodes;
	if ((r = sl_schedctl_add(s, j, err)) == 0)
		r = sl_sched_admitted_partial(s->engine, j->id, &a, count > 0 ? &count : NULL, err);
	if (r == 0 && j->start_time > 0) /* it ends at its real start + limit */
		(void)sl_sched_set_time(s->engine, j->id, limit_ms(j), engine_ms(s, j->start_time));
	free(text);
	struct sl_err e = SL_ERR_INIT;
	/* its pods hold those nodes; a topology changed since only loses the charge */
	if (r == 0 && sl_sched_admitted_topology_text(s->engine, j->id, j->topo_assign, &e) != 0)
		sl_err_log("job %llu: topology assignment not charged: %s",
			   (unsigned long long)j->id, e.msg);
	return r;
}

void sl_schedctl_remove(struct sl_schedctl *s, uint64_t id)
{
	if (sl_sched_remove(s->engine, id) == 0)
		s->d->need_schedule = 1;
	s->plan_stale = 1;
}

/* The running jobs' recorded placements again: a domain whose nodes were
 * not known when its job was taken back (a restart before the first Nodes
 * list) held nothing, and would let a second job onto those nodes. */
static void recharge_topologies(struct sl_schedctl *s)
{
	for (size_t i = 0; i < sl_jobtab_count(s->d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(s->d->jobs, i);
		struct sl_err e = SL_ERR_INIT;
		if (j->topo_assign == NULL || j->state == SL_JOB_PENDING ||
		    sl_jobstate_is_final(j->state))
			continue;
		if (sl_sched_admitted_topology_text(s->engine, j->id, j->topo_assign, &e) != 0)
			sl_debug("job %llu: topology assignment not charged: %s",
				 (unsigned long long)j->id, e.msg);
	}
}

int sl_schedctl_set_nodes(struct sl_schedctl *s, const struct sl_sched_node *nodes, size_t n,
			  struct sl_err *err)
{
	int r = sl_sched_set_nodes(s->engine, nodes, n, err);
	if (r == 0)
		recharge_topologies(s);
	s->d->need_schedule = 1;   /* freed or added capacity: parked jobs may fit */
	s->plan_stale = 1;
	return r;
}

void sl_schedctl_requeue(struct sl_schedctl *s, uint64_t id)
{
	sl_sched_requeue(s->engine, id);
	s->d->need_schedule = 1;
	s->plan_stale = 1;
}


static void on_wake(struct sl_loop *l, uint64_t id, void *arg)
{
}

static int limits_changed(struct sl_schedctl *s, int64_t now);
static void feed_limits(struct sl_schedctl *s);

void sl_schedctl_run(struct sl_schedctl *s, struct sl_sched_decisions *dec)
{
	struct timespec a, b;
	struct sl_sched_stats st;
	int64_t us;
	int changes;

	memset(dec, 0, sizeof(*dec));
	sl_limgate_pass(s->d, s, s->limits);
	/* backfill in the cycle works from the limits: keep them current */
	if (limits_changed(s, sl_loop_now_ms(s->d->loop))) {
		feed_limits(s);
		s->plan_stale = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	/* A change may be a queue move (a BestEffortFIFO head parked) that
	 * lets one more cycle decide what this one could not: run it now,
	 * its decisions appended, rather than at the next event. */
	changes = sl_sched_cycle(s->engine, sl_loop_now_ms(s->d->loop), dec);
	if (changes > 0) {
		s->plan_stale = 1;
		(void)sl_sched_cycle(s->engine, sl_loop_now_ms(s->d->loop), dec);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	us = (int64_t)(b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000;
	sl_sched_stats(s->engine, &st);
	sl_diag_pass(s->d->diag, us, sl_loop_wall(s->d->loop), &st);
	sl_metrics_cycle(s->d->metrics, s->d, dec, us);
}

void sl_schedctl_assign(struct sl_job *j, const struct sl_sched_admission *a)
{
	struct sl_jobshape sh;

	free(j->cluster_queue);
	free(j->flavors);
	j->cluster_queue = sl_xstrdup(a->cluster_queue);
	j->flavors = flavors_text(a->flavors, a->n);
	j->alloc_nodes = a->ncounts > 0 ? a->counts[0] : 0; /* -N MIN-MAX */
	free(j->topo_assign);
	j->topo_assign = a->topology ? sl_xstrdup(a->topology) : NULL;
	sl_job_shape(j, &sh);
	j->alloc_cpus = sh.cpus_per_node * sh.nodes;
}

void sl_schedctl_done(struct sl_schedctl *s, struct sl_sched_decisions *dec)
{
	/* Kueue admits one head per ClusterQueue per cycle and cycles again at
	 * once: so must we, or a burst of small jobs behind a freed quota
	 * would start one per unrelated event. The timer makes sure the loop
	 * turns again even when nothing else wakes it. */
	if (dec->nadmit > 0) {
		s->d->need_schedule = 1;
		sl_loop_add_timer(s->d->loop, 0, on_wake, NULL);
	}
	sl_sched_decisions_clear(dec);
}

/* Out of the engine because a feature it asks for is no longer configured:
 * Slurm's reason for constraints no node can meet. */
static void explain_bad_features(struct sl_schedctl *s, struct sl_job *j)
{
	struct sl_job_wl b;
	struct sl_err e = SL_ERR_INIT;
	if (j->spec.features == NULL || j->eligible_time > (int64_t)time(NULL) ||
	    j->dependency != NULL || j->eligible_time == 0 ||
	    sl_submit_workload(s->d->conf, j, &b, &e) == 0)
		return;
	free(j->reason);
	free(j->reason_text);
	j->reason = sl_xstrdup("BadConstraints");
	j->reason_text = sl_xstrdup(e.msg);
	sl_job_reason_seen(j);
}

/* The most CPUs a node of j's partition has (slurmctld's max_cpu_cnt):
 * the executor's nodes in it, or the local executor's one node, the
 * partition's largest CPU quota (what --exclusive takes). */
static int part_node_cpus(const struct sluiced *d, const struct sl_job *j)
{
	if (d->executor->nodes != NULL)
		return sl_info_nodes_max_cpus(d, j->spec.partition);
	return sl_submit_node_cpus(d->conf, &j->spec);
}

void sl_schedctl_explain(struct sl_schedctl *s, struct sl_job *j)
{
	struct sl_sched_pending p;
	/* what squeue and scontrol show for it, held or not, as slurmctld
	 * packs a pending job's node count; one task or none needs no node
	 * size, so most pending jobs skip the executor's node list here,
	 * which squeue runs through for each job it lists */
	int ntasks = j->spec.ntasks, cpus = ntasks != SL_NO_VAL && ntasks > 1 ? part_node_cpus(s->d, j) : 0;
	j->nodes_shown = sl_jobspec_nodes_shown(&j->spec, cpus);
	if (j->spec.hold || sl_limgate_explain(s->limits, j))
		return;
	if (sl_sched_pending_info(s->engine, j->id, &p) != 0) {
		explain_bad_features(s, j);
		return;
	}
	free(j->reason);
	free(j->reason_text);
	if (sl_nodeadmin_explain(s->d, &j->reason, &j->reason_text)) {
		sl_job_reason_seen(j);
		return;
	}
	j->reason = sl_xstrdup(sl_sched_slurm_reason(p.cls, p.reason));
	sl_job_reason_seen(j);
	/* Kueue's own reason first, as kubectl shows the pair (REASON, MESSAGE) */
	if (p.reason != NULL && p.message != NULL && *p.message)
		j->reason_text = sl_xasprintf("%s: %s", p.reason, p.message);
	else
		j->reason_text = p.message && *p.message ? sl_xstrdup(p.message) : NULL;
	j->queue_pos = p.pos_cq >= 0 ? (int)p.pos_cq + 1 : 0;
	free(j->cluster_queue);
	j->cluster_queue = sl_xstrdup(p.cluster_queue);
}

/* Time limits change (scontrol update) without telling the engine: a sum
 * over the live jobs, once per loop turn, says whether one did. */
static int limits_changed(struct sl_schedctl *s, int64_t now)
{
	uint64_t sum = 0;
	if (s->limits_at == now && now != 0)
		return 0;
	s->limits_at = now;
	for (size_t i = 0; i < sl_jobtab_count(s->d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(s->d->jobs, i);
		if (!sl_jobstate_is_final(j->state))
			sum = (sum ^ (j->id * 0x9e3779b97f4a7c15ULL +
				      (uint64_t)sl_jobspec_limit_secs(&j->spec))) *
			      0x100000001b3ULL;
	}
	if (sum == s->limits_sum)
		return 0;
	s->limits_sum = sum;
	return 1;
}

/* The live jobs' limits and starts into the engine. */
static void feed_limits(struct sl_schedctl *s)
{
	for (size_t i = 0; i < sl_jobtab_count(s->d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(s->d->jobs, i);
		if (!sl_jobstate_is_final(j->state))
			(void)sl_sched_set_time(s->engine, j->id, limit_ms(j),
						j->state != SL_JOB_PENDING && j->start_time > 0
						? engine_ms(s, j->start_time) : 0);
	}
}

/* The plan, fed the live jobs' limits first. */
static void plan(struct sl_schedctl *s)
{
	int64_t now = sl_loop_now_ms(s->d->loop);
	if (limits_changed(s, now))
		s->plan_stale = 1;
	if (!s->plan_stale && s->plan_at != 0 && now - s->plan_at < SL_SCHEDCTL_PLAN_MS)
		return;
	feed_limits(s);
	(void)sl_sched_estimate(s->engine, now);
	s->plan_at = now != 0 ? now : 1;
	s->plan_stale = 0;
}

/* Engine ms -> unix seconds, rounded up: never promise earlier. */
static int64_t to_wall(struct sl_schedctl *s, int64_t t)
{
	return (t + wall_offset(s) + 999) / 1000;
}

int64_t sl_schedctl_start_estimate(struct sl_schedctl *s, const struct sl_job *j)
{
	int64_t t;
	/* drained or down: nothing starts until an operator says so, and
	 * no plan can say when (slurmctld's backfill plans no drained node) */
	if (sl_nodeadmin_blocks(s->d))
		return 0;
	plan(s);
	if (sl_sched_start_estimate(s->engine, j->id, &t) != 0 || t == SL_SCHED_NEVER)
		return 0;
	return to_wall(s, t);
}

/* The same job in each other LocalQueue (partition) of its namespace
 * (account): the soonest start, when sooner than in its own. */
static void trial_elsewhere(struct sl_schedctl *s, struct sl_job_wl *b, int64_t limit,
			    int64_t now, struct sl_schedctl_trial *out)
{
	const struct sl_kueue *k = sl_conf_kueue(s->d->conf);
	const char *own = b->wl.queue;
	int64_t best = out->start;
	for (size_t i = 0; i < k->nlqs; i++) {
		struct sl_sched_trial t;
		struct sl_err err = SL_ERR_INIT;
		if (strcmp(k->lqs[i].ns, b->ns) != 0 || (own && strcmp(k->lqs[i].name, own) == 0))
			continue;
		b->wl.queue = k->lqs[i].name;
		if (sl_sched_trial(s->engine, &b->wl, limit, now, &t, &err) != 0 ||
		    t.start == SL_SCHED_NEVER || to_wall(s, t.start) >= best)
			continue;
		best = to_wall(s, t.start);
		snprintf(out->other, sizeof(out->other), "%s", k->lqs[i].name);
		out->other_start = best;
	}
	b->wl.queue = own;
}

int sl_schedctl_trial(struct sl_schedctl *s, const struct sl_job *j,
		      struct sl_schedctl_trial *out, struct sl_err *err)
{
	struct sl_job_wl b;
	struct sl_sched_trial t;
	struct sl_err e = SL_ERR_INIT;
	int64_t now = sl_loop_now_ms(s->d->loop);
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = sl_submit_workload(s->d->conf, j, &b, err)) != 0)
		return r;
	if ((r = sl_sched_trial(s->engine, &b.wl, limit_ms(j), now, &t, &e)) == -SL_ENOFIT)
		return sl_submit_nofit(&e, err); /* told as a refused submission is */
	if (r != 0)
		return sl_err_set(err, e.code, "%s", e.msg);
	s->plan_at = now != 0 ? now : 1;   /* the trial planned again without it */
	s->plan_stale = 0;
	if (t.start == SL_SCHED_NEVER)
		return sl_err_set(err, SL_ENOFIT, "Requested node configuration is not available");
	out->start = to_wall(s, t.start);
	out->shorter = t.backfill_limit / 60000;
	if (out->start > sl_loop_wall(s->d->loop))
		trial_elsewhere(s, &b, limit_ms(j), now, out);
	return 0;
}
