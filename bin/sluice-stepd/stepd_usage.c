/* stepd_usage.c - what the job's processes use, measured by its
 * supervisor as Slurm's jobacct_gather/linux does for a batch step: a
 * second after the launch and every 2 s after that, the job's process tree
 * (from the script down, through /proc/<pid>/task/<tid>/children) is read
 * from /proc and the sums of its resident and virtual sizes kept at their
 * peaks; each sample is written to <jobdir>/usage for sstat. At the end
 * the rusage of everything that was reaped adds the CPU times and the
 * peak of any one process (wait4's), so a job shorter than a sample still has
 * figures (Slurm's, sampled every 30 s, has none) and costs no sample. No
 * cgroup: the supervisor has none of its own.
 *
 * The batch step is the script's own processes, as Slurm's: the tasks of
 * its srun steps run there under the step's own slurmstepd. Here they are
 * the script's descendants, so the sizes are sampled without them
 * (sl_proc_sample_job: srun's children are its step's, which srun
 * measures), and the end's largest reaped process, which may be one of
 * them, is kept apart (reaped_rss) for sacct to weigh against the steps'.
 * CPU time, faults and I/O add up the tree in the kernel and cannot be
 * split here: they stay the whole job's, and sacct takes the steps' out
 * of them (compat/sacct_usage.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "proctree.h"
#include "stepd.h"
#include "xalloc.h"

#define SAMPLE_MS 2000
#define FIRST_MS 1000 /* the first sample, after the launch */

static void write_usage(const struct stepd *s)
{
	struct sl_err err = SL_ERR_INIT;
	char *t = sl_usage_to_json(&s->usage);

	if (sl_jobdir_write(s->dir, SL_JOBDIR_USAGE, t, strlen(t), 0644, 0, &err) != 0)
		sl_err_log("%s", err.msg);
	free(t);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int64_t stepd_usage_sample(struct stepd *s, int64_t now_ms)
{
	struct sl_usage *u = &s->usage;
	long hz = sysconf(_SC_CLK_TCK);
	struct sl_proc_sample x, own;

	int64_t every = s->l.sample_secs > 0 ? (int64_t)s->l.sample_secs * 1000 : SAMPLE_MS;
	if (s->l.sample_secs < 0) /* --acctg-freq task=0: the end's totals alone */
		return INT64_MAX;
	if (s->usage_next_ms == 0) /* a job shorter than this costs no sample */
		s->usage_next_ms = now_ms + (every < FIRST_MS ? every : FIRST_MS);
	if (now_ms < s->usage_next_ms)
		return s->usage_next_ms;
	sl_proc_sample_job(s->job_pid, &x, &own);
	u->max_rss = max64(u->max_rss, own.rss_kib);
	u->max_vmsize = max64(u->max_vmsize, own.vsize_kib);
	u->max_pages = max64(u->max_pages, x.majflt);
	u->disk_read = max64(u->disk_read, x.rchar);
	u->disk_write = max64(u->disk_write, x.wchar);
	/* utime and stime together: /proc has no split for reaped children
	 * that would survive the sum, and sstat shows their sum alone; the
	 * script's own (sluiced takes out what ended steps used) */
	u->user_usec = max64(u->user_usec, hz > 0 ? own.cpu_ticks * (1000000 / hz) : 0);
	u->ntasks = own.nprocs;
	memcpy(u->pids, own.pids, sizeof(u->pids));
	u->sampled = (int64_t)time(NULL);
	if (own.nprocs > 0)
		write_usage(s);
	s->usage_next_ms = now_ms + every;
	return s->usage_next_ms;
}

void stepd_usage_begin(struct stepd *s)
{
	if (getrusage(RUSAGE_CHILDREN, &s->ru0) != 0)
		memset(&s->ru0, 0, sizeof(s->ru0));
}

void stepd_usage_reaped(struct stepd *s, const struct rusage *ru)
{
	if (ru->ru_maxrss > s->maxrss_kib)
		s->maxrss_kib = ru->ru_maxrss;
}

static int64_t usec(const struct timeval *now, const struct timeval *then)
{
	return ((int64_t)now->tv_sec - then->tv_sec) * 1000000 + (now->tv_usec - then->tv_usec);
}

void stepd_usage_end(struct stepd *s, struct sl_exec_result *r)
{
	struct sl_usage *u = &s->usage;
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		/* the exact split replaces the samples' estimate; what the
		 * children of a kept supervisor's earlier jobs used is not
		 * counted, and the peak is of this job's processes alone */
		u->user_usec = usec(&ru.ru_utime, &s->ru0.ru_utime);
		u->sys_usec = usec(&ru.ru_stime, &s->ru0.ru_stime);
		u->reaped_rss = s->maxrss_kib;
		u->max_pages = max64(u->max_pages, ru.ru_majflt - s->ru0.ru_majflt);
	}
	u->ntasks = 0;
	u->pids[0] = '\0';
	r->usage = *u;
}
