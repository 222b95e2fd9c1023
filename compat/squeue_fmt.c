/* squeue_fmt.c - the squeue format-code table and its printers, and the
 * formats (-o and -O) rendered through them.
 *
 * Each row is {code, header, header_cut, printer}. A printer writes the
 * value into a buffer and says whether squeue would cut it to the column
 * width (it never cuts times and node lists, but does cut reasons). Values
 * with no Sluice counterpart print what Slurm prints for "unset", so
 * scripts that parse them keep working. -O names map onto these rows, or
 * onto their own (squeue_long.c). */
#include "script.h"
#include "squeue_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio.h"
#include "slurm_fmt.h"
#include "slurm_time.h"
#include "slurm_tres.h"
#include "squeue_cols.h"
#include "xalloc.h"

#define VAL_MAX 8192

typedef sl_squeue_print_fn printer_fn;
#define code_row sl_squeue_col

struct sl_squeue_fmt {
	struct sl_fmt *fmt;
	const struct code_row **rows; /* one per item; NULL: an -O name left out */
	char **skipped;               /* -O names left out, NULL-terminated */
	int *skipped_known;
	size_t n_skipped;
};

static const char *nz(const char *s)
{
	return s ? s : "(null)";
}

int64_t sl_squeue_time_used(const struct sl_job *j, int64_t now)
{
	return sl_job_run_secs(j, now);
}

static int shows_reason(const struct sl_job *j)
{
	switch (j->state) {
	case SL_JOB_PENDING:
	case SL_JOB_TIMEOUT:
	case SL_JOB_FAILED:
	case SL_JOB_OUT_OF_MEMORY:
		return 1;
	default:
		return 0;
	}
}

/* convert_num_unit(): "4000M", "1G", "1.50G". */
static void fmt_mem(int64_t mib, int unit, char *buf, size_t len)
{
	sl_slurm_mem_fmt(mib, unit, buf, len);
}

static struct sl_jobshape shape_of(const struct sl_job *j)
{
	struct sl_jobshape sh;

	sl_job_shape(j, &sh);
	return sh;
}

void sl_squeue_time_fmt(int64_t t, char *buf, size_t len)
{
	if (t == 0)
		snprintf(buf, len, "N/A");
	else
		sl_slurm_time_fmt_ts(t, buf, len);
}
#define fmt_time sl_squeue_time_fmt

/* snprintf(buf, len, "%s", s) and "%d" without printf's parsing: squeue
 * prints 10 000 lines of eight cells, and the format engine behind each
 * call was a sixth of its time. Same bytes, same cut at len - 1. */
