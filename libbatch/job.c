/* job.c - job spec and job record: defaults, clear, copy and shape. Their
 * JSON text is job_text.c (writer) and job_parse.c (reader). */
#include "job.h"
#include "job_fields.h"
#include "xalloc.h"

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

struct sl_job *sl_job_copy(const struct sl_job *s)
{
	struct sl_job *d = sl_xmalloc(sizeof(*d));

	*d = *s;
	JOB_STRINGS(DUP_STR)
	spec_copy(&d->spec, &s->spec);
	return d;
}

static int or_default(int v, int def)
{
	return v == SL_NO_VAL || v <= 0 ? def : v;
}

void sl_job_shape(const struct sl_job *j, struct sl_jobshape *o)
{
	struct sl_jobspec s = j->spec; /* shallow: the shape reads numbers only */

	if (j->alloc_nodes > 0)
		s.nodes = j->alloc_nodes;
	sl_jobspec_shape(&s, o);
}

void sl_jobspec_shape(const struct sl_jobspec *s, struct sl_jobshape *o)
{
	memset(o, 0, sizeof(*o));
	o->nodes = or_default(s->nodes, 1);
	o->cpus_per_task = or_default(s->cpus_per_task, 1);
	if (s->ntasks != SL_NO_VAL && s->ntasks > 0) {
		o->ntasks = s->ntasks;
		/* Slurm never gives a node fewer than one task: -n 2 -N 4 is 4 nodes
		 * of which two idle, so ntasks >= nodes only when tasks were set. */
		o->tasks_per_node = (o->ntasks + o->nodes - 1) / o->nodes;
	} else if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > 0) {
		o->tasks_per_node = s->ntasks_per_node;
		o->ntasks = o->tasks_per_node * o->nodes;
	} else {
		o->tasks_per_node = 1;
		o->ntasks = o->nodes;
	}
	if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > o->tasks_per_node)
		o->tasks_per_node = s->ntasks_per_node;
	o->cpus_per_node = o->tasks_per_node * o->cpus_per_task;
	if (s->mem_per_node != SL_NO_VAL && s->mem_per_node > 0)
		o->mem_per_node = s->mem_per_node;
	else if (s->mem_per_cpu != SL_NO_VAL && s->mem_per_cpu > 0)
		o->mem_per_node = s->mem_per_cpu * o->cpus_per_node;
	if (s->gpus_per_node != SL_NO_VAL && s->gpus_per_node > 0)
		o->gpus_per_node = s->gpus_per_node;
	else if (s->gpus != SL_NO_VAL && s->gpus > 0)
		o->gpus_per_node = (s->gpus + o->nodes - 1) / o->nodes;
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

void sl_job_free_array(struct sl_job **v, size_t n)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		sl_job_free(v[i]);
	free(v);
}
