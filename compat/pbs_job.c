/* pbs_job.c - a job in PBS's words: ids, states, error numbers and texts,
 * and the value formats of qstat. Facts from OpenPBS: error numbers
 * src/include/pbs_error.h, texts src/lib/Liblog/pbs_messages.c (lines
 * 182-291), states and substates src/include/job.h, the id "seq.server"
 * src/lib/Libcmds/get_server.c, durations encode_time() in
 * src/lib/Libattr/attr_fn_time.c, sizes encode_size() in attr_fn_size.c;
 * the resource lists and exit status qstat -f shows and the accounting
 * records carry (tracejob's). */
#include "pbs_job.h"

#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "config.h"
#include "hostlist.h"
#include "pbs_array.h"
#include "xalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

static const struct {
	int e;
	const char *text;
} pbse_texts[] = {
	{SL_PBSE_UNKJOBID, "Unknown Job Id"},
	{SL_PBSE_IVALREQ, "Invalid request"},
	{SL_PBSE_PERM, "Unauthorized Request "},
	{SL_PBSE_UNKSIG, "Unknown/illegal signal name"},
	{SL_PBSE_BADATVAL, "Illegal attribute or resource value"},
	{SL_PBSE_MODATRRUN, "Cannot modify attribute while job running "},
	{SL_PBSE_BADSTATE, "Request invalid for state of job"},
	{SL_PBSE_UNKQUE, "Unknown queue"},
	{SL_PBSE_QUNOENB, "Queue is not enabled"},
	{SL_PBSE_UNKNODE, "Unknown node "},
	{SL_PBSE_NOSUP, "No support for requested service"},
	{SL_PBSE_EXCQRESC, "Job violates queue and/or server resource limits"},
	{SL_PBSE_UNKRESC, "Unknown resource"},
	{SL_PBSE_BADACCT, "Invalid Account"},
	{SL_PBSE_BADDEPEND, "Invalid Job Dependency"},
	{SL_PBSE_INVALSELECTRESC, "Resource invalid in \"select\" specification"},
	{SL_PBSE_INVALJOBRESC,
	 "\"-lresource=\" cannot be used with \"select\" or \"place\", resource is"},
	{SL_PBSE_HISTJOBID, "Job has finished"},
	{SL_PBSE_MAXARRAYSIZE, "Array job exceeds server or queue size limit"},
};

int sl_pbse_status(int e)
{
	return e & 0xff;
}

const char *sl_pbse_text(int e)
{
	for (size_t i = 0; i < sizeof(pbse_texts) / sizeof(pbse_texts[0]); i++)
		if (pbse_texts[i].e == e)
			return pbse_texts[i].text;
	return "Error";
}

int sl_pbse_of(int code)
{
	switch (code < 0 ? -code : code) {
	case SL_ENOENT: return SL_PBSE_UNKJOBID;
	case SL_EPERM: return SL_PBSE_PERM;
	case SL_EPARTITION: return SL_PBSE_UNKQUE;
	case SL_EACCOUNT: return SL_PBSE_BADACCT;
	case SL_ENOFIT: return SL_PBSE_EXCQRESC;
	case SL_ECONNECT: return SL_PBSE_SYSTEM;
	case SL_EDEPEND: return SL_PBSE_BADDEPEND;
	case SL_EPARTUNAVAIL: return SL_PBSE_QUNOENB; /* drained or inactive */
	default: return 0;
	}
}

void sl_pbs_version_exit(int argc, char *const *argv)
{
	if (argc == 2 && strcasecmp(argv[1], "--version") == 0) {
		printf("pbs_version = %s (Sluice)\n", PACKAGE_VERSION);
		exit(fflush(stdout) == 0 ? 0 : 1);
	}
}

char *sl_pbs_jobid(uint64_t id, const char *server)
{
	return sl_xasprintf("%llu.%s", (unsigned long long)id, server);
}

static size_t first_label(const char *s)
{
	return strcspn(s, ".");
}

int sl_pbs_parse_jobid(const char *s, const char *server, uint64_t *id)
{
	const char *p = s, *dot;
	unsigned long long v = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (*p != '\0' && *p != '.')
		return -1; /* "12[]", "12x": not a plain job id */
	*id = v;
	if (*p == '\0')
		return 0;
	dot = p + 1;
	if (*dot == '\0')
		return -1;
	if (first_label(dot) != first_label(server) ||
	    strncmp(dot, server, first_label(dot)) != 0)
		return 1;
	return 0;
}

