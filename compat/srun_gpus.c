/* srun_gpus.c - a job step's GPUs inside its allocation (srun_gpus.h).
 *
 * Slurm 22.05 grants a step the GPUs it asks for out of the job's: --gpus
 * in all (spread over the step's nodes), --gpus-per-node or --gres=gpu:N
 * on each node, --gpus-per-task for each task there; a step asking none
 * holds all the job's. srun reads the job's SLURM_GPUS and
 * SLURM_GPUS_PER_TASK as its own options, so a step inherits the job's
 * request. On a node running more than one of the step's tasks,
 * --gpu-bind binds each task to some of them (srun_gpu_bind.c), as do
 * --ntasks-per-gpu and --gpus-per-task (slurmstepd's
 * SLURMD_TRES_BIND=gpu:single:N, gpu:per_task:N).
 *
 * The step takes the first of the job's GPUs on each node: Sluice does not
 * count GPUs per step, so two steps running at once may name the same
 * ones (where Slurm would hold the second back). Its executors bind no
 * device either: the variables are what tells a task its GPUs. */
#include "srun_gpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "srun_gpu_bind.h"
#include "xalloc.h"

int sl_srun_gpu_count(const char *arg, int gres)
{
	const char *num = arg;
	char *end;
	long v;

	if (gres) {
		if (strncasecmp(arg, "gpu", 3) != 0 || (arg[3] != '\0' && arg[3] != ':'))
			return strncasecmp(arg, "gres:gpu", 8) == 0 ? sl_srun_gpu_count(arg + 5, 1) : 0;
		if (arg[3] == '\0')
			return 1;
		num = arg + 4;
	}
	if (strrchr(num, ':') != NULL) /* a type before the count */
		num = strrchr(num, ':') + 1;
	v = strtol(num, &end, 10);
	if (end == num || *end != '\0' || v < 0 || v > 1000000)
		return SL_SRUN_GPUS_BAD;
	return (int)v;
}

static int env_int(char *const *envp, const char *name)
{
	size_t k = strlen(name);
	for (char *const *e = envp; e && *e; e++)
		if (strncmp(*e, name, k) == 0 && (*e)[k] == '=') {
			const char *v = *e + k + 1;
			/* "a100:2" as sbatch --gpus=a100:2 leaves it */
			return atoi(strrchr(v, ':') ? strrchr(v, ':') + 1 : v);
		}
	return 0;
}

void sl_srun_gpus_job(char *const *envp, struct sl_srun_alloc *a)
{
	a->job_gpt = env_int(envp, "SLURM_GPUS_PER_TASK");
	a->job_gpus = env_int(envp, "SLURM_GPUS");
	if (a->job_gpus == 0 && a->job_gpt > 0) /* the controller's count for the job */
		a->job_gpus = a->job_gpt * env_int(envp, "SLURM_NTASKS");
	a->job_gpn = env_int(envp, "SLURM_GPUS_PER_NODE");
	if (a->job_gpn == 0 && a->job_gpus == 0 && a->job_gpt == 0)
		a->job_gpn = (int)a->ngpus;
}

static int invalid(struct sl_err *err, uint64_t job, const char *line)
{
	return sl_err_set(err, SL_ENOFIT, "%s%s%ssrun: error: Unable to create step for job %llu: "
			  "Invalid generic resource (gres) specification", line ? "srun: error: " : "",
			  line ? line : "", line ? "\n" : "", (unsigned long long)job);
}

/* gres.c's checks of a step against its job, in its order and words. */
static int more_than_job(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
			 struct sl_err *err)
{
	const struct {
		const char *what;
		int step, job;
	} row[] = {{"gres", o->gpus, a->job_gpus},
		   {"gres_per_node", o->gpus_per_node, a->job_gpn},
		   {"gres_per_task", o->gpus_per_task, a->job_gpt}};
	char line[160];

