/* scontrol_jobs.h - scontrol's verbs that change jobs (bin/scontrol_jobs.c). */
#ifndef SCONTROL_JOBS_H
#define SCONTROL_JOBS_H

#include "scontrol_fmt.h"

#define CONNECT_FAIL "Unable to contact slurm controller (connect failure)"

/* VERB JOB_LIST... (hold, uhold, release, requeue, requeuehold, top,
 * suspend, resume): Slurm's words and exit status. */
int scontrol_control(const struct sl_scontrol_verb *v, int argc, char **argv);
/* update JobId=LIST KEY=VALUE... */
int scontrol_update(int argc, char **argv);

#endif
