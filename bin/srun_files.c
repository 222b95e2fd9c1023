/* srun_files.c - see srun_files.h. */
#include "srun_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm_pattern.h"
#include "srun_multiprog.h"

static char *expand(const struct sl_srun_layout *l, const char *pat, int t)
{
	char *withstep = sl_srun_pattern_step(pat, (unsigned long long)l->job_id, l->step_id), *out;
	struct sl_pattern_ctx c = {
		.job_id = l->job_id, .array_job_id = l->array_job_id,
		.array_task_id = l->array_job_id ? l->array_task_id : SL_PATTERN_NO_TASK,
		.job_name = getenv("SLURM_JOB_NAME"), .user = getenv("USER"),
		.host = l->nodes[l->task[t].node], .node_id = (unsigned)l->task[t].node,
		.task_id = (unsigned)t, .work_dir = NULL,
	};
	out = sl_slurm_pattern_expand(withstep, &c);
	free(withstep);
	return out;
}

int srun_files_sink(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		    struct srun_io *io, int t, int err)
{
	const char *pat = err ? (o->err ? o->err : o->out) : o->out;
	char *path;
	int fd;
	if (pat == NULL)
		return err ? 2 : 1;
	if (*pat && strspn(pat, "0123456789") == strlen(pat)) /* -o N: task N's alone, here */
		return atoi(pat) == t ? (err ? 2 : 1) : srun_io_file(io, "/dev/null");
	path = expand(l, pat, t);
	fd = srun_io_file(io, path); /* opened already: srun_files_open() */
	free(path);
	return fd >= 0 ? fd : err ? 2 : 1;
}

/* -i FILE names a file (not all, none or a task number). */
static int input_is_file(const char *in)
{
	char *end;
	if (in == NULL || strcmp(in, "none") == 0 || strcmp(in, "all") == 0)
		return 0;
	(void)strtol(in, &end, 10);
	return end == in || *end != '\0';
}

/* One that cannot open ends the step before anything runs, where its
 * output would otherwise go to the terminal and the step succeed. */
int srun_files_open(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		    struct srun_io *io)
{
	for (int t = 0; t < l->ntasks; t++) {
		for (int err = 0; err < 2; err++) {
			const char *pat = err ? o->err : o->out;
			if (pat == NULL || (*pat && strspn(pat, "0123456789") == strlen(pat)))
				continue;
			char *path = expand(l, pat, t);
			int fd = srun_io_file(io, path);
			free(path);
			if (fd < 0) {
				fprintf(stderr, "srun: error: Could not open %s file: %s\n",
					err ? "stderr" : "stdout", strerror(errno));
				return -1;
			}
		}
		if (!o->pty && input_is_file(o->in)) {
			char *path = expand(l, o->in, t);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			free(path);
			if (fd < 0) {
				fprintf(stderr, "srun: error: Could not open stdin file: %s\n",
					strerror(errno));
				return -1;
			}
			close(fd);
		}
	}
	return 0;
}

int srun_files_stdin(const struct sl_srun_opts *o, const struct sl_srun_layout *l, int t,
		     int *feed)
{
	const char *in = o->in;
	char *end;
	int fds[2];
	*feed = -1;
	if (in && strcmp(in, "none") == 0)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	long only = in ? strtol(in, &end, 10) : -1;
	if (in && strcmp(in, "all") != 0 && (end == in || *end != '\0')) {
		char *path = expand(l, in, t);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fprintf(stderr, "srun: error: %s: %s\n", path, strerror(errno));
		free(path);
		return fd;
	}
	if (only >= 0 && only != t)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	(void)fcntl(fds[1], F_SETFL, O_NONBLOCK);
	*feed = fds[1];
	return fds[0];
}
