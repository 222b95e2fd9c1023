/* scontrol_jobs.c - scontrol's verbs that change jobs: hold, uhold,
 * release, requeue, requeuehold, top, suspend, resume and update, each on
 * Slurm's job lists (ids, ranges, an array's tasks, a job name), one
 * request per id, and the answers printed as 22.05's scontrol prints
 * them (per group of an array's tasks, the slurm_suspend line). */
#include "scontrol_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "array.h"
#include "buf.h"
#include "client.h"
#include "xalloc.h"

/* Tasks asked for on an array: want[0..n), and raw[i] the raw id of
 * want[i] when the caller has it already (0: the array lacks it), else
 * raw NULL. */
struct asked {
	const uint32_t *want;
	const uint64_t *raw;
	size_t n;
};

/* The raw ids of array id's tasks a->want into raw (0 where the array
 * lacks one), and with limit their time limits (the daemon's verbs take
 * the array and a task, N alone for the whole array), from one listing of
 * the array. */
static int task_rawids(struct sl_client *c, uint64_t id, const struct asked *a, uint64_t *raw,
		       int64_t *limit, struct sl_err *err)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_job **jobs = NULL;
	size_t n = 0;
	int r = sl_client_jobs(c, &f, &jobs, &n, err);

	for (size_t i = 0; r == 0 && i < a->n; i++)
		for (size_t k = 0; k < n && raw[i] == 0; k++)
			if (jobs[k]->array_job_id == id &&
			    (uint32_t)jobs[k]->array_task_id == a->want[i]) {
				raw[i] = jobs[k]->id;
				if (limit != NULL)
					limit[i] = jobs[k]->spec.time_limit;
			}
	sl_job_free_array(jobs, n);
	return r;
}

/* The verb on the tasks a asks for of array id, each as the array's task,
 * so that a daemon asked for one task never acts on the others; a task the
 * array lacks does not answer. Without a, every task answers for itself
 * (the daemon's "each"). */
static int array_answers(struct sl_client *c, const struct sl_scontrol_verb *v, uint64_t id,
			 const struct asked *a, struct sl_jobresult **res, size_t *nres,
			 struct sl_err *err)
{
	uint64_t *found = NULL;
	const uint64_t *raw;
	int r = 0;

	if (a == NULL)
		return sl_client_control_each(c, v->op, id, res, nres, err);
	*res = sl_xcalloc(a->n + 1, sizeof(**res));
	*nres = 0;
	if ((raw = a->raw) == NULL) {
		raw = found = sl_xcalloc(a->n + 1, sizeof(*found));
		if ((r = task_rawids(c, id, a, found, NULL, err)) != 0)
			goto out;
	}
	for (size_t i = 0; i < a->n && r != -SL_ECONNECT; i++) {
		struct sl_err e = SL_ERR_INIT;
		if (raw[i] == 0)
			continue;
		struct sl_jobresult *x = &(*res)[(*nres)++];
		x->id = raw[i];
		x->array_job_id = id;
		x->array_task_id = (int)a->want[i];
		if ((r = x->rc = sl_client_control_task(c, v->op, id, a->want[i], &e)) != 0)
			sl_scontrol_why(v, r, &e, x->msg, sizeof(x->msg));
		if (r == -SL_ECONNECT)
			*err = e;
	}
	if (r != -SL_ECONNECT)
		r = 0;
out:
	free(found);
	return r;
}

/* One id of a verb's job list: a plain job answers once, "WHY for job N"
 * (WHY also into why, for hold's and release's last line); an array's
 * tasks each (sl_scontrol_task_report). 1 when it failed. */
static int control_ids(struct sl_client *c, const struct sl_scontrol_verb *v, const char *idstr,
		       uint64_t id, const struct asked *a, char *why, size_t wlen)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobresult *res = NULL;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t nres = 0;
	int r, rc = 1;

	/* top is the array's as a whole, as slurmctld's top_job */
	r = v->op == SL_CTL_TOP && a == NULL
		    ? sl_client_control(c, v->op, id, &err)
		    : array_answers(c, v, id, a, &res, &nres, &err);
	if (r == 0 && res != NULL) {
		rc = sl_scontrol_task_report(b, id, a ? a->want : NULL, a ? a->n : 0, res, nres);
	} else if (r == 0) {
		rc = 0;
	} else {
		sl_scontrol_why(v, r, &err, why, wlen);
		sl_buf_addf(b, "%s for job %s\n", why, idstr);
	}
	fputs(sl_buf_str(b), stderr);
	sl_buf_free(b);
	free(res);
	return rc;
}

