/* sched_int.h - internals shared by the files of libbatch/sched/. Not
 * installed, not used outside sched/ (and its unit tests).
 *
 * Representation: every ClusterQueue and Cohort is a "node" of one array
 * (CQ i is node i, cohorts follow). Flavor x resource pairs that appear in
 * any quota are interned into "FR" indices, global to the model; the Kueue
 * resource-node arithmetic (quota.c) walks up the parent chain reading each
 * node's quota, subtree quota and usage for one FR.
 *
 * Sparse per-node storage (cell.c). A node keeps a cell (quota, subtree
 * quota, usage) only for the FRs it can ever hold something for: those
 * its own quota defines, and, for a ClusterQueue, the FRs of its resource
 * groups (each flavor x each covered resource: flavor assignment charges
 * nothing else), and those of every node below it. Its FRs are a sorted
 * array (frk) with the cells in the same order, found by binary search. A
 * node has no cell for an FR that nothing in its subtree defines or can
 * use: its quota, subtree quota and usage there are zero, which is what
 * sq_cell() returns (sq_cell_zero). A write to such an FR (a workload
 * taken back after a restart or a reload on a flavor its ClusterQueue no
 * longer lists) inserts the cell: sq_cell_mut().
 * Why: the dense [nfr] arrays per node they replace cost nodes x FRs, 3 GB
 * for 5 000 ClusterQueues in cohorts with a flavor each. Cells cost the
 * configuration's size times the depth of the cohort tree (a cohort holds
 * its subtree's FRs), and a lookup is a few compares instead of one load:
 * nodes have a handful of FRs, and the benchmarks' cycles did not slow. */
#ifndef SL_SCHED_INT_H
#define SL_SCHED_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sched.h"
#include "kueue.h"

#define SQ_NONE (-1)

struct sq_quota {
	int64_t nominal, bl, ll;
	bool has_bl, has_ll, defined;
};

/* A node's quota, subtree quota (Kueue's SubtreeQuota) and usage on one FR. */
struct sq_cell {
	struct sq_quota q;
	int64_t subtree;
	int64_t usage;
};

struct sq_node {
	char *name;
	bool is_cq;
	int parent;              /* node index or SQ_NONE */
	int root;                /* top of its tree (sq_root) */
	int *kids;               /* child node indices (cohorts and CQs) */
	size_t nkids, capkids;
	int height;              /* distance to the furthest leaf (getNodeHeight) */
	int64_t weight_milli;
	bool broken;             /* member of a cohort cycle: unusable */
	bool implicit;           /* cohort named by a CQ without a Cohort object */
	int ncell, capcell;
	int *frk;                /* [ncell] FRs with a cell, ascending */
	struct sq_cell *cell;    /* [ncell] their cells (sq_cell()) */
	int run_fr, nrun;        /* cells 0..nrun-1 hold FRs run_fr, run_fr+1, ...:
				  * found with no search (sq_cell_find) */
};

struct sq_rg {
	int ncov, nfl;
	int *cov;                /* resource indices */
	int *fl;                 /* flavor indices (SQ_NONE if flavor missing) */
	char **flname;           /* flavor names as written */
};

struct sq_heap {
	struct sq_wl **v;
	size_t n, cap;
};

/* The pending workloads of a CQ taken out since their positions were
 * computed (info.c), in two Fenwick trees over the ranks of that sort: by
 * rank in the CQ, and by rank in the CQ grouped by LocalQueue (pos_grp).
 * A removal changes no one's order, so a position is its rank less the
 * removals ahead of it: log n each, where a new sort of the queue cost
 * n log n after every removal (sluiced explains a pending job before it
 * cancels it: one scancel of K of N jobs sorted N jobs K times). */
struct sq_pos {
	size_t n;                    /* workloads ranked by that sort */
	size_t ngone;                /* removed since */
	size_t *by_cq, *by_grp;      /* [n + 1] each; NULL until a removal */
};

