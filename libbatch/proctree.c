/* proctree.c - a process tree and its use, from /proc (proctree.h). */
#include "proctree.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

/* The children of every thread of pid, appended to list (at most max). */
static void add_children(pid_t pid, pid_t *list, size_t *n, size_t max)
{
	char path[64], cpath[384];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL && *n < max) {
		FILE *f;
		int c;
		if (e->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "%s/%s/children", path, e->d_name);
		if ((f = fopen(cpath, "re")) == NULL)
			continue;
		while (*n < max && fscanf(f, "%d", &c) == 1)
			list[(*n)++] = (pid_t)c;
		fclose(f);
	}
	closedir(d);
}

/* The tree from root down, root first, each entry's parent's index in
 * parent[] (when given): how many. */
static size_t walk(pid_t root, pid_t *list, size_t *parent, size_t max)
{
	size_t n = 0;

	if (max == 0)
		return 0;
	list[n++] = root;
	if (parent != NULL)
		parent[0] = 0;
	for (size_t i = 0; i < n && n < max; i++) {
		size_t from = n;
		add_children(list[i], list, &n, max);
		for (size_t k = from; parent != NULL && k < n; k++)
			parent[k] = i;
	}
	return n;
}

size_t sl_proc_tree(pid_t root, int with_root, pid_t *list, size_t max)
{
	size_t n = walk(root, list, NULL, max);

	if (n > 0 && !with_root) {
		memmove(list, list + 1, (n - 1) * sizeof(*list));
		n--;
	}
	return n;
}

/* /proc/<pid>/stat: the fields after the command name (which may hold
 * spaces and parentheses, so it is skipped to the last ')'); *srun set
 * when the command is srun. */
static int read_stat(pid_t pid, struct sl_proc_sample *s, int *srun)
{
	char buf[1024];
	const char *p = sl_proc_stat_tail(pid, buf, sizeof(buf));
	unsigned long long utime, stime, vsize, majflt;
	long long cutime, cstime, rss;

	if (p == NULL)
		return -1;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	 * utime stime cutime cstime priority nice threads itrealvalue
	 * starttime vsize rss */
	if (sscanf(p + 1, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %llu %*u %llu %llu %lld %lld "
			  "%*d %*d %*d %*d %*u %llu %lld",
		   &majflt, &utime, &stime, &cutime, &cstime, &vsize, &rss) != 7)
		return -1;
	s->rss_kib += rss * (sysconf(_SC_PAGESIZE) / 1024);
	s->vsize_kib += (int64_t)(vsize / 1024);
	s->majflt += (int64_t)majflt;
	s->cpu_ticks += (int64_t)(utime + stime) + cutime + cstime;
	s->reaped_ticks += cutime + cstime;
	s->nprocs++;
	if (srun != NULL) { /* "PID (srun) S ...": p is past the ')' */
		const char *open = strchr(buf, '(');
		*srun = open != NULL && p - open == 6 && memcmp(open, "(srun)", 6) == 0;
	}
	return 0;
}

static void read_io(pid_t pid, struct sl_proc_sample *s)
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

const char *sl_proc_stat_tail(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	ssize_t n;
	int fd;

	/* open and read, not stdio: the supervisors and the fork server read
	 * it once a job (sl_proc_starttime) */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	/* comm may hold spaces and ')': the fields resume after the last ')' */
	return (p = strrchr(buf, ')')) != NULL ? p + 1 : NULL;
}

pid_t sl_proc_parent(pid_t pid)
{
	char buf[1024];
	const char *p = sl_proc_stat_tail(pid, buf, sizeof(buf));
	int ppid;

	if (p == NULL || sscanf(p, " %*c %d", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

static void add(struct sl_proc_sample *to, const struct sl_proc_sample *one)
{
	to->rss_kib += one->rss_kib;
	to->vsize_kib += one->vsize_kib;
	to->majflt += one->majflt;
	to->cpu_ticks += one->cpu_ticks;
	to->reaped_ticks += one->reaped_ticks;
	to->rchar += one->rchar;
	to->wchar += one->wchar;
	to->nprocs += one->nprocs;
}

/* Slurm lists the newest first: the root last. */
static void pid_list(char *buf, size_t len, const pid_t *list, const unsigned char *skip, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = n; i-- > 0 && k < len - 12;)
		if (skip == NULL || !skip[i])
			k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", (int)list[i]);
}

void sl_proc_sample_tree(pid_t root, int with_root, struct sl_proc_sample *s)
{
	pid_t *list = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*list));
	size_t n = sl_proc_tree(root, with_root, list, SL_PROC_TREE_MAX);

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		if (read_stat(list[i], s, NULL) == 0)
			read_io(list[i], s);
	pid_list(s->pids, sizeof(s->pids), list, NULL, n);
	free(list);
}

/* Marks of sl_proc_sample_job()'s walk. */
enum { M_SRUN = 1, M_STEP = 2 };

void sl_proc_sample_job(pid_t root, struct sl_proc_sample *all, struct sl_proc_sample *own)
{
	pid_t *list = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*list));
	size_t *parent = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*parent));
	unsigned char *mark = sl_xcalloc(SL_PROC_TREE_MAX, 1);
	/* not in own's pids: a step's, or gone */
	unsigned char *hide = sl_xcalloc(SL_PROC_TREE_MAX, 1);
	size_t n = walk(root, list, parent, SL_PROC_TREE_MAX);

	memset(all, 0, sizeof(*all));
	memset(own, 0, sizeof(*own));
	for (size_t i = 0; i < n; i++) {
		struct sl_proc_sample one = {0};
		int srun = 0;
		/* in the walk's order a parent comes before its children */
		if (i > 0 && (mark[parent[i]] & (M_SRUN | M_STEP)))
			mark[i] |= M_STEP;
		hide[i] = 1;
		if (read_stat(list[i], &one, &srun) != 0)
			continue; /* gone */
		mark[i] |= srun ? M_SRUN : 0;
		read_io(list[i], &one);
		add(all, &one);
		if (srun) { /* the tasks it reaped are its step's */
			one.cpu_ticks -= one.reaped_ticks;
			one.reaped_ticks = 0;
		}
		if (!(mark[i] & M_STEP))
			add(own, &one);
		hide[i] = (mark[i] & M_STEP) != 0;
	}
	pid_list(all->pids, sizeof(all->pids), list, NULL, n);
	pid_list(own->pids, sizeof(own->pids), list, hide, n);
	free(hide);
	free(mark);
	free(parent);
	free(list);
}
