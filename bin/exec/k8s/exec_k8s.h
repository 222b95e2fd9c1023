/* exec_k8s.h - the Kubernetes executor's shared state (not an API: only
 * exec_k8s*.c include it). Split by concern into layers; each file calls
 * only the ones below it:
 *   exec_k8s.c         ops table: start, adopt, cancel, forget, ...
 *   exec_k8s_watch.c   objects: create once, adopt; watches -> job state,
 *                      reconcile after (re)lists, the pods-ready timeout
 *   exec_k8s_logs.c    the end: pod log -> -o/-e files, delete, report
 *   exec_k8s_suspend.c scontrol suspend/resume: spec.suspend, the limit's clock
 *   exec_k8s_nodes.c   the cluster's nodes and their pods, for sinfo
 *   exec_k8s_job.c     the job table, a job's call and report; deletes
 *                      (scancel, preemption, eviction, end of job)
 *
 * Writes per job: one create, one delete. Nothing polls: the state comes
 * from label-selected watches, one per kind of object (k8s/kinds.h) and one
 * for pods. */
#ifndef SL_EXEC_K8S_H
#define SL_EXEC_K8S_H

#include <stdint.h>
#include <stddef.h>
#include "exec.h"
#include "evq.h"
#include "k8s/http.h"
#include "k8s/kclient.h"
#include "k8s/kinds.h"
#include "k8s/render.h"
#include "k8s/watch.h"

struct json_object;

enum kj_phase {
	KJ_CREATING,  /* POST (or the 409 GET) in flight */
	KJ_ADOPTING,  /* after a restart: waiting for the first lists */
	KJ_LIVE,      /* the object exists; following it */
	KJ_ENDING,    /* delete in flight (cancel, preemption, eviction) */
	KJ_FINISHING, /* over: reading a child Job or the log before reporting */
	KJ_DONE,      /* reported; waiting for forget() */
};

struct kjob {
	struct sl_exec_k8s *x;
	uint64_t id;
	int attempt;
	char *ns, *name;
	const struct sl_k8s_kind *kind;
	char *body;                   /* the rendered object, until it exists */
	enum kj_phase phase;
	struct sl_job *job;           /* a copy: spec for the log files, re-create */
	struct json_object *obj;      /* latest object seen, or NULL */
	struct json_object **pods;    /* pods seen for it (kept after DELETED) */
	size_t npods, cappods;
	struct sl_k8s_call *call;     /* the one create/get/list/delete in flight:
				       * set only through sl_k8sexec_job_call() */
	struct sl_k8s_req *logreq;    /* the pod log read in flight */
	uint64_t ready_timer;
	int ready;                    /* on_ready delivered */
	int64_t start;                /* admission (start()) time, wall seconds */
	enum sl_jobstate end_as;      /* KJ_ENDING: CANCELLED / PREEMPTED / PENDING */
	int pods_listed;              /* the end needed a pod LIST (watch lag) */
	int want_end;                 /* cancel/preempt while the create is in flight */
	char *why;                    /* eviction message */
	char *log_pod;                /* the pod that ran the script */
	struct sl_exec_result res;    /* KJ_FINISHING: the result being completed */
	int suspended;                /* scontrol suspend: spec.suspend is true */
	int64_t ran;                  /* seconds run before the last resume */
	int64_t run_from;             /* the last resume (or the start), wall seconds */
	uint64_t limit_timer;         /* the time limit left after a resume */
	struct sl_k8s_call *patch;    /* the suspend/resume PATCH in flight */
	struct kjob *next;
};

struct kwatch {
	struct sl_exec_k8s *x;
	const struct sl_k8s_kind *kind;
	struct sl_k8s_watch *w;
};

