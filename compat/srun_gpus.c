/* srun_gpus.c - a job step's GPUs inside its allocation (srun_gpus.h).
 *
 * Slurm 22.05 grants a step the GPUs it asks for out of the job's: --gpus
 * in all (spread over the step's nodes), --gpus-per-node or --gres=gpu:N
 * on each node, --gpus-per-task for each task there; a step asking none
 * holds all the job's. srun reads the job's SLURM_GPUS and
 * SLURM_GPUS_PER_TASK as its own options, so a step inherits the job's
 * request. On a node running more than one of the step's tasks,
 * --gpus-per-task binds each task to its own (slurmstepd's
 * SLURMD_TRES_BIND=gpu:per_task:N).
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
	int n = (int)a->ngpus, asked = o->gpus != 0 || o->gpus_per_node != 0 || o->gpus_per_task > 0;
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

/* GPUs [from, from + k) of the job's node list, comma-joined. */
static char *join(const struct sl_srun_layout *l, int from, int k)
{
	size_t cap = 1, used = 0;
	char *s;
	for (int i = from; i < from + k && (size_t)i < l->ngpus; i++)
		cap += strlen(l->gpus[i]) + 1;
	s = sl_xcalloc(cap, 1);
	for (int i = from; i < from + k && (size_t)i < l->ngpus; i++)
		used += (size_t)snprintf(s + used, cap - used, "%s%s", used ? "," : "", l->gpus[i]);
	return s;
}

char **sl_srun_gpus_env(const struct sl_srun_layout *l, int t)
{
	static const char *const names[] = {"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
					    "ROCR_VISIBLE_DEVICES", "SLURM_STEP_GPUS",
					    "ZE_AFFINITY_MASK"};
	size_t n = sizeof(names) / sizeof(names[0]), k = 0;
	int node = l->task[t].node, on, bind;
	char **v, *ids;

	if (l->gpus_on == NULL || l->gpus_none || (on = l->gpus_on[node]) <= 0)
		return NULL;
	/* slurmstepd drops the binding of a node with one task (mgr.c) */
	bind = l->gpus_per_task > 0 && l->tasks_on[node] > 1;
	ids = bind ? join(l, l->task[t].local * l->gpus_per_task, l->gpus_per_task)
		   : join(l, 0, on);
	v = sl_xcalloc(n + 3, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[k++] = sl_xasprintf("%s=%s", names[i], ids);
	v[k++] = sl_xasprintf("SLURM_GPUS_ON_NODE=%d", on);
	if (bind)
		v[k++] = sl_xasprintf("SLURMD_TRES_BIND=gpu:per_task:%d", l->gpus_per_task);
	free(ids);
	return v;
}

void sl_srun_gpus_strip(char **env)
{
	static const char *const names[] = {"CUDA_VISIBLE_DEVICES=", "GPU_DEVICE_ORDINAL=",
					    "ROCR_VISIBLE_DEVICES=", "SLURM_STEP_GPUS=",
					    "ZE_AFFINITY_MASK=", "SLURM_GPUS_ON_NODE="};
	size_t w = 0;
	for (size_t i = 0; env && env[i]; i++) {
		int drop = 0;
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			drop |= strncmp(env[i], names[k], strlen(names[k])) == 0;
		if (drop)
			free(env[i]);
		else
			env[w++] = env[i];
	}
	if (env)
		env[w] = NULL;
}
