/* proctree.h - a process and what it started, read from /proc: the tree
 * (through /proc/PID/task/TID/children) and the sums of its processes'
 * sizes, faults, CPU and I/O. The job's supervisor samples its job with it
 * (sstat's batch step); sluiced samples a running srun step's tasks. */
#ifndef SL_PROCTREE_H
#define SL_PROCTREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SL_PROC_TREE_MAX 4096 /* processes walked at most: a fork bomb costs a bounded walk */

/* The tree from root down (root first when with_root), at most max
 * entries: how many. */
size_t sl_proc_tree(pid_t root, int with_root, pid_t *list, size_t max);

/* /proc/PID/stat read into buf: what follows the command name (which may
 * hold spaces and parentheses), from the space before the state field; NULL
 * when the process is gone. */
const char *sl_proc_stat_tail(pid_t pid, char *buf, size_t len);

/* The parent of pid, from /proc/PID/stat; -1 when it is gone. */
pid_t sl_proc_parent(pid_t pid);

struct sl_proc_sample {
	int64_t rss_kib, vsize_kib, majflt, cpu_ticks, rchar, wchar;
	int nprocs;
	char pids[128]; /* "12859,12857": the newest first, as Slurm lists them */
};

/* The sums over the tree (root included when with_root). A process of
 * another user counts without its I/O when the caller may not read it. */
void sl_proc_sample_tree(pid_t root, int with_root, struct sl_proc_sample *s);

#endif
