/* sluiced_baseline.c - Kueue's scheduler performance "baseline" run against
 * the whole sluiced on real time: the submitting side and the measuring side
 * of tests/bench/sluiced_baseline.sh, which writes the configuration and
 * starts the daemon.
 *
 * Per ClusterQueue cq-0-Q-cohort-C (30 of them) three classes of job are
 * submitted through the client library on Kueue's schedule: the k-th job of
 * a class (k from 0) at (k+1) * interval after the start. Each job is a shell
 * script that sleeps for the class's runtime.
 *
 * Why polling: the job record's times are whole seconds, too coarse for 200 ms
 * jobs. A poller asks for the admitted jobs (RUNNING, CONFIGURING, COMPLETING)
 * every --poll-ms. The first poll that shows a job is its admission, the last
 * one its end, and a job that reappears after missing a poll was re-admitted
 * after a preemption. Each estimate is the midpoint between two polls, so its
 * error is half a poll interval. The cost: each poll is a request that the
 * daemon serves in its single loop, next to the work being measured.
 * Utilisation integrates the admitted jobs' cpus per ClusterQueue between
 * polls. At the end the job records (with history) give the final state, the
 * attempt count and the second-resolution times, for a cross-check. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "client.h"
#include "err.h"
#include "job.h"
#include "xalloc.h"

#define NCOHORTS 5
#define NCQ_PER_COHORT 6
#define NCQ (NCOHORTS * NCQ_PER_COHORT)
#define NOMINAL_CPU 20
#define HIST_CHUNK 1000
#define MAX_SUBMITTERS 64

static const struct wclass {
	const char *name;        /* also the WorkloadPriorityClass (--qos) */
	int count;               /* per ClusterQueue, at scale 1 */
	int64_t interval_ms, runtime_ms;
	int cpus;
	const char *script;
} classes[] = {
	{"small", 350, 100, 200, 1, "#!/bin/sh\nsleep 0.2\n"},
	{"medium", 100, 500, 500, 5, "#!/bin/sh\nsleep 0.5\n"},
	{"large", 50, 1200, 1000, 20, "#!/bin/sh\nsleep 1\n"},
};
#define NCLASS (sizeof(classes) / sizeof(classes[0]))

struct bjob {                    /* one submission, written by its submitter */
	int cq, cls;
	int64_t arrive_us;       /* scheduled, from t0 */
	int64_t submit_us;       /* when the submit request was sent */
	int64_t done_us;         /* when its reply came */
	uint64_t id;             /* 0 when the submit failed */
};

struct obs {                     /* what the poller saw of one job id */
	int64_t first_us, last_adm_us, last_seen_us, end_us;
	long last_poll;
	int admissions;
};

struct opts {
	double scale, timeout_s;
	int poll_ms, submitters, pid;
	const char *socket, *csv, *sleeper;
};

struct bench {
	struct opts o;
	int64_t t0;              /* monotonic us of the schedule's origin */
	struct bjob *jobs;
	size_t njobs;
	uint32_t *order;         /* jobs in arrival order */
	atomic_size_t nsubmitted;
	atomic_long submit_errors;
	char first_error[SL_ERR_MSG_MAX];
	pthread_mutex_t err_lock;
	struct obs *obs;         /* indexed by job id */
	size_t cap_obs;
	long polls, poll_errors, max_running, max_pending;
	size_t attempts;         /* from the final records: preemptions */
	int64_t last_poll_us, last_busy_us, poll_cost_us, max_poll_cost_us, max_gap_us;
	int64_t prev_used[NCQ];
	double cpu_us[NCQ];      /* integral of admitted cpus x us */
	struct sl_job **hist;    /* final records, by position in jobs */
};

