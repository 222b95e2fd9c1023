/* metrics.c - the /metrics endpoint: libmicrohttpd's thread serves the last
 * snapshot; the loop renders a new one every second (metrics_text.c) and
 * swaps it in under a mutex. The server thread reads nothing else of the
 * daemon: sluiced stays single-threaded in all it decides, as with
 * authq.c's workers. Counters of cycles, admissions and preemptions are
 * kept here, on the loop thread only. A scrape is at most a second old;
 * Prometheus scrapes every 15 s or more. */
#include "metrics.h"
#include "metrics_int.h"

#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "conf.h"
#include "jobtab.h"
#include "log.h"
#include "loop.h"
#include "netaddr.h"
#include "schedule.h"
#include "xalloc.h"

#define REFRESH_MS 1000
#define CONNECTIONS_MAX 16 /* scrapers, not users */
#define CONN_TIMEOUT_S 10

const double sl_metrics_wait_buckets[METRICS_NBUCKETS] = {
	1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240}; /* Kueue's */
/* A cycle takes microseconds to, with 100 000 jobs, tens of milliseconds. */
const double sl_metrics_cycle_buckets[METRICS_NCYCLE] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};

static enum MHD_Result serve(void *cls, struct MHD_Connection *c, const char *url,
			     const char *method, const char *version, const char *data,
			     size_t *size, void **state)
{
	struct sl_metrics *m = cls;
	struct MHD_Response *resp;
	unsigned status = MHD_HTTP_OK;
	char *body;
	size_t len;
	enum MHD_Result r;

	(void)version, (void)data, (void)size, (void)state;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		status = MHD_HTTP_METHOD_NOT_ALLOWED;
		body = sl_xstrdup("only GET\n");
	} else if (strcmp(url, "/metrics") != 0) {
		status = MHD_HTTP_NOT_FOUND;
		body = sl_xstrdup("sluiced serves /metrics\n");
	} else {
		pthread_mutex_lock(&m->mu);
		body = sl_xstrdup(m->snap ? m->snap : "");
		pthread_mutex_unlock(&m->mu);
	}
	len = strlen(body);
	resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (resp == NULL) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", status == MHD_HTTP_OK
				? "text/plain; version=0.0.4; charset=utf-8" : "text/plain");
	r = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return r;
}

