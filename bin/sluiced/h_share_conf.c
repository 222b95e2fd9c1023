/* h_share_conf.c - the config half of the shares reply (SL_MSG_SHARES):
 * what sacctmgr lists beside sshare's rows, so that both commands read one
 * request. The accounts map in the config's order (the "*" entry and each
 * user's default, its first account, included: sshare's rows carry
 * neither), the operators, the Account objects (parent and limits), the
 * QOS with the priority their jobs get, the cluster's name and where
 * sluiced answers. Read-only; costs one pass over the config. */
#include "conf.h"
#include "handlers.h"
#include "lim_json.h"
#include "qos_limits.h"
#include "submit.h"

#include <stdlib.h>
#include <string.h>

static json_object *strv(const char *const *v)
{
	json_object *a = json_object_new_array();
	for (; v && *v; v++)
		json_object_array_add(a, json_object_new_string(*v));
	return a;
}

static json_object *object(const char *name, const char *parent, const struct sl_lim_set *set)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(name));
	if (parent)
		json_object_object_add(o, "parent", json_object_new_string(parent));
	if (set)
		json_object_object_add(o, "limits", sl_lim_set_to_json(set));
	return o;
}

/* The QOS jobs may ask for: the default one first when no object defines
 * it (it needs none), then the objects in the config's order. */
static json_object *qos_list(const struct sl_conf *c)
{
	const struct sl_limits *l = sl_conf_limits(c);
	const char *def = sl_conf_default_qos(c), *name, *parent;
	const struct sl_lim_set *set;
	json_object *a = json_object_new_array(), *o;
	int32_t base;

	if (!sl_limits_has_qos(l, def)) {
		o = object(def, NULL, NULL);
		json_object_object_add(o, "priority", json_object_new_int64(
			sl_submit_qos_base(c, def, &base) == 0 ? base : 0));
		json_object_array_add(a, o);
	}
	for (size_t i = 0; sl_limits_obj(l, 0, i, &name, &parent, &set) == 0; i++) {
		o = object(name, NULL, set);
		json_object_object_add(o, "priority", json_object_new_int64(
			sl_submit_qos_base(c, name, &base) == 0 ? base : 0));
		json_object_array_add(a, o);
	}
	return a;
}

void sl_h_shares_conf(struct sluiced *d, json_object *rep)
{
	const struct sl_conf *c = d->conf;
	const struct sl_limits *l = sl_conf_limits(c);
	const char *const *listen = sl_conf_listen(c), *const *v, *name, *parent, *colon;
	const struct sl_lim_set *set;
	json_object *users = json_object_new_array(), *accts = json_object_new_array(), *u;

	json_object_object_add(rep, "cluster", json_object_new_string(sl_conf_cluster_name(c)));
	json_object_object_add(rep, "default_qos", json_object_new_string(sl_conf_default_qos(c)));
	json_object_object_add(rep, "host", json_object_new_string(d->hostname ? d->hostname : ""));
	/* the first TCP address's port; none on the socket alone */
	if (listen && (colon = strrchr(listen[0], ':')) != NULL)
		json_object_object_add(rep, "port", json_object_new_int64(atoll(colon + 1)));
	json_object_object_add(rep, "operators", strv(sl_conf_operators(c)));
	for (size_t i = 0; (v = sl_conf_accounts_at(c, i, &name)) != NULL; i++) {
		u = json_object_new_object();
		json_object_object_add(u, "user", json_object_new_string(name));
		json_object_object_add(u, "accounts", strv(v));
		json_object_array_add(users, u);
	}
	json_object_object_add(rep, "users", users);
	for (size_t i = 0; sl_limits_obj(l, 1, i, &name, &parent, &set) == 0; i++)
		json_object_array_add(accts, object(name, parent, set));
	json_object_object_add(rep, "accounts", accts);
	json_object_object_add(rep, "qos", qos_list(c));
}