struct sq_cq {
	char *name;
	int node;
	bool strict_fifo;
	struct sl_kq_selector nssel;   /* deep copy */
	int nrg;
	struct sq_rg *rg;
	int *rg_of_res;              /* [nres] -> rg index or SQ_NONE */
	enum sl_kq_policy within_cq, reclaim, bwc;
	bool has_bwc_threshold;
	int32_t bwc_threshold;
	enum sl_kq_fung when_borrow, when_preempt;
	enum sl_kq_pref preference;
	enum sl_kq_stop stop;
	bool afs;
	bool covers_pods;            /* "pods" is a covered resource */
	bool backfill;               /* backfill: true (backfill.c) */
	char *inactive;              /* NULL = active; else Kueue message */
	bool missing_flavor;         /* inactive for want of a ResourceFlavor */
	struct sq_heap heap;         /* active pending workloads */
	struct sq_wl **inadm;        /* parked workloads (BestEffortFIFO) */
	size_t ninadm, capinadm;
	struct sq_wl **prep;         /* parked shapes: one failed workload each */
	size_t nprep, capprep;
	struct sq_wl **adm;          /* admitted (incl. evicting) workloads */
	size_t nadm, capadm;
	struct sq_wl *sticky;        /* preemptor waiting for its victims */
	int next_in_tree;            /* next CQ with the same root, or SQ_NONE */
	uint64_t qgen;               /* bumps on any queue change (positions) */
	uint64_t posgen;             /* qgen when positions were computed */
	struct sq_pos pos;           /* removals since then (info.c) */
};

struct sq_lq {
	char *ns, *name;
	int cq;                      /* SQ_NONE if its CQ is missing */
	char *cqname;
	enum sl_kq_stop stop;
	int64_t weight_milli;
	double afs_consumed;         /* decayed usage (weighted sum over resources) */
	double afs_penalty;
};

struct sq_flavor {
	char *name;
	struct sl_kq_flavor f;         /* deep copy of labels/taints/tolerations */
};

struct sq_ps {
	char *name;
	/* count .. ntol in this order: equiv.c compares them as one block */
	int32_t count;
	int32_t min_count;           /* == count: all or nothing */
	int nreq;
	int nsel, ntol;
	int32_t adm_count;           /* pods admitted (partial admission) */
	int *res;                    /* resource index (interned, may be new) */
	int64_t *total;              /* per-pod x count */
	struct sl_kq_kv *sel;
	struct sl_kq_toleration *tol;
	int *flv;                    /* [nreq] assigned flavor index when admitted */
	struct sq_tps *tas;          /* TAS request and assignment (tas*.c), NULL: none */
};

/* Pod set p's request j for n of its pods: total holds it for count pods,
 * and the per-pod request times count divides exactly. */
static inline int64_t sq_ps_total(const struct sq_ps *p, int j, int32_t n)
{
	return n == p->count ? p->total[j] : p->total[j] / p->count * n;
}

enum sq_where { SQ_W_NONE, SQ_W_HEAP, SQ_W_INADM, SQ_W_ADMITTED };

/* Why one flavor (or resource) did not do for a pod set, as numbers; msg.c
 * turns it into Kueue's sentence on demand. Formatting every head's
 * reasons in every cycle was 40 % of the engine's time. */
enum sq_rkind {
	SQ_R_MAXCAP,      /* fr; x assumed, y request, z maximum capacity */
	SQ_R_UNUSED,      /* fr; x more needed */
	SQ_R_NOT_FOUND,   /* flavor a */
	SQ_R_TAINT,       /* flavor a, taint index b */
	SQ_R_AFFINITY,    /* flavor a */
	SQ_R_UNAVAILABLE, /* resource a */
	SQ_R_TAS,         /* topology: message a (sq_tas_msg) */
};

struct sq_reason {
	enum sq_rkind kind;
	int ps;                      /* pod set index */
	int a, b;
	int64_t x, y, z;
};

