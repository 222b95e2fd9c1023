/* sacct_json.c - sacct --json as Slurm 22.05 prints it: the openapi
 * dbv0.0.38 /jobs/ document (src/plugins/openapi/dbv0.0.38/jobs.c), each
 * job with slurmdbd's members in its order and its batch step (when it ran
 * one) and its srun steps, each with its own figures (sacct_usage.c):
 * requested is Slurm's name for the input side of the usage (memory, CPU,
 * disk read), consumed for the output side (disk written). The job's own time.user/system/total stay 0, and an
 * exit code reads as that plugin prints one: any exit is "SUCCESS" with
 * return_code 0 (its exit status is not printed), a signal "SIGNALED"
 * with the signal and a null return_code (the captures in
 * tests/data/json/ show both). */
#include "slurm_json.h"
#include "step.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "hostlist.h"
#include "job.h"
#include "sacct_fmt.h"
#include "slurm_tres.h"
#include "slurm_usage.h"
#include "usage.h"

/* It got nodes (a job cancelled while pending has a start stamp, no nodes). */
static int started(const struct sl_job *j)
{
	return j->start_time != 0 && j->nodelist != NULL && *j->nodelist != '\0';
}

static int64_t elapsed(const struct sl_job *j, int64_t now)
{
	int64_t end = j->end_time ? j->end_time : now;
	return started(j) && end > j->start_time ? end - j->start_time : 0;
}

static json_object *exit_code(int sig)
{
	json_object *o = json_object_new_object(), *s;

	if (sig == 0) {
		sl_json_str(o, "status", "SUCCESS");
		sl_json_int(o, "return_code", 0);
		return o;
	}
	sl_json_str(o, "status", "SIGNALED");
	sl_json_null(o, "return_code");
	s = json_object_new_object();
	sl_json_int(s, "signal_id", sig);
	sl_json_str(s, "name", strsignal(sig));
	json_object_object_add(o, "signal", s);
	return o;
}

/* A wait status's object: SUCCESS, FAILED with the exit code, or SIGNALED. */
static json_object *status_of(int code, int sig)
{
	json_object *o;
	if (code == 0)
		return exit_code(sig);
	o = json_object_new_object();
	sl_json_str(o, "status", "FAILED");
	sl_json_int(o, "return_code", code);
	return o;
}

static int job_signal(const struct sl_job *j)
{
	if (j->state == SL_JOB_CANCELLED || j->state == SL_JOB_TIMEOUT ||
	    j->state == SL_JOB_PREEMPTED || !sl_jobstate_is_final(j->state))
		return 0;
	return j->exit_signal;
}

static json_object *usec(int64_t us)
{
	json_object *o = json_object_new_object();
	sl_json_int(o, "seconds", us / 1000000);
	sl_json_int(o, "microseconds", us % 1000000);
	return o;
}

/* {"type", "name", "id", "count"[, "task", "node"]}, Slurm's TRES ids. */
static void tres_task(json_object *a, const char *type, int64_t count, int null_count,
		      const char *node, int task)
{
	static const struct { const char *type, *name; int id; } ids[] = {
		{"cpu", NULL, 1}, {"mem", NULL, 2}, {"energy", NULL, 3}, {"node", NULL, 4},
		{"billing", NULL, 5}, {"fs", "disk", 6}, {"vmem", NULL, 7}, {"pages", NULL, 8},
	};
	json_object *o = json_object_new_object();
	size_t i = 0;

	while (i < sizeof(ids) / sizeof(ids[0]) - 1 && strcmp(ids[i].type, type) != 0)
		i++;
	sl_json_str(o, "type", type);
	if (ids[i].name)
		sl_json_str(o, "name", ids[i].name);
	else
		sl_json_null(o, "name");
	sl_json_int(o, "id", ids[i].id);
	sl_json_int_or_null(o, "count", !null_count, count);
	if (node) {
		sl_json_int(o, "task", task);
		sl_json_str(o, "node", node);
	}
	json_object_array_add(a, o);
}

static void tres(json_object *a, const char *type, int64_t count, int null_count,
		 const char *node)
{
	tres_task(a, type, count, null_count, node, 0);
}

