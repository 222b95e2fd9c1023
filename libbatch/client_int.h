/* client_int.h - private to libbatch's client: what client.c's typed
 * requests use of client_conn.c's connection and framing. Not installed,
 * not part of client.h's API. */
#ifndef SL_CLIENT_INT_H
#define SL_CLIENT_INT_H

#include "buf.h"
#include "client.h"
#include "err.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

/* Seconds to ride out a daemon restart: $SLUICE_CONNECT_TIMEOUT, default 5. */
double sl_client_connect_budget(void);

/* Read one reply frame of type want into *inp (caller frees); its body at
 * *body, *blen bytes. */
int sl_client_read_frame(struct sl_client *c, uint16_t want, struct sl_buf **inp,
			 const char **body, size_t *blen, struct sl_err *err);

/* Send one request of this type, its text as is (with its credential when
 * the connection carries munge). */
int sl_client_send_text(struct sl_client *c, uint16_t type, const char *text, size_t len,
			struct sl_err *err);

/* Send req (consumed). */
int sl_client_send_req(struct sl_client *c, uint16_t type, json_object *req,
		       struct sl_err *err);

/* The reply to a request of this type: an error reply becomes the return
 * code and err; otherwise *reply holds it (caller puts it). */
int sl_client_receive(struct sl_client *c, uint16_t type, json_object **reply,
		      struct sl_err *err);

/* Send req (consumed), wait for the reply (see sl_client_receive()). */
int sl_client_call(struct sl_client *c, uint16_t type, json_object *req,
		   json_object **reply, struct sl_err *err);

/* Connect, send an empty request of this type, hand back the reply (the
 * caller puts it). */
int sl_client_ask(uint16_t type, json_object **rep, struct sl_err *err);

/* A reply's members: a string copied (caller frees; NULL when absent or
 * not a string), a number (0 when absent), an array borrowed with its
 * length (NULL and 0 when absent). */
char *sl_client_str(json_object *o, const char *key);
int64_t sl_client_i64(json_object *o, const char *key);
json_object *sl_client_arr(json_object *o, const char *key, size_t *n);

#endif
