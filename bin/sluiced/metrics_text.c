/* metrics_text.c - renders the metrics as Prometheus text (format 0.0.4) on
 * the loop thread: Kueue's ClusterQueue metrics from the engine's usage
 * rows, the pending jobs and the counters; Slurm-style job counts by state,
 * partition and user from the job table (what squeue -t all lists). */
#include "metrics_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "conf.h"
#include "diag.h"
#include "jobstate.h"
#include "jobtab.h"
#include "schedule.h"
#include "xalloc.h"

#define TEXT_MAX (64u << 20)

struct tally { /* jobs of one partition or user, by state */
	char *key;
	uint64_t n[SL_JOB_STATE_MAX];
};

struct cqrow {
	const char *name, *cohort, *inactive;
	int64_t admitted_wl;
	uint64_t active, inadmissible;
};

static void out(struct sl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct sl_buf *b, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	(void)sl_buf_addstr(b, line); /* past TEXT_MAX the scrape is cut, not wrong */
}

static void head(struct sl_buf *b, const char *name, const char *type, const char *help)
{
	out(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value: '\\', '"' and newlines escaped; at most 200 bytes. */
static const char *esc(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	for (; s && *s && n + 3 < len && n < 200; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n') {
			buf[n++] = '\\';
			buf[n++] = *s == '\n' ? 'n' : *s;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = 0;
	return buf;
}

/* Milli-units as a number: "4", "0.5". */
static const char *qty(int64_t milli, char *buf, size_t len)
{
	if (milli % 1000 == 0)
		snprintf(buf, len, "%lld", (long long)(milli / 1000));
	else
		snprintf(buf, len, "%s%lld.%03lld", milli < 0 ? "-" : "",
			 (long long)(llabs(milli) / 1000), (long long)(llabs(milli) % 1000));
	return buf;
}

static struct tally *tally_get(struct tally **v, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i].key, key) == 0)
			return &(*v)[i];
	*v = sl_xrealloc(*v, (*n + 1) * sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].key = sl_xstrdup(key);
	return &(*v)[(*n)++];
}

static void tally_out(struct sl_buf *b, const char *metric, const char *label,
		      struct tally *v, size_t n)
{
	char e[256];
	for (size_t i = 0; i < n; i++) {
		for (int s = 0; s < SL_JOB_STATE_MAX; s++)
			if (v[i].n[s])
				out(b, "%s{%s=\"%s\",state=\"%s\"} %llu\n", metric, label,
				    esc(v[i].key, e, sizeof(e)), sl_jobstate_name(s),
				    (unsigned long long)v[i].n[s]);
		free(v[i].key);
	}
	free(v);
}

static struct cqrow *cqrow_find(struct cqrow *rows, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

/* Can never be admitted as configured, or its queue is stopped. */
static int inadmissible(const struct sl_job *j)
{
	return strcmp(j->reason, "PartitionConfig") == 0 || strcmp(j->reason, "PartitionDown") == 0;
}

/* Pending jobs get their reason and queue as squeue gives them: first,
 * since the engine's usage rows are valid only until its next call. */
static void explain_pending(struct sluiced *d)
{
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		if (j->state == SL_JOB_PENDING && !j->spec.hold)
			sl_schedctl_explain(d->sched, j);
	}
}

/* One row per ClusterQueue, in config order, with its pending split:
 * inadmissible are the jobs that cannot be admitted as configured or whose
 * queue is stopped (squeue: PartitionConfig, PartitionDown); active, those
 * waiting for quota or priority. Kueue's BestEffortFIFO would count the
 * ones that waited for quota once as inadmissible until something changes;
 * here they count as active, as squeue shows them waiting for Resources. */
static struct cqrow *cq_rows(struct sl_metrics *m, struct sluiced *d,
			     const struct sl_sched_usage *u, size_t nu, size_t *ncq)
{
	struct cqrow *rows = sl_xcalloc(nu + 1, sizeof(*rows));
	*ncq = 0;
	for (size_t i = 0; i < nu; i++) {
		if (cqrow_find(rows, *ncq, u[i].cluster_queue))
			continue;
		rows[*ncq] = (struct cqrow){u[i].cluster_queue, u[i].cohort, u[i].inactive,
					    u[i].admitted_wl, 0, 0};
		(void)sl_metrics_cq(m, u[i].cluster_queue); /* zeros show too */
		(*ncq)++;
	}
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		struct cqrow *r = j->state == SL_JOB_PENDING && !j->spec.hold
				  ? cqrow_find(rows, *ncq, j->cluster_queue) : NULL;
		if (r == NULL || j->reason == NULL)
			continue;
		if (inadmissible(j))
			r->inadmissible++;
		else
			r->active++;
	}
	return rows;
}