struct tid {
	struct bench *b;
	int t;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "sluiced_baseline: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static int64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sleep_until_us(int64_t t)
{
	struct timespec ts = {(time_t)(t / 1000000), (long)(t % 1000000) * 1000};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* ---- options (a table: flag, kind, where) ---- */

enum okind { O_DOUBLE, O_INT, O_STR };
static const struct opt {
	const char *flag, *help;
	enum okind kind;
	size_t off;
} opt_table[] = {
	{"--scale", "fraction of each class's job count (0.1: quick check)", O_DOUBLE,
	 offsetof(struct opts, scale)},
	{"--poll-ms", "poll interval for admitted jobs", O_INT, offsetof(struct opts, poll_ms)},
	{"--submitters", "submitting threads (one connection each)", O_INT,
	 offsetof(struct opts, submitters)},
	{"--pid", "sluiced's pid, for its CPU time and memory", O_INT, offsetof(struct opts, pid)},
	{"--timeout", "seconds after the last submission before giving up", O_DOUBLE,
	 offsetof(struct opts, timeout_s)},
	{"--socket", "daemon socket (default: from $SLUICE_CONF)", O_STR,
	 offsetof(struct opts, socket)},
	{"--csv", "write one line per job to this file", O_STR, offsetof(struct opts, csv)},
	{"--sleeper", "run each job as `#!PATH SECONDS` (one process) instead of sh + sleep",
	 O_STR, offsetof(struct opts, sleeper)},
};
#define NOPT (sizeof(opt_table) / sizeof(opt_table[0]))

static void usage(void)
{
	fprintf(stderr, "usage: sluiced_baseline [options]\n");
	for (size_t i = 0; i < NOPT; i++)
		fprintf(stderr, "  %-14s %s\n", opt_table[i].flag, opt_table[i].help);
	exit(2);
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){.scale = 1.0, .timeout_s = 600, .poll_ms = 50, .submitters = 4};
	for (int i = 1; i < argc; i++) {
		size_t k = 0;
		while (k < NOPT && strcmp(argv[i], opt_table[k].flag) != 0)
			k++;
		if (k == NOPT || i + 1 >= argc)
			usage();
		char *v = argv[++i], *end = NULL;
		void *at = (char *)o + opt_table[k].off;
		if (opt_table[k].kind == O_STR)
			*(const char **)at = v;
		else if (opt_table[k].kind == O_INT)
			*(int *)at = (int)strtol(v, &end, 10);
		else
			*(double *)at = strtod(v, &end);
		if (end != NULL && (*end != '\0' || end == v))
			die("%s: not a number: %s", argv[i - 1], v);
	}
	if (o->scale <= 0 || o->scale > 1 || o->poll_ms < 1 || o->submitters < 1 ||
	    o->submitters > MAX_SUBMITTERS)
		die("--scale must be in (0, 1], --poll-ms >= 1, --submitters in 1..%d",
		    MAX_SUBMITTERS);
}

/* ---- the schedule ---- */

static int class_count(const struct bench *b, size_t c)
{
	int n = (int)(classes[c].count * b->o.scale + 0.5);
	return n < 1 ? 1 : n;
}

static int arrival_cmp(const void *x, const void *y, void *ctx)
{
	const struct bjob *j = ctx;
	uint32_t a = *(const uint32_t *)x, c = *(const uint32_t *)y;
	if (j[a].arrive_us != j[c].arrive_us)
		return j[a].arrive_us < j[c].arrive_us ? -1 : 1;
	return a < c ? -1 : a > c;
}

static void gen_jobs(struct bench *b)
{
	size_t per_cq = 0, i = 0;
	for (size_t c = 0; c < NCLASS; c++)
		per_cq += (size_t)class_count(b, c);
	b->njobs = per_cq * NCQ;
	b->jobs = sl_xcalloc(b->njobs, sizeof(*b->jobs));
	b->order = sl_xcalloc(b->njobs, sizeof(*b->order));
	for (int q = 0; q < NCQ; q++)
		for (size_t c = 0; c < NCLASS; c++)
			for (int k = 0; k < class_count(b, c); k++, i++) {
				b->jobs[i].cq = q;
				b->jobs[i].cls = (int)c;
				b->jobs[i].arrive_us = (k + 1) * classes[c].interval_ms * 1000;
				b->order[i] = (uint32_t)i;
			}
	qsort_r(b->order, b->njobs, sizeof(*b->order), arrival_cmp, b->jobs);
}

static void cq_name(int q, char *buf, size_t len)
{
	snprintf(buf, len, "cq-0-%d-cohort-%d", q % NCQ_PER_COHORT, q / NCQ_PER_COHORT);
}

static int cq_index(const char *name)
{
	int q, c;
	if (name == NULL || sscanf(name, "cq-0-%d-cohort-%d", &q, &c) != 2 || q < 0 ||
	    q >= NCQ_PER_COHORT || c < 0 || c >= NCOHORTS)
		return -1;
	return c * NCQ_PER_COHORT + q;
}

/* ---- submitting ---- */

static void fill_spec(struct sl_jobspec *s, const struct bjob *j, const struct opts *o)
{
	static char *env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};
	char lq[32];
	cq_name(j->cq, lq, sizeof(lq));
	sl_jobspec_init(s);
	s->name = sl_xstrdup(classes[j->cls].name);
	s->partition = sl_xstrdup(lq);
	s->account = sl_xstrdup(lq);
	s->qos = sl_xstrdup(classes[j->cls].name);
	s->cpus_per_task = classes[j->cls].cpus;
	s->std_out = sl_xstrdup("/dev/null");
	s->work_dir = sl_xstrdup("/tmp");
	s->submit_dir = sl_xstrdup("/tmp");
	s->submit_host = sl_xstrdup("bench");
	if (o->sleeper != NULL)
		s->script = sl_xasprintf("#!%s %g\n", o->sleeper,
					 (double)classes[j->cls].runtime_ms / 1e3);
	else
		s->script = sl_xstrdup(classes[j->cls].script);
	s->env = sl_strv_dup(env);
}