/* The job's TRES list: cpu, mem (when asked for), [energy], node, billing. */
static json_object *job_tres(const struct sl_job *j, int alloc)
{
	json_object *a = json_object_new_array();
	struct sl_jobshape sh;
	int64_t mem = sl_slurm_job_mem(j);
	int cpus = sl_slurm_job_cpus(j);

	if (alloc && !started(j))
		return a;
	sl_job_shape(j, &sh);
	tres(a, "cpu", cpus, 0, NULL);
	if (mem > 0)
		tres(a, "mem", mem, 0, NULL);
	if (alloc)
		tres(a, "energy", 0, 1, NULL);
	tres(a, "node", j->alloc_nodes ? j->alloc_nodes : sh.nodes, 0, NULL);
	tres(a, "billing", cpus, 0, NULL);
	return a;
}

/* One side of a step's use, its tasks' (slurm_usage.h): max and min
 * carry the task and node; cpu in milliseconds, sizes in bytes. */
static json_object *usage_side(const struct sl_usage_tasks *t, int in, int running,
			       const char *host)
{
	static const char *const kinds[] = {"max", "min", "average", "total"};
	static const enum sl_usage_of of[] = {SL_UOF_MAX, SL_UOF_MIN, SL_UOF_AVE, SL_UOF_TOT};
	json_object *o = json_object_new_object();

	for (int k = 0; k < 4; k++) {
		json_object *a = json_object_new_array();
		const char *node = k < 2 ? host : NULL;
#define ITEM(type, item, scale) \
	tres_task(a, type, sl_slurm_usage_value(t, item, of[k]) / (scale), 0, node, \
		  sl_slurm_usage_task(t, item, of[k]))
		if (running) {
			/* nothing until the step ends */
		} else if (t->n == 0) {
			if (k >= 2)
				tres(a, "energy", 0, 0, NULL);
		} else if (in) {
			ITEM("cpu", SL_USE_CPU, 1000);
			ITEM("mem", SL_USE_RSS, 1);
			tres(a, "energy", 0, 0, node);
			ITEM("fs", SL_USE_READ, 1);
			ITEM("vmem", SL_USE_VMSIZE, 1);
			ITEM("pages", SL_USE_PAGES, 1);
		} else {
			tres(a, "energy", 0, 0, node);
			ITEM("fs", SL_USE_WRITE, 1);
		}
#undef ITEM
		json_object_object_add(o, kinds[k], a);
	}
	return o;
}

static void batch_host(const struct sl_job *j, char *buf, size_t len)
{
	sl_hostlist_first(j->nodelist, buf, len);
}

static void kill_user(json_object *o, const struct sl_job *j)
{
	struct passwd *pw = j->cancelled_by >= 0 ? getpwuid((uid_t)j->cancelled_by) : NULL;

	if (j->state != SL_JOB_CANCELLED || j->cancelled_by < 0)
		sl_json_null(o, "kill_request_user");
	else if (pw)
		sl_json_str(o, "kill_request_user", pw->pw_name);
	else
		sl_json_null(o, "kill_request_user");
}

static json_object *obj1(const char *key, json_object *v)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, key, v);
	return o;
}

/* A step's nodes, its use and what it was given (one node's share). */
static void step_nodes_tres(json_object *o, const struct sl_job *j, const struct sl_usage *use)
{
	json_object *x = json_object_new_object(), *t = json_object_new_object(), *a;
	int running = !sl_jobstate_is_final(j->state);
	struct sl_jobshape sh;
	struct sl_usage_tasks u;
	char host[256];

	sl_usage_per_task(use, &u);
	sl_job_shape(j, &sh);
	batch_host(j, host, sizeof(host));
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_string(host));
	json_object_object_add(x, "list", a);
	sl_json_int(x, "count", 1);
	sl_json_str(x, "range", host);
	json_object_object_add(o, "nodes", x);
	json_object_object_add(t, "requested", usage_side(&u, 1, running, host));
	json_object_object_add(t, "consumed", usage_side(&u, 0, running, host));
	a = json_object_new_array();
	tres(a, "cpu", sh.nodes > 0 ? sl_slurm_job_cpus(j) / sh.nodes : 1, 0, NULL);
	if (sh.mem_per_node > 0)
		tres(a, "mem", sh.mem_per_node, 0, NULL);
	tres(a, "node", 1, 0, NULL);
	json_object_object_add(t, "allocated", a);
	json_object_object_add(o, "tres", t);
}

