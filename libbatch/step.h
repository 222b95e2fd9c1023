/* step.h - a job step's record (srun's N.0, N.1, ...) as sluiced stores it
 * and commands read it, and its JSON form on the wire (PROTOCOL.md, types
 * 24-27). The engine never sees steps: a step lives inside its job's
 * allocation, which srun checks. */
#ifndef SL_STEP_H
#define SL_STEP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>
#include "err.h"
#include "jobstate.h"
#include "usage.h"

/* sluiced -> srun: queued (sigqueue) with the signal to pass to every
 * task as its value; 0 cancels the step (scancel N.S). */
#define SL_SRUN_SIG_STEP (SIGRTMIN + 3)

struct sl_step {
	uint64_t job_id;
	uint32_t step_id;
	char *name;
	enum sl_jobstate state;   /* RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT */
	int exit_code, exit_signal;
	int64_t start_time, end_time; /* unix seconds; end 0 while running */
	int ntasks, nnodes, cpus;
	int overlap;              /* --overlap: shares CPUs other steps hold */
	int64_t mem;              /* MiB a node of it holds (--mem, or --mem-per-cpu times
	                           * its CPUs on its fullest node); 0: none asked */
	char *nodelist;
	uid_t uid;
	int64_t cancelled_by;     /* the uid whose scancel ended it; -1: none */
	pid_t pid;                /* srun's, for scancel N.S; 0: unknown */
	int64_t time_limit;       /* srun -t, minutes; 0: none (the job's) */
	char *dist;               /* the tasks' layout, Slurm's -m words ("block:cyclic") */
	char *cpu_freq;           /* --cpu-freq as SLURM_CPU_FREQ_REQ writes it; NULL: none */
	char *srun_host;          /* where its srun runs */
	unsigned long long pid_start; /* its start time (jobdir.h's sl_proc_starttime) */
	/* What its tasks used, measured by its srun and told with its end:
	 * user_usec and sys_usec summed over the tasks, `tasks` task by task
	 * (usage.h); all 0: not measured (in a pod, or srun died first). */
	struct sl_usage use;
	/* Its srun ran in the job's batch script (its session): the tasks'
	 * use is inside the batch step's measured figures, from which sacct
	 * takes it out; 0: outside them (salloc, srun's own allocation,
	 * srun --jobid from elsewhere), so sacct adds it to the job's. */
	int in_batch;
};

void sl_step_clear(struct sl_step *s);
void sl_step_free_array(struct sl_step *v, size_t n);
/* The wire object. pid_start is the daemon's own; the pid goes out for
 * scontrol's SrunHost:Pid=, and sluiced takes a new step's from the
 * connection, never from the object. */
json_object *sl_step_to_json(const struct sl_step *s);
/* From the wire object; missing members stay zero. */
int sl_step_from_json(json_object *o, struct sl_step *s, struct sl_err *err);

#endif