static void submit_failed(struct bench *b, const struct sl_err *err)
{
	pthread_mutex_lock(&b->err_lock);
	if (b->first_error[0] == '\0')
		snprintf(b->first_error, sizeof(b->first_error), "%s", err->msg);
	pthread_mutex_unlock(&b->err_lock);
	atomic_fetch_add(&b->submit_errors, 1);
}

/* Thread t submits the jobs of ClusterQueues q with q % submitters == t. */
static void *submitter(void *arg)
{
	struct tid *t = arg;
	struct bench *b = t->b;
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;

	if (sl_client_connect(b->o.socket, &c, &err) != 0)
		die("connect: %s", err.msg);
	for (size_t i = 0; i < b->njobs; i++) {
		struct bjob *j = &b->jobs[b->order[i]];
		struct sl_jobspec s;
		if (j->cq % b->o.submitters != t->t)
			continue;
		fill_spec(&s, j, &b->o);
		sleep_until_us(b->t0 + j->arrive_us);
		j->submit_us = mono_us() - b->t0;
		err = (struct sl_err)SL_ERR_INIT;
		if (sl_client_submit(c, &s, &j->id, &err) != 0) {
			j->id = 0;
			submit_failed(b, &err);
			sl_client_free(c); /* the connection may be what failed */
			c = NULL;
			if (sl_client_connect(b->o.socket, &c, &err) != 0)
				die("reconnect: %s", err.msg);
		}
		j->done_us = mono_us() - b->t0;
		sl_jobspec_clear(&s);
		atomic_fetch_add(&b->nsubmitted, 1);
	}
	sl_client_free(c);
	return NULL;
}

/* ---- polling ---- */