enum sq_mkind {
	SQ_M_NONE,        /* no message */
	SQ_M_STATIC,      /* smsg */
	SQ_M_TEXT,        /* msg, owned */
	SQ_M_ASSIGN,      /* "couldn't assign flavors ..." from rv */
	SQ_M_PREEMPTING,  /* the same + ". Pending the preemption of N workload(s)" */
};

struct sq_wl {
	uint64_t id;
	char *name, *ns, *lqname;
	int lq, cq;                  /* indices or SQ_NONE */
	int32_t prio;
	int64_t created;
	uint64_t seq;                /* arrival order: the UID tie-break */
	int nps;
	struct sq_ps *ps;
	bool partial;                /* some pod set has min_count < count */
	enum sq_where where;
	size_t qidx;                 /* index in heap / inadm / adm */
	bool evicting;               /* preemption issued, quota still held */
	int adm_cq;                  /* CQ holding its quota when admitted */
	int nuse;                    /* aggregated usage per FR when admitted */
	int *use_fr;
	int64_t *use_q;
	uint64_t admit_seq;          /* most recently admitted first */
	/* scan progress (FlavorFungibility): last tried flavor per ps x res */
	int *last_tried;
	int64_t last_cycle;
	uint64_t last_gen;
	int nlast;                   /* capacity of last_tried */
	bool has_last;               /* last_tried holds a scan position */
	/* pending status: the message is kept as numbers (mkind, rv, npre)
	 * and formatted only when sl_sched_pending_info() asks (msg) */
	enum sl_sched_class cls;
	const char *reason;
	enum sq_mkind mkind;
	const char *smsg;            /* SQ_M_STATIC: borrowed constant text */
	struct sq_reason *rv;        /* SQ_M_ASSIGN / SQ_M_PREEMPTING */
	size_t nrv, caprv;
	size_t npre;                 /* SQ_M_PREEMPTING: number of victims */
	char *msg;                   /* SQ_M_TEXT text, or the formatted cache */
	bool msg_ok;                 /* msg is up to date */
	bool tried;
	int64_t pos_cq, pos_lq;      /* ranks at the last sort (info.c) */
	int64_t pos_grp;             /* rank in the CQ grouped by LocalQueue */
	uint64_t hash;               /* scheduling-equivalence hash */
	bool bulk_tried;             /* as a parked shape: park_bulk has looked */
	int64_t limit_ms;            /* time limit, 0 = none */
	int64_t start_ms;            /* admitted at (ms) */
	int64_t est_ms;              /* estimated start (SL_SCHED_NEVER: none) */
	bool backfilled;             /* admitted by backfill.c ... */
	uint64_t bf_seq;             /* ... when s->seq was this: no workload that
				      * had arrived by then may preempt it */
};

struct sq_wtab {                     /* id -> wl, open addressing */
	struct sq_wl **slot;
	size_t cap, n, used;
};

struct sq_target {
	struct sq_wl *wl;
	enum sl_sched_preempt_reason reason;
};

struct sq_targets {
	struct sq_target *v;
	size_t n, cap;
};

struct sq_cscratch;
struct sq_pscratch;
struct sq_rscratch;

struct sq_namemap {                  /* namemap.c */
	int *slot;                   /* index + 1; 0 = empty */
	size_t cap;
};
typedef bool (*sq_nm_eq)(const void *ctx, int idx, const char *a, const char *b);
void sq_nm_init(struct sq_namemap *m, size_t n);
void sq_nm_free(struct sq_namemap *m);
void sq_nm_put(struct sq_namemap *m, const char *a, const char *b, int idx);
int sq_nm_get(const struct sq_namemap *m, const char *a, const char *b, sq_nm_eq eq,
	      const void *ctx);

