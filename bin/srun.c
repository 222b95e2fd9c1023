/* srun.c - run a job step, as Slurm 22.05's srun: parse (compat/srun_opt),
 * lay the step out in the job's allocation (compat/srun_layout), record it
 * with sluiced (one request), run its tasks here (srun_step.c), record its
 * end. Outside an allocation it makes one first (srun_alloc.c) and
 * releases it after. In a Kubernetes job's pod the tasks start through
 * the pods' step agents (srun_remote.h); a pod without one (not rendered
 * by Sluice) is refused by name. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "client_step.h"
#include "jobstate.h"
#include "pbs_env.h"
#include "srun_alloc.h"
#include "srun_gpus.h"
#include "srun_layout.h"
#include "srun_multiprog.h"
#include "srun_opt.h"
#include "srun_remote.h"
#include "slurm_bind.h"
#include "srun_step.h"
#include "xalloc.h"

#define MP_FILE_MAX (1u << 20)

extern char **environ;

static struct srun_remote remote;
static int in_pod; /* srun_remote_detect() */

static void parse(int argc, char **argv, struct sl_srun_opts *o)
{
	srun_cmd_parse("srun", sl_srun_opts_parse, sl_srun_usage, argc, argv, o);
	if (o->mpi_list) {
		/* what this build can do, in Slurm's words */
#ifdef SL_HAVE_PMIX
		printf("MPI plugin types are...\n\tpmix\n\tnone\n\tpmi2\n"
		       "specific pmix plugin versions available: pmix_v4\n");
#else
		printf("MPI plugin types are...\n\tnone\n\tpmi2\n");
#endif
		exit(0);
	}
	if (o->bind_help == 1) { /* Slurm's answer without task/affinity */
		printf("CPU bind options not supported with current configuration\n");
		exit(1);
	}
	if (o->bind_help == 2) {
		fputs(sl_slurm_mem_bind_help, stdout);
		exit(255);
	}
	if (o->cpu_bind_warn)
		fprintf(stderr, "srun: %s\n", SL_SRUN_NO_CPU_BIND);
	fputs(o->warn ? o->warn : "", stderr);
	if (o->spec_warn) /* Slurm's lines for AllowSpecResourcesUsage=No */
		fprintf(stderr, "srun: error: Ignoring %s since it's not allowed by configuration "
				"(AllowSpecResourcesUsage = No)\n",
			o->spec_warn == 2 ? "--thread-spec" : "-S");
	if (o->spec_warn == 1 && getenv("SLURM_JOB_ID") != NULL)
		fprintf(stderr, "srun: error: Ignoring --core-spec value for a job step within an "
				"existing job. Set specialized cores at job allocation time.\n");
#ifndef SL_HAVE_PMIX
	if (o->mpi_pmix) {
		fprintf(stderr, "srun: error: --mpi=pmix is not supported by Sluice: it was built "
				"without libpmix\n");
		exit(1);
	}
#endif
}

/* --multi-prog's file, read whole and checked against ntasks: NULL, said,
 * when it cannot be read or misses a task (Slurm's verify_multi_name). */
