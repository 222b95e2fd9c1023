/* workload.h - a Slurm job as a Kueue workload: one pod set "main" whose
 * count is the node count, whose per-pod requests are the job's per-node
 * shape, and whose nodeSelector is what its -C features and GPU type mean
 * in node labels (the config's `features:` map, features.h). The daemon and
 * `sluice render` map jobs the same way through here, so what an admin
 * renders is what sluiced admits. */
#ifndef SL_WORKLOAD_H
#define SL_WORKLOAD_H

#include "conf.h"
#include "job.h"
#include "sched/sched.h"

struct sl_features;

/* Node labels one job may select: a cap, so the mapping never allocates. */
#define SL_JOB_WL_LABELS 32

/* Storage for one mapped workload; wl points into it (no allocation). */
struct sl_job_wl {
	char ns[SL_K8S_NAME_MAX];    /* the account's namespace (sl_conf_k8s_name) */
	char queue[SL_K8S_NAME_MAX]; /* the partition's LocalQueue */
	struct sl_sched_req req[3];
	struct sl_sched_label sel[SL_JOB_WL_LABELS];
	struct sl_sched_podset ps;
	struct sl_sched_wl wl;
	struct sl_sched_topo_req topo; /* --topology / --switches; ps.topology points here */
	struct sl_sched_topo_layer topo_layers[4];
	char topo_buf[256];
};

/* The nodeSelector of spec s: the labels of each --constraint feature and of
 * the GPU type (--gres=gpu:TYPE:N, --gpus=TYPE:N), merged, into out[0..*n).
 * Strings are borrowed from f. Errors (err->msg: hint lines, then Slurm's
 * text, one per '\n', as sbatch prints them):
 *  - a feature f does not define: -SL_EINVAL "Invalid feature specification";
 *  - a GPU type f does not define: -SL_EINVAL naming the features.TYPE key to
 *    add, then "Invalid generic resource (gres) specification";
 *  - two of them setting one label key to different values, or more than
 *    cap labels: -SL_EINVAL, then "Invalid feature specification".
 * f NULL is an empty map: any feature or GPU type is then an error. */
int sl_job_node_selector(const struct sl_jobspec *s, const struct sl_features *f,
			 struct sl_sched_label *out, size_t cap, size_t *n,
			 struct sl_err *err);

/* Fill b from j, with f (the config's features, may be NULL) resolving the
 * node selector. The workload's namespace and queue are the Kubernetes
 * names of the job's account and partition (sl_conf_k8s_name; a name that
 * maps to none is kept as is, and no queue has it). Strings are borrowed from j and f: keep both alive while b
 * is used. FIFO order is the job id, which a requeued job keeps (Kueue keeps
 * the original creation time). A shape that does not fit its counts
 * (sl_jobspec_shape_check) or a node range it cannot express is an error
 * with b unusable; on a node-selector error (as sl_job_node_selector) b is
 * still filled, without a node selector. */
int sl_job_workload(const struct sl_job *j, const struct sl_features *f,
		    struct sl_job_wl *b, struct sl_err *err);

/* Slurm refuses a feature no node has. Kueue judges a flavor only on the
 * keys it labels itself, so a label key that no flavor of the job's
 * ClusterQueue labels would restrict nothing: -SL_EINVAL naming the key,
 * then "Invalid feature specification". An unknown queue is not this
 * check's business (0; sl_sched_check says so). */
struct sl_kueue;
int sl_job_selector_known(const struct sl_kueue *k, const struct sl_job_wl *b,
			  struct sl_err *err);

#endif