struct sl_sched {
	/* model */
	int nres, nflv, nfr;
	char **res;                  /* resource names */
	struct sq_flavor *flv;
	int *fr_of;                  /* [nflv * capres] -> fr or SQ_NONE */
	int fr_stride;               /* capres used by fr_of */
	int *fr_flv, *fr_res;        /* [nfr] */
	int ncq, nnode;
	struct sq_cq *cq;
	struct sq_node *node;        /* [nnode], node i < ncq is cq i */
	int nlq;
	struct sq_lq *lq;
	struct sq_namemap lqmap;     /* (ns, name) -> lq */
	struct sq_namemap flvmap;    /* flavor name -> flv */
	struct sq_namemap nodemap;   /* (name, "" for a CQ or "cohort") -> node */
	bool fair_sharing;
	int nstrat;
	enum sl_kq_fs_strategy strat[2];
	bool afs_enable;
	int64_t afs_half_life_ms, afs_sampling_ms;
	int64_t *afs_weight_milli;   /* [nres] */
	/* workloads */
	struct sq_wtab wt;
	uint64_t seq, admit_seq;
	int64_t cycle_no;
	uint64_t *tree_gen;          /* [nnode] by root node: usage generation */
	int *tree_first;             /* [nnode] by root node: first CQ of the tree */
	bool *tree_parked;           /* [nnode] by root node: something parked since
				      * the last requeue */
	int64_t now_ms;
	/* usage rows cache */
	struct sl_sched_usage *rows;
	size_t nrows, caprows;
	struct sl_sched_flavor *abuf;    /* sl_sched_assignment() result */
	size_t capabuf;
	/* scratch, kept between cycles */
	int64_t *tmp_fr;             /* [nfr] */
	struct sq_cscratch *cscr;    /* cycle.c */
	struct sq_pscratch *pscr;    /* preempt.c */
	struct sq_rscratch *rscr;    /* partial.c */
	struct sq_tas *tas;          /* tas*.c: nodes, topologies, TAS usage */
	bool tas_on;                 /* some flavor has a topology: TAS work to do */
	struct sq_targets otg;       /* flavor.c: preemption oracle's targets */
	struct sq_otg_key {          /* ... and what they were searched for */
		const struct sq_wl *w;
		int cq, fr;
		int64_t val, cycle;
	} otg_key;
	bool backfill_all;           /* backfill on every ClusterQueue */
	bool bf_any;                 /* ... or on some (sq_backfill_reset) */
	bool no_chain;               /* one Kueue cycle per sl_sched_cycle */
	uint64_t bf_sig;             /* backfill.c: the state its last pass saw */
	int64_t bf_at;               /* ... and when */
	struct sq_bfgate *bfg;       /* backfill.c: this cycle's reservations */
	struct sl_sched_stats st;    /* cycle.c and backfill.c count */
	bool planning;               /* estimate.c: flavor.c skips the preemption
				      * oracle (the plan only asks what fits) */
};

/* model.c */
int sq_res_index(struct sl_sched *s, const char *name, bool create);
int sq_flavor_index(const struct sl_sched *s, const char *name);
static inline int sq_fr(const struct sl_sched *s, int flv, int res)
{
	if (flv < 0 || res < 0 || res >= s->fr_stride)
		return SQ_NONE;
	return s->fr_of[flv * s->fr_stride + res];
}
int sq_root(const struct sl_sched *s, int node);
int sq_lq_find(const struct sl_sched *s, const char *ns, const char *name);
/* ClusterQueue index by name, SQ_NONE if none. */
int sq_cq_find(const struct sl_sched *s, const char *name);
void sq_model_build(struct sl_sched *s, const struct sl_kueue *k);
void sq_model_free(struct sl_sched *s);
bool sq_ns_matches(const struct sl_kq_selector *sel, const char *ns);
/* Free n label pairs / tolerations and the array (NULL: nothing). */
void sq_kv_free(struct sl_kq_kv *v, size_t n);
void sq_tols_free(struct sl_kq_toleration *t, size_t n);

/* cell.c: sparse per-node storage by FR (see the top of this file) */
extern const struct sq_cell sq_cell_zero;

/* Index of fr's cell in node n, SQ_NONE if it has none. A node's FRs are
 * mostly consecutive numbers (a ClusterQueue's quotas are interned
 * together): those of the leading run are found by a subtraction. */