static char *read_multiprog(const struct sl_srun_opts *o, int ntasks)
{
	struct sl_err err = SL_ERR_INIT;
	char *text;
	size_t len = 0;
	ssize_t n;
	int fd = open(o->argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "srun: error: Unable to open configuration file %s\n", o->argv[0]);
		return NULL;
	}
	text = sl_xcalloc(MP_FILE_MAX + 1, 1);
	while (len < MP_FILE_MAX && (n = read(fd, text + len, MP_FILE_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (sl_srun_multiprog_check(text, o->argv[0], ntasks, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		free(text);
		return NULL;
	}
	return text;
}

/* No --mpi: the config's mpiDefault (Slurm's MpiDefault), as sluiced has it. */
static void mpi_default(struct sl_srun_opts *o)
{
	struct sl_daemonconf *dc = NULL;
	struct sl_err err = SL_ERR_INIT;
	const char *mpi;
	if (o->mpi_given || sl_client_config(&dc, &err) != 0)
		return;
	if ((mpi = sl_daemonconf_get(dc, "mpiDefault")) != NULL && strcmp(mpi, "pmix") == 0)
		o->mpi_pmix = 1;
	else if (mpi != NULL && strcmp(mpi, "pmi2") == 0)
		o->mpi_pmi2 = 1;
	sl_daemonconf_free(dc);
#ifndef SL_HAVE_PMIX
	if (o->mpi_pmix) {
		fprintf(stderr, "srun: error: MpiDefault=pmix is not supported by this srun: it was "
				"built without libpmix\n");
		exit(1);
	}
#endif
}

/* The allocation srun is inside, or a refusal of what Sluice lacks. */
static void allocation(char *const *envp, struct sl_srun_alloc *a)
{
	struct sl_err err = SL_ERR_INIT;
	if (sl_srun_alloc_from_env(envp, a, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		exit(1);
	}
	if ((in_pod = srun_remote_detect(&remote)) != 0) {
		free(a->host); /* the job's nodes are pods, the cluster's others */
		a->host = NULL;
		if (remote.secret == NULL || *remote.secret == '\0') {
			fprintf(stderr, "srun: error: $SLUICE_JOB_SECRET is not set: the step agents "
				"of this job's pods cannot be asked to start tasks\n");
			exit(1);
		}
		srun_step_remote(&remote);
		/* sluiced is often out of a pod's reach: wait for it 1 s, not the
		 * 5 s a login node's command rides out a restart with */
		setenv("SLUICE_CONNECT_TIMEOUT", "1", 0);
		return;
	}
	if (getenv("KUBERNETES_SERVICE_HOST") != NULL) {
		fprintf(stderr, "srun: error: job steps in a Kubernetes pod without Sluice's step "
				"agent are not supported by Sluice\n");
		exit(1);
	}
}

/* AllocCPUS of the step as sacct shows it: -c's CPUs for every task, else
 * all the job's CPUs on the step's nodes (what a step gets without
 * --exact in Slurm 22.05). */
static int step_cpus(const struct sl_srun_layout *l)
{
	int cpus = 0;
	if (l->exact)
		return l->ntasks * (l->cpus_per_task > 0 ? l->cpus_per_task : 1);
	for (int i = 0; i < l->nnodes; i++)
		cpus += l->cpus_on[i];
	return cpus;
}

/* The memory a node of the step holds, MiB (sluiced counts it against the
 * job's): --mem, or --mem-per-cpu times the step's CPUs on a node. */
static int64_t step_mem(const struct sl_srun_opts *o, const struct sl_step *rec)
{
	if (o->mem_mib > 0)
		return o->mem_mib;
	if (o->mem_per_cpu_mib > 0 && rec->nnodes > 0)
		return o->mem_per_cpu_mib * ((rec->cpus + rec->nnodes - 1) / rec->nnodes);
	return 0;
}

static void record(const struct sl_srun_opts *o, struct sl_srun_layout *l, struct sl_step *rec)
{
	struct sl_err err = SL_ERR_INIT;
	char *arg0 = sl_xstrdup(o->argv[0]);
	rec->job_id = l->job_id;
	rec->name = sl_xstrdup(o->name ? o->name : basename(arg0));
	rec->ntasks = l->ntasks;
	rec->nnodes = l->nnodes;
	rec->cpus = step_cpus(l);
	rec->mem = step_mem(o, rec);
	rec->overlap = o->overlap;
	rec->nodelist = sl_xstrdup(l->nodelist);
	rec->time_limit = o->time_limit > 0 ? o->time_limit : 0;
	rec->dist = sl_xstrdup(l->distribution);
	rec->cpu_freq = o->cpu_freq ? sl_xstrdup(o->cpu_freq) : NULL;
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) == 0) {
		host[strcspn(host, ".")] = '\0';
		rec->srun_host = sl_xstrdup(host);
	}
	free(arg0);
	/* CPUs other steps hold: Slurm's words, a retry a second */
	for (int waited = 0;; waited = 1, sleep(1)) {
		int r = sl_client_step_create(rec, &l->step_id, &err);
		if (r == 0 && waited)
			fprintf(stderr, "srun: Step created for job %llu\n",
				(unsigned long long)l->job_id);
		if (r == 0)
			break;
		if (r == -SL_ECONNECT && in_pod) {
			fprintf(stderr, "srun: warning: step not recorded: sluiced is not reachable "
				"from this pod (%.*s)\n", (int)strcspn(err.msg, "\n"), err.msg);
			l->step_id = srun_remote_step_id(l->job_id);
			rec->job_id = 0; /* nothing to end either */
			break;
		}
		if (r != -SL_EBUSY) {
			fprintf(stderr, "srun: error: Unable to create step for job %llu: %s\n",
				(unsigned long long)l->job_id, err.msg);
			exit(1);
		}
		if (!waited)
			fprintf(stderr, "srun: Job %llu step creation temporarily disabled, retrying "
				"(%s)\n", (unsigned long long)l->job_id, err.msg);
		err = (struct sl_err)SL_ERR_INIT;
	}
	rec->step_id = l->step_id;
}

/* What of the allocation's options Slurm also gives a step, inside a job:
 * --exclusive (the step's own CPUs: --exact), -w and -x (its nodes,
 * srun_layout.c), --mem and --mem-per-cpu (its memory, counted by
 * sluiced), and --comment, --tmp, --delay-boot, --use-min-nodes, --contiguous and
 * --spread-job, which
 * Slurm 22.05 takes in a step and gives no meaning there (a step's --tmp
 * is not checked against the nodes); -p, -A and -q naming the job's own
 * ask for nothing new; --gpus, --gpus-per-node and a --gres of GPUs (or
 * none) are the step's share of the job's GPUs (srun_gpus.h). */
static int step_option(const char *opt, char *const *envp)
{
	static const char *const ok[] = {"--nodelist=", "--exclude=", "--mem=", "--mem-per-cpu=",
					 "--comment=", "--tmp=", "--delay-boot=", "--gpus=",
					 "--gpus-per-node=", "--ntasks-per-gpu="};
	static const char *const same[][2] = {{"--partition=", "SLURM_JOB_PARTITION"},
					       {"--account=", "SLURM_JOB_ACCOUNT"},
					       {"--qos=", "SLURM_JOB_QOS"}};
	if (strncmp(opt, "--gres=", 7) == 0)
		return strcasecmp(opt + 7, "none") == 0 || sl_srun_gpu_count(opt + 7, 1) != 0;
	if (strcmp(opt, "--exclusive") == 0 ||
	    strcmp(opt, "--use-min-nodes") == 0 || strcmp(opt, "--contiguous") == 0 ||
	    strcmp(opt, "--spread-job") == 0 ||
	    strcmp(opt, "--overcommit") == 0) /* -O: the step's tasks past its CPUs */
		return 1;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strncmp(opt, ok[i], strlen(ok[i])) == 0)
			return 1;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		size_t n = strlen(same[i][0]), k = strlen(same[i][1]);
		if (strncmp(opt, same[i][0], n) != 0)
			continue;
		for (char *const *e = envp; e && *e; e++)
			if (strncmp(*e, same[i][1], k) == 0 && (*e)[k] == '=' &&
			    strcmp(*e + k + 1, opt + n) == 0)
				return 1;
	}
	return 0;
}