int sl_pbs_operand(const char *op, const char *server, uint64_t *id, char **shown)
{
	int k = sl_pbs_parse_jobid(op, server, id);

	*shown = k == 0 && strchr(op, '.') == NULL ? sl_pbs_jobid(*id, server) : sl_xstrdup(op);
	return k;
}

static int digits(const char **p, unsigned long long cap, unsigned long long *v)
{
	const char *s = *p;

	*v = 0;
	for (; isdigit((unsigned char)**p); (*p)++) {
		if (*v > (cap - 9) / 10)
			return -1;
		*v = *v * 10 + (unsigned)(**p - '0');
	}
	return *p == s ? -1 : 0;
}

/* The bracket of "N[...]": "" the array, "I" or "A-B" its subjobs. */
static int bracket(const char **p, struct sl_pbs_sel *sel)
{
	unsigned long long lo, hi;

	if (**p == ']') {
		sel->type = SL_PBS_SEL_ARRAY;
		(*p)++;
		return 0;
	}
	if (digits(p, UINT32_MAX, &lo) != 0)
		return -1;
	hi = lo;
	if (**p == '-' && ((*p)++, digits(p, UINT32_MAX, &hi) != 0 || hi < lo))
		return -1;
	if (**p != ']')
		return -1;
	(*p)++;
	sel->type = SL_PBS_SEL_SUBJOBS;
	sel->lo = (uint32_t)lo;
	sel->hi = (uint32_t)hi;
	return 0;
}

/* "ID@SERVER": the server to ask, as OpenPBS's get_server() splits it off
 * (qstat, qdel, ... of PBS 13, and Cylc's pbs_multi_cluster handler, send
 * "N.server@server"). Ours: the id without it; another's: 1. */
static int operand_at(const char *op, const char *at, const char *server,
		      struct sl_pbs_sel *sel, char **shown)
{
	char *id;
	int k;

	if (at == op || at[1] == '\0' || strchr(at + 1, '@') != NULL) {
		*shown = sl_xstrdup(op);
		return -1;
	}
	if (first_label(at + 1) != first_label(server) ||
	    strncmp(at + 1, server, first_label(server)) != 0) {
		*shown = sl_xstrdup(op);
		return 1;
	}
	id = sl_xstrndup(op, (size_t)(at - op));
	k = sl_pbs_operand_sel(id, server, sel, shown);
	free(id);
	return k;
}

int sl_pbs_operand_sel(const char *op, const char *server, struct sl_pbs_sel *sel,
		       char **shown)
{
	const char *p = op, *br = strchr(op, '['), *at = strchr(op, '@');
	unsigned long long v;
	int k;

	memset(sel, 0, sizeof(*sel));
	if (at != NULL)
		return operand_at(op, at, server, sel, shown);
	if (br == NULL)
		return sl_pbs_operand(op, server, &sel->id, shown);
	*shown = sl_xstrdup(op);
	if (digits(&p, UINT64_MAX, &v) != 0 || *p++ != '[' || bracket(&p, sel) != 0 ||
	    (*p != '\0' && (*p != '.' || p[1] == '\0')))
		return -1;
	sel->id = v;
	if (*p == '\0') {
		char *t = sl_xasprintf("%s.%s", op, server);
		free(*shown);
		*shown = t;
		return 0;
	}
	k = first_label(p + 1) == first_label(server) &&
	    strncmp(p + 1, server, first_label(server)) == 0;
	return k ? 0 : 1;
}

void sl_pbs_idstr(const struct sl_job *j, const char *server, char *buf, size_t len)
{
	if (sl_pbs_is_array(j))
		snprintf(buf, len, "%llu[].%s", (unsigned long long)j->id, server);
	else if (j->array_job_id != 0)
		snprintf(buf, len, "%llu[%d].%s", (unsigned long long)j->array_job_id,
			 j->array_task_id, server);
	else
		snprintf(buf, len, "%llu.%s", (unsigned long long)j->id, server);
}

