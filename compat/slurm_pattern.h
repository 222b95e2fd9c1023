/* slurm_pattern.h - output/input file name patterns (-o/-e/-i) expanded as
 * Slurm 22.05's slurmstepd does for a batch job (fname_create). */
#ifndef SL_SLURM_PATTERN_H
#define SL_SLURM_PATTERN_H

#include <stdint.h>

/* Slurm's NO_VAL: what %a prints for a job that is not an array task. */
#define SL_PATTERN_NO_TASK 4294967294u

/* %a of job record j (struct sl_job): its task id, or SL_PATTERN_NO_TASK
 * when it is not an array task, or is a listing's pending remainder
 * (array_tasks), which slurmctld's meta record shows with no task id. */
#define SL_PATTERN_TASK(j) \
	((j)->array_job_id != 0 && (j)->array_tasks == NULL ? (uint32_t)(j)->array_task_id \
							     : SL_PATTERN_NO_TASK)

struct sl_pattern_ctx {
	uint64_t job_id;         /* %j %J; %A of a non-array job */
	uint64_t array_job_id;   /* %A when array_task_id != SL_PATTERN_NO_TASK */
	uint32_t array_task_id;  /* %a; SL_PATTERN_NO_TASK for plain jobs */
	const char *job_name;    /* %x */
	const char *user;        /* %u */
	const char *host;        /* %N: short hostname of the batch host */
	unsigned node_id;        /* %n (0 for the batch step) */
	unsigned task_id;        /* %t (0 for the batch step) */
	const char *work_dir;    /* relative results are joined to it; NULL: kept relative */
};

/* Expand `pat`:
 *   %j %J %A %a %n %t take an optional zero-pad width (%5j, capped at 10);
 *   %x %u %N take none; %% is a literal %; other %c stay as written.
 *   Any backslash turns expansion off: "\\" becomes "\" and a lone "\" is
 *   dropped (Slurm's remove_path_slashes).
 *   A pattern made only of digits names the one task that writes; every other
 *   task (the batch step is task 0) gets "/dev/null", as in Slurm.
 * NULL strings in ctx print as "(null)", as Slurm's printf does.
 * Returns a malloc'd string; caller frees. Never fails. */
char *sl_slurm_pattern_expand(const char *pat, const struct sl_pattern_ctx *ctx);

/* The paths `scontrol show job` prints (StdOut=, StdErr=, StdIn=): Slurm's
 * api/job_info.c _fname_format, which knows only %A %a %j %u %x (no
 * widths, no %%: "%%j" is "%" and the id) and joins a relative result to
 * work_dir. %a of a job that is not an array task is 4294967294, as in
 * Slurm. Caller frees. */
char *sl_slurm_pattern_scontrol(const char *pat, const struct sl_pattern_ctx *ctx);

#endif
