/* kueue.h - the Kueue object model (ResourceFlavor, ClusterQueue, LocalQueue,
 * Cohort, WorkloadPriorityClass, Kueue Configuration) parsed from YAML trees.
 * It is a validated data model: the structs are plain data that the
 * scheduler (libbatch/sched/) copies from. v1beta1 and v1beta2 spellings are
 * both accepted; quantities are int64 milli-units. */
#ifndef SL_KUEUE_H
#define SL_KUEUE_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct sl_ydocs;

struct sl_ynode;

struct sl_kq_kv {
	char *key;
	char *value;
};

struct sl_kq_taint {
	char *key, *value, *effect;
};

struct sl_kq_toleration {
	char *key, *op, *value, *effect; /* op: "Equal" (default) or "Exists" */
};

struct sl_kq_flavor {
	char *name;
	char *file;
	int line;
	size_t nlabels;
	struct sl_kq_kv *labels;
	size_t ntaints;
	struct sl_kq_taint *taints;
	size_t ntols;
	struct sl_kq_toleration *tols;
	char *topology;          /* spec.topologyName, NULL: not a TAS flavor */
};

/* Kueue's Topology (TAS): levels from the top (block) to the bottom
 * (often kubernetes.io/hostname), each a node label. */
struct sl_kq_topology {
	char *name;
	char *file;
	int line;
	size_t nlevels;
	char **levels;
};

struct sl_kq_res {
	char *resource;
	int64_t milli;
};

/* One node of the inventory (config or scenario `nodes:`, TAS). usage:
 * what pods outside the engine (DaemonSets, static pods) already take. */
struct sl_kq_node {
	char *name;
	size_t nlabels;
	struct sl_kq_kv *labels;
	size_t ntaints;
	struct sl_kq_taint *taints;
	size_t nalloc;
	struct sl_kq_res *alloc;
	size_t nusage;
	struct sl_kq_res *usage;
	int unavailable;         /* ready: false or unschedulable: true */
};

struct sl_kq_quota {
	char *resource;
	int64_t nominal;
	int has_bl, has_ll;
	int64_t bl, ll;
};

struct sl_kq_flavor_quotas {
	char *flavor;
	size_t nres;
	struct sl_kq_quota *res;
};

struct sl_kq_resource_group {
	size_t ncovered;
	char **covered;
	size_t nflavors;
	struct sl_kq_flavor_quotas *flavors;
};

struct sl_kq_selreq {
	char *key;
	char *op;                /* In, NotIn, Exists, DoesNotExist */
	size_t nvalues;
	char **values;
};

struct sl_kq_selector {
	int present;             /* 0: nil selector = matches nothing */
	size_t nmatch;
	struct sl_kq_kv *match;
	size_t nexpr;
	struct sl_kq_selreq *expr;
};

enum sl_kq_policy { SL_KP_NEVER, SL_KP_LOWER, SL_KP_LOWER_OR_NEWER_EQUAL, SL_KP_ANY };
enum sl_kq_stop { SL_KSTOP_NONE, SL_KSTOP_HOLD, SL_KSTOP_HOLD_AND_DRAIN };
enum sl_kq_fung { SL_KF_MAY_STOP, SL_KF_TRY_NEXT };
enum sl_kq_pref { SL_KPREF_UNSET, SL_KPREF_BORROWING_OVER_PREEMPTION,
		SL_KPREF_PREEMPTION_OVER_BORROWING };

struct sl_kq_cq {
	char *name;
	char *file;
	int line;
	char *cohort;            /* NULL: none */
	int strict_fifo;
	struct sl_kq_selector nssel;
	size_t nrg;
	struct sl_kq_resource_group *rg;
	enum sl_kq_policy within_cq, reclaim, bwc;   /* bwc: Never or LowerPriority */
	int has_bwc_threshold;
	int32_t bwc_threshold;
	enum sl_kq_fung when_borrow, when_preempt;
	enum sl_kq_pref preference;
	int64_t weight_milli;    /* fairSharing.weight, default 1000 */
	enum sl_kq_stop stop;
	int afs;                 /* admissionScope UsageBasedAdmissionFairSharing */
	int backfill;            /* Sluice: backfill: true (libbatch/sched/backfill.c) */
};

struct sl_kq_cohort {
	char *name;
	char *file;
	int line;
	char *parent;            /* NULL: root */
	size_t nrg;
	struct sl_kq_resource_group *rg;
	int64_t weight_milli;
};

struct sl_kq_lq {
	char *ns, *name, *cq;
	char *file;
	int line;
	enum sl_kq_stop stop;
	int64_t weight_milli;
};

struct sl_kq_wpc {
	char *name;
	int32_t value;
	char *description;
};

enum sl_kq_fs_strategy { SL_KFS_LE_FINAL_SHARE, SL_KFS_LT_INITIAL_SHARE };

struct sl_kq_res_weight {
	char *resource;
	int64_t weight_milli;
};

