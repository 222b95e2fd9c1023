/* sim_int.h - state shared by sim.c (loading, running) and sim_report.c
 * (rendering, verifying). Internal to libbatch. */
#ifndef SL_SIM_INT_H
#define SL_SIM_INT_H

#include <stddef.h>
#include "sched/sched.h"

struct sl_ydocs;
struct sl_ynode;
struct sl_kueue;

#define SIM_BUF_CAP (64u << 20)

struct sim_wl {
	struct sl_sched_wl w;
	struct sl_sched_podset *ps;
	struct sl_sched_topo_req *topo;  /* [npodsets] pod sets' TAS requests */
	char *ns, *queue, *admit_cq;
	struct sl_sched_flavor *admit;   /* initial admission */
	size_t nadmit;
	int32_t *admit_counts;           /* its pods per pod set, NULL = as requested */
	const struct sl_ynode *admit_topo; /* initial admission's topology per pod set */
	const struct sl_ynode **ps_topo;   /* ... or flavors.<ps>.topology, by pod set */
	const char **ps_topo_name;
	size_t nps_topo;
	int preempted;
	char *preempt_msg;
	const char *preempt_reason;
	/* timed scenarios (sim_clock.c): ms; -1 unset */
	int64_t limit_ms, runtime_ms;
	int64_t start_ms, end_ms;        /* last admission; finish */
	int64_t first_est_ms;            /* the estimate when it arrived, SL_SCHED_NEVER: none */
	int running;
};

struct sl_sim {
	struct sl_ydocs *docs;
	const struct sl_ynode *root;
	const char *name;
	struct sl_kueue *k;
	struct sl_sched *s;
	struct sim_wl *wl;
	size_t nwl;
	const struct sl_ynode *expect;
	int cycles;
	int timed;                       /* some workload has timeLimit or runtime */
};

/* sim_clock.c: a timed scenario's run (arrivals at `created`, ends after
 * `runtime` or `timeLimit`), its report and its expectations. */
int sim_clock_run(struct sl_sim *m);
/* Fold one fixpoint's decisions into the workloads (at t ms). */
void sim_absorb(struct sl_sim *m, struct sl_sched_decisions *d, int64_t t);
struct sl_buf;
/* s as a JSON string (sim_report.c). */
void sim_json_str(struct sl_buf *b, const char *s);
void sim_clock_report_text(struct sl_sim *m, struct sl_buf *b);
void sim_clock_report_json(struct sl_sim *m, struct sl_buf *b);
/* 1 when expect.started / expect.estimated do not hold, with lines in b. */
int sim_clock_verify(struct sl_sim *m, struct sl_buf *b);
struct sl_err;
/* sim_tas.c: topology-aware scheduling in scenarios */
int sim_load_topology(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *ps,
		      struct sl_sched_podset *p, struct sl_sched_topo_req *t, const char *path);
int sim_feed_topology(struct sl_sim *m, struct sim_wl *w, struct sl_err *err);
/* What load_layers copied into a pod set's request (nothing without layers). */
void sim_topo_req_free(struct sl_sched_topo_req *t);
void sim_tas_text(struct sl_sim *m, const struct sim_wl *w, struct sl_buf *b);
/* ,"topology":{"levels":[..],"domains":[{"values":[..],"count":N}]} of pod
 * set ps, when it has one. */
void sim_tas_json(struct sl_sim *m, const struct sim_wl *w, const char *ps, struct sl_buf *b);
int sim_tas_verify(struct sl_sim *m, const struct sim_wl *w, const char *wname, const char *ps,
		   const struct sl_ynode *ex, struct sl_buf *b);

#endif
