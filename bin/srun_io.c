/* srun_io.c - relaying a step's standard streams (srun_io.h). Lines are
 * written whole, so the output of two tasks never mixes within a line, as
 * Slurm's srun buffers them unless -u. */
#include "srun_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

#define STDIN_BACKLOG_MAX (1u << 20)

int srun_io_file(struct srun_io *io, const char *path)
{
	for (size_t i = 0; i < io->nfiles; i++)
		if (strcmp(io->paths[i], path) == 0)
			return io->fds[i];
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (io->append ? O_APPEND : O_TRUNC),
		      0666);
	if (fd < 0)
		return -1;
	io->paths = sl_xrealloc(io->paths, (io->nfiles + 1) * sizeof(*io->paths));
	io->fds = sl_xrealloc(io->fds, (io->nfiles + 1) * sizeof(*io->fds));
	io->paths[io->nfiles] = sl_xstrdup(path);
	io->fds[io->nfiles++] = fd;
	return fd;
}

void srun_io_close(struct srun_io *io)
{
	for (size_t i = 0; i < io->nfiles; i++) {
		close(io->fds[i]);
		free(io->paths[i]);
	}
	free(io->paths);
	free(io->fds);
	io->paths = NULL;
	io->fds = NULL;
	io->nfiles = 0;
}

/* One piece, labelled, in a single write (a pipe or tty reader sees a
 * whole line). */
static void put(const struct srun_io *io, int out, int task, const char *p, size_t n)
{
	char head[32];
	int k = io->label_width ? snprintf(head, sizeof(head), "%*d: ", io->label_width, task) : 0;
	char *line = sl_xmalloc((size_t)k + n);
	memcpy(line, head, (size_t)k);
	memcpy(line + k, p, n);
	(void)sl_write_all(out, line, (size_t)k + n);
	free(line);
}

void srun_io_emit(const struct srun_io *io, int out, int task, const char *text, size_t n)
{
	put(io, out, task, text, n);
}

static void lines(const struct srun_io *io, struct srun_stream *s, int eof)
{
	size_t start = 0;
	for (size_t i = 0; i < s->len; i++)
		if (s->buf[i] == '\n') {
			put(io, s->out, s->task, s->buf + start, i + 1 - start);
			start = i + 1;
			s->open_line = 0;
		}
	if (start < s->len && (eof || io->unbuffered || (start == 0 && s->len == sizeof(s->buf)))) {
		put(io, s->out, s->task, s->buf + start, s->len - start);
		start = s->len;
		s->open_line = 1;
	}
	/* -l ends a task's last line that has no newline (also one that went
	 * out in pieces), as Slurm's labelled output does, so that the next
	 * label starts a line */
	if (eof && s->open_line && io->label_width) {
		(void)sl_write_all(s->out, "\n", 1);
		s->open_line = 0;
	}
	memmove(s->buf, s->buf + start, s->len - start);
	s->len -= start;
}

int srun_io_read(const struct srun_io *io, struct srun_stream *s)
{
	ssize_t n;
	if (s->fd < 0)
		return 0;
	n = read(s->fd, s->buf + s->len, sizeof(s->buf) - s->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n > 0) {
		s->len += (size_t)n;
		lines(io, s, 0);
		return 0;
	}
	lines(io, s, 1);
	close(s->fd);
	s->fd = -1;
	return n < 0 ? -1 : 0;
}

static void close_task(struct srun_stdin *in, int t)
{
	if (in->fds[t] >= 0)
		close(in->fds[t]);
	in->fds[t] = -1;
	free(in->pend[t]);
	in->pend[t] = NULL;
	in->npend[t] = 0;
}

void srun_stdin_drain(struct srun_stdin *in, int t)
{
	while (in->fds[t] >= 0 && in->npend[t] > 0) {
		ssize_t w = write(in->fds[t], in->pend[t], in->npend[t]);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) { /* the task closed its stdin or ended: it gets no more */
			close_task(in, t);
			return;
		}
		memmove(in->pend[t], in->pend[t] + w, in->npend[t] - (size_t)w);
		in->npend[t] -= (size_t)w;
	}
	if (in->src < 0 && in->fds[t] >= 0 && in->npend[t] == 0)
		close_task(in, t);
}

void srun_stdin_read(struct srun_stdin *in)
{
	char buf[65536];
	ssize_t n = read(in->src, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		in->src = -1; /* not ours to close: srun's fd 0 */
		for (int t = 0; t < in->ntasks; t++)
			srun_stdin_drain(in, t);
		return;
	}
	for (int t = 0; t < in->ntasks; t++) {
		if (in->fds[t] < 0)
			continue;
		if (in->npend[t] + (size_t)n > STDIN_BACKLOG_MAX) {
			close_task(in, t);
			continue;
		}
		in->pend[t] = sl_xrealloc(in->pend[t], in->npend[t] + (size_t)n);
		memcpy(in->pend[t] + in->npend[t], buf, (size_t)n);
		in->npend[t] += (size_t)n;
		srun_stdin_drain(in, t);
	}
}

int srun_stdin_backlog(const struct srun_stdin *in)
{
	for (int t = 0; t < in->ntasks; t++)
		if (in->fds[t] >= 0 && in->npend[t] > 0)
			return 1;
	return 0;
}

void srun_stdin_close(struct srun_stdin *in)
{
	for (int t = 0; in->fds && t < in->ntasks; t++)
		close_task(in, t);
	free(in->fds);
	free(in->pend);
	free(in->npend);
	in->fds = NULL;
	in->pend = NULL;
	in->npend = NULL;
}