/* One step in the allocation that envp describes (own: srun made it). */
static int run(const struct sl_srun_opts *opts, char *const *envp, int own)
{
	struct sl_srun_opts step = *opts, *o = &step; /* shallow: opts keeps what it owns */
	struct sl_srun_alloc a;
	struct sl_srun_layout l;
	struct sl_step rec = {.cancelled_by = -1};
	struct sl_err err = SL_ERR_INIT;
	char *warn = NULL, *mp = NULL, **env, cwd[4096];
	int rc;

	for (char **x = o->alloc; x && *x && !own; x++)
		if (!step_option(*x, envp)) { /* the job's: a step cannot change them */
			fprintf(stderr, "srun: error: %.*s is not supported by Sluice inside a job "
				"allocation\n", (int)strcspn(*x, "="), *x);
			return 1;
		}
	if (!own && o->step_exclusive)
		o->exact = 1;
	if (own) /* the allocation's: its step takes them as given */
		o->nodelist = o->exclude = NULL;
	allocation(envp, &a);
	if (in_pod && o->pty) {
		fprintf(stderr, "srun: error: --pty in a Kubernetes job is not supported by Sluice\n");
		sl_srun_alloc_clear(&a);
		return 1;
	}
	if (!in_pod) /* a pod's steps take no default: its ranks span pods */
		mpi_default(o);
	if (in_pod && (o->mpi_pmix || o->mpi_pmi2)) { /* the ranks span pods: one server
						      * cannot hold them */
		fprintf(stderr, "srun: error: --mpi=%s in a Kubernetes job is not supported by "
				"Sluice\n", o->mpi_pmix ? "pmix" : "pmi2");
		sl_srun_alloc_clear(&a);
		return 1;
	}
	if (sl_srun_layout_make(o, &a, &l, &warn, &err) != 0) {
		fputs(warn ? warn : "", stderr);
		fprintf(stderr, "%s\n", err.msg);
		free(warn);
		sl_srun_alloc_clear(&a);
		return 1;
	}
	fputs(warn ? warn : "", stderr);
	mode_t um = umask(0); /* read it: the tasks get it, as Slurm's SLURM_UMASK */
	umask(um);
	l.umask = (int)um;
	/* launch.c leaves the distribution unknown for a step asking no memory
	 * of its own allocation (its pn_min_memory is 0) */
	l.no_dist = own && o->mem_mib < 0 && o->mem_per_cpu_mib < 0;
	/* Slurm's spank_pbs sets PBS_* in every task of a job; a qsub job has
	 * its MOM's instead, PBS_ENVIRONMENT among them */
	l.spank_pbs = sl_pbs_env_get(envp, "PBS_ENVIRONMENT") == NULL &&
		      (own || sl_pbs_env_get(envp, "PBS_TASKNUM") != NULL);
	l.cwd = o->chdir ? o->chdir : getcwd(cwd, sizeof(cwd));
	srun_task_user(&l);
	srun_task_launcher(&l);
	if (o->multi_prog && (mp = read_multiprog(o, l.ntasks)) == NULL) {
		free(warn);
		sl_srun_layout_clear(&l);
		sl_srun_alloc_clear(&a);
		return 1;
	}
	env = sl_srun_export(o->export_env, envp);
	record(o, &l, &rec);
	rc = srun_step_run(o, &l, env, mp, &rec);
	if (rec.job_id != 0 && sl_client_step_end(&rec, &err) != 0)
		fprintf(stderr, "srun: error: step %llu.%u: its end was not recorded: %s\n",
			(unsigned long long)rec.job_id, rec.step_id, err.msg);
	sl_step_clear(&rec);
	sl_strv_free(env);
	free(mp);
	free(warn);
	sl_srun_layout_clear(&l);
	sl_srun_alloc_clear(&a);
	return rc;
}

