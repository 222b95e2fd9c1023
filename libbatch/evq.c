/* evq.c - a singly linked FIFO with a tail pointer, flushed by one
 * zero-delay timer armed by the first event after a flush. */
#include "evq.h"

#include <stdlib.h>

#include "loop.h"
#include "xalloc.h"

enum kind { STARTED, FINISHED, READY, NODES };

struct ev {
	enum kind kind;
	uint64_t id;
	int64_t start;
	char *nodelist;
	struct sl_exec_result res;
	struct ev *next;
};

struct sl_evq {
	struct sl_loop *loop;
	struct sl_exec_events ev;
	void *arg;
	struct ev *head, **tail;
	uint64_t timer;
	int nodes_queued;       /* a NODES event waits: the next one is the same */
};

struct sl_evq *sl_evq_new(struct sl_loop *loop, const struct sl_exec_events *ev,
				    void *arg)
{
	struct sl_evq *q = sl_xcalloc(1, sizeof(*q));
	q->loop = loop;
	q->ev = *ev;
	q->arg = arg;
	q->tail = &q->head;
	return q;
}

static void drop(struct ev *e)
{
	while (e != NULL) {
		struct ev *next = e->next;
		free(e->nodelist);
		free(e);
		e = next;
	}
}

void sl_evq_free(struct sl_evq *q)
{
	if (q == NULL)
		return;
	if (q->timer != 0)
		sl_loop_del_timer(q->loop, q->timer);
	drop(q->head);
	free(q);
}

/* The queue is detached first: a handler may queue new events, which wait
 * for the next flush. */
static void flush(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_evq *q = arg;
	struct sl_exec_events ev = q->ev;
	void *cb_arg = q->arg;
	struct ev *e = q->head;

	q->head = NULL;
	q->tail = &q->head;
	q->timer = 0;
	q->nodes_queued = 0;
	while (e != NULL) {
		struct ev *next = e->next;
		if (e->kind == STARTED && ev.on_started)
			ev.on_started(cb_arg, e->id, e->start, e->nodelist);
		else if (e->kind == FINISHED && ev.on_finished)
			ev.on_finished(cb_arg, e->id, &e->res);
		else if (e->kind == READY && ev.on_ready)
			ev.on_ready(cb_arg, e->id, e->nodelist);
		else if (e->kind == NODES && ev.on_nodes)
			ev.on_nodes(cb_arg);
		e->next = NULL;
		drop(e);
		e = next;
	}
}

static struct ev *push(struct sl_evq *q, enum kind kind, uint64_t id)
{
	struct ev *e = sl_xcalloc(1, sizeof(*e));
	e->kind = kind;
	e->id = id;
	*q->tail = e;
	q->tail = &e->next;
	if (q->timer == 0)
		q->timer = sl_loop_add_timer(q->loop, 0, flush, q);
	return e;
}

void sl_evq_started(struct sl_evq *q, uint64_t id, int64_t start,
			 const char *nodelist)
{
	struct ev *e = push(q, STARTED, id);
	e->start = start;
	e->nodelist = sl_xstrdup(nodelist ? nodelist : "");
}

void sl_evq_finished(struct sl_evq *q, uint64_t id, const struct sl_exec_result *r)
{
	push(q, FINISHED, id)->res = *r;
}

void sl_evq_ready(struct sl_evq *q, uint64_t id, const char *nodelist)
{
	struct ev *e = push(q, READY, id);
	e->nodelist = sl_xstrdup(nodelist ? nodelist : "");
}

void sl_evq_nodes(struct sl_evq *q)
{
	if (q->nodes_queued)
		return;
	q->nodes_queued = 1;
	push(q, NODES, 0);
}
