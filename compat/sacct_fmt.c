/* sacct_fmt.c - the sacct field table and its printers.
 *
 * Rows are {name, default width, printer}; names are matched by prefix in
 * table order (alphabetical, as sacct's own table), so "JobID" beats
 * "JobIDRaw" and lowercase works. A printer gets the job and whether it is
 * printing the job row or the batch step row: step rows leave job-only
 * fields (Partition, Timelimit, User, ...) empty, as slurmdbd does. */
#include "sacct_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_fmt.h"
#include "slurm_time.h"
#include "xalloc.h"

#define VAL_MAX 8192

enum row { ROW_JOB = 0, ROW_BATCH };

typedef void (*field_fn)(const struct sl_job *j, enum row row, int64_t now, char *buf,
			 size_t len);

struct field_row {
	const char *name;
	int width;
	field_fn print;
};

struct sl_sacct_fmt {
	struct sl_fmt *fmt;
};

enum sl_jobstate sl_sacct_batch_state(const struct sl_job *j)
{
	if (!sl_jobstate_is_final(j->state))
		return SL_JOB_RUNNING;
	if (j->state == SL_JOB_OUT_OF_MEMORY)
		return SL_JOB_OUT_OF_MEMORY;
	if (j->exit_signal != 0)
		return SL_JOB_CANCELLED;
	return j->exit_code != 0 ? SL_JOB_FAILED : SL_JOB_COMPLETED;
}

static int started(const struct sl_job *j)
{
	return j->start_time != 0;
}

static int64_t elapsed(const struct sl_job *j, int64_t now)
{
	int64_t end;
	if (!started(j))
		return 0;
	end = j->end_time != 0 ? j->end_time : now;
	return end > j->start_time ? end - j->start_time : 0;
}

static void fmt_mem(int64_t mib, char *buf, size_t len)
{
	if (mib > 0 && mib % 1024 == 0)
		snprintf(buf, len, "%lldG", (long long)(mib / 1024));
	else
		snprintf(buf, len, "%lldM", (long long)(mib > 0 ? mib : 0));
}

#define F(name) static void name(const struct sl_job *j, enum row row, int64_t now, \
				 char *buf, size_t len)
#define S(expr) snprintf(buf, len, "%s", (expr))
#define JOBONLY(expr) S(row == ROW_JOB ? (expr) : "")
#define OR_EMPTY(s) ((s) ? (s) : "")
#define JOBNUM(v) do { \
		if (row == ROW_JOB) \
			snprintf(buf, len, "%lld", (long long)(v)); \
		else \
			S(""); \
	} while (0)

F(f_account) { (void)row; (void)now; S(OR_EMPTY(j->spec.account)); }
F(f_partition) { (void)now; JOBONLY(OR_EMPTY(j->spec.partition)); }
F(f_qos) { (void)now; JOBONLY(OR_EMPTY(j->spec.qos)); }
F(f_comment) { (void)now; JOBONLY(OR_EMPTY(j->spec.comment)); }
F(f_user) { (void)now; JOBONLY(OR_EMPTY(j->user)); }
F(f_group) { (void)now; JOBONLY(OR_EMPTY(j->group)); }
F(f_workdir) { (void)now; JOBONLY(OR_EMPTY(j->spec.work_dir)); }
F(f_reason) { (void)now; JOBONLY(j->reason ? j->reason : "None"); }
F(f_derived) { (void)now; JOBONLY("0:0"); }
F(f_submit) { (void)row; (void)now; sl_slurm_time_fmt_ts(j->submit_time, buf, len); }
F(f_start) { (void)row; (void)now; sl_slurm_time_fmt_ts(j->start_time, buf, len); }
F(f_end) { (void)row; (void)now; sl_slurm_time_fmt_ts(j->end_time, buf, len); }
F(f_elapsed) { (void)row; sl_slurm_time_fmt_elapsed_sacct(elapsed(j, now), buf, len); }

F(f_elapsed_raw)
{
	(void)row;
	snprintf(buf, len, "%lld", (long long)elapsed(j, now));
}

