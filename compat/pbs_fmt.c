/* pbs_fmt.c - qstat's job layouts, from OpenPBS src/cmds/qstat.c: the
 * default table (display_statjob(), lines 1359-1667: widths PBS_MAXSEQNUM+5
 * = 17, NAMEL 16, OWNERL 16, TIMEUL 8, STATEL 1, LOCL 16; a longer value
 * ends in '*'), the alternate table (altdsp_statjob(), lines 848-1140:
 * SIZEJOBID 15, SIZEUSER 8, SIZEQUEUENAME 8, SIZEJOBNAME 10, SIZESESSID 6,
 * SIZENDS 3, SIZETSK 3; blank " -- "), the attribute list (prt_attr(),
 * lines 452-609: "    name = value", wrapped at commas past 78 columns),
 * and the job comment as the server and scheduler write it (form_attr_comment()
 * in src/server/req_runjob.c:913, update_job_finish_comment() in
 * src/server/svr_jobfunc.c:4923, NOT_RUN_PREFIX in src/scheduler/constant.h).
 *
 * What Sluice does not measure is left out rather than made up: no CPU
 * time in the listing (Time Use is "0", as qstat shows before the MOM's
 * first report), no session id (" -- "), and resources_used's cput, mem
 * and vmem only once the supervisor's figures are on the record (its end). */
#include "pbs_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pbs_array.h"
#include "pbs_env.h"
#include "pbs_job.h"
#include "pbs_reslist.h"
#include "slurm_pattern.h"
#include "xalloc.h"

#define BLANK " -- "

/* value cut to len, its last kept character '*' (trunc_value()). */
static void cut(char *dst, size_t size, const char *value, size_t len)
{
	size_t n = value ? strlen(value) : 0;

	if (n > size - 1)
		n = size - 1;
	memcpy(dst, value ? value : "", n);
	dst[n] = '\0';
	if (n > len && len > 0) {
		dst[len - 1] = '*';
		dst[len] = '\0';
	}
}

/* ---- values every layout shares ------------------------------------------ */

/* A queued job's start_time is its expected start (sluiced's plan, for
 * squeue --start): not a start. Nor is a job's that ended without ever
 * running (deleted while queued): Slurm's StartTime is then its end, but
 * OpenPBS sets stime only when a job runs (req_runjob.c), so such a
 * job has none (RADICAL-SAGA's PBS Pro adaptor reads stime as its start). */
static int64_t started_at(const struct sl_job *j)
{
	if (j->state == SL_JOB_PENDING)
		return 0;
	if (sl_jobstate_is_final(j->state) && !sl_pbs_is_array(j) && /* arrays run nowhere */
	    (j->nodelist == NULL || j->nodelist[0] == '\0'))
		return 0;
	return j->start_time;
}

static int64_t walltime_used(const struct sl_job *j, int64_t now)
{
	if (started_at(j) <= 0)
		return -1;
	return (j->end_time > 0 ? j->end_time : now) - j->start_time;
}

static int ran(const struct sl_job *j)
{
	return started_at(j) > 0 && j->nodelist != NULL;
}

void sl_pbs_comment(const struct sl_job *j, char *buf, size_t len)
{
	char when[64];
	char *vnode;
	const char *end = "";

	buf[0] = '\0';
	/* a dependency's system hold and a begin time are not the scheduler's
	 * to comment on (it looks only at queued jobs): depend and
	 * Execution_Time say why */
	if (j->state == SL_JOB_PENDING && !j->spec.hold && strchr("HW", sl_pbs_state(j)))
		return;
	if (j->state == SL_JOB_PENDING) {
		if (j->spec.hold)
			snprintf(buf, len, "Job held: %s hold", *sl_pbs_hold_types(j) == 'o'
								? "operator" : "user");
		else if (j->reason && strcmp(j->reason, "JobArrayTaskLimit") == 0)
			/* max_run_subjobs: the scheduler's words (job_info.cpp:402) */
			snprintf(buf, len, "Not Running: Number of concurrent running subjobs "
				 "limit reached");
		else
			snprintf(buf, len, "Not Running: %s",
				 j->reason_text && *j->reason_text ? j->reason_text
				 : j->reason && strcmp(j->reason, "None") != 0 ? j->reason
				 : "waiting to be admitted");
		return;
	}
	time_t t = (time_t)j->start_time;
	struct tm tm;
	strftime(when, sizeof(when), "%a %b %d at %H:%M", localtime_r(&t, &tm));
	if (sl_pbs_is_array(j) && j->start_time > 0) { /* req_runjob.c:1169 */
		snprintf(buf, len, "Job Array Began at %s", when);
		return;
	}
	if (!ran(j))
		return; /* ended before it ran: PBS's server leaves no comment */
	switch (j->state) {
	case SL_JOB_COMPLETED: end = " and finished"; break;
	case SL_JOB_TIMEOUT: end = " and exceeded resource walltime"; break;
	case SL_JOB_OUT_OF_MEMORY: end = " and exceeded resource mem"; break;
	case SL_JOB_CANCELLED: end = " and terminated"; break;
	case SL_JOB_FAILED:
	case SL_JOB_NODE_FAIL:
	case SL_JOB_BOOT_FAIL:
	case SL_JOB_PREEMPTED: end = " and failed"; break;
	default: break;
	}
	vnode = sl_pbs_exec_host(j, 1);
	snprintf(buf, len, "Job run at %s on %s%s", when, vnode, end);
	free(vnode);
}

