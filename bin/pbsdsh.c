/* pbsdsh.c - run a program once on each vnode of the job (or -c copies,
 * or on vnode -n alone), as OpenPBS's pbsdsh does through MOM's task
 * manager: the copies are the tasks of one job step, recorded with
 * sluiced as srun's are (sacct shows N.S), started by srun's task start
 * and waited for by pbsdsh_tm.c. The command line, the vnodes and the
 * copies' places are compat/pbsdsh.c's.
 *
 * Texts and statuses are OpenPBS's (src/cmds/pbsdsh.c): the usage (exit
 * 1), "not executing under PBS" (1) without a job's PBS_ENVIRONMENT, or
 * an sbatch job's PBS_JOBID beside SLURM_JOB_ID (Slurm's spank_pbs sets
 * no PBS_ENVIRONMENT), "tm_init failed" (1) where MOM could not have been
 * asked (the job's variables, sluiced, the job), exit 0 once the copies
 * are waited for, whatever their statuses. */
#include "config.h"
#include "pbs_job.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client_step.h"
#include "pbsdsh.h"
#include "pbsdsh_tm.h"
#include "srun_remote.h"
#include "srun_step.h"
#include "xalloc.h"

/* tm.h's codes, and the words tm.c's get_ecname() gives them (its "name
 * (code)", which pbsdsh prints with " (code)" once more). */
#define TM_ESYSTEM 17000
#define TM_EBADENVIRONMENT 17005
#define TM_ENOTFOUND 17006

#define NODEFILE_LINE_MAX 64 /* find_hostline()'s buffer: HOST_NAME_MAX */
#define NODEFILE_LINES_MAX SL_PBSDSH_MAX

extern char **environ;

static const char *prog = "pbsdsh";
static int in_pod; /* pod_check() */

static const char *tm_words(int code)
{
	return code == TM_ESYSTEM ? "system error - MOM cannot be contacted"
	       : code == TM_EBADENVIRONMENT ? "bad environment"
	       : code == TM_ENOTFOUND ? "no matching job found" : "unknown";
}

static void tm_init_failed(int code) __attribute__((noreturn));
static void tm_init_failed(int code)
{
	fprintf(stderr, "%s: tm_init failed, rc = %s (%d) (%d)\n", prog, tm_words(code), code,
		code);
	exit(1);
}

/* The job's vnodes, from its SLURM_* variables: what tm_init() and
 * tm_nodeinfo() would have from MOM. */
struct job {
	struct sl_srun_alloc a;
	int *node_of;             /* per vnode */
	int nvnodes;              /* -1: not read yet; -2: no allocation */
};

static int job_read(struct job *j)
{
	struct sl_err err = SL_ERR_INIT;
	if (j->nvnodes != -1)
		return j->nvnodes;
	j->nvnodes = -2;
	if (sl_srun_alloc_from_env(environ, &j->a, &err) != 0)
		return j->nvnodes;
	j->nvnodes = sl_pbsdsh_vnodes(j->a.nnodes, getenv("SLURM_TASKS_PER_NODE"), &j->node_of,
				      &err);
	if (j->nvnodes < 0)
		j->nvnodes = -2;
	return j->nvnodes;
}

/* The node file's lines (find_hostline() reads PBS_NODEFILE); where the
 * job has none (a pod, an sbatch job), each vnode's node name. */
