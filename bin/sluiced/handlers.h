/* handlers.h - request handlers (h_*.c). */
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
/* qhold/qrls: PBS's holds by kind (h_hold.c). */
int sl_h_hold(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err);
/* sinfo: partitions, their quota and the local node (h_info.c). */
int sl_h_partitions(struct sluiced *d, const struct sl_peer *p, json_object *req,
		    json_object *rep, struct sl_err *err);

#endif
