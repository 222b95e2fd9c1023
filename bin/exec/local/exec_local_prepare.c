/* exec_local_prepare.c - turn a job record into the launch spec that
 * sluice-stepd runs: identity, local node names, expanded file names, the
 * final environment (exported variables + Slurm's) and the PAM service of
 * the job's session. No I/O but the account lookup (logincache), so it can
 * be tested alone. */
#include "exec_local.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "hostlist.h"
#include "logincache.h"
#include "pbs_env.h"
#include "slurm_env.h"
#include "slurm_pattern.h"
#include "xalloc.h"

#define KILL_WAIT_DEFAULT 30

char *sl_exec_local_nodelist(const char *host, int nodes, char **batch_host)
{
	if (nodes <= 1) {
		*batch_host = sl_xstrdup(host);
		return sl_xstrdup(host);
	}
	*batch_host = sl_xasprintf("%s-0", host);
	return sl_xasprintf("%s-[0-%d]", host, nodes - 1);
}

/* The account comes from the cache: what initgroups() would set is
 * resolved here, so that sluice-stepd makes no NSS lookup of its own (the
 * modules of a PAM session may). */
static int lookup_user(struct sl_logincache *logins, const struct sl_job *job,
		       struct sl_launch *out, struct sl_err *err)
{
	int e = 0, root = geteuid() == 0;
	const struct sl_login *a =
		sl_logincache_get(logins, job->uid, job->gid, root, (int64_t)time(NULL), &e);

	if (a == NULL) {
		/* Without root we run as ourselves anyway: the record's name will do. */
		if (!root && job->uid == geteuid() && job->user != NULL) {
			out->user = sl_xstrdup(job->user);
			return 0;
		}
		return sl_err_set(err, SL_EINVAL, "job %llu: uid %u: %s", (unsigned long long)job->id,
				  (unsigned)job->uid, e == ENOENT ? "no such user" : strerror(e));
	}
	out->user = sl_xstrdup(a->user);
	out->home = sl_xstrdup(a->home);
	out->shell = sl_xstrdup(a->shell);
	if (a->groups != NULL) {
		out->groups = sl_xcalloc(a->ngroups ? a->ngroups : 1, sizeof(gid_t));
		memcpy(out->groups, a->groups, a->ngroups * sizeof(gid_t));
		out->ngroups = a->ngroups;
	}
	return 0;
}

static char *expand(const char *pat, const struct sl_pattern_ctx *c)
{
	return pat ? sl_slurm_pattern_expand(pat, c) : NULL;
}

static void prepare_files(const struct sl_job *job, const char *host, struct sl_launch *out)
{
	const struct sl_jobspec *s = &job->spec;
	struct sl_pattern_ctx c = {
		.job_id = job->id, .array_task_id = SL_PATTERN_TASK(job), .job_name = s->name,
		.array_job_id = job->array_job_id,
		.user = out->user, .host = host, .work_dir = out->work_dir,
	};
	out->std_out = expand(s->std_out ? s->std_out : "slurm-%j.out", &c);
	out->std_err = expand(s->std_err, &c);
	out->std_in = expand(s->std_in, &c);
	if (out->std_err != NULL && strcmp(out->std_err, out->std_out) == 0) {
		free(out->std_err);
		out->std_err = NULL;
	}
}

/* Is name one of this host's local nodes (sl_exec_local_nodelist)? */
static int local_node(const char *host, int nodes, const char *name)
{
	size_t n = strlen(host);
	char *end;
	long i;

	if (strcmp(name, host) == 0)
		return 1;
	if (strncmp(name, host, n) != 0 || name[n] != '-' || name[n + 1] == '\0')
		return 0;
	i = strtol(name + n + 1, &end, 10);
	return *end == '\0' && i >= 0 && i < (nodes > 1 ? nodes : 1);
}

/* Which of `list`'s names are this host's: *mine and *others counted. */
static int count_names(const char *list, const char *host, int nodes, size_t *mine,
		       size_t *others, struct sl_err *err)
{
	struct sl_err ignore = SL_ERR_INIT;
	char **names = NULL;
	size_t n = 0;

	*mine = *others = 0;
	if (sl_hostlist_expand(list, &names, &n, &ignore) != 0)
		return sl_err_set(err, SL_EINVAL, "Invalid node name specified");
	for (size_t i = 0; i < n; i++)
		(*(local_node(host, nodes, names[i]) ? mine : others))++;
	sl_strv_free(names);
	return 0;
}