F(f_jobid)
{
	(void)now;
	snprintf(buf, len, "%llu%s", (unsigned long long)j->id, row == ROW_BATCH ? ".batch" : "");
}

F(f_jobname)
{
	(void)now;
	S(row == ROW_BATCH ? "batch" : OR_EMPTY(j->spec.name));
}

F(f_uid) { (void)now; JOBNUM((unsigned)j->uid); }
F(f_gid) { (void)now; JOBNUM((unsigned)j->gid); }
F(f_priority) { (void)now; JOBNUM(j->priority); }

F(f_alloc_cpus)
{
	struct sl_jobshape sh;
	int cpus = started(j) ? j->alloc_cpus : 0;
	(void)now;
	sl_job_shape(j, &sh);
	if (row == ROW_BATCH)
		cpus = sh.nodes > 0 ? cpus / sh.nodes : cpus;
	snprintf(buf, len, "%d", cpus);
}

F(f_nnodes)
{
	struct sl_jobshape sh;
	(void)now;
	sl_job_shape(j, &sh);
	snprintf(buf, len, "%d", row == ROW_BATCH ? 1 : sh.nodes);
}

F(f_ntasks) { (void)j; (void)now; S(row == ROW_BATCH ? "1" : ""); }

/* The batch step runs on the first node only: "n[1-3]" -> "n1". */
F(f_nodelist)
{
	const char *nl = j->nodelist;
	size_t k;
	(void)now;
	if (nl == NULL || *nl == '\0') {
		S("None assigned");
		return;
	}
	if (row == ROW_JOB) {
		S(nl);
		return;
	}
	k = strcspn(nl, "[,");
	if (nl[k] == '[')
		snprintf(buf, len, "%.*s%.*s", (int)k, nl, (int)strcspn(nl + k + 1, "-,]"),
			 nl + k + 1);
	else
		snprintf(buf, len, "%.*s", (int)k, nl);
}

F(f_reqmem)
{
	(void)now;
	if (row == ROW_BATCH)
		S("");
	else if (j->spec.mem_per_node > 0)
		fmt_mem(j->spec.mem_per_node, buf, len);
	else if (j->spec.mem_per_cpu > 0)
		fmt_mem(j->spec.mem_per_cpu, buf, len);
	else
		S("0");
}

F(f_timelimit)
{
	(void)now;
	if (row == ROW_JOB)
		sl_slurm_time_fmt_limit_sacct(j->spec.time_limit, buf, len);
	else
		S("");
}

F(f_state)
{
	(void)now;
	if (row == ROW_BATCH)
		S(sl_jobstate_name(sl_sacct_batch_state(j)));
	else if (j->state == SL_JOB_CANCELLED && j->cancelled_by >= 0)
		snprintf(buf, len, "CANCELLED by %d", j->cancelled_by);
	else
		S(sl_jobstate_name(j->state));
}

F(f_exitcode)
{
	(void)now;
	if (!sl_jobstate_is_final(j->state))
		S("0:0");
	else if (row == ROW_BATCH)
		snprintf(buf, len, "%d:%d", j->exit_code, j->exit_signal);
	else if (j->state == SL_JOB_CANCELLED || j->state == SL_JOB_TIMEOUT ||
		 j->state == SL_JOB_PREEMPTED)
		S("0:0");
	else
		snprintf(buf, len, "%d:%d", j->exit_code, j->exit_signal);
}
#undef F
#undef S
#undef JOBONLY

