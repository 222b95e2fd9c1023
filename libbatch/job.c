/* job.c - job spec and job record: defaults, clear, copy and shape. Their
 * JSON text is job_text.c (writer) and job_parse.c (reader). */
#include "job.h"
#include "job_fields.h"
#include "xalloc.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_jobspec_init(struct sl_jobspec *s)
{
	memset(s, 0, sizeof(*s));
	s->nodes = s->nodes_max = s->ntasks = SL_NO_VAL;
	s->ntasks_per_node = s->cpus_per_task = SL_NO_VAL;
	s->mem_per_node = s->mem_per_cpu = SL_NO_VAL;
	s->gpus = s->gpus_per_node = SL_NO_VAL;
	s->time_limit = SL_TIME_UNSET;
	s->priority = SL_NO_VAL;
	s->umask = 022;
	s->requeue = 1;
	s->kill_invalid_dep = SL_NO_VAL;
	s->omp_threads = SL_NO_VAL;
}

int64_t sl_jobspec_limit_secs(const struct sl_jobspec *s)
{
	if (s->time_limit_secs > 0)
		return s->time_limit_secs;
	return s->time_limit > 0 && s->time_limit <= SL_TIME_MAX ? s->time_limit * 60 : 0;
}

void sl_jobspec_limit_set_secs(struct sl_jobspec *s, int64_t secs)
{
	s->time_limit = (secs + 59) / 60;
	s->time_limit_secs = secs % 60 != 0 ? secs : 0;
}

void sl_jobspec_clear(struct sl_jobspec *s)
{
#define FREE_STR(f) free(s->f);
#define FREE_STRV(f) sl_strv_free(s->f);
	SPEC_STRINGS(FREE_STR)
	SPEC_LAUNCH_STRVS(FREE_STRV)
	SPEC_STRVS(FREE_STRV)
	sl_jobspec_init(s);
}

/* The struct copy takes the numbers; every pointer member is duplicated
 * (d and s name the copy and the original in both functions). */
#define DUP_STR(f) d->f = sl_xstrdup(s->f);
#define DUP_STRV(f) d->f = s->f ? sl_strv_dup(s->f) : NULL;

static void spec_copy(struct sl_jobspec *d, const struct sl_jobspec *s)
{
	*d = *s;
	SPEC_STRINGS(DUP_STR)
	SPEC_LAUNCH_STRVS(DUP_STRV)
	SPEC_STRVS(DUP_STRV)
}

void sl_job_reason_seen(struct sl_job *j)
{
	const char *r = j->reason;

	if (j->state != SL_JOB_PENDING || r == NULL || strcmp(r, "None") == 0 ||
	    strcmp(r, "Priority") == 0 || strcmp(r, "Resources") == 0 ||
	    (j->start_reason != NULL && strcmp(j->start_reason, r) == 0))
		return;
	free(j->start_reason);
	j->start_reason = sl_xstrdup(r);
}

struct sl_job *sl_job_copy(const struct sl_job *s)
{
	struct sl_job *d = sl_xmalloc(sizeof(*d));

	*d = *s;
	JOB_STRINGS(DUP_STR)
	d->array_tasks = s->array_tasks ? sl_xstrdup(s->array_tasks) : NULL;
	spec_copy(&d->spec, &s->spec);
	return d;
}

static int or_default(int v, int def)
{
	return v == SL_NO_VAL || v <= 0 ? def : v;
}

void sl_job_shape(const struct sl_job *j, struct sl_jobshape *o)
{
	struct sl_jobspec s;

	/* squeue asks once per line (%D) and twice per compare (-S D): the
	 * copy of a whole spec, when nothing is admitted, was a tenth of it */
	if (j->alloc_nodes <= 0) {
		sl_jobspec_shape(&j->spec, o);
		return;
	}
	s = j->spec; /* shallow: the shape reads numbers only */
	s.nodes = j->alloc_nodes;
	sl_jobspec_shape(&s, o);
}

/* a * b for counts (a, b >= 0), INT_MAX when it does not fit an int. Only
 * a spec the submit policy refuses (sl_jobspec_shape_check) reaches the
 * cap, and then shows the cap rather than a wrapped, negative count. */
