/* exec_local_dir.h - the local executor's reading of a job's directory
 * (layout in jobdir.h), apart from following the supervisor (exec_local.c). */
#ifndef SL_EXEC_LOCAL_DIR_H
#define SL_EXEC_LOCAL_DIR_H

#include <stdint.h>
#include <sys/types.h>
#include "jobdir.h"

/* 1: a supervisor holds dir's lock; 0: nobody does (or no lock file). */
int sl_exec_local_lock_held(const char *dir);

/* The end of job id, whose supervisor is gone (the lock is free): its
 * result; NODE_FAIL when it started and left none (what is left of its
 * process group is killed); PENDING when it never started. */
void sl_exec_local_outcome(const char *dir, uint64_t id, struct sl_exec_result *r);

/* The supervisor as stepd.pid names it: 0, or -SL_ENOENT when it has not
 * written one yet (or it names no process: a pid or start time of 0). */
int sl_exec_local_pidfile(const char *dir, pid_t *pid, unsigned long long *start);

/* The job's process group as job.pgid records it; 0 when none is; -1 when
 * its number now names another process (the group is gone, and signalling
 * the number could reach whoever took it). */
pid_t sl_exec_local_pgid(const char *dir);

#endif
