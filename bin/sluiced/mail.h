/* mail.h - sbatch --mail-type: sluiced runs the config's mailProg at a
 * job's state changes, as slurmctld runs MailProg: `PROG -s SUBJECT USER`,
 * Slurm's subject lines, Slurm's SLURM_JOB_* variables, nothing on stdin.
 *
 * The lifecycle queues mails as states change (sl_mail_job); they are sent
 * after the turn's commit (sl_mail_flush), since a mail tells someone about
 * a state. Sending spawns the program (never through a shell) and does not
 * wait for it: its children are reaped from a loop timer. A mailProg that
 * does not exist is logged once, and mails are dropped until it does. */
#ifndef SL_MAIL_H
#define SL_MAIL_H

#include "sluiced.h"

struct sl_mailer;

void sl_mailer_free(struct sl_mailer *m);

/* Queue the mail of `type` (one SL_MAIL_* bit) for j when its mail type
 * asks for it. Slurm's rules for ends: FAIL for FAILED, TIMEOUT, NODE_FAIL,
 * OUT_OF_MEMORY, BOOT_FAIL, DEADLINE and a PREEMPTED job not requeued; END
 * for COMPLETED and CANCELLED only. sl_mail_end() picks from j's state.
 * An array task without ARRAY_TASKS mails for its array, as slurmctld does:
 * Began with the first task, one Ended or Failed summary ("Slurm Array
 * Summary Job_id=N_* (N) ...") once all have ended; with ARRAY_TASKS each
 * task mails as "Slurm Array Task Job_id=N_I (ID) ...". */
void sl_mail_job(struct sluiced *d, const struct sl_job *j, int type);
void sl_mail_end(struct sluiced *d, const struct sl_job *j);

/* Send what is queued (after the commit). */
void sl_mail_flush(struct sluiced *d);

/* --mail-type=TIME_LIMIT[_50|_80|_90] of a running job, at `now`: queue
 * what is due, each once (j->mail_sent, saved by the caller when this
 * returns 1). */
int sl_mail_time_limits(struct sluiced *d, struct sl_job *j, int64_t now);

#endif