const char *sl_pbs_job_name(const struct sl_job *j, char *buf, size_t len)
{
	const char *name = j->spec.name ? j->spec.name : "";

	if (!j->spec.torque_array || j->array_job_id == 0 || sl_pbs_is_array(j))
		return name;
	snprintf(buf, len, "%s-%d", name, j->array_task_id);
	return buf;
}

char *sl_pbs_array_jobid(uint64_t id, long index, const char *server)
{
	if (index < 0)
		return sl_xasprintf("%llu[].%s", (unsigned long long)id, server);
	return sl_xasprintf("%llu[%ld].%s", (unsigned long long)id, index, server);
}

static char *short_host(void)
{
	char h[256] = "";

	if (gethostname(h, sizeof(h) - 1) != 0 || h[0] == '\0')
		snprintf(h, sizeof(h), "localhost");
	h[strcspn(h, ".")] = '\0';
	return sl_xstrdup(h);
}

/* "head1.example.com:6820" -> "head1"; NULL for "[v6]:port". */
static char *host_of(const char *hostport)
{
	return hostport[0] == '[' ? NULL : sl_xstrndup(hostport, strcspn(hostport, ":."));
}

char *sl_pbs_server_name(void)
{
	const char *env = getenv("PBS_SERVER"), *conf = getenv("SLUICE_CONF");
	const char *server = getenv("SLUICE_SERVER");
	struct sl_conf_peek p;
	struct sl_err err = SL_ERR_INIT;
	char *path, *out = NULL;

	if (env != NULL && *env != '\0')
		return sl_xstrdup(env);
	path = conf && *conf ? sl_xstrdup(conf) : sl_xstrdup(SYSCONFDIR "/sluice/sluice.yaml");
	if (access(path, R_OK) == 0 && sl_conf_peek(path, &p, &err) == 0) {
		if (p.pbs_server != NULL) {
			out = p.pbs_server;
			p.pbs_server = NULL;
		} else if (p.controller != NULL && (server == NULL || *server == '\0')) {
			/* a login node: the daemon's host names the server */
			out = host_of(p.controller);
		}
		sl_conf_peek_clear(&p);
	}
	free(path);
	if (out == NULL && server != NULL && *server != '\0')
		out = host_of(server);
	return out ? out : short_host();
}

/* A pending job's wait as PBS tells it: a dependency is a system hold
 * (set_depend_hold(), src/server/req_register.c:1138), a begin time in
 * the future is W (JOB_SUBSTATE_WAITING). */
static int waits_on(const struct sl_job *j, const char *reason)
{
	return j->state == SL_JOB_PENDING && !j->spec.hold && j->reason &&
	       strncmp(j->reason, reason, strlen(reason)) == 0;
}

char sl_pbs_state(const struct sl_job *j)
{
	/* an array job that has begun is B, a subjob that ended X (expired;
	 * JOB_STATE_LTR_BEGUN, _EXPIRED: src/include/job.h:835, 846) */
	if (j->state == SL_JOB_RUNNING && sl_pbs_is_array(j))
		return 'B';
	if (j->array_job_id != 0 && !sl_pbs_is_array(j) && sl_jobstate_is_final(j->state))
		return 'X';
	switch (j->state) {
	case SL_JOB_PENDING:
		return j->spec.hold || waits_on(j, "Dependency") ? 'H'
		       : waits_on(j, "BeginTime") ? 'W' : 'Q';
	case SL_JOB_RUNNING:
	case SL_JOB_CONFIGURING: return 'R';
	case SL_JOB_COMPLETING: return 'E';
	default: return 'F';
	}
}

int sl_pbs_substate(const struct sl_job *j)
{
	/* JOB_SUBSTATE_QUEUED 10, HELD 20, DEPNHOLD 22, WAITING 30, RUNNING
	 * 42, EXITING 50, TERMINATED 91, FINISHED 92, FAILED 93 */
	if (j->state == SL_JOB_RUNNING && sl_pbs_is_array(j))
		return 70; /* JOB_SUBSTATE_BEGUN */
	switch (j->state) {
	case SL_JOB_PENDING:
		return j->spec.hold ? 20 : waits_on(j, "Dependency") ? 22
		       : waits_on(j, "BeginTime") ? 30 : 10;
	case SL_JOB_RUNNING:
	case SL_JOB_CONFIGURING: return 42;
	case SL_JOB_COMPLETING: return 50;
	case SL_JOB_COMPLETED: return 92;
	case SL_JOB_CANCELLED: return 91;
	default: return 93;
	}
}

