/* pbs_array.c - an array job "N[]" made from its subjobs' records, and the
 * attributes OpenPBS's server keeps on it (src/server/array_func.c). */
#include "pbs_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "buf.h"
#include "jobstate.h"
#include "xalloc.h"

int sl_pbs_is_array(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->array_job_id == j->id && j->array_task_id < 0;
}

int sl_pbs_select_lists(const struct sl_job *j, int subjobs)
{
	if (sl_pbs_is_array(j))
		return !j->spec.torque_array;
	return j->array_job_id == 0 || subjobs || j->spec.torque_array;
}

static int started(const struct sl_job *j)
{
	return j->state != SL_JOB_PENDING && (j->start_time > 0 || !sl_jobstate_is_final(j->state));
}

/* Q while no subjob started (held as its first one is), B once one has
 * (JOB_STATE_LTR_BEGUN, set when the first subjob runs: req_runjob.c:1169),
 * F when every subjob ended: RUNNING stands for B (sl_pbs_state()). */
struct sl_job *sl_pbs_array_job(struct sl_job *const *sub, size_t n)
{
	struct sl_job *a = sl_job_copy(sub[0]);
	int all_final = 1, begun = 0;

	for (size_t i = 0; i < n; i++) {
		all_final &= sl_jobstate_is_final(sub[i]->state);
		begun |= started(sub[i]);
		if (sub[i]->start_time > 0 && (a->start_time <= 0 || sub[i]->start_time < a->start_time))
			a->start_time = sub[i]->start_time;
		if (sub[i]->end_time > a->end_time)
			a->end_time = sub[i]->end_time;
	}
	a->id = a->array_job_id;
	a->array_task_id = -1;
	free(a->array_tasks);
	a->array_tasks = sl_pbs_array_counts(sub, n, a->id);
	free(a->nodelist);
	a->nodelist = NULL; /* the array runs nowhere itself: no exec_host */
	a->alloc_cpus = 0;
	if (all_final) {
		/* Exit_status: the last subjob's, as array_func.c:293 keeps it:
		 * 1 when it failed, 2 when it never ran, else 0 */
		const struct sl_job *last = sub[0];
		for (size_t i = 1; i < n; i++)
			if (sub[i]->end_time >= last->end_time)
				last = sub[i];
		a->state = SL_JOB_COMPLETED;
		a->exit_signal = 0;
		a->exit_code = last->start_time <= 0 ? 2
			       : last->exit_code != 0 || last->exit_signal != 0 ? 1 : 0;
	} else if (begun) {
		a->state = SL_JOB_RUNNING;
		a->end_time = 0;
	} else {
		a->start_time = a->end_time = 0;
	}
	return a;
}

static void push(struct sl_job ***v, size_t *n, size_t *cap, struct sl_job *j)
{
	*v = sl_xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = j;
}

static int by_id(const void *a, const void *b)
{
	uint64_t x = (*(struct sl_job *const *)a)->id, y = (*(struct sl_job *const *)b)->id;
	return (x > y) - (x < y);
}

/* In id order an array's subjobs are one run (ids N+1..N+K, array.h), and
 * in index order. The daemon's answer is in its table's order, which a
 * subjob that ended may leave: the listing sorts its own copy. */
void sl_pbs_listing_make(struct sl_job *const *in, size_t n, int subjobs, int arrays_only,
			 struct sl_pbs_listing *out)
{
	size_t cap = 0, made_cap = 0, i = 0;
	struct sl_job **jobs = sl_xcalloc(n + 1, sizeof(*jobs));

	memcpy(jobs, in, n * sizeof(*jobs));
	qsort(jobs, n, sizeof(*jobs), by_id);
	memset(out, 0, sizeof(*out));
	while (i < n) {
		uint64_t arr = jobs[i]->array_job_id;
		size_t e = i + 1;

		if (arr == 0) {
			if (!arrays_only)
				push(&out->v, &out->n, &cap, jobs[i]);
			i++;
			continue;
		}
		while (e < n && jobs[e]->array_job_id == arr)
			e++;
		struct sl_job *a = sl_pbs_array_job(jobs + i, e - i);
		push(&out->made, &out->n_made, &made_cap, a);
		push(&out->v, &out->n, &cap, a);
		for (; subjobs && i < e; i++)
			push(&out->v, &out->n, &cap, jobs[i]);
		i = e;
	}
	free(jobs);
}

