/* sluice_render.c - `sluice render [-f CONFIG] [--flavor NAME] [sbatch
 * options] SCRIPT`: what `kubectl create --dry-run=client -o json` is to
 * kubectl. The job goes through sbatch's parser, the daemon's submit policy
 * and the admission engine on an empty cluster (or the --flavor given), then
 * through the renderer sluiced uses. Errors are sbatch's, word for word.
 *
 * The job id is 1 and the attempt 0: the object of a real job differs only
 * in its name, its job-id label and the SLURM_JOB_ID variables. */
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authz.h"
#include "conf.h"
#include "conf_kube.h"
#include "err.h"
#include "job.h"
#include "kueue.h"
#include "k8s/render.h"
#include "sched/sched.h"
#include "workload.h"
#include "slurm_opt.h"
#include "sluice_render.h"
#include "submit.h"
#include "xalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define RENDER_JOB_ID 1

extern char **environ;

struct opts {
	const char *conf, *flavor;
	int first; /* index of the first sbatch word in argv */
};

void sl_cmd_render_usage(FILE *f)
{
	fprintf(f, "Usage: sluice render [-f CONFIG] [--flavor NAME] [sbatch options] SCRIPT\n"
		   "  Print, as JSON, the JobSet or MPIJob the job would become if it were\n"
		   "  admitted now on an empty cluster (or on flavor NAME). CONFIG defaults\n"
		   "  to $SLUICE_CONF, then " SYSCONFDIR "/sluice/sluice.yaml.\n");
}

/* Our own options come first; the first other word starts sbatch's. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	int i;

	o->conf = getenv("SLUICE_CONF");
	o->flavor = NULL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if ((strcmp(a, "-f") == 0 || strcmp(a, "--config") == 0 ||
		     strcmp(a, "--flavor") == 0) && i + 1 < argc) {
			*(a[1] == 'f' || a[2] == 'c' ? &o->conf : &o->flavor) = argv[++i];
		} else if (strncmp(a, "--config=", 9) == 0) {
			o->conf = a + 9;
		} else if (strncmp(a, "--flavor=", 9) == 0) {
			o->flavor = a + 9;
		} else if (strcmp(a, "-f") == 0 || strcmp(a, "--flavor") == 0 ||
			   strcmp(a, "--config") == 0) {
			return -1;
		} else {
			break;
		}
	}
	if (o->conf == NULL || *o->conf == '\0')
		o->conf = SYSCONFDIR "/sluice/sluice.yaml";
	o->first = i;
	return 0;
}

/* sbatch prints daemon errors this way (bin/sbatch.c). */
static int submit_failed(const char *msg)
{
	const char *p = msg;

	for (;;) {
		size_t n = strcspn(p, "\n");
		int last = p[n] == '\0';

		fprintf(stderr, "sbatch: error: %s%.*s\n",
			last ? "Batch job submission failed: " : "", (int)n, p);
		if (last)
			return 1;
		p += n + 1;
	}
}

/* The flavors engine s (empty cluster) assigns, or --flavor for every
 * resource, and the nodes admitted (-N MIN-MAX: as many as the quota holds;
 * with --flavor, MAX). *out (caller frees) points into the model. */
static int assign(const struct sl_kueue *k, struct sl_sched *s, const struct sl_job_wl *b,
		  const char *flavor, struct sl_render_flavor **out, size_t *n, int *nodes,
		  struct sl_err *err)
{
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	size_t i;
	int r = 0;

	*out = NULL;
	*n = 0;
	*nodes = b->ps.count;
	if (flavor != NULL) {
		const struct sl_kq_flavor *f = sl_kueue_find_flavor(k, flavor);

		if (f == NULL) {
			r = sl_err_set(err, SL_ENOENT, "no ResourceFlavor named \"%s\"", flavor);
			goto out;
		}
		*out = sl_xcalloc(b->ps.nreq, sizeof(**out));
		for (i = 0; i < b->ps.nreq; i++)
			(*out)[i] = (struct sl_render_flavor){b->req[i].resource, f};
		*n = b->ps.nreq;
		goto out;
	}
	if ((r = sl_sched_add(s, &b->wl, err)) != 0)
		goto out;
	sl_sched_cycle(s, 0, &d);
	if (d.nadmit == 0) {
		sl_sched_pending_info(s, b->wl.id, &p);
		r = sl_err_set(err, SL_ENOFIT, "%s\nRequested node configuration is not "
			       "available", p.message ? p.message : "not admissible");
		goto out;
	}
	*out = sl_xcalloc(d.admit[0].n, sizeof(**out));
	for (i = 0; i < d.admit[0].n; i++) {
		/* resource names: the engine's strings die with it, ours do not */
		const char *res = d.admit[0].flavors[i].resource;
		size_t q;

		for (q = 0; q < b->ps.nreq && strcmp(b->req[q].resource, res) != 0; q++)
			;
		(*out)[i].resource = q < b->ps.nreq ? b->req[q].resource : "cpu";
		(*out)[i].flavor = sl_kueue_find_flavor(k, d.admit[0].flavors[i].flavor);
	}
	*n = d.admit[0].n;
	if (d.admit[0].ncounts > 0)
		*nodes = d.admit[0].counts[0];
out:
	sl_sched_decisions_clear(&d);
	return r;
}

