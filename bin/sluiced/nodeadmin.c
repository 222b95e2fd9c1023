/* nodeadmin.c - an operator's state of the local node (nodeadmin.h). The
 * transitions are slurmctld's (node_mgr.c: _valid_node_state_change and
 * update_node): DRAIN and DOWN always, UNDRAIN always, RESUME only from a
 * drained or down node, IDLE only from a down or idle one; a reason is
 * kept only while the node is drained or down, and an update that changes
 * neither the state nor the reason changes nothing (not even its time). */
#include "nodeadmin.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "exec.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "log.h"
#include "store.h"
#include "store_nodes.h"
#include "xalloc.h"

struct sl_nodeadmin {
	struct sl_store_node n; /* name, flags, reason and who set it when */
};

int sl_nodeadmin_load(struct sluiced *d, struct sl_nodeadmin **out, struct sl_err *err)
{
	struct sl_nodeadmin *a = sl_xcalloc(1, sizeof(*a));
	int r = sl_store_node_get(d->store, d->hostname, &a->n, err);

	if (r == -SL_ENOENT || (r == 0 && strcmp(d->executor->name, "local") != 0)) {
		/* none, or a local node's state under an executor that has its own */
		sl_store_node_clear(&a->n);
		r = 0;
		a->n.name = sl_xstrdup(d->hostname);
	} else if (r == 0 && a->n.flags != 0) {
		sl_info("node %s is %s since a restart: %s", d->hostname,
			(a->n.flags & SL_NODEADMIN_DOWN) ? "down" : "drained",
			a->n.reason ? a->n.reason : "");
	}
	if (r != 0) {
		sl_nodeadmin_free(a);
		a = NULL;
	}
	*out = a;
	return r;
}

void sl_nodeadmin_free(struct sl_nodeadmin *a)
{
	if (a == NULL)
		return;
	sl_store_node_clear(&a->n);
	free(a);
}

int sl_nodeadmin_blocks(const struct sluiced *d)
{
	return d->nodeadmin != NULL && d->nodeadmin->n.flags != 0;
}

void sl_nodeadmin_describe(const struct sluiced *d, json_object *node)
{
	const struct sl_store_node *n = d->nodeadmin ? &d->nodeadmin->n : NULL;

	if (n == NULL)
		return;
	json_object_object_add(node, "drain", json_object_new_boolean(n->flags & SL_NODEADMIN_DRAIN));
	json_object_object_add(node, "down", json_object_new_boolean(n->flags & SL_NODEADMIN_DOWN));
	if (n->flags == 0 || n->reason == NULL)
		return;
	json_object_object_add(node, "reason", json_object_new_string(n->reason));
	json_object_object_add(node, "reason_user", json_object_new_string(n->user ? n->user : ""));
	json_object_object_add(node, "reason_uid", json_object_new_int64((int64_t)n->uid));
	json_object_object_add(node, "reason_time", json_object_new_int64(n->time));
}

int sl_nodeadmin_explain(const struct sluiced *d, char **reason, char **text)
{
	const struct sl_store_node *n;

	if (!sl_nodeadmin_blocks(d))
		return 0;
	n = &d->nodeadmin->n;
	*reason = sl_xstrdup("Nodes required for job are DOWN, DRAINED or reserved for jobs in "
			     "higher priority partitions");
	*text = sl_xasprintf("node %s is %s: %s", n->name,
			     (n->flags & SL_NODEADMIN_DOWN) ? "down" : "drained",
			     n->reason ? n->reason : "");
	return 1;
}

static int running(enum sl_jobstate s)
{
	return s == SL_JOB_RUNNING || s == SL_JOB_CONFIGURING || s == SL_JOB_SUSPENDED;
}

/* Slurm's base state of the node: idle when no job holds it. */
static int busy(const struct sluiced *d)
{
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		if (running(j->state) || j->state == SL_JOB_COMPLETING)
			return 1;
	}
	return 0;
}

/* kill_running_job_by_node_name: requeued when the job may be, else it
 * ends NODE_FAIL. */
static void end_jobs(struct sluiced *d)
{
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		struct sl_err err = SL_ERR_INIT;
		int r;
		if (!running(j->state))
			continue;
		if (j->spec.requeue) {
			r = sl_lifecycle_requeue(d, j, 0, &err);
		} else {
			r = sl_lifecycle_node_fail(d, j, &err);
		}
		if (r != 0)
			sl_err_log("job %llu: node down: %s", (unsigned long long)j->id, err.msg);
	}
}

