/* replay_load.h - read a trace for `sluice replay`: the output of
 * `sacct -a -P -o JobID,User,Account,Partition,QOS,Submit,Start,End,
 * Timelimit,ReqTRES,State` (any order of columns, header required), or the
 * Parallel Workloads Archive's Standard Workload Format (SWF). */
#ifndef SL_REPLAY_LOAD_H
#define SL_REPLAY_LOAD_H

#include "err.h"

struct sl_replay_trace;

/* -SL_EIO when the file cannot be read, -SL_EINVAL "PATH:LINE: reason" on
 * a row or header it cannot read. Step rows (N.batch, N.0) and jobs that
 * never ran are left out and counted in t->skipped. */
int sl_replay_load(const char *path, struct sl_replay_trace **out, struct sl_err *err);

#endif