/* The job goes through sluiced's submit policy (submit.h) as this user, on
 * an engine holding nothing but the model. */
static int render_job(const struct sl_conf *conf, struct sl_job *j, const char *flavor)
{
	struct passwd *pw = getpwuid(getuid());
	struct group *gr = getgrgid(getgid());
	struct sl_peer who = {.uid = getuid(), .gid = getgid(), .pid = getpid()};
	struct sl_sched *s = sl_sched_new(sl_conf_kueue(conf));
	struct sl_err err = SL_ERR_INIT;
	struct sl_render_flavor *fl = NULL;
	struct sl_render_in in;
	struct sl_job_wl b;
	size_t n;
	char *json = NULL;
	int r;

	if (pw != NULL)
		snprintf(who.user, sizeof(who.user), "%s", pw->pw_name);
	else
		snprintf(who.user, sizeof(who.user), "%u", (unsigned)who.uid);
	if (gr != NULL)
		snprintf(who.group, sizeof(who.group), "%s", gr->gr_name);
	else
		snprintf(who.group, sizeof(who.group), "%u", (unsigned)who.gid);
	who.operator = sl_conf_is_operator(conf, who.user, who.uid);
	j->id = RENDER_JOB_ID;
	if ((r = sl_submit_prepare(conf, s, &who, j, &err)) != 0 ||
	    (r = sl_submit_workload(conf, j, &b, &err)) != 0 ||
	    (r = assign(sl_conf_kueue(conf), s, &b, flavor, &fl, &n, &j->alloc_nodes, &err)) != 0)
		goto out;
	in = (struct sl_render_in){.job = j, .nflavors = n, .flavors = fl,
				   .kube = sl_conf_kubernetes(conf),
				   .features = sl_conf_features(conf),
				   .cluster = sl_conf_cluster_name(conf),
				   .pbs_server = sl_conf_pbs_server(conf),
				   .kill_wait = sl_conf_kill_wait(conf)};
	if ((r = sl_render(&in, &json, &err)) != 0)
		goto out;
	fputs(json, stdout);
out:
	sl_sched_free(s);
	free(fl);
	free(json);
	return r != 0 ? submit_failed(err.msg[0] ? err.msg : sl_strerror(r)) : 0;
}

static int parse_failed(const struct sl_sbatch_flags *fl, const struct sl_err *err)
{
	if (fl->usage_error)
		fprintf(stderr, "sbatch: %s\nTry \"sbatch --help\" for more information\n",
			err->msg);
	else
		fprintf(stderr, "%s%s\n", fl->fatal ? "sbatch: fatal: " : "sbatch: error: ",
			err->msg);
	return fl->exit_code ? fl->exit_code : 1;
}

int sl_cmd_render(int argc, char **argv)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *conf = NULL;
	struct sl_sbatch_flags fl;
	struct sl_job *j = sl_job_new();
	struct opts o;
	char **sbatch_argv = NULL;
	int rc;

	memset(&fl, 0, sizeof(fl));
	if (parse_opts(argc, argv, &o) == 0) {
		/* sbatch's parser wants its own name first */
		sbatch_argv = sl_xcalloc((size_t)(argc - o.first) + 2, sizeof(char *));
		sbatch_argv[0] = (char *)"sbatch";
		memcpy(sbatch_argv + 1, argv + o.first, (size_t)(argc - o.first) * sizeof(char *));
	}
	if (sbatch_argv == NULL) {
		sl_cmd_render_usage(stderr);
		rc = 2;
	} else if (sl_conf_load(o.conf, &conf, &err) != 0) {
		fprintf(stderr, "sluice: error: %s\n", err.msg);
		rc = 1;
	} else if (sl_sbatch_parse(argc - o.first + 1, sbatch_argv, environ, &j->spec, &fl,
				   &err) != 0) {
		rc = parse_failed(&fl, &err);
	} else if (fl.help || fl.usage || fl.version) {
		sl_cmd_render_usage(stdout);
		rc = 0;
	} else {
		rc = render_job(conf, j, o.flavor);
	}
	free(sbatch_argv);
	sl_sbatch_flags_clear(&fl);
	sl_job_free(j);
	sl_conf_free(conf);
	return rc;
}