static inline int sq_cell_find(const struct sq_node *n, int fr)
{
	int d = fr - n->run_fr;
	if ((unsigned)d < (unsigned)n->nrun)
		return d;
	const int *k = n->frk;
	int lo = 0, len = n->ncell;
	while (len > 1) {
		int half = len / 2;
		if (k[lo + half] <= fr)
			lo += half;
		len -= half;
	}
	return len == 1 && k[lo] == fr ? lo : SQ_NONE;
}

/* Node's cell for fr, or sq_cell_zero (borrowed; a write to the node's
 * cells may move it). */
static inline const struct sq_cell *sq_cell(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	int i = sq_cell_find(n, fr);
	return i == SQ_NONE ? &sq_cell_zero : &n->cell[i];
}

/* Kueue's localQuota on a cell: the part of the subtree quota its lending
 * limit keeps back from the parent. */
static inline int64_t sq_cell_local_quota(const struct sq_cell *c)
{
	if (!c->q.has_ll)
		return 0;
	int64_t v = c->subtree - c->q.ll;
	return v > 0 ? v : 0;
}

/* Node's cell for fr, inserted (zero) if missing. Valid until the next
 * insertion into that node. */
struct sq_cell *sq_cell_mut(struct sl_sched *s, int node, int fr);
/* Give every node the cells of its own quota, its ClusterQueue's resource
 * groups and its subtree (after quotas are set and parents linked). */
void sq_cells_build(struct sl_sched *s, const struct sl_kueue *k);
void sq_cells_free(struct sq_node *n);

/* quota.c: Kueue resource-node arithmetic (resource_node.go) */
int64_t sq_local_quota(const struct sl_sched *s, int node, int fr);
int64_t sq_local_available(const struct sl_sched *s, int node, int fr);
int64_t sq_available(const struct sl_sched *s, int node, int fr); /* clamped >= 0 for CQs */
int64_t sq_potential_available(const struct sl_sched *s, int node, int fr);
void sq_add_usage(struct sl_sched *s, int node, int fr, int64_t v);
void sq_remove_usage(struct sl_sched *s, int node, int fr, int64_t v);
bool sq_borrowing_with(const struct sl_sched *s, int node, int fr, int64_t v);
int sq_height_lowest_fit(const struct sl_sched *s, int cq, int fr, int64_t v, bool *may_reclaim);
bool sq_within_nominal(const struct sl_sched *s, int node, const int *frs, int nfrs);
/* Add (+1) or remove (-1) usage q[i] of FR fr[i] in ClusterQueue cq. */
void sq_charge(struct sl_sched *s, int cq, const int *fr, const int64_t *q, int n, int sign);
/* The same for an admitted workload's usage in its CQ. */
void sq_wl_charge(struct sl_sched *s, struct sq_wl *w, int sign);

/* wlq.c: workload table and queues */
struct sq_wl *sq_wt_get(const struct sl_sched *s, uint64_t id);
/* All workloads in arrival order; caller frees the array. */
size_t sq_wt_list(const struct sl_sched *s, struct sq_wl ***out);
void sq_heap_push(struct sl_sched *s, struct sq_cq *c, struct sq_wl *w);
struct sq_wl *sq_heap_pop(struct sl_sched *s, struct sq_cq *c);
void sq_park(struct sl_sched *s, struct sq_cq *c, struct sq_wl *w);
/* The next head of c to nominate, parking those of a parked shape. */
struct sq_wl *sq_pop_head(struct sl_sched *s, struct sq_cq *c);
void sq_enqueue(struct sl_sched *s, struct sq_wl *w);
void sq_set_admitted(struct sl_sched *s, struct sq_wl *w, int cq);
void sq_readmit(struct sl_sched *s, struct sq_wl *w, int cq);
bool sq_wl_before(const struct sl_sched *s, const struct sq_cq *c,
		  const struct sq_wl *a, const struct sq_wl *b);
