/* pbsdsh.h - OpenPBS's pbsdsh (src/cmds/pbsdsh.c) in Sluice's terms: its
 * command line, read by glibc's getopt() as the original's is (options
 * permuted: the `--` before the program is what keeps the program's own
 * options), its usage text; the job's vnodes as tm_nodeinfo() lists them
 * (one per line of PBS_NODEFILE: each node's MPI processes, in order);
 * the vnode each copy of the program goes to; the variables MOM gives a
 * task it spawns; and the job step the copies make. Pure, but for -h's
 * look-up of an IPv4 address. */
#ifndef SL_PBSDSH_H
#define SL_PBSDSH_H

#include <stddef.h>
#include "err.h"
#include "srun_layout.h"

/* More vnodes or copies than this are refused before anything is
 * allocated: pbsdsh's own "malloc of task ids failed". */
#define SL_PBSDSH_MAX 65536

/* MOM's task numbers: the job script is task 1, a job's spawns 2, 3, ... */
#define SL_PBSDSH_FIRST_TASK 2

struct sl_pbsdsh_opts {
	int copies;               /* -c; -1: not given */
	int node;                 /* -n, or the vnode -h named; -1: neither */
	int sync;                 /* -s: one copy at a time */
	int verbose;              /* -v */
	int no_obit;              /* -o: the copies are not waited for */
	char **argv;              /* the program and its arguments (borrowed, NULL-ended) */
	int argc;
	char *text;               /* refused: what pbsdsh writes to stderr, getopt's
	                           * lines then the usage; NULL otherwise */
};

/* -h HOST's vnode: the index of the first line of the job's node file
 * naming it (sl_pbsdsh_host_line()), or -1. */
typedef int (*sl_pbsdsh_host_fn)(const char *host, void *ctx);

/* Parse argv as pbsdsh's getopt("c:n:h:svo") loop does, -h looked up
 * through host(ctx) when it comes. argv is permuted in place (getopt's).
 * -SL_EINVAL with o->text set when pbsdsh prints its usage: an unknown
 * option or a missing value, -c or -n below 0, -h naming no node, -c with
 * -n (or -h), or no program. pbsdsh's `--version` alone is the caller's.
 * Clear o with sl_pbsdsh_opts_clear() in every case. */
int sl_pbsdsh_parse(int argc, char **argv, sl_pbsdsh_host_fn host, void *ctx,
		    struct sl_pbsdsh_opts *o, struct sl_err *err);
void sl_pbsdsh_opts_clear(struct sl_pbsdsh_opts *o);

/* pbsdsh's usage text, each line naming prog (its argv[0]). Caller frees. */
char *sl_pbsdsh_usage(const char *prog);

/* The job's vnodes: nnodes nodes (SLURM_JOB_NODELIST's order), each with
 * its count of tasks_per_node ("2(x2),1", SLURM_TASKS_PER_NODE: the lines
 * PBS_NODEFILE has for it; 1 each when NULL). *node_of (caller frees) maps
 * vnode i to its node. The count, or -SL_EINVAL (a bad list, over
 * SL_PBSDSH_MAX). */
int sl_pbsdsh_vnodes(size_t nnodes, const char *tasks_per_node, int **node_of,
		     struct sl_err *err);

/* The vnode each copy goes to, as pbsdsh's spawn loop picks it: -n's one
 * copy on vnode n (modulo nvnodes), -c's copies on the first vnodes round
 * and round, else one per vnode. The copies' count with *vnode_of (caller
 * frees; NULL when 0), or -SL_ETOOBIG over SL_PBSDSH_MAX. */
int sl_pbsdsh_plan(const struct sl_pbsdsh_opts *o, int nvnodes, int **vnode_of,
		   struct sl_err *err);

/* What MOM's start_process() sets in spawned task `copy` on vnode `vnode`
 * of node `node`: PBS_TASKNUM (the task's id, "%08X"), PBS_NODENUM (its
 * node's index among the job's) and, as Torque's MOM, PBS_VNODENUM. "K=V"
 * entries, NULL-ended; caller frees with sl_strv_free(). */
char **sl_pbsdsh_task_env(int copy, int vnode, int node);

/* The step of ncopies copies in allocation a, copy c on node
 * node_of[vnode_of[c]] as its task c: the step's nodes are the ones the
 * copies use, in the job's order; its distribution "block" when the
 * copies go in node order, else "arbitrary". No CPUs of its own (MOM
 * counts none for a task): the caller records it as overlapping. Clear
 * with sl_srun_layout_clear(). */
void sl_pbsdsh_layout(const struct sl_srun_alloc *a, const int *node_of, const int *vnode_of,
		      int ncopies, struct sl_srun_layout *l);

/* -h's match, as pbsdsh's find_hostline(): the index of the first of the
 * n lines (PBS_NODEFILE's, their newline dropped) that is host, or has
 * host's IPv4 address when host is one, or is host without ".domain"
 * (domain as getdomainname() gives it, else the host name's). -1: none;
 * -2: a line's address could not be looked up (pbsdsh exits 255). */
int sl_pbsdsh_host_line(char *const *lines, size_t n, const char *host, const char *domain);

#endif
