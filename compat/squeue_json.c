/* squeue_json.c - squeue --json as Slurm 22.05 prints it: the openapi
 * v0.0.38 /jobs/ document (src/plugins/openapi/v0.0.38/jobs.c), each job
 * with the members slurmctld's job info has, in that order, with the same
 * types: a number that Slurm leaves unset is null, a string "". What
 * Sluice has no notion of (associations, federation, burst buffers, het
 * jobs, licenses, reservations, core specialisation) prints as Slurm
 * prints it for a job that does not use it; the README lists them. */
#include "script.h"
#include "slurm_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hostlist.h"
#include "job.h"
#include "slurm_tres.h"
#include "xalloc.h"

#define YEAR_SECONDS (365 * 24 * 3600) /* slurmctld's end of a job without a limit */

/* It got nodes: slurmctld stamps a job cancelled while pending with a
 * start time too, but gives it no resources. */
static int started(const struct sl_job *j)
{
	return j->start_time != 0 && j->nodelist != NULL && *j->nodelist != '\0';
}

static int given(int v)
{
	return v != SL_NO_VAL && v != 0;
}

static void batch_host(const struct sl_job *j, char *buf, size_t len)
{
	sl_hostlist_first(started(j) ? j->nodelist : NULL, buf, len);
}

/* The wait status slurmctld keeps: code << 8, or the signal. */
int64_t sl_json_exit_status(const struct sl_job *j)
{
	return j->exit_signal ? j->exit_signal : (int64_t)j->exit_code << 8;
}

/* Expected end of a running job: start + limit (a year without one). */
static int64_t end_time(const struct sl_job *j)
{
	if (j->end_time || !started(j))
		return j->end_time;
	if (j->spec.time_limit > 0)
		return j->start_time + sl_jobspec_limit_secs(&j->spec);
	return j->start_time + YEAR_SECONDS;
}

static json_object *job_flags(const struct sl_job *j)
{
	json_object *a = json_object_new_array();
	if (started(j))
		json_object_array_add(a, json_object_new_string("JOB_ACCRUE_OVER"));
	if (started(j) && !sl_jobstate_is_final(j->state))
		json_object_array_add(a, json_object_new_string("JOB_WAS_RUNNING"));
	return a;
}

/* job_resources: one socket per CPU with one core each, as sinfo --json
 * describes the local node (sinfo_json.c). */
static json_object *resources(const struct sl_job *j)
{
	json_object *o = json_object_new_object(), *nodes = json_object_new_array();
	json_object *n = json_object_new_object(), *sockets = json_object_new_object();
	struct sl_jobshape sh;
	char host[256], k[24];
	int per_node;

	sl_job_shape(j, &sh);
	per_node = sh.nodes > 0 ? j->alloc_cpus / sh.nodes : j->alloc_cpus;
	batch_host(j, host, sizeof(host));
	sl_json_str(o, "nodes", j->nodelist);
	sl_json_int(o, "allocated_cores", j->alloc_cpus);
	sl_json_int(o, "allocated_hosts", sh.nodes);
	for (int i = 0; i < per_node; i++) {
		json_object *sock = json_object_new_object(), *cores = json_object_new_object();
		json_object_object_add(cores, "0", json_object_new_string("allocated"));
		json_object_object_add(sock, "cores", cores);
		snprintf(k, sizeof(k), "%d", i);
		json_object_object_add(sockets, k, sock);
	}
	json_object_object_add(n, "sockets", sockets);
	sl_json_str(n, "nodename", host);
	sl_json_int(n, "cpus_used", 0);
	sl_json_int(n, "memory_used", 0);
	sl_json_int(n, "memory_allocated", sh.mem_per_node);
	json_object_array_add(nodes, n);
	json_object_object_add(o, "allocated_nodes", nodes);
	return o;
}

/* The job's command as slurmctld keeps it (scontrol's Command=); "" for
 * --wrap and stdin. */
static void command(json_object *o, const struct sl_jobspec *s)
{
	char *c = sl_script_command(s);
	sl_json_str(o, "command", c ? c : "");
	free(c);
}

/* The remainder's tasks as squeue's library gives them (xlate_array_task_str:
 * a step, or ranges cut to 63 characters), from the uncut list fold 2
 * brings. */
static char *task_string(const struct sl_job *j)
{
	struct sl_array *a = NULL;
	struct sl_err err = SL_ERR_INIT;
	uint32_t *v;
	char *t = NULL;
	size_t n;

	if (j->array_tasks == NULL || sl_array_parse(j->array_tasks, UINT32_MAX, &a, &err) != 0)
		return j->array_tasks ? sl_xstrdup(j->array_tasks) : NULL;
	n = sl_array_count(a);
	v = sl_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = sl_array_task(a, i);
	t = sl_array_fmt(v, n, sl_array_throttle(a));
	free(v);
	sl_array_free(a);
	return t;
}