static void kueue_queues(struct sl_buf *b, struct cqrow *rows, size_t n)
{
	char e[256];
	head(b, "kueue_pending_workloads", "gauge", "The number of pending workloads, per "
	     "cluster_queue and status (active or inadmissible).");
	for (size_t i = 0; i < n; i++) {
		esc(rows[i].name, e, sizeof(e));
		out(b, "kueue_pending_workloads{cluster_queue=\"%s\",status=\"active\"} %llu\n", e,
		    (unsigned long long)rows[i].active);
		out(b, "kueue_pending_workloads{cluster_queue=\"%s\",status=\"inadmissible\"} %llu\n",
		    e, (unsigned long long)rows[i].inadmissible);
	}
	head(b, "kueue_admitted_active_workloads", "gauge", "The number of admitted workloads "
	     "that are active (not finished), per cluster_queue.");
	for (size_t i = 0; i < n; i++)
		out(b, "kueue_admitted_active_workloads{cluster_queue=\"%s\"} %lld\n",
		    esc(rows[i].name, e, sizeof(e)), (long long)rows[i].admitted_wl);
	head(b, "kueue_cluster_queue_status", "gauge", "1 for the status of the ClusterQueue "
	     "(pending: inactive, e.g. a stop policy; active).");
	for (size_t i = 0; i < n; i++) {
		esc(rows[i].name, e, sizeof(e));
		out(b, "kueue_cluster_queue_status{cluster_queue=\"%s\",status=\"pending\"} %d\n", e,
		    rows[i].inactive != NULL);
		out(b, "kueue_cluster_queue_status{cluster_queue=\"%s\",status=\"active\"} %d\n", e,
		    rows[i].inactive == NULL);
	}
}

/* Evictions of a queue's workloads (Kueue's eviction reasons), or the
 * preemptions it caused (its preemption reasons); only those that happened. */
static void by_reason(struct sl_buf *b, const struct sl_metrics *m, const char *metric,
		      const char *label, int evicted)
{
	char e[256];
	for (size_t i = 0; i < m->ncq; i++)
		for (unsigned r = 0; r < METRICS_NREASONS; r++) {
			uint64_t n = evicted ? m->cq[i].evicted[r] : m->cq[i].preempting[r];
			const char *why = !evicted ? sl_sched_preempt_reason_name(r)
					  : r == SL_PREEMPT_CQ_STOPPED ? "ClusterQueueStopped"
					  : r == SL_PREEMPT_LQ_STOPPED ? "LocalQueueStopped" : "Preempted";
			if (n)
				out(b, "%s{%s=\"%s\",reason=\"%s\"} %llu\n", metric, label,
				    esc(m->cq[i].name, e, sizeof(e)), why, (unsigned long long)n);
		}
}

struct lq {
	char name[SL_K8S_NAME_MAX], ns[SL_K8S_NAME_MAX];
	uint64_t active, inadmissible;
};

/* Pending per LocalQueue: a partition (name) in an account's namespace. */
static void kueue_local_queues(struct sl_buf *b, struct sluiced *d)
{
	struct lq *v = NULL;
	size_t n = 0, cap = 0;
	head(b, "kueue_local_queue_pending_workloads", "gauge", "The number of pending "
	     "workloads, per LocalQueue (name, namespace) and status.");
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		struct lq x;
		size_t k = 0;
		if (j->state != SL_JOB_PENDING || j->spec.hold || !j->cluster_queue || !j->reason ||
		    !j->spec.partition || !j->spec.account || sl_conf_k8s_name(j->spec.partition, x.name) ||
		    sl_conf_k8s_name(j->spec.account, x.ns))
			continue;
		while (k < n && !(strcmp(v[k].name, x.name) == 0 && strcmp(v[k].ns, x.ns) == 0))
			k++;
		if (k == n) {
			v = sl_xgrow(v, &cap, n + 1, sizeof(*v));
			v[n] = x;
			v[n].active = v[n].inadmissible = 0;
			n++;
		}
		if (inadmissible(j))
			v[k].inadmissible++;
		else
			v[k].active++;
	}
	for (size_t k = 0; k < n; k++) {
		out(b, "kueue_local_queue_pending_workloads{name=\"%s\",namespace=\"%s\","
		    "status=\"active\"} %llu\n", v[k].name, v[k].ns, (unsigned long long)v[k].active);
		out(b, "kueue_local_queue_pending_workloads{name=\"%s\",namespace=\"%s\","
		    "status=\"inadmissible\"} %llu\n", v[k].name, v[k].ns,
		    (unsigned long long)v[k].inadmissible);
	}
	free(v);
}

