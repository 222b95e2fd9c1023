/* h_step.c - the job-step requests (PROTOCOL.md, 24-27). srun, running as
 * the job's user inside the allocation, records each step it starts and its
 * end; sacct and squeue -s read them; scancel N.S reaches srun, which
 * passes the signal to every task. Steps sit beside jobs in the store
 * (store_steps.c) and never reach the engine: a step uses the job's
 * allocation, which srun checks.
 *
 * A step's srun is named by the pid the kernel gave for the connection
 * that created the step (SO_PEERCRED, not a number the client sent) and
 * that process's start time, so a signal never reaches a reused pid.
 *
 * Its end carries what its tasks used, as its srun measured them (the
 * user's own process: Slurm's slurmstepd is root's, so a user who forges
 * the figures misreports their own step, and sacct never lets a step take
 * more from the batch step than the batch step has). Whether those tasks
 * ran inside the batch script, and so inside the figures the job's
 * supervisor measured, sluiced finds itself from the kernel. */
#include "authz.h"
#include "conf.h"
#include "proctree.h"
#include "handlers.h"
#include "jobdir.h"
#include "jobtab.h"
#include "step.h"
#include "store.h"
#include "submit.h"
#include "store_steps.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int req_step(json_object *req, struct sl_step *st, struct sl_err *err)
{
	return sl_step_from_json(req, st, err);
}

/* The job of a step request, as its user (or an operator) may use it. */
static int job_for(struct sluiced *d, const struct sl_peer *p, uint64_t id, struct sl_job **j,
		   struct sl_err *err)
{
	*j = sl_jobtab_get(d->jobs, id);
	if (*j == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified");
	if (!p->operator && p->uid != (*j)->uid)
		return sl_err_set(err, SL_EPERM, "Access/permission denied");
	return 0;
}

/* The memory a node of the job holds, MiB: --mem, or --mem-per-cpu times
 * its CPUs on a node; 0 when the job asked for none (or --mem=0, a node's
 * whole memory): its steps' memory is then not counted. */
static int64_t job_mem_per_node(const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	int nodes = j->alloc_nodes > 0 ? j->alloc_nodes : 1;
	if (s->mem_all)
		return 0;
	if (s->mem_per_node > 0)
		return s->mem_per_node;
	if (s->mem_per_cpu > 0)
		return s->mem_per_cpu * ((j->alloc_cpus + nodes - 1) / nodes);
	return 0;
}

/* Slurm 22.05's sharing: a step holds its CPUs (all the job's on its nodes
 * unless --exact or -c) and its memory (--mem, --mem-per-cpu), and a step
 * that is not --overlap waits while the ones running leave it too few. A
 * step asking a node for more memory than the job's is refused at once,
 * with Slurm's words. A step whose srun is gone (kill -9) holds nothing.
 * Memory is counted per node as if the steps shared one (exact for the
 * one-node jobs where steps are farmed out). */
static int cpus_free(struct sluiced *d, const struct sl_job *j, const struct sl_step *want,
		     struct sl_err *err)
{
	struct sl_step *v = NULL;
	size_t n = 0;
	int busy = 0, r;
	int64_t mem = job_mem_per_node(j), mem_busy = 0;
	/* a job of a node's whole memory (--mem=0, or none asked, as under
	 * slurmctld without DefMemPerCPU) still has no more than the node */
	int64_t most = mem > 0 ? mem : sl_submit_node_memory(d->conf, &j->spec);
	if (want->mem > 0 && most > 0 && want->mem > most)
		return sl_err_set(err, SL_ENOFIT, "Memory required by task is not available");
	if (want->overlap)
		return 0;
	if ((r = sl_store_steps(d->store, &j->id, 1, 1, &v, &n, err)) != 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		unsigned long long started = 0;
		if (!v[i].overlap && sl_proc_starttime(v[i].pid, &started) == 0 &&
		    started == v[i].pid_start) {
			busy += v[i].cpus;
			mem_busy += v[i].mem;
		}
	}
	sl_step_free_array(v, n);
	if (busy > 0 && busy + want->cpus > j->alloc_cpus)
		return sl_err_set(err, SL_EBUSY, "Requested nodes are busy");
	if (mem > 0 && mem_busy > 0 && mem_busy + want->mem > mem)
		return sl_err_set(err, SL_EBUSY, "Requested nodes are busy");
	return 0;
}

/* 1 when srun (pid) runs in the job's batch script: in the session the
 * local supervisor made for it (<jobdir>/job.pgid). Its tasks are then
 * the script's descendants, measured with it. srun's own allocation, salloc's
 * and srun --jobid from a login shell are in sessions of their own. */
static int in_batch(struct sluiced *d, const struct sl_job *j, pid_t pid)
{
	char buf[1024], *dir, *text = NULL;
	const char *tail = sl_proc_stat_tail(pid, buf, sizeof(buf));
	long long job_sid = 0;
	int sid = 0, r = 0;

	if (tail == NULL || sscanf(tail, " %*c %*d %*d %d", &sid) != 1 || sid <= 1 ||
	    strcmp(sl_conf_executor(d->conf), "local") != 0 || j->spec.interactive)
		return 0;
	dir = sl_xasprintf("%s/jobs/%llu", sl_conf_state_dir(d->conf), (unsigned long long)j->id);
	if (sl_jobdir_read(dir, SL_JOBDIR_PGID, &text, NULL) == 0 &&
	    sscanf(text, "%lld", &job_sid) == 1)
		r = job_sid == sid;
	free(text);
	free(dir);
	return r;
}

int sl_h_step_create(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	struct sl_step st;
	struct sl_job *j;
	int r;

	if ((r = req_step(req, &st, err)) != 0 || (r = job_for(d, p, st.job_id, &j, err)) != 0)
		goto out;
	if (j->state != SL_JOB_RUNNING && j->state != SL_JOB_CONFIGURING) {
		r = sl_err_set(err, SL_ESTATE, "Job/step already completing or completed");
		goto out;
	}
	if ((r = cpus_free(d, j, &st, err)) != 0)
		goto out;
	st.uid = j->uid;
	st.pid = p->pid;
	st.in_batch = in_batch(d, j, p->pid);
	(void)sl_proc_starttime(p->pid, &st.pid_start);
	st.state = SL_JOB_RUNNING;
	st.start_time = (int64_t)time(NULL);
	st.end_time = 0;
	st.exit_code = st.exit_signal = 0;
	st.cancelled_by = -1;
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_step_insert(d->store, &st, err)) != 0)
		goto out;
	json_object_object_add(rep, "step", json_object_new_int64(st.step_id));
