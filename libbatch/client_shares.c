/* client_shares.c - the shares request (PROTOCOL.md, type 21): sshare reads
 * its rows, sacctmgr the rows and the config half the daemon adds
 * (bin/sluiced/h_share.c, h_share_conf.c). */
#include "client.h"
#include "client_int.h"
#include "lim_json.h"
#include "proto.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static struct sl_share_row *rows_from(json_object *rep, size_t *n)
{
	json_object *a = sl_client_arr(rep, "rows", n);
	struct sl_share_row *rows = sl_xcalloc(*n + 1, sizeof(*rows));

	for (size_t i = 0; i < *n; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct sl_share_row *w = &rows[i];
		w->account = sl_client_str(o, "account");
		w->user = sl_client_str(o, "user");
		w->shares = sl_client_i64(o, "shares");
		w->usage = sl_client_i64(o, "usage");
		w->cpu_run = sl_client_i64(o, "cpu_run");
		w->mem_run = sl_client_i64(o, "mem_run");
		w->node_run = sl_client_i64(o, "node_run");
	}
	return rows;
}

int sl_client_shares(struct sl_share_row **rows, size_t *n, struct sl_err *err)
{
	json_object *rep;
	int r = sl_client_ask(SL_MSG_SHARES, &rep, err);

	*rows = NULL;
	*n = 0;
	if (r != 0)
		return r;
	*rows = rows_from(rep, n);
	json_object_put(rep);
	return 0;
}

void sl_share_rows_free(struct sl_share_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		free(rows[i].account), free(rows[i].user);
	free(rows);
}

/* A NULL-terminated copy of the strings of the array at key. */
static char **strv(json_object *o, const char *key)
{
	size_t n;
	json_object *a = sl_client_arr(o, key, &n);
	char **v = sl_xcalloc(n + 1, sizeof(*v)), **w = v;

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (json_object_is_type(e, json_type_string))
			*w++ = sl_xstrdup(json_object_get_string(e));
	}
	return v;
}

static char *str_or_empty(json_object *o, const char *key)
{
	char *s = sl_client_str(o, key);
	return s ? s : sl_xstrdup("");
}

static struct sl_assoc_obj *objs_from(json_object *rep, const char *key, size_t *n)
{
	json_object *a = sl_client_arr(rep, key, n), *lim;
	struct sl_assoc_obj *v = sl_xcalloc(*n + 1, sizeof(*v));

	for (size_t i = 0; i < *n; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		v[i].name = str_or_empty(o, "name");
		v[i].parent = sl_client_str(o, "parent");
		v[i].priority = sl_client_i64(o, "priority");
		sl_lim_set_from_json(json_object_object_get_ex(o, "limits", &lim) ? lim : NULL,
				     &v[i].lim);
	}
	return v;
}

int sl_client_assoc_info(struct sl_assoc_info **out, struct sl_err *err)
{
	json_object *rep, *a, *v;
	struct sl_assoc_info *ai;
	int r = sl_client_ask(SL_MSG_SHARES, &rep, err);

	*out = NULL;
	if (r != 0)
		return r;
	ai = sl_xcalloc(1, sizeof(*ai));
	ai->rows = rows_from(rep, &ai->n_rows);
	ai->cluster = str_or_empty(rep, "cluster");
	ai->default_qos = str_or_empty(rep, "default_qos");
	ai->host = str_or_empty(rep, "host");
	ai->port = json_object_object_get_ex(rep, "port", &v) ? json_object_get_int64(v) : -1;
	ai->operators = strv(rep, "operators");
	a = sl_client_arr(rep, "users", &ai->n_users);
	ai->users = sl_xcalloc(ai->n_users + 1, sizeof(*ai->users));
	for (size_t i = 0; i < ai->n_users; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		ai->users[i].user = str_or_empty(o, "user");
		ai->users[i].accounts = strv(o, "accounts");
	}
	ai->accounts = objs_from(rep, "accounts", &ai->n_accounts);
	ai->qos = objs_from(rep, "qos", &ai->n_qos);
	json_object_put(rep);
	*out = ai;
	return 0;
}

static void objs_free(struct sl_assoc_obj *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name), free(v[i].parent);
	free(v);
}

void sl_assoc_info_free(struct sl_assoc_info *ai)
{
	if (ai == NULL)
		return;
	sl_share_rows_free(ai->rows, ai->n_rows);
	free(ai->cluster), free(ai->default_qos), free(ai->host);
	sl_strv_free(ai->operators);
	for (size_t i = 0; i < ai->n_users; i++)
		free(ai->users[i].user), sl_strv_free(ai->users[i].accounts);
	free(ai->users);
	objs_free(ai->accounts, ai->n_accounts);
	objs_free(ai->qos, ai->n_qos);
	free(ai);
}
