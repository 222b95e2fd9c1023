/* pbs_tracejob.c - the log lines OpenPBS's daemons would have written for
 * a job, rebuilt from its Sluice record. Texts and event types are
 * OpenPBS's (commit cd7ab5eda): the server's in req_quejob.c (the queue:
 * "Job Queued at request of", msg_jobnew), svr_jobfunc.c ("enqueuing
 * into"), req_runjob.c ("Job Run at request of ... on exec_vnode"),
 * req_holdjob.c (msg_jobholdrel), req_delete.c and process_request.c (a
 * delete), req_jobobit.c (the obit, then the usage record end_job() logs);
 * the scheduler's fifo.cpp ("Considering job to run") and server_info.cpp
 * ("Job run"); MOM's catch_child.c, mom_start.c and mom_main.c (its end,
 * its walltime kill); the accounting records of accounting.c (acct_job():
 * Q at the queue, S at a start, E at the end, R at a rerun, D at a
 * delete). Messages are in src/lib/Liblog/pbs_messages.c.
 *
 * What the record does not keep is left out rather than made up: MOM's
 * "Started, pid = N" (no session is recorded: the records' session is 0),
 * a hold set after the submission and who asked for it (a hold the record
 * shows counts from the queue: "state H"; its release is told at the time
 * the job became eligible, by the owner for a user hold, root for an
 * operator's), the requester of a rerun (its R record alone), the
 * dependency a job was deleted for. Requesters' hosts are the server's. */
#include "pbs_tracejob.h"
#include "pbs_tracejob_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "jobstate.h"
#include "pbs_array.h"
#include "pbs_job.h"
#include "pbs_reslist.h"
#include "xalloc.h"

#define MSG_CAP (1u << 20)

struct tj {
	struct sl_tracejob *t;
	const struct sl_tracejob_view *v;
	const struct sl_job *j;
	int64_t ctime; /* when it was first queued (a requeue restamps the record's) */
};

/* One line, msg consumed. The accounting log is root's to read. */
static void add(struct tj *b, int64_t when, char src, unsigned event, char *msg)
{
	struct sl_tracejob *t = b->t;

	if (src == 'A' && !b->v->accounting) {
		free(msg);
		return;
	}
	t->v = sl_xgrow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = (struct sl_tracejob_line){when, src, event, msg};
}

static void __attribute__((format(printf, 5, 6)))
addf(struct tj *b, int64_t when, char src, unsigned event, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = sl_xmalloc(len > 0 ? (size_t)len + 1 : 1);
	s[0] = '\0';
	va_start(ap, fmt);
	if (len > 0)
		vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	add(b, when, src, event, s);
}

/* The text of m, which is freed. */
static char *taken(struct sl_buf *m)
{
	char *s = sl_buf_steal(m);

	sl_buf_free(m);
	return s;
}

/* ---- the accounting records (accounting.c) --------------------------------- */

/* A value as cpy_quote_value() writes it: quoted when it holds a blank. */
static void quoted(struct sl_buf *m, const char *v)
{
	if (strchr(v, ' ') == NULL)
		sl_buf_addstr(m, v);
	else
		sl_buf_addf(m, strchr(v, '"') ? "'%s'" : "\"%s\"", v);
}

/* Resource_List as qstat -f lists it (pbs_reslist.h). */
static void put_listed(struct sl_buf *m, const struct sl_job *j)
{
	struct sl_pbs_resc *v;
	size_t n = sl_pbs_reslist(j, &v);

	for (size_t i = 0; i < n; i++) {
		sl_buf_addf(m, "Resource_List.%s=", v[i].name);
		quoted(m, v[i].value);
		sl_buf_addc(m, ' ');
	}
	sl_pbs_reslist_free(v, n);
}

/* One run of the job: its start, end, eligible time and run_count; j is
 * the record as it was then (its nodes, CPUs and exit). */
struct run {
	const struct sl_job *j;
	int64_t start, end, eligible;
	int count;
};

/* acct_job(): what every job record starts with, each item followed by a
 * blank. Q has no start; an array job has array_indices at Q and S (its
 * state then queued or begun) and never an exec_host. */