out:
	sl_step_clear(&st);
	return r;
}

/* Remove the signals queued for a step, in order, adding each to sigs
 * when given. */
static void drop_signals(struct sluiced *d, uint64_t job, uint32_t step, json_object *sigs)
{
	size_t k = 0;

	for (size_t i = 0; i < d->nstep_sigs; i++) {
		const struct sl_step_sig *q = &d->step_sigs[i];
		if (q->job != job || q->step != step)
			d->step_sigs[k++] = *q;
		else if (sigs != NULL)
			json_object_array_add(sigs, json_object_new_int(q->sig));
	}
	d->nstep_sigs = k;
}

void sl_step_signals_forget(struct sluiced *d, uint64_t job)
{
	size_t k = 0;

	for (size_t i = 0; i < d->nstep_sigs; i++)
		if (d->step_sigs[i].job != job)
			d->step_sigs[k++] = d->step_sigs[i];
	d->nstep_sigs = k;
}

/* A figure below zero is nobody's: none. */
static void use_sane(struct sl_usage *u)
{
	u->user_usec = u->user_usec > 0 ? u->user_usec : 0;
	u->sys_usec = u->sys_usec > 0 ? u->sys_usec : 0;
	for (int k = 0; k < SL_USE_N; k++) {
		struct sl_usage_agg *a = &u->tasks.a[k];
		a->max = a->max > 0 ? a->max : 0;
		a->min = a->min > 0 ? a->min : 0;
		a->tot = a->tot > 0 ? a->tot : 0;
	}
	if (u->tasks.n < 0)
		u->tasks.n = 0;
}