static char **host_lines(struct job *j, size_t *n)
{
	const char *path = getenv("PBS_NODEFILE");
	FILE *f = path ? fopen(path, "re") : NULL;
	char line[NODEFILE_LINE_MAX], **v = NULL;

	*n = 0;
	if (f != NULL) {
		while (*n < NODEFILE_LINES_MAX && fgets(line, sizeof(line), f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			v = sl_xrealloc(v, (*n + 2) * sizeof(*v));
			v[(*n)++] = sl_xstrdup(line);
			v[*n] = NULL;
		}
		fclose(f);
		return v;
	}
	if (path != NULL || job_read(j) <= 0)
		return NULL;
	v = sl_xcalloc((size_t)j->nvnodes + 1, sizeof(*v));
	for (int i = 0; i < j->nvnodes; i++)
		v[(*n)++] = sl_xstrdup(j->a.nodes[j->node_of[i]]);
	return v;
}

/* host_match()'s domain: getdomainname()'s, else the host name's. */
static void domain_of(char *buf, size_t len)
{
	char host[256] = "", *dot;
	if (getdomainname(buf, len - 1) == 0 && buf[0] != '\0')
		return;
	buf[0] = '\0';
	if (gethostname(host, sizeof(host) - 1) == 0 && (dot = strchr(host, '.')) != NULL)
		snprintf(buf, len, "%s", dot + 1);
}

static int find_host(const char *host, void *ctx)
{
	char domain[256] = "";
	size_t n = 0;
	char **lines = host_lines(ctx, &n);
	int i;

	domain_of(domain, sizeof(domain));
	i = sl_pbsdsh_host_line(lines, n, host, domain);
	sl_strv_free(lines);
	if (i == -2) {
		fprintf(stderr, "getaddrinfo: %s\n", strerror(errno));
		exit(255);
	}
	return i;
}

/* A job: PBS's (MOM's PBS_ENVIRONMENT), or Slurm's with spank_pbs's
 * PBS_JOBID. */
static int in_job(void)
{
	const char *slurm = getenv("SLURM_JOB_ID");
	return getenv("PBS_ENVIRONMENT") != NULL ||
	       (slurm != NULL && *slurm != '\0' && getenv("PBS_JOBID") != NULL);
}

/* In a Kubernetes job's pod the copies start through the step agents, as
 * srun's tasks do. */
static void pod_check(void)
{
	static struct srun_remote remote;
	if (srun_remote_detect(&remote)) {
		if (remote.secret == NULL || *remote.secret == '\0')
			tm_init_failed(TM_EBADENVIRONMENT);
		srun_step_remote(&remote);
		in_pod = 1;
		setenv("SLUICE_CONNECT_TIMEOUT", "1", 0); /* srun's wait for sluiced there */
	} else if (getenv("KUBERNETES_SERVICE_HOST") != NULL) {
		fprintf(stderr, "%s: tasks in a Kubernetes pod without Sluice's step agent are "
				"not supported by Sluice\n", prog);
		exit(1);
	}
}

/* The step's record; its id into l. A pod that cannot reach sluiced runs
 * it unrecorded, as srun does. */
static void record(const struct sl_pbsdsh_opts *o, struct sl_srun_layout *l, struct sl_step *rec)
{
	struct sl_err err = SL_ERR_INIT;
	char *arg0 = sl_xstrdup(o->argv[0]), host[256] = "";
	int r;

	rec->job_id = l->job_id;
	rec->name = sl_xstrdup(basename(arg0));
	rec->ntasks = l->ntasks;
	rec->nnodes = l->nnodes;
	for (int i = 0; i < l->nnodes; i++) /* the CPUs of its nodes, as srun's without --exact */
		rec->cpus += l->cpus_on[i];
	rec->overlap = 1; /* MOM counts no CPUs for a task: no step waits for these */
	rec->nodelist = sl_xstrdup(l->nodelist);
	rec->dist = sl_xstrdup(l->distribution);
	if (gethostname(host, sizeof(host) - 1) == 0) {
		host[strcspn(host, ".")] = '\0';
		rec->srun_host = sl_xstrdup(host);
	}
	free(arg0);
	if ((r = sl_client_step_create(rec, &l->step_id, &err)) == 0) {
		rec->step_id = l->step_id;
		return;
	}
	if (r == -SL_ECONNECT && in_pod) {
		fprintf(stderr, "%s: warning: step not recorded: sluiced is not reachable from this "
				"pod (%.*s)\n", prog, (int)strcspn(err.msg, "\n"), err.msg);
		rec->step_id = l->step_id = srun_remote_step_id(l->job_id);
		rec->job_id = 0; /* nothing to end either */
		return;
	}
	/* MOM unreachable, or not knowing the job (not running, not the user's) */
	tm_init_failed(r == -SL_ENOENT || r == -SL_EPERM || r == -SL_ESTATE ? TM_ENOTFOUND
									    : TM_ESYSTEM);
}

/* -o: pbsdsh exits once the spawns are acknowledged, while its child
 * relays and reaps the copies and records the step's end (the step's
 * process is the one that lives on). Returns the fd the child tells the
 * parent on; the parent never returns: it exits 0 when told, or with the
 * child's status when the child ended first. */
static int detach(void)
{
	int p[2], st = 0;
	ssize_t got;
	char b;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		close(p[0]);
		return p[1];
	}
	close(p[1]);
	while ((got = read(p[0], &b, 1)) < 0 && errno == EINTR)
		;
	if (got == 1)
		exit(0); /* told: the child lives on */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

static int run(const struct sl_pbsdsh_opts *o, struct job *j, const int *vnode_of, int n)
{
	struct sl_srun_layout l;
	struct sl_step rec = {.cancelled_by = -1};
	struct sl_err err = SL_ERR_INIT;
	struct pbsdsh_tm tm = {prog, o, &l, vnode_of, j->node_of, environ, -1};
	mode_t um = umask(0);
	int rc;

	umask(um);
	if (o->no_obit)
		tm.ready_fd = detach();
	sl_pbsdsh_layout(&j->a, j->node_of, vnode_of, n, &l);
	l.umask = (int)um;
	srun_task_user(&l);
	record(o, &l, &rec);
	rc = pbsdsh_tm_run(&tm, &rec);
	if (rec.job_id != 0 && sl_client_step_end(&rec, &err) != 0)
		fprintf(stderr, "%s: step %llu.%u: its end was not recorded: %s\n", prog,
			(unsigned long long)rec.job_id, rec.step_id, err.msg);
	sl_step_clear(&rec);
	sl_srun_layout_clear(&l);
	return rc;
}

int main(int argc, char **argv)
{
	struct sl_pbsdsh_opts o;
	struct sl_err err = SL_ERR_INIT;
	struct job j = {.nvnodes = -1};
	int *vnode_of = NULL, n, rc = 0;

	sl_pbs_version_exit(argc, argv);
	prog = argv[0];
	if (sl_pbsdsh_parse(argc, argv, find_host, &j, &o, &err) != 0) {
		fputs(o.text, stderr);
		sl_pbsdsh_opts_clear(&o);
		return 1;
	}
	if (!in_job()) {
		fprintf(stderr, "%s: not executing under PBS\n", prog);
		sl_pbsdsh_opts_clear(&o);
		return 1;
	}
	if (job_read(&j) <= 0)
		tm_init_failed(TM_EBADENVIRONMENT);
	pod_check();
	if ((n = sl_pbsdsh_plan(&o, j.nvnodes, &vnode_of, &err)) < 0) {
		fprintf(stderr, "%s: malloc of task ids failed\n", prog);
		return 1;
	}
	if (n > 0 && o.argv[0][0] == '\0') /* tm_spawn() refuses it, copy by copy */
		for (int c = 0; c < n; c++)
			fprintf(stderr, "%s: spawn failed on node %d err %s (%d)\n", prog, vnode_of[c],
				tm_words(TM_ENOTFOUND), TM_ENOTFOUND);
	else if (n > 0)
		rc = run(&o, &j, vnode_of, n);
	free(vnode_of);
	free(j.node_of);
	sl_srun_alloc_clear(&j.a);
	sl_pbsdsh_opts_clear(&o);
	return rc;
}
