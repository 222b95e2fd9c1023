/* sched.h - the Kueue admission engine: pure logic (no I/O, no clock, no
 * JSON). It holds the queue model (copied from a struct sl_kueue), the
 * pending and admitted workloads, and answers "what to admit / preempt now".
 *
 * Ownership: every input struct is copied; the caller may free it after the
 * call. Strings in outputs (decisions, pending info, usage rows) are borrowed
 * from the engine and stay valid until the next sl_sched_* call that mutates
 * it (add/remove/requeue/cycle/reconfigure), except messages in decisions,
 * which belong to the decisions struct (sl_sched_decisions_clear()).
 *
 * Quantities are int64 milli-units (libbatch/quantity.h). Times are int64
 * milliseconds chosen by the caller; the engine never reads a clock. */
#ifndef SL_SCHED_H
#define SL_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct sl_kueue;
struct sl_sched;

struct sl_sched_req {            /* one resource request, per pod */
	const char *resource;
	int64_t milli;
};

struct sl_sched_label {
	const char *key;
	const char *value;
};

struct sl_sched_toleration {     /* Kubernetes toleration; op "Equal"/"Exists" */
	const char *key;         /* NULL or "" with Exists = tolerate all */
	const char *op;          /* NULL = Equal */
	const char *value;
	const char *effect;      /* NULL or "" = every effect */
};

/* Topology-aware scheduling (Kueue TAS, sched/tas*.c): a pod set's
 * constraint, as Kueue's kueue.x-k8s.io/podset-* annotations give it. */
enum sl_sched_topo_mode {
	SL_TOPO_NONE,            /* only a slice constraint (or none) */
	SL_TOPO_REQUIRED,        /* podset-required-topology: LEVEL */
	SL_TOPO_PREFERRED,       /* podset-preferred-topology: LEVEL */
	SL_TOPO_UNCONSTRAINED,   /* podset-unconstrained-topology: "true" */
};

struct sl_sched_topo_layer {
	const char *level;
	int32_t size;
};

struct sl_sched_topo_req {
	enum sl_sched_topo_mode mode;
	const char *level;       /* node label of the level (required, preferred) */
	const char *slice_level; /* podset-slice-required-topology, NULL = none */
	int32_t slice_size;      /* podset-slice-size (with slice_level) */
	const char *group;       /* podset-group-name, NULL = none */
	/* Kueue's multi-layer slices (podset-slice-required-topology-
	 * constraints, TASMultiLayerTopology): the layers inside the first
	 * (slice_level, slice_size), each at a lower level, sizes dividing. */
	size_t nlayers;
	const struct sl_sched_topo_layer *layers;
};

struct sl_sched_podset {
	const char *name;
	int32_t count;
	size_t nreq;
	const struct sl_sched_req *req;
	size_t nsel;
	const struct sl_sched_label *node_selector;
	size_t ntol;
	const struct sl_sched_toleration *tolerations;
	/* Kueue's minCount (partial admission): the engine may admit as few
	 * as min_count pods when count does not fit. 0, or >= count, means
	 * all or nothing. */
	int32_t min_count;
	/* TAS constraint; NULL: none asked (a TAS-only ClusterQueue still
	 * places the pod set, unconstrained). */
	const struct sl_sched_topo_req *topology;
};

struct sl_sched_wl {
	uint64_t id;             /* key, unique */
	const char *name;        /* display */
	const char *ns;          /* namespace */
	const char *queue;       /* LocalQueue name in ns */
	int32_t priority;
	int64_t created;         /* ms (or any monotonic sequence): FIFO order */
	size_t npodsets;
	const struct sl_sched_podset *podsets;
};

/* One chosen flavor: pod set x resource -> flavor. */
struct sl_sched_flavor {
	const char *podset;
	const char *resource;
	const char *flavor;
};

struct sl_sched_assignment {
	const char *cluster_queue;
	size_t n;
	const struct sl_sched_flavor *flavors;
};