static json_object *step_time(const struct sl_job *j, int64_t now, const struct sl_usage *use)
{
	json_object *x = json_object_new_object();

	sl_json_int(x, "elapsed", elapsed(j, now));
	sl_json_int(x, "end", j->end_time);
	sl_json_int(x, "start", j->start_time);
	sl_json_int(x, "suspended", sl_job_suspended_secs(j, now));
	json_object_object_add(x, "system", usec(use->sys_usec));
	json_object_object_add(x, "total", usec(use->user_usec + use->sys_usec));
	json_object_object_add(x, "user", usec(use->user_usec));
	return x;
}

/* The batch step (or, through srun_step_of(), an srun step) with its own
 * use (sacct_usage.c). */
static json_object *step_of(const struct sl_job *j, int64_t now, const struct sl_usage *use)
{
	json_object *o = json_object_new_object(), *x, *y;
	int running = !sl_jobstate_is_final(j->state);

	step_nodes_tres(o, j, use);
	json_object_object_add(o, "time", step_time(j, now, use));
	json_object_object_add(o, "exit_code", exit_code(running ? 0 : j->exit_signal));
	json_object_object_add(o, "tasks", obj1("count", json_object_new_int(1)));
	sl_json_null(o, "pid");
	x = json_object_new_object();
	y = json_object_new_object();
	sl_json_int(y, "min", 0);
	sl_json_int(y, "max", 0);
	json_object_object_add(x, "requested_frequency", y);
	json_object_object_add(x, "governor", json_object_new_array());
	json_object_object_add(o, "CPU", x);
	sl_json_null(o, "kill_request_user"); /* the job's alone */
	sl_json_str(o, "state", sl_jobstate_name(sl_sacct_batch_state(j)));
	x = json_object_new_object();
	json_object_object_add(x, "CPU", obj1("actual_frequency", json_object_new_int(0)));
	json_object_object_add(x, "energy", obj1("consumed", json_object_new_int(0)));
	json_object_object_add(o, "statistics", x);
	x = json_object_new_object();
	sl_json_int(x, "job_id", (int64_t)j->id);
	y = json_object_new_object();
	sl_json_null(y, "component");
	json_object_object_add(x, "het", y);
	sl_json_str(x, "id", "batch");
	sl_json_str(x, "name", "batch");
	json_object_object_add(o, "step", x);
	json_object_object_add(o, "task", obj1("distribution", json_object_new_string("Unknown")));
	return o;
}

static void head(json_object *o, const struct sl_job *j, const char *cluster)
{
	json_object *x = json_object_new_object(), *y;

	sl_json_str(o, "account", j->spec.account);
	sl_json_null(x, "administrator");
	if (j->spec.comment)
		sl_json_str(x, "job", j->spec.comment);
	else
		sl_json_null(x, "job");
	sl_json_null(x, "system");
	json_object_object_add(o, "comment", x);
	sl_json_int(o, "allocation_nodes", started(j) ? (j->alloc_nodes ? j->alloc_nodes : 1) : 0);
	x = json_object_new_object();
	sl_json_int(x, "job_id", (int64_t)j->array_job_id);
	y = obj1("max", obj1("running", obj1("tasks", json_object_new_int(
		j->array_job_id ? j->array_throttle : 0))));
	json_object_object_add(x, "limits", y);
	if (j->array_tasks)
		sl_json_str(x, "task", j->array_tasks);
	else
		sl_json_null(x, "task");
	if (j->array_job_id != 0 && j->array_tasks == NULL)
		sl_json_int(x, "task_id", j->array_task_id);
	else
		sl_json_null(x, "task_id");
	json_object_object_add(o, "array", x);
	x = json_object_new_object();
	sl_json_str(x, "account", j->spec.account);
	sl_json_str(x, "cluster", cluster);
	sl_json_null(x, "partition");
	sl_json_str(x, "user", j->user);
	json_object_object_add(o, "association", x);
	sl_json_str(o, "cluster", cluster);
}