/* A name both lists give: slurmctld refuses the job ("Job's required and
 * excluded node lists overlap") before it looks for nodes. */
static int lists_overlap(const char *req, const char *exc)
{
	struct sl_err ignore = SL_ERR_INIT;
	char **a = NULL, **b = NULL;
	size_t na = 0, nb = 0;
	int both = 0;

	if (sl_hostlist_expand(req, &a, &na, &ignore) == 0 &&
	    sl_hostlist_expand(exc, &b, &nb, &ignore) == 0)
		for (size_t i = 0; i < na && !both; i++)
			for (size_t k = 0; k < nb && !both; k++)
				both = strcmp(a[i], b[k]) == 0;
	sl_strv_free(a);
	sl_strv_free(b);
	return both;
}

int sl_exec_local_check(const struct sl_conf *conf, const struct sl_jobspec *spec,
			struct sl_err *err)
{
	char host[256] = "localhost";
	int nodes = spec->nodes > 0 ? spec->nodes : 1;
	size_t mine, others;
	int r;

	(void)conf;
	if (spec->nodelist == NULL && spec->exclude == NULL)
		return 0;
	gethostname(host, sizeof(host) - 1); /* as sluiced names its node */
	host[strcspn(host, ".")] = '\0';
	if (spec->nodelist != NULL) {
		if ((r = count_names(spec->nodelist, host, nodes, &mine, &others, err)) != 0)
			return r;
		if (others > 0)
			return sl_err_set(err, SL_EINVAL, "Invalid node name specified");
	}
	if (spec->exclude != NULL) {
		/* a name no node here has is Slurm's "Invalid node name": any
		 * host-N counts, as some job's nodes could be named so */
		if ((r = count_names(spec->exclude, host, INT_MAX, &mine, &others, err)) != 0)
			return r;
		if (others > 0 ||
		    (spec->nodelist != NULL && lists_overlap(spec->nodelist, spec->exclude)))
			return sl_err_set(err, SL_EINVAL, "Invalid node name specified");
		if ((r = count_names(spec->exclude, host, nodes, &mine, &others, err)) != 0)
			return r;
		if (mine > 0)
			return sl_err_set(err, SL_ENOFIT, "--exclude=%s leaves no node: the local "
					  "executor's node is %s\nRequested node configuration is "
					  "not available", spec->exclude, host);
	}
	return 0;
}

/* The PBS server name of job ids: the config's pbsServer, else this host. */
static const char *pbs_server(const struct sl_exec_conf *conf, const char *host)
{
	const char *s = conf->confp && *conf->confp ? sl_conf_pbs_server(*conf->confp) : NULL;
	return s ? s : host;
}

static const char *pbs_tmp_dir(const struct sl_exec_conf *conf)
{
	return conf->confp && *conf->confp ? sl_conf_pbs_tmp_dir(*conf->confp) : "/var/tmp";
}

/* The exported environment, PBS's variables over it, Slurm's over both. A
 * qsub job also gets its node file and TMPDIR, made by sluice-stepd. */
