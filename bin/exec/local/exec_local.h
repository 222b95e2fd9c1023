/* exec_local.h - the local executor: each job runs under its own
 * sluice-stepd supervisor on this host (see stepd.c, jobdir.h).
 * sluiced reaches it through sl_executor_local (exec.h); the functions are
 * public for tests and for tools that prepare a job directory by hand. */
#ifndef SL_EXEC_LOCAL_H
#define SL_EXEC_LOCAL_H

#include <stdint.h>
#include "exec.h"
#include "jobdir.h"

struct sl_exec_local;

/* Creates <state_dir>/jobs (0711). NULL with err set on failure. */
struct sl_exec_local *sl_exec_local_new(struct sl_loop *loop, const struct sl_exec_conf *conf,
					const struct sl_exec_events *ev, void *arg,
					struct sl_err *err);
/* Stops watching; the supervisors and their jobs keep running. */
void sl_exec_local_free(struct sl_exec_local *x);

/* Write <jobs>/<id>/spec.json, lock, spawn sluice-stepd, watch it.
 * on_started follows from the loop. -SL_EEXIST if its supervisor lives,
 * -SL_EPERM for another user's job when sluiced is not root. */
int sl_exec_local_start(struct sl_exec_local *x, const struct sl_job *job, struct sl_err *err);
/* SIGTERM / SIGUSR2 / a forwarded signal to the job's supervisor.
 * -SL_ENOENT when the job is not running here. */
int sl_exec_local_cancel(struct sl_exec_local *x, uint64_t id, struct sl_err *err);
int sl_exec_local_preempt(struct sl_exec_local *x, uint64_t id, struct sl_err *err);
/* scancel -s SIG -b: to the batch script alone; with SL_SIGNAL_GROUP
 * or-ed into signo (--full), to its process group, through the supervisor. */
int sl_exec_local_signal(struct sl_exec_local *x, uint64_t id, int signo, struct sl_err *err);
/* scontrol requeue: ends the job as preempt does, in a requeue's words. */
int sl_exec_local_requeue(struct sl_exec_local *x, uint64_t id, struct sl_err *err);
/* The node went down under the job: ends it NODE_FAIL, in slurmstepd's
 * words for a node failure. */
int sl_exec_local_node_fail(struct sl_exec_local *x, uint64_t id, struct sl_err *err);
/* scontrol update TimeLimit= or qalter -l walltime=: the running job's
 * limit, in seconds from its start (0: none); its supervisor keeps the
 * clock. */
int sl_exec_local_time_limit(struct sl_exec_local *x, uint64_t id, int64_t secs,
			     struct sl_err *err);
/* Follow a job the store says is running (after a daemon restart):
 *   lock held          -> its supervisor lives: watch it;
 *   lock free + result -> it ended while we were away: that result;
 *   free + `started`   -> the supervisor died mid-run: NODE_FAIL (and
 *                         whatever is left of the job's process group is killed);
 *   free, not started  -> it never ran: state PENDING (requeue).
 * The outcome arrives through on_finished from the loop. */
int sl_exec_local_adopt(struct sl_exec_local *x, const struct sl_job *job, struct sl_err *err);
/* The end is committed: remove the job directory. Unknown ids are fine. */
void sl_exec_local_forget(struct sl_exec_local *x, uint64_t id);

/* Local "nodes": one node is the short host name; N > 1 nodes are
 * "<host>-0" ... "<host>-<N-1>", written "<host>-[0-<N-1>]", and the script
 * runs on "<host>-0" (the batch host, as Slurm runs it on the first node).
 * Returns the hostlist; *batch_host gets the first node. Caller frees both. */
char *sl_exec_local_nodelist(const char *host, int nodes, char **batch_host);

/* At submit (exec.h's check): -w and -x name nodes, and the local
 * executor's only node is this host (the short name, or "<host>-I" of a
 * multi-node job): another name in -w is Slurm's "Invalid node name
 * specified"; excluding this host leaves nowhere to run: "Requested node
 * configuration is not available". Other names in -x change nothing. */
int sl_exec_local_check(const struct sl_conf *conf, const struct sl_jobspec *spec,
			struct sl_err *err);

/* Everything sluice-stepd needs, from the job record: identity (the
 * account, through logins), expanded output paths, the final environment.
 * conf gives cluster and kill_wait; host is the short host name. */
struct sl_logincache;
int sl_exec_local_prepare(const struct sl_exec_conf *conf, struct sl_logincache *logins,
			  const char *host, const struct sl_job *job, struct sl_launch *out,
			  struct sl_err *err);

#endif