static void times(json_object *o, const struct sl_job *j, int64_t now)
{
	json_object *x = json_object_new_object();
	int64_t limit = j->spec.time_limit;

	sl_json_int(x, "elapsed", elapsed(j, now));
	sl_json_int(x, "eligible", sl_sacct_eligible(j));
	sl_json_int(x, "end", j->end_time);
	/* null for a job that ended without running, 0 while it waits */
	sl_json_int_or_null(x, "start", started(j) || !sl_jobstate_is_final(j->state),
			    started(j) ? j->start_time : 0);
	sl_json_int(x, "submission", j->submit_time);
	sl_json_int(x, "suspended", sl_job_suspended_secs(j, now));
	json_object_object_add(x, "system", usec(0));
	sl_json_int_or_null(x, "limit", limit > 0, limit);
	json_object_object_add(x, "total", usec(0));
	json_object_object_add(x, "user", usec(0));
	json_object_object_add(o, "time", x);
}

/* reservation, state, steps, tres, user, wckey, working_directory */
static void job_tail(json_object *o, const struct sl_job *j, int64_t now,
		     const struct sl_usage *batch)
{
	json_object *x, *steps;

	x = json_object_new_object();
	sl_json_int(x, "id", 0);
	sl_json_int(x, "name", 0);
	json_object_object_add(o, "reservation", x);
	x = json_object_new_object();
	sl_json_str(x, "current", sl_jobstate_name(sl_sacct_job_state(j, now)));
	sl_json_str(x, "reason", j->reason && !started(j) ? j->reason : "None");
	json_object_object_add(o, "state", x);
	steps = json_object_new_array();
	if (sl_sacct_has_batch_step(j))
		json_object_array_add(steps, step_of(j, now, batch));
	json_object_object_add(o, "steps", steps);
	x = json_object_new_object();
	json_object_object_add(x, "allocated", job_tres(j, 1));
	json_object_object_add(x, "requested", job_tres(j, 0));
	json_object_object_add(o, "tres", x);
	sl_json_str(o, "user", j->user);
	x = json_object_new_object();
	sl_json_str(x, "wckey", NULL);
	json_object_object_add(x, "flags", json_object_new_array());
	json_object_object_add(o, "wckey", x);
	sl_json_str(o, "working_directory", j->spec.work_dir);
}

static json_object *job_of(const struct sl_job *j, const char *cluster, int64_t now,
			   const struct sl_usage *batch)
{
	json_object *o = json_object_new_object(), *x;
	char features[1024] = "";
	size_t k = 0;

	head(o, j, cluster);
	for (char **f = j->spec.features; f && *f && k < sizeof(features); f++)
		k += (size_t)snprintf(features + k, sizeof(features) - k, "%s%s",
				      f == j->spec.features ? "" : "&", *f);
	sl_json_str(o, "constraints", features);
	sl_json_null(o, "container");
	json_object_object_add(o, "derived_exit_code", exit_code(0));
	times(o, j, now);
	/* the job row's signal, as sacct's ExitCode shows it */
	json_object_object_add(o, "exit_code", exit_code(job_signal(j)));
	x = json_object_new_array();
	if (started(j)) {
		json_object_array_add(x, json_object_new_string("CLEAR_SCHEDULING"));
		json_object_array_add(x, json_object_new_string("STARTED_ON_SCHEDULE"));
	}
	json_object_object_add(o, "flags", x);
	sl_json_str(o, "group", j->group);
	x = json_object_new_object();
	sl_json_int(x, "job_id", 0);
	sl_json_null(x, "job_offset");
	json_object_object_add(o, "het", x);
	sl_json_int(o, "job_id", (int64_t)j->id);
	sl_json_str(o, "name", j->spec.name);
	json_object_object_add(o, "mcs", obj1("label", json_object_new_string("")));
	sl_json_str(o, "nodes", started(j) && j->nodelist ? j->nodelist : "None assigned");
	sl_json_str(o, "partition", j->spec.partition);
	sl_json_int(o, "priority", j->priority);
	sl_json_str(o, "qos", j->spec.qos);
	x = json_object_new_object();
	sl_json_int(x, "CPUs", sl_slurm_job_cpus(j));
	sl_json_int(x, "memory", sl_slurm_job_mem(j));
	json_object_object_add(o, "required", x);
	kill_user(o, j);
	job_tail(o, j, now, batch);
	return o;
}