static int mul_cap(int a, int b)
{
	int64_t v = (int64_t)a * b;

	return v <= INT_MAX ? (int)v : INT_MAX;
}

/* The same for memory: INT64_MAX when it does not fit. */
static int64_t mul_cap64(int64_t a, int b)
{
	int64_t v;

	return __builtin_mul_overflow(a, (int64_t)b, &v) ? INT64_MAX : v;
}

/* ceil(a / b) for a >= 0, b > 0, without the a + b - 1 that wraps. */
static int div_up(int a, int b)
{
	return a / b + (a % b != 0);
}

int sl_job_ran(const struct sl_job *j)
{
	/* cancelled while pending, or past its deadline before it started:
	 * start = end was stamped, no node ever held it */
	if ((j->state == SL_JOB_CANCELLED || j->state == SL_JOB_DEADLINE) &&
	    (j->nodelist == NULL || *j->nodelist == '\0'))
		return 0;
	return j->start_time != 0;
}

int sl_jobspec_min_cpus_node(const struct sl_jobspec *s, const struct sl_jobshape *sh)
{
	int v = s->ntasks_per_node > 0 ? s->ntasks_per_node * sh->cpus_per_task : sh->cpus_per_task;
	int per_gpu = s->cpus_per_gpu * (s->gpus_per_task > 0 ? s->gpus_per_task : 1);

	if (s->mincpus > v)
		v = s->mincpus;
	if (s->cpus_per_gpu > 0 && per_gpu > v)
		v = per_gpu;
	return v;
}

int sl_jobspec_nodes_shown(const struct sl_jobspec *s, int max_cpus)
{
	struct sl_jobshape sh;
	int min = s->nodes != SL_NO_VAL && s->nodes > 0 ? s->nodes : 1, n, per_node;

	if (max_cpus <= 0 || s->ntasks == SL_NO_VAL || s->ntasks <= 0) {
		sl_jobspec_shape(s, &sh);
		return sh.nodes;
	}
	if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > 0) {
		n = s->ntasks / s->ntasks_per_node;
	} else if (s->cpus_per_task != SL_NO_VAL && s->cpus_per_task > 1) {
		per_node = max_cpus / s->cpus_per_task;
		n = div_up(s->ntasks, per_node > 0 ? per_node : 1);
	} else {
		n = div_up(s->ntasks, max_cpus);
	}
	return n > min ? n : min;
}

int sl_job_nodes_shown(const struct sl_job *j, const struct sl_jobshape *sh)
{
	return j->state == SL_JOB_PENDING && j->nodes_shown > 0 ? j->nodes_shown : sh->nodes;
}

int sl_jobspec_asked_cpus(const struct sl_jobspec *s)
{
	struct sl_jobspec asked = *s; /* shallow: the shape reads numbers alone */
	struct sl_jobshape sh;

	asked.node_cpus = 0;
	sl_jobspec_shape(&asked, &sh);
	return sh.cpus_per_node * sh.nodes;
}

