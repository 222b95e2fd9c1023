/* slurm_opt_verify.c - sbatch's checks that need every option, once all
 * are in (Slurm's _opt_verify): the memory options' exclusion, GPUs per
 * task without a count, --hint against the CPU layout options, host files,
 * the node count -w implies, more nodes than tasks. */
#include "slurm_opt_int.h"

#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "xalloc.h"

/* validate_hint_option(): --hint and the CPU layout options it implies
 * exclude each other; the command line (and #SBATCH) settles it, then the
 * environment. */
static void settle_hint(struct ctx *c)
{
	struct sl_jobspec *s = c->spec;
	struct sl_slurm_hint h;
	char *bad = NULL;
	/* Slurm counts #SBATCH lines as the command line here: only its
	 * environment variables are "set by env" */
	unsigned cli = SRC_BIT(SRC_CLI) | SRC_BIT(SRC_SCRIPT), env = SRC_BIT(SRC_ENV);
	int use;

	if (s->hint == NULL)
		return;
	if ((c->hint_src & cli) && (c->cpu_layout_src & cli))
		use = 0;
	else if (c->hint_src & cli)
		use = 1;
	else if (c->cpu_layout_src & cli)
		use = 0;
	else
		use = !((c->hint_src & env) && (c->cpu_layout_src & env));
	if (!use || sl_slurm_parse_hint(s->hint, &h, &bad) != 0) {
		free(bad);
		free(s->hint);
		s->hint = NULL;
		return;
	}
	/* --hint on the command line or in #SBATCH resets what it would
	 * override (--ntasks-per-core, --threads-per-core, -B: sockets, cores
	 * and threads); from the environment it only sets what its words say */
	if (c->hint_src & cli) {
		s->sockets_per_node = s->cores_per_socket = s->threads_per_core = 0;
		s->ntasks_per_core = 0;
	}
	if (h.set & SL_HINT_SOCKETS)
		s->sockets_per_node = h.sockets;
	if (h.set & SL_HINT_CORES)
		s->cores_per_socket = h.cores;
	if (h.set & SL_HINT_THREADS)
		s->threads_per_core = h.threads;
}

/* *list naming a host file (a '/' in it) replaced by the file's names. */
static int host_file(char **list, struct sl_err *err)
{
	char *names;
	int r;

	if (*list == NULL || strchr(*list, '/') == NULL)
		return 0;
	if ((r = sl_hostfile_read(*list, &names, err)) != 0)
		return r;
	free(*list);
	*list = names;
	return 0;
}

/* -x naming a file (exit 1), then --nodefile (its failure exits 255, with
 * sbatch's own line after the reader's), then -w naming a file (exit 1),
 * in the order sbatch's _opt_verify reads them. */
static int host_files(struct ctx *c, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	char *names = NULL;

	if (host_file(&s->exclude, err) != 0) {
		c->status = 1;
		return -SL_EINVAL;
	}
	if (c->nodefile != NULL) {
		if (sl_hostfile_read(c->nodefile, &names, err) != 0) {
			char *msg = sl_xasprintf("%s\nInvalid --nodefile node file", err->msg);
			sl_err_clear(err);
			sl_err_set(err, SL_EINVAL, "%s", msg);
			free(msg);
			return -SL_EINVAL;
		}
		free(s->nodelist);
		s->nodelist = names;
	}
	if (host_file(&s->nodelist, err) != 0) {
		c->status = 1;
		return -SL_EINVAL;
	}
	return 0;
}

int sl_sbopt_finish(struct ctx *c, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	struct sl_err ignore = SL_ERR_INIT;
	char **names = NULL;
	size_t n = 0;

	if ((c->mem_cli != 0) + (c->mem_per_cpu_cli != 0) + (c->mem_per_gpu_cli != 0) > 1) {
		c->fl->fatal = 1;
		c->status = 1;
		return sl_err_set(err, SL_EINVAL,
				  "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
	}
	/* -N with --ntasks-per-node is a task count too: sbatch sets ntasks
	 * from them before slurmctld checks (NERSC's GPU pattern); so is -N K
	 * alone (not a range) without -c, one task a node, as
	 * gres_job_state_validate() counts them */
	int per_node = s->nodes != SL_NO_VAL && s->nodes > 0 && s->nodes_max == s->nodes &&
		       s->cpus_per_task == SL_NO_VAL;
	if (s->gpus_per_task > 0 && s->ntasks == SL_NO_VAL && !per_node &&
	    (s->ntasks_per_node == SL_NO_VAL || s->ntasks_per_node <= 0) &&
	    (s->gpus == SL_NO_VAL || s->gpus <= 0)) {
		c->status = 1;
		return sl_err_set(err, SL_EINVAL, "Failed to validate job spec. --gpus-per-task "
				  "used without either --gpus or -n/--ntasks is not allowed.\n"
				  "Invalid generic resource (gres) specification");
	}
	settle_hint(c);
	if (sl_sbopt_finish_spec(c, err) != 0 || sl_sbopt_finish_tasks(c, err) != 0 ||
	    sl_sbopt_finish_mem_gpu(c, err) != 0 || host_files(c, err) != 0)
		return -err->code;
	/* -w names nodes: at least that many (hostlist_uniq'd, as Slurm does) */
	if (s->nodelist != NULL && sl_hostlist_expand(s->nodelist, &names, &n, &ignore) == 0) {
		char *compressed = sl_hostlist_compress(names, n);
		char **uniq = NULL;
		size_t k = 0;

		if (sl_hostlist_expand(compressed, &uniq, &k, &ignore) != 0)
			k = n;
		if (s->nodes == SL_NO_VAL || s->nodes < (int)k)
			s->nodes = (int)k;
		if (s->nodes_max != SL_NO_VAL && s->nodes_max != 0 && s->nodes_max < s->nodes)
			s->nodes_max = s->nodes;
		sl_strv_free(uniq);
		free(compressed);
	}
	sl_strv_free(names);
	/* more nodes than tasks: sbatch's _opt_verify gives each task a node
	 * and says so (-N 2-4 -n 1 is 1-1) */
	if (s->ntasks != SL_NO_VAL && s->ntasks > 0 && s->nodes != SL_NO_VAL &&
	    s->nodes > s->ntasks) {
		char *w = sl_xasprintf("%ssbatch: Warning: can't run %d processes on %d nodes, "
				       "setting nnodes to %d\n", c->fl->warn ? c->fl->warn : "",
				       s->ntasks, s->nodes, s->ntasks);
		free(c->fl->warn);
		c->fl->warn = w;
		s->nodes = s->ntasks;
		if (s->nodes_max != SL_NO_VAL && s->nodes_max != 0)
			s->nodes_max = s->ntasks; /* scontrol's NumNodes=1-1 */
	}
	return 0;
}