void sl_pbs_listing_clear(struct sl_pbs_listing *l)
{
	for (size_t i = 0; i < l->n_made; i++)
		sl_job_free(l->made[i]);
	free(l->made);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void sl_pbs_listing_ending(struct sl_pbs_listing *l, int64_t now)
{
	for (size_t i = 0; i < l->n; i++)
		if (!sl_pbs_is_array(l->v[i]))
			l->v[i]->state = sl_job_shown_state(l->v[i], now);
}

size_t sl_pbs_listing_find(const struct sl_pbs_listing *l, const struct sl_pbs_sel *sel,
			   int subjobs, struct sl_job **v, const struct sl_job **top)
{
	size_t m = 0;

	*top = NULL;
	for (size_t i = 0; i < l->n; i++) {
		struct sl_job *j = l->v[i];
		int arr = sl_pbs_is_array(j), mine = j->array_job_id == sel->id;
		uint32_t t = (uint32_t)j->array_task_id;

		if (sel->type == SL_PBS_SEL_JOB && j->array_job_id == 0 && j->id == sel->id)
			*top = v[m++] = j;
		else if (sel->type != SL_PBS_SEL_JOB && arr && j->id == sel->id)
			*top = j; /* the array job: its subjobs follow */
		if (sel->type == SL_PBS_SEL_ARRAY && mine && (arr || subjobs))
			v[m++] = j;
		else if (sel->type == SL_PBS_SEL_SUBJOBS && mine && !arr && t >= sel->lo &&
			 t <= sel->hi)
			v[m++] = j;
	}
	return m;
}

int sl_pbs_arrays_filter(struct sl_job *const *jobs, size_t n, struct sl_jobfilter *f)
{
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	f->history = 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = jobs[i]->array_job_id;
		if (a == 0 || (f->n_ids > 0 && f->ids[f->n_ids - 1] == a))
			continue; /* in id order: an array's subjobs are together */
		f->ids = sl_xgrow(f->ids, &cap, f->n_ids + 1, sizeof(*f->ids));
		f->ids[f->n_ids++] = a;
	}
	return f->n_ids > 0;
}

/* One pass over both lists in id order; a job both hold is the second
 * answer's. The daemon answers in its table's order, which a subjob that
 * ended may leave: both are put in id order first. */
void sl_pbs_arrays_merge(struct sl_job ***jobs, size_t *n, struct sl_job **more, size_t n_more)
{
	struct sl_job **v = sl_xcalloc(*n + n_more + 1, sizeof(*v));
	size_t m = 0, i = 0, k = 0;

	qsort(*jobs, *n, sizeof(**jobs), by_id);
	qsort(more, n_more, sizeof(*more), by_id);

	while (i < *n || k < n_more) {
		if (k == n_more || (i < *n && (*jobs)[i]->id < more[k]->id)) {
			v[m++] = (*jobs)[i++];
		} else {
			if (i < *n && (*jobs)[i]->id == more[k]->id)
				sl_job_free((*jobs)[i++]);
			v[m++] = more[k++];
		}
	}
	free(*jobs);
	free(more);
	*jobs = v;
	*n = m;
}

static int by_index(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

char *sl_pbs_array_remaining(struct sl_job *const *jobs, size_t n, uint64_t array)
{
	uint32_t *q = sl_xcalloc(n + 1, sizeof(*q));
	size_t m = 0, i = 0;
	int step = 1;
	struct sl_buf *b = sl_buf_new(1u << 20);
	char *out;

	for (size_t k = 0; k < n; k++)
		if (jobs[k]->array_job_id == array && jobs[k]->array_task_id >= 0) {
			step = sl_array_step(jobs[k]->spec.array);
			if (jobs[k]->state == SL_JOB_PENDING)
				q[m++] = (uint32_t)jobs[k]->array_task_id;
		}
	qsort(q, m, sizeof(*q), by_index);
	if (step < 1)
		step = 1;
	while (i < m) { /* a run: each index the last one plus the step */
		size_t e = i;
		while (e + 1 < m && q[e + 1] == q[e] + (uint32_t)step)
			e++;
		sl_buf_addf(b, "%s%u", i ? "," : "", q[i]);
		if (e > i)
			sl_buf_addf(b, "-%u", q[e]);
		if (e > i && step > 1)
			sl_buf_addf(b, ":%d", step);
		i = e + 1;
	}
	out = sl_xstrdup(m ? sl_buf_str(b) : "-");
	sl_buf_free(b);
	free(q);
	return out;
}

char *sl_pbs_array_counts(struct sl_job *const *jobs, size_t n, uint64_t array)
{
	int q = 0, r = 0, e = 0, x = 0;

	for (size_t k = 0; k < n; k++) {
		const struct sl_job *j = jobs[k];
		if (j->array_job_id != array || j->array_task_id < 0)
			continue;
		if (j->state == SL_JOB_PENDING)
			q++;
		else if (j->state == SL_JOB_COMPLETING)
			e++;
		else if (sl_jobstate_is_final(j->state))
			x++;
		else
			r++;
	}
	return sl_xasprintf("Queued:%d Running:%d Exiting:%d Expired:%d", q, r, e, x);
}