static void put_s(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static void put_u(char *buf, size_t len, unsigned long long u, int neg)
{
	char num[24], *e = num + sizeof(num), *p = e;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (neg)
		*--p = '-';
	put_s(buf, len, p);
}

static void put_d(char *buf, size_t len, int v)
{
	put_u(buf, len, v < 0 ? 0 - (unsigned long long)(long long)v : (unsigned long long)v, v < 0);
}

/* ---- printers: return 1 when the value may be cut to the width ---- */
#define P(name) static int name(const struct sl_job *j, int64_t now, char *buf, size_t len)
#define S(expr) do { put_s(buf, len, (expr)); return 1; } while (0)
#define D(expr) do { put_d(buf, len, (expr)); return 1; } while (0)

/* %i: "N_I" for an array task, "N_[2-3%2]" for its collapsed pending
 * tasks, in squeue's 32-byte buffer (cut at 31 characters). */
P(p_jobid)
{
	char id[32];

	(void)now;
	if (j->array_job_id != 0)
		sl_job_id_text(j, id, sizeof(id));
	else /* most rows: no snprintf (squeue.sh's 10 000 jobs) */
		put_u(id, sizeof(id), (unsigned long long)j->id, 0);
	S(id);
}
/* %A: the raw id; collapsed pending tasks show the array's, as Slurm's
 * pending meta record does. */
P(p_rawid)
{
	(void)now;
	snprintf(buf, len, "%llu", (unsigned long long)sl_job_slurm_id(j));
	return 1;
}
P(p_arrayid)
{
	(void)now;
	snprintf(buf, len, "%llu", (unsigned long long)(j->array_job_id ? j->array_job_id : j->id));
	return 1;
}
P(p_task)
{
	(void)now;
	if (j->array_tasks != NULL)
		S(j->array_tasks);
	if (j->array_job_id != 0)
		D(j->array_task_id);
	S("N/A");
}
P(p_account) { (void)now; S(nz(j->spec.account)); }
P(p_partition) { (void)now; S(nz(j->spec.partition)); }
P(p_name) { (void)now; S(nz(j->spec.name)); }
P(p_qos) { (void)now; S(nz(j->spec.qos)); }
P(p_comment) { (void)now; S(nz(j->spec.comment)); }
P(p_null) { (void)j; (void)now; S("(null)"); }
P(p_wckey) { (void)now; S(j->spec.wckey ? j->spec.wckey : "(null)"); }
/* What it still waits for, as scontrol's Dependency= ("afterok:12(unfulfilled)"). */
P(p_dependency) { (void)now; S(j->dependency ? j->dependency : "(null)"); }
P(p_empty) { (void)j; (void)now; S(""); }
P(p_star) { (void)j; (void)now; S("*"); }
P(p_ok) { (void)j; (void)now; S("OK"); }
P(p_na) { (void)j; (void)now; S("N/A"); }
P(p_sct) { (void)j; (void)now; S("*:*:*"); }
P(p_state) { S(sl_jobstate_name(sl_job_shown_state(j, now))); }
P(p_state_compact) { S(sl_jobstate_code(sl_job_shown_state(j, now))); }
P(p_workdir) { (void)now; S(nz(j->spec.work_dir)); }
P(p_nice) { (void)now; D(j->spec.nice); }
P(p_uid) { (void)now; put_u(buf, len, (unsigned)j->uid, 0); return 1; }
P(p_gid) { (void)now; snprintf(buf, len, "%u", (unsigned)j->gid); return 1; }
P(p_prio_long) { (void)now; snprintf(buf, len, "%lld", (long long)sl_prio_slurm(j)); return 1; }
P(p_submit) { (void)now; fmt_time(j->submit_time, buf, len); return 1; }
P(p_start) { (void)now; fmt_time(j->start_time, buf, len); return 1; }
/* Past its limit, while its processes are ended: slurmctld's TimeLimit. */
P(p_reason) { S(sl_job_past_limit(j, now) ? "TimeLimit" : j->reason ? j->reason : "None"); }

/* %u and %g: the name, or the number without one. */
static int name_or_id(const char *name, unsigned id, char *buf, size_t len)
{
	if (name)
		put_s(buf, len, name);
	else
		put_u(buf, len, id, 0);
	return 1;
}

P(p_user) { (void)now; return name_or_id(j->user, (unsigned)j->uid, buf, len); }
P(p_group) { (void)now; return name_or_id(j->group, (unsigned)j->gid, buf, len); }

P(p_prio)
{
	(void)now;
	snprintf(buf, len, "%16.14f", (double)sl_prio_slurm(j) / (double)0xffffffffu);
	return 1;
}

P(p_time_used)
{
	sl_slurm_time_fmt_elapsed(sl_squeue_time_used(j, now), buf, len);
	return 0;
}

P(p_time_limit)
{
	(void)now;
	sl_slurm_time_fmt_limit(j->spec.time_limit, buf, len);
	return 0;
}

P(p_time_left)
{
	int64_t left;

	if (j->spec.time_limit < 0) {
		snprintf(buf, len, "UNLIMITED");
		return 1;
	}
	left = sl_jobspec_limit_secs(&j->spec) - sl_squeue_time_used(j, now);
	/* slurmctld ends a job past its limit, never at it: a TIMEOUT's is less */
	if (left < 0 || j->state == SL_JOB_TIMEOUT)
		snprintf(buf, len, "INVALID");
	else
		sl_slurm_time_fmt_elapsed(left, buf, len);
	return 0;
}

P(p_end)
{
	if (j->end_time != 0) {
		fmt_time(j->end_time, buf, len);
	} else if (j->start_time != 0 && j->spec.time_limit >= 0) {
		fmt_time(j->start_time + sl_jobspec_limit_secs(&j->spec), buf, len);
	} else if (j->start_time != 0 && !sl_jobstate_is_final(j->state)) {
		snprintf(buf, len, "NONE");
	} else {
		snprintf(buf, len, "N/A");
	}
	(void)now;
	return 1;
}

P(p_nodes) /* a pending job's as slurmctld packs it (sl_jobspec_nodes_shown) */
{
	struct sl_jobshape sh = shape_of(j);
	(void)now;
	D(sl_job_nodes_shown(j, &sh));
}
P(p_min_cpus) /* pn_min_cpus, as scontrol's MinCPUsNode */
{
	struct sl_jobshape sh = shape_of(j);
	(void)now;
	D(sl_jobspec_min_cpus_node(&j->spec, &sh));
}

P(p_cpus)
{
	struct sl_jobshape sh = shape_of(j);
	(void)now;
	D(j->alloc_cpus > 0 ? j->alloc_cpus : sh.cpus_per_node * sh.nodes);
}

static int min_mem(const struct sl_job *j, int unit, char *buf, size_t len)
{
	if (j->spec.mem_per_node > 0 && !j->spec.mem_all) /* --mem=0: 0, as asked */
		fmt_mem(j->spec.mem_per_node, unit, buf, len);
	else if (j->spec.mem_per_cpu > 0)
		fmt_mem(j->spec.mem_per_cpu, unit, buf, len);
	else
		snprintf(buf, len, "0");
	return 1;
}

static int min_tmp(const struct sl_job *j, int unit, char *buf, size_t len)
{
	if (j->spec.tmp_mb > 0)
		fmt_mem(j->spec.tmp_mb, unit, buf, len);
	else
		snprintf(buf, len, "0");
	return 1;
}

P(p_min_mem) { (void)now; return min_mem(j, 0, buf, len); }
P(p_min_mem_raw) { (void)now; return min_mem(j, '-', buf, len); }
P(p_min_tmp) { (void)now; return min_tmp(j, 0, buf, len); }
P(p_min_tmp_raw) { (void)now; return min_tmp(j, '-', buf, len); }

P(p_contiguous) { (void)now; D(j->spec.contiguous ? 1 : 0); }

P(p_tres_per_node)
{
	(void)now;
	if (j->spec.gpus_per_node <= 0)
		S("N/A");
	if (j->spec.gpu_type)
		snprintf(buf, len, "gres:gpu:%s:%d", j->spec.gpu_type, j->spec.gpus_per_node);
	else
		snprintf(buf, len, "gres:gpu:%d", j->spec.gpus_per_node);
	return 1;
}

/* -C as Slurm shows it: the features joined with '&'. */
P(p_features)
{
	size_t used = 0;
	(void)now;
	if (j->spec.features == NULL || j->spec.features[0] == NULL)
		S("(null)");
	buf[0] = '\0';
	for (char **f = j->spec.features; *f != NULL && used < len; f++) {
		int k = snprintf(buf + used, len - used, "%s%s", f == j->spec.features ? "" : "&",
				 *f);
		used += k > 0 ? (size_t)k : 0;
	}
	return 1;
}

P(p_nodelist)
{
	(void)now;
	snprintf(buf, len, "%s", j->nodelist ? j->nodelist : "");
	return 0;
}

/* %n and %x: -w and -x as given, never cut to the width (squeue's
 * _print_nodes). */
P(p_req_nodes)
{
	(void)now;
	snprintf(buf, len, "%s", j->spec.nodelist ? j->spec.nodelist : "");
	return 0;
}

P(p_exc_nodes)
{
	(void)now;
	snprintf(buf, len, "%s", j->spec.exclude ? j->spec.exclude : "");
	return 0;
}

P(p_reason_list)
{
	(void)now;
	if (shows_reason(j)) {
		if (len > 2) {
			buf[0] = '(';
			put_s(buf + 1, len - 1, j->reason ? j->reason : "None");
			size_t n = strlen(buf);
			if (n + 1 < len)
				buf[n++] = ')', buf[n] = '\0';
		} else {
			put_s(buf, len, "("); /* what snprintf keeps of "(%s)" */
		}
		return 1;
	}
	put_s(buf, len, j->nodelist ? j->nodelist : "");
	return 0;
}

/* First host of a hostlist: "n[1-3],m2" -> "n1". */
P(p_exec_host)
{
	const char *nl = j->nodelist;
	size_t k, m;

	(void)now;
	if (nl == NULL || *nl == '\0' || j->start_time == 0)
		S("n/a");
	k = strcspn(nl, "[,");
	if (nl[k] == '[') {
		m = strcspn(nl + k + 1, "-,]");
		snprintf(buf, len, "%.*s%.*s", (int)k, nl, (int)m, nl + k + 1);
	} else {
		snprintf(buf, len, "%.*s", (int)k, nl);
	}
	return 1;
}

P(p_command)
{
	char *c = sl_script_command(&j->spec);
	(void)now;
	snprintf(buf, len, "%s", c ? c : "(null)");
	free(c);
	return 1;
}
#undef P
#undef S

/* Headers and values as squeue 22.05 prints them (reference Part 2 §5). */
static const struct code_row table[] = {
	{'a', "ACCOUNT", 1, p_account},
	{'A', "JOBID", 1, p_rawid},
	{'b', "TRES_PER_NODE", 1, p_tres_per_node},
	{'B', "EXEC_HOST", 1, p_exec_host},
	{'c', "MIN_CPUS", 1, p_min_cpus},
	{'C', "CPUS", 1, p_cpus},
	{'d', "MIN_TMP_DISK", 1, p_min_tmp},
	{'D', "NODES", 1, p_nodes},
	{'e', "END_TIME", 1, p_end},
	{'E', "DEPENDENCY", 1, p_dependency},
	{'f', "FEATURES", 1, p_features},
	{'F', "ARRAY_JOB_ID", 1, p_arrayid},
	{'g', "GROUP", 1, p_group},
	{'G', "GROUP", 1, p_gid},
	{'h', "OVER_SUBSCRIBE", 1, p_ok},
	{'H', "SOCKETS_PER_NODE", 1, p_star},
	{'i', "JOBID", 1, p_jobid},
	{'I', "CORES_PER_SOCKET", 1, p_star},
	{'j', "NAME", 1, p_name},
	{'J', "THREADS_PER_CORE", 1, p_star},
	{'k', "COMMENT", 1, p_comment},
	{'K', "ARRAY_TASK_ID", 1, p_task},
	{'l', "TIME_LIMIT", 1, p_time_limit},
	{'L', "TIME_LEFT", 1, p_time_left},
	{'m', "MIN_MEMORY", 1, p_min_mem},
	{'M', "TIME", 1, p_time_used},
	{'n', "REQ_NODES", 1, p_req_nodes},
	{'N', "NODELIST", 0, p_nodelist},
	{'o', "COMMAND", 1, p_command},
	{'O', "CONTIGUOUS", 1, p_contiguous},
	{'p', "PRIORITY", 1, p_prio},
	{'P', "PARTITION", 1, p_partition},
	{'q', "QOS", 1, p_qos},
	{'Q', "PRIORITY", 1, p_prio_long},
	{'r', "REASON", 1, p_reason},
	{'R', "NODELIST(REASON)", 0, p_reason_list},
	{'s', "", 1, p_empty},       /* select plugin data: cons_tres has none */
	{'S', "START_TIME", 1, p_start},
	{'t', "ST", 1, p_state_compact},
	{'T', "STATE", 1, p_state},
	{'u', "USER", 1, p_user},
	{'U', "UID", 1, p_uid},
	{'v', "RESERVATION", 1, p_null},
	{'V', "SUBMIT_TIME", 1, p_submit},
	{'w', "WCKEY", 1, p_wckey},
	{'W', "LICENSES", 1, p_null},
	{'x', "EXC_NODES", 1, p_exc_nodes},
	{'X', "CORE_SPEC", 1, p_na},
	{'y', "NICE", 1, p_nice},
	{'Y', "SCHEDNODES", 0, p_null},
	{'z', "S:C:T", 1, p_sct},
	{'Z', "WORK_DIR", 1, p_workdir},
};

const struct code_row *sl_squeue_col_code(char c)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].code == c)
			return &table[i];
	return NULL;
}