struct sl_sched_admission {
	uint64_t id;
	const char *cluster_queue;  /* borrowed */
	size_t n;
	struct sl_sched_flavor *flavors; /* array owned by decisions; strings borrowed */
	/* Kueue's podSetAssignments[].count: pods admitted per pod set, in
	 * the order of sl_sched_wl.podsets; below the requested count only
	 * after partial admission. Owned by decisions (freed with flavors). */
	size_t ncounts;
	int32_t *counts;
	/* Kueue's topologyAssignment of its TAS pod sets, as
	 * sl_sched_topo_text() writes it; NULL: none. Owned by decisions. */
	char *topology;
};

/* Kueue's Preempted condition reasons (and stop-policy evictions). */
enum sl_sched_preempt_reason {
	SL_PREEMPT_IN_CLUSTER_QUEUE,         /* InClusterQueue */
	SL_PREEMPT_IN_COHORT_RECLAMATION,    /* InCohortReclamation */
	SL_PREEMPT_IN_COHORT_FAIR_SHARING,   /* InCohortFairSharing */
	SL_PREEMPT_IN_COHORT_RECLAIM_WHILE_BORROWING,
	SL_PREEMPT_CQ_STOPPED,               /* ClusterQueueStopped (HoldAndDrain) */
	SL_PREEMPT_LQ_STOPPED,               /* LocalQueueStopped (HoldAndDrain) */
};

struct sl_sched_preemption {
	uint64_t victim;
	uint64_t preemptor;      /* 0 for stop-policy drains */
	enum sl_sched_preempt_reason reason;
	char *message;           /* owned by decisions */
};

struct sl_sched_decisions {
	size_t nadmit, capadmit;
	struct sl_sched_admission *admit;
	size_t npreempt, cappreempt;
	struct sl_sched_preemption *preempt;
};

/* Classification of why a workload waits (maps to squeue %r). */
enum sl_sched_class {
	SL_SCHED_NONE = 0,          /* admitted / not evaluated yet */
	SL_SCHED_WAIT_QUOTA,        /* Resources: quota used by others */
	SL_SCHED_WAIT_PRIORITY,     /* Priority: behind higher-priority work */
	SL_SCHED_WAIT_PREEMPTION,   /* preemption issued, waiting for victims */
	SL_SCHED_NEVER_FITS,        /* exceeds max capacity / no matching flavor */
	SL_SCHED_QUEUE_STOPPED,     /* CQ or LQ stopPolicy Hold/HoldAndDrain */
	SL_SCHED_INADMISSIBLE,      /* misconfigured: missing queue, namespace, ... */
};

struct sl_sched_pending {
	enum sl_sched_class cls;
	const char *reason;         /* Kueue reason: WaitingForQuota, ... (borrowed) */
	const char *message;        /* Kueue wording (borrowed) */
	const char *cluster_queue;  /* NULL if the LocalQueue is unknown */
	int64_t pos_cq;             /* 0-based; -1 if not queued */
	int64_t pos_lq;
	int admitted;               /* 1 if currently admitted (then fields above empty) */
	int evicting;               /* 1 if preemption issued, quota still held */
};

struct sl_sched_usage {         /* one row per CQ x flavor x resource */
	const char *cluster_queue;
	const char *cohort;         /* NULL if none */
	const char *flavor;
	const char *resource;
	int64_t nominal;
	int64_t borrowing_limit;    /* -1 = unlimited */
	int64_t lending_limit;      /* -1 = unlimited */
	int64_t used;
	int64_t borrowed;           /* max(0, used - nominal) */
	/* What other queues of the cohort use of this CQ's unused quota now.
	 * Kueue pools unused quota without saying whose it is; here the part
	 * of the cohort's borrowing that its own quota does not cover is split
	 * among the lenders in proportion to what each leaves unused. */
	int64_t lent;
	int64_t pending_wl, admitted_wl; /* per CQ (same on every row of a CQ) */
	const char *inactive;       /* per CQ: NULL when active, else Kueue's message
				     * (a stop policy makes a CQ inactive too) */
};

/* Build from a finalized model (copied; model may be freed afterwards).
 * Caller frees with sl_sched_free(). */
struct sl_sched *sl_sched_new(const struct sl_kueue *model);
void sl_sched_free(struct sl_sched *s);

