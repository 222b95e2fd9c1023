/* sstat_fmt.c - sstat's field table and rows. A step's figures are its
 * tasks' (Max and Min the largest and smallest task's, Ave their mean, Tot
 * their sum); a batch step is one task, so its four figures are one, its
 * task 0 and its node the batch host (Slurm prints the same for such a
 * step). Energy
 * and CPU frequency are not measured: Slurm's zeros. Disk figures print
 * as sstat prints them: read through convert_num_unit, written through
 * the small-double printer ("1.00M" for one byte). */
#include "sstat_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_fmt.h"
#include "slurm_tres.h"
#include "slurm_usage.h"
#include "xalloc.h"

enum kind { K_STR = 0, K_NUM };

struct ctx {
	const char *stepid, *node;
	const struct sl_usage *u;
	int unit; /* '-' with --noconvert, else 0 */
	struct sl_usage_tasks t; /* u's figures task by task */
};

typedef void (*field_fn)(const struct ctx *c, char *buf, size_t len);

struct field_row {
	const char *name;
	int width;
	enum kind kind;
	field_fn print;
};

struct sl_sstat_fmt {
	struct sl_fmt *fmt;
	enum sl_sstat_mode mode;
	int unit;
};

#define F(name) static void name(const struct ctx *c, char *buf, size_t len)
F(f_jobid) { snprintf(buf, len, "%s", c->stepid); }
F(f_node) { snprintf(buf, len, "%s", c->node); }
F(f_zero) { (void)c; snprintf(buf, len, "0"); }
/* a batch step is one task; a numbered step ("N.S") has the reply's */
F(f_ntasks)
{
	const char *dot = strrchr(c->stepid, '.');
	int numbered = dot && dot[1] >= '0' && dot[1] <= '9';
	snprintf(buf, len, "%d", numbered && c->u->ntasks > 0 ? c->u->ntasks : 1);
}
F(f_pids) { snprintf(buf, len, "%s", c->u->pids); }
#define V(k, of) sl_slurm_usage_value(&c->t, k, of)
#define SIZE(name, of) \
	F(name##_vmsize) { sl_slurm_usage_bytes(V(SL_USE_VMSIZE, of), c->unit, buf, len); } \
	F(name##_rss) { sl_slurm_usage_bytes(V(SL_USE_RSS, of), c->unit, buf, len); } \
	F(name##_pages) { sl_slurm_usage_count(V(SL_USE_PAGES, of), c->unit, buf, len); } \
	F(name##_read) { sl_slurm_usage_count(V(SL_USE_READ, of), c->unit, buf, len); } \
	F(name##_write) { write_cell(c, V(SL_USE_WRITE, of), buf, len); }

static void write_cell(const struct ctx *c, int64_t bytes, char *buf, size_t len)
{
	double v = (double)bytes;

	if (v > 1)
		sl_slurm_num_unit(v, 2, c->unit == '-' ? 2 : 5, buf, len);
	else if (v > 0)
		snprintf(buf, len, "%.2fM", v);
	else
		snprintf(buf, len, "0");
}

SIZE(f_max, SL_UOF_MAX)
SIZE(f_ave, SL_UOF_AVE)
#undef SIZE
F(f_ave_cpu) { sl_slurm_usage_cpu_secs(V(SL_USE_CPU, SL_UOF_AVE), buf, len); }
F(f_min_cpu) { sl_slurm_usage_cpu_secs(V(SL_USE_CPU, SL_UOF_MIN), buf, len); }
#undef V
#define TASK(name, k, of) F(name) { snprintf(buf, len, "%d", sl_slurm_usage_task(&c->t, k, of)); }
TASK(f_read_task, SL_USE_READ, SL_UOF_MAX)
TASK(f_write_task, SL_USE_WRITE, SL_UOF_MAX)
TASK(f_pages_task, SL_USE_PAGES, SL_UOF_MAX)
TASK(f_rss_task, SL_USE_RSS, SL_UOF_MAX)
TASK(f_vmsize_task, SL_USE_VMSIZE, SL_UOF_MAX)
TASK(f_cpu_task, SL_USE_CPU, SL_UOF_MIN)
#undef TASK

#define TRES(name, kind, of) \
	F(name) { sl_slurm_usage_tres(&c->t, kind, of, c->node, c->unit, buf, len); }
TRES(f_in_ave, SL_UTRES_IN, SL_UOF_AVE)
TRES(f_in_max, SL_UTRES_IN, SL_UOF_MAX)
TRES(f_in_min, SL_UTRES_IN, SL_UOF_MIN)
TRES(f_in_tot, SL_UTRES_IN, SL_UOF_TOT)
TRES(f_in_node, SL_UTRES_IN_NODE, SL_UOF_MAX)
TRES(f_in_max_task, SL_UTRES_IN_TASK, SL_UOF_MAX)
TRES(f_in_min_task, SL_UTRES_IN_TASK, SL_UOF_MIN)
TRES(f_out_ave, SL_UTRES_OUT, SL_UOF_AVE)
TRES(f_out_max, SL_UTRES_OUT, SL_UOF_MAX)
TRES(f_out_min, SL_UTRES_OUT, SL_UOF_MIN)
TRES(f_out_tot, SL_UTRES_OUT, SL_UOF_TOT)
TRES(f_out_node, SL_UTRES_OUT_NODE, SL_UOF_MAX)
TRES(f_out_max_task, SL_UTRES_OUT_TASK, SL_UOF_MAX)
TRES(f_out_min_task, SL_UTRES_OUT_TASK, SL_UOF_MIN)
#undef TRES
#undef F

/* sstat.c's fields[], in its order. */
static const struct field_row table[] = {
	{"AveCPU", 10, K_STR, f_ave_cpu},
	{"AveCPUFreq", 10, K_STR, f_zero},
	{"AveDiskRead", 12, K_STR, f_ave_read},
	{"AveDiskWrite", 12, K_STR, f_ave_write},
	{"AvePages", 10, K_STR, f_ave_pages},
	{"AveRSS", 10, K_STR, f_ave_rss},
	{"AveVMSize", 10, K_STR, f_ave_vmsize},
	{"ConsumedEnergy", 14, K_STR, f_zero},
	{"ConsumedEnergyRaw", 17, K_NUM, f_zero},
	{"JobID", -12, K_STR, f_jobid},
	{"MaxDiskRead", 12, K_STR, f_max_read},
	{"MaxDiskReadNode", 15, K_STR, f_node},
	{"MaxDiskReadTask", 15, K_NUM, f_read_task},
	{"MaxDiskWrite", 12, K_STR, f_max_write},
	{"MaxDiskWriteNode", 16, K_STR, f_node},
	{"MaxDiskWriteTask", 16, K_NUM, f_write_task},
	{"MaxPages", 8, K_STR, f_max_pages},
	{"MaxPagesNode", 12, K_STR, f_node},
	{"MaxPagesTask", 14, K_NUM, f_pages_task},
	{"MaxRSS", 10, K_STR, f_max_rss},
	{"MaxRSSNode", 10, K_STR, f_node},
	{"MaxRSSTask", 10, K_NUM, f_rss_task},
	{"MaxVMSize", 10, K_STR, f_max_vmsize},
	{"MaxVMSizeNode", 14, K_STR, f_node},
	{"MaxVMSizeTask", 14, K_NUM, f_vmsize_task},
	{"MinCPU", 10, K_STR, f_min_cpu},
	{"MinCPUNode", 10, K_STR, f_node},
	{"MinCPUTask", 10, K_NUM, f_cpu_task},
	{"Nodelist", 20, K_STR, f_node},
	{"NTasks", 8, K_NUM, f_ntasks},
	{"Pids", 20, K_STR, f_pids},
	{"ReqCPUFreq", 10, K_STR, f_zero},
	{"ReqCPUFreqMin", 13, K_STR, f_zero},
	{"ReqCPUFreqMax", 13, K_STR, f_zero},
	{"ReqCPUFreqGov", 13, K_STR, f_zero},
	{"TRESUsageInAve", 14, K_STR, f_in_ave},
	{"TRESUsageInMax", 14, K_STR, f_in_max},
	{"TRESUsageInMaxNode", 18, K_STR, f_in_node},
	{"TRESUsageInMaxTask", 18, K_STR, f_in_max_task},
	{"TRESUsageInMin", 14, K_STR, f_in_min},
	{"TRESUsageInMinNode", 18, K_STR, f_in_node},
	{"TRESUsageInMinTask", 18, K_STR, f_in_min_task},
	{"TRESUsageInTot", 14, K_STR, f_in_tot},
	{"TRESUsageOutAve", 15, K_STR, f_out_ave},
	{"TRESUsageOutMax", 15, K_STR, f_out_max},
	{"TRESUsageOutMaxNode", 19, K_STR, f_out_node},
	{"TRESUsageOutMaxTask", 19, K_STR, f_out_max_task},
	{"TRESUsageOutMin", 15, K_STR, f_out_min},
	{"TRESUsageOutMinNode", 19, K_STR, f_out_node},
	{"TRESUsageOutMinTask", 19, K_STR, f_out_min_task},
	{"TRESUsageOutTot", 15, K_STR, f_out_tot},
};
#define N_FIELDS (sizeof(table) / sizeof(table[0]))

int sl_sstat_fmt_new(const char *fields, enum sl_sstat_mode mode, int noconvert,
		     struct sl_sstat_fmt **out, struct sl_err *err)
{
	const char *names[N_FIELDS];
	int widths[N_FIELDS];
	struct sl_fmt *fmt = NULL;
	int r;

	*out = NULL;
	for (size_t i = 0; i < N_FIELDS; i++) {
		names[i] = table[i].name;
		widths[i] = table[i].width;
	}
	if ((r = sl_fmt_parse_list(fields, names, widths, N_FIELDS, &fmt, err)) != 0)
		return r;
	*out = sl_xcalloc(1, sizeof(**out));
	(*out)->fmt = fmt;
	(*out)->mode = mode;
	(*out)->unit = noconvert ? '-' : 0;
	return 0;
}

void sl_sstat_fmt_free(struct sl_sstat_fmt *f)
{
	if (f == NULL)
		return;
	sl_fmt_free(f->fmt);
	free(f);
}

static int cell(const struct sl_sstat_fmt *f, struct sl_buf *b, const char *val, int width,
		enum kind kind, int last, int header)
{
	int w = width < 0 ? -width : width;

	if (f->mode == SL_SSTAT_TABLE) {
		if (kind == K_STR || header)
			return sl_fmt_cell_acct(b, val, width, header);
		return sl_buf_addf(b, width < 0 ? "%-*s " : "%*s ", w, val);
	}
	if (sl_buf_addstr(b, val) != 0)
		return -SL_ETOOBIG;
	return f->mode == SL_SSTAT_PARSABLE2 && last ? 0 : sl_buf_addc(b, '|');
}

int sl_sstat_fmt_header(const struct sl_sstat_fmt *f, struct sl_buf *b)
{
	size_t n = sl_fmt_count(f->fmt);
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		r = cell(f, b, table[it->index].name, it->width, K_STR, i + 1 == n, 1);
	}
	if (r == 0)
		r = sl_buf_addc(b, '\n');
	for (size_t i = 0; r == 0 && f->mode == SL_SSTAT_TABLE && i <= n; i++) {
		int w = i < n ? sl_fmt_item(f->fmt, i)->width : 0;
		for (int k = 0; r == 0 && k < (w < 0 ? -w : w); k++)
			r = sl_buf_addc(b, '-');
		if (r == 0)
			r = sl_buf_addc(b, i < n ? ' ' : '\n');
	}
	return r;
}

int sl_sstat_fmt_step(const struct sl_sstat_fmt *f, const char *stepid,
		      const struct sl_usage *u, const char *node, struct sl_buf *b)
{
	struct ctx c = {stepid, node ? node : "", u, f->unit, {0}};
	size_t n = sl_fmt_count(f->fmt);
	char val[1024];
	int r = 0;

	sl_usage_per_task(u, &c.t);
	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		table[it->index].print(&c, val, sizeof(val));
		r = cell(f, b, val, it->width, table[it->index].kind, i + 1 == n, 0);
	}
	return r ? r : sl_buf_addc(b, '\n');
}

int sl_sstat_fields_help(struct sl_buf *b)
{
	const char *names[N_FIELDS];

	for (size_t i = 0; i < N_FIELDS; i++)
		names[i] = table[i].name;
	return sl_fmt_names_help(b, names, N_FIELDS);
}
