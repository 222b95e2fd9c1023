/* render.h - an admitted job -> the Kubernetes object that runs it: a JobSet
 * (jobset.x-k8s.io/v1alpha2) or, for --mpi / a partition's `mpi`, an MPIJob
 * (kubeflow.org/v2beta1). Pure: no I/O but the group lookup, no clock, so
 * the daemon and `sluice render` print the same bytes for the same job.
 *
 * What every object gets (both kinds):
 *  - name sl-<jobid>, sl-<jobid>-<attempt> after a requeue: deterministic, so
 *    a create retried after a crash gets 409 and is adopted;
 *  - labels sluice.io/{job-id,user,partition,cluster}, never Kueue's
 *    queue-name (Sluice is the admitter), in the account's namespace;
 *  - pods with requests = limits from the job's per-node shape, the admitted
 *    flavors' nodeLabels as nodeSelector and their tolerations plus one
 *    toleration per nodeTaint, the submitter's uid/gid/groups, workingDir -D,
 *    the exported environment plus the SLURM_* variables;
 *  - the batch script inside the object: an annotation projected by the
 *    downward API to /sluice/slurm_script (0755), so no ConfigMap can be orphaned.
 *
 * JobSet: one replicatedJob "node", parallelism = completions = nodes,
 * Indexed. The script runs on index 0, as in Slurm; the other indices idle
 * until the Job's successPolicy (succeededIndexes "0", Kubernetes >= 1.31)
 * ends them when index 0 succeeds. Their cost: they hold their node, as
 * Slurm's allocation does, and they stop on SIGTERM at once.
 *
 * Environment: variables whose names Kubernetes would refuse (exported bash
 * functions "BASH_FUNC_x%%") and host-specific ones that would break the
 * image (PATH, LD_LIBRARY_PATH, HOSTNAME, ...) are left out; "$(" and "$$"
 * are escaped so that Kubernetes' $(VAR) expansion leaves values as given.
 *
 * stdout/stderr: with the partition's shared volumes, the launcher writes the
 * -o/-e files itself (paths expanded at render time); without, they go to the
 * pod log and sluiced writes the files when the job ends. An -e apart from -o
 * then travels in the same log after a boundary line (podlog.h). */
#ifndef SL_RENDER_H
#define SL_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "err.h"
#include "job.h"

struct sl_features;
struct sl_k8s_kind;
struct sl_kq_flavor;
struct sl_kubeconf;

/* One resource of the admission and the flavor that covers it (the engine's
 * struct sl_sched_flavor with the flavor looked up in the Kueue model). */
struct sl_render_flavor {
	const char *resource;            /* "cpu", "memory", "nvidia.com/gpu", ... */
	const struct sl_kq_flavor *flavor;
};

struct sl_render_in {
	const struct sl_job *job;        /* id, uid, gid, user, resolved spec */
	size_t nflavors;
	const struct sl_render_flavor *flavors;
	const struct sl_kubeconf *kube;  /* sl_conf_kubernetes(); NULL: defaults */
	/* sl_conf_features(): the job's -C features and GPU type become node
	 * labels in its pods' nodeSelector; NULL: no such labels. */
	const struct sl_features *features;
	const char *cluster;             /* sl_conf_cluster_name() */
	const char *pbs_server;          /* sl_conf_pbs_server(); NULL: this host's name */
	int attempt;                     /* 0 first run; name suffix when > 0 */
	int kill_wait;                   /* pod terminationGracePeriodSeconds */
	/* The submitter's groups. NULL: getgrouplist(job->user, job->gid). */
	const gid_t *groups;
	size_t ngroups;
};

/* The kind of object sl_render() makes for in: its row in kinds.h (an
 * MPIJob for --mpi or the partition's `mpi`, else a JobSet). No rendering. */
const struct sl_k8s_kind *sl_render_kind(const struct sl_render_in *in);

/* srun's step agent (kubernetes.agentImage): its port in the pods and the
 * key of the job's Secret (named as the object) that holds its secret. */
#define SL_RENDER_AGENT_PORT 6818
#define SL_RENDER_SECRET_KEY "secret"

/* "sl-<id>" or "sl-<id>-<attempt>". Caller frees. */
char *sl_render_name(uint64_t id, int attempt);

/* 1 when the partition mounts shared volumes (the pod writes -o/-e itself),
 * 0 when sluiced must copy the pod log into the -o/-e files. */
int sl_render_shared_fs(const struct sl_kubeconf *kube, const char *partition);

/* Can this job's output be kept as asked? sluiced calls it at submit,
 * sl_render() before rendering, so a refusal reaches sbatch, not a pending
 * job. Without a shared filesystem, -i is refused (the pod cannot read the
 * file); -e apart from -o is kept, in the pod log after a boundary line
 * (podlog.h). 0, or -SL_E* with the reason. */
int sl_render_check(const struct sl_kubeconf *kube, const struct sl_jobspec *s,
		    struct sl_err *err);

/* Render, validate (CRD schema rules this code can break, JobSet webhook and
 * mpi-operator rules, size limits) and serialize once (kinds.c): *json is the
 * body sluiced POSTs and `sluice render` prints, pretty, keys in a fixed order,
 * ending in '\n'; caller frees. -SL_EINVAL/ETOOBIG/ECONFIG with field and reason. */
int sl_render(const struct sl_render_in *in, char **json, struct sl_err *err);

#endif