static int control_one(struct sl_client *c, const struct sl_scontrol_verb *v, const char *idstr,
		       char *why, size_t wlen)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *tasks = NULL;
	struct asked a = {NULL, NULL, 0};
	uint32_t *want = NULL;
	uint64_t id;
	int rc;

	if (sl_array_jobid_parse(idstr, &id, &tasks, &err) != 0) {
		sl_scontrol_why(v, -SL_ENOENT, &err, why, wlen);
		fprintf(stderr, "%s for job %s\n", why, idstr);
		return 1;
	}
	if (tasks != NULL) {
		a.n = sl_array_count(tasks);
		a.want = want = sl_xcalloc(a.n + 1, sizeof(*want));
		for (size_t i = 0; i < a.n; i++)
			want[i] = sl_array_task(tasks, i);
	}
	rc = control_ids(c, v, idstr, id, tasks ? &a : NULL, why, wlen);
	sl_array_free(tasks);
	free(want);
	return rc;
}

static int by_id(const void *a, const void *b)
{
	const struct sl_job *x = *(struct sl_job *const *)a, *y = *(struct sl_job *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

/* hold|uhold|release Name=X (or JobName=X), as 22.05's scontrol_hold: each
 * job of that name; of an array, its pending tasks of that name, one
 * request each by its raw id, their answers printed as one report (Slurm
 * asks once, for its pending meta record; no request here names several
 * jobs, and one on N would reach every task, renamed and started ones
 * too). A job no longer pending is asked too (slurmctld answers for it)
 * and makes the word fail, as does any refusal. why: the last answer ("No
 * error" when it was yes), for the slurm_suspend line. */
static int control_by_name(struct sl_client *c, const struct sl_scontrol_verb *v,
			   const char *name, char *why, size_t wlen)
{
	char *names[] = {(char *)name, NULL};
	struct sl_jobfilter f = {.names = names, .n_names = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **jobs = NULL;
	uint32_t *tasks;
	uint64_t *raw;
	size_t n = 0;
	int rc = 0;

	if (sl_client_jobs(c, &f, &jobs, &n, &err) != 0) {
		fprintf(stderr, "slurm_load_jobs error: %s\n", err.msg);
		return 1;
	}
	qsort(jobs, n, sizeof(*jobs), by_id);
	/* the listing has each task's raw id: no second one per array */
	tasks = sl_xcalloc(n + 1, sizeof(*tasks));
	raw = sl_xcalloc(n + 1, sizeof(*raw));
	for (size_t i = 0; i < n;) {
		const struct sl_job *j = jobs[i];
		char idstr[64];
		size_t nt = 0, k = i;
		why[0] = '\0';
		if (j->array_job_id != 0) { /* its pending tasks; those started are not asked */
			for (; k < n && jobs[k]->array_job_id == j->array_job_id; k++)
				if (jobs[k]->state == SL_JOB_PENDING) {
					raw[nt] = jobs[k]->id;
					tasks[nt++] = (uint32_t)jobs[k]->array_task_id;
				}
			struct asked a = {tasks, raw, nt};
			snprintf(idstr, sizeof(idstr), "%llu", (unsigned long long)j->array_job_id);
			if (nt > 0)
				rc |= control_ids(c, v, idstr, j->array_job_id, &a, why, wlen);
			i = k;
		} else {
			rc |= j->state != SL_JOB_PENDING;
			snprintf(idstr, sizeof(idstr), "%llu", (unsigned long long)j->id);
			rc |= control_ids(c, v, idstr, j->id, NULL, why, wlen);
			i++;
		}
		if (why[0] == '\0')
			snprintf(why, wlen, "No error");
	}
	if (!rc)
		why[0] = '\0';
	free(tasks);
	free(raw);
	sl_job_free_array(jobs, n);
	return rc;
}

/* Slurm's optional "JobId=" or "Job=" before a job list. */
static const char *job_list_word(const char *a)
{
	if (strncasecmp(a, "jobid=", 6) == 0)
		return a + 6;
	return strncasecmp(a, "job=", 4) == 0 ? a + 4 : a;
}

/* VERB JOB_LIST...: each id of each list (sl_scontrol_job_list), one
 * request each; hold and release end each word's failures with Slurm's
 * "slurm_suspend error: WHY" line, the last reason. */
int scontrol_control(const struct sl_scontrol_verb *v, int argc, char **argv)
{
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	int rc = 0;

	if (argc == 0) {
		fprintf(stderr, "too few arguments for keyword:%s\n", v->name);
		return 1;
	}
	int first = 0;
	/* requeue's options before the ids (Slurm's parse_requeue_flags),
	 * refused by name before any job is touched */
	for (; (v->op == SL_CTL_REQUEUE || v->op == SL_CTL_REQUEUE_HOLD) && first < argc; first++) {
		const char *a = argv[first];
		if (*a && strncasecmp(a, "incomplete", strlen(a)) == 0)
			fprintf(stderr, "scontrol: error: %s Incomplete is not supported by Sluice\n",
				v->name);
		else if (strncasecmp(a, "state=", 6) == 0 &&
			 (strncasecmp(a + 6, "specialexit", 11) == 0 ||
			  strncasecmp(a + 6, "se", 2) == 0))
			fprintf(stderr, "scontrol: error: %s State=SpecialExit is not supported by "
					"Sluice\n", v->name);
		else
			break;
		return 1;
	}
	if (sl_client_connect(NULL, &c, &err) != 0) {
		fprintf(stderr, "%s error: %s\n", v->suspend_api ? "slurm_suspend" : v->name,
			CONNECT_FAIL);
		return 1;
	}
	for (int i = first; i < argc; i++) {
		const char *list = job_list_word(argv[i]);
		char why[SL_ERR_MSG_MAX] = "", **ids = NULL;
		size_t n = 0;
		const char *name = strncasecmp(list, "name=", 5) == 0 ? list + 5
				 : strncasecmp(list, "jobname=", 8) == 0 ? list + 8 : NULL;
		if (name != NULL && v->suspend_api) {
			rc |= control_by_name(c, v, name, why, sizeof(why));
		} else if (sl_scontrol_job_list(list, &ids, &n) != 0) {
			snprintf(why, sizeof(why), "Invalid job id specified");
			fprintf(stderr, "%s for job %s\n", why, list);
			rc = 1;
		}
		for (size_t k = 0; k < n; k++)
			rc |= control_one(c, v, ids[k], why, sizeof(why));
		if (why[0] && v->suspend_api)
			fprintf(stderr, "slurm_suspend error: %s\n", why);
		sl_strv_free(ids);
	}
	sl_client_free(c);
	return rc;
}

/* Job id's jobs (an array's tasks) as 22.05's scontrol loads them before
 * a TimeLimit=+T or a NumNodes= (slurm_load_job), into *v, n of them
 * (caller frees); c NULL: r is why it could not connect. 0, or -1 with
 * the message printed. */
static int load_job(struct sl_client *c, int r, const char *idstr, uint64_t id,
		    struct sl_job ***v, size_t *n)
{
	struct sl_jobfilter flt = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;

	*v = NULL;
	*n = 0;
	if (c != NULL)
		r = sl_client_jobs(c, &flt, v, n, &err);
	if (r == 0 && *n > 0)
		return 0;
	fprintf(stderr, "scontrol: error: Could not load state information for job %s: %s\n", idstr,
		r == -SL_ECONNECT ? CONNECT_FAIL : r != 0 ? err.msg : "Invalid job id specified");
	sl_job_free_array(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

/* The limit of job id now: an array loads as one record only while all
 * its tasks wait in its meta record (any of them then has the array's
 * limit). 0, or -1 with the message printed. */
static int time_limit_now(struct sl_client *c, const char *idstr, uint64_t id, int64_t *cur)
{
	struct sl_job **v;
	size_t n;
	int r = load_job(c, 0, idstr, id, &v, &n);

	if (r == 0 && sl_scontrol_records(v, n) > 1) {
		fprintf(stderr, "scontrol: error: TimeLimit increment/decrement not supported for "
				"job arrays\n");
		r = -1;
	} else if (r == 0) {
		*cur = v[0]->spec.time_limit;
	}
	sl_job_free_array(v, n);
	return r;
}

/* 22.05's _is_single_job, asked before a NumNodes= update: JobId= names
 * one job or task ("N", "N_I", read with strtol), and an array named
 * whole loads as one record. c NULL: cr is why it could not connect. 0,
 * or 1 with the refusal printed. */
static int single_job(struct sl_client *c, int cr, const char *idstr)
{
	char *end;
	long long id = strtoll(idstr, &end, 10);
	int task = *end == '_';
	struct sl_job **v;
	size_t n;
	int rc = 0;

	if (task)
		(void)strtoll(end + 1, &end, 10);
	if (*end != '\0') {
		fprintf(stderr, "scontrol: error: Invalid job ID %s\n", idstr);
		return 1;
	}
	if (load_job(c, cr, idstr, (uint64_t)id, &v, &n) != 0)
		return 1;
	if (!task && sl_scontrol_records(v, n) > 1) {
		fprintf(stderr, "scontrol: error: Job resizing not supported for job arrays\n");
		rc = 1;
	}
	sl_job_free_array(v, n);
	return rc;
}

/* TimeLimit=+T/-T (scontrol_update.c's "time_limit_add"): the job's limit
 * now, cur, plus or minus T, as 22.05's scontrol works it out before it
 * asks. An unlimited job stays unlimited. 0, or -1 with the message
 * printed. */
static int time_limit_add(int64_t cur, struct sl_update_field *f)
{
	int64_t d = f->num;

	f->key = "time_limit";
	if (cur < 0) {                 /* UNLIMITED, or none (the partition's) */
		f->num = SL_TIME_INFINITE;
		return 0;
	}
	if (d < 0 && -d > cur) {
		fprintf(stderr, "scontrol: error: TimeLimit decrement larger than current time "
				"limit (%lld > %lld)\n", (long long)-d, (long long)cur);
		return -1;
	}
	f->num = cur + d;
	return 0;
}

/* f0 (n fields) into *out (caller frees), TimeLimit=+T made job id's own
 * limit: *cur when the caller has its record, else asked here. 0, or 1
 * with the refusal printed. */
static int update_fields(struct sl_client *c, const char *idstr, uint64_t id, const int64_t *cur,
			 const struct sl_update_field *f0, size_t n, struct sl_update_field **out)
{
	struct sl_update_field *f = sl_xcalloc(n + 1, sizeof(*f));
	int64_t now = cur != NULL ? *cur : 0;
	int known = cur != NULL, r = 0;

	memcpy(f, f0, n * sizeof(*f));
	for (size_t i = 0; i < n && r == 0; i++) {
		if (strcmp(f[i].key, "time_limit_add") != 0)
			continue;
		if (!known && time_limit_now(c, idstr, id, &now) != 0)
			r = 1;
		else if (time_limit_add(now, &f[i]) != 0)
			r = 1;
		known = 1;
	}
	*out = f;
	return r;
}

static void update_refusal(int r, const struct sl_err *err, const char *idstr)
{
	char buf[SL_ERR_MSG_MAX];

	if (r == -SL_ECONNECT)
		fprintf(stderr, "slurm_update error: %s\n", CONNECT_FAIL);
	else if (r == -SL_ENOENT)
		fprintf(stderr, "Invalid job id specified for job %s\n", idstr);
	else if (r != 0 && r != 1)
		fprintf(stderr, "%s for job %s\n", sl_scontrol_reason(err->msg, buf, sizeof(buf)), idstr);
}

/* What b holds, to stderr; rc back. */
static int report(struct sl_buf *b, int rc)
{
	fputs(sl_buf_str(b), stderr);
	sl_buf_free(b);
	return rc;
}

/* update on job or array id whole: an array answers per group of its
 * tasks when some have ended (sl_scontrol_array_report), from the tasks'
 * own answers in the daemon's reply. 1 when it failed. */
static int update_whole(struct sl_client *c, const char *idstr, uint64_t id,
			const struct sl_update_field *f0, size_t n)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_update_field *f = NULL;
	struct sl_jobresult *res = NULL;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t nres = 0;
	int r, rc = 1;

	if ((r = update_fields(c, idstr, id, NULL, f0, n, &f)) == 0)
		r = sl_client_update_each(c, id, f, n, &res, &nres, &err);
	if (r == 0)
		rc = sl_scontrol_array_report(b, id, res, nres);
	else
		update_refusal(r, &err, idstr);
	free(f);
	free(res);
	return report(b, rc);
}

/* update on array id's tasks want[0..nt), each by its raw id and
 * answering for itself (sl_scontrol_task_report), from one listing of the
 * array: TimeLimit=+T is each task's own. 1 when it failed. */
static int update_tasks(struct sl_client *c, const char *idstr, uint64_t id,
			const uint32_t *want, size_t nt, const struct sl_update_field *f0,
			size_t n)
{
	struct asked a = {want, NULL, nt};
	struct sl_err lerr = SL_ERR_INIT;
	struct sl_jobresult *res = sl_xcalloc(nt + 1, sizeof(*res));
	uint64_t *raw = sl_xcalloc(nt + 1, sizeof(*raw));
	int64_t *limit = sl_xcalloc(nt + 1, sizeof(*limit));
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t nres = 0;
	int r, rc = 1, listed = task_rawids(c, id, &a, raw, limit, &lerr);

	for (size_t i = 0; i < nt; i++) {
		struct sl_err err = lerr; /* a listing that failed is each task's answer */
		struct sl_update_field *f = NULL;
		char buf[SL_ERR_MSG_MAX];
		if ((r = listed) == 0 && raw[i] == 0)
			continue; /* no such task: sl_scontrol_task_report says so */
		if (r == 0 && (r = update_fields(c, idstr, raw[i], &limit[i], f0, n, &f)) == 0)
			r = sl_client_update_task(c, id, want[i], f, n, &err);
		free(f);
		if (r == -SL_ENOENT)
			continue;
		if (r == 1 || r == -SL_ECONNECT) {
			update_refusal(r, &err, idstr);
			goto out;
		}
		res[nres].array_task_id = (int)want[i];
		res[nres].rc = r;
		snprintf(res[nres].msg, sizeof(res[nres].msg), "%.*s", (int)sizeof(res[nres].msg) - 1,
			 sl_scontrol_reason(err.msg, buf, sizeof(buf)));
		nres++;
	}
	rc = sl_scontrol_task_report(b, id, want, nt, res, nres);
out:
	free(res);
	free(raw);
	free(limit);
	return report(b, rc);
}

/* update on one id of the JobId list: a job, a whole array, or an array's
 * tasks. 1 when it failed. */
static int update_one(struct sl_client *c, const char *idstr, const struct sl_update_field *f,
		      size_t n)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *tasks = NULL;
	uint32_t *want;
	uint64_t id;
	size_t nt;
	int rc;

	if (sl_array_jobid_parse(idstr, &id, &tasks, &err) != 0) {
		update_refusal(-SL_ENOENT, &err, idstr);
		return 1;
	}
	/* ArrayTaskThrottle alone on N_I is the array's, as Slurm keeps it */
	if (tasks == NULL || (n == 1 && strcmp(f[0].key, "array_throttle") == 0)) {
		sl_array_free(tasks);
		return update_whole(c, idstr, id, f, n);
	}
	nt = sl_array_count(tasks);
	want = sl_xcalloc(nt + 1, sizeof(*want));
	for (size_t i = 0; i < nt; i++)
		want[i] = sl_array_task(tasks, i);
	rc = update_tasks(c, idstr, id, want, nt, f, n);
	free(want);
	sl_array_free(tasks);
	return rc;
}

/* NumNodes= (22.05's update_size; Sluice takes no ReqNodeList=). */
static int resizes(const struct sl_update_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].key, "nodes") == 0 || strcmp(f[i].key, "nodes_max") == 0)
			return 1;
	return 0;
}

