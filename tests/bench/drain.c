/* drain.c - the submitting and measuring side of tests/bench/drain.sh:
 * how fast sluiced drains a burst of short jobs on the local executor.
 *
 * N jobs (`#!/bin/sh` + `true`, as `sbatch --wrap true` writes them, with
 * this process's environment as sbatch sends it) go in through the client
 * library in batches of B: B threads, one connection each, each submit one
 * job, meet at a barrier, and the next batch starts. Why the library and not
 * B sbatch processes: on two cores sbatch's own start (exec, dynamic linking,
 * config read, connect) costs about as much CPU as the whole job does in
 * sluiced, so a run of sbatch processes measures sbatch. drain.sh --sbatch
 * runs the processes for comparison.
 *
 * The end is seen by polling: after the last submission, every --poll-ms the
 * program asks for the jobs still PENDING, CONFIGURING, RUNNING or
 * COMPLETING; the first poll that finds none is the end. A poll is a request
 * the daemon serves in its single loop, so polls are sparse (20 ms by
 * default, error up to one interval), none are made while submitting, and
 * they ask about the last batch's jobs until those are done (the queue is
 * FIFO, so they are among the last to run), and only then about all: a
 * listing of thousands of pending jobs every 20 ms would cost sluiced as
 * much as the jobs it is busy starting.
 * Output: one line, `jobs N submit S s drain D s rate R jobs/s`, where D is
 * from the first submit to the end and R = N / D. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "client.h"
#include "err.h"
#include "job.h"
#include "jobstate.h"
#include "xalloc.h"

#define MAX_BATCH 256

extern char **environ;

struct drain {
	const char *socket;
	long njobs, batch, poll_ms, timeout_s;
	pthread_barrier_t start, done;
	atomic_long errors;
	atomic_long next;        /* next job number to submit */
	long nbatches;
	const char *interp;      /* -x: the script is `#!INTERP` alone */
	uint64_t *ids;           /* by job number; 0: its submit failed */
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "drain: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill_spec(struct sl_jobspec *s, const char *interp)
{
	sl_jobspec_init(s);
	s->name = sl_xstrdup("wrap");
	s->std_out = sl_xstrdup("/dev/null");
	s->work_dir = sl_xstrdup("/tmp");
	s->submit_dir = sl_xstrdup("/tmp");
	s->submit_host = sl_xstrdup("bench");
	s->script = interp ? sl_xasprintf("#!%s\n", interp)
			   : sl_xstrdup("#!/bin/sh\n# This script was created by sbatch --wrap.\n\ntrue\n");
	s->env = sl_strv_dup(environ);
}

/* One thread of a batch: per batch, one submission, then the barrier. */
static void *submitter(void *arg)
{
	struct drain *d = arg;
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec s;

	if (sl_client_connect(d->socket, &c, &err) != 0)
		die("connect: %s", err.msg);
	fill_spec(&s, d->interp);
	pthread_barrier_wait(&d->start);
	for (long b = 0; b < d->nbatches; b++) {
		long k = atomic_fetch_add(&d->next, 1);
		if (k < d->njobs) {
			err = (struct sl_err)SL_ERR_INIT;
			if (sl_client_submit(c, &s, &d->ids[k], &err) != 0) {
				if (atomic_fetch_add(&d->errors, 1) == 0)
					fprintf(stderr, "drain: submit: %s\n", err.msg);
			}
		}
		pthread_barrier_wait(&d->done);
	}
	sl_jobspec_clear(&s);
	sl_client_free(c);
	return NULL;
}

/* Jobs not finished yet (of ids[0..nids), or of all when nids is 0), or -1 when
 * the query failed. */
static long unfinished(struct sl_client *c, uint64_t *ids, size_t nids)
{
	int st[] = {SL_JOB_PENDING, SL_JOB_CONFIGURING, SL_JOB_RUNNING, SL_JOB_COMPLETING};
	struct sl_jobfilter f = {.ids = ids, .n_ids = nids, .states = st, .n_states = 4};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0;

	if (sl_client_jobs(c, &f, &v, &n, &err) != 0) {
		fprintf(stderr, "drain: query: %s\n", err.msg);
		return -1;
	}
	sl_job_free_array(v, n);
	return (long)n;
}

static long arg_long(const char *s, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v <= 0)
		die("bad %s: %s", what, s);
	return v;
}

int main(int argc, char **argv)
{
	struct drain d = {.njobs = 5000, .batch = 50, .poll_ms = 20, .timeout_s = 300};
	pthread_t th[MAX_BATCH];
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:b:p:t:x:")) != -1) {
		switch (opt) {
		case 's': d.socket = optarg; break;
		case 'n': d.njobs = arg_long(optarg, "-n"); break;
		case 'b': d.batch = arg_long(optarg, "-b"); break;
		case 'p': d.poll_ms = arg_long(optarg, "-p"); break;
		case 't': d.timeout_s = arg_long(optarg, "-t"); break;
		case 'x': d.interp = optarg; break;
		default:
			fprintf(stderr, "usage: drain [-s SOCKET] [-n JOBS] [-b BATCH] "
					"[-p POLL_MS] [-t TIMEOUT_S] [-x INTERP]\n");
			return 2;
		}
	}
	if (d.batch > MAX_BATCH)
		die("-b: at most %d", MAX_BATCH);
	d.nbatches = (d.njobs + d.batch - 1) / d.batch;
	d.ids = sl_xcalloc((size_t)d.njobs, sizeof(*d.ids));
	if (pthread_barrier_init(&d.start, NULL, (unsigned)d.batch + 1) != 0 ||
	    pthread_barrier_init(&d.done, NULL, (unsigned)d.batch) != 0)
		die("pthread_barrier_init failed");
	for (long i = 0; i < d.batch; i++)
		if (pthread_create(&th[i], NULL, submitter, &d) != 0)
			die("pthread_create failed");
	pthread_barrier_wait(&d.start);
	double t0 = mono_s();
	for (long i = 0; i < d.batch; i++)
		pthread_join(th[i], NULL);
	double t1 = mono_s();
	long left;
	/* Connected only now: the daemon closes a connection idle for as long
	 * as a slow host takes to submit. */
	if (sl_client_connect(d.socket, &c, &err) != 0)
		die("connect: %s", err.msg);
	size_t nlast = (size_t)(d.njobs - (d.nbatches - 1) * d.batch);
	uint64_t *last = d.ids + (d.njobs - (long)nlast);
	for (;;) {
		left = unfinished(c, last, nlast);
		if (left == 0 && nlast > 0) { /* now all of them */
			nlast = 0;
			continue;
		}
		if (left < 0 || (left == 0 && nlast == 0) || mono_s() - t0 > (double)d.timeout_s)
			break;
		usleep((useconds_t)d.poll_ms * 1000);
	}
	double t2 = mono_s();
	sl_client_free(c);
	free(d.ids);
	if (left != 0)
		die("%ld jobs unfinished after %ld s", left, d.timeout_s);
	long bad = atomic_load(&d.errors);
	printf("jobs %ld submit %.3f s drain %.3f s rate %.0f jobs/s%s\n", d.njobs - bad,
	       t1 - t0, t2 - t0, (double)(d.njobs - bad) / (t2 - t0),
	       bad ? " (with submit errors)" : "");
	return bad ? 1 : 0;
}
