/* proctree.h - a process and what it started, read from /proc: the tree
 * (through /proc/PID/task/TID/children) and the sums of its processes'
 * sizes, faults, CPU and I/O. The job's supervisor samples its job with it
 * (sstat's batch step), srun its step's tasks; sluiced samples a running
 * srun step's tasks for sstat. */
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
	int64_t reaped_ticks; /* of cpu_ticks, what the processes' reaped children used */
	int nprocs;
	char pids[128]; /* "12859,12857": the newest first, as Slurm lists them */
};

/* The sums over the tree (root included when with_root). A process of
 * another user counts without its I/O when the caller may not read it. */
void sl_proc_sample_tree(pid_t root, int with_root, struct sl_proc_sample *s);

/* A batch job's tree from its script (root) down: all its processes into
 * *all, and into *own those that are not an srun step's tasks: the
 * children of a process named srun, and what they started, are the
 * step's (its srun measures them, bin/srun_use.c); srun itself is the
 * script's, as in Slurm, where the tasks run under the step's slurmstepd.
 * The cost of telling them by name: a program of the script named srun
 * has its children left out of own, and srun's CPU is its own without the
 * tasks it reaped; what the script reaped of an srun that ended, its
 * tasks' CPU among it, is the script's (the kernel adds a child's time to
 * its parent's). */
void sl_proc_sample_job(pid_t root, struct sl_proc_sample *all, struct sl_proc_sample *own);

#endif
