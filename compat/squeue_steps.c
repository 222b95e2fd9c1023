/* squeue_steps.c - squeue -s (squeue_steps.h). */
#include "squeue_steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_fmt.h"
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

/* One step's row as its -o fields see it. */
struct srow {
	const struct sl_job *j;
	const char *step, *name, *nodes;
	int64_t start;
	int ntasks;
};

#define P(name) static void name(const struct srow *r, int64_t now, char *buf, size_t len)
P(s_id)
{
	char base[96];
	(void)now;
	sl_job_id_text(r->j, base, sizeof(base)); /* an array task's steps: N_I.S */
	snprintf(buf, len, "%s.%s", base, r->step);
}
P(s_name) { (void)now; snprintf(buf, len, "%s", r->name); }
P(s_part) { (void)now; snprintf(buf, len, "%s", r->j->spec.partition ? r->j->spec.partition : ""); }
P(s_user) { (void)now; snprintf(buf, len, "%s", r->j->user ? r->j->user : ""); }
P(s_uid) { (void)now; snprintf(buf, len, "%u", (unsigned)r->j->uid); }
P(s_time) { sl_slurm_time_fmt_elapsed(now > r->start ? now - r->start : 0, buf, len); }
P(s_nodes) { (void)now; snprintf(buf, len, "%s", r->nodes ? r->nodes : ""); }
P(s_tasks) { (void)now; snprintf(buf, len, "%d", r->ntasks); }
P(s_start) { (void)now; sl_slurm_time_fmt_ts(r->start, buf, len); }
P(s_limit) { (void)r; (void)now; snprintf(buf, len, "UNLIMITED"); } /* steps have none here */
P(s_tres) { (void)r; (void)now; snprintf(buf, len, "(null)"); }
#undef P

/* Slurm 22.05's step fields for -o (opts.c's step_format_add_*). */
static const struct {
	char code;
	const char *header;
	int cut;
	void (*print)(const struct srow *r, int64_t now, char *buf, size_t len);
} scols[] = {
	{'A', "TASKS", 1, s_tasks}, {'b', "TRES_PER_JOB", 1, s_tres},
	{'i', "STEPID", 1, s_id},   {'j', "NAME", 1, s_name},
	{'l', "TIME_LIMIT", 1, s_limit}, {'M', "TIME", 1, s_time},
	{'N', "NODELIST", 0, s_nodes}, {'P', "PARTITION", 1, s_part},
	{'S', "START_TIME", 1, s_start}, {'U', "UID", 1, s_uid},
	{'u', "USER", 1, s_user},
};

static int scol(char code)
{
	for (size_t i = 0; i < sizeof(scols) / sizeof(scols[0]); i++)
		if (scols[i].code == code)
			return (int)i;
	return -1;
}

/* A row, or the header when r is NULL. */
static int row(struct sl_buf *b, const struct sl_fmt *f, const struct srow *r, int64_t now)
{
	char val[4096];
	int rc = sl_buf_addstr(b, sl_fmt_prefix(f));
	for (size_t i = 0; rc == 0 && i < sl_fmt_count(f); i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f, i);
		int c = scol(it->code);
		if (c < 0) /* Slurm's step_format_add_invalid: the text as written */
			rc = sl_buf_addf(b, "%%%c", it->code);
		else if (r == NULL)
			snprintf(val, sizeof(val), "%s", scols[c].header);
		else
			scols[c].print(r, now, val, sizeof(val));
		if (c >= 0)
			rc = sl_fmt_cell(b, val, it->width, it->right, r == NULL || scols[c].cut);
		if (rc == 0)
			rc = sl_buf_addstr(b, it->suffix);
	}
	return rc ? rc : sl_buf_addc(b, '\n');
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
			const char *only, const char *fmt, int noheader, int64_t now,
			struct sl_buf *b)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_fmt *f = NULL;
	size_t k = 0;
	int r;

	if ((r = sl_fmt_parse_percent(fmt ? fmt : SL_SQUEUE_STEP_FMT, &f, &err)) != 0)
		return r;
	if (!noheader)
		r = row(b, f, NULL, now);
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
			struct srow sr = {j, sid, steps[k].name ? steps[k].name : "", steps[k].nodelist,
					  steps[k].start_time, steps[k].ntasks};
			if (wanted(only, j->id, sid))
				r = row(b, f, &sr, now);
		}
		first_node(j->nodelist, node, sizeof(node));
		struct srow br = {j, "batch", "batch", node, j->start_time, 1};
		if (r == 0 && !j->spec.interactive && wanted(only, j->id, "batch"))
			r = row(b, f, &br, now);
	}
	sl_fmt_free(f);
	return r;
}