void sl_jobspec_shape(const struct sl_jobspec *s, struct sl_jobshape *o)
{
	memset(o, 0, sizeof(*o));
	o->nodes = or_default(s->nodes, 1);
	/* -n N --ntasks-per-node=M without -N: as many nodes as the tasks
	 * need at M each, as sbatch works -N out of them */
	if ((s->nodes == SL_NO_VAL || s->nodes <= 0) && s->ntasks != SL_NO_VAL && s->ntasks > 0 &&
	    s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > 0)
		o->nodes = div_up(s->ntasks, s->ntasks_per_node);
	o->cpus_per_task = or_default(s->cpus_per_task, 1);
	if (s->ntasks != SL_NO_VAL && s->ntasks > 0) {
		o->ntasks = s->ntasks;
		/* sbatch brings -N down to -n (sl_sbopt_finish warns); a spec
		 * with more nodes than tasks has nodes that hold none */
		o->tasks_per_node = div_up(o->ntasks, o->nodes);
	} else if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > 0) {
		o->tasks_per_node = s->ntasks_per_node;
		o->ntasks = mul_cap(o->tasks_per_node, o->nodes);
	} else {
		o->tasks_per_node = 1;
		o->ntasks = o->nodes;
	}
	if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > o->tasks_per_node)
		o->tasks_per_node = s->ntasks_per_node;
	/* GPUs first: --cpus-per-gpu and --mem-per-gpu are counted from them. */
	if (s->gpus_per_task > 0)
		o->gpus_per_node = mul_cap(o->tasks_per_node, s->gpus_per_task);
	else if (s->gpus_per_node != SL_NO_VAL && s->gpus_per_node > 0)
		o->gpus_per_node = s->gpus_per_node;
	else if (s->gpus != SL_NO_VAL && s->gpus > 0)
		o->gpus_per_node = div_up(s->gpus, o->nodes);
	else if (s->ntasks_per_gpu > 0) /* slurmctld's: one for every N tasks, or a node */
		o->gpus_per_node = div_up(s->ntasks != SL_NO_VAL && s->ntasks > 0
					  ? s->ntasks / s->ntasks_per_gpu : o->nodes, o->nodes);
	/* A node's CPUs: its tasks', or more when --mincpus, --cpus-per-gpu or
	 * --exclusive (node_cpus, the whole node) ask for more. */
	o->cpus_per_node = s->overcommit ? o->cpus_per_task /* -O: as if one task a node */
					 : mul_cap(o->tasks_per_node, o->cpus_per_task);
	if (s->cpus_per_gpu > 0 && mul_cap(o->gpus_per_node, s->cpus_per_gpu) > o->cpus_per_node)
		o->cpus_per_node = mul_cap(o->gpus_per_node, s->cpus_per_gpu);
	if (s->mincpus > o->cpus_per_node)
		o->cpus_per_node = s->mincpus;
	if (s->node_cpus > o->cpus_per_node)
		o->cpus_per_node = s->node_cpus;
	if (s->mem_per_node != SL_NO_VAL && s->mem_per_node > 0)
		o->mem_per_node = s->mem_per_node;
	else if (s->mem_per_cpu != SL_NO_VAL && s->mem_per_cpu > 0)
		o->mem_per_node = mul_cap64(s->mem_per_cpu, o->cpus_per_node);
	else if (s->mem_per_gpu > 0)
		o->mem_per_node = mul_cap64(s->mem_per_gpu, o->gpus_per_node);
}

/* The limits are the types the counts travel in: an int for tasks, CPUs
 * and GPUs (the record's alloc_cpus, Kueue's pod counts), and for memory
 * Kueue's int64 of milli-bytes (SL_MEM_MAX_MIB). -N MIN-MAX counts MAX
 * nodes. Each text ends with Slurm's words for the refusal. */
int sl_jobspec_shape_check(const struct sl_jobspec *s, struct sl_jobshape *o,
			   struct sl_err *err)
{
	int64_t mem;
	int n;

	sl_jobspec_shape(s, o);
	n = s->nodes_max > o->nodes ? s->nodes_max : o->nodes;
	if (s->ntasks <= 0 && s->ntasks_per_node > 0 &&
	    (int64_t)s->ntasks_per_node * o->nodes > INT_MAX)
		return sl_err_set(err, SL_EINVAL, "--ntasks-per-node=%d on %d nodes is more than "
				  "%d tasks\nTask count specification invalid",
				  s->ntasks_per_node, o->nodes, INT_MAX);
	if ((int64_t)o->tasks_per_node * o->cpus_per_task > INT_MAX ||
	    (int64_t)o->cpus_per_node * n > INT_MAX)
		return sl_err_set(err, SL_EINVAL, "%d tasks per node of %d CPUs each on %d "
				  "node(s) is more than %d CPUs\nMore processors requested "
				  "than permitted", o->tasks_per_node, o->cpus_per_task, n,
				  INT_MAX);
	if ((int64_t)o->gpus_per_node * n > INT_MAX)
		return sl_err_set(err, SL_EINVAL, "%d GPUs per node on %d nodes is more than %d "
				  "GPUs\nInvalid generic resource (gres) specification",
				  o->gpus_per_node, n, INT_MAX);
	if (!__builtin_mul_overflow(o->mem_per_node, (int64_t)n, &mem) && mem <= SL_MEM_MAX_MIB)
		return 0;
	if (s->mem_per_node > 0)
		return sl_err_set(err, SL_EINVAL, "--mem=%lldM on %d node(s) is more than the "
				  "%lldM of memory Sluice can count\nMemory required by task is "
				  "not available", (long long)s->mem_per_node, n,
				  (long long)SL_MEM_MAX_MIB);
	return sl_err_set(err, SL_EINVAL, "--mem-per-cpu=%lldM for %d CPUs per node on %d "
			  "node(s) is more than the %lldM of memory Sluice can count\nMemory "
			  "required by task is not available", (long long)s->mem_per_cpu,
			  o->cpus_per_node, n, (long long)SL_MEM_MAX_MIB);
}

