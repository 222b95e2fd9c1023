/* srun_step_int.h - what srun_step.c (the step's loop and end) shares
 * with srun_task.c (starting its tasks), which pbsdsh_tm.c also starts
 * its copies with. Not a library interface. */
#ifndef SRUN_STEP_INT_H
#define SRUN_STEP_INT_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "srun_io.h"
#include "srun_layout.h"
#include "srun_opt.h"
#include "srun_pty.h"

#define KILL_WAIT_MS 30000 /* Slurm's default KillWait between SIGTERM and SIGKILL */

/* Why the step ended early: scancel N.S, -t, -K, -W, a second Ctrl-C, a
 * task killed by SIGKILL or SIGTERM (Slurm's srun then ends the rest). */
enum end_why {
	END_NONE = 0, END_CANCEL, END_TIME, END_BAD_EXIT, END_WAIT, END_INTR, END_FORCE, END_TERM
};

struct run {
	const struct sl_srun_opts *o;
	const struct sl_srun_layout *l;
	pid_t *pid;               /* per task; 0 once reaped */
	char **path;              /* per task: the program found */
	int *status;              /* its wait status */
	char *reported;           /* its end is told (report()) */
	char *late;               /* it ended after srun began to end the step */
	int running;
	struct srun_stream *st;   /* 2 per task: stdout, stderr */
	struct srun_io io;
	struct srun_stdin in;
	enum end_why why;
	struct srun_pty pty;      /* --pty: task 0's terminal */
	struct srun_pmix *pmix;   /* --mpi=pmix: the ranks' PMIx server */
	struct srun_pmi2 *pmi2;   /* --mpi=pmi2: their PMI server (srun_pmi2.h) */
	struct srun_use *use;     /* what the tasks use; NULL in a pod */
	int spare;                /* 1 + the rank that called MPI_Abort; 0: none */
	int told_signal;          /* slurmstepd's line for scancel -s TERM/KILL said */
	struct rlimit nofile;     /* srun's own, for the tasks (srun raises its own) */
	int64_t kill_ms, limit_ms, wait_ms, intr_ms, done_ms;
	int64_t watch_ms;         /* next look at srun's own allocation */
	int64_t force_ms;         /* a task died of SIGKILL/SIGTERM: end the rest then */
	int64_t bad_ms;           /* -K: a task failed; end the rest then, if any is left */
	int64_t take_ms;          /* in a pod: next ask for scancel's signals */
	/* In task t's child, its program not run (errno e): say so and _exit.
	 * NULL: slurmstepd's execve() line, e as the exit code. */
	void (*exec_failed)(const struct run *r, int t, char **argv, int e);
	int64_t use_ms;           /* next sample of the tasks' use; 0: none */
};

/* Every signal the parent catches (srun's, pbsdsh's) back to its
 * default, SIGPIPE too, the mask empty: in a task's child before its
 * exec, so that no signal runs the parent's handler meanwhile. */
void srun_task_signals_default(void);

/* Start task t with argv over the step's environment base: 0, or -1 with
 * errno (the task not started). */
int srun_task_start(struct run *r, int t, char **argv, char *const *base);
/* Task t's argv: srun's command, or its line of the --multi-prog file;
 * NULL when that has none. Caller frees. */
char **srun_task_argv(const struct run *r, int t, const char *mp_text);
/* 1 in a pod, where the tasks go through the step agents. */
int srun_task_remote(void);

#endif
