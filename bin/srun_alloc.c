/* srun_alloc.c - the allocation of srun outside a batch script and of
 * salloc (srun_alloc.h).
 *
 * On the local executor the allocation is a job like any other, so the
 * engine admits it by the same rules, sacct and squeue show it, and scancel
 * ends it. Its batch script holds it: it waits for SIGUSR1 (sent through
 * scancel -b's path) and then exits with the code srun or salloc left in a
 * file named by SLUICE_ALLOC_RC (where it says "ready" first), so the job
 * ends COMPLETED, or FAILED with that code, as Slurm records an allocation.
 * Its spec says it is one (interactive), so that the holder is no batch
 * step in sacct, squeue -s or scontrol's BatchFlag: Slurm's has none. */
#include "srun_alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "slurm_clusters.h"
#include "slurm_env.h"
#include "slurm_opt.h"
#include "slurm_willrun.h"
#include "srun_opt.h"
#include "xalloc.h"

extern char **environ;

/* "ready" once its trap is set: a USR1 before would kill the shell. */
#define HOLDER "trap 'exit $(cat \"$SLUICE_ALLOC_RC\" 2>/dev/null || echo 0)' USR1; " \
	"echo ready >\"$SLUICE_ALLOC_RC\"; while :; do sleep 3600 & wait $!; done"

static volatile sig_atomic_t interrupted;

static void on_int(int sig)
{
	interrupted = sig;
}

static void push(char **v, int *n, const char *a, const char *b)
{
	v[(*n)++] = sl_xstrdup(a);
	if (b)
		v[(*n)++] = sl_xstrdup(b);
}

static void push_num(char **v, int *n, const char *flag, int64_t val)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)val);
	push(v, n, flag, buf);
}

/* sbatch's own parser builds the spec: the allocation gets the defaults
 * and checks of any job. */
static int spec_of(const struct srun_alloc_req *q, struct sl_jobspec *spec, struct sl_err *err)
{
	struct sl_sbatch_flags fl;
	char **argv = sl_xcalloc(32 + sl_strv_len(q->extra), sizeof(char *));
	int n = 0, r;
	const struct {
		const char *flag;
		int64_t val;
	} sizes[] = {
		{"--ntasks", q->ntasks}, {"--nodes", q->nodes},
		{"--cpus-per-task", q->cpus_per_task}, {"--ntasks-per-node", q->ntasks_per_node},
		{"--gpus-per-task", q->gpus_per_task}, {"--time", q->time_limit},
	};
	push(argv, &n, "sbatch", NULL);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i].val > 0)
			push_num(argv, &n, sizes[i].flag, sizes[i].val);
	if (q->nodes == SL_SRUN_NODES_ZERO) /* refused as sbatch -N 0 is */
		push_num(argv, &n, "--nodes", 0);
	for (size_t i = 0; q->extra && q->extra[i]; i++)
		push(argv, &n, q->extra[i], NULL);
	push(argv, &n, "--job-name", q->name);
	push(argv, &n, "--output", "/dev/null");
	push(argv, &n, "--wrap", HOLDER);
	r = sl_sbatch_parse(n, argv, environ, spec, &fl, err);
	if (r == 0)
		spec->interactive = 1;
	sl_sbatch_flags_clear(&fl);
	for (int i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return r;
}

struct sl_job *srun_alloc_job(uint64_t id)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL, *j = NULL;
	size_t n = 0;
	if (sl_client_query(&f, &v, &n, &err) == 0 && n > 0) {
		size_t k = 0; /* an array's id lists its tasks too: the one of that id */
		while (k + 1 < n && v[k]->id != id)
			k++;
		j = v[k];
		v[k] = NULL;
	}
	sl_job_free_array(v, n);
	return j;
}


/* sig 0: cancel; else that signal to the batch script alone. */
static void signal_job(uint64_t id, int sig)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_client *c = NULL;
	struct sl_jobresult *res = NULL;
	size_t nres = 0;
	if (sl_client_connect(NULL, &c, &err) == 0)
		(void)sl_client_cancel(c, &f, sig, sig != 0, &res, &nres, &err);
	free(res);
	sl_client_free(c);
}