static void acct_job(struct tj *b, struct sl_buf *m, char type, const struct run *r)
{
	const struct sl_job *j = r->j;
	const char *project = j->spec.wckey && *j->spec.wckey ? j->spec.wckey
							      : "_pbs_project_default";
	char name[288];
	int array = sl_pbs_is_array(j);

	sl_buf_addf(m, "user=%s group=%s ", j->user ? j->user : "", j->group ? j->group : "");
	if (j->spec.account && *j->spec.account)
		sl_buf_addf(m, "account=\"%s\" ", j->spec.account);
	sl_buf_addf(m, strchr(project, ' ') ? "project=\"%s\" " : "project=%s ", project);
	sl_buf_addf(m, "jobname=%s queue=%s ", sl_pbs_job_name(j, name, sizeof(name)),
		    j->spec.partition ? j->spec.partition : "");
	sl_buf_addf(m, "ctime=%lld qtime=%lld etime=%lld ", (long long)b->ctime,
		    (long long)b->ctime, (long long)r->eligible);
	if (type != 'Q')
		sl_buf_addf(m, "start=%lld ", (long long)r->start);
	if (array && (type == 'Q' || type == 'S')) {
		sl_buf_addf(m, "array_indices=%.*s ", (int)strcspn(j->spec.array, "%"),
			    j->spec.array);
	} else if (type != 'Q' && !array) {
		char *h = sl_pbs_exec_host(j, 0), *vn = sl_pbs_exec_host(j, 1);
		sl_buf_addf(m, "exec_host=%s exec_vnode=%s ", h, vn);
		free(h);
		free(vn);
	}
	put_listed(m, j);
}

/* sum_resc_alloc(): the exec_vnode's chunks summed, in the server's
 * resource order (mem, ncpus, then the site's ngpus). */
static void resource_assigned(struct sl_buf *m, const struct sl_job *j)
{
	char *vn = sl_pbs_exec_host(j, 1), *p = vn;
	long long mem = 0, ncpus = 0, ngpus = 0, x;

	while ((p = strchr(p, ':')) != NULL) {
		p++;
		if (sscanf(p, "mem=%lldkb", &x) == 1)
			mem += x;
		else if (sscanf(p, "ncpus=%lld", &x) == 1)
			ncpus += x;
		else if (sscanf(p, "ngpus=%lld", &x) == 1)
			ngpus += x;
	}
	free(vn);
	if (mem > 0)
		sl_buf_addf(m, "resource_assigned.mem=%lldkb ", mem);
	if (ncpus > 0)
		sl_buf_addf(m, "resource_assigned.ncpus=%lld ", ncpus);
	if (ngpus > 0)
		sl_buf_addf(m, "resource_assigned.ngpus=%lld ", ngpus);
}

static void put_used(void *arg, const char *res, const char *value)
{
	sl_buf_addf(arg, " resources_used.%s=%s", res, value);
}

/* The usage record MOM's obit gives (job_obit(): "Exit_status=N" and the
 * resources_used it sent); an array job has none but its status. */
static char *usage_record(const struct run *r)
{
	struct sl_buf *m = sl_buf_new(MSG_CAP);

	sl_buf_addf(m, "Exit_status=%d", sl_pbs_is_array(r->j) ? r->j->exit_code
							       : sl_pbs_exit_status(r->j));
	if (!sl_pbs_is_array(r->j))
		sl_pbs_resources_used(r->j, r->end - r->start, put_used, m);
	return taken(m);
}

/* Q and S (account_jobstr()); E and R (account_jobend()): the common
 * part, then session, end, the usage record and run_count. */
static void record(struct tj *b, int64_t when, char type, const struct run *r)
{
	struct sl_buf *m = sl_buf_new(MSG_CAP);

	acct_job(b, m, type, r);
	if (type == 'S' && !sl_pbs_is_array(r->j)) {
		resource_assigned(m, r->j);
	} else if (type == 'E' || type == 'R') {
		char *used = usage_record(r);
		sl_buf_addf(m, "session=0 end=%lld %s run_count=%d", (long long)r->end, used,
			    r->count);
		free(used);
	}
	add(b, when, 'A', 0, taken(m));
}

/* ---- the job's life ------------------------------------------------------ */

static int held_by(const struct sl_job *j, const char *reason)
{
	return j->start_reason && strcmp(j->start_reason, reason) == 0;
}

/* A hold it had since the queue and that was released: the hold the job
 * waited for last (sl_job_reason_seen()), or an eligible time later than
 * the queue's that no begin time, dependency or requeue explains (a job
 * held from its submission becomes eligible at its release). */
static int released(const struct tj *b)
{
	const struct sl_job *j = b->j;

	if ((j->state == SL_JOB_PENDING && j->spec.hold) || j->eligible_time <= 0)
		return 0;
	if (held_by(j, "JobHeldUser") || held_by(j, "JobHeldAdmin"))
		return j->eligible_time >= b->ctime;
	return j->eligible_time > b->ctime && j->attempt == 0 && j->runs == NULL &&
	       j->spec.begin_time <= 0 && !(j->spec.dependency && *j->spec.dependency) &&
	       j->array_job_id == 0;
}

/* The state svr_enquejob() queued it in: held (-h, or a dependency: a
 * system hold), waiting for its -a time, or queued. */
