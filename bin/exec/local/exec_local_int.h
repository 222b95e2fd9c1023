/* exec_local_int.h - the local executor's state, shared by exec_local.c
 * (launch, follow, adopt, forget) and exec_local_signal.c (signals to
 * a job's supervisor). */
#ifndef SL_EXEC_LOCAL_INT_H
#define SL_EXEC_LOCAL_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "exec_local.h"

/* Running jobs by id: a launch and an end each look one up, and a host of
 * short jobs keeps a thousand running. A power of two; chains stay short. */
#define JOB_BUCKETS 1024

struct xjob {
	struct sl_exec_local *x;
	uint64_t id;
	char *dir;
	pid_t pid;                 /* the supervisor; 0 when unknown */
	unsigned long long start;  /* its start time, when adopted (stepd.pid's) */
	int pidfd;                 /* -1: followed by the lock probe */
	int endfd;                 /* the end pipe; -1: followed by the pidfd */
	int end_watched;           /* endfd is in the loop (else the lock probe) */
	int unproven;              /* named by pid alone: pin() before a signal */
	struct {                   /* signals for a supervisor not yet known, */
		int sig, value;    /* sent in order once stepd.pid names it */
	} deferred[4];
	int ndeferred;
	int child;                 /* spawned by this daemon: reap it */
	int awaiting;              /* the fork server's answer is due */
	uint64_t timer;
	struct xjob *next;
};

struct sl_exec_local {
	struct sl_loop *loop;
	char *jobs_dir, *stepd_path, *host, *cluster;
	struct sl_exec_conf conf;  /* strings point at the copies above */
	struct sl_spawner *spawner; /* supervisors forked by sluice-stepd --server */
	struct sl_logincache *logins;
	struct sl_dirpool *pool;    /* spare job directories */
	struct xjob *jobs[JOB_BUCKETS]; /* running jobs, chained by id */
	struct sl_evq *evq;    /* events for the daemon */
	uint64_t *due;         /* jobs whose server answers are due, oldest at head */
	size_t due_head, ndue, capdue;
	uint64_t collect_timer; /* armed while answers are due */
};

struct xjob *sl_xl_job_find(struct sl_exec_local *x, uint64_t id);
/* Read the fork server's answers that are due: those already there, or
 * (wait) all. */
void sl_xl_collect(struct sl_exec_local *x, int wait);
/* A signal kept for j's supervisor, sent once stepd.pid names it. */
void sl_xl_send_deferred(struct xjob *j);

#endif
