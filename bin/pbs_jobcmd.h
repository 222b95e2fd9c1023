/* pbs_jobcmd.h - what qhold, qrls, qsig, qalter and qmove share: the loop over job
 * operands with OpenPBS's messages and exit status, and how one job's
 * failure is told (src/lib/Libcmds/err_handling.c, prt_job_err()). */
#ifndef SL_PBS_JOBCMD_H
#define SL_PBS_JOBCMD_H

#include <stdint.h>
#include "client.h"
#include "pbs_qopt.h"

/* Act on one job; 0 or the PBS error number of its failure (told already).
 * *c is connected on first use with sl_qjob_connect(). arg is the
 * command's (qhold, qrls, qsig: their struct sl_qctl_opts). */
typedef int (*sl_qjob_fn)(struct sl_client **c, const void *arg, uint64_t id,
			  const char *shown, const char *server);

/* The command's main(): parse argv as cmd, run one() per operand. */
int sl_qjob_main(enum sl_qctl_cmd cmd, const char *name, int argc, char **argv, sl_qjob_fn one);

/* The operand loop: one() per job id of this server, PBS's messages for
 * the others; the exit status (the last failure's PBS error number's low
 * byte). What an array operand ("N[]", "N[I]", "N[A-B]") stands for: the
 * array's pending subjobs (qhold, qrls, qalter: a subjob is an invalid
 * request; qmove: so is an array with a running subjob), or its running
 * subjobs and the live ones of a range (qsig). */
enum sl_qjob_arrays { SL_QJOB_HOLD, SL_QJOB_MOVE, SL_QJOB_SIGNAL };
int sl_qjob_each(const char *name, char **ids, int n, sl_qjob_fn one, const void *arg,
		 enum sl_qjob_arrays policy);

/* A parse's failure told as PBS's commands tell it: "NAME: TEXT" (unless
 * empty), then the usage when f says so. Returns the exit status. */
int sl_qjob_parse_failed(const char *name, const struct sl_err *err,
			 const struct sl_pbs_failure *f, const char *usage);

/* Is job id in the history (it finished), rather than unknown? */
int sl_qjob_finished(struct sl_client *c, uint64_t id);

/* Does id name an array (array.h's N, whose subjobs are N+1..)? PBS names
 * it "N[]": a plain "N" is an unknown job there. */
int sl_qjob_is_array(struct sl_client *c, uint64_t id);
/* The same for ids[0..n) in one query: is_array[k] for ids[k]. */
void sl_qjob_arrays_among(struct sl_client *c, uint64_t *ids, size_t n, unsigned char *is_array);

/* Connect *c if it is not: 0, or SL_PBSE_SYSTEM after PBS's message. */
int sl_qjob_connect(const char *name, struct sl_client **c, const char *server);

/* Tell job id's failure rc (msg: the daemon's words) as PBS does; its PBS
 * error number. rc equal to `special` is told as PBS error `special_pbse`. */
int sl_qjob_report(const char *name, struct sl_client *c, int rc, const char *msg, uint64_t id,
		   const char *shown, int special, int special_pbse);

#endif
