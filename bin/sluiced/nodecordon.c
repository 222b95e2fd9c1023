/* nodecordon.c - scontrol update NodeName=... on an executor whose nodes
 * keep their own state (Kubernetes: a cordon, exec.h's node_drain). DRAIN
 * with a reason cordons each named node, UNDRAIN uncordons, RESUME (and
 * IDLE, and pbsnodes -c's CLEAR) uncordons a cordoned one; DOWN would end
 * the node's jobs by evicting their pods, which is kubectl drain's, and is
 * refused by name. The node list is the executor's (nodes()), as sinfo
 * shows it; "ALL" is every node. Nothing is stored here: the cordon is the
 * API's, and the Node watch shows it (sinfo drain, its -R reason). */
#include "nodeadmin.h"

#include <string.h>
#include <strings.h>

#include "exec.h"
#include "log.h"

static const struct sl_exec_node *find(const struct sl_exec_node *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].name != NULL && strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

enum { UNCORDON, CORDON, LEAVE };

/* What state asks of a node (cordoned or not): an enum above, or -SL_E*. */
static int action(const char *state, const char *reason, int cordoned, struct sl_err *err)
{
	if (state == NULL) /* a new reason for a drained node; none for another */
		return cordoned && reason && *reason ? CORDON : LEAVE;
	if (strcmp(state, "DRAIN") == 0)
		return CORDON;
	if (strcmp(state, "UNDRAIN") == 0 || strcmp(state, "CLEAR") == 0)
		return UNCORDON;
	if (strcmp(state, "RESUME") == 0 || strcmp(state, "IDLE") == 0)
		return cordoned ? UNCORDON : sl_err_set(err, SL_ESTATE, "Invalid node state specified");
	if (strcmp(state, "DOWN") == 0)
		return sl_err_set(err, SL_EUNSUPP, "State=DOWN is not supported by Sluice on "
				  "Kubernetes: evict the node's pods there (kubectl drain NAME)");
	return sl_err_set(err, SL_ESTATE, "Invalid node state specified");
}

int sl_nodecordon_update(struct sluiced *d, const struct sl_peer *p, json_object *names,
			 const char *state, const char *reason, struct sl_err *err)
{
	const struct sl_exec_node *v = NULL;
	size_t nv = d->executor->nodes ? d->executor->nodes(d->exec, &v) : 0;
	size_t n = json_object_is_type(names, json_type_array) ? json_object_array_length(names) : 0;
	int all = 0, r = 0;

	if (n == 0)
		return sl_err_set(err, SL_ENOENT, "Invalid node name specified");
	/* every name first: a list with one unknown node changes nothing */
	for (size_t i = 0; i < n; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(names, i));
		if (s != NULL && strcasecmp(s, "ALL") == 0)
			all = 1;
		else if (s == NULL || find(v, nv, s) == NULL)
			return sl_err_set(err, SL_ENOENT, "Invalid node name specified");
	}
	for (size_t i = 0; i < (all ? nv : n) && r == 0; i++) {
		const struct sl_exec_node *node =
			all ? &v[i]
			    : find(v, nv, json_object_get_string(json_object_array_get_idx(names, i)));
		int a = action(state, reason, node->unschedulable, err);
		if (a < 0)
			r = a;
		else if (a != LEAVE)
			r = d->executor->node_drain(d->exec, node->name, a == CORDON ? reason : NULL,
						    p->user, err);
	}
	return r;
}