/* An srun step: the batch step's object for the job as the step ran it,
 * with the step's own id, name, tasks, nodes and use (its srun's
 * measure; none for a step that has none). */
static json_object *srun_step_of(const struct sl_job *j, const struct sl_step *st, int64_t now)
{
	struct sl_job tmp = *j; /* shallow: only read, never freed */
	json_object *o, *x, *a;
	char id[16];

	tmp.start_time = st->start_time;
	tmp.end_time = st->end_time;
	tmp.state = st->state;
	tmp.exit_code = st->exit_code;
	tmp.exit_signal = st->exit_signal;
	o = step_of(&tmp, now, &st->use);
	if (sl_jobstate_is_final(st->state))
		json_object_object_add(o, "exit_code",
				       status_of(st->exit_signal ? 0 : st->exit_code, st->exit_signal));
	else
		json_object_object_add(o, "exit_code", exit_code(0));
	sl_json_str(o, "state", sl_jobstate_name(sl_sacct_step_state(j, st->state)));
	json_object_object_add(o, "tasks", obj1("count", json_object_new_int(st->ntasks)));
	if (json_object_object_get_ex(o, "nodes", &x)) {
		a = json_object_new_array();
		json_object_array_add(a, json_object_new_string(st->nodelist ? st->nodelist : ""));
		json_object_object_add(x, "list", a);
		sl_json_int(x, "count", st->nnodes);
		sl_json_str(x, "range", st->nodelist ? st->nodelist : "");
	}
	if (json_object_object_get_ex(o, "step", &x)) {
		snprintf(id, sizeof(id), "%u", st->step_id);
		sl_json_str(x, "id", id);
		sl_json_str(x, "name", st->name ? st->name : "");
	}
	json_object_object_add(o, "task", obj1("distribution", json_object_new_string("Cyclic")));
	return o;
}

int sl_sacct_json(struct sl_job *const *v, size_t n, const struct sl_step *steps, size_t ns,
		  int allocs, const char *cluster, int64_t now, enum sl_doc_form form,
		  struct sl_buf *out)
{
	json_object *doc = sl_json_doc(), *jobs = json_object_new_array(), *x, *plugin;

	/* slurmdbd's plugin, not slurmctld's */
	if (json_object_object_get_ex(doc, "meta", &x) &&
	    json_object_object_get_ex(x, "plugin", &plugin)) {
		sl_json_str(plugin, "type", "openapi/dbv0.0.38");
		sl_json_str(plugin, "name", "Slurm OpenAPI DB v0.0.38");
	}
	for (size_t i = 0; i < n; i++) {
		struct sl_usage job_use, batch_use;
		sl_sacct_usage_split(v[i], steps, ns, &job_use, &batch_use);
		json_object *job = job_of(v[i], cluster, now, &batch_use), *list;
		if (json_object_object_get_ex(job, "steps", &list)) {
			if (allocs)
				json_object_object_add(job, "steps", json_object_new_array());
			for (size_t k = 0; !allocs && k < ns; k++)
				if (sl_sacct_step_of_run(v[i], &steps[k]))
					json_object_array_add(list, srun_step_of(v[i], &steps[k], now));
		}
		int d = sl_sacct_derived_status(steps, ns, v[i]);
		json_object_object_add(job, "derived_exit_code", status_of(d >> 8, d & 0x7f));
		json_object_array_add(jobs, job);
	}
	if (n == 0 && json_object_object_get_ex(doc, "errors", &x)) {
		json_object *e = json_object_new_object();
		sl_json_str(e, "description", "Nothing found");
		sl_json_int(e, "error_number", 9003);
		sl_json_str(e, "error", "Nothing found with query");
		sl_json_str(e, "source", "slurmdb_jobs_get");
		json_object_array_add(x, e);
	}
	json_object_object_add(doc, "jobs", jobs);
	return form == SL_DOC_YAML ? sl_yaml_emit(doc, 0, out) : sl_json_emit(doc, out);
}