	for (size_t i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		if (row[i].step > 0 && row[i].job > 0 && row[i].job < row[i].step) {
			snprintf(line, sizeof(line), "Step requested %s=gpu:%d is more than the job's "
				 "%s=gpu:%d", row[i].what, row[i].step, row[i].what, row[i].job);
			return invalid(err, a->job_id, line);
		}
	return 0;
}

/* What node i of the step holds: --gpus-per-task over its tasks, else
 * --gpus-per-node, else --gpus spread (the first nodes one more), else all. */
static int node_gpus(const struct sl_srun_opts *o, const struct sl_srun_layout *l, int i,
		     int ngpus)
{
	if (o->gpus_per_task > 0)
		return l->tasks_on[i] * o->gpus_per_task;
	if (o->gpus_per_node > 0)
		return o->gpus_per_node;
	if (o->gpus > 0)
		return o->gpus / l->nnodes + (i < o->gpus % l->nnodes);
	return ngpus;
}

int sl_srun_gpus_place(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
		       struct sl_srun_layout *l, struct sl_err *err)
{
	int n = (int)a->ngpus, asked = o->gpus != 0 || o->gpus_per_node != 0 ||
				       o->gpus_per_task > 0 || o->ntasks_per_gpu > 0;
	int r;

	l->gpus = a->gpus;
	l->ngpus = a->ngpus;
	l->gpus_none = o->gres_none;
	/* none beside a count per node (typed, or the job's
	 * SLURM_GPUS_PER_NODE that srun reads as --gpus-per-node): slurmctld
	 * cannot read the two as one request */
	if (o->gres_none && o->gpus_per_node != 0)
		return sl_err_set(err, SL_EINVAL, "srun: error: Unable to create step for job %llu: "
				  "Invalid Trackable RESource (TRES) specification",
				  (unsigned long long)a->job_id);
	if (o->gres_none)
		return 0;
	if (n == 0)
		return asked ? invalid(err, a->job_id, "Step requested GRES but job doesn't have "
				       "GRES") : 0;
	if (o->gpus == SL_SRUN_GPUS_BAD || o->gpus_per_node == SL_SRUN_GPUS_BAD)
		return invalid(err, a->job_id, NULL);
	if ((r = more_than_job(o, a, err)) != 0)
		return r;
	/* none of the node's GPUs left for a task, a node, or its share */
	if (o->gpus_per_task > n || o->gpus_per_node > n ||
	    (o->gpus + l->nnodes - 1) / l->nnodes > n)
		return invalid(err, a->job_id, NULL);
	l->gpus_on = sl_xcalloc((size_t)l->nnodes, sizeof(*l->gpus_on));
	for (int i = 0; i < l->nnodes; i++)
		if ((l->gpus_on[i] = node_gpus(o, l, i, n)) > n) /* fewer tasks fit than asked */
			return sl_err_set(err, SL_ENOFIT, "srun: error: Unable to create step for job "
					  "%llu: More processors requested than permitted",
					  (unsigned long long)a->job_id);
	return 0;
}

/* The GPUs of the node's first `on` that use[] marks, comma-joined. */
static char *join(const struct sl_srun_layout *l, const int *use, int on)
{
	size_t cap = 1, used = 0;
	char *s;
	for (int i = 0; i < on && (size_t)i < l->ngpus; i++)
		cap += strlen(l->gpus[i]) + 1;
	s = sl_xcalloc(cap, 1);
	for (int i = 0; i < on && (size_t)i < l->ngpus; i++)
		if (use[i])
			used += (size_t)snprintf(s + used, cap - used, "%s%s", used ? "," : "",
						 l->gpus[i]);
	return s;
}

/* The binding slurmstepd gets for the step: --gpu-bind, else the one
 * srun implies (launch.c: gpu:single:N of --ntasks-per-gpu, gpu:per_task:N
 * of --gpus-per-task); "" for none. On a node running one of the step's
 * tasks slurmstepd drops it (mgr.c). */
static void step_bind(const struct sl_srun_layout *l, int node, char *b, size_t len)
{
	*b = '\0';
	if (l->tasks_on[node] <= 1)
		return;
	if (l->gpu_bind != NULL)
		snprintf(b, len, "%s", l->gpu_bind);
	else if (l->ntasks_per_gpu > 0)
		snprintf(b, len, "single:%d", l->ntasks_per_gpu);
	else if (l->gpus_per_task > 0)
		snprintf(b, len, "per_task:%d", l->gpus_per_task);
}

/* Task t's GPUs on its node: use[] over the step's there (the first `on`
 * of the job's), by the binding; 0 when the binding names none. */
static int task_gpus(const struct sl_srun_layout *l, int t, int on, const char *bind, int *use,
		     char **msg)
{
	int *idx = sl_xcalloc((size_t)on + 1, sizeof(*idx)), r;
	for (int i = 0; i < on; i++) { /* the node's device numbers ("0", "1", ...) */
		char *end;
		long v = (size_t)i < l->ngpus ? strtol(l->gpus[i], &end, 10) : -1;
		idx[i] = (size_t)i < l->ngpus && *end == '\0' && v >= 0 ? (int)v : i;
	}
	r = sl_srun_gpu_bind(bind, idx, on, l->task[t].local, l->nodes[l->task[t].node], use, msg);
	free(idx);
	return r;
}

char **sl_srun_gpus_env(const struct sl_srun_layout *l, int t)
{
	static const char *const names[] = {"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
					    "ROCR_VISIBLE_DEVICES", "SLURM_STEP_GPUS",
					    "ZE_AFFINITY_MASK"};
	size_t n = sizeof(names) / sizeof(names[0]), k = 0;
	int node = l->task[t].node, on, *use, named = 1;
	char **v, *ids, bind[256], *msg = NULL;

	if (l->gpus_on == NULL || l->gpus_none || (on = l->gpus_on[node]) <= 0)
		return NULL;
	step_bind(l, node, bind, sizeof(bind));
	use = sl_xcalloc((size_t)on, sizeof(*use));
	for (int i = 0; i < on; i++)
		use[i] = 1;
	if (*bind != '\0')
		named = task_gpus(l, t, on, bind, use, &msg);
	free(msg);
	ids = join(l, use, on);
	v = sl_xcalloc(n + 3, sizeof(*v));
	for (size_t i = 0; i < n && named; i++)
		v[k++] = sl_xasprintf("%s=%s", names[i], ids);
	v[k++] = sl_xasprintf("SLURM_GPUS_ON_NODE=%d", on);
	if (*bind != '\0')
		v[k++] = sl_xasprintf("SLURMD_TRES_BIND=gpu:%s", bind);
	free(ids);
	free(use);
	return v;
}

int sl_srun_gpus_unnamed(const struct sl_srun_layout *l, int t)
{
	int node = l->task[t].node, on, *use, named = 1;
	char bind[256], *msg = NULL;

	if (l->gpus_on == NULL || l->gpus_none || (on = l->gpus_on[node]) <= 0)
		return 0;
	step_bind(l, node, bind, sizeof(bind));
	if (*bind == '\0')
		return 0;
	use = sl_xcalloc((size_t)on, sizeof(*use));
	named = task_gpus(l, t, on, bind, use, &msg);
	free(msg);
	free(use);
	return !named;
}

char *sl_srun_gpus_msg(const struct sl_srun_layout *l, int t)
{
	int node = l->task[t].node, on, *use;
	char bind[256], *msg = NULL;

	if (l->gpus_on == NULL || l->gpus_none || (on = l->gpus_on[node]) <= 0)
		return NULL;
	step_bind(l, node, bind, sizeof(bind));
	if (*bind == '\0')
		return NULL;
	use = sl_xcalloc((size_t)on, sizeof(*use));
	(void)task_gpus(l, t, on, bind, use, &msg);
	free(use);
	return msg;
}

void sl_srun_gpus_strip(char **env, int keep_count)
{
	static const char *const names[] = {"CUDA_VISIBLE_DEVICES=", "GPU_DEVICE_ORDINAL=",
					    "ROCR_VISIBLE_DEVICES=", "SLURM_STEP_GPUS=",
					    "ZE_AFFINITY_MASK=", "SLURM_GPUS_ON_NODE="};
	size_t w = 0, nn = sizeof(names) / sizeof(names[0]) - (keep_count != 0);
	for (size_t i = 0; env && env[i]; i++) {
		int drop = 0;
		for (size_t k = 0; k < nn; k++)
			drop |= strncmp(env[i], names[k], strlen(names[k])) == 0;
		if (drop)
			free(env[i]);
		else
			env[w++] = env[i];
	}
	if (env)
		env[w] = NULL;
}