/* ---- the default table --------------------------------------------------- */

/* -p's "% done" (percent_cal(), qstat.c:1293): "-- " for a job that has
 * not run, 100 for an ended subjob, an array's expired share of its
 * subjobs, else walltime used over walltime asked (Sluice has no CPU time
 * to weigh); a number is followed by a blank. */
static void percent(const struct sl_job *j, int64_t now, char *buf, size_t len)
{
	char st = sl_pbs_state(j);
	int q = 0, r = 0, e = 0, x = 0;
	int64_t used = walltime_used(j, now);

	snprintf(buf, len, "%3s", "-- ");
	if (strchr("QTW", st))
		return;
	if (st == 'X') {
		snprintf(buf, len, "%3s", "100");
	} else if (sl_pbs_is_array(j) && j->array_tasks &&
		   sscanf(j->array_tasks, "Queued:%d Running:%d Exiting:%d Expired:%d", &q, &r, &e,
			  &x) == 4 && q + r + e + x > 0) {
		snprintf(buf, len, "%3ld ", (long)x * 100 / (q + r + e + x));
	} else if (!sl_pbs_is_array(j) && sl_jobspec_limit_secs(&j->spec) > 0 && used >= 0) {
		snprintf(buf, len, "%3lld ",
			 (long long)(used * 100 / sl_jobspec_limit_secs(&j->spec)));
	}
}

/* The header: Time Use, or -p's "% done" (qstat.c:1397-1418). */
static void default_header(struct sl_buf *b, const struct sl_pbs_view *v)
{
	if (v->wide)
		sl_buf_addf(b, "Job id                         Name            User             %s S "
			       "Queue\n-----------------------------  --------------- ---------------  "
			       "-------- - ---------------\n", v->percent ? " % done " : "Time Use");
	else
		sl_buf_addf(b, "Job id            Name             User              %s S Queue\n"
			       "----------------  ---------------- ----------------  -------- - -----\n",
			    v->percent ? " % done " : "Time Use");
}

/* -w: SIZEJOBID_W 30, SIZEJOBNAME_W 15, SIZEUSER_W 15, PBS_MAXQUEUENAME 15 */
int sl_qstat_default(struct sl_buf *b, const struct sl_pbs_view *v, struct sl_job *const *jobs,
		     size_t n, int header)
{
	size_t wid = v->wide ? 30 : 17, wname = v->wide ? 15 : 16, wuser = v->wide ? 15 : 16;

	if (header && n > 0)
		default_header(b, v);
	for (size_t i = 0; i < n; i++) {
		const struct sl_job *j = jobs[i];
		char id[128], idt[40], name[32], user[32], queue[32], used[32] = "0", nbuf[288];
		const char *nm = sl_pbs_job_name(j, nbuf, sizeof(nbuf));
		const char *dot;

		/* the id as far as the server name's first label */
		sl_pbs_idstr(j, v->server, id, sizeof(id));
		if ((dot = strchr(id, '.')) && (dot = strchr(dot + 1, '.')))
			id[dot - id] = '\0';
		cut(idt, sizeof(idt), id, wid);
		if (strlen(nm) >= wname) /* a name as long as the column is cut too */
			snprintf(name, sizeof(name), "%.*s*", (int)wname - 1, nm);
		else
			snprintf(name, sizeof(name), "%s", nm);
		cut(user, sizeof(user), j->user, wuser);
		cut(queue, sizeof(queue), j->spec.partition, v->wide ? 15 : 16);
		if (v->percent)
			percent(j, v->now, used, sizeof(used));
		if (sl_buf_addf(b, "%-*s %-*s %-*s  %8s %c %-*s\n", (int)wid, idt, (int)wname, name,
				(int)wuser, user, used, sl_pbs_state(j), v->wide ? 15 : 16, queue) != 0)
			return -SL_ETOOBIG;
	}
	return 0;
}

