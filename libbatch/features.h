/* features.h - the SluiceConfiguration's `features:` map: Slurm node
 * features (what -C/--constraint names, and the type of --gres=gpu:TYPE:N)
 * to the Kubernetes node labels that mean the same thing:
 *
 *   features:
 *     h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
 *     ib:   {example.com/network: infiniband}
 *
 * A job's features become its pod set's nodeSelector (workload.h), which
 * restricts the ResourceFlavors it may take exactly as a pod template's
 * nodeSelector does in Kueue. conf.c owns the object. */
#ifndef SL_FEATURES_H
#define SL_FEATURES_H

#include <stddef.h>

#include "err.h"

struct sl_ynode;
struct sl_features;

struct sl_feature_label {
	const char *key;
	const char *value;
};

/* Parse the value of `features:` (a map of maps). Label keys and values are
 * checked as Kubernetes label keys and values; errors read
 * "file:line: SluiceConfiguration: features.NAME.KEY: reason". Caller frees
 * with sl_features_free(). */
int sl_features_parse(const struct sl_ynode *n, const char *file,
		      struct sl_features **out, struct sl_err *err);
void sl_features_free(struct sl_features *f);

/* The labels of feature `name` (borrowed, valid until sl_features_free()),
 * with their number in *n; NULL when f is NULL or has no such feature. */
const struct sl_feature_label *sl_features_get(const struct sl_features *f,
					       const char *name, size_t *n);

/* For `scontrol show config`: "h100:k=v,k2=v2 ib:k=v"; "" when empty.
 * Caller frees. */
char *sl_features_text(const struct sl_features *f);

/* Kubernetes label syntax: key = [DNS-subdomain prefix '/'] name (name at
 * most 63 characters of [A-Za-z0-9._-], alphanumeric at both ends); value =
 * empty or such a name. 1 when valid. */
int sl_label_key_ok(const char *key);
int sl_label_value_ok(const char *value);

#endif
