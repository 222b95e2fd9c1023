/* client.h - what commands call to talk to sluiced. One call = one request
 * and its reply; no socket or JSON code is needed in bin/. */
#ifndef SL_CLIENT_H
#define SL_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "job.h"
#include "jobfilter.h"

struct sl_client;

/* Where is the daemon? $SLUICE_CONF (a config file: its `socket`), else
 * $SLUICE_SOCKET, else the compiled-in default. Caller frees the result. */
int sl_client_socket_path(char **out, struct sl_err *err);

/* Connect (socket NULL: sl_client_socket_path()). Failure is SL_ECONNECT with
 * the socket path and errno text in err. Caller frees with sl_client_free(). */
int sl_client_connect(const char *socket, struct sl_client **out, struct sl_err *err);
void sl_client_free(struct sl_client *c);

/* Submit a job; on success *id is the new job id (already durable). */
int sl_client_submit(struct sl_client *c, const struct sl_jobspec *spec,
		     uint64_t *id, struct sl_err *err);
/* The whole exchange for sbatch: connect to the daemon found by
 * sl_client_socket_path(), submit, disconnect. */
int sl_client_submit_once(const struct sl_jobspec *spec, uint64_t *id, struct sl_err *err);

/* Jobs matching f, in id order. Caller frees with sl_job_free_array(). */
int sl_client_jobs(struct sl_client *c, const struct sl_jobfilter *f,
		   struct sl_job ***jobs, size_t *n, struct sl_err *err);

/* The whole exchange for read-only commands: connect to the daemon found
 * by sl_client_socket_path(), sl_client_jobs(), disconnect. */
int sl_client_query(const struct sl_jobfilter *f, struct sl_job ***jobs, size_t *n,
		    struct sl_err *err);

/* One job's outcome in a multi-job operation. */
struct sl_jobresult {
	uint64_t id;
	int rc;              /* 0 or -SL_E* */
	char msg[256];       /* reason when rc != 0 */
};

/* Cancel (signal 0) or signal the jobs matching f. `batch_only` is what
 * the signal reaches: 0 the job's steps (scancel -s), 1 the batch script
 * alone (-b), 2 the script's process group (--full). Results are per
 * matched job (and per listed id that matched nothing, with rc
 * -SL_ENOENT). Caller frees *res with free(). */
int sl_client_cancel(struct sl_client *c, const struct sl_jobfilter *f, int signal,
		     int batch_only, struct sl_jobresult **res, size_t *nres,
		     struct sl_err *err);

/* Operator/owner control: hold, release, requeue (scontrol), later updates. */
enum sl_control_op { SL_CTL_HOLD = 1, SL_CTL_RELEASE, SL_CTL_REQUEUE };
int sl_client_control(struct sl_client *c, enum sl_control_op op, uint64_t id,
		      struct sl_err *err);

#endif
