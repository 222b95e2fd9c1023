/* h_diag.c - DIAG (sdiag): diag.c's figures and the daemon's facts that
 * slurmctld's statistics report beside them; {"reset": true} is sdiag -r,
 * for operators (slurmctld's validate_super_user). */
#include "authz.h"
#include "diag.h"
#include "handlers.h"
#include "jobtab.h"
#include "schedule.h"
#include "store.h"

#include <dirent.h>
#include <sys/time.h>
#include <time.h>

/* The daemon's threads: the loop, and the metrics and munge workers
 * when they run (slurmctld's server thread count). */
static int threads(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (dir == NULL)
		return 1;
	while ((e = readdir(dir)) != NULL)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n > 0 ? n : 1;
}

/* slurmctld's gettimeofday_latency: 1000 calls, in microseconds. */
static int64_t clock_latency(void)
{
	struct timeval a, b, t;
	gettimeofday(&a, NULL);
	for (int i = 0; i < 1000; i++)
		gettimeofday(&t, NULL);
	gettimeofday(&b, NULL);
	return (int64_t)(b.tv_sec - a.tv_sec) * 1000000 + (b.tv_usec - a.tv_usec);
}

int sl_h_diag(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
	      struct sl_err *err)
{
	struct sl_sched_stats st;
	json_object *v;
	int64_t now = (int64_t)time(NULL), pending = 0, running = 0;
	int r;

	sl_sched_stats(sl_schedctl_engine(d->sched), &st);
	if (json_object_object_get_ex(req, "reset", &v) && json_object_get_boolean(v)) {
		if ((r = sl_authz_request(d->self_uid, d->self_user, p, SL_PRIV_OPERATOR, err)) != 0)
			return r;
		sl_diag_reset(d->diag, now, &st);
		return 0;
	}
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		pending += j->state == SL_JOB_PENDING;
		running += j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING ||
			   j->state == SL_JOB_SUSPENDED;
	}
	json_object_object_add(rep, "now", json_object_new_int64(now));
	json_object_object_add(rep, "threads", json_object_new_int(threads()));
	/* the records a full disk holds back: what waits to reach the
	 * database, as slurmctld's DBD agent queue */
	json_object_object_add(rep, "dbd_queue",
			       json_object_new_int64((int64_t)sl_store_kept(d->store, NULL)));
	json_object_object_add(rep, "pending", json_object_new_int64(pending));
	json_object_object_add(rep, "running", json_object_new_int64(running));
	json_object_object_add(rep, "latency", json_object_new_int64(clock_latency()));
	sl_diag_json(d->diag, &st, sl_sched_queue_len(sl_schedctl_engine(d->sched)), rep);
	return 0;
}