/* The allocation o asks for, named after its command (arg0, a copy of
 * argv[0] basename() may change). */
static struct srun_alloc_req alloc_req(const struct sl_srun_opts *o, char *arg0)
{
	struct srun_alloc_req q = {
		.prog = "srun", .ntasks = o->ntasks, .nodes = o->nodes,
		.cpus_per_task = o->cpus_per_task, .ntasks_per_node = o->ntasks_per_node,
		.gpus_per_task = o->gpus_per_task, .time_limit = o->time_limit,
		.name = o->name ? o->name : basename(arg0), .extra = o->alloc,
	};
	return q;
}

/* --test-only, inside an allocation or not: when a new one would start,
 * as Slurm's srun asks whatever job it is in. */
static int test_only(const struct sl_srun_opts *o)
{
	char *arg0 = sl_xstrdup(o->argv[0]);
	struct srun_alloc_req q = alloc_req(o, arg0);
	int rc = srun_alloc_test(&q, o->quiet);
	free(arg0);
	return rc;
}

/* Outside an allocation: make one (srun_alloc.c), run the step in it,
 * release it with the step's exit code. */
static int run_allocated(const struct sl_srun_opts *o)
{
	char *arg0 = sl_xstrdup(o->argv[0]), **env;
	struct srun_alloc_req q = alloc_req(o, arg0);
	struct sl_job *job;
	int rc;
	if (o->multi_prog && o->ntasks > 0) { /* Slurm checks it before it asks for a job */
		char *mp = read_multiprog(o, o->ntasks);
		if (mp == NULL) {
			free(arg0);
			return 1;
		}
		free(mp);
	}
	rc = srun_alloc_get(&q, &job);
	free(arg0);
	if (rc != 0)
		return rc;
	env = srun_alloc_env(job, environ, 0);
	srun_step_watch(job->id);
	rc = run(o, env, 1);
	srun_alloc_release(job->id, rc);
	sl_strv_free(env);
	sl_job_free(job);
	return rc;
}

