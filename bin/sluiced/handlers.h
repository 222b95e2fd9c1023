/* handlers.h - request handlers (h_*.c) and the job filter they share. */
#ifndef SL_HANDLERS_H
#define SL_HANDLERS_H

#include <json-c/json.h>
#include "sluiced.h"

typedef int (*sl_handler_fn)(struct sluiced *d, const struct sl_peer *p, json_object *req,
			     json_object *rep, struct sl_err *err);

struct sl_buf;
/* Handlers called once per job read the request's text themselves. */
typedef int (*sl_text_handler_fn)(struct sluiced *d, const struct sl_peer *p, const char *body,
				  size_t len, struct sl_buf *rep, struct sl_err *err);

int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err);
/* Handlers whose reply can be large write its text themselves. */
typedef int (*sl_raw_handler_fn)(struct sluiced *d, const struct sl_peer *p, json_object *req,
				 struct sl_buf *rep, struct sl_err *err);

int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err);
int sl_h_cancel(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err);
int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err);

/* A decoded sl_jobfilter (client.h) that owns its arrays. */
struct sl_dfilter {
	uint64_t *ids; size_t n_ids;
	int64_t *uids; size_t n_uids;
	int *states; size_t n_states;
	char **partitions; size_t n_partitions;
	char **accounts; size_t n_accounts;
	char **names; size_t n_names;
	int history;
	int64_t start_after, end_before;
};

int sl_dfilter_decode(json_object *o, struct sl_dfilter *f, struct sl_err *err);
void sl_dfilter_clear(struct sl_dfilter *f);
int sl_dfilter_match(const struct sl_dfilter *f, const struct sl_job *j);

#endif