static struct obs *obs_get(struct bench *b, uint64_t id)
{
	if (id >= b->cap_obs) {
		size_t old = b->cap_obs;
		b->obs = sl_xgrow(b->obs, &b->cap_obs, (size_t)id + 1, sizeof(*b->obs));
		memset(b->obs + old, 0, (b->cap_obs - old) * sizeof(*b->obs));
		for (size_t i = old; i < b->cap_obs; i++)
			b->obs[i].last_poll = -2;
	}
	return &b->obs[id];
}

static void observe(struct bench *b, const struct sl_job *j, int64_t est_us)
{
	struct obs *o = obs_get(b, j->id);
	if (o->last_poll != b->polls - 1) {
		/* Not admitted at the previous poll: admitted since. */
		if (o->admissions++ == 0)
			o->first_us = est_us;
		o->last_adm_us = est_us;
	}
	o->last_poll = b->polls;
	o->last_seen_us = b->last_poll_us;
}

/* Jobs seen at the previous poll and not at this one ended (or were
 * preempted) in between. */
static void mark_ends(struct bench *b, int64_t est_us)
{
	for (size_t id = 0; id < b->cap_obs; id++)
		if (b->obs[id].last_poll == b->polls - 1)
			b->obs[id].end_us = est_us;
}

static void integrate(struct bench *b, const int64_t *used, int64_t now)
{
	int64_t dt = now - b->last_poll_us;
	for (int q = 0; q < NCQ; q++) {
		b->cpu_us[q] += (double)(b->prev_used[q] + used[q]) / 2 * (double)dt;
		b->prev_used[q] = used[q];
	}
}

static int poll_admitted(struct bench *b, struct sl_client *c)
{
	static int st[] = {SL_JOB_RUNNING, SL_JOB_CONFIGURING, SL_JOB_COMPLETING};
	struct sl_jobfilter f = {.states = st, .n_states = 3};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	int64_t used[NCQ] = {0}, t1 = mono_us() - b->t0, now, mid;
	size_t n = 0;

	if (sl_client_jobs(c, &f, &v, &n, &err) != 0) {
		if (b->poll_errors++ == 0)
			fprintf(stderr, "sluiced_baseline: poll: %s\n", err.msg);
		return -1;
	}
	now = mono_us() - b->t0;
	b->poll_cost_us += now - t1;
	if (now - t1 > b->max_poll_cost_us)
		b->max_poll_cost_us = now - t1;
	if (b->polls > 0 && now - b->last_poll_us > b->max_gap_us)
		b->max_gap_us = now - b->last_poll_us;
	mid = (b->last_poll_us + (t1 + now) / 2) / 2; /* between the two snapshots */
	for (size_t i = 0; i < n; i++) {
		int q = cq_index(v[i]->cluster_queue);
		if (q >= 0)
			used[q] += v[i]->alloc_cpus;
		observe(b, v[i], b->polls ? mid : 0);
	}
	mark_ends(b, mid);
	integrate(b, used, (t1 + now) / 2);
	b->last_poll_us = (t1 + now) / 2;
	for (size_t i = 0; i < n; i++)
		obs_get(b, v[i]->id)->last_seen_us = b->last_poll_us;
	if (n > 0)
		b->last_busy_us = b->last_poll_us;
	if ((long)n > b->max_running)
		b->max_running = (long)n;
	b->polls++;
	sl_job_free_array(v, n);
	return (int)n;
}

