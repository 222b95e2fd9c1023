/* fsutil.c - file-system helpers. */
#include "fsutil.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sl_mkdirs(const char *path, mode_t mode, struct sl_err *err)
{
	char *p = sl_xstrdup(path);
	int r = 0;

	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, mode) != 0 && errno != EEXIST) {
			r = sl_err_set(err, SL_EIO, "cannot create directory %s: %s", p,
				       strerror(errno));
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return r;
}

/* Collapse "//", "." and ".." lexically; `p` is absolute. The prefix came
 * from realpath(), so ".." only crosses components the admin wrote. */
void sl_path_normalize(char *p)
{
	char *out = p, *in = p;

	while (*in != '\0') {
		char *seg;
		size_t len;

		while (*in == '/')
			in++;
		seg = in;
		while (*in != '\0' && *in != '/')
			in++;
		len = (size_t)(in - seg);
		if (len == 0 || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > p && *--out != '/')
				;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, len);
		out += len;
	}
	if (out == p)
		*out++ = '/';
	*out = '\0';
}


static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return s[0] != '.' && n > k && strcmp(s + n - k, suffix) == 0;
}

int sl_list_files(const char *dir, const char *suffix, size_t max, char ***out,
		  struct sl_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL)
		return sl_err_set(err, SL_EIO, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!has_suffix(e->d_name, suffix))
			continue;
		if (n == max) {
			closedir(d);
			sl_strv_free(v);
			return sl_err_set(err, SL_ETOOBIG, "%s: more than %zu *%s files",
					  dir, max, suffix);
		}
		v = sl_xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = sl_xasprintf("%s/%s", dir, e->d_name);
		v[n] = NULL;
	}
	closedir(d);
	if (n == 0)
		return sl_err_set(err, SL_ECONFIG, "%s: no *%s files", dir, suffix);
	qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return 0;
}

int sl_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int sl_overwrite(int fd, const char *p, size_t n)
{
	/* pwrite: no seek to the start first, one system call fewer for each
	 * of the files a job's start and end write */
	for (size_t off = 0; off < n;) {
		ssize_t w = pwrite(fd, p + off, n - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	/* A file no longer than this is left as is: ftruncate journals an
	 * inode change even when the size stays, and most of these files are
	 * new. */
	off_t end = lseek(fd, 0, SEEK_END);
	if (end < 0)
		return -1;
	return end > (off_t)n ? ftruncate(fd, (off_t)n) : 0;
}

char *sl_path_search(const char *path, const char *name, int mode)
{
	struct stat st;

	for (const char *p = path;; p += strcspn(p, ":") + 1) {
		size_t k = strcspn(p, ":");
		char *full = sl_xasprintf("%.*s/%s", (int)k, k ? p : ".", name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, mode) == 0)
			return full;
		free(full);
		if (p[k] == '\0')
			return NULL;
	}
}

char *sl_find_program(const char *name, char *const *env)
{
	const char *path = NULL;
	char *found;

	if (strchr(name, '/') != NULL)
		return sl_xstrdup(name);
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	found = path != NULL ? sl_path_search(path, name, X_OK) : NULL;
	return found ? found : sl_xstrdup(name);
}

int sl_task_chdir(const char *host, const char *dir)
{
	char line[PATH_MAX + 512];
	int n;

	if (chdir(dir) == 0)
		return 0;
	n = snprintf(line, sizeof(line), "slurmstepd-%s: error: couldn't chdir to `%s': %s: "
		     "going to /tmp instead\n", host, dir, strerror(errno));
	if (n > 0 && (size_t)n < sizeof(line)) {
		(void)sl_write_all(2, line, (size_t)n);
		(void)sl_write_all(2, line, (size_t)n);
	}
	return chdir("/tmp");
}
