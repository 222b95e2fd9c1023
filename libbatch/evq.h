/* evq.h - an executor's queue of events for the daemon. exec.h
 * promises that events never arrive from inside a call into the executor:
 * they are queued here and delivered, in order, from the loop (a zero
 * timer), so a handler may call back into the executor freely. */
#ifndef SL_EXEC_EVQ_H
#define SL_EXEC_EVQ_H

#include <stdint.h>
#include "exec.h"

struct sl_evq;

/* ev's callbacks get arg; a NULL callback drops its events. ev is copied. */
struct sl_evq *sl_evq_new(struct sl_loop *loop, const struct sl_exec_events *ev,
				    void *arg);
/* Undelivered events are dropped. */
void sl_evq_free(struct sl_evq *q);

void sl_evq_started(struct sl_evq *q, uint64_t id, int64_t start,
			 const char *nodelist);
void sl_evq_finished(struct sl_evq *q, uint64_t id, const struct sl_exec_result *r);
void sl_evq_ready(struct sl_evq *q, uint64_t id, const char *nodelist);
/* The nodes changed; one queued at a time (a burst of watch events is one). */
void sl_evq_nodes(struct sl_evq *q);

#endif