static void kueue_counters(struct sl_buf *b, struct sl_metrics *m)
{
	char e[256];
	head(b, "kueue_admitted_workloads_total", "counter", "The total number of admitted "
	     "workloads, per cluster_queue.");
	for (size_t i = 0; i < m->ncq; i++)
		out(b, "kueue_admitted_workloads_total{cluster_queue=\"%s\"} %llu\n",
		    esc(m->cq[i].name, e, sizeof(e)), (unsigned long long)m->cq[i].admitted);
	head(b, "kueue_admission_wait_time_seconds", "histogram", "The time from a workload's "
	     "submission to its admission, per cluster_queue.");
	for (size_t i = 0; i < m->ncq; i++) {
		uint64_t cum = 0;
		esc(m->cq[i].name, e, sizeof(e));
		for (size_t k = 0; k <= METRICS_NBUCKETS; k++) {
			char le[32];
			cum += m->cq[i].wait_hist[k];
			if (k < METRICS_NBUCKETS)
				snprintf(le, sizeof(le), "%g", sl_metrics_wait_buckets[k]);
			out(b, "kueue_admission_wait_time_seconds_bucket{cluster_queue=\"%s\",le=\"%s\"} "
			    "%llu\n", e, k < METRICS_NBUCKETS ? le : "+Inf", (unsigned long long)cum);
		}
		out(b, "kueue_admission_wait_time_seconds_sum{cluster_queue=\"%s\"} %g\n", e,
		    m->cq[i].wait_sum);
		out(b, "kueue_admission_wait_time_seconds_count{cluster_queue=\"%s\"} %llu\n", e,
		    (unsigned long long)cum);
	}
	head(b, "kueue_evicted_workloads_total", "counter", "The number of evicted workloads, "
	     "per cluster_queue and reason.");
	by_reason(b, m, "kueue_evicted_workloads_total", "cluster_queue", 1);
	head(b, "kueue_preempted_workloads_total", "counter", "The number of workloads "
	     "preempted, per preempting_cluster_queue and reason.");
	by_reason(b, m, "kueue_preempted_workloads_total", "preempting_cluster_queue", 0);
}

static void kueue_quota(struct sl_buf *b, const struct sl_sched_usage *u, size_t n)
{
	static const struct {
		const char *name, *help;
	} g[] = {{"kueue_cluster_queue_nominal_quota", "The nominal quota, per cohort, "
		  "cluster_queue, flavor and resource."},
		 {"kueue_cluster_queue_resource_usage", "The resources admitted workloads use, "
		  "per cohort, cluster_queue, flavor and resource."},
		 /* not Kueue's: what sinfo shows as BORROWED and LENT */
		 {"sluice_cluster_queue_borrowed", "What the ClusterQueue borrows from its cohort, "
		  "per cohort, cluster_queue, flavor and resource."},
		 {"sluice_cluster_queue_lent", "What other ClusterQueues of the cohort use of its "
		  "unused quota."},
		 {"kueue_cluster_queue_borrowing_limit", "The borrowing limit, where one is set."},
		 {"kueue_cluster_queue_lending_limit", "The lending limit, where one is set."}};
	char e1[256], e2[256], e3[256], e4[256], v[48];
	for (size_t k = 0; k < sizeof(g) / sizeof(g[0]); k++) {
		head(b, g[k].name, "gauge", g[k].help);
		for (size_t i = 0; i < n; i++) {
			int64_t x = k == 0 ? u[i].nominal : k == 1 ? u[i].used : k == 2 ? u[i].borrowed
				    : k == 3 ? u[i].lent : k == 4 ? u[i].borrowing_limit : u[i].lending_limit;
			if (x < 0) /* no limit */
				continue;
			out(b, "%s{cohort=\"%s\",cluster_queue=\"%s\",flavor=\"%s\",resource=\"%s\"} %s\n",
			    g[k].name, esc(u[i].cohort ? u[i].cohort : "", e1, sizeof(e1)),
			    esc(u[i].cluster_queue, e2, sizeof(e2)), esc(u[i].flavor, e3, sizeof(e3)),
			    esc(u[i].resource, e4, sizeof(e4)), qty(x, v, sizeof(v)));
		}
	}
}

