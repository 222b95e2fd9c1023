/* srun_remote.h - srun in a Kubernetes job's pod: each task is started by
 * the step agent of the pod its node names (sluice-stepd --agent, over
 * agent_wire.h), through a relay process srun forks per task. The relay
 * stands for the task in srun_step.c: its stdin, stdout and stderr are the
 * task's pipes, the signals srun sends it go to the task, and it ends with
 * the task's wait status (a signal re-raised), so labels, Ctrl-C, -K and
 * exit codes are the local path's. The cost: one process and one TCP
 * connection per task on pod 0. */
#ifndef SRUN_REMOTE_H
#define SRUN_REMOTE_H

#include <stdint.h>

/* What every relay needs: set once by srun when it runs in a pod. */
struct srun_remote {
	const char *secret;       /* $SLUICE_JOB_SECRET */
	const char *hosts;        /* $SLUICE_AGENT_HOSTS (tests): name -> address */
	int port;
};

/* 1 when srun runs in a Sluice pod ($SLUICE_AGENT_PORT set by the
 * renderer); r filled. */
int srun_remote_detect(struct srun_remote *r);

/* In the forked relay, with fds 0-2 the task's: start argv with env in cwd
 * on node through its agent, relay to the end. Never returns. */
void srun_remote_task(const struct srun_remote *r, const char *node, char **argv, char **env,
		      const char *cwd) __attribute__((noreturn));

/* In a pod that cannot reach sluiced, a step runs unrecorded: the id of
 * job's next such step, from a counter its srun and pbsdsh calls share in
 * pod 0 ($TMPDIR). */
uint32_t srun_remote_step_id(uint64_t job);

#endif