static void prepare_env(const struct sl_exec_conf *conf, const struct sl_job *job,
			const char *host, const char *batch, struct sl_launch *out)
{
	struct sl_jobshape shape;
	sl_job_shape(job, &shape);
	struct sl_slurm_env_in in = {.job = job, .shape = &shape, .nodelist = out->nodelist,
				     .batch_host = batch, .cluster = conf->cluster};
	struct sl_pbs_env_in pin = {job, &shape, pbs_server(conf, host)};
	char **slurm = sl_slurm_env_build(&in), **all;
	const char *path = conf->confp && *conf->confp ? sl_conf_path(*conf->confp) : NULL;

	/* As slurmd sets SLURM_CONF, the file its commands read: Sluice's
	 * read SLUICE_CONF, so the job's reach this daemon whatever --export
	 * left. SLURM_CONF is not set: it would send a real Slurm's commands
	 * on the same host to a file they cannot parse. */
	if (path != NULL) {
		char *extra[] = {sl_xasprintf("SLUICE_CONF=%s", path), NULL};
		all = sl_slurm_env_merge(slurm, extra);
		free(extra[0]);
		sl_strv_free(slurm);
		slurm = all;
	}
	out->env = sl_pbs_env_job(&pin, slurm);
	sl_strv_free(slurm);
	/* What slurmd reads as its cue to load the login environment: sbatch
	 * sets it for --get-user-env and for an --export other than ALL, and,
	 * as with slurmd, one the submission carried (a job submitted from a
	 * job's shell) counts too. */
	for (char **e = out->env; e && *e; e++)
		if (strcmp(*e, "SLURM_GET_USER_ENV=1") == 0) {
			out->user_env = job->spec.get_user_env > 0 ? job->spec.get_user_env
								     : SL_USER_ENV_WAIT;
			out->user_env_mode = job->spec.get_user_env_mode == 1;
			break;
		}
	if (job->spec.pbs) {
		/* this host's name for every rank: a multi-node local job's
		 * "nodes" are slots of it, and only this name resolves */
		char *hosts[1] = {(char *)host};
		out->nodefile = sl_pbs_nodefile(&shape, hosts, 1);
		out->tmpdir = sl_pbs_tmpdir(job, pbs_server(conf, host), pbs_tmp_dir(conf));
	}
}

/* The time limit in seconds; a --deadline cuts it to what is left (Slurm
 * starts such a job with the time to its deadline). */
/* The submit policy keeps limits within SL_TIME_MAX; one past it (a record
 * from before that check) is ten thousand years: no limit, rather than
 * seconds that wrap negative. */
static int64_t time_limit(const struct sl_jobspec *s)
{
	int64_t t = sl_jobspec_limit_secs(s); /* a qsub job's to the second */
	int64_t left = s->deadline - (int64_t)time(NULL);

	if (s->deadline != 0 && (t == 0 || left < t))
		t = left > 0 ? left : 1;
	return t;
}

int sl_exec_local_prepare(const struct sl_exec_conf *conf, struct sl_logincache *logins,
			  const char *host, const struct sl_job *job, struct sl_launch *out,
			  struct sl_err *err)
{
	const struct sl_jobspec *s = &job->spec;
	struct sl_jobshape shape;
	char *batch = NULL;
	int r;
	memset(out, 0, sizeof(*out));
	if ((r = lookup_user(logins, job, out, err)) != 0)
		goto out;
	sl_job_shape(job, &shape);
	out->job_id = job->id;
	out->attempt = job->attempt;
	out->uid = job->uid;
	out->gid = job->gid;
	out->work_dir = sl_xstrdup(s->work_dir ? s->work_dir
				   : s->submit_dir ? s->submit_dir
				   : out->home ? out->home : "/");
	out->nodelist = sl_exec_local_nodelist(host, shape.nodes, &batch);
	out->host = sl_xstrdup(batch);
	prepare_files(job, host, out);
	out->append = s->open_mode == SL_OPEN_APPEND;
	out->umask = s->umask;
	out->time_limit = time_limit(s);
	out->warn_signal = s->warn_signal;
	out->warn_time = s->warn_time;
	out->sample_secs = s->acctg_task > 1 ? s->acctg_task - 1 : s->acctg_task == 1 ? -1 : 0;
	out->warn_batch = (s->warn_flags & SL_WARN_BATCH) != 0;
	out->rlimits = s->rlimits ? sl_xstrdup(s->rlimits) : NULL;
	out->kill_wait = conf->kill_wait > 0 ? conf->kill_wait : KILL_WAIT_DEFAULT;
	out->durable = conf->durable;
	/* The config of this launch (a reload changes it for the next jobs). */
	const char *pam = conf->confp && *conf->confp ? sl_conf_pam_service(*conf->confp) : NULL;
	out->pam_service = pam ? sl_xstrdup(pam) : NULL;
	out->script = sl_xstrdup(s->script ? s->script : "");
	out->argv = s->argv ? sl_strv_dup(s->argv) : NULL;
	prepare_env(conf, job, host, batch, out);
	r = 0;
out:
	free(batch);
	if (r != 0)
		sl_launch_clear(out);
	return r;
}
