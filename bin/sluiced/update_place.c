/* update_place.c - the fields of UPDATE (h_update.c) that say where a job
 * may run: Features=, ReqNodeList=, ExcNodeList=, Contiguous=,
 * Switches=, Deadline= and DelayBoot=, with slurmctld's rules of when
 * (_update_job: pending only, but for an unchanged value) and who.
 * Names are checked by the executor (its check(), as at submit) and
 * features by the engine, in h_update.c's validate(). */
#include "update_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "authz.h"
#include "hostlist.h"
#include "slurm_opt.h"
#include "xalloc.h"

static int same_features(char *const *a, char *const *b)
{
	size_t n = sl_strv_len(a);

	if (n != sl_strv_len(b))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

/* Features=: sbatch -C's form (slurm_optval.c), checked here too, since a
 * client other than scontrol may send anything; the same list is no change
 * at any time, another only while pending (Slurm's ESLURM_JOB_NOT_PENDING);
 * empty clears. */
static int f_features(struct upd *u, json_object *v, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	char **want = NULL;
	int r;

	if (sl_slurm_parse_constraint(json_object_get_string(v), &want, &e) != 0)
		return sl_err_set(err, SL_EINVAL, "Invalid feature specification");
	if (same_features(want, u->old->spec.features))
		r = 0;
	else if ((r = sl_update_pending_only(u, err)) == 0) {
		sl_strv_free(u->n->spec.features);
		u->n->spec.features = want;
		want = NULL;
		u->refit = u->requeue = 1;
	}
	sl_strv_free(want);
	return r;
}

static int same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* A running job's NodeList=: slurmctld shrinks the job to the names given
 * when they are some of its nodes (ESLURM_INVALID_NODE_NAME otherwise).
 * Sluice cannot take nodes from a job that runs: all of its own nodes is
 * no change, fewer is refused as unsupported. */
static int running_nodes(const struct sl_job *j, const char *want, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	char **w = NULL, **have = NULL;
	size_t nw = 0, nh = 0, found = 0;
	int r = 0;

	if (*want == '\0' || sl_hostlist_expand(want, &w, &nw, &e) != 0 ||
	    sl_hostlist_expand(j->nodelist ? j->nodelist : "", &have, &nh, &e) != 0)
		r = sl_err_set(err, SL_EINVAL, "Invalid node name specified");
	for (size_t i = 0; r == 0 && i < nh; i++) {
		size_t k = 0;
		while (k < nw && strcmp(w[k], have[i]) != 0)
			k++;
		found += k < nw;
	}
	for (size_t k = 0; r == 0 && k < nw; k++) {
		size_t i = 0;
		while (i < nh && strcmp(w[k], have[i]) != 0)
			i++;
		if (i == nh)
			r = sl_err_set(err, SL_EINVAL, "Invalid node name specified");
	}
	if (r == 0 && found < nh)
		r = sl_err_set(err, SL_EUNSUPP, "Requested operation not supported on this system");
	sl_strv_free(w);
	sl_strv_free(have);
	return r;
}

/* ReqNodeList= (NodeList=): while pending, the nodes it must have; on a
 * job that runs, running_nodes(). */
static int f_nodelist(struct upd *u, json_object *v, struct sl_err *err)
{
	const char *want = json_object_get_string(v);

	if (u->old->state == SL_JOB_RUNNING || u->old->state == SL_JOB_CONFIGURING ||
	    u->old->state == SL_JOB_SUSPENDED)
		return running_nodes(u->old, want, err);
	int r = sl_update_pending_only(u, err);
	if (r != 0)
		return r;
	sl_update_set_str(&u->n->spec.nodelist, v);
	u->check = u->refit = u->requeue = 1;
	return 0;
}

/* ExcNodeList=: while pending (the same list: no change at any time). */
static int f_exclude(struct upd *u, json_object *v, struct sl_err *err)
{
	int r;

	if (same_str(json_object_get_string(v), u->old->spec.exclude))
		return 0;
	if ((r = sl_update_pending_only(u, err)) != 0)
		return r;
	sl_update_set_str(&u->n->spec.exclude, v);
	u->check = u->refit = u->requeue = 1;
	return 0;
}

/* Contiguous=: while pending; a user may only drop it, an operator set it. */
static int f_contiguous(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t on = json_object_get_int64(v);
	int r = sl_update_pending_only(u, err);

	if (r != 0)
		return r;
	if (on < 0 || on > 65535)
		return sl_err_set(err, SL_EINVAL, "Invalid Contiguous value");
	if (!u->p->operator && u->old->spec.contiguous <= (on != 0))
		return sl_err_set(err, SL_EPERM, "Access/permission denied");
	u->n->spec.contiguous = on != 0;
	return 0;
}

/* Switches=N: at any time, as slurmctld (a running job's placement is
 * done: it counts for the next start, a requeue's); moot where the job's
 * ClusterQueue has no topology (sl_submit_workload). */
static int f_switches(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n = json_object_get_int64(v);

	if (n < 0 || n > INT32_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid Switches value");
	u->n->spec.switches = (int)n;
	u->requeue = 1;
	return 0;
}

/* wait-for-switch= (and Switches=N@TIME): seconds. */
static int f_wait4switch(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t s = json_object_get_int64(v);

	if (s < 0 || s > INT32_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid wait-for-switch value");
	u->n->spec.wait4switch = s;
	u->requeue = 1;
	return 0;
}

/* Deadline=: not while it runs (slurmctld skips it then); an operator's
 * only, since it can cut a job short; a past one is refused. */
static int f_deadline(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t t = json_object_get_int64(v);

	if (u->old->state == SL_JOB_RUNNING || u->old->state == SL_JOB_CONFIGURING)
		return 0; /* slurmctld's IS_JOB_RUNNING: left as it is */
	if (t < (int64_t)time(NULL))
		return sl_err_set(err, SL_EINVAL, "Invalid time specified");
	if (!u->p->operator)
		return sl_err_set(err, SL_EPERM, "Access/permission denied");
	u->n->spec.deadline = t;
	u->requeue = 1;
	return 0;
}

/* DelayBoot= (minutes): recorded at any time, as --delay-boot. */
static int f_delay_boot(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m = json_object_get_int64(v);

	if (m < 0 || m > INT32_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid DelayBoot value");
	u->n->spec.delay_boot = m;
	return 0;
}

const struct sl_update_field sl_update_place[] = {
	{"features", json_type_string, f_features},
	{"nodelist", json_type_string, f_nodelist},
	{"exclude", json_type_string, f_exclude},
	{"contiguous", json_type_int, f_contiguous},
	{"switches", json_type_int, f_switches},
	{"wait4switch", json_type_int, f_wait4switch},
	{"deadline", json_type_int, f_deadline},
	{"delay_boot", json_type_int, f_delay_boot},
};

const size_t sl_update_nplace = sizeof(sl_update_place) / sizeof(sl_update_place[0]);