void sl_job_defaults(struct sl_job *j)
{
	memset(j, 0, sizeof(*j));
	sl_jobspec_init(&j->spec);
	j->cancelled_by = -1;
}

struct sl_job *sl_job_new(void)
{
	struct sl_job *j = sl_xmalloc(sizeof(*j));
	sl_job_defaults(j);
	return j;
}

void sl_job_free(struct sl_job *j)
{
	if (j == NULL)
		return;
	sl_jobspec_clear(&j->spec);
#undef FREE_STR
#define FREE_STR(f) free(j->f);
	JOB_STRINGS(FREE_STR)
	free(j->array_tasks);
	free(j);
}

/* Only a launch reads these; the store keeps them for good. */
void sl_job_shed(struct sl_job *j)
{
#define SHED(f) sl_strv_free(j->spec.f), j->spec.f = NULL;
	SPEC_LAUNCH_STRVS(SHED)
	free(j->spec.script);
	j->spec.script = sl_xstrdup("");
}

void sl_job_refill(struct sl_job *j, struct sl_jobspec *from)
{
#define MOVE(f) sl_strv_free(j->spec.f), j->spec.f = from->f, from->f = NULL;
	SPEC_LAUNCH_STRVS(MOVE)
	free(j->spec.script);
	j->spec.script = from->script;
	from->script = NULL;
}

uint64_t sl_job_slurm_id(const struct sl_job *j)
{
	/* pending, or cancelled before it ran: still in the meta record */
	int in_meta = !sl_job_task_split(j) &&
		      (j->state == SL_JOB_PENDING || (j->state == SL_JOB_CANCELLED && !sl_job_ran(j)));
	if (j->array_job_id != 0 && (j->array_tasks != NULL || in_meta))
		return j->array_job_id;
	return j->id;
}

int64_t sl_jobspec_switch_wait(const struct sl_jobspec *s)
{
	if (s->switches <= 0)
		return 0;
	return s->wait4switch > 0 && s->wait4switch < 300 ? s->wait4switch : 300;
}

void sl_job_id_text(const struct sl_job *j, char *buf, size_t len)
{
	if (j->array_job_id != 0 && j->array_tasks != NULL)
		snprintf(buf, len, "%llu_[%s]", (unsigned long long)j->array_job_id,
			 j->array_tasks);
	else if (j->array_job_id != 0)
		snprintf(buf, len, "%llu_%d", (unsigned long long)j->array_job_id,
			 j->array_task_id);
	else
		snprintf(buf, len, "%llu", (unsigned long long)j->id);
}

int sl_job_task_split(const struct sl_job *t)
{
	return t->attempt > 0 || t->array_split;
}

