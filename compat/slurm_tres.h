/* slurm_tres.h - a job's trackable resources as Slurm writes them: the
 * TRES string of squeue -O tres-alloc, sacct AllocTRES/ReqTRES and
 * scontrol's TRES=, and memory sizes in Slurm's units. */
#ifndef SL_SLURM_TRES_H
#define SL_SLURM_TRES_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

/* convert_num_unit(..., CONVERT_NUM_UNIT_EXACT): v in unit `from` (0
 * none, 1 K, 2 M, ... of "\0KMGTP?") goes up a unit, to `top` at most,
 * while it divides by 512: 1024 -> "1K", 1536 -> "1.50K", 1000 -> "1000";
 * two decimals when not whole. */
void sl_slurm_num_unit(double v, int from, int top, char *buf, size_t len);

/* MiB as Slurm's convert_num_unit() prints them. unit 0: "exactly" (up a
 * unit while the number divides by 512: "4000M", "2G", "1.50G"); '-':
 * not converted (--noconvert); K, M, G, T or P: in that unit, two
 * decimals when not whole (sacct --units). 0 prints as "0". */
void sl_slurm_mem_fmt(int64_t mib, int unit, char *buf, size_t len);

/* Total memory of the job in MiB (--mem per node, or --mem-per-cpu times
 * its CPUs), 0 when it asked for none. */
int64_t sl_slurm_job_mem(const struct sl_job *j);

/* CPUs of the job: allocated, else asked for. */
int sl_slurm_job_cpus(const struct sl_job *j);

enum sl_tres_order {
	SL_TRES_SQUEUE, /* "cpu=1,mem=4000M,node=1,billing=1" (slurmctld's) */
	SL_TRES_SACCT,  /* "billing=1,cpu=1,mem=4000M,node=1" (slurmdbd's) */
	SL_TRES_BATCH,  /* its batch step: "cpu=1,mem=4000M,node=1", one node's */
};
/* The job's TRES (billing is its CPUs; mem is left out when it asked for
 * none, as Sluice has no default memory per CPU), mem in `unit` as for
 * sl_slurm_mem_fmt(). */
void sl_slurm_tres_fmt(const struct sl_job *j, enum sl_tres_order order, int unit, char *buf,
		       size_t len);

#endif