/* A given spec (qsub -I) becomes the holder: its script, no output, and
 * the variable naming the rc file. */
static void as_holder(struct sl_jobspec *s, const char *rcf)
{
	size_t n = sl_strv_len(s->env);
	free(s->script);
	s->script = sl_xasprintf("#!/bin/sh\n%s\n", HOLDER);
	free(s->std_out);
	s->std_out = sl_xstrdup("/dev/null");
	free(s->std_err);
	s->std_err = NULL;
	s->env = sl_xrealloc(s->env, (n + 2) * sizeof(*s->env));
	s->env[n] = sl_xasprintf("SLUICE_ALLOC_RC=%s", rcf);
	s->env[n + 1] = NULL;
	s->interactive = 1;
}

/* Poll until it runs, Slurm's lines on the way (PBS's for qsub -I). */
static int wait_running(const struct srun_alloc_req *q, uint64_t id, struct sl_job **out)
{
	int said = 0;
	if (q->pbs_server) { /* src/cmds/qsub_sup.c:1466 */
		printf("qsub: waiting for job %llu.%s to start\n", (unsigned long long)id,
		       q->pbs_server);
		fflush(stdout);
		said = -1;
	}
	for (;;) {
		struct sl_job *j = srun_alloc_job(id);
		if (j && (j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING)) {
			if (said > 0)
				fprintf(stderr, "%s: job %llu has been allocated resources\n", q->prog,
					(unsigned long long)id);
			*out = j;
			return 0;
		}
		if (j == NULL || sl_jobstate_is_final(j->state) || interrupted) {
			if (interrupted)
				signal_job(id, 0);
			if (q->pbs_server) /* qsub_sup.c:1487 */
				fprintf(stderr, "qsub: job %llu.%s apparently deleted\n",
					(unsigned long long)id, q->pbs_server);
			else
				fprintf(stderr, "%s: Job allocation %llu has been revoked%s\n", q->prog,
					(unsigned long long)id, q->salloc ? "." : "");
			if (interrupted && q->salloc)
				fprintf(stderr, "salloc: Job aborted due to signal\n");
			sl_job_free(j);
			return 1;
		}
		if (said == 0) {
			if (q->salloc)
				fprintf(stderr, "salloc: Pending job allocation %llu\n",
					(unsigned long long)id);
			fprintf(stderr, "%s: job %llu queued and waiting for resources\n", q->prog,
				(unsigned long long)id);
			said = 1;
		}
		sl_job_free(j);
		usleep(200 * 1000);
	}
}

/* The file the holder reads its exit code from, named in its environment. */
static char *rc_file(void)
{
	char *path = sl_xstrdup("/tmp/sluice-alloc.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	setenv("SLUICE_ALLOC_RC", path, 1);
	return path;
}

/* Until the holder has set its trap (it says so in the file). */
static int wait_ready(uint64_t id)
{
	const char *path = getenv("SLUICE_ALLOC_RC");
	for (int i = 0; path && i < 3000; i++) {
		char buf[8] = {0};
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n >= 5 && strncmp(buf, "ready", 5) == 0)
			return 0;
		if (i % 50 == 49 && srun_alloc_gone(id))
			return -1;
		usleep(10 * 1000);
	}
	return -1;
}

#define GRES_BAD "Invalid generic resource (gres) specification"

