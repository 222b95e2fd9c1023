/* sstat_fmt.c - sstat's field table and rows. A batch step is one task on
 * one node, so its Max, Ave, Min and Tot figures are one, its task 0 and
 * its node the batch host (Slurm prints the same for such a step). Energy
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
F(f_vmsize) { sl_slurm_usage_kib(c->u->max_vmsize, c->unit, buf, len); }
F(f_rss) { sl_slurm_usage_kib(c->u->max_rss, c->unit, buf, len); }
F(f_pages) { sl_slurm_usage_count(c->u->max_pages, c->unit, buf, len); }
F(f_cpu) { sl_slurm_usage_cpu_secs(c->u->user_usec + c->u->sys_usec, buf, len); }
F(f_read) { sl_slurm_usage_count(c->u->disk_read, c->unit, buf, len); }

F(f_write)
{
	double v = (double)c->u->disk_write;

	if (v > 1)
		sl_slurm_num_unit(v, 2, c->unit == '-' ? 2 : 5, buf, len);
	else if (v > 0)
		snprintf(buf, len, "%.2fM", v);
	else
		snprintf(buf, len, "0");
}

#define TRES(name, kind) F(name) { sl_slurm_usage_tres(c->u, kind, c->node, c->unit, buf, len); }
TRES(f_in, SL_UTRES_IN)
TRES(f_in_node, SL_UTRES_IN_NODE)
TRES(f_in_task, SL_UTRES_IN_TASK)
TRES(f_out, SL_UTRES_OUT)
TRES(f_out_node, SL_UTRES_OUT_NODE)
TRES(f_out_task, SL_UTRES_OUT_TASK)
#undef TRES
#undef F

/* sstat.c's fields[], in its order. */
static const struct field_row table[] = {
	{"AveCPU", 10, K_STR, f_cpu},
	{"AveCPUFreq", 10, K_STR, f_zero},
	{"AveDiskRead", 12, K_STR, f_read},
	{"AveDiskWrite", 12, K_STR, f_write},
	{"AvePages", 10, K_STR, f_pages},
	{"AveRSS", 10, K_STR, f_rss},
	{"AveVMSize", 10, K_STR, f_vmsize},
	{"ConsumedEnergy", 14, K_STR, f_zero},
	{"ConsumedEnergyRaw", 17, K_NUM, f_zero},
	{"JobID", -12, K_STR, f_jobid},
	{"MaxDiskRead", 12, K_STR, f_read},
	{"MaxDiskReadNode", 15, K_STR, f_node},
	{"MaxDiskReadTask", 15, K_NUM, f_zero},
	{"MaxDiskWrite", 12, K_STR, f_write},
	{"MaxDiskWriteNode", 16, K_STR, f_node},
	{"MaxDiskWriteTask", 16, K_NUM, f_zero},
	{"MaxPages", 8, K_STR, f_pages},
	{"MaxPagesNode", 12, K_STR, f_node},
	{"MaxPagesTask", 14, K_NUM, f_zero},
	{"MaxRSS", 10, K_STR, f_rss},
	{"MaxRSSNode", 10, K_STR, f_node},
	{"MaxRSSTask", 10, K_NUM, f_zero},
	{"MaxVMSize", 10, K_STR, f_vmsize},
	{"MaxVMSizeNode", 14, K_STR, f_node},
	{"MaxVMSizeTask", 14, K_NUM, f_zero},
	{"MinCPU", 10, K_STR, f_cpu},
	{"MinCPUNode", 10, K_STR, f_node},
	{"MinCPUTask", 10, K_NUM, f_zero},
	{"Nodelist", 20, K_STR, f_node},
	{"NTasks", 8, K_NUM, f_ntasks},
	{"Pids", 20, K_STR, f_pids},
	{"ReqCPUFreq", 10, K_STR, f_zero},
	{"ReqCPUFreqMin", 13, K_STR, f_zero},
	{"ReqCPUFreqMax", 13, K_STR, f_zero},
	{"ReqCPUFreqGov", 13, K_STR, f_zero},
	{"TRESUsageInAve", 14, K_STR, f_in},
	{"TRESUsageInMax", 14, K_STR, f_in},
	{"TRESUsageInMaxNode", 18, K_STR, f_in_node},
	{"TRESUsageInMaxTask", 18, K_STR, f_in_task},
	{"TRESUsageInMin", 14, K_STR, f_in},
	{"TRESUsageInMinNode", 18, K_STR, f_in_node},
	{"TRESUsageInMinTask", 18, K_STR, f_in_task},
	{"TRESUsageInTot", 14, K_STR, f_in},
	{"TRESUsageOutAve", 15, K_STR, f_out},
	{"TRESUsageOutMax", 15, K_STR, f_out},
	{"TRESUsageOutMaxNode", 19, K_STR, f_out_node},
	{"TRESUsageOutMaxTask", 19, K_STR, f_out_task},
	{"TRESUsageOutMin", 15, K_STR, f_out},
	{"TRESUsageOutMinNode", 19, K_STR, f_out_node},
	{"TRESUsageOutMinTask", 19, K_STR, f_out_task},
	{"TRESUsageOutTot", 15, K_STR, f_out},
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
	struct ctx c = {stepid, node ? node : "", u, f->unit};
	size_t n = sl_fmt_count(f->fmt);
	char val[1024];
	int r = 0;

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