/* ---- the alternate table ------------------------------------------------- */

/* cnv_size(): a size to at most four digits, its magnitude raised. */
static void cnv_size(int64_t mib, char *out, size_t len)
{
	static const char suffix[] = " kmgtp?";
	unsigned long long v = (unsigned long long)mib;
	int mag = 2;

	while (mag < 4 && v % 1024 == 0 && v > 0) { /* as the size was written */
		v /= 1024;
		mag++;
	}
	while (v > 9999) {
		v = (v + 1023) >> 10;
		mag++;
	}
	snprintf(out, len, "%llu%cb", v, suffix[mag < 6 ? mag : 6]);
}

static void alt_header(struct sl_buf *b, const struct sl_pbs_view *v)
{
	sl_buf_addf(b, "\n%s: ", v->server);
	if (v->wide) {
		sl_buf_addf(b, "\n%*s %*s %*s %*s %*s %*s %*s Req'd  Req'd   Elap\n", 30, "", 15, "",
			    15, "", 15, "", 8, "", 4, "", 5, "");
		sl_buf_addf(b, "%-30s %-15s %-15s %-15s %-8s %-4s %-5s Memory Time  S Time\n",
			    "Job ID", "Username", "Queue", "Jobname", "SessID", "NDS", "TSK");
		sl_buf_addstr(b, "------------------------------ --------------- --------------- "
				 "--------------- -------- ---- ----- ------ ----- - -----\n");
		return;
	}
	sl_buf_addf(b, "\n%60s%-7s%-8s%s\n", " ", "Req'd", "Req'd", "Elap");
	sl_buf_addstr(b, "Job ID          Username Queue    Jobname    SessID NDS TSK Memory Time  S Time\n"
			 "--------------- -------- -------- ---------- ------ --- --- ------ ----- - -----\n");
}

/* prt_nodes(): the hosts, domain cut, "+" between, under the job. */
static void alt_nodes(struct sl_buf *b, const struct sl_job *j, int one_line)
{
	char *hosts = ran(j) && j->state != SL_JOB_PENDING ? sl_pbs_exec_host(j, 0) : sl_xstrdup(BLANK);

	sl_buf_addf(b, one_line ? "%s\n" : "   %s\n", hosts);
	free(hosts);
}

static void alt_comment(struct sl_buf *b, const struct sl_job *j, int wide)
{
	char c[1024];
	size_t keep = wide ? 111 : 71, scope = wide ? 114 : 74; /* COMMENTLEN_*, pbs_share.h */

	sl_pbs_comment(j, c, sizeof(c));
	if (c[0] == '\0')
		snprintf(c, sizeof(c), "%s", BLANK);
	else if (strlen(c) > scope)
		snprintf(c + keep, sizeof(c) - keep, "...");
	sl_buf_addf(b, "   %s\n", c);
}