const char *sl_pbs_hold_types(const struct sl_job *j)
{
	if (waits_on(j, "Dependency"))
		return "s";
	if (j->state != SL_JOB_PENDING || !j->spec.hold)
		return "n";
	return j->reason && strcmp(j->reason, "JobHeldAdmin") == 0 ? "o" : "u";
}

void sl_pbs_fmt_duration(int64_t s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	snprintf(buf, len, "%02lld:%02lld:%02lld", (long long)(s / 3600),
		 (long long)(s % 3600 / 60), (long long)(s % 60));
}

void sl_pbs_fmt_ctime(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	char tmp[64];

	if (ctime_r(&tt, tmp) == NULL)
		snprintf(tmp, sizeof(tmp), "%lld\n", (long long)t);
	tmp[strcspn(tmp, "\n")] = '\0';
	snprintf(buf, len, "%s", tmp);
}

void sl_pbs_fmt_mib(int64_t mib, char *buf, size_t len)
{
	if (mib > 0 && mib % (1024 * 1024) == 0)
		snprintf(buf, len, "%lldtb", (long long)(mib / (1024 * 1024)));
	else if (mib > 0 && mib % 1024 == 0)
		snprintf(buf, len, "%lldgb", (long long)(mib / 1024));
	else
		snprintf(buf, len, "%lldmb", (long long)mib);
}

void sl_pbs_shape_of(const struct sl_job *j, struct sl_pbs_shape *o)
{
	struct sl_jobshape sh;
	char mem[32] = "", gpus[32] = "", procs[32] = "", threads[32] = "";
	int per_node;

	sl_job_shape(j, &sh);
	memset(o, 0, sizeof(*o));
	per_node = sh.cpus_per_node > 0 ? sh.cpus_per_node : 1;
	o->nodect = sh.nodes;
	o->ncpus = per_node * sh.nodes;
	o->ngpus = sh.gpus_per_node > 0 ? sh.gpus_per_node * sh.nodes : 0;
	o->mem_mib = sh.mem_per_node > 0 ? sh.mem_per_node * sh.nodes : 0;
	if (sh.tasks_per_node > 1) {
		snprintf(procs, sizeof(procs), ":mpiprocs=%d", sh.tasks_per_node);
		o->mpiprocs = sh.tasks_per_node * sh.nodes;
	}
	if (sh.mem_per_node > 0) {
		char m[24];
		sl_pbs_fmt_mib(sh.mem_per_node, m, sizeof(m));
		snprintf(mem, sizeof(mem), ":mem=%s", m);
	}
	if (sh.gpus_per_node > 0)
		snprintf(gpus, sizeof(gpus), ":ngpus=%d", sh.gpus_per_node);
	if (j->spec.omp_threads >= 0) /* in the chunk alone: it is no RASSN sum */
		snprintf(threads, sizeof(threads), ":ompthreads=%d", j->spec.omp_threads);
	snprintf(o->select, sizeof(o->select), "%d:ncpus=%d%s%s%s%s", sh.nodes, per_node, mem,
		 gpus, procs, threads);
}

/* ---- values of qstat -f and of the accounting records -------------------- */

char *sl_pbs_exec_host(const struct sl_job *j, int vnode)
{
	struct sl_pbs_shape sh;
	char **names = NULL, *out = sl_xstrdup("");
	size_t n = 0;

	sl_pbs_shape_of(j, &sh);
	if (sl_hostlist_expand(j->nodelist, &names, &n, NULL) != 0)
		return out;
	for (size_t i = 0; i < n; i++) {
		char *t, mem[32] = "", gpus[32] = "";
		int cpus = sh.nodect > 0 ? sh.ncpus / sh.nodect : sh.ncpus;
		if (vnode && sh.mem_mib > 0)
			snprintf(mem, sizeof(mem), ":mem=%lldkb",
				 (long long)(sh.mem_mib / sh.nodect * 1024));
		if (vnode && sh.ngpus > 0)
			snprintf(gpus, sizeof(gpus), ":ngpus=%d", sh.ngpus / sh.nodect);
		if (vnode)
			t = sl_xasprintf("%s%s(%s:ncpus=%d%s%s)", out, i ? "+" : "", names[i], cpus,
					 mem, gpus);
		else
			t = sl_xasprintf("%s%s%s/0*%d", out, i ? "+" : "", names[i], cpus);
		free(out);
		out = t;
	}
	sl_strv_free(names);
	return out;
}

