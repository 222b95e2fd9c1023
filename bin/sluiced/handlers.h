/* handlers.h - request handlers (h_*.c). */
#ifndef SL_HANDLERS_H
#define SL_HANDLERS_H

#include <json-c/json.h>
#include "sluiced.h"

typedef int (*sl_handler_fn)(struct sluiced *d, const struct sl_peer *p, json_object *req,
			     json_object *rep, struct sl_err *err);

struct sl_buf;
/* Handlers called once per job read the request's text themselves. */
typedef int (*sl_text_handler_fn)(struct sluiced *d, const struct sl_peer *p, const char *body,
				  size_t len, struct sl_buf *rep, struct sl_err *err);

int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err);
/* Handlers whose reply can be large write its text themselves. */
typedef int (*sl_raw_handler_fn)(struct sluiced *d, const struct sl_peer *p, json_object *req,
				 struct sl_buf *rep, struct sl_err *err);

int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err);
int sl_h_cancel(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err);
/* 1 when id is an array's id (array.h): its tasks are the run of id. */
int sl_h_is_array(struct sluiced *d, uint64_t id);
/* What a request on one job names (PROTOCOL.md): 1 for the whole array
 * id, which an array's last task has too, as in Slurm; else 0 with *j the
 * job of that id, or with the request's "task" array id's task of that
 * index (NULL: none). */
int sl_h_target(struct sluiced *d, json_object *req, uint64_t id, struct sl_job **j);
/* A pending array task acted on by its own id leaves its meta record, as
 * with Slurm's job_array_split(); the action's save keeps the mark. */
void sl_h_split_task(struct sl_job *j);
/* A request on array N: fn on each of its tasks not yet ended that p may
 * act on (authz.c's rule), as Slurm applies it to the array's records. A
 * task it does not apply to in its state (-SL_ESTATE) is passed over when
 * another took it; else the first other refusal is the answer, and with
 * no task left, "Job has already finished".
 * With each (the requests' "each", PROTOCOL.md), fn also runs on the
 * ended tasks, for their own answers only (under update's, hold's and
 * release's rules they answer "Job has already finished" without it,
 * whoever asks, as slurmctld's _update_job), and every task's answer goes
 * into that JSON array ("ended" marks those), as slurmctld's
 * job_array_resp_msg; tasks cancelled out of the pending meta record are
 * gone, as in Slurm, and do not answer. The return is the array's answer
 * either way. */
typedef int (*sl_h_task_fn)(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
			    void *arg, struct sl_err *err);
int sl_h_array_each(struct sluiced *d, const struct sl_peer *p, uint64_t id, enum sl_op rule,
		    sl_h_task_fn fn, void *arg, json_object *each, struct sl_err *err);
int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err);
/* qhold/qrls: PBS's holds by kind (h_hold.c). */
int sl_h_hold(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err);
/* sstat: a running job's use so far, from its supervisor (h_stat.c). */
int sl_h_stat(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err);
/* sinfo: partitions, their quota and the local node (h_info.c). */
int sl_h_partitions(struct sluiced *d, const struct sl_peer *p, json_object *req,
		    json_object *rep, struct sl_err *err);
/* When sluiced started (unix seconds), from the machine's boot time. */
int64_t sl_daemon_start_time(int64_t boot);

/* scontrol update job (h_update.c). sl_update_job applies the fields of
 * `set` (PROTOCOL.md, UPDATE) to j as p, all or none; sl_update_priority
 * sets its priority as an operator would (scontrol top). */
int sl_h_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err);
int sl_update_job(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		  json_object *set, struct sl_err *err);
int sl_update_priority(struct sluiced *d, struct sl_job *j, int64_t priority,
		       struct sl_err *err);

/* scontrol ping, reconfigure, show config (h_admin.c). */
int sl_h_ping(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err);
/* Read the config file again and apply it (SIGHUP, scontrol reconfigure;
 * main.c): 0, or -SL_E* with why, the old configuration kept. */
int sl_daemon_reload(struct sluiced *d, struct sl_err *err);
int sl_h_reconfigure(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err);
/* sdiag (diag.c's figures), and sdiag -r for operators. */
int sl_h_diag(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
	      struct sl_err *err);
int sl_h_config(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err);

/* sshare: associations, their raw shares and usage (h_share.c). */
int sl_h_shares(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err);
/* Its config half, for sacctmgr (h_share_conf.c): added to rep. */
void sl_h_shares_conf(struct sluiced *d, json_object *rep);
/* Job steps (h_step.c): srun records them, sacct and squeue -s read
 * them, scancel N.S signals one. */
int sl_h_step_create(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err);
int sl_h_step_end(struct sluiced *d, const struct sl_peer *p, json_object *req,
		  json_object *rep, struct sl_err *err);
int sl_h_steps(struct sluiced *d, const struct sl_peer *p, json_object *req,
	       json_object *rep, struct sl_err *err);
/* The signals still queued for job's steps, dropped: its run ended (a pod
 * that died never reports its steps' ends). */
void sl_step_signals_forget(struct sluiced *d, uint64_t job);
/* Signal sig to every running step of job j, as scancel --signal without
 * -b or --full does (h_step.c); steps that end meanwhile are passed over. */
int sl_step_signal_all(struct sluiced *d, const struct sl_peer *p, const struct sl_job *j,
		       int sig, struct sl_err *err);
int sl_h_step_signal(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err);

#endif