int sl_qstat_alt(struct sl_buf *b, const struct sl_pbs_view *v, struct sl_job *const *jobs,
		 size_t n, int header)
{
	if (header && n > 0)
		alt_header(b, v);
	for (size_t i = 0; i < n; i++) {
		const struct sl_job *j = jobs[i];
		struct sl_pbs_shape sh;
		char id[160], user[32], queue[32], name[32], nds[16], tsk[16], mem[16] = BLANK,
			rq[16] = BLANK, el[16] = BLANK, full[128], nbuf[288];
		int64_t used = walltime_used(j, v->now);
		int w = v->wide;

		sl_pbs_shape_of(j, &sh);
		sl_pbs_idstr(j, v->server, full, sizeof(full));
		cut(id, sizeof(id), full, w ? 30 : 15);
		cut(user, sizeof(user), j->user, w ? 15 : 8);
		cut(queue, sizeof(queue), j->spec.partition, w ? 15 : 8);
		cut(name, sizeof(name), sl_pbs_job_name(j, nbuf, sizeof(nbuf)), w ? 15 : 10);
		snprintf(nds, sizeof(nds), "%d", sh.nodect);
		snprintf(tsk, sizeof(tsk), "%d", sh.ncpus);
		if (sh.mem_mib > 0)
			cnv_size(sh.mem_mib, mem, sizeof(mem));
		if (sl_jobspec_limit_secs(&j->spec) > 0) /* to the second, as PBS keeps it */
			sl_pbs_fmt_duration(sl_jobspec_limit_secs(&j->spec), rq, sizeof(rq));
		if (used >= 0)
			sl_pbs_fmt_duration(used, el, sizeof(el));
		if (w)
			sl_buf_addf(b, "%-30.30s %-15.15s %-15.15s %-15.15s %8.8s %4.4s %5.5s ", id,
				    user, queue, name, BLANK, nds, tsk);
		else
			sl_buf_addf(b, "%-15.15s %-8.8s %-8.8s %-10.10s %6.6s %3.3s %3.3s ", id, user,
				    queue, name, BLANK, nds, tsk);
		sl_buf_addf(b, "%6.6s %5.5s %c %5.5s", mem, rq, sl_pbs_state(j), el);
		sl_buf_addstr(b, v->one_line ? " " : "\n");
		if (v->nodes)
			alt_nodes(b, j, v->one_line);
		if (v->comments)
			alt_comment(b, j, w);
		if (v->one_line && !v->nodes && !v->comments && sl_buf_addc(b, '\n') != 0)
			return -SL_ETOOBIG;
	}
	return 0;
}

/* ---- qstat -f ------------------------------------------------------------ */

static void attr(struct sl_pbs_out *o, const char *name, const char *res, const char *value)
{
	sl_pbs_out_attr(o, name, res, value);
}

static void attr_num(struct sl_pbs_out *o, const char *name, const char *res, long long v)
{
	char s[32];
	snprintf(s, sizeof(s), "%lld", v);
	attr(o, name, res, s);
}

static void attr_time(struct sl_pbs_out *o, const char *name, int64_t t)
{
	char s[64];
	if (t <= 0)
		return;
	sl_pbs_fmt_ctime(t, s, sizeof(s));
	attr(o, name, NULL, s);
}

/* Output_Path/Error_Path: "host:path", the path as the job writes it. */
static void attr_path(struct sl_pbs_out *o, const char *name, const struct sl_job *j,
		      const char *pattern)
{
	struct sl_pattern_ctx c = {
		.job_id = j->id, .array_task_id = SL_PATTERN_NO_TASK, .job_name = j->spec.name,
		.user = j->user, .host = j->spec.submit_host, .work_dir = j->spec.work_dir,
	};
	char *pat = sl_xstrdup(pattern ? pattern : "slurm-%j.out"), *a, *path, *v;

	if (sl_pbs_is_array(j)) {
		/* the array job's path keeps PBS's tag for the index */
		c.array_job_id = j->id;
		c.array_task_id = 0;
		while ((a = strstr(pat, "%a")) != NULL && (a == pat || a[-1] != '%')) {
			char *t = sl_xasprintf("%.*s^array_index^%s", (int)(a - pat), pat, a + 2);
			free(pat);
			pat = t;
		}
	} else if (j->array_job_id != 0) {
		c.array_job_id = j->array_job_id;
		c.array_task_id = (uint32_t)j->array_task_id;
	}
	path = sl_slurm_pattern_expand(pat, &c);
	v = sl_xasprintf("%s:%s", j->spec.submit_host ? j->spec.submit_host : "", path);
	attr(o, name, NULL, v);
	free(v);
	free(path);
	free(pat);
}

/* attr()'s for one resource list: Resource_List, resources_used. */
struct resc_put {
	struct sl_pbs_out *o;
	const char *name;
};

static void put_resc(void *arg, const char *res, const char *value)
{
	const struct resc_put *p = arg;

	attr(p->o, p->name, res, value);
}

/* In OpenPBS's order, what qsub kept over what the shape says
 * (pbs_reslist.h). */
static void attr_resources(struct sl_pbs_out *o, const struct sl_job *j)
{
	struct sl_pbs_resc *v;
	size_t n = sl_pbs_reslist(j, &v);

	for (size_t i = 0; i < n; i++)
		attr(o, "Resource_List", v[i].name, v[i].value);
	sl_pbs_reslist_free(v, n);
}