/* Replace the queue model, keeping workloads. Admitted workloads keep their
 * quota if their CQ still exists (else they are dropped from accounting);
 * pending workloads whose queue vanished stay pending with a reason. */
int sl_sched_reconfigure(struct sl_sched *s, const struct sl_kueue *model,
			 struct sl_err *err);

/* Submit-time check: -SL_ENOENT "invalid partition specified: NAME" when the
 * LocalQueue is unknown, -SL_ENOFIT with an explanation when the workload can
 * never fit in its ClusterQueue, even at its pod sets' min_count, 0
 * otherwise. */
int sl_sched_check(const struct sl_sched *s, const struct sl_sched_wl *wl,
		   struct sl_err *err);
/* The same, but more of resource `waits` than the queue can ever give is
 * no refusal: such a workload is taken and stays pending (Kueue's
 * ExceedsMaxQuota). A queue without that resource at all still refuses. */
int sl_sched_check_waits(const struct sl_sched *s, const struct sl_sched_wl *wl,
			 const char *waits, struct sl_err *err);

/* Add a pending workload (copied). -SL_EEXIST on duplicate id. */
int sl_sched_add(struct sl_sched *s, const struct sl_sched_wl *wl, struct sl_err *err);
/* Finished/cancelled: forget it and release its quota. -SL_ENOENT if unknown. */
int sl_sched_remove(struct sl_sched *s, uint64_t id);
/* A workload added with sl_sched_add() that is already admitted (daemon
 * restart): take quota per the assignment. counts[i] pods of pod set i (the
 * workload's order) were admitted (partial admission); counts NULL = as
 * requested. -SL_EINVAL when a count is negative or above the request. */
int sl_sched_admitted_partial(struct sl_sched *s, uint64_t id,
			      const struct sl_sched_assignment *a, const int32_t *counts,
			      struct sl_err *err);
/* Evicted/preempted: release quota and go back to pending with the original
 * creation time. */
int sl_sched_requeue(struct sl_sched *s, uint64_t id);

/* One scheduling cycle at time now_ms. Appends to *out (which the caller
 * zero-initialises and clears with sl_sched_decisions_clear()). Admissions
 * are already accounted in the engine when returned; preemptions are only
 * requested: victims keep their quota until sl_sched_requeue/remove.
 * Returns how many changes the cycle made: admissions and preemptions
 * appended to *out, plus queue moves that let the next cycle decide more
 * (a BestEffortFIFO head parked, so the one behind it becomes the head).
 * So a positive value is not a count of decisions; 0 means another cycle
 * now, with no add/remove/requeue in between, would change nothing.
 * Partial admission: a head whose full size neither fits nor can preempt
 * is admitted (or preempts) at the largest size Kueue's reducer finds
 * between min_count and count; the admission's counts[] say how many pods
 * per pod set, and its usage is charged for those pods only.
 * One call may run several of Kueue's cycles back to back (a ClusterQueue
 * alone with heads admits one after another, up to 1 024): the decisions
 * are those of calling it that many times. */
int sl_sched_cycle(struct sl_sched *s, int64_t now_ms, struct sl_sched_decisions *out);
void sl_sched_decisions_clear(struct sl_sched_decisions *d);

/* Simulation: cycle until nothing changes; every preempted victim is
 * requeued immediately. Decisions of all cycles are appended to *out.
 * Returns the number of Kueue's cycles run (one head per ClusterQueue each,
 * however many one sl_sched_cycle call ran). */
int sl_sched_run_to_fixpoint(struct sl_sched *s, int64_t now_ms, int max_cycles,
			     struct sl_sched_decisions *out);

/* Why is workload id pending, and where. -SL_ENOENT if unknown. */
int sl_sched_pending_info(struct sl_sched *s, uint64_t id, struct sl_sched_pending *out);

/* Current assignment of an admitted workload (borrowed). -SL_ENOENT if not
 * admitted. */
int sl_sched_assignment(struct sl_sched *s, uint64_t id,
			struct sl_sched_assignment *out);

/* Pods admitted for pod set `podset` (index in the workload's order) of an
 * admitted workload. -SL_ENOENT if not admitted or no such pod set. */