int sl_squeue_fmt_new(const char *fmt, struct sl_squeue_fmt **out, struct sl_err *err)
{
	return sl_squeue_fmt_new_warn(fmt, out, NULL, err);
}

/* An unknown letter: with warn, Slurm's line there and the field printed as
 * written; without, the refusal. */
int sl_squeue_fmt_new_warn(const char *fmt, struct sl_squeue_fmt **out, struct sl_buf *warn,
			   struct sl_err *err)
{
	struct sl_squeue_fmt *f = sl_xcalloc(1, sizeof(*f));
	size_t n;
	int r;

	*out = NULL;
	if ((r = sl_fmt_parse_percent(fmt, &f->fmt, err)) != 0)
		goto out;
	n = sl_fmt_count(f->fmt);
	f->rows = sl_xcalloc(n + 1, sizeof(*f->rows));
	for (size_t i = 0; i < n; i++) {
		char c = sl_fmt_item(f->fmt, i)->code;
		if ((f->rows[i] = sl_squeue_col_code(c)) != NULL)
			continue;
		if (warn == NULL) {
			r = sl_err_set(err, SL_EINVAL, "Invalid job format specification: %c", c);
			goto out;
		}
		sl_buf_addf(warn, "squeue: error: Invalid job format specification: %.1s\n", &c);
		sl_fmt_item_to_literal(f->fmt, i);
		n--;
		i--;
	}
	*out = f;
	f = NULL;
out:
	sl_squeue_fmt_free(f);
	return r;
}

