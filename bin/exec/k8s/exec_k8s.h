/* exec_k8s.h - the Kubernetes executor's shared state (not an API: only
 * exec_k8s*.c include it). Split by concern:
 *   exec_k8s.c         ops table, job table, events, create / adopt (409)
 *   exec_k8s_watch.c   watches -> job state, reconcile after (re)lists,
 *                      the pods-ready (gang) timeout
 *   exec_k8s_delete.c  deletes: scancel, preemption, eviction, end of job
 *   exec_k8s_logs.c    pod log -> the job's -o/-e files without a shared fs
 *
 * Writes per job: one create, one delete. Nothing polls: the state comes
 * from three label-selected watches (JobSets, MPIJobs, pods). */
#ifndef SL_EXEC_K8S_H
#define SL_EXEC_K8S_H

#include <stdint.h>
#include <stddef.h>
#include "exec.h"
#include "evq.h"
#include "k8s/http.h"
#include "k8s/kclient.h"
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
	char *ns, *name, *collection; /* collection: .../namespaces/NS/jobsets */
	enum sl_render_kind kind;
	enum kj_phase phase;
	struct sl_job *job;           /* a copy: spec for the log files, re-create */
	struct json_object *obj;      /* latest object seen, or NULL */
	struct json_object **pods;    /* pods seen for it (kept after DELETED) */
	size_t npods, cappods;
	struct sl_k8s_call *call;        /* the one create/get/list/delete in flight:
				       * set only through sl_k8sexec_job_call() */
	struct sl_k8s_req *logreq;       /* the pod log read in flight */
	uint64_t ready_timer;
	int ready;                    /* on_ready delivered */
	int64_t start;                /* admission (start()) time, wall seconds */
	enum sl_jobstate end_as;      /* KJ_ENDING: CANCELLED / PREEMPTED / PENDING */
	int pods_listed;              /* the end needed a pod LIST (watch lag) */
	int want_end;                 /* cancel/preempt while the create is in flight */
	char *why;                    /* eviction message */
	char *log_pod;                /* the pod that ran the script */
	struct sl_exec_result res;    /* KJ_FINISHING: the result being completed */
	struct kjob *next;
};

struct sl_exec_k8s {
	struct sl_loop *loop;
	struct sl_kubeconfig *kc;
	struct sl_k8s_http *http;
	struct sl_k8s_watch *w_js, *w_mpi, *w_pods;
	int listed;                   /* bit 1 jobsets, 2 mpijobs, 4 pods */
	struct sl_conf *const *confp;
	char *cluster;
	int kill_wait;
	struct sl_evq *evq;      /* events for the daemon */
	struct kjob *jobs;
	struct kfire *fires;          /* fire-and-forget deletes in flight */
};

#define KJ_LISTED_ALL 7

/* exec_k8s.c */
struct kjob *sl_k8sexec_job_find(struct sl_exec_k8s *x, uint64_t id);
void sl_k8sexec_job_report(struct kjob *kj, const struct sl_exec_result *res);
void sl_k8sexec_job_ready(struct kjob *kj, const char *nodelist);
void sl_k8sexec_job_create(struct kjob *kj);
/* Make c (may be NULL) the job's one call in flight, cancelling the one it
 * replaces. Why: every call carries kj as its argument, and kjob_free() can
 * cancel only what kj->call names; a call overwritten instead of cancelled
 * answered after forget() into freed memory (the SIGSEGV after
 * "job N: OUT_OF_MEMORY"). Callbacks clear kj->call before anything else. */
void sl_k8sexec_job_call(struct kjob *kj, struct sl_k8s_call *c);
/* Take obj (a reference is taken) as the job's current object. */
void sl_k8sexec_job_set_obj(struct kjob *kj, struct json_object *obj);

/* exec_k8s_watch.c */
int sl_k8sexec_watch_start(struct sl_exec_k8s *x, struct sl_err *err);
void sl_k8sexec_watch_stop(struct sl_exec_k8s *x);
/* Re-evaluate the job's state from its object and pods. */
void sl_k8sexec_job_eval(struct kjob *kj);
void sl_k8sexec_ready_arm(struct kjob *kj);

/* exec_k8s_delete.c */
/* Delete the job's object, then report it ended as `as` (CANCELLED,
 * PREEMPTED, or PENDING for an eviction with `why`). */
void sl_k8sexec_job_end(struct kjob *kj, enum sl_jobstate as, const char *why);
/* Delete an object by name, fire and forget (end of job, reconcile). */
void sl_k8sexec_delete_obj(struct sl_exec_k8s *x, const char *collection, const char *name,
		       int64_t grace);
char *sl_k8sexec_collection(enum sl_render_kind kind, const char *ns);
/* Drop the fire-and-forget deletes still in flight (shutdown). */
void sl_k8sexec_delete_drop(struct sl_exec_k8s *x);

/* exec_k8s_logs.c */
/* The job is over (kj->res set): fetch its log when there is no shared
 * filesystem, write the -o/-e files as the user, then report. */
void sl_k8sexec_job_finish(struct kjob *kj);

#endif
