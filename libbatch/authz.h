/* authz.h - who may do what, in one place. A request's rule is its row's
 * privilege in sluiced's dispatch table, checked before the handler runs;
 * what depends on a job or a field, the handlers and the submit policy ask
 * here. Denials use Slurm's words. */
#ifndef SL_AUTHZ_H
#define SL_AUTHZ_H

#include <sys/types.h>
#include "conf.h"
#include "job.h"

/* Who asks: uid and gid from the kernel (SO_PEERCRED) or munge, never from
 * the request; the names and operator bit as the daemon looked them up. */
struct sl_peer {
	uid_t uid;
	gid_t gid;
	pid_t pid;
	char user[64];
	char group[64];              /* filled where needed (submit) */
	int operator;                /* root, the daemon user, or conf operators */
};

enum sl_priv {
	SL_PRIV_ANY,      /* any user */
	SL_PRIV_RUNAS,    /* a user sluiced can run jobs as: all under root, else its own */
	SL_PRIV_OWNER,    /* anyone; per job, its owner or an operator (sl_authz_job) */
	SL_PRIV_OPERATOR, /* root, sluiced's own user, the config's operators */
};

/* What is done to a job or asked for in a spec; each has one rule. RELEASE_ADMIN:
 * of a hold an operator set; ACCOUNT: charge one not in the user's list;
 * TOP: scontrol top (Slurm without enable_user_top); SUSPEND: suspend and
 * resume; UPDATE: scontrol update of a job, whose fields for operators are
 * UPDATE_PRIORITY (Priority=), UPDATE_NICE (a negative Nice=) and
 * UPDATE_LIMIT (a longer TimeLimit= once the job runs); SEE_PRIVATE: read a
 * job's environment, script and --export values (a listing leaves them out
 * for anyone else, sl_job_listing_append_view); HOLD_OPERATOR: PBS's operator
 * hold, set or released (qhold/qrls -h o). */
enum sl_op {
	SL_OP_CANCEL, SL_OP_SIGNAL, SL_OP_HOLD, SL_OP_RELEASE, SL_OP_REQUEUE, SL_OP_RELEASE_ADMIN,
	SL_OP_PRIORITY, SL_OP_NICE_NEGATIVE, SL_OP_ACCOUNT, SL_OP_TOP, SL_OP_SUSPEND,
	SL_OP_UPDATE, SL_OP_UPDATE_PRIORITY, SL_OP_UPDATE_NICE, SL_OP_UPDATE_LIMIT,
	SL_OP_SEE_PRIVATE, SL_OP_HOLD_OPERATOR, SL_OP_COUNT
};

/* Each returns 0, or -SL_EPERM (-SL_EACCOUNT) with err set. SL_PRIV_OWNER
 * passes here: what someone owns is known per job. */
int sl_authz_request(uid_t self_uid, const char *self_user, const struct sl_peer *p,
		     enum sl_priv priv, struct sl_err *err);
/* Releasing an admin hold is checked as SL_OP_RELEASE_ADMIN too. */
int sl_authz_job(const struct sl_peer *p, const struct sl_job *j, enum sl_op op,
		 struct sl_err *err);
/* --priority and a negative --nice; an account asked for (not defaulted). */
int sl_authz_spec(const struct sl_peer *p, const struct sl_jobspec *s, struct sl_err *err);
int sl_authz_account(const struct sl_conf *c, const struct sl_peer *p, const char *account,
		     struct sl_err *err);
/* Does p's hold on j make it JobHeldAdmin? An operator's on another's job
 * does, and a user's on a job an operator held leaves it so (Slurm). */
int sl_authz_hold_admin(const struct sl_peer *p, const struct sl_job *j);

#endif