int sl_sched_admitted_count(struct sl_sched *s, uint64_t id, size_t podset, int32_t *count);

/* Usage rows, in CQ config order then flavor then resource order. *rows is
 * borrowed: valid until the next call of this function or a mutating one
 * (the rows are a cache inside the engine, the only thing this call writes). */
size_t sl_sched_usage(const struct sl_sched *s, const struct sl_sched_usage **rows);

/* Admission fair sharing: account `elapsed_ms` of the current admitted usage
 * into every LocalQueue's decayed usage (the caller calls it every
 * usageSamplingInterval, or the simulator does). */
void sl_sched_afs_sample(struct sl_sched *s, int64_t elapsed_ms);

/* Start-time estimates (estimate.c). SL_SCHED_NEVER: no estimate (no time
 * limit ahead of it ends, the job can never fit, or its queue is stopped). */
#define SL_SCHED_NEVER INT64_MAX

/* Recompute every pending workload's estimated start at now_ms: the FIFO
 * plan of each ClusterQueue over its cohort, where admitted workloads end
 * at their start + time limit and a planned one takes its quota from its
 * planned start to its end. Returns how many pending workloads have an
 * estimate (< SL_SCHED_NEVER). The engine's state is unchanged. */
size_t sl_sched_estimate(struct sl_sched *s, int64_t now_ms);
/* A workload's time limit in ms (0 = none: it runs until it ends), and for
 * an admitted one the time it started (0 = keep: the cycle's time when the
 * engine admitted it; a restarted daemon passes the real one after
 * sl_sched_admitted_partial()). -SL_ENOENT if unknown. */
int sl_sched_set_time(struct sl_sched *s, uint64_t id, int64_t limit_ms, int64_t start_ms);
/* The last estimate of a pending workload (SL_SCHED_NEVER if none yet), or
 * the admission time of an admitted one. -SL_ENOENT if unknown. */
int sl_sched_start_estimate(const struct sl_sched *s, uint64_t id, int64_t *start_ms);

/* sbatch --test-only: where and when a workload would start if submitted
 * at now_ms. The engine is unchanged afterwards. */
struct sl_sched_trial {
	int64_t start;              /* SL_SCHED_NEVER: no estimate */
	const char *cluster_queue;  /* borrowed (engine); NULL if none */
	/* With backfill: the longest time limit (ms) that would let it
	 * start now by backfilling, 0 when none would (or it starts now). */
	int64_t backfill_limit;
};
int sl_sched_trial(struct sl_sched *s, const struct sl_sched_wl *wl, int64_t limit_ms,
		   int64_t now_ms, struct sl_sched_trial *out, struct sl_err *err);

/* Backfill (backfill.c) for every ClusterQueue, on top of each queue's
 * `backfill:` setting. The model's Configuration may set it too. */
void sl_sched_set_backfill(struct sl_sched *s, int on);

/* What the cycles did, counted since the engine was made (sdiag's figures;
 * the daemon keeps its own reset points). */
struct sl_sched_stats {
	uint64_t cycles;        /* Kueue cycles (one call may chain several) */
	uint64_t tried;         /* heads nominated, over every cycle */
	uint64_t bf_passes;     /* backfill passes (backfill.c) */
	uint64_t bf_admitted;   /* workloads admitted by them */
	uint64_t bf_last_depth; /* candidates tested for fit in the last pass */
	uint64_t bf_depth_sum;
	uint64_t bf_last_queue; /* pending in backfilling queues at the last pass */
	uint64_t bf_queue_sum;
};
void sl_sched_stats(const struct sl_sched *s, struct sl_sched_stats *out);
/* Pending workloads now, heads and inadmissible ones (sdiag's queue
 * length): a walk over the ClusterQueues, for a caller that asks. */
size_t sl_sched_queue_len(const struct sl_sched *s);

/* on = 0: exactly one of Kueue's cycles per sl_sched_cycle call (tests of
 * the cycle itself, and proof that chaining decides the same). Default 1. */
void sl_sched_set_chaining(struct sl_sched *s, int on);

