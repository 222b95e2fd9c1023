/* timed.c - the sweep of timed job conditions (timed.h). Slurm checks
 * deadlines when its scheduler looks at a job and time limit mails in its
 * periodic time limit check; one pass over the jobs every few seconds
 * does both here, and costs a comparison per job (10 000 jobs: ~20 us). */
#include "timed.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "log.h"
#include "loop.h"
#include "mail.h"
#include "schedule.h"
#include "store.h"

#include <time.h>

/* deadline_ok(): a job that would need past its deadline, its time limit
 * (or one minute, Slurm's TimeMin, without one) from now, ends now. A held
 * job is not looked at until it is released, as in Slurm. */
static int deadline_passed(struct sluiced *d, struct sl_job *j, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	/* --time-min first: the limit is cut to fit (cut_limit) */
	int64_t need = j->spec.time_min > 0 ? j->spec.time_min * 60
		       : sl_jobspec_limit_secs(&j->spec) > 0 ? sl_jobspec_limit_secs(&j->spec) : 60;

	if (j->state != SL_JOB_PENDING || j->spec.deadline == 0 || j->spec.hold ||
	    now + need <= j->spec.deadline)
		return 0;
	sl_info("job %llu: cannot end by its deadline: DEADLINE", (unsigned long long)j->id);
	sl_schedctl_remove(d->sched, j->id);
	j->start_time = j->end_time = now;
	j->exit_code = 0;
	j->exit_signal = 1; /* Slurm's exit_code 1, shown as 0:1 */
	if (sl_lifecycle_move(d, j, SL_JOB_DEADLINE, "DeadLine", &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
	d->need_schedule = 1;
	return 1;
}

/* The whole minutes left before the deadline, in memory and in the
 * store; a failed write is logged and the job runs with the cut all the
 * same (its limit is enforced from memory). */
static void cut_limit(struct sluiced *d, struct sl_job *j, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	int64_t room = j->spec.deadline > now ? (j->spec.deadline - now) / 60 : 0;

	if (j->spec.deadline == 0 || room < 1 ||
	    (j->spec.time_limit > 0 && sl_jobspec_limit_secs(&j->spec) <= room * 60))
		return;
	sl_info("job %llu: time limit %lld min, as its deadline allows", (unsigned long long)j->id,
		(long long)room);
	j->spec.time_limit = room;
	j->spec.time_limit_secs = 0; /* whole minutes, as Slurm cuts it */
	if (sl_store_save_spec(d->store, j->id, &j->spec, &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
}

int sl_timed_admit(struct sluiced *d, struct sl_job *j, int64_t now)
{
	if (deadline_passed(d, j, now))
		return 1;
	cut_limit(d, j, now);
	return 0;
}

static void time_mails(struct sluiced *d, struct sl_job *j, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;

	if ((j->state != SL_JOB_RUNNING && j->state != SL_JOB_CONFIGURING) ||
	    !(j->spec.mail_type & (SL_MAIL_TIME100 | SL_MAIL_TIME90 | SL_MAIL_TIME80 |
				   SL_MAIL_TIME50)))
		return;
	if (sl_mail_time_limits(d, j, now) && sl_lifecycle_save(d, j, &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
}

static void on_sweep(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sluiced *d = arg;
	int64_t now = (int64_t)time(NULL);

	if (!d->stopping)
		for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
			struct sl_job *j = sl_jobtab_at(d->jobs, i);
			(void)deadline_passed(d, j, now);
			time_mails(d, j, now);
		}
	sl_loop_add_timer(l, SL_TIMED_MS, on_sweep, d);
}

void sl_timed_start(struct sluiced *d)
{
	sl_loop_add_timer(d->loop, SL_TIMED_MS, on_sweep, d);
}
