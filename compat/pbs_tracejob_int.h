/* pbs_tracejob_int.h - a job's rebuilt log lines, shared by the file that
 * writes them (pbs_tracejob.c) and the one that lays them out
 * (pbs_tracejob_out.c). Not for the commands. */
#ifndef SL_PBS_TRACEJOB_INT_H
#define SL_PBS_TRACEJOB_INT_H

#include <stddef.h>
#include <stdint.h>

/* The PBSEVENT_* types of src/include/log.h the lines carry (-f). */
#define TJ_JOB 0x0008u
#define TJ_JOB_USAGE 0x0010u
#define TJ_SCHED 0x0040u
#define TJ_DEBUG 0x0080u
#define TJ_DEBUG2 0x0100u
#define TJ_FORCE 0x8000u

struct sl_tracejob_line {
	int64_t t;        /* when it was written */
	char src;         /* 'A' accounting, 'S' server, 'M' MOM, 'L' scheduler */
	unsigned event;   /* its event type; 0 for accounting, which -f never drops */
	char *msg;
};

struct sl_tracejob {
	char id[192];     /* the job's id in the logs, "N.server" */
	struct sl_tracejob_line *v; /* in the order they were written */
	size_t n, cap;
};

#endif