static void publish(struct sl_metrics *m)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	char *text = sl_metrics_render(m, m->d), *old;
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* the loop waits this long each second: tests/bench/metrics.sh reads it */
	sl_debug("metrics: rendered %zu bytes in %.3f ms", strlen(text),
		 (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
	pthread_mutex_lock(&m->mu);
	old = m->snap;
	m->snap = text;
	pthread_mutex_unlock(&m->mu);
	free(old);
}

static void on_tick(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_metrics *m = arg;
	(void)id;
	publish(m);
	m->timer = sl_loop_add_timer(l, REFRESH_MS, on_tick, m);
}

static int bind_addr(const char *listen, struct addrinfo **ai, struct sl_err *err)
{
	char *host = NULL, *port = NULL;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
	int r = sl_hostport_split(listen, &host, &port, err), g;
	if (r != 0)
		goto out;
	if ((g = getaddrinfo(host && *host ? host : NULL, port, &hints, ai)) != 0)
		r = sl_err_set(err, SL_EIO, "metrics: %s: %s", listen, gai_strerror(g));
out:
	free(host);
	free(port);
	return r;
}

int sl_metrics_start(struct sluiced *d, struct sl_metrics **out, struct sl_err *err)
{
	const char *listen = sl_conf_metrics_listen(d->conf);
	struct addrinfo *ai = NULL;
	struct sl_metrics *m;
	int r;

	*out = NULL;
	if (listen == NULL)
		return 0;
	if ((r = bind_addr(listen, &ai, err)) != 0)
		return r;
	m = sl_xcalloc(1, sizeof(*m));
	pthread_mutex_init(&m->mu, NULL);
	m->d = d;
	/* The server thread inherits a mask blocking every signal: they all
	 * reach the loop's thread, whose handlers feed its self-pipe. epoll
	 * (AUTO on Linux), not select: sluiced may hold past FD_SETSIZE
	 * descriptors, and a scrape's socket would get one of them. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	m->mhd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD |
				  (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				  0, NULL, NULL, serve, m,
				  MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTIONS_MAX,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT_S,
				  MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	freeaddrinfo(ai);
	if (m->mhd == NULL) {
		sl_metrics_free(m);
		return sl_err_set(err, SL_EIO, "metrics: cannot listen on %s (in use, or not "
				  "an address of this host)", listen);
	}
	publish(m);
	m->timer = sl_loop_add_timer(d->loop, REFRESH_MS, on_tick, m);
	sl_info("metrics: http://%s/metrics", listen);
	*out = m;
	return 0;
}

void sl_metrics_free(struct sl_metrics *m)
{
	if (m == NULL)
		return;
	if (m->mhd != NULL)
		MHD_stop_daemon(m->mhd); /* joins its thread: nothing reads snap after */
	if (m->timer)
		sl_loop_del_timer(m->d->loop, m->timer);
	for (size_t i = 0; i < m->ncq; i++)
		free(m->cq[i].name);
	free(m->cq);
	free(m->snap);
	pthread_mutex_destroy(&m->mu);
	free(m);
}

struct metrics_cq *sl_metrics_cq(struct sl_metrics *m, const char *name)
{
	for (size_t i = 0; i < m->ncq; i++)
		if (strcmp(m->cq[i].name, name) == 0)
			return &m->cq[i];
	m->cq = sl_xgrow(m->cq, &m->capcq, m->ncq + 1, sizeof(*m->cq));
	struct metrics_cq *q = &m->cq[m->ncq++];
	memset(q, 0, sizeof(*q));
	q->name = sl_xstrdup(name);
	return q;
}

/* The ClusterQueue a job is queued in or admitted to, or NULL. */
static const char *job_cq(struct sluiced *d, uint64_t id)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	if (j == NULL)
		return NULL;
	if (j->cluster_queue == NULL && j->state == SL_JOB_PENDING)
		sl_schedctl_explain(d->sched, j);
	return j->cluster_queue;
}

void sl_metrics_cycle(struct sl_metrics *m, struct sluiced *d,
		      const struct sl_sched_decisions *dec, int64_t us)
{
	if (m == NULL)
		return;
	int64_t now = sl_loop_wall(d->loop);
	int res = dec->nadmit > 0 ? 0 : 1;
	double secs = (double)us / 1e6;
	size_t cb = 0;
	m->attempts[res]++;
	while (cb < METRICS_NCYCLE && secs > sl_metrics_cycle_buckets[cb])
		cb++;
	m->cycle_hist[res][cb]++;
	m->cycle_sum[res] += secs;
	for (size_t i = 0; i < dec->nadmit; i++) {
		const struct sl_sched_admission *a = &dec->admit[i];
		struct metrics_cq *q = sl_metrics_cq(m, a->cluster_queue);
		struct sl_job *j = sl_jobtab_get(d->jobs, a->id);
		double wait = j && now > j->submit_time ? (double)(now - j->submit_time) : 0;
		size_t b = 0;
		q->admitted++;
		while (b < METRICS_NBUCKETS && wait > sl_metrics_wait_buckets[b])
			b++;
		q->wait_hist[b]++;
		q->wait_sum += wait;
	}
	for (size_t i = 0; i < dec->npreempt; i++) {
		const struct sl_sched_preemption *p = &dec->preempt[i];
		const char *vcq = job_cq(d, p->victim), *pcq = p->preemptor ? job_cq(d, p->preemptor) : NULL;
		unsigned r = (unsigned)p->reason < METRICS_NREASONS ? (unsigned)p->reason : 0;
		if (vcq)
			sl_metrics_cq(m, vcq)->evicted[r]++;
		if (pcq || vcq)
			sl_metrics_cq(m, pcq ? pcq : vcq)->preempting[r]++;
	}
}
