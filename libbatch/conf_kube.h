/* conf_kube.h - the `kubernetes:` section of the SluiceConfiguration: how
 * sluiced reaches the API server and what every partition's pods look like.
 * The spellings are the contract (issue 4):
 *
 *   kubernetes:
 *     kubeconfig: PATH          # default: $KUBECONFIG, then ~/.kube/config
 *     context: NAME             # default: the kubeconfig's current context
 *     inCluster: BOOL           # service-account token + CA instead
 *     qps: N                    # client-side rate limit (default 50)
 *     burst: N                  # (default 100)
 *     image: IMAGE              # default image of every partition
 *     agentImage: IMAGE         # holds /usr/local/bin/sluice-agent: srun's step
 *                               # agent in every JobSet pod (unset: no srun there)
 *     partitions:
 *       NAME: {image, imagePullPolicy, serviceAccountName, priorityClassName,
 *              mpi, volumes, volumeMounts}
 *
 * A plain validated record (like kueue.h): the renderer and the REST client
 * read it; conf.c owns it. volumes/volumeMounts stay in Kubernetes' own
 * syntax: they are kept as JSON text so that no JSON library type leaks into
 * this header. */
#ifndef SL_CONF_KUBE_H
#define SL_CONF_KUBE_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "err.h"

struct sl_ynode;

struct sl_kube_partition {
	char *name;               /* the LocalQueue (partition) name */
	char *image;              /* NULL: kubernetes.image */
	char *image_pull_policy;  /* Always | IfNotPresent | Never; NULL: unset */
	char *service_account;    /* serviceAccountName; NULL: namespace default */
	char *priority_class;     /* priorityClassName; NULL: none */
	char *mpi;                /* openmpi | intel | mpich: jobs become MPIJobs */
	char *volumes_json;       /* JSON array of core/v1 Volume; NULL: none */
	char *volume_mounts_json; /* JSON array of core/v1 VolumeMount; NULL: none */
};

struct sl_kubeconf {
	char *kubeconfig;         /* absolute; NULL: $KUBECONFIG then ~/.kube/config */
	char *context;            /* NULL: the kubeconfig's current-context */
	int in_cluster;           /* 1: service account, KUBERNETES_SERVICE_HOST */
	int64_t qps, burst;
	char *image;              /* NULL: every partition or job must name one */
	char *agent_image;        /* NULL: no step agent, srun refused in the pods */
	size_t npartitions;
	struct sl_kube_partition *partitions;
};

/* Parse the value of the `kubernetes` key (n). file/line name the key in
 * errors ("FILE:LINE: SluiceConfiguration: kubernetes.qps: ..."); relative
 * paths resolve from dir (absolute). Caller frees with sl_kubeconf_free(). */
int sl_kubeconf_parse(const struct sl_ynode *n, const char *file, const char *dir,
		      struct sl_kubeconf **out, struct sl_err *err);
void sl_kubeconf_free(struct sl_kubeconf *k);

/* The settings of partition `name`, or NULL when it has none. Borrowed. */
const struct sl_kube_partition *sl_kubeconf_partition(const struct sl_kubeconf *k,
						      const char *name);

/* `scontrol show config` rows "kubernetes.KEY" / "kubernetes.partitions.P.KEY"
 * for every setting that is set, in declaration order. */
int sl_kubeconf_show(const struct sl_kubeconf *k, sl_conf_show_fn fn, void *arg);

#endif
