/* h_hold.c - HOLD: PBS's holds by kind (qhold/qrls -h u|o). A user hold is
 * set and released by the job's owner or an operator, an operator hold by
 * operators alone (OpenPBS req_holdjob()/req_releasejob() and
 * chk_hold_priv(), src/server/req_holdjob.c). Releasing a kind the job
 * does not hold changes nothing and succeeds, as PBS's DECR of a bit that
 * is not set. Sluice keeps one hold per job: an operator hold over a user
 * hold replaces it, and releasing it releases the job (PBS would keep the
 * user's). Who may act on the job is authz.c's. */
#include "authz.h"
#include "handlers.h"
#include "jobtab.h"
#include "lifecycle.h"

#include <string.h>

static int admin_held(const struct sl_job *j)
{
	return j->reason != NULL && strcmp(j->reason, "JobHeldAdmin") == 0;
}

static int hold(struct sluiced *d, struct sl_job *j, int operator, struct sl_err *err)
{
	if (j->state != SL_JOB_PENDING) /* PBS checkpoints a running job: not Sluice */
		return sl_err_set(err, SL_EUNSUPP, "Holding job %llu while it runs needs "
				  "checkpoints, which Sluice does not take",
				  (unsigned long long)j->id);
	if (j->spec.hold && (admin_held(j) || !operator))
		return 0; /* held already, as much or more */
	return sl_lifecycle_hold(d, j, operator, err);
}

static int release(struct sluiced *d, struct sl_job *j, int operator, struct sl_err *err)
{
	if (j->state != SL_JOB_PENDING || !j->spec.hold || admin_held(j) != operator)
		return 0;
	return sl_lifecycle_release(d, j, err);
}

int sl_h_hold(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	json_object *v;
	const char *op, *kind;
	struct sl_job *j;
	unsigned long long id;
	int operator, r;

	if (!json_object_object_get_ex(req, "op", &v) || !json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "hold: op is missing");
	op = json_object_get_string(v);
	if (strcmp(op, "hold") != 0 && strcmp(op, "release") != 0)
		return sl_err_set(err, SL_EINVAL, "hold: unknown op \"%s\"", op);
	if (!json_object_object_get_ex(req, "kind", &v) || !json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "hold: kind is missing");
	kind = json_object_get_string(v);
	if (strcmp(kind, "user") != 0 && strcmp(kind, "operator") != 0)
		return sl_err_set(err, SL_EINVAL, "hold: unknown kind \"%s\"", kind);
	operator = strcmp(kind, "operator") == 0;
	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "hold: id is missing");
	id = (unsigned long long)json_object_get_int64(v);
	if ((j = sl_jobtab_get(d->jobs, id)) == NULL)
		return sl_err_set(err, SL_ENOENT, "Unknown Job Id %llu", id);
	if (sl_jobstate_is_final(j->state))
		return sl_err_set(err, SL_ESTATE, "Job %llu has finished", id);
	if ((r = sl_authz_job(p, j, operator ? SL_OP_HOLD_OPERATOR : SL_OP_HOLD, err)) != 0)
		return r;
	(void)rep;
	return strcmp(op, "hold") == 0 ? hold(d, j, operator, err) : release(d, j, operator, err);
}