int sl_squeue_fmt_new_long(const char *fmt, struct sl_squeue_fmt **out, struct sl_err *err)
{
	struct sl_squeue_fmt *f = sl_xcalloc(1, sizeof(*f));
	size_t n;
	int r, known;

	*out = NULL;
	if ((r = sl_fmt_parse_colon(fmt, &f->fmt, err)) != 0) {
		sl_squeue_fmt_free(f);
		return r;
	}
	n = sl_fmt_count(f->fmt);
	f->rows = sl_xcalloc(n + 1, sizeof(*f->rows));
	f->skipped = sl_xcalloc(n + 1, sizeof(*f->skipped));
	f->skipped_known = sl_xcalloc(n + 1, sizeof(*f->skipped_known));
	for (size_t i = 0; i < n; i++) {
		const char *name = sl_fmt_item(f->fmt, i)->name;
		if ((f->rows[i] = sl_squeue_col_name(name, &known)) != NULL)
			continue;
		f->skipped_known[f->n_skipped] = known;
		f->skipped[f->n_skipped++] = sl_xstrdup(name);
	}
	*out = f;
	return 0;
}

const char *sl_squeue_fmt_skipped(const struct sl_squeue_fmt *f, size_t i, int *known)
{
	if (i >= f->n_skipped)
		return NULL;
	*known = f->skipped_known[i];
	return f->skipped[i];
}

