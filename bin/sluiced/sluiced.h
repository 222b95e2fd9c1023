/* sluiced.h - the daemon's context, shared by its modules. One instance,
 * passed explicitly (no globals beyond signal flags in loop.c). */
#ifndef SL_SLUICED_H
#define SL_SLUICED_H

#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "authz.h"
#include "job.h"

struct sl_conf;
struct sl_loop;
struct sl_store;
struct sl_jobtab;
struct sl_conns;
struct sl_executor;
struct sl_sched;
struct sl_idcache;
struct sl_nodeadmin;
struct sl_partadmin;
struct sl_diag;
struct sl_acts;
struct sl_json; /* json_object, kept opaque here */

struct sluiced {
	char *conf_path;
	struct sl_conf *conf;
	struct sl_loop *loop;
	struct sl_store *store;
	struct sl_jobtab *jobs;
	struct sl_conns *conns;
	const struct sl_executor *executor;
	void *exec;                  /* the executor's state */
	uint64_t *launch; size_t nlaunch, caplaunch; /* start after commit */
	/* scancel N.S for an srun sluiced cannot signal (in a pod): its srun
	 * takes them when it next asks (h_step.c) */
	struct sl_step_sig { uint64_t job; uint32_t step; int sig; } *step_sigs;
	size_t nstep_sigs, capstep_sigs;
	uint64_t *forget; size_t nforget, capforget; /* drop after commit */
	struct sl_acts *acts;        /* requests' actions on running jobs, after the reply (acts.c) */
	struct sl_schedctl *sched;   /* scheduler glue (schedule.c) */
	struct sl_nodefeed *nodefeed; /* TAS nodes from the executor (nodefeed.c) */
	struct sl_nodeadmin *nodeadmin; /* the local node drained or down (nodeadmin.c) */
	struct sl_partadmin *partadmin; /* partitions an operator set DOWN, DRAIN, ... */
	struct sl_idcache *ids;      /* user and group names of peers */
	uid_t self_uid;              /* the daemon's own uid */
	char *self_user;
	char *hostname;              /* short host name: the local "node" */
	int need_schedule;           /* something changed: run a cycle */
	uint64_t store_retry;        /* timer: a turn while the disk is full (lifecycle.c) */
	struct sl_mailer *mail;      /* --mail-type's mails (mail.c); NULL until one is due */
	struct sl_metrics *metrics;  /* /metrics (metrics.c); NULL without `metrics:` */
	struct sl_diag *diag;        /* sdiag's statistics (diag.c) */
	int stopping;
};


#endif
