/* render_int.h - internals shared by the renderer's files, each calling only
 * down: kinds.c (the table, and sl_render() through it) -> render_jobset.c,
 * render_mpijob.c (one kind each) -> render.c (what every kind's object is
 * built from). Not for other callers. */
#ifndef SL_RENDER_INT_H
#define SL_RENDER_INT_H

#include "render.h"

struct json_object;
struct sl_kube_partition;

/* Length of the "-xxxxx" the Job controller appends to a pod's name: names
 * are checked against the 63-character label limit with it counted. */
#define SL_RENDER_POD_SUFFIX 6

struct sl_render_ctx {
	const struct sl_render_in *in;
	const struct sl_jobspec *spec;
	struct sl_jobshape shape;
	const struct sl_kube_partition *part; /* NULL: no partition settings */
	const char *image;
	const char *mpi;                      /* NULL: JobSet */
	const char *gpu_resource;
	char *name;
	int shared_fs;
};

enum sl_render_role {
	SL_ROLE_NODE,     /* JobSet pod: the script on index 0, idle elsewhere */
	SL_ROLE_LAUNCHER, /* MPIJob launcher: the script, small resources */
	SL_ROLE_WORKER,   /* MPIJob worker: sshd, the job's per-node shape */
};

struct sl_render_pod {
	enum sl_render_role role;
	const char *container;  /* container name */
	const char *nodelist;   /* SLURM_JOB_NODELIST (hostlist form) */
	const char *batch_host; /* SLURMD_NODENAME / %N */
};

/* Resolve in into c: image, partition, shape, name... and check what every
 * kind needs. 0 or -SL_E*; free c->name either way. */
int sl_render_ctx_init(const struct sl_render_in *in, struct sl_render_ctx *c,
		       struct sl_err *err);
/* The MPI implementation the job asks for (--mpi, else its partition's), or
 * NULL for none: an MPIJob or a JobSet. */
const char *sl_render_mpi(const struct sl_render_in *in);
/* metadata {name, namespace, labels, annotations} of the object. */
struct json_object *sl_render_metadata(const struct sl_render_ctx *c);
/* A PodTemplateSpec for one role. */
int sl_render_pod_template(const struct sl_render_ctx *c, const struct sl_render_pod *p,
			   struct json_object **out, struct sl_err *err);
/* Kueue TAS: the admission's topology assignment (job->topo_assign) as
 * required node affinity in spec and an annotation in meta
 * (render_tas.c). Nothing without one. */
void sl_render_topology(const struct sl_render_ctx *c, struct json_object *meta,
			struct json_object *spec);
/* The hostlist of the pods <name>-<infix>-<i>, one per node: their
 * hostnames, known before any pod exists. Caller frees. */
char *sl_render_nodelist(const struct sl_render_ctx *c, const char *infix);
/* Wall clock in seconds, or 0 for none. */
int64_t sl_render_deadline(const struct sl_render_ctx *c);
/* A Kubernetes object name rule: DNS-1035 label of at most 63 bytes. */
int sl_render_check_name(const char *what, const char *name, struct sl_err *err);

/* srun's step agent in a pod template (render_agent.c): an init container
 * copying it, the main command wrapped, the job's secret in its env.
 * Nothing when kubernetes.agentImage is unset. */
void sl_render_agent(const struct sl_render_ctx *c, struct json_object *tmpl);

/* The kinds' renderers (kinds.c's rows): validate the JobSet / MPIJob for c
 * and add its "spec" to obj. */
int sl_render_jobset(const struct sl_render_ctx *c, struct json_object *obj, struct sl_err *err);
int sl_render_mpijob(const struct sl_render_ctx *c, struct json_object *obj, struct sl_err *err);

#endif
