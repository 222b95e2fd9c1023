/* slurm_usage.c - resource use in Slurm's printed forms. */
#include "slurm_usage.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "slurm_tres.h"

/* convert_num_unit(v, from, --units): exact steps up, or the unit asked
 * for with two decimals when not whole. */
static void num_unit(double v, int from, int unit, char *buf, size_t len)
{
	static const char units[] = "\0KMGTP";
	const char *want = unit > 0 && unit != '-' ? strchr(units + 1, toupper(unit)) : NULL;
	int t = from;

	if (want != NULL) {
		for (; t > want - units; t--)
			v *= 1024;
		for (; t < want - units; t++)
			v /= 1024;
	}
	sl_slurm_num_unit(v, t, want != NULL || unit == '-' ? t : 5, buf, len);
}

void sl_slurm_usage_kib(int64_t kib, int unit, char *buf, size_t len)
{
	/* slurmdbd keeps bytes; sacct converts from there */
	num_unit((double)kib * 1024, 0, unit, buf, len);
}

void sl_slurm_usage_bytes(int64_t bytes, int unit, char *buf, size_t len)
{
	num_unit((double)bytes, 0, unit, buf, len);
}

int64_t sl_slurm_usage_value(const struct sl_usage_tasks *t, enum sl_usage_item k,
			     enum sl_usage_of of)
{
	int64_t scale = k == SL_USE_RSS || k == SL_USE_VMSIZE ? 1024 : 1;
	const struct sl_usage_agg *a = &t->a[k];

	if (t->n <= 0)
		return 0;
	switch (of) {
	case SL_UOF_MAX:
		return a->max * scale;
	case SL_UOF_MIN:
		return a->min * scale;
	case SL_UOF_AVE:
		return a->tot * scale / t->n;
	case SL_UOF_TOT:
		break;
	}
	return a->tot * scale;
}

int sl_slurm_usage_task(const struct sl_usage_tasks *t, enum sl_usage_item k, enum sl_usage_of of)
{
	if (t->n <= 0)
		return 0;
	return of == SL_UOF_MAX ? t->a[k].max_task : of == SL_UOF_MIN ? t->a[k].min_task : 0;
}

void sl_slurm_usage_count(int64_t v, int unit, char *buf, size_t len)
{
	num_unit((double)v, 0, unit, buf, len);
}

void sl_slurm_usage_cpu(int64_t usec, char *buf, size_t len)
{
	long long s = usec / 1000000, ms = (usec % 1000000) / 1000;
	long long d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;

	if (d)
		snprintf(buf, len, "%lld-%2.2lld:%2.2lld:%2.2lld", d, h, m, sec);
	else if (h)
		snprintf(buf, len, "%2.2lld:%2.2lld:%2.2lld", h, m, sec);
	else if (ms)
		snprintf(buf, len, "%2.2lld:%2.2lld.%3.3lld", m, sec, ms);
	else
		snprintf(buf, len, "00:%2.2lld:%2.2lld", m, sec);
}

void sl_slurm_usage_cpu_secs(int64_t usec, char *buf, size_t len)
{
	sl_slurm_usage_cpu(usec / 1000000 * 1000000, buf, len);
}

void sl_slurm_usage_disk(int64_t bytes, int unit, char *buf, size_t len)
{
	double mb = (double)bytes / (1 << 20);

	if (mb > 1)
		num_unit(mb, 2, unit, buf, len);
	else if (mb > 0)
		snprintf(buf, len, "%.2fM", mb);
	else
		snprintf(buf, len, "0");
}

void sl_slurm_usage_tres(const struct sl_usage_tasks *t, enum sl_usage_tres kind,
			 enum sl_usage_of of, const char *host, int unit, char *buf, size_t len)
{
	char cpu[32], mem[32], vmem[32];
#define V(k) sl_slurm_usage_value(t, k, of)
#define T(k) sl_slurm_usage_task(t, k, of)

	switch (kind) {
	case SL_UTRES_IN:
		sl_slurm_usage_cpu_secs(V(SL_USE_CPU), cpu, sizeof(cpu));
		sl_slurm_usage_bytes(V(SL_USE_RSS), unit, mem, sizeof(mem));
		sl_slurm_usage_bytes(V(SL_USE_VMSIZE), unit, vmem, sizeof(vmem));
		snprintf(buf, len, "cpu=%s,energy=0,fs/disk=%lld,mem=%s,pages=%lld,vmem=%s", cpu,
			 (long long)V(SL_USE_READ), mem, (long long)V(SL_USE_PAGES), vmem);
		break;
	case SL_UTRES_IN_NODE:
		snprintf(buf, len, "cpu=%s,energy=%s,fs/disk=%s,mem=%s,pages=%s,vmem=%s", host, host,
			 host, host, host, host);
		break;
	case SL_UTRES_IN_TASK:
	case SL_UTRES_IN_TASK_N:
		/* sstat prints the task of cpu through the time printer, as
		 * milliseconds */
		if (kind == SL_UTRES_IN_TASK)
			sl_slurm_usage_cpu_secs((int64_t)T(SL_USE_CPU) * 1000, cpu, sizeof(cpu));
		else
			snprintf(cpu, sizeof(cpu), "%d", T(SL_USE_CPU));
		snprintf(buf, len, "cpu=%s,fs/disk=%d,mem=%d,pages=%d,vmem=%d", cpu, T(SL_USE_READ),
			 T(SL_USE_RSS), T(SL_USE_PAGES), T(SL_USE_VMSIZE));
		break;
	case SL_UTRES_OUT:
		snprintf(buf, len, "energy=0,fs/disk=%lld", (long long)V(SL_USE_WRITE));
		break;
	case SL_UTRES_OUT_NODE:
		snprintf(buf, len, "energy=%s,fs/disk=%s", host, host);
		break;
	case SL_UTRES_OUT_TASK:
		snprintf(buf, len, "fs/disk=%d", T(SL_USE_WRITE));
		break;
	}
#undef V
#undef T
}