/* The new flags from state (NULL: none), or -SL_ESTATE as slurmctld's
 * "Invalid node state specified". */
static int next_flags(const struct sluiced *d, unsigned flags, const char *state,
		      unsigned *out, struct sl_err *err)
{
	*out = flags;
	if (state == NULL)
		return 0;
	if (strcmp(state, "DRAIN") == 0) {
		*out |= SL_NODEADMIN_DRAIN;
	} else if (strcmp(state, "DOWN") == 0) {
		*out |= SL_NODEADMIN_DOWN;
	} else if (strcmp(state, "UNDRAIN") == 0) {
		*out &= ~SL_NODEADMIN_DRAIN;
	} else if (strcmp(state, "RESUME") == 0 && flags != 0) {
		*out = 0;
	} else if (strcmp(state, "CLEAR") == 0) { /* pbsnodes -c: whatever it was */
		*out = 0;
	} else if (strcmp(state, "IDLE") == 0 &&
		   ((flags & SL_NODEADMIN_DOWN) || !busy(d))) {
		*out = 0;
	} else {
		return sl_err_set(err, SL_ESTATE, "Invalid node state specified");
	}
	return 0;
}

/* The names must all be this node's ("ALL" is every node: this one). */
static int names_ok(const struct sluiced *d, json_object *names)
{
	size_t n = json_object_is_type(names, json_type_array) ? json_object_array_length(names) : 0;

	for (size_t i = 0; i < n; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(names, i));
		if (s == NULL || (strcmp(s, d->hostname) != 0 && strcasecmp(s, "ALL") != 0))
			return 0;
	}
	return n > 0;
}

int sl_h_node_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	struct sl_nodeadmin *a = d->nodeadmin;
	json_object *v = NULL;
	const char *state = NULL, *reason = NULL;
	struct sl_store_node was;
	unsigned flags;
	int r;

	(void)rep;
	if (d->executor->node_drain != NULL) {
		json_object *names = NULL;
		if (json_object_object_get_ex(req, "state", &v))
			state = json_object_get_string(v);
		if (json_object_object_get_ex(req, "reason", &v))
			reason = json_object_get_string(v);
		(void)json_object_object_get_ex(req, "names", &names);
		return sl_nodecordon_update(d, p, names, state, reason, err);
	}
	if (strcmp(d->executor->name, "local") != 0 || a == NULL)
		return sl_err_set(err, SL_EUNSUPP, "update NodeName is not supported by Sluice with "
				  "the %s executor: cordon the node there (kubectl cordon NAME)",
				  d->executor->name);
	if (!json_object_object_get_ex(req, "names", &v) || !names_ok(d, v))
		return sl_err_set(err, SL_ENOENT, "Invalid node name specified");
	if (json_object_object_get_ex(req, "state", &v))
		state = json_object_get_string(v);
	if (json_object_object_get_ex(req, "reason", &v))
		reason = json_object_get_string(v);
	if ((r = next_flags(d, a->n.flags, state, &flags, err)) != 0)
		return r;
	if (flags == a->n.flags &&
	    (reason == NULL || *reason == '\0' || (a->n.reason && strcmp(reason, a->n.reason) == 0)))
		return 0;
	was = a->n;
	a->n.flags = flags;
	if (flags == 0) {
		a->n.reason = a->n.user = NULL;
	} else if (reason != NULL && *reason != '\0') {
		a->n.reason = sl_xstrdup(reason);
		a->n.user = sl_xstrdup(p->user);
		a->n.uid = p->uid;
		a->n.time = (int64_t)time(NULL);
	} else {
		a->n.reason = was.reason ? sl_xstrdup(was.reason) : NULL;
		a->n.user = was.user ? sl_xstrdup(was.user) : NULL;
	}
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_node_put(d->store, &a->n, err)) != 0) {
		free(a->n.reason);
		free(a->n.user);
		a->n = was; /* nothing changed that was not saved */
		return r;
	}
	free(was.reason);
	free(was.user);
	sl_info("node %s: %s by %s%s%s", d->hostname,
		flags & SL_NODEADMIN_DOWN ? "down" : flags ? "drained" : "available", p->user,
		a->n.reason ? ": " : "", a->n.reason ? a->n.reason : "");
	if ((flags & SL_NODEADMIN_DOWN) && !(was.flags & SL_NODEADMIN_DOWN))
		end_jobs(d);
	if (flags == 0)
		d->need_schedule = 1; /* the jobs that waited for it may start */
	return 0;
}