int srun_alloc_test(const struct srun_alloc_req *q, int quiet)
{
	struct sl_jobspec spec;
	struct sl_err err = SL_ERR_INIT;
	int rc;

	sl_jobspec_init(&spec);
	if (spec_of(q, &spec, &err) != 0) {
		const char *last = strrchr(err.msg, '\n');
		/* the GRES checks of Slurm's client: its lines, then slurm_perror's
		 * of an errno nothing set */
		if (last != NULL && strcmp(last + 1, GRES_BAD) == 0)
			fprintf(stderr, "%s: error: %s\nallocation failure: No error\n", q->prog,
				sl_slurm_hint_lines(q->prog, err.msg));
		else
			fprintf(stderr, "allocation failure: %s\n", err.msg);
		rc = 1;
	} else {
		rc = sl_willrun_report(q->prog, &spec, quiet);
	}
	sl_jobspec_clear(&spec);
	return rc;
}

int srun_alloc_get(const struct srun_alloc_req *q, struct sl_job **job)
{
	struct sl_jobspec spec;
	struct sl_err err = SL_ERR_INIT;
	struct sigaction sa, old_int, old_term;
	uint64_t id = 0;
	char *rcf = rc_file();
	int r, failed, parse = 0;

	sl_jobspec_init(&spec); /* ours to clear (sbatch's parse fills it even when it fails) */
	*job = NULL;
	if (q->spec && rcf)
		as_holder(q->spec, rcf);
	failed = rcf == NULL || (!q->spec && (parse = spec_of(q, &spec, &err) != 0)) ||
		 sl_client_submit_once(q->spec ? q->spec : &spec, &id, &err) != 0;
	sl_jobspec_clear(&spec);
	if (failed) {
		const char *msg = err.msg[0] ? err.msg : strerror(errno);
		const char *answer = sl_slurm_hint_lines(q->prog, msg);
		/* salloc's words differ from srun's (salloc.c, allocate.c); the
		 * GRES checks Slurm's client makes before asking (--gpus-per-task,
		 * --ntasks-per-gpu, --mem-per-gpu) end in their own line */
		if (parse && strcmp(answer, GRES_BAD) == 0)
			fprintf(stderr, "%s: error: %s\n", q->prog, answer);
		else
			fprintf(stderr, "%s: error: %s: %s\n", q->prog,
				q->salloc ? "Job submit/allocate failed"
					  : "Unable to allocate resources",
				answer);
		if (rcf)
			unlink(rcf);
		free(rcf);
		return 1;
	}
	free(rcf);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	r = wait_running(q, id, job);
	if (r == 0 && wait_ready(id) != 0) {
		fprintf(stderr, "%s: Job allocation %llu has been revoked%s\n", q->prog,
			(unsigned long long)id, q->salloc ? "." : "");
		sl_job_free(*job);
		*job = NULL;
		r = 1;
	} else if (r == 0) {
		/* the record as its script runs: a multi-node job seen while
		 * CONFIGURING may not list all its nodes yet */
		struct sl_job *now = srun_alloc_job(id);
		if (now != NULL) {
			sl_job_free(*job);
			*job = now;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (r == 0 && q->salloc)
		fprintf(stderr, "salloc: Granted job allocation %llu\n", (unsigned long long)id);
	if (r == 0 && q->pbs_server) { /* qsub_sup.c:1566 */
		printf("qsub: job %llu.%s ready\n\n", (unsigned long long)id, q->pbs_server);
		fflush(stdout);
	}
	return r;
}

/* What salloc's command does not get (Slurm sets them per task). */
static const char *const task_only[] = {
	"SLURMD_NODENAME", "SLURM_CPUS_ON_NODE", "SLURM_GTIDS", "SLURM_LOCALID",
	"SLURM_NODEID", "SLURM_PROCID", "SLURM_TOPOLOGY_ADDR", "SLURM_TOPOLOGY_ADDR_PATTERN",
	"SLURM_PRIO_PROCESS", "SLURM_JOB_GID", "SLURM_JOB_UID", "SLURM_JOB_USER",
	"SLURM_TASK_PID", "SLURM_EXPORT_ENV", "SLURM_GET_USER_ENV", NULL,
};

/* What srun's own allocation does not give its tasks (salloc's does):
 * its GPUs are the step's (SLURM_STEP_GPUS; srun reads the job's from
 * CUDA_VISIBLE_DEVICES), as Slurm's srun -G's tasks have no SLURM_GPUS
 * or SLURM_JOB_GPUS. */
static const char *const salloc_only[] = {
	"SLURM_MEM_PER_NODE", "SLURM_MEM_PER_CPU", "SLURM_NODE_ALIASES", "SLURM_GPUS",
	"SLURM_JOB_GPUS", NULL,
};

/* kv ("NAME=value") is one of names. */
static int named(const char *kv, const char *const *names)
{
	for (; *names; names++) {
		size_t k = strlen(*names);
		if (strncmp(kv, *names, k) == 0 && kv[k] == '=')
			return 1;
	}
	return 0;
}

/* The daemon's clusterName (SLURM_CLUSTER_NAME), or NULL. Caller frees. */
static char *cluster_name(void)
{
	struct sl_err err = SL_ERR_INIT;
	char *name = NULL;
	if (sl_client_cluster_name(&name, &err) != 0 || *name == '\0') {
		free(name);
		return NULL;
	}
	return name;
}

char **srun_alloc_env(const struct sl_job *j, char *const *base, int salloc)
{
	struct sl_jobshape sh;
	char host[256], **slurm, **out, **clean, *cluster = cluster_name();
	size_t k = strcspn(j->nodelist ? j->nodelist : "", "[,");
	sl_job_shape(j, &sh);
	snprintf(host, sizeof(host), "%.*s", (int)k, j->nodelist ? j->nodelist : "");
	if (j->nodelist && j->nodelist[k] == '[')
		snprintf(host + k, sizeof(host) - k, "%.*s", (int)strcspn(j->nodelist + k + 1, "-,]"),
			 j->nodelist + k + 1);
	struct sl_slurm_env_in in = {.job = j, .shape = &sh, .nodelist = j->nodelist,
				     .batch_host = host, .cluster = cluster, .allocation = 1};
	slurm = sl_slurm_env_build(&in);
	out = sl_slurm_env_merge(base, slurm);
	/* less what only the holder reads, and salloc's task variables */
	clean = sl_xcalloc(sl_strv_len(out) + 1, sizeof(char *));
	for (size_t i = 0, n = 0; out[i]; i++)
		if (strncmp(out[i], "SLUICE_ALLOC_RC=", 16) != 0 &&
		    !named(out[i], salloc ? task_only : salloc_only))
			clean[n++] = sl_xstrdup(out[i]);
	sl_strv_free(slurm);
	sl_strv_free(out);
	free(cluster);
	return clean;
}

void srun_cmd_parse(const char *prog, srun_parse_fn parse, const char *usage, int argc,
		    char **argv, struct sl_srun_opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	int status;
	if (parse(argc, argv, environ, o, &status, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		exit(status);
	}
	if (o->version || o->help || o->usage) {
		fputs(o->version ? "slurm 22.05.8\n" : usage, stdout);
		exit(0);
	}
	free(sl_slurm_clusters_or_exit(prog, o->clusters));
}

int srun_alloc_gone(uint64_t id)
{
	struct sl_job *j = srun_alloc_job(id);
	int gone = j == NULL || sl_jobstate_is_final(j->state);
	sl_job_free(j);
	return gone;
}

void srun_alloc_release(uint64_t id, int rc)
{
	const char *path = getenv("SLUICE_ALLOC_RC");
	int fd = path ? open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
	if (fd >= 0) {
		dprintf(fd, "%d\n", rc > 255 ? 255 : rc);
		close(fd);
	}
	/* The holder reads the file as it exits: wait for the job's end,
	 * asking again each second; an allocation is never left behind (after
	 * 10 s it is cancelled). */
	for (int i = 0; i < 200 && !srun_alloc_gone(id); i++) {
		if (i % 20 == 0)
			signal_job(id, SIGUSR1);
		usleep(50 * 1000);
	}
	if (!srun_alloc_gone(id))
		signal_job(id, 0);
	if (path)
		unlink(path);
}
