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

void sl_slurm_usage_tres(const struct sl_usage *u, enum sl_usage_tres kind, const char *host,
			 int unit, char *buf, size_t len)
{
	char cpu[32], mem[32], vmem[32];

	switch (kind) {
	case SL_UTRES_IN:
		sl_slurm_usage_cpu_secs(u->user_usec + u->sys_usec, cpu, sizeof(cpu));
		sl_slurm_usage_kib(u->max_rss, unit, mem, sizeof(mem));
		sl_slurm_usage_kib(u->max_vmsize, unit, vmem, sizeof(vmem));
		snprintf(buf, len, "cpu=%s,energy=0,fs/disk=%lld,mem=%s,pages=%lld,vmem=%s", cpu,
			 (long long)u->disk_read, mem, (long long)u->max_pages, vmem);
		break;
	case SL_UTRES_IN_NODE:
		snprintf(buf, len, "cpu=%s,energy=%s,fs/disk=%s,mem=%s,pages=%s,vmem=%s", host, host,
			 host, host, host, host);
		break;
	case SL_UTRES_IN_TASK:
	case SL_UTRES_IN_TASK_N:
		/* sstat prints the task of cpu through the time printer */
		snprintf(buf, len, "cpu=%s,fs/disk=0,mem=0,pages=0,vmem=0",
			 kind == SL_UTRES_IN_TASK ? "00:00:00" : "0");
		break;
	case SL_UTRES_OUT:
		snprintf(buf, len, "energy=0,fs/disk=%lld", (long long)u->disk_write);
		break;
	case SL_UTRES_OUT_NODE:
		snprintf(buf, len, "energy=%s,fs/disk=%s", host, host);
		break;
	case SL_UTRES_OUT_TASK:
		snprintf(buf, len, "fs/disk=0");
		break;
	}
}
