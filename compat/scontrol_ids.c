/* scontrol_ids.c - the job lists scontrol's hold, release, requeue and
 * update take, read as 22.05's update_job.c reads them (_is_job_id,
 * _next_job_id), the answer per group of an array's tasks that scontrol
 * prints for each (slurmctld's job_array_resp_msg), and how many records
 * slurmctld would load for a job id (what TimeLimit=+T and NumNodes= ask
 * of it). */
#include "scontrol_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hostlist.h"
#include "xalloc.h"

/* Slurm's _is_job_id: digits, one '_' and one '+' per id, '-' only in
 * brackets or after the '_', balanced brackets; a ',' or ' ' outside
 * brackets ends an id (marked '\n' in s here). */
static int valid(char *s)
{
	int plus = 0, under = 0, depth = 0;

	for (char *p = s; *p; p++) {
		if (*p == '+') {
			if (plus++)
				return 0;
		} else if (*p == '_') {
			if (under++)
				return 0;
		} else if (*p == '[') {
			depth++;
		} else if (*p == ']') {
			depth--;
		} else if (*p == '-') {
			if (depth == 0 && !under)
				return 0;
		} else if (*p == ',' || *p == ' ') {
			if (depth == 0) {
				*p = '\n';
				plus = under = 0;
			}
		} else if (*p < '0' || *p > '9') {
			return 0;
		}
	}
	return depth == 0;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* One id of the list as _next_job_id hands it on: "[A-B]" before the '_'
 * names each job A..B, and the brackets of a task list go ("7_[1-3]" is
 * "7_1-3"). */
static int one(const char *tok, char ***out, size_t *n)
{
	const char *under = strchr(tok, '_'), *br = strchr(tok, '[');
	char *tasks = NULL, *jobs, **names = NULL;
	size_t nn = 0;
	struct sl_err err = SL_ERR_INIT;

	if (under != NULL) {
		tasks = sl_xstrdup(under + 1 + (under[1] == '['));
		tasks[strcspn(tasks, "]")] = '\0';
	}
	jobs = sl_xstrndup(tok, under ? (size_t)(under - tok) : strlen(tok));
	if (br != NULL && (under == NULL || br < under)) {
		if (sl_hostlist_expand(jobs, &names, &nn, &err) != 0 || nn == 0) {
			sl_strv_free(names); /* "8[]": expanded to nothing */
			free(tasks);
			free(jobs);
			return -1;
		}
	} else {
		push(&names, &nn, sl_xstrdup(jobs));
	}
	for (size_t i = 0; i < nn; i++) {
		push(out, n, tasks ? sl_xasprintf("%s_%s", names[i], tasks) : sl_xstrdup(names[i]));
	}
	sl_strv_free(names);
	free(tasks);
	free(jobs);
	return 0;
}

int sl_scontrol_job_list(const char *s, char ***out, size_t *n)
{
	char *copy = sl_xstrdup(s ? s : ""), *save = NULL;
	int r = 0;

	*out = NULL;
	*n = 0;
	if (!valid(copy)) {
		free(copy);
		return -1;
	}
	for (char *t = strtok_r(copy, "\n", &save); t && r == 0; t = strtok_r(NULL, "\n", &save))
		r = one(t, out, n);
	free(copy);
	if (r != 0) {
		sl_strv_free(*out);
		*out = NULL;
		*n = 0;
	}
	return r;
}

struct answer {
	uint32_t task;
	int rc;
	char text[256];
};

static int by_task(const void *a, const void *b)
{
	const struct answer *x = a, *y = b;
	return (x->task > y->task) - (x->task < y->task);
}

int sl_scontrol_task_report(struct sl_buf *b, uint64_t id, const uint32_t *want, size_t nwant,
			    const struct sl_jobresult *res, size_t n)
{
	size_t na = want ? nwant : n;
	struct answer *a = sl_xcalloc(na + 1, sizeof(*a));
	uint32_t *t = sl_xcalloc(na + 1, sizeof(*t));
	char *done = sl_xcalloc(na + 1, 1);
	int failed = 0;

	for (size_t i = 0; i < na; i++) {
		const struct sl_jobresult *r = NULL;
		uint32_t task = want ? want[i] : (uint32_t)res[i].array_task_id;
		for (size_t k = 0; want && k < n && r == NULL; k++)
			if ((uint32_t)res[k].array_task_id == task)
				r = &res[k];
		if (!want)
			r = &res[i];
		a[i].task = task;
		a[i].rc = r ? r->rc : -SL_ENOENT;
		if (r != NULL && r->rc != 0)
			sl_scontrol_reason(r->msg, a[i].text, sizeof(a[i].text));
		else
			snprintf(a[i].text, sizeof(a[i].text), "%s",
				 r == NULL ? "Invalid job id specified" : "No error");
		failed |= a[i].rc != 0;
	}
	qsort(a, na, sizeof(*a), by_task);
	/* one group per answer, in the order of each group's lowest task (a
	 * lone group of successes is not printed) */
	for (size_t i = 0; i < na && failed; i++) {
		size_t k = 0;
		if (done[i])
			continue;
		for (size_t j = i; j < na; j++)
			if (!done[j] && strcmp(a[j].text, a[i].text) == 0) {
				t[k++] = a[j].task;
				done[j] = 1;
			}
		char *text = sl_array_fmt_ranges(t, k);
		sl_buf_addf(b, "%llu_%s: %s\n", (unsigned long long)id, text, a[i].text);
		free(text);
	}
	free(done);
	free(t);
	free(a);
	return failed;
}

int sl_scontrol_array_report(struct sl_buf *b, uint64_t id, const struct sl_jobresult *res,
			     size_t n)
{
	if (n == 0 || res[0].array_job_id != id)
		return 0;
	return sl_scontrol_task_report(b, id, NULL, 0, res, n);
}

size_t sl_scontrol_records(struct sl_job *const *v, size_t n)
{
	size_t k = 0;
	int meta = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i]->array_job_id != 0 && v[i]->state == SL_JOB_PENDING &&
		    !sl_job_task_split(v[i]))
			meta = 1;
		else
			k++;
	}
	return k + (size_t)meta;
}