static void put_num(void (*fn)(void *, const char *, const char *), void *arg, const char *res,
		    long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	fn(arg, res, s);
}

/* In OpenPBS's order: add_resource_entry() keeps a job's resources sorted
 * by name. The select's RASSN resources (mem, mpiprocs, ncpus, ngpus) are
 * its chunks' sums (set_chunk_sum(), svr_jobfunc.c); ompthreads is none, so
 * only a job-wide -l ompthreads= is listed. */
void sl_pbs_resource_list(const struct sl_job *j, void (*fn)(void *, const char *, const char *),
			  void *arg)
{
	struct sl_pbs_shape sh;
	char s[64];

	sl_pbs_shape_of(j, &sh);
	if (sh.mem_mib > 0) {
		sl_pbs_fmt_mib(sh.mem_mib, s, sizeof(s));
		fn(arg, "mem", s);
	}
	if (sh.mpiprocs > 0)
		put_num(fn, arg, "mpiprocs", sh.mpiprocs);
	put_num(fn, arg, "ncpus", sh.ncpus);
	if (sh.ngpus > 0)
		put_num(fn, arg, "ngpus", sh.ngpus);
	put_num(fn, arg, "nodect", sh.nodect);
	if (j->spec.omp_threads_job && j->spec.omp_threads >= 0)
		put_num(fn, arg, "ompthreads", j->spec.omp_threads);
	/* what Sluice gave: each chunk its own node; excl with --exclusive */
	snprintf(s, sizeof(s), "%s%s", sh.nodect > 1 ? "scatter" : "free",
		 j->spec.shared == SL_SHARED_EXCLUSIVE ? ":excl" : "");
	fn(arg, "place", s);
	/* Torque's procs=N: qsub's tasks without nodes (procs_apply()) */
	if (j->spec.pbs && j->spec.nodes <= 0 && j->spec.ntasks > 0)
		put_num(fn, arg, "procs", j->spec.ntasks);
	fn(arg, "select", sh.select);
	if (sl_jobspec_limit_secs(&j->spec) > 0) {
		sl_pbs_fmt_duration(sl_jobspec_limit_secs(&j->spec), s, sizeof(s));
		fn(arg, "walltime", s);
	}
}

/* MOM's mom_set_use() figures in the server's order, once measured (the
 * supervisor's, kept when the job ends): cput, its share of the walltime
 * as cpupercent, mem and vmem at their peaks. */
void sl_pbs_resources_used(const struct sl_job *j, int64_t walltime,
			   void (*fn)(void *, const char *, const char *), void *arg)
{
	int64_t cpu = (j->user_usec + j->sys_usec) / 1000000;
	int measured = j->user_usec || j->sys_usec || j->max_rss || j->max_vmsize;
	char tmp[64];

	if (measured) {
		put_num(fn, arg, "cpupercent", walltime > 0 ? cpu * 100 / walltime : 0);
		sl_pbs_fmt_duration(cpu, tmp, sizeof(tmp));
		fn(arg, "cput", tmp);
		snprintf(tmp, sizeof(tmp), "%lldkb", (long long)j->max_rss);
		fn(arg, "mem", tmp);
	}
	put_num(fn, arg, "ncpus", j->alloc_cpus);
	if (measured) {
		snprintf(tmp, sizeof(tmp), "%lldkb", (long long)j->max_vmsize);
		fn(arg, "vmem", tmp);
	}
	sl_pbs_fmt_duration(walltime, tmp, sizeof(tmp));
	fn(arg, "walltime", tmp);
}

/* MOM's JOB_EXEC_KILL_WALLTIME (-29) and _MEM (-27) for its own kills; a
 * signal is 256 plus its number (src/include/job.h's JOB_EXEC_*). */
int sl_pbs_exit_status(const struct sl_job *j)
{
	return j->state == SL_JOB_TIMEOUT ? -29 : j->state == SL_JOB_OUT_OF_MEMORY ? -27
	       : j->exit_signal ? 256 + j->exit_signal : j->exit_code;
}
