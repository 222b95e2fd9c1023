/* authz.c - the rules: of requests (named per row of the dispatch table), and
 * in one table, of what is done to jobs or asked for in specs. */
#include "authz.h"

#include <string.h>

static const struct {
	enum sl_priv rule; /* SL_PRIV_OWNER or SL_PRIV_OPERATOR */
	int code;
	const char *deny;  /* Slurm's text */
	int for_job;       /* followed by " for job N" */
} ops[SL_OP_COUNT] = {
	[SL_OP_CANCEL] = {SL_PRIV_OWNER, SL_EPERM, "Access/permission denied", 0},
	[SL_OP_SIGNAL] = {SL_PRIV_OWNER, SL_EPERM, "Access/permission denied", 0},
	[SL_OP_HOLD] = {SL_PRIV_OWNER, SL_EPERM, "Invalid user id", 1},
	[SL_OP_RELEASE] = {SL_PRIV_OWNER, SL_EPERM, "Invalid user id", 1},
	[SL_OP_REQUEUE] = {SL_PRIV_OWNER, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_RELEASE_ADMIN] = {SL_PRIV_OPERATOR, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_PRIORITY] = {SL_PRIV_OPERATOR, SL_EPERM,
			    "Access/permission denied: only operators may set --priority", 0},
	[SL_OP_NICE_NEGATIVE] = {SL_PRIV_OPERATOR, SL_EINVAL, "Invalid --nice value", 0},
	[SL_OP_ACCOUNT] = {SL_PRIV_OPERATOR, SL_EACCOUNT,
			   "Invalid account or account/partition combination specified", 0},
	[SL_OP_TOP] = {SL_PRIV_OPERATOR, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_SUSPEND] = {SL_PRIV_OPERATOR, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_UPDATE] = {SL_PRIV_OWNER, SL_EPERM, "Invalid user id", 1},
	[SL_OP_UPDATE_PRIORITY] = {SL_PRIV_OPERATOR, SL_EPERM,
				   "Changes to job priority are not persistent, change nice instead", 1},
	[SL_OP_UPDATE_NICE] = {SL_PRIV_OPERATOR, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_UPDATE_LIMIT] = {SL_PRIV_OPERATOR, SL_EPERM, "Access/permission denied", 1},
	[SL_OP_HOLD_OPERATOR] = {SL_PRIV_OPERATOR, SL_EPERM, "Unauthorized Request", 1},
	/* Values in --export are often secrets (tokens, passwords): as Slurm
	 * shows a job's environment and script only to its owner and admins. */
	[SL_OP_SEE_PRIVATE] = {SL_PRIV_OWNER, SL_EPERM, "Access/permission denied", 0},
};

static int check(const struct sl_peer *p, uid_t owner, uint64_t id, enum sl_op op,
		 struct sl_err *err)
{
	if (p->operator || (ops[op].rule == SL_PRIV_OWNER && p->uid == owner))
		return 0;
	if (ops[op].for_job)
		return sl_err_set(err, ops[op].code, "%s for job %llu", ops[op].deny,
				  (unsigned long long)id);
	return sl_err_set(err, ops[op].code, "%s", ops[op].deny);
}

int sl_authz_request(uid_t self_uid, const char *self_user, const struct sl_peer *p,
		     enum sl_priv priv, struct sl_err *err)
{
	/* Root included: a sluiced that is not root cannot run anyone else's jobs. */
	if (priv == SL_PRIV_RUNAS && self_uid != 0 && p->uid != self_uid)
		return sl_err_set(err, SL_EPERM, "Access/permission denied: sluiced runs as %s "
				  "and accepts only %s's jobs", self_user, self_user);
	if (priv == SL_PRIV_OPERATOR && !p->operator)
		return sl_err_set(err, SL_EPERM, "Access/permission denied");
	return 0;
}

static int admin_held(const struct sl_job *j)
{
	return j->state == SL_JOB_PENDING && j->spec.hold && j->reason != NULL &&
	       strcmp(j->reason, "JobHeldAdmin") == 0;
}

int sl_authz_job(const struct sl_peer *p, const struct sl_job *j, enum sl_op op,
		 struct sl_err *err)
{
	/* Who may release at all must also pass the rule of admin holds. */
	if (op == SL_OP_RELEASE && admin_held(j) && check(p, j->uid, j->id, op, err) == 0)
		op = SL_OP_RELEASE_ADMIN;
	return check(p, j->uid, j->id, op, err);
}

int sl_authz_spec(const struct sl_peer *p, const struct sl_jobspec *s, struct sl_err *err)
{
	int r = s->priority != SL_NO_VAL ? check(p, p->uid, 0, SL_OP_PRIORITY, err) : 0;
	/* qsub -p is PBS's job priority, which any user sets (-1024..1023) */
	return r == 0 && s->nice < 0 && !s->pbs ? check(p, p->uid, 0, SL_OP_NICE_NEGATIVE, err) : r;
}

int sl_authz_account(const struct sl_conf *c, const struct sl_peer *p, const char *account,
		     struct sl_err *err)
{
	return sl_conf_account_allowed(c, p->user, account) ? 0
	       : check(p, p->uid, 0, SL_OP_ACCOUNT, err);
}

int sl_authz_hold_admin(const struct sl_peer *p, const struct sl_job *j)
{
	return p->operator ? p->uid != j->uid : admin_held(j);
}