/* A dependency's id in PBS's words: Slurm's "N_*" (a whole array) is
 * "N[]", "N_I" (a task) "N[I]". Caller frees. */
static char *depend_id(const char *slurm)
{
	const char *u = strchr(slurm, '_');

	if (u == NULL)
		return sl_xstrdup(slurm);
	return sl_xasprintf("%.*s[%s]", (int)(u - slurm), slurm, strcmp(u + 1, "*") ? u + 1 : "");
}

/* depend: what the job still waits for, PBS's way: "TYPE:ID.server@server",
 * a type's jobs joined by ':' and types by ','. Read from the job's list
 * as scontrol prints it ("afterok:12(unfulfilled),afterok:13(...)"). */
static void attr_depend(struct sl_pbs_out *o, const struct sl_job *j, const char *server)
{
	char *copy, *save = NULL, *term, *id, prev[32] = "";
	struct sl_buf *b;

	if (j->dependency == NULL || j->dependency[0] == '\0')
		return;
	copy = sl_xstrdup(j->dependency);
	b = sl_buf_new(1 << 20);
	for (term = strtok_r(copy, ",?", &save); term; term = strtok_r(NULL, ",?", &save)) {
		char *colon = strchr(term, ':');
		term[strcspn(term, "(+")] = '\0'; /* the state, "+MIN" */
		if (colon == NULL) { /* singleton */
			sl_buf_addf(b, "%s%s", sl_buf_len(b) ? "," : "", term);
			prev[0] = '\0';
			continue;
		}
		*colon = '\0';
		id = depend_id(colon + 1);
		if (strcmp(prev, term) == 0)
			sl_buf_addf(b, ":%s.%s@%s", id, server, server);
		else
			sl_buf_addf(b, "%s%s:%s.%s@%s", sl_buf_len(b) ? "," : "", term, id, server,
				    server);
		free(id);
		snprintf(prev, sizeof(prev), "%s", term);
	}
	attr(o, "depend", NULL, sl_buf_str(b));
	sl_buf_free(b);
	free(copy);
}

static void attr_started(struct sl_pbs_out *o, const struct sl_job *j)
{
	char *h;

	if (!ran(j))
		return;
	h = sl_pbs_exec_host(j, 0);
	attr(o, "exec_host", NULL, h);
	free(h);
	h = sl_pbs_exec_host(j, 1);
	attr(o, "exec_vnode", NULL, h);
	free(h);
}

/* An array job's attributes (array, array_indices_submitted: -J's range
 * without its %N, which is max_run_subjobs; _remaining and
 * array_state_count from its subjobs) or a subjob's (array_id,
 * array_index), as src/include/pbs_ifl.h:69-177 names them. */
static void attr_array(struct sl_pbs_out *o, const struct sl_pbs_view *v, const struct sl_job *j)
{
	char tmp[160];

	if (sl_pbs_is_array(j)) {
		char *sub = sl_xstrndup(j->spec.array, strcspn(j->spec.array, "%"));
		attr(o, "array", NULL, "True");
		attr(o, "array_indices_submitted", NULL, sub);
		if (v->arr_remaining)
			attr(o, "array_indices_remaining", NULL, v->arr_remaining);
		if (j->array_tasks)
			attr(o, "array_state_count", NULL, j->array_tasks);
		if (j->array_throttle > 0)
			attr_num(o, "max_run_subjobs", NULL, j->array_throttle);
		if (sl_jobstate_is_final(j->state))
			attr_num(o, "Exit_status", NULL, j->exit_code);
		free(sub);
	} else if (j->array_job_id != 0) {
		snprintf(tmp, sizeof(tmp), "%llu[].%s", (unsigned long long)j->array_job_id, v->server);
		attr(o, "array_id", NULL, tmp);
		attr_num(o, "array_index", NULL, j->array_task_id);
	}
}