void sq_heap_fix_all(struct sl_sched *s, struct sq_cq *c);
void sq_wt_clear(struct sl_sched *s);
/* d's node selector and tolerations: copies of p's, with Kubernetes'
 * defaults for what p leaves NULL. Freed with sq_kv_free/sq_tols_free. */
void sq_ps_constraints(struct sq_ps *d, const struct sl_sched_podset *p);

/* equiv.c: scheduling equivalence */
uint64_t sq_wl_hash(const struct sq_wl *w);
bool sq_wl_equiv(const struct sq_wl *a, const struct sq_wl *b);
void sq_park_shape(struct sq_cq *c, struct sq_wl *w);
struct sq_wl *sq_parked_rep(const struct sq_cq *c, const struct sq_wl *w);
bool sq_parked_shape(const struct sq_cq *c, struct sq_wl *w);
void sq_forget_shape(struct sq_cq *c, const struct sq_wl *w);

/* flavor.c: flavor assignment (flavorassigner.go) */
enum sq_pmode { SQ_NOFIT, SQ_NOCAND, SQ_PREEMPT, SQ_RECLAIM, SQ_FIT };
enum sq_amode { SQ_A_NOFIT, SQ_A_PREEMPT, SQ_A_FIT };

struct sq_assign {
	int nps;
	int *flv;                    /* [sum nreq] flavor per ps x res, SQ_NONE */
	enum sq_pmode *mode;         /* [sum nreq] */
	int *tried;                  /* [sum nreq] TriedFlavorIdx */
	int *off;                    /* [nps+1] offsets into the arrays */
	enum sq_amode rep;           /* representative mode */
	int borrowing;               /* max borrowing level */
	int nuse;
	int *use_fr;                 /* aggregated usage per FR */
	int64_t *use_q;
	struct sq_reason *rv;        /* why flavors did not do, in pod set order */
	size_t nrv, caprv;
	size_t cap, capps, capuse;   /* capacities: kept across cycles (scratch) */
	const char *nofit_reason;    /* WaitingForQuota / ExceedsMaxQuota / NoMatchingFlavor */
	bool pending_flavors;        /* scan stopped before the last flavor */
	int failed_ps;               /* SQ_NONE or first pod set that failed */
	const int32_t *counts;       /* [nps] pods per pod set; NULL = requested */
};

void sq_assign_init(struct sq_assign *a);
void sq_assign_free(struct sq_assign *a);
/* Buffers of *a are reused: sq_assign_flavors() keeps their capacity.
 * counts: pods per pod set to assign for (partial admission), NULL for
 * the requested counts; borrowed, kept in a->counts. */
void sq_assign_flavors(struct sl_sched *s, struct sq_wl *w, int cq, const int32_t *counts,
		       struct sq_assign *a);
/* A NoSchedule/NoExecute taint x tolerated by pod set p or flavor f (may
 * be NULL); other effects always are. */
bool sq_taint_tolerated(const struct sl_kq_taint *x, const struct sq_ps *p,
			const struct sl_kq_flavor *f);
/* true when pod set p may use flavor fl; else fills *why (if not NULL). */
bool sq_check_flavor(const struct sl_sched *s, int fl, const struct sq_ps *p,
		     struct sq_reason *why);
struct sq_needbuf {                  /* FRs assigned in a preempting mode */
	int *v;
	int n;
	size_t cap;
};
/* Preemption targets of an assignment in Preempt mode (GetTargets, classical
 * or fair sharing, as the model says). */
void sq_assign_targets(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		       struct sq_needbuf *need, struct sq_targets *t);

/* info.c: positions */
/* w, in c's heap or parked, is about to leave them. When c's positions are
 * up to date, w's rank is counted out and true returned: once w is gone the
 * caller sets c->posgen = c->qgen, and the positions stay valid. */
bool sq_pos_drop(struct sq_cq *c, const struct sq_wl *w);
void sq_pos_free(struct sq_pos *p);

