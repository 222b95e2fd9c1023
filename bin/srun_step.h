/* srun_step.h - one job step on this machine: its tasks started as srun's
 * children (the caller's identity, each task its own process group inside
 * the job's session, which sluice-stepd kills whole at the job's end), their
 * streams relayed, signals passed on, Slurm's messages and exit code. */
#ifndef SRUN_STEP_H
#define SRUN_STEP_H

#include "srun_layout.h"
#include "srun_opt.h"
#include <stdint.h>
#include "step.h"

/* Run the laid-out step (l->step_id set) with base environment env; the
 * multi-prog file's text when o->multi_prog. Fills rec's end (state,
 * exit_code, exit_signal) and returns srun's exit status. */
int srun_step_run(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		  char *const *env, const char *mp_text, struct sl_step *rec);

/* srun's own allocation (outside a batch script): its tasks are not in the
 * job's session, so srun watches the job and aborts the step when the job
 * ends (scancel, its time limit). 0: none. */
void srun_step_watch(uint64_t job);

/* The tasks' user (uid, gid, name) and the caller's nice value into l,
 * for the variables slurmstepd sets (a step of salloc's has no batch
 * environment to inherit them from). */
void srun_task_user(struct sl_srun_layout *l);

/* srun's address and a port of its own into l, for the tasks'
 * SLURM_LAUNCH_NODE_IPADDR and SLURM_SRUN_COMM_PORT. Slurm's srun listens
 * there for slurmstepd's messages; Sluice's tasks report through their
 * pipes, so the port is a TCP port srun binds (and keeps, close-on-exec,
 * until it exits) without listening: a real number, held by srun, that
 * no other process gets while the step runs, and a connection to it is
 * refused. The address: 127.0.0.1 where the tasks run here, the host's
 * own in a pod (the tasks run in other pods). */
void srun_task_launcher(struct sl_srun_layout *l);

struct srun_remote;
/* In a Kubernetes pod: the tasks start through the step agents
 * (srun_remote.h); r borrowed for the process's life. */
void srun_step_remote(const struct srun_remote *r);

#endif