static void slurm_jobs(struct sl_buf *b, struct sluiced *d)
{
	uint64_t all[SL_JOB_STATE_MAX] = {0};
	struct tally *parts = NULL, *users = NULL, *accts = NULL;
	size_t np = 0, nu = 0, na = 0;
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		all[j->state]++;
		tally_get(&parts, &np, j->spec.partition ? j->spec.partition : "")->n[j->state]++;
		tally_get(&users, &nu, j->user ? j->user : "")->n[j->state]++;
		tally_get(&accts, &na, j->spec.account ? j->spec.account : "")->n[j->state]++;
	}
	head(b, "slurm_jobs", "gauge", "Jobs squeue -t all lists, by state.");
	for (int s = 0; s < SL_JOB_STATE_MAX; s++)
		if (all[s] || s <= SL_JOB_RUNNING)
			out(b, "slurm_jobs{state=\"%s\"} %llu\n", sl_jobstate_name(s),
			    (unsigned long long)all[s]);
	head(b, "slurm_partition_jobs", "gauge", "Jobs by partition and state.");
	tally_out(b, "slurm_partition_jobs", "partition", parts, np);
	head(b, "slurm_user_jobs", "gauge", "Jobs by user and state.");
	tally_out(b, "slurm_user_jobs", "user", users, nu);
	head(b, "slurm_account_jobs", "gauge", "Jobs by account and state.");
	tally_out(b, "slurm_account_jobs", "account", accts, na);
}

/* The cycle figures are diag.c's, counted from the start (sdiag -r
 * resets its own view, never a Prometheus counter). */
static void slurm_sched(struct sl_buf *b, const struct sl_metrics *m, const struct sl_diag *g)
{
	uint64_t cycles;
	int64_t last, max, sum;

	sl_diag_totals(g, &cycles, &last, &max, &sum);
	head(b, "slurm_scheduler_cycles_total", "counter", "Scheduling cycles run (sdiag's "
	     "Total cycles).");
	out(b, "slurm_scheduler_cycles_total %llu\n", (unsigned long long)cycles);
	head(b, "slurm_scheduler_cycle_last_seconds", "gauge", "The last cycle's duration.");
	out(b, "slurm_scheduler_cycle_last_seconds %.6f\n", (double)last / 1e6);
	head(b, "slurm_scheduler_cycle_max_seconds", "gauge", "The longest cycle's duration.");
	out(b, "slurm_scheduler_cycle_max_seconds %.6f\n", (double)max / 1e6);
	head(b, "slurm_scheduler_cycle_mean_seconds", "gauge", "The mean cycle duration.");
	out(b, "slurm_scheduler_cycle_mean_seconds %.6f\n",
	    cycles ? (double)sum / 1e6 / (double)cycles : 0.0);
	head(b, "kueue_admission_attempts_total", "counter", "Scheduling cycles, by result "
	     "(success: one or more workloads admitted).");
	out(b, "kueue_admission_attempts_total{result=\"success\"} %llu\n",
	    (unsigned long long)m->attempts[0]);
	out(b, "kueue_admission_attempts_total{result=\"inadmissible\"} %llu\n",
	    (unsigned long long)m->attempts[1]);
	head(b, "kueue_admission_attempt_duration_seconds", "histogram", "The duration of a "
	     "scheduling cycle, by result.");
	for (int r = 0; r < 2; r++) {
		const char *res = r == 0 ? "success" : "inadmissible";
		uint64_t cum = 0;
		for (size_t k = 0; k <= METRICS_NCYCLE; k++) {
			char le[32];
			cum += m->cycle_hist[r][k];
			if (k < METRICS_NCYCLE)
				snprintf(le, sizeof(le), "%g", sl_metrics_cycle_buckets[k]);
			out(b, "kueue_admission_attempt_duration_seconds_bucket{result=\"%s\",le=\"%s\"} "
			    "%llu\n", res, k < METRICS_NCYCLE ? le : "+Inf", (unsigned long long)cum);
		}
		out(b, "kueue_admission_attempt_duration_seconds_sum{result=\"%s\"} %.6f\n", res,
		    m->cycle_sum[r]);
		out(b, "kueue_admission_attempt_duration_seconds_count{result=\"%s\"} %llu\n", res,
		    (unsigned long long)cum);
	}
}

char *sl_metrics_render(struct sl_metrics *m, struct sluiced *d)
{
	struct sl_buf *b = sl_buf_new(TEXT_MAX);
	const struct sl_sched_usage *u;
	size_t nu, ncq;
	explain_pending(d);
	nu = sl_sched_usage(sl_schedctl_engine(d->sched), &u);
	struct cqrow *rows = cq_rows(m, d, u, nu, &ncq);
	kueue_queues(b, rows, ncq);
	kueue_local_queues(b, d);
	kueue_counters(b, m);
	kueue_quota(b, u, nu);
	slurm_jobs(b, d);
	slurm_sched(b, m, d->diag);
	free(rows);
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}
