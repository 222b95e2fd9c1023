/* usage.h - a job's resource use (sacct's MaxRSS, UserCPU, ...; sstat's
 * live figures) and its JSON form, shared by sluice-stepd (which measures
 * it: bin/sluice-stepd/stepd_usage.c), the result and usage files of the
 * job directory (jobdir.h), sluiced's stat reply and the commands. */
#ifndef SL_USAGE_H
#define SL_USAGE_H

#include <stdint.h>

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

#endif
