/* srun_use.c - what a local step's tasks use (srun_use.h).
 *
 * A task of a batch job's step is a descendant of the batch script, so
 * the job's supervisor counts its CPU time in the job's (wait4 adds it up
 * the tree) and sacct takes the step's out of the batch step's. Sizes are
 * peaks and cannot be taken out: the supervisor leaves srun's tasks out of
 * its samples instead (bin/sluice-stepd/stepd_usage.c).
 *
 * The cost: one walk of each live task's tree every 2 s, and one read of
 * a task's /proc/PID/io as it ends. A task that ends between two samples
 * still has its CPU, its largest process's peak and its I/O (Slurm's,
 * sampled every 30 s, would have only the CPU). */
#include "srun_use.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proctree.h"
#include "xalloc.h"

#define SAMPLE_MS 2000
#define FIRST_MS 1000

struct task_use {
	int64_t rss, vmsize, pages, read, write; /* peaks of the samples */
	int64_t user_usec, sys_usec;
	int reaped;
};

struct srun_use {
	int ntasks;
	int64_t next_ms; /* 0: not started */
	struct task_use *t;
};

struct srun_use *srun_use_new(int ntasks)
{
	struct srun_use *u = sl_xcalloc(1, sizeof(*u));
	u->ntasks = ntasks;
	u->t = sl_xcalloc(ntasks > 0 ? (size_t)ntasks : 1, sizeof(*u->t));
	return u;
}

void srun_use_free(struct srun_use *u)
{
	if (u == NULL)
		return;
	free(u->t);
	free(u);
}

static void raise_to(int64_t *peak, int64_t v)
{
	if (v > *peak)
		*peak = v;
}

int64_t srun_use_sample(struct srun_use *u, const pid_t *pid, int64_t now_ms)
{
	if (u->next_ms == 0)
		u->next_ms = now_ms + FIRST_MS;
	if (now_ms < u->next_ms)
		return u->next_ms;
	for (int t = 0; t < u->ntasks; t++) {
		struct sl_proc_sample x;
		if (pid[t] <= 0)
			continue;
		sl_proc_sample_tree(pid[t], 1, &x);
		raise_to(&u->t[t].rss, x.rss_kib);
		raise_to(&u->t[t].vmsize, x.vsize_kib);
		raise_to(&u->t[t].pages, x.majflt);
		raise_to(&u->t[t].read, x.rchar);
		raise_to(&u->t[t].write, x.wchar);
	}
	u->next_ms = now_ms + SAMPLE_MS;
	return u->next_ms;
}

/* The zombie's /proc/PID/io: its own I/O and that of every child it
 * reaped (the kernel adds a reaped child's to its parent's). */
void srun_use_exited(struct srun_use *u, int t, pid_t pid)
{
	char path[64], key[32];
	long long v;
	FILE *f;

	if (t < 0 || t >= u->ntasks)
		return;
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fscanf(f, "%31[^:]: %lld\n", key, &v) == 2) {
		if (strcmp(key, "rchar") == 0)
			raise_to(&u->t[t].read, v);
		else if (strcmp(key, "wchar") == 0)
			raise_to(&u->t[t].write, v);
	}
	fclose(f);
}

static int64_t usec(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

void srun_use_reaped(struct srun_use *u, int t, const struct rusage *ru)
{
	if (t < 0 || t >= u->ntasks)
		return;
	/* rusage covers the task and every process it reaped: the peak of the
	 * largest of them, when no sample saw the tree larger */
	raise_to(&u->t[t].rss, ru->ru_maxrss);
	raise_to(&u->t[t].pages, ru->ru_majflt);
	u->t[t].user_usec = usec(&ru->ru_utime);
	u->t[t].sys_usec = usec(&ru->ru_stime);
	u->t[t].reaped = 1;
}

void srun_use_result(const struct srun_use *u, struct sl_usage *out)
{
	memset(out, 0, sizeof(*out));
	for (int t = 0; t < u->ntasks; t++) {
		const struct task_use *x = &u->t[t];
		int64_t v[SL_USE_N] = {x->user_usec + x->sys_usec, x->rss, x->vmsize, x->pages,
				       x->read, x->write};
		if (!x->reaped)
			continue;
		sl_usage_tasks_add(&out->tasks, t, v);
		out->user_usec += x->user_usec;
		out->sys_usec += x->sys_usec;
	}
}