int sl_qstat_full(struct sl_pbs_out *o, const struct sl_pbs_view *v, const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	char tmp[1024], state[2] = {sl_pbs_state(j), '\0'}, *vlist;
	int64_t used = walltime_used(j, v->now);
	int prio = -s->nice;

	sl_pbs_idstr(j, v->server, tmp, sizeof(tmp));
	sl_pbs_out_begin(o, "Job Id", tmp);
	attr(o, "Job_Name", NULL, sl_pbs_job_name(j, tmp, sizeof(tmp)));
	snprintf(tmp, sizeof(tmp), "%s@%s", j->user ? j->user : "", s->submit_host ? s->submit_host : "");
	attr(o, "Job_Owner", NULL, tmp);
	if (used >= 0 && ran(j))
		sl_pbs_resources_used(j, used, put_resc, &(struct resc_put){o, "resources_used"});
	attr(o, "job_state", NULL, state);
	attr(o, "queue", NULL, s->partition);
	attr(o, "server", NULL, v->server);
	attr(o, "Account_Name", NULL, s->account);
	attr(o, "Checkpoint", NULL, "u");
	attr_time(o, "ctime", j->submit_time);
	attr_depend(o, j, v->server);
	if (s->std_err == NULL && s->pbs && s->submit_dir) {
		/* joined (-j oe): the error file it would have had */
		snprintf(tmp, sizeof(tmp), "%s/%s.e%s", s->submit_dir, s->name ? s->name : "",
			 s->array == NULL ? "%j" : s->torque_array ? "%A-%a" : "%A.%a");
		attr_path(o, "Error_Path", j, tmp);
	} else {
		attr_path(o, "Error_Path", j, s->std_err ? s->std_err : s->std_out);
	}
	attr_started(o, j);
	if (j->state == SL_JOB_PENDING)
		attr_time(o, "Execution_Time", s->begin_time);
	attr(o, "Hold_Types", NULL, sl_pbs_hold_types(j));
	attr(o, "Join_Path", NULL, s->std_err ? "n" : "oe");
	attr(o, "Keep_Files", NULL, "n");
	snprintf(tmp, sizeof(tmp), "%s%s%s%s", s->mail_type & SL_MAIL_FAIL ? "a" : "",
		 s->mail_type & SL_MAIL_BEGIN ? "b" : "", s->mail_type & SL_MAIL_END ? "e" : "",
		 s->mail_type & SL_MAIL_ARRAY_TASKS ? "j" : "");
	attr(o, "Mail_Points", NULL, tmp[0] ? tmp : "n");
	if (s->mail_user && s->mail_type)
		attr(o, "Mail_Users", NULL, s->mail_user);
	attr_time(o, "mtime", j->end_time > 0 ? j->end_time : started_at(j) > 0 ? j->start_time
								  : j->submit_time);
	attr_path(o, "Output_Path", j, s->std_out);
	attr_num(o, "Priority", NULL, prio < -1024 ? -1024 : prio > 1023 ? 1023 : prio);
	attr_time(o, "qtime", j->submit_time);
	attr(o, "Rerunable", NULL, s->requeue ? "True" : "False");
	attr_resources(o, j);
	attr_time(o, "stime", started_at(j));
	if (sl_jobstate_is_final(j->state))
		attr_time(o, "obittime", j->end_time);
	attr_num(o, "substate", NULL, sl_pbs_substate(j));
	vlist = sl_pbs_variable_list(j);
	attr(o, "Variable_List", NULL, vlist);
	free(vlist);
	attr(o, "euser", NULL, j->user);
	attr(o, "egroup", NULL, j->group);
	sl_pbs_comment(j, tmp, sizeof(tmp));
	if (tmp[0])
		attr(o, "comment", NULL, tmp);
	attr_time(o, "etime", j->eligible_time > 0 ? j->eligible_time : j->submit_time);
	snprintf(tmp, sizeof(tmp), "%o", (unsigned)s->umask);
	attr(o, "umask", NULL, tmp);
	if (ran(j))
		attr_num(o, "run_count", NULL, j->attempt + 1);
	if (sl_jobstate_is_final(j->state) && ran(j))
		attr_num(o, "Exit_status", NULL, sl_pbs_exit_status(j));
	attr(o, "project", NULL, s->wckey && *s->wckey ? s->wckey : "_pbs_project_default");
	attr(o, "Submit_Host", NULL, s->submit_host);
	attr_array(o, v, j);
	sl_pbs_out_end(o);
	return 0;
}

/* ---- counts --------------------------------------------------------------- */

void sl_pbs_count(struct sl_pbs_counts *c, const struct sl_job *j)
{
	switch (sl_pbs_state(j)) {
	case 'Q': c->queued++; break;
	case 'H': c->held++; break;
	case 'W': c->waiting++; break;
	case 'R': c->running++; break;
	case 'E': c->exiting++; break;
	case 'B': c->begun++; break;
	default: return;
	}
	c->total++;
}
