/* usage.h - a job's resource use (sacct's MaxRSS, UserCPU, ...; sstat's
 * live figures) and its JSON form, shared by sluice-stepd (which measures
 * it: bin/sluice-stepd/stepd_usage.c), the result and usage files of the
 * job directory (jobdir.h), sluiced's stat reply and the commands. */
#ifndef SL_USAGE_H
#define SL_USAGE_H

#include <stdint.h>

/* The figures Slurm keeps for each task of a step (jobacctinfo's TRES
 * usage): CPU (microseconds), resident and virtual size (KiB), major
 * faults, bytes read and written. */
enum sl_usage_item {
	SL_USE_CPU, SL_USE_RSS, SL_USE_VMSIZE, SL_USE_PAGES, SL_USE_READ, SL_USE_WRITE, SL_USE_N
};
/* One figure over a step's tasks: its largest and smallest (and the
 * tasks, by rank, that had them) and its sum, from which sacct's Ave is
 * the sum over the step's tasks, as slurmdbd has it. */
struct sl_usage_agg {
	int64_t max, min, tot;
	int max_task, min_task;
};
/* Every figure of a step's tasks; n 0: none measured. */
struct sl_usage_tasks {
	int n;
	struct sl_usage_agg a[SL_USE_N];
};

/* What a job's processes used, as sacct and sstat show it (Slurm's
 * jobacct_gather figures for the batch step): the peaks of the whole
 * process group's resident and virtual size and major faults, and the
 * CPU time of the processes that ended (wait4's rusage) plus, while it
 * runs, of those alive. */
struct sl_usage {
	int64_t max_rss;       /* KiB */
	int64_t max_vmsize;    /* KiB */
	int64_t max_pages;     /* major page faults */
	int64_t user_usec;
	int64_t sys_usec;
	int64_t disk_read;     /* bytes (rchar) */
	int64_t disk_write;    /* bytes (wchar) */
	int ntasks;            /* processes seen at the last sample */
	char pids[128];        /* their ids, "12859,12857" (sstat's Pids); "" none */
	int64_t sampled;       /* unix seconds of the last sample; 0: none */
	/* A batch step's: the peak resident size of the largest single
	 * process reaped (wait4's), its srun steps' tasks among them, which
	 * max_rss (the sampled peak of the script's own processes) leaves
	 * out: sacct counts it as the script's only when no step's task
	 * reached it (compat/sacct_usage.c). KiB; 0: none. */
	int64_t reaped_rss;
	/* An srun step's: its tasks' figures one by one (srun_step.c); n 0
	 * for a batch step, whose one task is the figures above. */
	struct sl_usage_tasks tasks;
};
/* JSON object text {"maxRss":..., ...}, members at 0 left out; caller
 * frees. */
char *sl_usage_to_json(const struct sl_usage *u);
/* The object's members into *u (zeroed first; unknown members skipped).
 * 0, or -1 when text is not a JSON object. */
int sl_usage_from_json(const char *text, struct sl_usage *u);
/* As the two above, on a json-c object (struct json_object *): for the
 * result file's "usage" member and the stat reply. */
struct json_object;
struct sl_job;
/* The end's figures into the job's record (job.h's max_rss, ...). */
void sl_usage_to_job(const struct sl_usage *u, struct sl_job *j);
/* The record's back (ntasks 1 when it has any). */
void sl_usage_from_job(const struct sl_job *j, struct sl_usage *u);
struct json_object *sl_usage_to_obj(const struct sl_usage *u);
void sl_usage_from_obj(struct json_object *o, struct sl_usage *u);

/* Task `task`'s figures v (SL_USE_* order) into t: the first task sets
 * every figure, the others raise the max, lower the min (the lower rank
 * keeps a tie, as Slurm's) and add to the sum. */
void sl_usage_tasks_add(struct sl_usage_tasks *t, int task, const int64_t v[SL_USE_N]);
/* u's figures task by task: its own when an srun step measured them,
 * else the one task of a batch step (task 0, every aggregate its one
 * figure; n 0 when u has none). */
void sl_usage_per_task(const struct sl_usage *u, struct sl_usage_tasks *t);
/* The mean of a figure over the tasks (Ave*): the sum over n, 0 with none. */
int64_t sl_usage_ave(const struct sl_usage_tasks *t, enum sl_usage_item k);

#endif