static void part1(json_object *o, const struct sl_job *j, const char *cluster)
{
	char *tasks = task_string(j);
	const struct sl_jobspec *s = &j->spec;
	char host[256];

	batch_host(j, host, sizeof(host));
	sl_json_str(o, "account", s->account);
	sl_json_int(o, "accrue_time", s->hold ? 0 : j->eligible_time);
	sl_json_str(o, "admin_comment", NULL);
	/* a task: its array and index; the pending remainder (array_tasks):
	 * the tasks it holds, and no index, as slurmctld's meta record */
	sl_json_int(o, "array_job_id", (int64_t)j->array_job_id);
	if (j->array_job_id != 0 && j->array_tasks == NULL)
		sl_json_int(o, "array_task_id", j->array_task_id);
	else
		sl_json_null(o, "array_task_id");
	sl_json_int(o, "array_max_tasks", j->array_job_id ? j->array_throttle : 0);
	sl_json_str(o, "array_task_string", tasks);
	free(tasks);
	sl_json_int(o, "association_id", 0);
	sl_json_str(o, "batch_features", NULL);
	sl_json_bool(o, "batch_flag", !j->spec.interactive);
	sl_json_str(o, "batch_host", host);
	json_object_object_add(o, "flags", job_flags(j));
	sl_json_str(o, "burst_buffer", NULL);
	sl_json_str(o, "burst_buffer_state", NULL);
	sl_json_str(o, "cluster", cluster);
	sl_json_str(o, "cluster_features", NULL);
	command(o, s);
	sl_json_str(o, "comment", s->comment);
	sl_json_str(o, "container", NULL);
	sl_json_bool(o, "contiguous", 0);
	sl_json_null(o, "core_spec");
	sl_json_null(o, "thread_spec");
	sl_json_int_or_null(o, "cores_per_socket", given(s->cores_per_socket), s->cores_per_socket);
	if (started(j))
		sl_json_double(o, "billable_tres", j->alloc_cpus);
	else
		sl_json_null(o, "billable_tres");
	sl_json_int_or_null(o, "cpus_per_task", given(s->cpus_per_task), s->cpus_per_task);
	sl_json_null(o, "cpu_frequency_minimum");
	sl_json_null(o, "cpu_frequency_maximum");
	sl_json_null(o, "cpu_frequency_governor");
	sl_json_str(o, "cpus_per_tres", NULL);
	sl_json_int(o, "deadline", s->deadline);
	sl_json_int(o, "delay_boot", 0);
	sl_json_str(o, "dependency", j->dependency);
	sl_json_int(o, "derived_exit_code", 0);
	sl_json_int(o, "eligible_time", s->hold ? 0 : j->eligible_time);
	sl_json_int(o, "end_time", end_time(j));
	sl_json_str(o, "excluded_nodes", s->exclude);
	sl_json_int(o, "exit_code", sl_json_exit_status(j));
}

static void features(json_object *o, const struct sl_jobspec *s)
{
	struct sl_buf *b = sl_buf_new(4096);
	for (char **f = s->features; f && *f; f++)
		sl_buf_addf(b, "%s%s", f == s->features ? "" : "&", *f);
	sl_json_str(o, "features", sl_buf_str(b));
	sl_buf_free(b);
}

static void part2(json_object *o, const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	struct sl_jobshape sh;

	sl_job_shape(j, &sh);
	features(o, s);
	sl_json_str(o, "federation_origin", NULL);
	sl_json_str(o, "federation_siblings_active", NULL);
	sl_json_str(o, "federation_siblings_viable", NULL);
	json_object_object_add(o, "gres_detail", json_object_new_array());
	sl_json_int(o, "group_id", j->gid);
	sl_json_str(o, "group_name", j->group);
	sl_json_int(o, "job_id", (int64_t)j->id);
	if (started(j)) /* absent, not null, before it has any */
		json_object_object_add(o, "job_resources", resources(j));
	sl_json_str(o, "job_state", sl_jobstate_name(j->state));
	sl_json_int(o, "last_sched_evaluation", started(j) ? j->start_time : j->submit_time);
	sl_json_str(o, "licenses", NULL);
	sl_json_int(o, "max_cpus", 0);
	sl_json_int(o, "max_nodes", given(s->nodes_max) ? s->nodes_max : 0);
	sl_json_str(o, "mcs_label", NULL);
	sl_json_str(o, "memory_per_tres", NULL);
	sl_json_str(o, "name", s->name);
	sl_json_str(o, "nodes", started(j) ? j->nodelist : NULL);
	sl_json_int_or_null(o, "nice", s->nice != 0, s->nice);
	sl_json_null(o, "tasks_per_core");
	sl_json_int(o, "tasks_per_node", given(s->ntasks_per_node) ? s->ntasks_per_node : 0);
	sl_json_int_or_null(o, "tasks_per_socket", given(s->ntasks_per_socket), s->ntasks_per_socket);
	sl_json_int(o, "tasks_per_board", 0);
	/* null for a job that ended without ever running */
	sl_json_int_or_null(o, "cpus", started(j) || !sl_jobstate_is_final(j->state),
			    sl_slurm_job_cpus(j));
	sl_json_int(o, "node_count", started(j) && j->alloc_nodes ? j->alloc_nodes : sh.nodes);
	sl_json_int(o, "tasks", sh.ntasks);
	sl_json_int(o, "het_job_id", 0);
	sl_json_str(o, "het_job_id_set", NULL);
	sl_json_int(o, "het_job_offset", 0);
	sl_json_str(o, "partition", s->partition);
	sl_json_str(o, "prefer", NULL);
	sl_json_int_or_null(o, "memory_per_node", s->mem_per_node > 0, s->mem_per_node);
	sl_json_int_or_null(o, "memory_per_cpu", s->mem_per_cpu > 0, s->mem_per_cpu);
	sl_json_int(o, "minimum_cpus_per_node", sh.cpus_per_node);
	sl_json_int(o, "minimum_tmp_disk_per_node", j->spec.tmp_mb > 0 ? j->spec.tmp_mb : 0);
	sl_json_int(o, "preempt_time", 0);
	sl_json_int(o, "pre_sus_time", j->pre_suspend);
	sl_json_int(o, "priority", j->priority);
	sl_json_null(o, "profile");
	sl_json_str(o, "qos", s->qos);
	sl_json_bool(o, "reboot", 0);
	sl_json_str(o, "required_nodes", s->nodelist);
	sl_json_bool(o, "requeue", s->requeue);
	sl_json_int(o, "resize_time", 0);
	sl_json_int(o, "restart_cnt", j->attempt);
	sl_json_str(o, "resv_name", NULL);
	sl_json_null(o, "shared");
}

