/* srun_pmi2.c - the PMI server of a local step (srun_pmi2.h): fds and
 * bytes only; what the bytes mean is compat/pmi2.c's.
 *
 * Slurm makes one socketpair per task in slurmstepd and hands the task its
 * end as PMI_FD; so does this, in srun. A rank's fd is served until it
 * ends (the task exited, finalized or not) or sends what cannot be served
 * (its fd is then closed: the rank's next PMI call fails, as under Slurm's
 * stepd dropping it). Writes are non-blocking and queued: a rank that does
 * not read cannot stall the others. */
#include "srun_pmi2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmi2.h"
#include "xalloc.h"

struct srun_pmi2 {
	struct sl_pmi2 *wire;
	int ntasks;
	int *fd;      /* srun's end, per rank; -1 once closed */
	int *task_fd; /* the task's end until it is forked */
	char jobid[48];
	int told;     /* the abort was reported */
};

int srun_pmi2_start(struct srun_pmi2 **out, const struct sl_srun_layout *l, struct sl_err *err)
{
	struct srun_pmi2 *p = sl_xcalloc(1, sizeof(*p));
	int *node = sl_xcalloc((size_t)l->ntasks + 1, sizeof(int));
	char *map;

	(void)err;
	p->ntasks = l->ntasks;
	p->fd = sl_xcalloc((size_t)l->ntasks, sizeof(int));
	p->task_fd = sl_xcalloc((size_t)l->ntasks, sizeof(int));
	for (int t = 0; t < l->ntasks; t++) {
		p->fd[t] = p->task_fd[t] = -1;
		node[t] = l->task[t].node;
	}
	snprintf(p->jobid, sizeof(p->jobid), "%llu.%u", (unsigned long long)l->job_id,
		 (unsigned)l->step_id);
	/* Slurm's nodes-level distribution: the part of -m before ':' */
	map = sl_pmi2_proc_map(l->nnodes, l->ntasks, node,
			       l->distribution && strncmp(l->distribution, "cyclic", 6) == 0);
	p->wire = sl_pmi2_new(l->ntasks, p->jobid, map);
	free(map);
	free(node);
	*out = p;
	return 0;
}

static void env_add(char ***env, char *s)
{
	size_t n = sl_strv_len(*env);
	*env = sl_xrealloc(*env, (n + 2) * sizeof(char *));
	(*env)[n] = s;
	(*env)[n + 1] = NULL;
}

int srun_pmi2_task(struct srun_pmi2 *p, int t, char ***env, struct sl_err *err)
{
	int sv[2];
	/* both ends close on exec; the task's is let through in its child */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return sl_err_set(err, SL_EIO, "srun: error: mpi/pmi2: socketpair: %s",
				  strerror(errno));
	(void)fcntl(sv[0], F_SETFL, O_NONBLOCK);
	p->fd[t] = sv[0];
	p->task_fd[t] = sv[1];
	env_add(env, sl_xasprintf("PMI_FD=%d", sv[1]));
	env_add(env, sl_xasprintf("PMI_JOBID=%s", p->jobid));
	env_add(env, sl_xasprintf("PMI_RANK=%d", t));
	env_add(env, sl_xasprintf("PMI_SIZE=%d", p->ntasks));
	return 0;
}

void srun_pmi2_child(const struct srun_pmi2 *p, int t)
{
	if (p->task_fd[t] >= 0)
		(void)fcntl(p->task_fd[t], F_SETFD, 0);
}

void srun_pmi2_forked(struct srun_pmi2 *p, int t)
{
	if (p->task_fd[t] >= 0)
		close(p->task_fd[t]);
	p->task_fd[t] = -1;
}

static void drop(struct srun_pmi2 *p, int t)
{
	if (p->fd[t] >= 0)
		close(p->fd[t]);
	p->fd[t] = -1;
}

void srun_pmi2_poll(const struct srun_pmi2 *p, struct pollfd *pf)
{
	for (int t = 0; t < p->ntasks; t++) {
		size_t n;
		(void)sl_pmi2_output(p->wire, t, &n);
		pf[t] = (struct pollfd){p->fd[t], (short)(POLLIN | (n ? POLLOUT : 0)), 0};
	}
}

/* What is due to rank t, as much as its socket takes now; a rank whose
 * output is written after its finalize is done. */
static void flush(struct srun_pmi2 *p, int t)
{
	size_t n;
	const char *out = sl_pmi2_output(p->wire, t, &n);
	while (p->fd[t] >= 0 && n > 0) {
		ssize_t w = send(p->fd[t], out, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (w <= 0) {
			drop(p, t);
			return;
		}
		sl_pmi2_consumed(p->wire, t, (size_t)w);
		out = sl_pmi2_output(p->wire, t, &n);
	}
	if (p->fd[t] >= 0 && sl_pmi2_finalized(p->wire, t))
		drop(p, t);
}

static void receive(struct srun_pmi2 *p, int t)
{
	struct sl_err err = SL_ERR_INIT;
	char buf[4096];
	ssize_t n = read(p->fd[t], buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) { /* the rank exited, or closed its PMI_FD */
		drop(p, t);
		return;
	}
	if (sl_pmi2_input(p->wire, t, buf, (size_t)n, &err) != 0) {
		fprintf(stderr, "srun: error: %s\n", err.msg);
		drop(p, t);
	}
}

int srun_pmi2_serve(struct srun_pmi2 *p, const struct pollfd *pf)
{
	int rank;
	for (int t = 0; t < p->ntasks; t++)
		if (p->fd[t] >= 0 && (pf[t].revents & (POLLIN | POLLHUP | POLLERR)))
			receive(p, t);
	/* a fence's end is every rank's output, not only the poller's */
	for (int t = 0; t < p->ntasks; t++)
		flush(p, t);
	if (p->told || !sl_pmi2_aborted(p->wire, &rank))
		return -1;
	p->told = 1;
	return rank;
}

int srun_pmi2_aborted(const struct srun_pmi2 *p)
{
	return p != NULL && p->told;
}

void srun_pmi2_free(struct srun_pmi2 *p)
{
	if (p == NULL)
		return;
	for (int t = 0; t < p->ntasks; t++) {
		drop(p, t);
		srun_pmi2_forked(p, t);
	}
	sl_pmi2_free(p->wire);
	free(p->fd);
	free(p->task_fd);
	free(p);
}
