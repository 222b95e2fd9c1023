/* stepd.h - sluice-stepd's internal state, shared by its files, each
 * calling only those after it: stepd_main.c, stepd_server.c (sluiced's fork
 * server), stepd.c (supervision: signals, time limit, result), stepd_launch.c
 * (starting the batch script as the user). Not a library interface. */
#ifndef SL_STEPD_H
#define SL_STEPD_H

#include <stdint.h>
#include <sys/types.h>
#include "jobdir.h"

struct stepd {
	const char *dir;          /* the job directory */
	struct sl_launch l;
	int64_t start_time;       /* unix seconds, as written to `started` */
	pid_t job_pid;            /* the script; also its process group and session */
	int in_fd, out_fd, err_fd; /* the job's stdio as opened for the user */
};

/* Supervise the job of `dir` to its end (the lock is fd 3); the exit status
 * of sluice-stepd. fg: log to stderr; forked: by the fork server, which has
 * its own session already. */
int stepd_run(int fg, const char *dir, int forked);

/* Every signal's disposition back to the default: what a supervisor
 * inherited must not reach the job (it resets only what it set itself). */
void sl_signals_default(void);

/* sluiced's fork server on fd 3 (stepd_server.c); argv is rewritten in each
 * child to name its job directory. */
int stepd_server(int fg, const char *jobs_dir, char **argv, int argc);

/* Open the job's files as the user, write the script, fork and exec it.
 * 0 on success (s->job_pid set). Otherwise the job could not be launched
 * and r holds the FAILED/JobLaunchFailure result. */
int stepd_launch(struct stepd *s, struct sl_exec_result *r);

/* Signal the job's process group (falls back to the pid while the child has
 * not yet made its own session). */
void stepd_job_kill(struct stepd *s, int sig);

#endif
