/* authq.c - munge decodes off the loop thread (see authq.h).
 *
 * libmunge only blocks. A decode is a round trip to munged, 0.13 ms here;
 * but when munged is gone and its socket file left behind, libmunge retries
 * for 2.25 s per call. Made on the loop, every client, timer and job event
 * of sluiced would wait that long for each TCP request. So worker threads
 * do the decodes, and the loop hears of each result through an eventfd.
 * The workers touch nothing but this queue and libmunge (whose calls are
 * thread-safe with a context each, as Slurm's threads use it). When munged
 * cannot be reached, requests fail at once for DOWN_MS instead of each
 * waiting out libmunge's retries in turn. */
#include "authq.h"
#include "clock.h"
#include "auth.h"
#include "loop.h"
#include "xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* munged runs two threads by default; two decodes at a time keep both busy. */
#define WORKERS 2
#define DOWN_MS 1000

struct sl_authq_req {
	struct sl_authq_req *next;
	char *cred;
	sl_authq_fn fn;
	void *arg;
	int cancelled;
	struct sl_authq_result res;
	char msg[SL_ERR_MSG_MAX];
};

struct sl_authq {
	struct sl_loop *loop;
	char *socket;
	pthread_t th[WORKERS];
	int nth;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* FIFOs with tail pointers: credentials waiting for a worker, and
	 * decoded ones waiting for the loop (woken through efd). */
	struct sl_authq_req *queued, **queued_tail, *done, **done_tail;
	int efd, stop;
	int64_t down_until; /* monotonic ms: munged unreachable until then */
	char down_msg[SL_ERR_MSG_MAX];
};

static void push(struct sl_authq_req ***tail, struct sl_authq_req *r)
{
	r->next = NULL;
	**tail = r;
	*tail = &r->next;
}

/* Outside the lock; q->down_* are read and written under it. */
static void decode(struct sl_authq *q, struct sl_authq_req *r)
{
	struct sl_err err = SL_ERR_INIT;
	int down;

	pthread_mutex_lock(&q->mu);
	down = sl_mono_ms() < q->down_until;
	if (down)
		snprintf(r->msg, sizeof(r->msg), "%s", q->down_msg);
	pthread_mutex_unlock(&q->mu);
	if (down) {
		r->res.rc = -SL_EIO;
		return;
	}
	r->res.rc = sl_auth_decode(q->socket, r->cred, &r->res.uid, &r->res.gid, &r->res.payload,
				   &r->res.plen, &err);
	snprintf(r->msg, sizeof(r->msg), "%s", err.msg);
	if (r->res.rc == -SL_EIO) {
		pthread_mutex_lock(&q->mu);
		q->down_until = sl_mono_ms() + DOWN_MS;
		snprintf(q->down_msg, sizeof(q->down_msg), "%s", err.msg);
		pthread_mutex_unlock(&q->mu);
	}
}

static void *worker(void *arg)
{
	struct sl_authq *q = arg;
	uint64_t one = 1;

	for (;;) {
		struct sl_authq_req *r;
		int cancelled;

		pthread_mutex_lock(&q->mu);
		while (!q->stop && q->queued == NULL)
			pthread_cond_wait(&q->cv, &q->mu);
		if (q->stop) {
			pthread_mutex_unlock(&q->mu);
			return NULL;
		}
		r = q->queued;
		if ((q->queued = r->next) == NULL)
			q->queued_tail = &q->queued;
		cancelled = r->cancelled; /* set later: one decode for nothing */
		pthread_mutex_unlock(&q->mu);
		if (!cancelled)
			decode(q, r);
		pthread_mutex_lock(&q->mu);
		push(&q->done_tail, r);
		pthread_mutex_unlock(&q->mu);
		if (write(q->efd, &one, sizeof(one)) < 0) {
			/* the counter is saturated: the loop will wake anyway */
		}
	}
}

static void req_free(struct sl_authq_req *r)
{
	free(r->cred);
	free(r->res.payload);
	free(r);
}

static void on_done(struct sl_loop *l, int fd, int events, void *arg)
{
	struct sl_authq *q = arg;
	struct sl_authq_req *r, *next;
	uint64_t n;

	if (read(q->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	pthread_mutex_lock(&q->mu);
	r = q->done;
	q->done = NULL;
	q->done_tail = &q->done;
	pthread_mutex_unlock(&q->mu);
	for (; r != NULL; r = next) {
		next = r->next;
		if (!r->cancelled) {
			r->res.msg = r->msg;
			r->fn(r->arg, &r->res);
		}
		req_free(r);
	}
}

int sl_authq_new(struct sl_loop *l, const char *socket, struct sl_authq **out,
		 struct sl_err *err)
{
	struct sl_authq *q = sl_xcalloc(1, sizeof(*q));
	int e;

	*out = NULL;
	q->loop = l;
	q->socket = socket ? sl_xstrdup(socket) : NULL;
	q->queued_tail = &q->queued;
	q->done_tail = &q->done;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	if ((q->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		e = errno;
		sl_authq_free(q);
		return sl_err_set(err, SL_EIO, "eventfd: %s", strerror(e));
	}
	for (; q->nth < WORKERS; q->nth++)
		if ((e = pthread_create(&q->th[q->nth], NULL, worker, q)) != 0) {
			sl_authq_free(q);
			return sl_err_set(err, SL_EIO, "cannot start a munge thread: %s", strerror(e));
		}
	sl_loop_add_fd(l, q->efd, SL_EV_READ, on_done, q);
	*out = q;
	return 0;
}

struct sl_authq_req *sl_authq_decode(struct sl_authq *q, char *cred, sl_authq_fn fn, void *arg)
{
	struct sl_authq_req *r = sl_xcalloc(1, sizeof(*r));

	r->cred = cred;
	r->fn = fn;
	r->arg = arg;
	pthread_mutex_lock(&q->mu);
	push(&q->queued_tail, r);
	pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
	return r;
}

void sl_authq_cancel(struct sl_authq *q, struct sl_authq_req *r)
{
	pthread_mutex_lock(&q->mu);
	r->cancelled = 1;
	pthread_mutex_unlock(&q->mu);
}

static void list_free(struct sl_authq_req *r)
{
	struct sl_authq_req *next;
	for (; r != NULL; r = next) {
		next = r->next;
		req_free(r);
	}
}

void sl_authq_free(struct sl_authq *q)
{
	if (q == NULL)
		return;
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	for (int i = 0; i < q->nth; i++)
		pthread_join(q->th[i], NULL);
	if (q->efd >= 0) {
		sl_loop_del_fd(q->loop, q->efd);
		close(q->efd);
	}
	list_free(q->queued);
	list_free(q->done);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->cv);
	free(q->socket);
	free(q);
}