/* Alphabetical like sacct's table: prefix matching depends on the order. */
static const struct field_row table[] = {
	{"Account", 10, f_account},
	{"AllocCPUS", 10, f_alloc_cpus},
	{"Comment", 14, f_comment},
	{"DerivedExitCode", 15, f_derived},
	{"Elapsed", 10, f_elapsed},
	{"ElapsedRaw", 10, f_elapsed_raw},
	{"End", 19, f_end},
	{"ExitCode", 8, f_exitcode},
	{"GID", 6, f_gid},
	{"Group", 9, f_group},
	{"JobID", -12, f_jobid},
	{"JobIDRaw", -12, f_jobid},
	{"JobName", 10, f_jobname},
	{"NCPUS", 10, f_alloc_cpus},
	{"NNodes", 8, f_nnodes},
	{"NodeList", 15, f_nodelist},
	{"NTasks", 8, f_ntasks},
	{"Partition", 10, f_partition},
	{"Priority", 10, f_priority},
	{"QOS", 10, f_qos},
	{"Reason", 22, f_reason},
	{"ReqMem", 10, f_reqmem},
	{"Start", 19, f_start},
	{"State", 10, f_state},
	{"Submit", 19, f_submit},
	{"Timelimit", 10, f_timelimit},
	{"UID", 6, f_uid},
	{"User", 9, f_user},
	{"WorkDir", 20, f_workdir},
};
#define N_FIELDS (sizeof(table) / sizeof(table[0]))

int sl_sacct_fmt_new(const char *fields, struct sl_sacct_fmt **out, struct sl_err *err)
{
	const char *names[N_FIELDS];
	int widths[N_FIELDS];
	struct sl_sacct_fmt *f = sl_xcalloc(1, sizeof(*f));
	int r;

	for (size_t i = 0; i < N_FIELDS; i++) {
		names[i] = table[i].name;
		widths[i] = table[i].width;
	}
	*out = NULL;
	r = sl_fmt_parse_list(fields, names, widths, N_FIELDS, &f->fmt, err);
	if (r == 0 && sl_fmt_count(f->fmt) == 0)
		r = sl_err_set(err, SL_EINVAL, "Invalid field requested: \"\"");
	if (r != 0) {
		sl_sacct_fmt_free(f);
		return r;
	}
	*out = f;
	return 0;
}

void sl_sacct_fmt_free(struct sl_sacct_fmt *f)
{
	if (f == NULL)
		return;
	sl_fmt_free(f->fmt);
	free(f);
}

/* One cell in the chosen mode; `last` drops -P's final separator. */
static int cell(struct sl_buf *b, const char *val, int width, enum sl_sacct_mode mode,
		int last, int header)
{
	int r;
	if (mode == SL_SACCT_TABLE)
		return sl_fmt_cell_acct(b, val, width, header);
	r = sl_buf_addstr(b, val);
	if (r == 0 && !(mode == SL_SACCT_PARSABLE2 && last))
		r = sl_buf_addc(b, '|');
	return r;
}

int sl_sacct_fmt_header(const struct sl_sacct_fmt *f, enum sl_sacct_mode mode,
			struct sl_buf *b)
{
	size_t n = sl_fmt_count(f->fmt);
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		r = cell(b, table[it->index].name, it->width, mode, i + 1 == n, 1);
	}
	if (r == 0)
		r = sl_buf_addc(b, '\n');
	if (mode != SL_SACCT_TABLE)
		return r;
	for (size_t i = 0; r == 0 && i < n; i++) {
		int w = sl_fmt_item(f->fmt, i)->width;
		for (int k = 0; r == 0 && k < (w < 0 ? -w : w); k++)
			r = sl_buf_addc(b, '-');
		if (r == 0)
			r = sl_buf_addc(b, ' ');
	}
	return r ? r : sl_buf_addc(b, '\n');
}

static int one_row(const struct sl_sacct_fmt *f, const struct sl_job *j, enum row row,
		   enum sl_sacct_mode mode, int64_t now, struct sl_buf *b)
{
	char val[VAL_MAX];
	size_t n = sl_fmt_count(f->fmt);
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		table[it->index].print(j, row, now, val, sizeof(val));
		r = cell(b, val, it->width, mode, i + 1 == n, 0);
	}
	return r ? r : sl_buf_addc(b, '\n');
}

int sl_sacct_fmt_job(const struct sl_sacct_fmt *f, const struct sl_job *j,
		     enum sl_sacct_mode mode, int steps, int64_t now, struct sl_buf *b)
{
	int r = one_row(f, j, ROW_JOB, mode, now, b);
	if (r == 0 && steps && started(j))
		r = one_row(f, j, ROW_BATCH, mode, now, b);
	return r;
}
