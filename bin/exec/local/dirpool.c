/* dirpool.c - the spares are named by a counter; the pool is a stack of
 * those numbers, so the most recently used directory (warm in the caches)
 * is handed out first. */
#include "dirpool.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jobdir.h"
#include "xalloc.h"

#define SPARE_PREFIX ".spare-"

struct sl_dirpool {
	char *jobs_dir;
	size_t max, n, cap;
	uint64_t *seq, next;
};

static char *spare_path(const struct sl_dirpool *p, uint64_t seq)
{
	return sl_xasprintf("%s/" SPARE_PREFIX "%llu", p->jobs_dir, (unsigned long long)seq);
}

static void push(struct sl_dirpool *p, uint64_t seq)
{
	p->seq = sl_xgrow(p->seq, &p->cap, p->n + 1, sizeof(*p->seq));
	p->seq[p->n++] = seq;
}

struct sl_dirpool *sl_dirpool_new(const char *jobs_dir, size_t max)
{
	struct sl_dirpool *p = sl_xcalloc(1, sizeof(*p));
	DIR *d;
	struct dirent *e;

	p->jobs_dir = sl_xstrdup(jobs_dir);
	p->max = max;
	p->next = 1;
	if ((d = opendir(jobs_dir)) == NULL)
		return p;
	while ((e = readdir(d)) != NULL) {
		char *end;
		if (strncmp(e->d_name, SPARE_PREFIX, strlen(SPARE_PREFIX)) != 0)
			continue;
		unsigned long long v = strtoull(e->d_name + strlen(SPARE_PREFIX), &end, 10);
		if (*end != '\0' || v == 0)
			continue;
		if (v >= p->next)
			p->next = v + 1;
		if (p->n < p->max) {
			push(p, v);
		} else {
			char *path = spare_path(p, v);
			(void)sl_jobdir_remove(path, NULL);
			free(path);
		}
	}
	closedir(d);
	return p;
}

void sl_dirpool_free(struct sl_dirpool *p)
{
	if (p == NULL)
		return;
	free(p->seq);
	free(p->jobs_dir);
	free(p);
}

size_t sl_dirpool_count(const struct sl_dirpool *p)
{
	return p->n;
}

static int make_new(const char *dir, struct sl_err *err)
{
	if (mkdir(dir, 0711) != 0)
		return sl_err_set(err, errno == EEXIST ? SL_EEXIST : SL_EIO, "%s: %s", dir,
				  strerror(errno));
	/* The user's exec of <dir>/script needs search access, whatever our umask. */
	if (chmod(dir, 0711) != 0)
		return sl_err_set(err, SL_EIO, "%s: %s", dir, strerror(errno));
	/* A blank result, as a spare has (sl_jobdir_reset): the supervisor
	 * writes the job's end over it in place, into a block taken now, so a
	 * disk that fills while the job runs cannot cost the end (a job without
	 * a result ends NODE_FAIL). */
	return sl_jobdir_write(dir, SL_JOBDIR_RESULT, "\n", 1, 0644, 0, err);
}

int sl_dirpool_take(struct sl_dirpool *p, const char *dir, struct sl_err *err)
{
	struct stat st;

	/* rename() would replace an empty directory: look first. */
	if (lstat(dir, &st) == 0)
		return sl_err_set(err, SL_EEXIST, "%s: exists", dir);
	while (p->n > 0) {
		uint64_t seq = p->seq[--p->n];
		char *path = spare_path(p, seq);
		int r = sl_jobdir_reset(path, NULL);
		if (r == 0 && rename(path, dir) == 0) {
			free(path);
			return 0;
		}
		/* A spare that cannot be used is not worth a second look. */
		(void)sl_jobdir_remove(path, NULL);
		free(path);
	}
	return make_new(dir, err);
}

int sl_dirpool_give(struct sl_dirpool *p, const char *dir, struct sl_err *err)
{
	if (p->n < p->max) {
		char *path = spare_path(p, p->next);
		int ok = rename(dir, path) == 0;
		free(path);
		if (ok) {
			push(p, p->next++);
			return 0;
		}
		if (errno == ENOENT)
			return 0;
	}
	return sl_jobdir_remove(dir, err);
}
