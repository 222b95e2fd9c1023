/* agent.h - `sluice-stepd --agent -- COMMAND...`: the step agent of a
 * Kubernetes job's pod (README "Job steps on Kubernetes").
 *
 * It is the pod's entrypoint wrapper: it runs COMMAND (the pod's own
 * command: the batch script on index 0, the idle loop elsewhere) as its
 * child and, beside it, listens on $SLUICE_AGENT_PORT (6818) for srun's
 * launch requests (agent_wire.h), each authenticated with the job's secret
 * ($SLUICE_JOB_SECRET, from the job's Kubernetes Secret). When COMMAND
 * exits, the agent ends the tasks it started (SIGTERM, SIGKILL 2 s later)
 * and exits with COMMAND's status, so the pod ends as it would without it.
 * Signals the pod gets (SIGTERM on deletion) go to COMMAND's process
 * group (the script and the srun it runs).
 *
 * `sluice-stepd --install DEST`: copy this program to DEST (mode 0755):
 * the init container's whole work, so the agent image needs nothing else. */
#ifndef SL_AGENT_H
#define SL_AGENT_H

/* argv: what follows "--agent" ("--" optional before COMMAND). The exit
 * status of the pod's command. */
int agent_main(int argc, char **argv);
/* Copy /proc/self/exe to dest. 0, or 1 with a message. */
int agent_install(const char *dest);

/* One connection, served to its end in this (forked) process: 0 or 1. */
int agent_task_serve(int sock, const char *secret);
/* Every signal back to its default disposition and none blocked. */
void sl_signals_default_all(void);

#endif