int sl_h_step_end(struct sluiced *d, const struct sl_peer *p, json_object *req,
		  json_object *rep, struct sl_err *err)
{
	struct sl_step st, old = {0};
	struct sl_job *j;
	int r;
	(void)rep;
	if ((r = req_step(req, &st, err)) != 0 || (r = job_for(d, p, st.job_id, &j, err)) != 0 ||
	    (r = sl_store_step_get(d->store, st.job_id, st.step_id, &old, err)) != 0)
		goto out;
	if (!sl_jobstate_is_final(st.state)) {
		r = sl_err_set(err, SL_EINVAL, "step end: state %s is not an end",
			       sl_jobstate_name(st.state));
		goto out;
	}
	st.end_time = (int64_t)time(NULL);
	use_sane(&st.use);
	drop_signals(d, st.job_id, st.step_id, NULL); /* none left to take */
	if ((r = sl_store_begin(d->store, err)) == 0)
		r = sl_store_step_end(d->store, &st, err);
	/* srun cancelled its own step (an MPI_Abort): by the uid it runs as */
	if (r == 0 && st.state == SL_JOB_CANCELLED && st.cancelled_by >= 0)
		r = sl_store_step_cancelled(d->store, st.job_id, st.step_id, p->uid, err);
out:
	sl_step_clear(&old);
	sl_step_clear(&st);
	return r;
}

/* A step still running in the store whose job has ended lost its srun
 * with the job (scancel, the time limit): it ended with the job, by the
 * SIGTERM that ends a job's tasks (0:15, as Slurm's sacct shows a step
 * scancel ended), and sacct shows it CANCELLED then, as Slurm's does.
 * Answered that way, not written: the job's end is the record. */
static void settle(struct sluiced *d, struct sl_step *st)
{
	const struct sl_job *j = sl_jobtab_get(d->jobs, st->job_id);
	if (st->end_time != 0 || (j && !sl_jobstate_is_final(j->state)))
		return;
	st->state = SL_JOB_CANCELLED;
	st->end_time = j && j->end_time ? j->end_time : st->start_time;
	if (st->exit_signal == 0)
		st->exit_signal = SIGTERM;
}

static int visible(const struct sl_peer *p, const struct sl_step *st)
{
	/* what squeue and sacct show of jobs: everyone's (PrivateData is not set) */
	(void)p;
	(void)st;
	return 1;
}

/* srun's poll in a pod ("take": its step): the signals queued for it,
 * in order, removed as they go. Only the job's owner takes them. */
static int take_signals(struct sluiced *d, const struct sl_peer *p, uint64_t job, uint32_t step,
			json_object *rep, struct sl_err *err)
{
	const struct sl_job *j = sl_jobtab_get(d->jobs, job);
	json_object *sigs;

	if (j == NULL || (p->uid != j->uid && p->uid != 0))
		return sl_err_set(err, SL_EPERM, "Access/permission denied");
	sigs = json_object_new_array();
	drop_signals(d, job, step, sigs);
	json_object_object_add(rep, "signals", sigs);
	return 0;
}

int sl_h_steps(struct sluiced *d, const struct sl_peer *p, json_object *req,
	       json_object *rep, struct sl_err *err)
{
	json_object *ids = NULL, *v, *arr;
	uint64_t *jobs = NULL;
	struct sl_step *steps = NULL;
	size_t n = 0, ns = 0;
	int running = 0, r;

	if (json_object_object_get_ex(req, "jobs", &ids) && json_object_is_type(ids, json_type_array))
		n = json_object_array_length(ids);
	if (n > 100000)
		return sl_err_set(err, SL_ETOOBIG, "steps: too many job ids");
	jobs = sl_xcalloc(n ? n : 1, sizeof(*jobs));
	for (size_t i = 0; i < n; i++)
		jobs[i] = (uint64_t)json_object_get_int64(json_object_array_get_idx(ids, i));
	if (json_object_object_get_ex(req, "running", &v))
		running = json_object_get_boolean(v);
	/* srun's poll a second reads its signals alone: no listing for it */
	if (json_object_object_get_ex(req, "take", &v) && n == 1) {
		r = take_signals(d, p, jobs[0], (uint32_t)json_object_get_int64(v), rep, err);
		goto out;
	}
	if ((r = sl_store_steps(d->store, jobs, n, 0, &steps, &ns, err)) != 0)
		goto out;
	arr = json_object_new_array();
	for (size_t i = 0; i < ns; i++) {
		settle(d, &steps[i]);
		if ((running && steps[i].end_time != 0) || !visible(p, &steps[i]))
			continue;
		json_object_array_add(arr, sl_step_to_json(&steps[i]));
	}
	json_object_object_add(rep, "steps", arr);
out:
	sl_step_free_array(steps, ns);
	free(jobs);
	return r;
}