static void gres(json_object *o, const struct sl_jobspec *s)
{
	char job[64] = "", node[64] = "", task[64] = "";

	if (given(s->gpus))
		snprintf(job, sizeof(job), "gres:gpu%s%s:%d", s->gpu_type ? ":" : "",
			 s->gpu_type ? s->gpu_type : "", s->gpus);
	if (given(s->gpus_per_node))
		snprintf(node, sizeof(node), "gres:gpu%s%s:%d", s->gpu_type ? ":" : "",
			 s->gpu_type ? s->gpu_type : "", s->gpus_per_node);
	if (given(s->gpus_per_task))
		snprintf(task, sizeof(task), "gres:gpu:%d", s->gpus_per_task);
	sl_json_str(o, "tres_per_job", job);
	sl_json_str(o, "tres_per_node", node);
	sl_json_str(o, "tres_per_socket", NULL);
	sl_json_str(o, "tres_per_task", task);
}

static void part3(json_object *o, const struct sl_job *j)
{
	static const char *const show[] = {"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL", NULL};
	const struct sl_jobspec *s = &j->spec;
	char tres[512];

	sl_json_strv(o, "show_flags", show);
	sl_json_int(o, "sockets_per_board", 0);
	sl_json_int_or_null(o, "sockets_per_node", given(s->sockets_per_node), s->sockets_per_node);
	sl_json_int(o, "start_time", j->start_time);
	sl_json_str(o, "state_description", j->reason_text);
	sl_json_str(o, "state_reason", j->reason ? j->reason : "None");
	/* slurmctld leaves the paths of stdout and stderr to scontrol */
	/* the patterns as given (slurmctld's std_err/std_out); "" without */
	sl_json_str(o, "standard_error", s->std_err);
	sl_json_str(o, "standard_input", s->std_in ? s->std_in : "/dev/null");
	sl_json_str(o, "standard_output", s->std_out);
	sl_json_int(o, "submit_time", j->submit_time);
	sl_json_int(o, "suspend_time", j->suspend_time);
	sl_json_str(o, "system_comment", NULL);
	sl_json_int_or_null(o, "time_limit", s->time_limit > 0, s->time_limit);
	sl_json_int(o, "time_minimum", 0);
	sl_json_int_or_null(o, "threads_per_core", given(s->threads_per_core), s->threads_per_core);
	sl_json_str(o, "tres_bind", NULL);
	sl_json_str(o, "tres_freq", NULL);
	gres(o, s);
	sl_slurm_tres_fmt(j, SL_TRES_SQUEUE, 0, tres, sizeof(tres));
	sl_json_str(o, "tres_req_str", tres);
	sl_json_str(o, "tres_alloc_str", started(j) ? tres : NULL);
	sl_json_int(o, "user_id", j->uid);
	sl_json_str(o, "user_name", j->user);
	sl_json_str(o, "wckey", NULL);
	sl_json_str(o, "current_working_directory", s->work_dir);
}

int sl_squeue_json(struct sl_job *const *v, size_t n, const char *cluster, int64_t now,
		   enum sl_doc_form form, struct sl_buf *out)
{
	json_object *doc = sl_json_doc(), *jobs = json_object_new_array();

	(void)now;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		part1(o, v[i], cluster);
		part2(o, v[i]);
		part3(o, v[i]);
		json_object_array_add(jobs, o);
	}
	json_object_object_add(doc, "jobs", jobs);
	return form == SL_DOC_YAML ? sl_yaml_emit(doc, 1, out) : sl_json_emit(doc, out);
}
