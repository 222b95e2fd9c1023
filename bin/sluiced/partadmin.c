/* partadmin.c - an operator's partition states (partadmin.h). A held
 * partition reaches the engine as its LocalQueues' stopPolicy Hold, in a
 * copy of the config's model given at each reconfigure, so that the
 * config itself stays what the file says and a SIGHUP keeps the holds. */
#include "partadmin.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf.h"
#include "log.h"
#include "schedule.h"
#include "store.h"
#include "store_nodes.h"
#include "xalloc.h"

struct sl_partadmin {
	struct sl_store_part *v; /* by name; state DOWN, DRAIN or INACTIVE */
	size_t n;
};

int sl_partadmin_load(struct sluiced *d, struct sl_partadmin **out, struct sl_err *err)
{
	struct sl_partadmin *a = sl_xcalloc(1, sizeof(*a));
	int r = sl_store_parts(d->store, &a->v, &a->n, err);

	for (size_t i = 0; r == 0 && i < a->n; i++)
		sl_info("partition %s is %s since a restart", a->v[i].name, a->v[i].state);
	if (r != 0) {
		sl_partadmin_free(a);
		a = NULL;
	}
	*out = a;
	return r;
}

void sl_partadmin_free(struct sl_partadmin *a)
{
	if (a == NULL)
		return;
	sl_store_part_free(a->v, a->n);
	free(a);
}

static struct sl_store_part *find(const struct sl_partadmin *a, const char *p)
{
	char name[SL_K8S_NAME_MAX];

	/* every submission asks: with no partition held, nothing to look up */
	if (a == NULL || a->n == 0 || p == NULL || sl_conf_k8s_name(p, name) != 0)
		return NULL;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, name) == 0)
			return &a->v[i];
	return NULL;
}

const char *sl_partadmin_state(const struct sluiced *d, const char *p)
{
	const struct sl_store_part *r = find(d->partadmin, p);
	return r ? r->state : NULL;
}

int sl_partadmin_accepts(const struct sluiced *d, const char *p, struct sl_err *err)
{
	const char *s = sl_partadmin_state(d, p);
	if (s != NULL && (strcmp(s, "DRAIN") == 0 || strcmp(s, "INACTIVE") == 0))
		return sl_err_set(err, SL_EPARTUNAVAIL, "%s", sl_strerror(SL_EPARTUNAVAIL));
	return 0;
}

static int holds(const char *state)
{
	return state != NULL && (strcmp(state, "DOWN") == 0 || strcmp(state, "INACTIVE") == 0);
}

struct sl_kueue *sl_partadmin_model(const struct sluiced *d, const struct sl_kueue *k)
{
	const struct sl_partadmin *a = d->partadmin;
	struct sl_kueue *m = NULL;

	for (size_t i = 0; a != NULL && i < k->nlqs; i++) {
		const struct sl_store_part *r = find(a, k->lqs[i].name);
		if (r == NULL || !holds(r->state) || k->lqs[i].stop != SL_KSTOP_NONE)
			continue;
		if (m == NULL) { /* the same objects, but for the LocalQueues */
			m = sl_xcalloc(1, sizeof(*m));
			*m = *k;
			m->lqs = sl_xcalloc(k->nlqs + 1, sizeof(*m->lqs));
			memcpy(m->lqs, k->lqs, k->nlqs * sizeof(*m->lqs));
		}
		m->lqs[i].stop = SL_KSTOP_HOLD;
	}
	return m;
}

void sl_partadmin_model_free(struct sl_kueue *m)
{
	if (m == NULL)
		return;
	free(m->lqs);
	free(m);
}

static int known(const struct sluiced *d, const char *name)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	for (size_t i = 0; i < k->nlqs; i++)
		if (strcmp(k->lqs[i].name, name) == 0)
			return 1;
	return 0;
}

int sl_h_part_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	struct sl_partadmin *a = d->partadmin;
	json_object *v;
	const char *given = NULL, *state = NULL, *was;
	char name[SL_K8S_NAME_MAX];
	struct sl_store_part row = {0};
	int r, held;

	(void)rep;
	if (json_object_object_get_ex(req, "name", &v))
		given = json_object_get_string(v);
	if (json_object_object_get_ex(req, "state", &v))
		state = json_object_get_string(v);
	if (given == NULL || sl_conf_k8s_name(given, name) != 0 || !known(d, name))
		return sl_err_set(err, SL_EPARTITION, "Invalid partition name specified");
	if (state == NULL || (strcmp(state, "UP") != 0 && strcmp(state, "DOWN") != 0 &&
			      strcmp(state, "DRAIN") != 0 && strcmp(state, "INACTIVE") != 0))
		return sl_err_set(err, SL_EINVAL, "Invalid input: State=%s", state ? state : "");
	was = sl_partadmin_state(d, name);
	if ((was == NULL && strcmp(state, "UP") == 0) || (was && strcmp(was, state) == 0))
		return 0;
	held = holds(was); /* was is the table's: gone once the row is replaced */
	row.name = name;
	row.state = (char *)state;
	row.user = (char *)p->user;
	row.uid = p->uid;
	row.time = (int64_t)time(NULL);
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_part_put(d->store, &row, err)) != 0)
		return r;
	/* the table follows what is stored: rebuilt by name */
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, name) == 0) {
			free(a->v[i].name);
			free(a->v[i].state);
			free(a->v[i].user);
			a->v[i] = a->v[--a->n];
			break;
		}
	if (strcmp(state, "UP") != 0) {
		a->v = sl_xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
		a->v[a->n++] = (struct sl_store_part){sl_xstrdup(name), sl_xstrdup(state),
						      sl_xstrdup(p->user), p->uid, row.time};
	}
	sl_info("partition %s: %s by %s", name, state, p->user);
	/* a hold starts or ends in the engine: its model again */
	if (held != holds(state) &&
	    (r = sl_schedctl_reconfigure(d->sched, err)) != 0)
		sl_err_log("partition %s: the engine kept its old queues: %s", name, err->msg);
	d->need_schedule = 1;
	return 0;
}
