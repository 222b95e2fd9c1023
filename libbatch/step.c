/* step.c - a job step's record and its JSON form (step.h). */
#include "step.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void sl_step_clear(struct sl_step *s)
{
	free(s->name);
	free(s->nodelist);
	free(s->dist);
	free(s->cpu_freq);
	free(s->srun_host);
	memset(s, 0, sizeof(*s));
}

void sl_step_free_array(struct sl_step *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		sl_step_clear(&v[i]);
	free(v);
}

json_object *sl_step_to_json(const struct sl_step *s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "job", json_object_new_int64((int64_t)s->job_id));
	json_object_object_add(o, "step", json_object_new_int64(s->step_id));
	json_object_object_add(o, "name", json_object_new_string(s->name ? s->name : ""));
	json_object_object_add(o, "state", json_object_new_string(sl_jobstate_name(s->state)));
	json_object_object_add(o, "exit_code", json_object_new_int(s->exit_code));
	json_object_object_add(o, "exit_signal", json_object_new_int(s->exit_signal));
	json_object_object_add(o, "start", json_object_new_int64(s->start_time));
	json_object_object_add(o, "end", json_object_new_int64(s->end_time));
	json_object_object_add(o, "ntasks", json_object_new_int(s->ntasks));
	json_object_object_add(o, "nnodes", json_object_new_int(s->nnodes));
	json_object_object_add(o, "cpus", json_object_new_int(s->cpus));
	json_object_object_add(o, "overlap", json_object_new_boolean(s->overlap));
	if (s->mem > 0)
		json_object_object_add(o, "mem", json_object_new_int64(s->mem));
	json_object_object_add(o, "nodelist", json_object_new_string(s->nodelist ? s->nodelist : ""));
	json_object_object_add(o, "uid", json_object_new_int64((int64_t)s->uid));
	json_object_object_add(o, "cancelled_by", json_object_new_int64(s->cancelled_by));
	if (s->pid > 0)
		json_object_object_add(o, "srun_pid", json_object_new_int64((int64_t)s->pid));
	if (s->time_limit > 0)
		json_object_object_add(o, "time_limit", json_object_new_int64(s->time_limit));
	if (s->dist != NULL)
		json_object_object_add(o, "dist", json_object_new_string(s->dist));
	if (s->cpu_freq != NULL)
		json_object_object_add(o, "cpu_freq", json_object_new_string(s->cpu_freq));
	if (s->srun_host != NULL)
		json_object_object_add(o, "srun_host", json_object_new_string(s->srun_host));
	if (s->use.tasks.n > 0 || s->use.user_usec || s->use.sys_usec)
		json_object_object_add(o, "usage", sl_usage_to_obj(&s->use));
	if (s->in_batch)
		json_object_object_add(o, "in_batch", json_object_new_boolean(1));
	return o;
}

static int64_t num(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

static char *str(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
		       ? sl_xstrdup(json_object_get_string(v)) : NULL;
}

int sl_step_from_json(json_object *o, struct sl_step *s, struct sl_err *err)
{
	json_object *v;
	memset(s, 0, sizeof(*s));
	if (!json_object_is_type(o, json_type_object))
		return sl_err_set(err, SL_EPROTO, "step: not an object");
	s->job_id = (uint64_t)num(o, "job");
	s->step_id = (uint32_t)num(o, "step");
	s->name = str(o, "name");
	s->state = SL_JOB_RUNNING;
	if (json_object_object_get_ex(o, "state", &v)) {
		int st = sl_jobstate_parse(json_object_get_string(v));
		if (st < 0)
			return sl_err_set(err, SL_EPROTO, "step: bad state");
		s->state = (enum sl_jobstate)st;
	}
	s->exit_code = (int)num(o, "exit_code");
	s->exit_signal = (int)num(o, "exit_signal");
	s->start_time = num(o, "start");
	s->end_time = num(o, "end");
	s->ntasks = (int)num(o, "ntasks");
	s->nnodes = (int)num(o, "nnodes");
	s->cpus = (int)num(o, "cpus");
	s->mem = num(o, "mem");
	s->overlap = num(o, "overlap") != 0;
	s->nodelist = str(o, "nodelist");
	s->uid = (uid_t)num(o, "uid");
	s->cancelled_by = json_object_object_get_ex(o, "cancelled_by", &v)
				  ? json_object_get_int64(v) : -1;
	s->pid = (pid_t)num(o, "srun_pid");
	s->time_limit = num(o, "time_limit");
	s->dist = str(o, "dist");
	s->cpu_freq = str(o, "cpu_freq");
	s->srun_host = str(o, "srun_host");
	if (json_object_object_get_ex(o, "usage", &v))
		sl_usage_from_obj(v, &s->use);
	s->in_batch = json_object_object_get_ex(o, "in_batch", &v) && json_object_get_boolean(v);
	return 0;
}