void sl_squeue_fmt_noconvert(struct sl_squeue_fmt *f)
{
	static const struct code_row mem_raw = {'m', "MIN_MEMORY", 1, p_min_mem_raw};
	static const struct code_row tmp_raw = {'d', "MIN_TMP_DISK", 1, p_min_tmp_raw};

	for (size_t i = 0; i < sl_fmt_count(f->fmt); i++) {
		if (f->rows[i] == NULL)
			continue;
		if (f->rows[i]->print == p_min_mem)
			f->rows[i] = &mem_raw;
		else if (f->rows[i]->print == p_min_tmp)
			f->rows[i] = &tmp_raw;
	}
}

void sl_squeue_fmt_free(struct sl_squeue_fmt *f)
{
	if (f == NULL)
		return;
	sl_fmt_free(f->fmt);
	free(f->rows);
	sl_strv_free(f->skipped);
	free(f->skipped_known);
	free(f);
}

/* One line: the prefix, then per field its cell and its literal suffix. */
static int render(const struct sl_squeue_fmt *f, const struct sl_job *j, int64_t now,
		  struct sl_buf *b)
{
	char val[VAL_MAX];
	int r = sl_buf_addstr(b, sl_fmt_prefix(f->fmt)), cut;

	for (size_t i = 0; r == 0 && i < sl_fmt_count(f->fmt); i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		const struct code_row *row = f->rows[i];
		if (row == NULL) { /* an -O name left out: no cell, its suffix kept */
			r = sl_buf_addstr(b, it->suffix);
			continue;
		}
		if (j == NULL) {
			snprintf(val, sizeof(val), "%s", row->header);
			cut = row->header_cut;
		} else {
			cut = row->print(j, now, val, sizeof(val));
		}
		r = sl_fmt_cell(b, val, it->width, it->right, cut);
		if (r == 0)
			r = sl_buf_addstr(b, it->suffix);
	}
	return r ? r : sl_buf_addc(b, '\n');
}

int sl_squeue_fmt_header(const struct sl_squeue_fmt *f, struct sl_buf *b)
{
	return render(f, NULL, 0, b);
}

int sl_squeue_fmt_job(const struct sl_squeue_fmt *f, const struct sl_job *j, int64_t now,
		      struct sl_buf *b)
{
	return render(f, j, now, b);
}
