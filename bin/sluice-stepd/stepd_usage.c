/* stepd_usage.c - what the job's processes use, measured by its
 * supervisor as Slurm's jobacct_gather/linux does for a batch step: a
 * second after the launch and every 2 s after that, the job's process tree
 * (from the script down, through /proc/<pid>/task/<tid>/children) is read
 * from /proc and the sums of its resident and virtual sizes kept at their
 * peaks; each sample is written to <jobdir>/usage for sstat. At the end
 * wait4's rusage of everything that was reaped adds the CPU times and the
 * peak of any one process, so a job shorter than a sample still has
 * figures (Slurm's, sampled every 30 s, has none) and costs no sample. No
 * cgroup: the supervisor has none of its own. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "stepd.h"
#include "xalloc.h"

#define SAMPLE_MS 2000
#define FIRST_MS 1000 /* the first sample, after the launch */

struct sample {
	int64_t rss_kib, vsize_kib, majflt, cpu_ticks, rchar, wchar;
	int nprocs;
	char pids[128];
};

/* /proc/<pid>/stat: the fields after the command name (which may hold
 * spaces and parentheses, so it is skipped to the last ')'). */
static int read_stat(pid_t pid, struct sample *s)
{
	char path[64], buf[1024], *p;
	unsigned long long utime, stime, vsize, majflt;
	long long cutime, cstime, rss;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	 * utime stime cutime cstime priority nice threads itrealvalue
	 * starttime vsize rss */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %llu %*u %llu %llu %lld %lld "
			  "%*d %*d %*d %*d %*u %llu %lld",
		   &majflt, &utime, &stime, &cutime, &cstime, &vsize, &rss) != 7)
		return -1;
	s->rss_kib += rss * (sysconf(_SC_PAGESIZE) / 1024);
	s->vsize_kib += (int64_t)(vsize / 1024);
	s->majflt += (int64_t)majflt;
	s->cpu_ticks += (int64_t)(utime + stime) + cutime + cstime;
	s->nprocs++;
	return 0;
}

static void read_io(pid_t pid, struct sample *s)
{
	char path[64], key[32];
	long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return; /* another user's, with a supervisor that is not root */
	while (fscanf(f, "%31[^:]: %lld\n", key, &v) == 2) {
		if (strcmp(key, "rchar") == 0)
			s->rchar += v;
		else if (strcmp(key, "wchar") == 0)
			s->wchar += v;
	}
	fclose(f);
}

static void take(pid_t root, struct sample *s)
{
	pid_t *list = sl_xmalloc(STEPD_TREE_MAX * sizeof(*list));
	size_t n = stepd_tree(root, 1, list, STEPD_TREE_MAX);

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		if (read_stat(list[i], s) == 0)
			read_io(list[i], s);
	/* Slurm lists the newest first: the script last */
	for (size_t i = n, k = 0; i-- > 0 && k < sizeof(s->pids) - 12;)
		k += (size_t)snprintf(s->pids + k, sizeof(s->pids) - k, "%s%d", k ? "," : "",
				      (int)list[i]);
	free(list);
}

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
	struct sample x;

	if (s->usage_next_ms == 0) /* a job shorter than this costs no sample */
		s->usage_next_ms = now_ms + FIRST_MS;
	if (now_ms < s->usage_next_ms)
		return s->usage_next_ms;
	take(s->job_pid, &x);
	u->max_rss = max64(u->max_rss, x.rss_kib);
	u->max_vmsize = max64(u->max_vmsize, x.vsize_kib);
	u->max_pages = max64(u->max_pages, x.majflt);
	u->disk_read = max64(u->disk_read, x.rchar);
	u->disk_write = max64(u->disk_write, x.wchar);
	/* utime and stime together: /proc has no split for reaped children
	 * that would survive the sum, and sstat shows their sum alone */
	u->user_usec = max64(u->user_usec, hz > 0 ? x.cpu_ticks * (1000000 / hz) : 0);
	u->ntasks = x.nprocs;
	memcpy(u->pids, x.pids, sizeof(u->pids));
	u->sampled = (int64_t)time(NULL);
	if (x.nprocs > 0)
		write_usage(s);
	s->usage_next_ms = now_ms + SAMPLE_MS;
	return s->usage_next_ms;
}

void stepd_usage_end(struct stepd *s, struct sl_exec_result *r)
{
	struct sl_usage *u = &s->usage;
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		/* the exact split replaces the samples' estimate */
		u->user_usec = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
		u->sys_usec = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
		u->max_rss = max64(u->max_rss, ru.ru_maxrss);
		u->max_pages = max64(u->max_pages, ru.ru_majflt);
	}
	u->ntasks = 0;
	u->pids[0] = '\0';
	r->usage = *u;
}