static long count_pending(struct sl_client *c)
{
	static int st[] = {SL_JOB_PENDING};
	struct sl_jobfilter f = {.states = st, .n_states = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0;
	if (sl_client_jobs(c, &f, &v, &n, &err) != 0)
		return -1;
	sl_job_free_array(v, n);
	return (long)n;
}

/* Poll until everything submitted has run and nothing is pending. Pending
 * jobs are counted only once a second (the daemon explains every pending job
 * it lists, which is not free), and after submitting ended. */
static void poll_loop(struct bench *b, struct sl_client *c)
{
	int64_t next = 0, next_pending = 0, deadline = -1;
	for (;;) {
		sleep_until_us(b->t0 + next);
		next += b->o.poll_ms * 1000;
		int running = poll_admitted(b, c);
		if (atomic_load(&b->nsubmitted) < b->njobs)
			continue;
		int64_t now = mono_us() - b->t0;
		if (deadline < 0)
			deadline = now + (int64_t)(b->o.timeout_s * 1e6);
		if (now > deadline) {
			fprintf(stderr, "sluiced_baseline: timeout: jobs still pending or running\n");
			return;
		}
		if (running != 0 || now < next_pending)
			continue;
		next_pending = now + 1000000;
		long p = count_pending(c);
		if (p > b->max_pending)
			b->max_pending = p;
		if (p == 0 && poll_admitted(b, c) == 0)
			return;
	}
}

/* ---- the final records ---- */

/* The job records, with history, fetched in chunks of ids so that no reply
 * nears the protocol's size cap. b->hist[i] is jobs[i]'s record or NULL. */
static void fetch_history(struct bench *b, struct sl_client *c)
{
	uint64_t *ids = sl_xcalloc(b->njobs + 1, sizeof(*ids)), maxid = 0;
	size_t nids = 0, *pos;
	b->hist = sl_xcalloc(b->njobs, sizeof(*b->hist));
	for (size_t i = 0; i < b->njobs; i++)
		if (b->jobs[i].id) {
			ids[nids++] = b->jobs[i].id;
			if (b->jobs[i].id > maxid)
				maxid = b->jobs[i].id;
		}
	pos = sl_xcalloc((size_t)maxid + 1, sizeof(*pos));
	for (size_t i = 0; i < b->njobs; i++)
		if (b->jobs[i].id)
			pos[b->jobs[i].id] = i + 1;
	for (size_t at = 0; at < nids; at += HIST_CHUNK) {
		struct sl_jobfilter f = {.ids = ids + at, .history = 1};
		struct sl_err err = SL_ERR_INIT;
		struct sl_job **v = NULL;
		size_t n = 0;
		f.n_ids = nids - at < HIST_CHUNK ? nids - at : HIST_CHUNK;
		if (sl_client_jobs(c, &f, &v, &n, &err) != 0)
			die("history: %s", err.msg);
		for (size_t k = 0; k < n; k++) {
			size_t i = v[k]->id <= maxid ? pos[v[k]->id] : 0;
			if (i == 0 || b->hist[i - 1] != NULL)
				continue;
			b->hist[i - 1] = v[k];
			v[k] = NULL;
		}
		sl_job_free_array(v, n);
	}
	free(pos);
	free(ids);
}

/* ---- CPU and memory from /proc ---- */

struct procsnap {
	double self_s;           /* sluiced */
	long rss_kb, hwm_kb;
	double busy_s;           /* whole machine, all cores */
	double me_s;             /* this program */
};

static void read_pid_stat(int pid, struct procsnap *p)
{
	char path[64], buf[2048], *s;
	unsigned long ut, st;
	double hz = (double)sysconf(_SC_CLK_TCK);
	FILE *f;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return;
	s = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	/* after "pid (comm)": fields 3..17; utime is 14 */
	if (s && sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
		p->self_s = (double)(ut + st) / hz;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		sscanf(buf, "VmRSS: %ld", &p->rss_kb);
		sscanf(buf, "VmHWM: %ld", &p->hwm_kb);
	}
	fclose(f);
}

static void snap(const struct bench *b, struct procsnap *p)
{
	unsigned long long v[8] = {0};
	struct rusage ru;
	FILE *f = fopen("/proc/stat", "r");
	memset(p, 0, sizeof(*p));
	if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			&v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
		p->busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
			    (double)sysconf(_SC_CLK_TCK);
	if (f)
		fclose(f);
	if (b->o.pid > 0)
		read_pid_stat(b->o.pid, p);
	getrusage(RUSAGE_SELF, &ru);
	p->me_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		  (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* ---- figures ---- */

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, c = *(const int64_t *)y;
	return a < c ? -1 : a > c;
}

struct dist {
	int64_t *v;
	size_t n;
	double sum;
};

static void dist_add(struct dist *d, int64_t x)
{
	d->v[d->n++] = x;
	d->sum += (double)x;
}

static void dist_print(const char *label, struct dist *d)
{
	if (d->n == 0) {
		printf("%s n/a\n", label);
		return;
	}
	qsort(d->v, d->n, sizeof(*d->v), cmp_i64);
	printf("%s mean %.3f s, p50 %.3f, p95 %.3f, max %.3f (n %zu)\n", label,
	       d->sum / (double)d->n / 1e6, (double)d->v[d->n / 2] / 1e6,
	       (double)d->v[d->n * 95 / 100] / 1e6, (double)d->v[d->n - 1] / 1e6, d->n);
}

/* The best any scheduler can do: the work over the total nominal quota, or
 * the last arrival plus its runtime, whichever is later. */
static double quota_bound_s(const struct bench *b)
{
	double work = 0, last = 0;
	for (size_t c = 0; c < NCLASS; c++) {
		int n = class_count(b, c);
		double end = (double)(n * classes[c].interval_ms + classes[c].runtime_ms) / 1e3;
		work += (double)n * (double)classes[c].runtime_ms / 1e3 * classes[c].cpus;
		if (end > last)
			last = end;
	}
	work /= NOMINAL_CPU;
	return work > last ? work : last;
}

static void report_submits(const struct bench *b)
{
	struct dist lat = {sl_xcalloc(b->njobs, sizeof(int64_t)), 0, 0};
	int64_t last = 0, max_lag = 0;
	for (size_t i = 0; i < b->njobs; i++) {
		const struct bjob *j = &b->jobs[i];
		dist_add(&lat, j->done_us - j->submit_us);
		if (j->submit_us - j->arrive_us > max_lag)
			max_lag = j->submit_us - j->arrive_us;
		if (j->submit_us > last)
			last = j->submit_us;
	}
	printf("submitted            %zu jobs, %ld failed%s%s\n", b->njobs,
	       atomic_load(&b->submit_errors), b->first_error[0] ? ": " : "", b->first_error);
	printf("submitting           last at %.2f s; max lag behind schedule %.1f ms\n",
	       (double)last / 1e6, (double)max_lag / 1e3);
	dist_print("submit latency      ", &lat);
	free(lat.v);
}

static void report_admission(const struct bench *b)
{
	struct dist first[NCLASS], lastd[NCLASS];
	double rec_sum[NCLASS] = {0};
	size_t rec_n[NCLASS] = {0}, unseen = 0;
	for (size_t c = 0; c < NCLASS; c++) {
		first[c] = (struct dist){sl_xcalloc(b->njobs, sizeof(int64_t)), 0, 0};
		lastd[c] = (struct dist){sl_xcalloc(b->njobs, sizeof(int64_t)), 0, 0};
	}
	for (size_t i = 0; i < b->njobs; i++) {
		const struct bjob *j = &b->jobs[i];
		const struct obs *o = j->id < b->cap_obs ? &b->obs[j->id] : NULL;
		const struct sl_job *h = b->hist[i];
		if (h && h->start_time > 0) {
			rec_sum[j->cls] += (double)(h->start_time - h->submit_time);
			rec_n[j->cls]++;
		}
		if (o == NULL || o->admissions == 0) {
			unseen += j->id != 0;
			continue;
		}
		dist_add(&first[j->cls], o->first_us - j->submit_us);
		dist_add(&lastd[j->cls], o->last_adm_us - j->submit_us);
	}
	for (size_t c = 0; c < NCLASS; c++) {
		char label[64];
		snprintf(label, sizeof(label), "to admission %-7s first", classes[c].name);
		dist_print(label, &first[c]);
		snprintf(label, sizeof(label), "to admission %-7s last ", classes[c].name);
		dist_print(label, &lastd[c]);
		printf("to admission %-7s record start_time - submit_time (whole s): mean %.2f s\n",
		       classes[c].name, rec_n[c] ? rec_sum[c] / (double)rec_n[c] : 0.0);
		free(first[c].v);
		free(lastd[c].v);
	}
	if (unseen)
		printf("never seen admitted   %zu jobs (ran between two polls)\n", unseen);
}

static void report_outcome(struct bench *b)
{
	size_t states[SL_JOB_STATE_MAX] = {0}, missing = 0, attempts = 0, requeued = 0,
	       readmitted = 0;
	for (size_t i = 0; i < b->njobs; i++) {
		const struct sl_job *h = b->hist[i];
		const struct bjob *j = &b->jobs[i];
		if (j->id && j->id < b->cap_obs && b->obs[j->id].admissions > 1)
			readmitted++;
		if (h == NULL) {
			missing += j->id != 0;
			continue;
		}
		if ((unsigned)h->state < SL_JOB_STATE_MAX)
			states[h->state]++;
		attempts += (size_t)h->attempt;
		requeued += h->attempt > 0;
	}
	printf("final states        ");
	for (int s = 0; s < SL_JOB_STATE_MAX; s++)
		if (states[s])
			printf(" %s %zu", sl_jobstate_name(s), states[s]);
	printf("; no record: %zu\n", missing);
	b->attempts = attempts;
	printf("preemptions          %zu (sum of attempt), %zu jobs requeued at least once, "
	       "%zu seen re-admitted by the poller, %zu ended PREEMPTED\n",
	       attempts, requeued, readmitted, states[SL_JOB_PREEMPTED]);
}

static void report_time(const struct bench *b)
{
	double wall = (double)b->last_busy_us / 1e6, bound = quota_bound_s(b), cpu = 0;
	double lo = 1e30, hi = 0;
	/* The last job ended between the last poll that saw it and the next. */
	wall += b->o.poll_ms / 2e3;
	for (int q = 0; q < NCQ; q++) {
		double u = b->cpu_us[q] / 1e6 / (NOMINAL_CPU * wall);
		cpu += b->cpu_us[q] / 1e6;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	printf("wall time            %.2f s from t0 to the last job's end (quota bound %.1f s: "
	       "%.2fx; target <= %.1f s; Kueue 351 s at full scale)\n",
	       wall, bound, wall / bound, bound * 1.2);
	printf("mean CQ utilisation  %.1f %% (admitted cpu / %d nominal over the wall time; "
	       "per CQ %.1f..%.1f %%); %.0f cpu-s admitted\n",
	       100 * cpu / (NCQ * NOMINAL_CPU * wall), NOMINAL_CPU, 100 * lo, 100 * hi, cpu);
	printf("polls                %ld every %d ms, mean cost %.2f ms, max %.2f ms, max gap "
	       "%.1f ms, %ld failed; max admitted at once %ld, max pending after submitting %ld\n",
	       b->polls, b->o.poll_ms, b->polls ? (double)b->poll_cost_us / (double)b->polls / 1e3 : 0,
	       (double)b->max_poll_cost_us / 1e3, (double)b->max_gap_us / 1e3, b->poll_errors,
	       b->max_running, b->max_pending);
}

/* The fork server's children are reaped by the kernel, which adds their
 * time to nobody's cutime: the jobs' and supervisors' CPU is what the
 * machine spent beyond sluiced and this program (on a quiet host, nearly
 * all of it theirs). */
static void report_cpu(const struct bench *b, const struct procsnap *a,
		       const struct procsnap *z, double wall)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double busy = z->busy_s - a->busy_s, me = z->me_s - a->me_s;
	double self = z->self_s - a->self_s, rest = busy - me - self;
	size_t launches = b->njobs + b->attempts;
	if (b->o.pid > 0)
		printf("sluiced cpu          %.2f s (%.0f %% of one core over %.1f s), %.3f ms a "
		       "launch; VmRSS %ld KiB, VmHWM %ld KiB\n",
		       self, 100 * self / wall, wall, 1e3 * self / (double)launches, z->rss_kb,
		       z->hwm_kb);
	printf("this program cpu     %.2f s (submitters and poller)\n", me);
	printf("machine cpu          %.2f s busy of %ld cores x %.1f s (%.0f %%)\n", busy, ncpu,
	       wall, 100 * busy / ((double)ncpu * wall));
	printf("the rest             %.2f s for %zu launches, %.2f ms each (supervisors, jobs, "
	       "kernel threads, other processes)\n",
	       rest, launches, 1e3 * rest / (double)launches);
}

static void write_csv(const struct bench *b)
{
	FILE *f = fopen(b->o.csv, "w");
	if (f == NULL)
		die("%s: %s", b->o.csv, strerror(errno));
	fprintf(f, "id,cq,class,arrive_ms,submit_ms,reply_ms,first_admit_ms,last_admit_ms,end_ms,"
		   "admissions,state,attempt,rec_submit,rec_start,rec_end\n");
	for (size_t i = 0; i < b->njobs; i++) {
		const struct bjob *j = &b->jobs[i];
		const struct obs *o = j->id && j->id < b->cap_obs ? &b->obs[j->id] : NULL;
		const struct sl_job *h = b->hist[i];
		fprintf(f, "%" PRIu64 ",%d,%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%s,%d,%" PRId64
			   ",%" PRId64 ",%" PRId64 "\n",
			j->id, j->cq, classes[j->cls].name, (double)j->arrive_us / 1e3,
			(double)j->submit_us / 1e3, (double)j->done_us / 1e3,
			o ? (double)o->first_us / 1e3 : -1, o ? (double)o->last_adm_us / 1e3 : -1,
			o ? (double)o->end_us / 1e3 : -1, o ? o->admissions : 0,
			h ? sl_jobstate_name(h->state) : "-", h ? h->attempt : -1,
			h ? h->submit_time : 0, h ? h->start_time : 0, h ? h->end_time : 0);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	struct bench b = {.err_lock = PTHREAD_MUTEX_INITIALIZER};
	struct tid t[MAX_SUBMITTERS];
	pthread_t th[MAX_SUBMITTERS];
	struct procsnap a, z;
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;

	parse_opts(argc, argv, &b.o);
	gen_jobs(&b);
	if (sl_client_connect(b.o.socket, &c, &err) != 0)
		die("connect: %s", err.msg);
	printf("sluiced baseline: scale %.2f, %zu jobs in %d ClusterQueues, poll every %d ms, "
	       "%d submitters\n",
	       b.o.scale, b.njobs, NCQ, b.o.poll_ms, b.o.submitters);
	fflush(stdout);
	snap(&b, &a);
	b.t0 = mono_us();
	for (int i = 0; i < b.o.submitters; i++) {
		t[i] = (struct tid){&b, i};
		if (pthread_create(&th[i], NULL, submitter, &t[i]) != 0)
			die("pthread_create failed");
	}
	poll_loop(&b, c);
	snap(&b, &z);
	for (int i = 0; i < b.o.submitters; i++)
		pthread_join(th[i], NULL);
	fetch_history(&b, c);
	report_time(&b);
	report_admission(&b);
	report_outcome(&b);
	report_submits(&b);
	report_cpu(&b, &a, &z, (double)(mono_us() - b.t0) / 1e6);
	if (b.o.csv)
		write_csv(&b);
	for (size_t i = 0; i < b.njobs; i++)
		sl_job_free(b.hist[i]);
	free(b.hist);
	free(b.obs);
	free(b.jobs);
	free(b.order);
	sl_client_free(c);
	return atomic_load(&b.submit_errors) ? 1 : 0;
}