struct sl_exec_k8s {
	struct sl_loop *loop;
	struct sl_kubeconfig *kc;
	struct sl_k8s_http *http;
	struct kwatch objs[SL_K8S_NKINDS]; /* one watch per kind of object */
	struct sl_k8s_watch *w_pods;
	unsigned listed;              /* bit i: objs[i] listed; KJ_LISTED_PODS */
	struct sl_conf *const *confp;
	char *cluster;
	int kill_wait;
	struct sl_evq *evq;           /* events for the daemon */
	struct kjob *jobs;
	struct kfire *fires;          /* fire-and-forget deletes in flight */
	struct knodes *knodes;        /* nodes and their pods, for sinfo */
};

#define KJ_LISTED_PODS (1u << SL_K8S_NKINDS)

/* exec_k8s_watch.c */
int sl_k8sexec_watch_start(struct sl_exec_k8s *x, struct sl_err *err);
void sl_k8sexec_watch_stop(struct sl_exec_k8s *x);
/* Render kj's object into kj->body, once (ops start() refuses a job that
 * cannot be rendered; create reuses the body). */
int sl_k8sexec_render(struct kjob *kj, struct sl_err *err);
/* Create kj's object (rendering it if not yet), or adopt it on a 409. */
void sl_k8sexec_create(struct kjob *kj);
/* exec_k8s_job.c: the job's Secret for srun's step agent, once obj (its
 * JobSet, as created) exists; nothing without kubernetes.agentImage. */
void sl_k8sexec_secret(struct kjob *kj, struct json_object *obj);

/* exec_k8s_logs.c */
/* The job is over (kj->res set): fetch its log when there is no shared
 * filesystem, write the -o/-e files as the user, delete, then report. */
void sl_k8sexec_finish(struct kjob *kj);

/* exec_k8s_nodes.c */
void sl_k8sexec_nodes_start(struct sl_exec_k8s *x);
void sl_k8sexec_nodes_stop(struct sl_exec_k8s *x);
size_t sl_k8sexec_nodes(struct sl_exec_k8s *x, const struct sl_exec_node **out);
/* exec_k8s_cordon.c: cordon node with reason (kept as the annotations
 * below, with user), or uncordon it (reason NULL). */
#define SL_K8S_ANN_DRAIN_REASON "sluice.io/drain-reason"
#define SL_K8S_ANN_DRAIN_USER "sluice.io/drain-user"
int sl_k8sexec_node_drain(struct sl_exec_k8s *x, const char *node, const char *reason,
			  const char *user, struct sl_err *err);

/* exec_k8s_suspend.c */
int sl_k8sexec_suspend(struct kjob *kj, int resume, struct sl_err *err);
/* After a restart: the clock of a job that was suspended and resumed. */
void sl_k8sexec_suspend_adopt(struct kjob *kj, const struct sl_job *job);
/* After a restart, its object found (kj->obj): set its suspend field as
 * the record says, when it does not (a suspend acknowledged whose PATCH
 * never went out, a resume whose PATCH never landed). */
void sl_k8sexec_suspend_found(struct kjob *kj);

/* exec_k8s_job.c */
struct kjob *sl_k8sexec_job_find(struct sl_exec_k8s *x, uint64_t id);
/* Make c (may be NULL) the job's one call in flight, cancelling the one it
 * replaces. Why: every call carries kj as its argument, and kjob_free() can
 * cancel only what kj->call names; a call overwritten instead of cancelled
 * answered after forget() into freed memory (the SIGSEGV after
 * "job N: OUT_OF_MEMORY"). Callbacks clear kj->call before anything else. */
void sl_k8sexec_job_call(struct kjob *kj, struct sl_k8s_call *c);
void sl_k8sexec_job_report(struct kjob *kj, const struct sl_exec_result *res);
/* Delete the job's object, then report it ended as `as` (CANCELLED,
 * PREEMPTED, or PENDING for an eviction with `why`). */
void sl_k8sexec_end(struct kjob *kj, enum sl_jobstate as, const char *why);
/* Delete an object (its item path), fire and forget (end of job, reconcile). */
void sl_k8sexec_delete(struct sl_exec_k8s *x, const char *item, int64_t grace);
/* Drop the fire-and-forget deletes still in flight (shutdown). */
void sl_k8sexec_delete_drop(struct sl_exec_k8s *x);

#endif