static char queued_state(const struct tj *b)
{
	const struct sl_job *j = b->j;

	if ((j->state == SL_JOB_PENDING && j->spec.hold) || released(b) ||
	    (j->spec.dependency && *j->spec.dependency) ||
	    (j->state == SL_JOB_PENDING && j->dependency))
		return 'H';
	return j->spec.begin_time > b->ctime ? 'W' : 'Q';
}

/* req_commit(): svr_enquejob()'s line, the Q record, msg_jobnew. */
static void queue_lines(struct tj *b)
{
	const struct sl_job *j = b->j;
	const char *host = j->spec.submit_host ? j->spec.submit_host : "";
	char st = queued_state(b), name[288];
	struct run q = {.j = j, .eligible = st == 'Q' ? b->ctime : 0};

	addf(b, b->ctime, 'S', TJ_DEBUG2, "enqueuing into %s, state %c hop 1", j->spec.partition, st);
	record(b, b->ctime, 'Q', &q);
	addf(b, b->ctime, 'S', TJ_JOB,
	     "Job Queued at request of %s@%s, owner = %s@%s, job name = %s, queue = %s", j->user,
	     host, j->user, host, sl_pbs_job_name(j, name, sizeof(name)), j->spec.partition);
	if (released(b))
		addf(b, j->eligible_time, 'S', TJ_JOB, "Holds %s released at request of %s@%s",
		     held_by(j, "JobHeldAdmin") ? "o" : "u",
		     held_by(j, "JobHeldAdmin") ? "root" : j->user, b->v->server);
}

/* The scheduler's run, the server's, the S record. */
static void run_lines(struct tj *b, const struct run *r)
{
	char *vn = sl_pbs_exec_host(r->j, 1);

	addf(b, r->start, 'L', TJ_DEBUG, "Considering job to run");
	addf(b, r->start, 'S', TJ_JOB, "Job Run at request of Scheduler@%s on exec_vnode %s",
	     b->v->server, vn);
	record(b, r->start, 'S', r);
	addf(b, r->start, 'L', TJ_SCHED, "Job run");
	free(vn);
}

/* Did it run on this host, where tracejob reads MOM's log? Its first
 * node, the mother superior, writes these lines. */
static int ran_here(const struct tj *b, const struct sl_job *j)
{
	char **names = NULL;
	size_t n = 0;
	int here;

	if (b->v->host == NULL || j->nodelist == NULL ||
	    sl_hostlist_expand(j->nodelist, &names, &n, NULL) != 0)
		return 0;
	here = n > 0 && strcmp(names[0], b->v->host) == 0;
	sl_strv_free(names);
	return here;
}

static void requester(const struct tj *b, char *buf, size_t len)
{
	const struct sl_job *j = b->j;

	if (j->cancelled_by == (int)j->uid && j->user)
		snprintf(buf, len, "%s", j->user);
	else if (b->v->user_name == NULL || b->v->user_name(j->cancelled_by, buf, len) != 0)
		snprintf(buf, len, "%d", j->cancelled_by);
}

/* req_deletejob(): the request, and for a running job the signal MOM is
 * sent; acct_del_write() follows, at once for a queued job, after MOM's
 * reply for a running one. */
static void delete_asked(struct tj *b, int64_t when, int running)
{
	addf(b, when, 'S', TJ_DEBUG, "delete job request received");
	if (running)
		addf(b, when, 'S', TJ_JOB, "Job sent signal TermJob on delete");
}

static void delete_written(struct tj *b, int64_t when)
{
	char who[256];

	requester(b, who, sizeof(who));
	addf(b, when, 'A', 0, "requestor=%s@%s", who, b->v->server);
	addf(b, when, 'S', TJ_JOB, "Job to be deleted at request of %s@%s", who, b->v->server);
}

/* MOM's end of its job (a walltime kill first), the server's obit, the E
 * record and end_job()'s usage line. */
static void end_lines(struct tj *b, const struct run *r)
{
	const struct sl_job *j = r->j;
	char *used;

	if (ran_here(b, j)) {
		if (j->state == SL_JOB_TIMEOUT)
			addf(b, r->end, 'M', TJ_JOB | TJ_FORCE, "walltime %lld exceeded limit %lld",
			     (long long)(r->end - r->start),
			     (long long)sl_jobspec_limit_secs(&j->spec));
		addf(b, r->end, 'M', TJ_DEBUG, "task 00000001 terminated");
		addf(b, r->end, 'M', TJ_JOB, "Terminated");
		addf(b, r->end, 'M', TJ_DEBUG2, "Obit sent");
	}
	if (j->state == SL_JOB_CANCELLED && j->cancelled_by >= 0)
		delete_written(b, r->end);
	addf(b, r->end, 'S', TJ_DEBUG, "Obit received momhop:1 serverhop:%d state:R substate:42",
	     r->count);
	record(b, r->end, 'E', r);
	used = usage_record(r);
	add(b, r->end, 'S', TJ_JOB_USAGE, used);
}

