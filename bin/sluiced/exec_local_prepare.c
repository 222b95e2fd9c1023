/* exec_local_prepare.c - turn a job record into the launch spec that
 * sluice-stepd runs: identity, local node names, expanded file names, and
 * the final environment (exported variables + Slurm's). No I/O but the
 * passwd lookup, so it can be tested alone. */
#include "exec_local.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What initgroups() would set, resolved here: sluice-stepd has no NSS. */
static void lookup_groups(const char *user, gid_t gid, struct sl_launch *out)
{
	int n = 32;
	for (int tries = 0; tries < 4; tries++) {
		int want = n;
		gid_t *g = sl_xcalloc((size_t)n, sizeof(gid_t));
		if (getgrouplist(user, gid, g, &want) >= 0) {
			out->groups = g;
			out->ngroups = (size_t)want;
			return;
		}
		free(g);
		n = want > n ? want : n * 2;
	}
}

static int lookup_user(const struct sl_job *job, struct sl_launch *out, struct sl_err *err)
{
	struct passwd pw, *res = NULL;
	char buf[16384];
	int e = getpwuid_r(job->uid, &pw, buf, sizeof(buf), &res);
	if (res == NULL) {
		/* Without root we run as ourselves anyway: the record's name will do. */
		if (geteuid() != 0 && job->uid == geteuid() && job->user != NULL) {
			out->user = sl_xstrdup(job->user);
			return 0;
		}
		return sl_err_set(err, SL_EINVAL, "job %llu: uid %u: %s", (unsigned long long)job->id,
				  (unsigned)job->uid, e ? strerror(e) : "no such user");
	}
	out->user = sl_xstrdup(pw.pw_name);
	out->home = sl_xstrdup(pw.pw_dir);
	out->shell = sl_xstrdup(pw.pw_shell);
	if (geteuid() == 0)
		lookup_groups(pw.pw_name, job->gid, out);
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
		.job_id = job->id, .array_task_id = SL_PATTERN_NO_TASK, .job_name = s->name,
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

static void prepare_env(const struct sl_exec_conf *conf, const struct sl_job *job,
			const char *batch, struct sl_launch *out)
{
	struct sl_jobshape shape;
	sl_job_shape(job, &shape);
	struct sl_slurm_env_in in = {job, &shape, out->nodelist, batch, conf->cluster};
	char **slurm = sl_slurm_env_build(&in);
	out->env = sl_slurm_env_merge(job->spec.env, slurm);
	sl_strv_free(slurm);
}

int sl_exec_local_prepare(const struct sl_exec_conf *conf, const char *host,
			  const struct sl_job *job, struct sl_launch *out, struct sl_err *err)
{
	const struct sl_jobspec *s = &job->spec;
	struct sl_jobshape shape;
	char *batch = NULL;
	int r;
	memset(out, 0, sizeof(*out));
	if ((r = lookup_user(job, out, err)) != 0)
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
	out->time_limit = s->time_limit > 0 ? s->time_limit * 60 : 0;
	out->kill_wait = conf->kill_wait > 0 ? conf->kill_wait : KILL_WAIT_DEFAULT;
	out->durable = conf->durable;
	out->script = sl_xstrdup(s->script ? s->script : "");
	out->argv = s->argv ? sl_strv_dup(s->argv) : NULL;
	prepare_env(conf, job, batch, out);
	r = 0;
out:
	free(batch);
	if (r != 0)
		sl_launch_clear(out);
	return r;
}