int sl_job_run_parse(const char *s, struct sl_job_run *out)
{
	long long sub, st, en, el, prio;
	int ec, sig, cpus, n = 0, m = 0;
	const char *tail;

	/* %s would run on into the next record: "n1;1795257000" */
	if (sscanf(s, "%lld %lld %lld %d %d %d %n", &sub, &st, &en, &ec, &sig, &cpus, &n) != 6 ||
	    n == 0 || (out->nodes_len = strcspn(s + n, "; \t\n")) == 0)
		return -1;
	out->submit = sub;
	out->start = st;
	out->end = en;
	out->exit_code = ec;
	out->exit_signal = sig;
	out->cpus = cpus;
	out->nodes = s + n;
	/* the tail, which records written before it was kept lack */
	tail = s + n + out->nodes_len;
	out->eligible = sub;
	out->priority = -1;
	out->reason = NULL;
	out->reason_len = 0;
	if (*tail == ' ' && sscanf(tail, " %lld %lld %n", &el, &prio, &m) == 2 && m > 0 &&
	    (out->reason_len = strcspn(tail + m, ";")) > 0) {
		out->eligible = el;
		out->priority = prio;
		out->reason = tail + m;
	}
	return 0;
}

char *sl_job_run_text(const struct sl_job *j, int64_t end, int exit_code, int exit_signal)
{
	/* the reason runs to the record's end: a ';' in it would end the record */
	char *why = sl_xstrdup(j->start_reason && *j->start_reason ? j->start_reason : "None");
	char *t;

	for (char *p = why; *p; p++)
		if (*p == ';')
			*p = ',';
	t = sl_xasprintf("%lld %lld %lld %d %d %d %s %lld %lld %s", (long long)j->submit_time,
			 (long long)j->start_time, (long long)end, exit_code, exit_signal,
			 j->alloc_cpus, j->nodelist && *j->nodelist ? j->nodelist : "None",
			 (long long)j->eligible_time, (long long)j->priority, why);
	free(why);
	return t;
}

void sl_job_free_array(struct sl_job **v, size_t n)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		sl_job_free(v[i]);
	free(v);
}

static int64_t run_secs(const struct sl_job *j, int64_t now);

/* Has a RUNNING job that has run secs reached its limit? */
static int past(const struct sl_job *j, int64_t secs)
{
	int64_t limit = sl_jobspec_limit_secs(&j->spec);
	return j->state == SL_JOB_RUNNING && limit > 0 && secs >= limit;
}

int sl_job_past_limit(const struct sl_job *j, int64_t now)
{
	return past(j, run_secs(j, now));
}

int64_t sl_job_end_time(const struct sl_job *j, int64_t now)
{
	int64_t secs;

	if (j->end_time != 0 || !past(j, secs = run_secs(j, now)))
		return j->end_time;
	return now - (secs - sl_jobspec_limit_secs(&j->spec));
}

enum sl_jobstate sl_job_shown_state(const struct sl_job *j, int64_t now)
{
	return sl_job_past_limit(j, now) ? SL_JOB_COMPLETING : j->state;
}

int64_t sl_job_suspended_secs(const struct sl_job *j, int64_t now)
{
	int64_t to = j->state == SL_JOB_RUNNING || j->end_time == 0 ? now : j->end_time;
	int64_t wall = to > j->start_time ? to - j->start_time : 0, ran;

	if (j->start_time == 0 || j->state == SL_JOB_PENDING || j->suspend_time == 0)
		return 0;
	ran = run_secs(j, now);
	return wall > ran ? wall - ran : 0;
}

int64_t sl_job_run_secs(const struct sl_job *j, int64_t now)
{
	/* Past its limit a job's processes are being ended: slurmctld's
	 * clock for it stopped at the limit (its end_time). */
	int64_t secs = run_secs(j, now);
	return past(j, secs) ? sl_jobspec_limit_secs(&j->spec) : secs;
}

static int64_t run_secs(const struct sl_job *j, int64_t now)
{
	/* A requeued job that runs again still has its last run's end. */
	int64_t to = j->state == SL_JOB_RUNNING || j->end_time == 0 ? now : j->end_time;

	if (j->start_time == 0 || j->state == SL_JOB_PENDING)
		return 0;
	if (j->suspend_time == 0)
		return to > j->start_time ? to - j->start_time : 0;
	if (j->state == SL_JOB_SUSPENDED)
		return j->pre_suspend;
	return j->pre_suspend + (to > j->suspend_time ? to - j->suspend_time : 0);
}
