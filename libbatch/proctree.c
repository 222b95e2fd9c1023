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

size_t sl_proc_tree(pid_t root, int with_root, pid_t *list, size_t max)
{
	size_t n = 0, i = 0;

	if (max == 0)
		return 0;
	list[n++] = root;
	for (; i < n && n < max; i++)
		add_children(list[i], list, &n, max);
	if (!with_root) {
		memmove(list, list + 1, (n - 1) * sizeof(*list));
		n--;
	}
	return n;
}

/* /proc/<pid>/stat: the fields after the command name (which may hold
 * spaces and parentheses, so it is skipped to the last ')'). */
static int read_stat(pid_t pid, struct sl_proc_sample *s)
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
	s->nprocs++;
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

void sl_proc_sample_tree(pid_t root, int with_root, struct sl_proc_sample *s)
{
	pid_t *list = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*list));
	size_t n = sl_proc_tree(root, with_root, list, SL_PROC_TREE_MAX);

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		if (read_stat(list[i], s) == 0)
			read_io(list[i], s);
	/* Slurm lists the newest first: the root last */
	for (size_t i = n, k = 0; i-- > 0 && k < sizeof(s->pids) - 12;)
		k += (size_t)snprintf(s->pids + k, sizeof(s->pids) - k, "%s%d", k ? "," : "",
				      (int)list[i]);
	free(list);
}