int scontrol_update(int argc, char **argv)
{
	struct sl_update_field *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_client *c = NULL;
	struct sl_buf *notes = sl_buf_new(1 << 16);
	const char *jobs = NULL;
	char **ids = NULL;
	size_t n = 0, nids = 0;
	int rc, r = sl_scontrol_update_parse(argc, argv, (int64_t)time(NULL), &jobs, &f, &n, &rc,
					     notes, &err);

	fputs(sl_buf_str(notes), stderr);
	sl_buf_free(notes);
	if (r != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return rc;
	}
	if (n > 0)
		r = sl_client_connect(NULL, &c, &err);
	/* 22.05 asks whether a resize names one job before it reads the list */
	rc = 1;
	if (resizes(f, n) && single_job(c, r, jobs) != 0) {
		/* printed */
	} else if (sl_scontrol_job_list(jobs, &ids, &nids) != 0) {
		fprintf(stderr, "Invalid job id specified for job %s\n", jobs);
	} else if (r != 0) {
		update_refusal(r, &err, jobs);
	} else {
		rc = 0;
		for (size_t i = 0; c != NULL && i < nids; i++)
			rc |= update_one(c, ids[i], f, n);
	}
	sl_client_free(c);
	sl_strv_free(ids);
	free(f);
	return rc;
}