struct sl_kq_config {
	int present;
	int fs_enable;
	size_t nstrategies;              /* 0 = default [LE final, LT initial] */
	enum sl_kq_fs_strategy strategies[2];
	int afs_enable;                  /* admissionFairSharing present */
	int64_t afs_half_life_ms;
	int64_t afs_sampling_ms;         /* default 5m */
	size_t nweights;
	struct sl_kq_res_weight *weights;
	int wfpr_enable, wfpr_block_admission;
	int64_t wfpr_timeout_ms, wfpr_recovery_timeout_ms;
	char *wfpr_timestamp;            /* Eviction | Creation */
	int has_backoff_limit;
	int32_t backoff_limit;
	int64_t backoff_base_s, backoff_max_s;
	int backfill;                    /* Sluice: backfill on every ClusterQueue */
};

struct sl_kueue {
	size_t nflavors, ncqs, ncohorts, nlqs, nwpcs;
	struct sl_kq_flavor *flavors;
	struct sl_kq_cq *cqs;
	struct sl_kq_cohort *cohorts;
	struct sl_kq_lq *lqs;
	struct sl_kq_wpc *wpcs;
	struct sl_kq_config config;
	size_t ntopos, nnodes;           /* TAS: Topology objects, node inventory */
	struct sl_kq_topology *topos;
	struct sl_kq_node *nodes;
	int has_nodes;                   /* a `nodes:` list was given (may be empty) */
	size_t capf, capcq, capco, caplq, capw, capt;
	int finalized;
	/* References finalize lets through, as Kueue does: a ClusterQueue
	 * naming a missing ResourceFlavor is inactive, a LocalQueue naming a
	 * missing ClusterQueue holds its jobs pending. One line each, in the
	 * error's "FILE:LINE: KIND "NAME": path: ..." form. */
	char **warnings;
	size_t nwarnings;
};

/* Caller frees with sl_kueue_free(). */
struct sl_kueue *sl_kueue_new(void);
void sl_kueue_free(struct sl_kueue *k);

/* Add one YAML document (a whole map with apiVersion/kind/metadata). `file`
 * names the source in messages. Returns -SL_EINVAL with
 * `FILE:LINE: unknown kind "X" (apiVersion "Y")` for non-Kueue objects (err
 * untouched otherwise-valid callers may clear it and handle the object), and
 * -SL_EINVAL / -SL_ECONFIG with a path for invalid fields. */
int sl_kueue_add_object(struct sl_kueue *k, const char *file,
			const struct sl_ynode *doc, struct sl_err *err);

/* 1 if doc's apiVersion belongs to Kueue (kueue.x-k8s.io or
 * config.kueue.x-k8s.io), so callers can tell "unknown kind" from "not ours". */
int sl_kueue_is_kueue_doc(const struct sl_ynode *doc);

/* Cross-reference checks: cohort flavors exist, cohort parent cycles,
 * duplicate names, resources covered once, limits need a cohort.
 * -SL_ECONFIG with "FILE:LINE: KIND "NAME": path: reason". A LocalQueue
 * whose ClusterQueue or a ClusterQueue whose ResourceFlavor is missing is
 * accepted, as Kueue accepts it, and noted in k->warnings. */
int sl_kueue_finalize(struct sl_kueue *k, struct sl_err *err);

/* Add every document of docs (NULL ones skipped), then finalize: a whole
 * model from one YAML stream. Stops at the first error. */
int sl_kueue_add_docs(struct sl_kueue *k, const struct sl_ydocs *docs, struct sl_err *err);

/* Lookups (borrowed results). ns NULL: the first LocalQueue of that name. */
const struct sl_kq_lq *sl_kueue_find_lq(const struct sl_kueue *k, const char *ns,
				      const char *name);
/* ClusterQueue name of LocalQueue ns/name, NULL if unknown. */
const char *sl_kueue_lq_cluster_queue(const struct sl_kueue *k, const char *ns,
				      const char *name);
const struct sl_kq_cq *sl_kueue_find_cq(const struct sl_kueue *k, const char *name);
const struct sl_kq_flavor *sl_kueue_find_flavor(const struct sl_kueue *k, const char *name);
const struct sl_kq_cohort *sl_kueue_find_cohort(const struct sl_kueue *k, const char *name);
/* 0 and *value, or -SL_ENOENT. */
int sl_kueue_priority_class(const struct sl_kueue *k, const char *name, int32_t *value);

/* TAS (kueue_topo.c). A top-level `nodes:` list (name, labels,
 * allocatable, taints, usage) into k->nodes; `file` names the source in
 * messages. Nodes without allocatable pods get Kubernetes' default 110. */
int sl_kueue_add_nodes(struct sl_kueue *k, const char *file, const struct sl_ynode *list,
		       struct sl_err *err);
const struct sl_kq_topology *sl_kueue_find_topology(const struct sl_kueue *k, const char *name);

/* Go duration ("5m", "1h30m", "30s", "100ms") -> ms; 0 or -SL_EINVAL. */
int sl_kueue_parse_duration(const char *s, int64_t *ms);

#endif
