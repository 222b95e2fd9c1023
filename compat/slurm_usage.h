/* slurm_usage.h - a job's resource use (libbatch/usage.h) in the forms
 * sacct and sstat print it (sacct/print.c, sstat/print.c of Slurm 22.05):
 * sizes from bytes through convert_num_unit, CPU times through
 * _elapsed_time, disk through _print_small_double, and the TRESUsage*
 * strings. A step's figures are its tasks' (usage.h's struct
 * sl_usage_tasks): Max and Min the largest and smallest task's (and which
 * task), Tot the sum, Ave the sum over the tasks; a batch step is one task,
 * all four its one figure, its task 0. All on one node, the batch host. */
#ifndef SL_SLURM_USAGE_H
#define SL_SLURM_USAGE_H

#include <stddef.h>
#include <stdint.h>
#include "usage.h"

/* KiB: "40396K", "2G"; unit as sl_slurm_mem_fmt()'s (--units). */
void sl_slurm_usage_kib(int64_t kib, int unit, char *buf, size_t len);
/* The same from bytes, as slurmdbd keeps sizes ("83573248" for an Ave
 * that is no whole KiB, as Slurm prints it). */
void sl_slurm_usage_bytes(int64_t bytes, int unit, char *buf, size_t len);
/* A count (MaxPages): "2", "1.50K" for 1536. */
void sl_slurm_usage_count(int64_t v, int unit, char *buf, size_t len);
/* Microseconds: "00:00.140", "00:00:02", "01:02:03", "1-00:00:00". */
void sl_slurm_usage_cpu(int64_t usec, char *buf, size_t len);
/* Whole seconds of it (AveCPU, MinCPU): "00:00:00". */
void sl_slurm_usage_cpu_secs(int64_t usec, char *buf, size_t len);
/* Bytes read or written: "0.05M" below a MiB, "3M", "1.50G" above. */
void sl_slurm_usage_disk(int64_t bytes, int unit, char *buf, size_t len);

/* Which of a figure's aggregates over the tasks. */
enum sl_usage_of { SL_UOF_MAX, SL_UOF_MIN, SL_UOF_AVE, SL_UOF_TOT };
/* Figure k of the tasks in Slurm's units: CPU microseconds, sizes in
 * bytes, faults, bytes read or written; Ave the sum over the tasks in
 * those units (integer division, as slurmdbd's). 0 when none measured. */
int64_t sl_slurm_usage_value(const struct sl_usage_tasks *t, enum sl_usage_item k,
			     enum sl_usage_of of);
/* The task (rank) of a figure's Max or Min; 0 for Ave and Tot. */
int sl_slurm_usage_task(const struct sl_usage_tasks *t, enum sl_usage_item k, enum sl_usage_of of);

enum sl_usage_tres {
	SL_UTRES_IN,        /* TRESUsageInAve/Max/Min/Tot */
	SL_UTRES_IN_NODE,   /* TRESUsageInMaxNode/MinNode */
	SL_UTRES_IN_TASK,   /* TRESUsageInMaxTask/MinTask: sstat's, cpu as a time */
	SL_UTRES_IN_TASK_N, /* the same, sacct's: every task a number ("cpu=0") */
	SL_UTRES_OUT,       /* TRESUsageOutAve/Max/Min/Tot */
	SL_UTRES_OUT_NODE,
	SL_UTRES_OUT_TASK,
};
/* "cpu=00:00:00,energy=0,fs/disk=48430,mem=40396K,pages=2,vmem=47268K"
 * (of: TRESUsageInMax, Min, Ave or Tot) and its node and task forms (the
 * tasks of Max or Min); host: the node of the figures. */
void sl_slurm_usage_tres(const struct sl_usage_tasks *t, enum sl_usage_tres kind,
			 enum sl_usage_of of, const char *host, int unit, char *buf, size_t len);

#endif
