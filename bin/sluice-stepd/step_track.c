/* step_track.c - the processes of a job, found from its supervisor down.
 * srun starts each task as the leader of its own process group (a signal
 * for the step reaches what the task started), inside the batch script's
 * session. Signalling the job's process group alone would miss them, so
 * the supervisor also signals every process group of that session among
 * its descendants: the session is the job, as Slurm's proctrack/pgid takes
 * the process group. The supervisor is a child subreaper (stepd.c), so
 * what the job leaves behind when a parent exits is reparented to it and
 * stays in the walk. The walk reads /proc/PID/task/TID/children from the
 * supervisor down: its cost is the job's own processes (a `true` job's end
 * reads one file), where a walk of all of /proc cost ~0.35 ms per job end
 * with 150 processes on the host and grew with everything else running. */
#include "stepd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proctree.h"
#include "xalloc.h"

/* Fields 5 (pgrp) and 6 (session) of /proc/<pid>/stat; -1 if gone. */
static int stat_ids(pid_t pid, pid_t *pgrp, pid_t *sid)
{
	char buf[1024];
	const char *p = sl_proc_stat_tail(pid, buf, sizeof(buf));
	int pg, se;

	if (p == NULL || sscanf(p, " %*c %*d %d %d", &pg, &se) != 2)
		return -1;
	*pgrp = pg;
	*sid = se;
	return 0;
}

void stepd_steps_kill(pid_t session, int sig, int own)
{
	pid_t *list, *done;
	size_t n, ndone = 0;

	if (session <= 0)
		return;
	list = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*list));
	done = sl_xmalloc(SL_PROC_TREE_MAX * sizeof(*done));
	n = sl_proc_tree(getpid(), 0, list, SL_PROC_TREE_MAX);
	for (size_t i = 0; i < n; i++) {
		pid_t pg, sid;
		size_t k;
		if (stat_ids(list[i], &pg, &sid) != 0 || sid != session || (pg == session && !own) ||
		    pg <= 0)
			continue;
		for (k = 0; k < ndone && done[k] != pg; k++)
			;
		if (k < ndone)
			continue;
		done[ndone++] = pg;
		(void)kill(-pg, sig);
	}
	free(done);
	free(list);
}
