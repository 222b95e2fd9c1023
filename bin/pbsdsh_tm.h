/* pbsdsh_tm.h - pbsdsh's copies run as OpenPBS's task manager runs them
 * for it: each copy a task of the job step pbsdsh recorded, started by
 * srun's task start (srun_task.c: its own process group, its variables,
 * its output relayed whole lines at a time, through the pod's step agent
 * in a Kubernetes job); its spawn acknowledged, then its obit awaited,
 * with pbsdsh's lines: -v's, a task's non-zero exit status, the kills a
 * HUP, INT or TERM makes. */
#ifndef PBSDSH_TM_H
#define PBSDSH_TM_H

#include "pbsdsh.h"
#include "srun_layout.h"
#include "step.h"

struct pbsdsh_tm {
	const char *id;                /* argv[0]: pbsdsh's name in its lines */
	const struct sl_pbsdsh_opts *o;
	const struct sl_srun_layout *l; /* the step, its id set; copy c is task c */
	const int *vnode_of;           /* per copy */
	const int *node_of;            /* per vnode: the job's node */
	char *const *env;              /* the copies' environment, before their own */
	int ready_fd;                  /* -o: a byte written here once the spawns are
	                                * acknowledged, when pbsdsh would exit; -1: none */
};

/* Run the copies and fill rec's end (state, exit_code, exit_signal).
 * pbsdsh's exit status: 0 (whatever the copies' statuses, as OpenPBS's),
 * or 1 once HUP, INT or TERM had the copies killed, which pbsdsh does not
 * wait for. */
int pbsdsh_tm_run(const struct pbsdsh_tm *tm, struct sl_step *rec);

#endif
