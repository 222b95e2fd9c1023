/* sbcast.c - one local copy of a file (sbcast.h). */
#include "sbcast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xalloc.h"

/* slurm_ctime2's: "Thu Nov 26 23:59:01 2026". */
static void ctime_line(FILE *log, const char *what, time_t t)
{
	char buf[64];
	struct tm tm;
	strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S %Y", localtime_r(&t, &tm));
	fprintf(log, "sbcast: %-8s = %s\n", what, buf);
}

static void state_lines(FILE *log, const struct stat *st)
{
	fprintf(log, "sbcast: modes    = %o\n", (unsigned)st->st_mode);
	fprintf(log, "sbcast: uid      = %u\n", (unsigned)st->st_uid);
	fprintf(log, "sbcast: gid      = %u\n", (unsigned)st->st_gid);
	ctime_line(log, "atime", st->st_atime);
	ctime_line(log, "mtime", st->st_mtime);
	ctime_line(log, "ctime", st->st_ctime);
	fprintf(log, "sbcast: size     = %ld\n", (long)st->st_size);
}

/* All of [buf, buf + n) to fd: 0, or the errno. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The source into the opened destination; 0 or an errno (a read's too). */
static int copy_data(int in, int out)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		int e;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : 0;
		if ((e = write_all(out, buf, (size_t)n)) != 0)
			return e;
	}
}

int sl_sbcast_source(struct sl_sbcast *o, FILE *log, struct sl_err *err)
{
	if ((o->fd = open(o->src, O_RDONLY | O_CLOEXEC)) < 0 || fstat(o->fd, &o->st) != 0) {
		int r = sl_err_set(err, SL_EIO, "Can't %s `%s`: %s", o->fd < 0 ? "open" : "stat",
				   o->src, strerror(errno));
		sl_sbcast_close(o);
		return r;
	}
	if (log != NULL && o->verbose)
		state_lines(log, &o->st);
	return 0;
}

void sl_sbcast_close(struct sl_sbcast *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

int sl_sbcast_copy(struct sl_sbcast *o, int *dst_errno, struct sl_err *err)
{
	struct timespec times[2] = {o->st.st_atim, o->st.st_mtim};
	int out = -1, r = 0, e = 0;
	char *dst = NULL, *cwd = NULL;

	*dst_errno = 0;
	if (o->dst[0] != '/' && (cwd = getcwd(NULL, 0)) == NULL) {
		e = errno;
		goto fail;
	}
	dst = cwd ? sl_xasprintf("%s/%s", cwd, o->dst) : sl_xstrdup(o->dst);
	if ((out = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC | (o->force ? O_TRUNC : O_EXCL),
			0700)) < 0) {
		e = errno;
		goto fail;
	}
	if ((e = copy_data(o->fd, out)) != 0)
		goto fail;
	if (fchmod(out, o->st.st_mode & 0777) != 0 || (o->preserve && futimens(out, times) != 0)) {
		e = errno;
		goto fail;
	}
	e = close(out) != 0 ? errno : 0;
	out = -1;
	if (e != 0)
		goto fail;
	if (o->st.st_size == 0) /* Slurm's warning, which is no failure */
		sl_err_set(err, 0, "Warning: file `%s` is empty.", o->src);
	goto out;
fail:
	*dst_errno = e;
	r = sl_err_set(err, SL_EIO, "%s", strerror(e));
out:
	if (out >= 0)
		close(out);
	sl_sbcast_close(o);
	free(dst);
	free(cwd);
	return r;
}