/* The daemon's executor is Kubernetes: its jobs run in pods, where a step
 * from outside has no agent secret to ask with. */
static int on_kubernetes(void)
{
	struct sl_err err = SL_ERR_INIT;
	int k8s = 0;

	(void)sl_client_kubernetes(&k8s, &err);
	return k8s;
}

/* --jobid=N (or SLURM_JOB_ID alone) from outside the job: a step in its
 * running allocation, with the job's variables, as Slurm's srun attaches
 * to an existing allocation. */
static int run_attached(const struct sl_srun_opts *o, uint64_t id)
{
	struct sl_job *job;
	char **env;
	int rc;

	if (on_kubernetes()) {
		fprintf(stderr, "srun: error: --jobid from outside the job is not supported by "
				"Sluice on Kubernetes\n");
		return 1;
	}
	if ((job = srun_alloc_job(id)) == NULL || job->state != SL_JOB_RUNNING) {
		if (job != NULL && sl_jobstate_is_final(job->state))
			fprintf(stderr, "srun: error: Slurm job %llu has expired\n",
				(unsigned long long)id);
		else if (job != NULL)
			fprintf(stderr, "srun: error: Unable to confirm allocation for job %llu: "
					"Job is pending execution\n", (unsigned long long)id);
		else
			fprintf(stderr, "srun: error: Unable to confirm allocation for job %llu: "
					"Invalid job id specified\nsrun: Check SLURM_JOB_ID environment "
					"variable. Expired or invalid job %llu\n",
				(unsigned long long)id, (unsigned long long)id);
		sl_job_free(job);
		return 1;
	}
	env = srun_alloc_env(job, environ, 0);
	/* its tasks are not in the job's session: the job's end ends them */
	srun_step_watch(id);
	rc = run(o, env, 0);
	sl_strv_free(env);
	sl_job_free(job);
	return rc;
}

int main(int argc, char **argv)
{
	struct sl_srun_opts o;
	const char *id = getenv("SLURM_JOB_ID"), *nl = getenv("SLURM_JOB_NODELIST");
	uint64_t own = id && *id ? strtoull(id, NULL, 10) : 0;
	int rc;

	parse(argc, argv, &o);
	/* srun_pty.c's set_winsize: --pty wants a terminal on stdout */
	struct winsize ws;
	if (o.pty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0) {
		fprintf(stderr, "srun: error: ioctl(TIOCGWINSZ): %s\n", strerror(errno));
		fprintf(stderr, "srun: error: Not using a pseudo-terminal, disregarding --pty "
				"option\n");
		o.pty = 0;
	}
	if (o.test_only)
		rc = test_only(&o);
	else if (o.jobid != 0 && o.jobid != own)
		rc = run_attached(&o, o.jobid);
	else if (own != 0 && (nl == NULL || *nl == '\0')) /* SLURM_JOB_ID alone */
		rc = run_attached(&o, own);
	else
		rc = own != 0 ? run(&o, environ, 0) : run_allocated(&o);
	sl_srun_opts_clear(&o);
	return rc;
}