/* Signal sig (0: cancel) to step st's srun: queued for its next poll in
 * a pod, sigqueue'd here (the pid checked against its start time). */
static int signal_step(struct sluiced *d, const struct sl_peer *p, const struct sl_step *st,
		       int sig, struct sl_err *err)
{
	unsigned long long started = 0;
	int r = 0;

	if (st->end_time == 0 && strcmp(sl_conf_executor(d->conf), "local") != 0) {
		/* srun runs in the job's first pod, out of sluiced's reach: it
		 * takes the signal with its next poll (a second at most) */
		d->step_sigs = sl_xgrow(d->step_sigs, &d->capstep_sigs, d->nstep_sigs + 1,
					sizeof(*d->step_sigs));
		d->step_sigs[d->nstep_sigs++] = (struct sl_step_sig){st->job_id, st->step_id, sig};
		if (sig == 0 && (r = sl_store_begin(d->store, err)) == 0)
			r = sl_store_step_cancelled(d->store, st->job_id, st->step_id, p->uid, err);
		return r;
	}
	if (st->end_time != 0 || st->pid <= 0 ||
	    sl_proc_starttime(st->pid, &started) != 0 || started != st->pid_start)
		return sl_err_set(err, SL_ESTATE, "Job/step already completing or completed");
	union sigval val = {.sival_int = sig};
	if (sigqueue(st->pid, SL_SRUN_SIG_STEP, val) != 0)
		r = sl_err_set(err, errno == ESRCH ? SL_ESTATE : SL_EPERM, "%s",
			       errno == ESRCH ? "Job/step already completing or completed"
					      : "Access/permission denied");
	else if (sig == 0 && (r = sl_store_begin(d->store, err)) == 0)
		r = sl_store_step_cancelled(d->store, st->job_id, st->step_id, p->uid, err);
	return r;
}

int sl_h_step_signal(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	struct sl_step st = {0};
	struct sl_job *j;
	json_object *v;
	uint64_t job = 0;
	uint32_t step = 0;
	int sig = 0, r;
	(void)rep;

	if (json_object_object_get_ex(req, "job", &v))
		job = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(req, "step", &v))
		step = (uint32_t)json_object_get_int64(v);
	if (json_object_object_get_ex(req, "signal", &v))
		sig = json_object_get_int(v);
	if (sig < 0 || sig >= NSIG)
		return sl_err_set(err, SL_EINVAL, "Invalid signal %d", sig);
	if ((j = sl_jobtab_get(d->jobs, job)) == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified");
	if ((r = sl_authz_job(p, j, sig ? SL_OP_SIGNAL : SL_OP_CANCEL, err)) == 0 &&
	    (r = sl_store_step_get(d->store, job, step, &st, err)) == 0) {
		settle(d, &st);
		r = signal_step(d, p, &st, sig, err);
	}
	sl_step_clear(&st);
	return r;
}

int sl_step_signal_all(struct sluiced *d, const struct sl_peer *p, const struct sl_job *j,
		       int sig, struct sl_err *err)
{
	struct sl_step *v = NULL;
	size_t n = 0;
	int r = sl_store_steps(d->store, &j->id, 1, 1, &v, &n, err);

	/* every step gets it; the first failure is told (one that ended
	 * meanwhile is none) */
	int first = r;
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct sl_err e = SL_ERR_INIT;
		settle(d, &v[i]);
		if (signal_step(d, p, &v[i], sig, &e) != 0 && e.code != SL_ESTATE && first == 0)
			first = sl_err_set(err, e.code, "%s", e.msg);
	}
	r = r != 0 ? r : first;
	sl_step_free_array(v, n);
	return r;
}
