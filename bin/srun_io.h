/* srun_io.h - the standard streams of a step's tasks as srun relays them:
 * each task's stdout and stderr read from its pipes and written whole
 * lines at a time (with -l's "N: " label), to srun's own or to the files
 * -o/-e name per task; srun's stdin copied to the tasks -i names. */
#ifndef SRUN_IO_H
#define SRUN_IO_H

#include <stddef.h>
#include <sys/types.h>

#define SRUN_LINE_MAX 8192 /* a longer line goes out in pieces */

/* One task's stdout or stderr. */
struct srun_stream {
	int fd;                   /* the pipe's read end; -1 once at EOF */
	int out;                  /* where its lines go (borrowed) */
	int task;
	char buf[SRUN_LINE_MAX];
	size_t len;
	int open_line;            /* what went out last did not end a line */
};

struct srun_io {
	int label_width;          /* 0: no labels */
	int unbuffered;           /* -u: pass bytes on as they come */
	int append;               /* --open-mode=append: -o/-e files are not truncated */
	char **paths;             /* the files opened for -o/-e, and their fds */
	int *fds;
	size_t nfiles;
};

/* The fd to write to for this expanded path: opened once (truncated
 * unless io->append) and
 * shared by every task that names it. -1 with errno on failure. */
int srun_io_file(struct srun_io *io, const char *path);
void srun_io_close(struct srun_io *io);

/* Read what the pipe has and pass the whole lines on; at EOF the rest goes
 * too and s->fd is closed and set to -1. 0, or -1 on a read error. */
int srun_io_read(const struct srun_io *io, struct srun_stream *s);

/* Write a labelled text of srun's own (a message destined for a task's
 * stream), whole. */
void srun_io_emit(const struct srun_io *io, int out, int task, const char *text, size_t n);

/* stdin to the tasks: copies of what srun reads, one pipe per task that
 * gets it, each with its own backlog (capped: a task that reads nothing
 * stops srun reading, not the other tasks' output). */
struct srun_stdin {
	int src;                  /* srun's stdin; -1 when done */
	int *fds;                 /* per task; -1: none or closed */
	char **pend;              /* per task: bytes not yet written */
	size_t *npend;
	int ntasks;
};

/* Read once from src and offer it to every open task pipe (non-blocking):
 * call when src is readable and no backlog is left. At EOF the pipes are
 * closed as their backlogs drain. */
void srun_stdin_read(struct srun_stdin *in);
/* Write the backlog of task t (its pipe is writable). */
void srun_stdin_drain(struct srun_stdin *in, int t);
/* 1 while some task still has a backlog. */
int srun_stdin_backlog(const struct srun_stdin *in);
void srun_stdin_close(struct srun_stdin *in);

#endif
