/* sacct_usage.c - what each of a job's sacct rows shows of its use.
 *
 * In Slurm each step runs under a slurmstepd of its own, so an srun step's
 * row carries its tasks' use, the batch step's the script's own processes'
 * (srun among them, not its tasks), and the job's row the sum of its
 * steps, which is what seff and reportseff read and what their sums over
 * the rows must give again. Here an srun step of a batch script runs its
 * tasks below the script, under the job's one supervisor: CPU time,
 * faults and I/O of the tasks are inside the job's measured figures, and
 * the step's srun measured them again (bin/srun_use.c). So the batch step
 * is the job's figures less those of the steps that ran inside the script
 * (never below zero: a step cannot take more than there was). Sizes are
 * peaks, which do not subtract: the supervisor sampled them without the
 * steps' tasks already, and only the largest reaped process (which may be
 * a task) is weighed here. A step that ran outside the script (salloc,
 * srun's own allocation, srun --jobid from a login shell) is in no
 * supervisor's figures: the job's row adds it. */
#include "sacct_fmt.h"

#include <string.h>

#include "job.h"
#include "step.h"
#include "usage.h"

static int64_t less(int64_t a, int64_t b)
{
	return a > b ? a - b : 0;
}

/* The steps' sums (CPU, faults, I/O) and their largest task's peak. */
struct sums {
	int64_t user, sys, pages, read, write, rss;
};

static void add_step(struct sums *s, const struct sl_step *st)
{
	const struct sl_usage_tasks *t = &st->use.tasks;

	s->user += st->use.user_usec;
	s->sys += st->use.sys_usec;
	if (t->n <= 0)
		return;
	s->pages += t->a[SL_USE_PAGES].tot;
	s->read += t->a[SL_USE_READ].tot;
	s->write += t->a[SL_USE_WRITE].tot;
	if (t->a[SL_USE_RSS].max > s->rss)
		s->rss = t->a[SL_USE_RSS].max;
}

void sl_sacct_usage_split(const struct sl_job *j, const struct sl_step *steps, size_t n,
			  struct sl_usage *job, struct sl_usage *batch)
{
	struct sums in = {0}, out = {0};
	struct sl_usage m;
	int has_batch = sl_sacct_has_batch_step(j);

	for (size_t i = 0; i < n; i++)
		if (sl_sacct_step_of_run(j, &steps[i]))
			add_step(steps[i].in_batch && has_batch ? &in : &out, &steps[i]);
	sl_usage_from_job(j, &m);
	memset(job, 0, sizeof(*job));
	memset(batch, 0, sizeof(*batch));
	/* an allocation without a batch step (srun's, salloc's) is held by a
	 * script of Sluice's own, whose use is nobody's: its steps are all */
	job->user_usec = (has_batch ? m.user_usec : 0) + out.user;
	job->sys_usec = (has_batch ? m.sys_usec : 0) + out.sys;
	if (!has_batch || m.ntasks == 0)
		return;
	batch->user_usec = less(m.user_usec, in.user);
	batch->sys_usec = less(m.sys_usec, in.sys);
	batch->max_pages = less(m.max_pages, in.pages);
	batch->disk_read = less(m.disk_read, in.read);
	batch->disk_write = less(m.disk_write, in.write);
	batch->max_vmsize = m.max_vmsize;
	/* the largest reaped process is the script's only when no task of
	 * its steps was as large: a task's peak is in both (wait4 passes it
	 * up the tree) */
	batch->max_rss = m.max_rss;
	if (m.reaped_rss > in.rss && m.reaped_rss > batch->max_rss)
		batch->max_rss = m.reaped_rss;
	batch->ntasks = 1;
}
