/* status.h - what a JobSet or MPIJob and its pods mean for the Slurm job
 * they run: still starting (CONFIGURING), all pods ready (RUNNING, with the
 * pods' node names), or over (COMPLETED, FAILED + exit code, OUT_OF_MEMORY,
 * TIMEOUT, NODE_FAIL). Pure: JSON in, a record out, no I/O and no clock, so
 * the daemon's decisions can be checked against captured objects. */
#ifndef SL_K8S_STATUS_H
#define SL_K8S_STATUS_H

#include <stddef.h>
#include "jobstate.h"

struct json_object;
struct sl_k8s_kind;

enum sl_k8s_phase {
	SL_KST_WAITING = 0, /* pods not all ready: CONFIGURING */
	SL_KST_READY,       /* every expected pod ready (or already ended): RUNNING */
	SL_KST_FINISHED,    /* a terminal condition: state/exit code are final */
};

struct sl_k8s_status {
	enum sl_k8s_phase phase;
	int nready, nexpected;
	enum sl_jobstate state;  /* with SL_KST_FINISHED */
	int exit_code, exit_signal;
	char reason[32];         /* Slurm reason: None, NonZeroExitCode, TimeLimit, ... */
	char message[256];       /* the Kubernetes condition/pod message, "" if none */
	char *nodelist;          /* hostlist of the pods' nodes; NULL until known */
	char *log_pod;           /* the pod running the script (index 0 / launcher) */
	char *failed_job;        /* JobSet failed: child Job to read for DeadlineExceeded */
	int explained;           /* FINISHED: a pod's terminated state (or success)
				  * gave the exit; 0: the pods seen so far do not
				  * say (the pod watch may lag the object's) */
};

/* Evaluate obj, an object of kind k (sl_k8s_kind_status() picks k from obj),
 * and the pods seen for it (others are ignored: matched by k->owner_label).
 * Borrowed inputs. Clear out with sl_k8s_status_clear(). */
void sl_k8s_status_eval(const struct sl_k8s_kind *k, struct json_object *obj,
			struct json_object *const *pods, size_t npods, struct sl_k8s_status *out);
void sl_k8s_status_clear(struct sl_k8s_status *s);

/* The kinds' rows (kinds.c): pods a JobSet / MPIJob runs when all run, and
 * a pod's place in the order (lowest first: the pod that runs the script). */
int sl_k8s_status_jobset_pods(struct json_object *obj);
long sl_k8s_status_jobset_rank(struct json_object *pod);
int sl_k8s_status_mpijob_pods(struct json_object *obj);
long sl_k8s_status_mpijob_rank(struct json_object *pod);

/* 1 when a batch/v1 Job failed because of its activeDeadlineSeconds. */
int sl_k8s_status_job_deadline(struct json_object *job);

/* metadata.labels[key] or metadata.name etc.: borrowed strings or NULL. */
const char *sl_k8s_obj_label(struct json_object *obj, const char *key);
const char *sl_k8s_obj_meta(struct json_object *obj, const char *field);

#endif
