/* pbs_tracejob.h - OpenPBS's tracejob (src/tools/tracejob.c) over Sluice's
 * job record. tracejob reads the day's server, scheduler, MOM and
 * accounting logs for a job's lines; Sluice keeps no such logs, so the
 * lines those daemons would have written are rebuilt from what the record
 * keeps: its submit, eligible, start and end times, its runs before
 * requeues, exit, cancel, hold, usage, owner, queue and exec host
 * (pbs_tracejob.c). tracejob's choice among them (-n days, -a -s -l -m,
 * -f, -z/-c) and its layout are pbs_tracejob_out.c's. Pure: no I/O; the
 * command gives the clock and the names. */
#ifndef SL_PBS_TRACEJOB_H
#define SL_PBS_TRACEJOB_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "job.h"
#include "pbs_qopt.h"

/* What the lines need besides the job. */
struct sl_tracejob_view {
	const char *server;  /* the PBS server name: ids "N.server", the scheduler's
			      * and the requesters' host */
	const char *host;    /* this host's short name: MOM's lines are of the jobs
			      * that ran here (tracejob reads the local mom_logs);
			      * NULL: none */
	int accounting;      /* 1: the caller reads the accounting log, which
			      * OpenPBS keeps under server_priv (root's); 0: no A lines */
	int64_t now;
	/* A delete's requester: the name of uid into buf, 0; -1 when there is
	 * none (the number is shown). NULL: numbers, but the owner's name. */
	int (*user_name)(int uid, char *buf, size_t len);
};

/* One job's lines. */
struct sl_tracejob;

/* The lines of j, an entry of a PBS listing (pbs_array.h: a job, an array
 * job "N[]" or a subjob "N[I]"). Caller frees with sl_tracejob_free(). */
struct sl_tracejob *sl_tracejob_new(const struct sl_tracejob_view *v, const struct sl_job *j);
void sl_tracejob_free(struct sl_tracejob *t);

/* The entry of jobs[0..n) an operand names, as parse_log() matches the
 * logs' ids: without a '.', the id up to its first '.' (operand "12" is
 * "12.server", not "12[].server"), else the operand as the id's prefix;
 * NULL when none. */
const struct sl_job *sl_tracejob_find(struct sl_job *const *jobs, size_t n, const char *server,
				      const char *operand);

/* main()'s output for t into out: "\nJob: ID\n\n", then the lines read
 * (those of the sources o leaves in, dated within o->days of now, local
 * time) sorted by time, one kept of a message written o->excess_count
 * times or more (-z), without the event types of -f, each as "%-20s %-5c"
 * date and source then the message, wrapped at width columns (0: never)
 * with a 26-column indent. Returns how many lines were read: 0 wrote
 * nothing (the job is not found). */
size_t sl_tracejob_print(const struct sl_tracejob *t, const struct sl_tracejob_opts *o, int width,
			 int64_t now, struct sl_buf *out);

/* main()'s message for an operand it found nothing of, into out (stderr's):
 * "\ntracejob: Couldn't find Job Id ID in logs of past N days\n\n", the
 * server added to an id without a '.'. */
void sl_tracejob_unknown(struct sl_buf *out, const char *operand, const char *server, int days);

#endif
