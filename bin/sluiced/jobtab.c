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

void sl_jobtab_add(struct sl_jobtab *t, struct sl_job *j)
{
	size_t i;
	t->v = sl_xgrow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	/* Usually an append; keep order if an older id arrives (load). */
	for (i = t->n; i > 0 && t->v[i - 1]->id > j->id; i--)
		t->v[i] = t->v[i - 1];
	t->v[i] = j;
	t->n++;
}

size_t sl_jobtab_lower(const struct sl_jobtab *t, uint64_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct sl_job *sl_jobtab_get(const struct sl_jobtab *t, uint64_t id)
{
	size_t lo = sl_jobtab_lower(t, id);
	return lo < t->n && t->v[lo]->id == id ? t->v[lo] : NULL;
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