/* msg.c: pending-reason text, formatted on demand */
void sq_set_status(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sq_status_static(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		      const char *text);
/* Copy a's reasons into w; npre == SIZE_MAX: no "Pending the preemption". */
void sq_status_assign(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		      const struct sq_assign *a, size_t npre);
void sq_status_copy(struct sq_wl *w, const struct sq_wl *src);
/* The message of w (borrowed, NULL if none), formatting it if needed. */
const char *sq_status_message(const struct sl_sched *s, struct sq_wl *w);

/* preempt.c: classical preemption, and the primitives fair sharing uses too */
/* A preemptor: workload w into cq, requests use_fr/use_q, the frs that need
 * preemption need[]. Classical and fair-sharing preemption both take it. */
struct sq_preq {
	struct sl_sched *s;
	struct sq_wl *w;
	int cq;
	const int *use_fr;
	const int64_t *use_q;
	int nuse;
	const int *need;
	int nneed;
};
/* Kueue's GetTargets without fair sharing: appends p's victims to t;
 * returns t->n. */
size_t sq_classical_targets(const struct sq_preq *p, struct sq_targets *t);
void sq_pscratch_free(struct sq_pscratch *p);
void sq_targets_push(struct sq_targets *t, struct sq_wl *w, enum sl_sched_preempt_reason r);
/* Does w use any of the FRs need[]? */
bool sq_uses_needed(const struct sq_wl *w, const int *need, int nneed);
bool sq_policy_allows(enum sl_kq_policy p, const struct sq_wl *preemptor, const struct sq_wl *cand);
void sq_fill_back(struct sl_sched *s, int cq, const int *use_fr, const int64_t *use_q,
		  int nuse, bool borrow, struct sq_targets *t);
bool sq_fits_with(struct sl_sched *s, int cq, const int *use_fr, const int64_t *use_q,
		  int nuse, bool allow_borrow);
int sq_cand_cmp(const struct sl_sched *s, int cq, const struct sq_wl *a, const struct sq_wl *b);

/* fairshare.c */
/* Fair-sharing iterator: index of the next entry to process (tournament
 * over each cohort tree, with the current snapshot), -1 when all taken. */
struct sq_fentry {
	struct sq_wl *w;
	int cq;
	const int *use_fr;
	const int64_t *use_q;
	int nuse;
	bool taken;
};
int sq_fair_pick(struct sl_sched *s, struct sq_fentry *e, size_t ne);
size_t sq_fair_targets(const struct sq_preq *p, struct sq_targets *t);

/* afs.c. The ordering key is inline here: the heap compare (wlq.c) and
 * preemption read it, and afs.c, which re-heapifies after a change, sits
 * above the queues. */
static inline bool sq_afs_on(const struct sl_sched *s, const struct sq_cq *c)
{
	return s->afs_enable && c->afs;
}

static inline double sq_lq_afs_usage(const struct sl_sched *s, int lq)
{
	if (lq == SQ_NONE)
		return 0;
	const struct sq_lq *l = &s->lq[lq];
	if (l->weight_milli <= 0)
		return INFINITY;
	return (l->afs_consumed + l->afs_penalty) * 1000.0 / (double)l->weight_milli;
}

void sq_afs_on_admit(struct sl_sched *s, struct sq_wl *w);

/* partial.c: partial admission (podset_reducer.go) */
/* Largest counts between min_count and count whose assignment fits or
 * preempts with targets; on success swaps them into *a and *t, copies the
 * counts to *cnt (grown as needed) and returns true; else leaves a and t. */
bool sq_partial_search(struct sl_sched *s, struct sq_wl *w, int cq, struct sq_assign *a,
		       struct sq_targets *t, int32_t **cnt, size_t *capcnt);
void sq_rscratch_free(struct sq_rscratch *r);

/* cycle.c */
void sq_cscratch_free(struct sq_cscratch *x);
/* Append w's admission (already accounted) to d. */
void sq_decisions_add_admit(struct sl_sched *s, struct sl_sched_decisions *d, struct sq_wl *w);

/* estimate.c: the plan (sl_sched_estimate) */
/* Pending workloads of c in queue order (heap and parked, as Kueue's
 * visibility API orders them); caller frees. */
size_t sq_cq_pending(struct sl_sched *s, const struct sq_cq *c, struct sq_wl ***out);

/* backfill.c: admit what may go ahead of blocked work; returns how many. */
int sq_backfill(struct sl_sched *s, int64_t now_ms, struct sl_sched_decisions *out);
/* With backfill, the cycle admits only what does not delay those ahead
 * (BestEffortFIFO would admit whatever fits behind a blocked head; a head
 * may borrow what a higher workload of the cohort waits for).
 * sq_backfill_prepare() plans at the start of a cycle (when such a queue
 * has work waiting behind another, and something blocked);
 * sq_backfill_gate() says whether the cycle may admit (or preempt for) w
 * in cq, borrowing at that height: 1 yes, 0 no (park it), -1 not before
 * the next cycle has a plan. */
struct sq_bfgate;
void sq_backfill_prepare(struct sl_sched *s, int64_t now_ms);
int sq_backfill_gate(struct sl_sched *s, const struct sq_wl *w, int cq, int borrowing,
		     int64_t now_ms);
/* A head of cq's tree did not get in, this cycle (cycle.c). */
void sq_backfill_note(struct sl_sched *s, int cq);
void sq_bfgate_free(struct sq_bfgate *g);
/* Forget what the last pass and the gate saw (a new model, a switch). */
void sq_backfill_reset(struct sl_sched *s);
/* Backfill on for c (and c active)? */
bool sq_backfill_on(const struct sl_sched *s, const struct sq_cq *c);
/* The longest time limit (ms) with which pending w would be backfilled now
 * (after sl_sched_estimate()); 0 when none would. */
int64_t sq_backfill_window(struct sl_sched *s, struct sq_wl *w, int64_t now_ms);

/* tas.c, tas_admit.c: topology-aware scheduling */
void sq_tas_build(struct sl_sched *s, const struct sl_kueue *k);
void sq_tas_free(struct sl_sched *s);
void sq_tas_ps_copy(struct sq_ps *d, const struct sl_sched_podset *p);
void sq_tas_ps_free(struct sq_ps *p);
void sq_tas_charge(struct sl_sched *s, struct sq_wl *w, int sign);
bool sq_tas_check_flavor(struct sl_sched *s, int cq, int fl, const struct sq_ps *p,
			 struct sq_reason *why);
void sq_tas_nominate(struct sl_sched *s, struct sq_wl *w, int cq, struct sq_assign *a,
		     const int32_t *counts);
bool sq_tas_fits_now(struct sl_sched *s, const struct sq_wl *w);
const char *sq_tas_msg(const struct sl_sched *s, int i);
/* sq_assign_targets for a preemptor whose pod sets need a topology: the
 * preemption's fit test also places them (Kueue's workloadFits). */
void sq_tas_targets(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		    struct sq_needbuf *need, struct sq_targets *t);
/* A preempting workload's placement (targets gone, or empty nodes without
 * targets), reserved for the rest of the cycle; released at its end. */
void sq_tas_preempt_placement(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
			      const struct sq_targets *t);
void sq_tas_reserve(struct sl_sched *s, struct sq_wl *w);
void sq_tas_unreserve(struct sl_sched *s);
/* true when no preemptor is being searched for, or its pods fit the nodes */
bool sq_tas_preemptor_fits(struct sl_sched *s);
/* w holds a topology assignment (its release frees node capacity). */
bool sq_tas_holds(const struct sq_wl *w);
/* Topology requests in the scheduling-equivalence shape (equiv.c). */
uint64_t sq_tas_ps_hash(const struct sq_ps *p);
bool sq_tas_ps_equal(const struct sq_ps *a, const struct sq_ps *b);

#endif
