/* slurm_tres.c - TRES strings and memory sizes in Slurm's spelling. */
#include "slurm_tres.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void sl_slurm_num_unit(double v, int from, int top, char *buf, size_t len)
{
	static const char units[] = "\0KMGTP?";

	/* CONVERT_NUM_UNIT_EXACT: half units ("2.5G") count as exact */
	while (v >= 1024 && (uint64_t)v % 512 == 0 && from < top) {
		v /= 1024;
		from++;
	}
	if ((double)(uint64_t)v == v)
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[from]);
	else
		snprintf(buf, len, "%.2f%c", v, units[from]);
}

void sl_slurm_mem_fmt(int64_t mib, int unit, char *buf, size_t len)
{
	static const char units[] = "\0KMGTP";
	const char *want = unit > 0 && unit != '-' ? strchr(units + 1, toupper(unit)) : NULL;
	double v = (double)(mib > 0 ? mib : 0);
	int t = 2; /* MiB */

	if (mib <= 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (want != NULL) {
		for (; t > want - units; t--)
			v *= 1024;
		for (; t < want - units; t++)
			v /= 1024;
	}
	/* only unit 0 converts, and no further than P */
	sl_slurm_num_unit(v, t, unit == 0 ? 5 : t, buf, len);
}

int sl_slurm_job_cpus(const struct sl_job *j)
{
	struct sl_jobshape sh;

	if (j->alloc_cpus > 0)
		return j->alloc_cpus;
	sl_job_shape(j, &sh);
	return sh.cpus_per_node * sh.nodes;
}

int64_t sl_slurm_job_mem(const struct sl_job *j)
{
	struct sl_jobshape sh;

	sl_job_shape(j, &sh);
	if (sh.mem_per_node > 0)
		return sh.mem_per_node * sh.nodes;
	if (j->spec.mem_per_cpu > 0)
		return j->spec.mem_per_cpu * sl_slurm_job_cpus(j);
	return 0;
}

void sl_slurm_tres_fmt(const struct sl_job *j, enum sl_tres_order order, int unit, char *buf,
		       size_t len)
{
	struct sl_jobshape sh;
	int cpus = sl_slurm_job_cpus(j);
	int64_t mib = sl_slurm_job_mem(j);
	char mem[48] = "";

	sl_job_shape(j, &sh);
	if (order == SL_TRES_BATCH && sh.nodes > 1) {
		cpus /= sh.nodes;
		mib /= sh.nodes;
	}
	if (mib > 0) {
		snprintf(mem, sizeof(mem), ",mem=");
		sl_slurm_mem_fmt(mib, unit, mem + 5, sizeof(mem) - 5);
	}
	if (order == SL_TRES_BATCH)
		snprintf(buf, len, "cpu=%d%s,node=1", cpus, mem);
	else if (order == SL_TRES_SACCT)
		snprintf(buf, len, "billing=%d,cpu=%d%s,node=%d", cpus, cpus, mem, sh.nodes);
	else
		snprintf(buf, len, "cpu=%d%s,node=%d,billing=%d", cpus, mem, sh.nodes, cpus);
}
