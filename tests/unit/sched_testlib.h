/* sched_testlib.h - build a struct sl_kueue / struct sl_sched from YAML
 * text in unit tests of libbatch/sched. */
#ifndef SCHED_TESTLIB_H
#define SCHED_TESTLIB_H

#include <string.h>
#include "kueue.h"
#include "yaml.h"
#include "sched/sched.h"

static inline struct sl_kueue *tl_model(const char *text)
{
	struct sl_ydocs *d = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_kueue *k = sl_kueue_new();
	int r = sl_yaml_load_buf("t.yaml", text, strlen(text), &d, &err);
	for (size_t i = 0; !r && i < d->n; i++)
		r = sl_kueue_add_object(k, d->file, d->docs[i], &err);
	if (!r)
		r = sl_kueue_finalize(k, &err);
	sl_ydocs_free(d);
	if (r) {
		sl_kueue_free(k);
		return NULL;
	}
	return k;
}

#define TL_FLAVOR(n) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: " n "}\n---\n"
#define TL_LQ(ns, n, cq) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: " n \
	", namespace: " ns "}\nspec: {clusterQueue: " cq "}\n---\n"
/* CQ with one cpu flavor "default"; extra = more spec lines (2-space indent). */
#define TL_CQ(n, extra, quota) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: " n \
	"}\nspec:\n  namespaceSelector: {}\n" extra "  resourceGroups:\n  - coveredResources: [cpu]\n" \
	"    flavors:\n    - name: default\n      resources:\n      - {name: cpu, " quota "}\n---\n"

#endif