/* The runs a requeue ended (j->runs): each its start and its R record. */
static void earlier_runs(struct tj *b)
{
	const char *p = b->j->runs;
	int k = 0;

	while (p && *p) {
		struct sl_job_run jr;
		if (sl_job_run_parse(p, &jr) == 0) {
			struct sl_job was = *b->j; /* shallow: only read */
			char *nodes = sl_xstrndup(jr.nodes, jr.nodes_len);
			struct run r = {.j = &was, .start = jr.start, .end = jr.end,
					.eligible = jr.eligible, .count = ++k};
			was.nodelist = nodes;
			was.alloc_cpus = jr.cpus;
			was.state = SL_JOB_COMPLETED;
			was.exit_code = jr.exit_code;
			was.exit_signal = jr.exit_signal;
			was.user_usec = was.sys_usec = was.max_rss = was.max_vmsize = 0;
			if (jr.start > 0 && strcmp(nodes, "None") != 0) {
				run_lines(b, &r);
				record(b, jr.end, 'R', &r);
			}
			free(nodes);
		}
		p += strcspn(p, ";");
		p += *p == ';';
	}
}

/* The first queue time: the first run's submit when requeues restamped
 * the record's. */
static int64_t first_queued(const struct sl_job *j)
{
	struct sl_job_run jr;

	if (j->runs && sl_job_run_parse(j->runs, &jr) == 0 && jr.submit > 0)
		return jr.submit;
	return j->submit_time;
}

static void job_lines(struct tj *b)
{
	const struct sl_job *j = b->j;
	int ran = j->start_time > 0 && j->nodelist && *j->nodelist && j->state != SL_JOB_PENDING;
	struct run r = {.j = j, .start = j->start_time, .end = j->end_time,
			.eligible = j->eligible_time > 0 ? j->eligible_time : b->ctime,
			.count = j->attempt + 1};

	if (j->array_job_id == 0) /* a subjob is made when it runs */
		queue_lines(b);
	earlier_runs(b);
	if (ran)
		run_lines(b, &r);
	if (j->end_time <= 0 || !(sl_jobstate_is_final(j->state) || j->state == SL_JOB_COMPLETING))
		return;
	if (!ran) {
		if (j->state == SL_JOB_CANCELLED && j->cancelled_by >= 0) {
			delete_asked(b, j->end_time, 0);
			delete_written(b, j->end_time);
		}
		return;
	}
	/* a cancel being carried out shows as COMPLETING, its end stamped */
	if (j->cancelled_by >= 0 && (j->state == SL_JOB_CANCELLED || j->state == SL_JOB_COMPLETING))
		delete_asked(b, j->end_time, 1);
	if (sl_jobstate_is_final(j->state))
		end_lines(b, &r);
}

/* An array job: queued, begun with its first subjob (an S record with its
 * indices), ended with its last (chk_array_doneness(): an E record with
 * the array's Exit_status and no usage, run_count 0). */
static void array_lines(struct tj *b)
{
	const struct sl_job *a = b->j;
	struct run r = {.j = a, .start = a->start_time, .end = a->end_time,
			.eligible = a->eligible_time > 0 ? a->eligible_time : b->ctime};

	queue_lines(b);
	if (a->start_time <= 0)
		return;
	record(b, a->start_time, 'S', &r);
	if (a->state != SL_JOB_RUNNING && a->end_time > 0)
		record(b, a->end_time, 'E', &r);
}

struct sl_tracejob *sl_tracejob_new(const struct sl_tracejob_view *v, const struct sl_job *j)
{
	struct sl_tracejob *t = sl_xcalloc(1, sizeof(*t));
	struct tj b = {.t = t, .v = v, .j = j, .ctime = first_queued(j)};

	sl_pbs_idstr(j, v->server, t->id, sizeof(t->id));
	if (sl_pbs_is_array(j))
		array_lines(&b);
	else
		job_lines(&b);
	return t;
}

void sl_tracejob_free(struct sl_tracejob *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].msg);
	free(t->v);
	free(t);
}

const struct sl_job *sl_tracejob_find(struct sl_job *const *jobs, size_t n, const char *server,
				      const char *op)
{
	for (size_t i = 0; i < n; i++) {
		char id[192];
		size_t len = strlen(op);
		sl_pbs_idstr(jobs[i], server, id, sizeof(id));
		if (strchr(op, '.') == NULL && strcspn(id, ".") > len)
			len = strcspn(id, ".");
		if (strncmp(op, id, len) == 0)
			return jobs[i];
	}
	return NULL;
}
