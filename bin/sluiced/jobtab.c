/* jobtab.c - jobs by id. */
#include "jobtab.h"
#include "xalloc.h"

#include <stdlib.h>

struct sl_jobtab {
	struct sl_job **v;
	size_t n, cap;
};

struct sl_jobtab *sl_jobtab_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_jobtab));
}

void sl_jobtab_free(struct sl_jobtab *t)
{
	if (t == NULL)
		return;
	sl_job_free_array(t->v, t->n);
	free(t);
}

/* The run a job belongs to: its array's id for a task, else its own id.
 * Ids are taken in one turn for a whole array (h_submit.c), so runs never
 * interleave and the table is in run order. */
static uint64_t run_of(const struct sl_job *j)
{
	return j->array_job_id != 0 ? j->array_job_id : j->id;
}

/* The task holding its array's own id: Slurm's meta record becomes the
 * task started last, so that task closes its run. */
static int closes_run(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->id == j->array_job_id;
}

/* a before b: by run, within a run by id with the task that holds the
 * run's id last. */
static int before(const struct sl_job *a, const struct sl_job *b)
{
	if (run_of(a) != run_of(b))
		return run_of(a) < run_of(b);
	if (closes_run(a) != closes_run(b))
		return closes_run(b);
	return a->id < b->id;
}

static int cmp_jobs(const void *pa, const void *pb)
{
	const struct sl_job *a = *(struct sl_job *const *)pa, *b = *(struct sl_job *const *)pb;
	return before(a, b) ? -1 : before(b, a);
}

void sl_jobtab_sort(struct sl_job **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_jobs);
}

void sl_jobtab_add(struct sl_jobtab *t, struct sl_job *j)
{
	size_t i;
	t->v = sl_xgrow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	/* Usually an append; keep order if an older id arrives (load). */
	for (i = t->n; i > 0 && before(j, t->v[i - 1]); i--)
		t->v[i] = t->v[i - 1];
	t->v[i] = j;
	t->n++;
}

size_t sl_jobtab_lower(const struct sl_jobtab *t, uint64_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (run_of(t->v[mid]) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is job id after t->v[mid] (1), before it (-1), or it (0)? An id alone
 * does not say its run: the id of a run is its closing task's, and an id
 * past the run's id is in that run while the run's other ids reach it. */
static int side(const struct sl_jobtab *t, size_t mid, uint64_t id)
{
	const struct sl_job *m = t->v[mid];
	uint64_t run = run_of(m);

	if (m->id == id)
		return 0;
	if (id < run)
		return -1;
	if (id == run) /* the task closing m's run, after m */
		return 1;
	if (!closes_run(m))
		return id < m->id ? -1 : 1;
	/* m closes its run: id is in it, before m, up to the run's last id */
	return mid > 0 && t->v[mid - 1]->array_job_id == run && id <= t->v[mid - 1]->id ? -1 : 1;
}

struct sl_job *sl_jobtab_get(const struct sl_jobtab *t, uint64_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int s = side(t, mid, id);
		if (s == 0)
			return t->v[mid];
		if (s > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t sl_jobtab_count(const struct sl_jobtab *t)
{
	return t->n;
}

struct sl_job *sl_jobtab_at(const struct sl_jobtab *t, size_t i)
{
	return i < t->n ? t->v[i] : NULL;
}

void sl_jobtab_expire(struct sl_jobtab *t, int64_t before)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct sl_job *j = t->v[i];
		if (sl_jobstate_is_final(j->state) && j->end_time < before)
			sl_job_free(j);
		else
			t->v[k++] = j;
	}
	t->n = k;
}
