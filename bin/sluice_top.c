/* sluice_top.c - `sluice top [-d SECONDS] [-n FRAMES]`: a live view of the
 * ClusterQueues, refreshed each second: quota, used, borrowed per resource
 * (from the partitions request sinfo uses), pending and admitted jobs, and
 * admissions per second (jobs started now that had not started at the last
 * frame, from the job list squeue uses). On a terminal each frame replaces the last; else
 * frames follow one another. Ctrl-C ends it; -n after FRAMES frames. */
#include "sluice_top.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "jobfilter.h"
#include "jobstate.h"
#include "quantity.h"
#include "xalloc.h"

#define QUEUES_MAX 4096

struct row { /* one ClusterQueue x resource, summed over flavors */
	const char *cq, *resource;
	int64_t nominal, used, borrowed;
};

struct queue {
	const char *name;
	int64_t pending, admitted, started;
};

/* The last frame: when, and which jobs had started (ids ascending, as the
 * job list comes). Seconds alone would miss a job that starts in the same
 * second as the frame before it. */
struct last {
	double when; /* monotonic seconds; 0 before the first frame */
	uint64_t *ids;
	size_t n;
};

static int had_started(const struct last *l, uint64_t id)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->ids[mid] == id)
			return 1;
		if (l->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void sl_cmd_top_usage(FILE *f)
{
	fprintf(f, "Usage: sluice top [-d SECONDS] [-n FRAMES]\n"
		   "  A live view of the ClusterQueues: quota, used and borrowed per resource,\n"
		   "  pending and admitted jobs, admissions per second. Refreshes every\n"
		   "  SECONDS (default 1) until Ctrl-C, or FRAMES times.\n");
}

static struct queue *queue_get(struct queue *q, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(q[i].name, name) == 0)
			return &q[i];
	if (*n >= QUEUES_MAX)
		return NULL;
	q[*n] = (struct queue){name, 0, 0, 0};
	return &q[(*n)++];
}

/* Rows per ClusterQueue and resource, summed over flavors. A CQ fed by two
 * partitions is listed by both: each (CQ, flavor, resource) counts once.
 * Pending is per partition and CQ: summed over the partitions. */
static size_t gather(const struct sl_clusterinfo *ci, struct row *rows, size_t cap,
		     struct queue *q, size_t *nq)
{
	const struct sl_quota_row **u = sl_xcalloc(cap, sizeof(*u));
	size_t n = 0, nu = 0;
	for (size_t p = 0; p < ci->nparts; p++) {
		const struct sl_partinfo *pi = &ci->parts[p];
		for (size_t i = 0; i < pi->nquota; i++) {
			const struct sl_quota_row *r = &pi->quota[i];
			struct queue *x = queue_get(q, nq, r->cluster_queue);
			if (x && (i == 0 || strcmp(pi->quota[i - 1].cluster_queue, r->cluster_queue)))
				x->pending += r->pending;
			size_t k = 0;
			while (k < nu && !(strcmp(u[k]->cluster_queue, r->cluster_queue) == 0 &&
					   strcmp(u[k]->flavor, r->flavor) == 0 &&
					   strcmp(u[k]->resource, r->resource) == 0))
				k++;
			if (k == nu && nu < cap)
				u[nu++] = r;
		}
	}
	for (size_t i = 0; i < nu; i++) {
		size_t k = 0;
		while (k < n && !(strcmp(rows[k].cq, u[i]->cluster_queue) == 0 &&
				  strcmp(rows[k].resource, u[i]->resource) == 0))
			k++;
		if (k == n)
			rows[n++] = (struct row){u[i]->cluster_queue, u[i]->resource, 0, 0, 0};
		rows[k].nominal += u[i]->nominal;
		rows[k].used += u[i]->used;
		rows[k].borrowed += u[i]->borrowed;
	}
	free(u);
	return n;
}

static void count_jobs(struct sl_job **jobs, size_t nj, struct last *l, struct queue *q, size_t *nq)
{
	uint64_t *ids = sl_xcalloc(nj + 1, sizeof(*ids));
	size_t n = 0;
	for (size_t i = 0; i < nj; i++) {
		const struct sl_job *j = jobs[i];
		struct queue *x = j->cluster_queue ? queue_get(q, nq, j->cluster_queue) : NULL;
		if (j->start_time > 0)
			ids[n++] = j->id;
		if (!x)
			continue;
		if (j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING ||
		    j->state == SL_JOB_COMPLETING || j->state == SL_JOB_SUSPENDED)
			x->admitted++;
		if (l->when > 0 && j->start_time > 0 && !had_started(l, j->id))
			x->started++;
	}
	free(l->ids);
	l->ids = ids;
	l->n = n;
}

