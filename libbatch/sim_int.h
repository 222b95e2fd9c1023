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
	char *ns, *queue, *admit_cq;
	struct sl_sched_flavor *admit;   /* initial admission */
	size_t nadmit;
	int32_t *admit_counts;           /* its pods per pod set, NULL = as requested */
	int preempted;
	char *preempt_msg;
	const char *preempt_reason;
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
};

#endif
