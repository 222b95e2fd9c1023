/* squeue_steps.c - squeue -s (squeue_steps.h). */
#include "squeue_steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_time.h"
#include "xalloc.h"

static int cmp_job(const void *a, const void *b)
{
	const struct sl_job *x = *(struct sl_job *const *)a, *y = *(struct sl_job *const *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* -s LIST: "N.S" or "N.batch" words; a bare job id keeps all its steps. */
static int wanted(const char *only, uint64_t job, const char *step)
{
	char id[64], *dup, *save = NULL;
	int hit = 0;
	if (only == NULL || *only == '\0')
		return 1;
	dup = sl_xstrdup(only);
	snprintf(id, sizeof(id), "%llu.%s", (unsigned long long)job, step);
	for (char *t = strtok_r(dup, ",", &save); t && !hit; t = strtok_r(NULL, ",", &save))
		hit = strcmp(t, id) == 0 || (strchr(t, '.') == NULL &&
					     strtoull(t, NULL, 10) == job);
	free(dup);
	return hit;
}

static int row(struct sl_buf *b, const struct sl_job *j, const char *step, const char *name,
	       int64_t start, const char *nodes, int64_t now)
{
	char id[64], t[32];
	if (j->array_job_id != 0) /* an array task's steps go by its array id, as Slurm's */
		snprintf(id, sizeof(id), "%llu_%d.%s", (unsigned long long)j->array_job_id,
			 j->array_task_id, step);
	else
		snprintf(id, sizeof(id), "%llu.%s", (unsigned long long)j->id, step);
	sl_slurm_time_fmt_elapsed(now > start ? now - start : 0, t, sizeof(t));
	return sl_buf_addf(b, "%15.15s %8.8s %9.9s %8.8s %9.9s %s\n", id, name,
			   j->spec.partition ? j->spec.partition : "", j->user ? j->user : "", t,
			   nodes ? nodes : "");
}

/* The batch step runs on the job's first node. */
static void first_node(const char *nl, char *buf, size_t len)
{
	size_t k = strcspn(nl ? nl : "", "[,");
	if (nl == NULL)
		buf[0] = '\0';
	else if (nl[k] == '[')
		snprintf(buf, len, "%.*s%.*s", (int)k, nl, (int)strcspn(nl + k + 1, "-,]"),
			 nl + k + 1);
	else
		snprintf(buf, len, "%.*s", (int)k, nl);
}

int sl_squeue_steps_fmt(struct sl_job **jobs, size_t n, const struct sl_step *steps, size_t ns,
			const char *only, int noheader, int64_t now, struct sl_buf *b)
{
	size_t k = 0;
	int r = 0;
	if (!noheader)
		r = sl_buf_addf(b, "%15s %8s %9s %8s %9s %s\n", "STEPID", "NAME", "PARTITION", "USER",
				"TIME", "NODELIST");
	qsort(jobs, n, sizeof(*jobs), cmp_job);
	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_job *j = jobs[i];
		char sid[16], node[256];
		if (j->state != SL_JOB_RUNNING && j->state != SL_JOB_CONFIGURING)
			continue;
		while (k < ns && steps[k].job_id < j->id)
			k++;
		for (; r == 0 && k < ns && steps[k].job_id == j->id; k++) {
			snprintf(sid, sizeof(sid), "%u", steps[k].step_id);
			if (wanted(only, j->id, sid))
				r = row(b, j, sid, steps[k].name, steps[k].start_time,
					steps[k].nodelist, now);
		}
		first_node(j->nodelist, node, sizeof(node));
		if (r == 0 && !j->spec.interactive && wanted(only, j->id, "batch"))
			r = row(b, j, "batch", "batch", j->start_time, node, now);
	}
	return r;
}