static void frame(const struct sl_clusterinfo *ci, struct row *rows, size_t nr,
		  struct queue *q, size_t nq, double secs)
{
	char tbuf[32], a[32], b[32], c[32];
	time_t now = (time_t)ci->now;
	int64_t pend = 0, adm = 0;
	for (size_t i = 0; i < nq; i++)
		pend += q[i].pending, adm += q[i].admitted;
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime(&now));
	printf("sluice top - %s  %zu ClusterQueues, %lld pending, %lld admitted\n\n", tbuf, nq,
	       (long long)pend, (long long)adm);
	printf("%-20s %-16s %10s %10s %10s %8s %8s %8s\n", "CLUSTERQUEUE", "RESOURCE", "NOMINAL",
	       "USED", "BORROWED", "PENDING", "ADMITTED", "ADMIT/S");
	for (size_t k = 0; k < nq; k++) {
		int first = 1;
		for (size_t i = 0; i < nr; i++) {
			if (strcmp(rows[i].cq, q[k].name) != 0)
				continue;
			sl_quantity_format(rows[i].nominal, a, sizeof(a));
			sl_quantity_format(rows[i].used, b, sizeof(b));
			sl_quantity_format(rows[i].borrowed, c, sizeof(c));
			printf("%-20.20s %-16.16s %10s %10s %10s", first ? q[k].name : "",
			       rows[i].resource, a, b, c);
			if (first && secs > 0)
				printf(" %8lld %8lld %8.2f\n", (long long)q[k].pending,
				       (long long)q[k].admitted, (double)q[k].started / secs);
			else if (first)
				printf(" %8lld %8lld %8s\n", (long long)q[k].pending,
				       (long long)q[k].admitted, "-");
			else
				printf("\n");
			first = 0;
		}
	}
}

static int one(struct last *last, int tty, struct sl_err *err)
{
	struct sl_clusterinfo *ci = NULL;
	struct sl_jobfilter f = {0};
	struct sl_job **jobs = NULL;
	size_t nj = 0, nq = 0, nr;
	struct row *rows = NULL;
	struct queue *q = NULL;
	int r;
	if ((r = sl_client_partitions(&ci, err)) != 0 || (r = sl_client_query(&f, &jobs, &nj, err)) != 0)
		goto out;
	size_t cap = 1;
	for (size_t p = 0; p < ci->nparts; p++)
		cap += ci->parts[p].nquota;
	rows = sl_xcalloc(cap, sizeof(*rows));
	q = sl_xcalloc(QUEUES_MAX, sizeof(*q));
	nr = gather(ci, rows, cap, q, &nq);
	count_jobs(jobs, nj, last, q, &nq);
	if (tty)
		fputs("\033[H\033[2J", stdout);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double when = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	frame(ci, rows, nr, q, nq, last->when > 0 ? when - last->when : 0);
	if (!tty)
		putchar('\n');
	fflush(stdout);
	last->when = when;
out:
	sl_job_free_array(jobs, nj);
	sl_clusterinfo_free(ci);
	free(rows);
	free(q);
	return r;
}

int sl_cmd_top(int argc, char **argv)
{
	long frames = -1;
	double delay = 1;
	struct last last = {0, NULL, 0};
	struct sl_err err = SL_ERR_INIT;
	int opt;
	optind = 1;
	while ((opt = getopt(argc, argv, "d:n:h")) != -1) {
		char *end;
		switch (opt) {
		case 'd':
			delay = strtod(optarg, &end);
			if (*end || delay < 0.1 || delay > 3600) {
				fprintf(stderr, "sluice: error: -d %s: seconds from 0.1 to 3600\n", optarg);
				return 2;
			}
			break;
		case 'n':
			frames = strtol(optarg, &end, 10);
			if (*end || frames < 1) {
				fprintf(stderr, "sluice: error: -n %s: a number of frames from 1\n", optarg);
				return 2;
			}
			break;
		case 'h':
			sl_cmd_top_usage(stdout);
			return 0;
		default:
			sl_cmd_top_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		sl_cmd_top_usage(stderr);
		return 2;
	}
	int tty = isatty(STDOUT_FILENO);
	for (long i = 0; frames < 0 || i < frames; i++) {
		if (i > 0) {
			struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
			nanosleep(&ts, NULL);
		}
		if (one(&last, tty, &err) != 0) {
			fprintf(stderr, "sluice: error: %s\n", err.msg);
			free(last.ids);
			return 1;
		}
	}
	free(last.ids);
	return 0;
}
