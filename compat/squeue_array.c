/* squeue_array.c - a job array's pending tasks folded into the one record
 * Slurm shows for them (squeue_fmt.h, sl_squeue_collapse). Sluice keeps a
 * record per task; Slurm keeps a pending "meta" record holding the tasks
 * not yet started, and squeue also folds split-off pending tasks into it
 * (_combine_pending_array_tasks). The result is the same lines. */
#include "squeue_fmt.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "xalloc.h"

static int same_str(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int joins(const struct sl_job *h, const struct sl_job *t, enum sl_collapse how)
{
	return t->state == SL_JOB_PENDING && t->array_job_id == h->array_job_id &&
	       t->array_tasks == NULL &&
	       same_str(t->spec.name, h->spec.name) && same_str(t->spec.partition, h->spec.partition) &&
	       (how == SL_COLLAPSE_SQUEUE || !sl_job_task_split(t)) &&
	       (how != SL_COLLAPSE_UNIQUE || same_str(t->reason, h->reason));
}


/* Fold the group headed by v[h] (pending tasks after it, up to the end of
 * its array's run of ids) into the record of its meta, the first task it
 * still holds; the folded records become NULL. */
static void fold(struct sl_job **v, size_t n, size_t h, enum sl_collapse how)
{
	struct sl_job *head = v[h], *meta = NULL;
	uint32_t *ids = NULL;
	size_t k = 0, cap = 0, nmeta = 0, first = h;
	uint32_t throttle = (uint32_t)head->array_throttle;

	for (size_t i = h; i < n && (v[i] == NULL || v[i]->array_job_id == head->array_job_id); i++) {
		if (v[i] == NULL || !joins(head, v[i], how))
			continue;
		ids = sl_xgrow(ids, &cap, k + 1, sizeof(*ids));
		ids[k++] = (uint32_t)v[i]->array_task_id;
		if (!sl_job_task_split(v[i])) {
			if (nmeta++ == 0)
				first = i;
			meta = v[i];
		} else {
			throttle = 0; /* squeue's bit_fmt of the merged set has no %N */
		}
	}
	/* no meta record with a bitmap to fold into: each task is itself */
	if (meta == NULL || !sl_array_meta_bitmap(meta->spec.array, meta->array_task_id, nmeta)) {
		free(ids);
		return;
	}
	if (first != h) { /* the record shown is the meta's: its first task leads */
		struct sl_job *t = v[first];
		v[first] = head;
		v[h] = head = t;
	}
	if (meta != head) { /* the meta record's reason is its last task's */
		free(head->reason);
		head->reason = meta->reason ? sl_xstrdup(meta->reason) : NULL;
		free(head->reason_text);
		head->reason_text = meta->reason_text ? sl_xstrdup(meta->reason_text) : NULL;
	}
	head->array_tasks = sl_array_fmt(ids, k, throttle);
	for (size_t i = h + 1; i < n && (v[i] == NULL || v[i]->array_job_id == head->array_job_id);
	     i++)
		if (v[i] != NULL && joins(head, v[i], how)) {
			sl_job_free(v[i]);
			v[i] = NULL;
		}
	free(ids);
}

void sl_squeue_collapse(struct sl_job **v, size_t *n, enum sl_collapse how)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		if (v[i] != NULL && v[i]->array_job_id != 0 && v[i]->state == SL_JOB_PENDING &&
		    v[i]->array_tasks == NULL)
			fold(v, *n, i, how);
	for (size_t i = 0; i < *n; i++)
		if (v[i] != NULL)
			v[k++] = v[i];
	*n = k;
}

static int by_task(const void *a, const void *b)
{
	int x = (*(struct sl_job *const *)a)->array_task_id, y = (*(struct sl_job *const *)b)->array_task_id;
	return (x > y) - (x < y);
}

void sl_squeue_array_order(struct sl_job **v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = i + 1;
		if (v[i]->array_job_id != 0 && v[i]->state == SL_JOB_PENDING)
			while (k < n && joins(v[i], v[k], 0))
				k++;
		if (k - i > 1)
			qsort(v + i, k - i, sizeof(*v), by_task);
		i = k;
	}
}

void sl_array_meta_last(struct sl_job **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sl_job *m = v[i];
		size_t k = i;
		if (m->array_tasks == NULL)
			continue;
		while (k + 1 < n && v[k + 1]->array_job_id == m->array_job_id)
			k++;
		memmove(v + i, v + i + 1, (k - i) * sizeof(*v));
		v[k] = m;
		i = k;
	}
}

/* The raw id of task t of j's array (array.h): N + 1 + its place in the
 * set, but N for a Slurm array's last task. */
static uint64_t raw_id(const struct sl_array *set, const struct sl_job *j, uint32_t t)
{
	size_t at;

	if (set == NULL)
		return j->id;
	at = sl_array_index(set, t);
	return !j->spec.pbs && at + 1 == sl_array_count(set) ? j->array_job_id
							     : j->array_job_id + 1 + at;
}

int sl_squeue_fmt_tasks(const struct sl_squeue_fmt *f, struct sl_job *j, int64_t now,
			struct sl_buf *b)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *tasks = NULL, *set = NULL;
	char *text = j->array_tasks;
	uint64_t id = j->id;
	int task = j->array_task_id, r = 0;

	if (text == NULL || sl_array_parse(text, SL_ARRAY_MAX_LIMIT, &tasks, &e) != 0)
		return sl_squeue_fmt_job(f, j, now, b);
	if (j->spec.array != NULL)
		(void)sl_array_parse(j->spec.array, SL_ARRAY_MAX_LIMIT, &set, &e);
	j->array_tasks = NULL; /* each line is one task */
	for (size_t t = 0; r == 0 && t < sl_array_count(tasks); t++) {
		j->array_task_id = (int)sl_array_task(tasks, t);
		j->id = raw_id(set, j, sl_array_task(tasks, t));
		r = sl_squeue_fmt_job(f, j, now, b);
	}
	j->array_tasks = text;
	j->id = id;
	j->array_task_id = task;
	sl_array_free(tasks);
	sl_array_free(set);
	return r;
}

/* The record of N itself first: the pending meta record, or the last
 * task, which has N (array.h) as Slurm's meta record becomes it. */
static int is_meta(const struct sl_job *j)
{
	return j->array_tasks != NULL || j->id == j->array_job_id;
}

static int newest_first(const void *a, const void *b)
{
	const struct sl_job *x = *(struct sl_job *const *)a, *y = *(struct sl_job *const *)b;
	if (is_meta(x) != is_meta(y))
		return is_meta(x) ? -1 : 1;
	return (x->id < y->id) - (x->id > y->id);
}

void sl_array_load_order(struct sl_job **v, size_t n)
{
	if (n > 1 && v[0]->array_job_id != 0)
		qsort(v, n, sizeof(*v), newest_first);
}