/* Topology-aware scheduling: the node inventory and assignments. */
struct sl_sched_taint {
	const char *key, *value, *effect;
};

struct sl_sched_node {
	const char *name;
	size_t nlabels;
	const struct sl_sched_label *labels;
	size_t ntaints;
	const struct sl_sched_taint *taints;
	size_t nalloc;
	const struct sl_sched_req *alloc;  /* allocatable; "pods" is a resource */
	size_t nusage;
	const struct sl_sched_req *usage;  /* taken by pods the engine does not place */
	int unavailable;                   /* not Ready, or unschedulable: in no topology */
};

struct sl_sched_topo_domain {
	const char *const *values;  /* one value per level */
	int32_t count;              /* pods */
};

/* Kueue's podSetAssignments[].topologyAssignment. */
struct sl_sched_topo {
	const char *flavor;
	size_t nlevels;
	const char *const *levels;
	size_t ndomains;
	const struct sl_sched_topo_domain *domains;
};

/* Replace the node inventory (copied). The daemon feeds it from the
 * config's `nodes:` or from a Nodes watch; the model's `nodes:` (if any)
 * is taken at sl_sched_new/_reconfigure. Admitted workloads keep their
 * assignments and are charged again on the new nodes. */
int sl_sched_set_nodes(struct sl_sched *s, const struct sl_sched_node *nodes, size_t n,
		       struct sl_err *err);
/* Topology assignment of pod set `podset` of an admitted workload
 * (borrowed until the next mutating call). -SL_ENOENT if it has none. */
int sl_sched_topology(struct sl_sched *s, uint64_t id, size_t podset, struct sl_sched_topo *out);
/* Restart: an admitted workload's pod set was placed so (after
 * sl_sched_admitted_partial()); its usage is charged on the domains.
 * -SL_EINVAL when the flavor or the levels do not match the topology. */
int sl_sched_admitted_topology(struct sl_sched *s, uint64_t id, size_t podset,
			       const struct sl_sched_topo *t, struct sl_err *err);

/* The topology assignments of admitted workload id as one line:
 * "PODSET@FLAVOR@LEVEL,LEVEL@VALUE,VALUE=COUNT@...", pod sets joined by
 * ';' (no label key or value holds '@', ';', ',' or '='). NULL when it has
 * none. Caller frees. The restart reads it back with
 * sl_sched_admitted_topology_text(): -SL_EINVAL on a malformed line, and
 * as sl_sched_admitted_topology(). */
char *sl_sched_topo_text(struct sl_sched *s, uint64_t id);
int sl_sched_admitted_topology_text(struct sl_sched *s, uint64_t id, const char *text,
				    struct sl_err *err);

/* A job's topology request in Slurm's spelling (tas_req.c):
 * spec "LEVEL | required:LEVEL | preferred:LEVEL | unconstrained" with
 * optional ",slice:LEVEL:SIZE" items (the second and later are inner
 * layers, into layers[0..maxl)); or switches > 0 (--switches=N[@wait]):
 * the leaf switch level (level NULL), required for one switch without a
 * wait, else preferred. Strings land in buf (cap bytes). 1: no request,
 * 0: *out filled, -SL_EINVAL "Invalid --topology specification". A LEVEL
 * is a node label, or its last word ("rack" for cloud.com/topology-rack). */
int sl_sched_topo_parse(const char *spec, int switches, int64_t wait4switch,
			struct sl_sched_topo_req *out, struct sl_sched_topo_layer *layers, size_t maxl,
			char *buf, size_t cap, struct sl_err *err);

/* Text for a preemption reason ("InClusterQueue", ...). */
const char *sl_sched_preempt_reason_name(enum sl_sched_preempt_reason r);
const char *sl_sched_class_name(enum sl_sched_class c);

/* Slurm's job reason (squeue %r) for a pending workload: by Kueue's reason
 * (sl_sched_pending.reason) where it says more than the class, else by the
 * class ("None" for SL_SCHED_NONE). Static text (reason.c). */
const char *sl_sched_slurm_reason(enum sl_sched_class cls, const char *kueue_reason);

#endif
