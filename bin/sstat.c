/* sstat.c - the use so far of running jobs' steps, as Slurm 22.05's sstat
 * prints it. Options through compat/sstat_opt, one STAT request per step
 * asked for, rows through compat/sstat_fmt. On the local executor a job's
 * batch step is measured by its supervisor and an srun step by sluiced
 * (its tasks now). "-j N" alone names the lowest numbered running step
 * (none: the header only), "-a" the batch step and every running step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "client.h"
#include "client_step.h"
#include "sstat_fmt.h"
#include "sstat_opt.h"
#include "xalloc.h"

#define OUT_CAP (16u << 20)

static void parse(int argc, char **argv, struct sl_sstat_opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;
	int syntax = 0;

	if (sl_sstat_opts_parse(argc, argv, o, &syntax, &err) != 0) {
		fprintf(stderr, syntax ? "sstat: %s\n" : "%s\n", err.msg);
		exit(1);
	}
	if (o->version || o->help || o->usage) {
		fputs(o->version ? "slurm 22.05.8\n" : o->help ? sl_sstat_help : sl_sstat_usage,
		      stdout);
		exit(0);
	}
	if (o->helpformat) {
		b = sl_buf_new(1 << 16);
		sl_sstat_fields_help(b);
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
		sl_buf_free(b);
		exit(0);
	}
	if (o->jobs == NULL) {
		fprintf(stderr, "sstat: error: You didn't give me any jobs to stat.\n");
		exit(1);
	}
}

static void step_name(const struct sl_sstat_step *s, char *buf, size_t len)
{
	if (s->step == SL_SSTAT_STEP_EXTERN)
		snprintf(buf, len, "%llu.extern", (unsigned long long)s->id);
	else if (s->step >= 0)
		snprintf(buf, len, "%llu.%ld", (unsigned long long)s->id, s->step);
	else
		snprintf(buf, len, "%llu.batch", (unsigned long long)s->id);
}

/* The messages of a failed STAT, Slurm's words; 1 when sstat must fail. */
static int report(int r, unsigned long long id, const char *name, const char *msg)
{
	if (r == -SL_ENOENT)
		fprintf(stderr, "sstat: error: couldn't get steps for job %llu\n", id);
	else if (r == -SL_ESTATE)
		fprintf(stderr, "sstat: error: No steps running for job %llu\n", id);
	else if (r == -SL_EPERM)
		fprintf(stderr, "sstat: error: slurm_job_step_stat: there was an error with the "
				"request to %s rc = Invalid user id\n"
				"sstat: error: problem getting step_layout for StepId=%s: Invalid "
				"user id\n", msg, name);
	else if (r == -SL_ECONNECT)
		fprintf(stderr, "sstat: error: Unable to contact slurm controller (connect "
				"failure)\n");
	else if (r != 0)
		fprintf(stderr, "sstat: error: %s\n", msg);
	return r == -SL_EUNSUPP || r == -SL_ECONNECT;
}

/* A numbered step's row; a step that is not running is said so. */
static int numbered(const struct sl_sstat_fmt *f, uint64_t id, long step, struct sl_buf *b)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_usage u;
	char name[64], *node = NULL;
	int r;

	snprintf(name, sizeof(name), "%llu.%ld", (unsigned long long)id, step);
	r = sl_client_step_stat(id, (uint32_t)step, &u, &node, &err);
	if (r == 0)
		(void)sl_sstat_fmt_step(f, name, &u, node, b);
	else if (r == -SL_ESTATE)
		fprintf(stderr, "sstat: error: StepId=%s not found running.\n", name);
	free(node);
	return r == -SL_ESTATE ? 0 : report(r, id, name, err.msg);
}

/* The job's running steps: with all, each of them; else the lowest (what
 * "-j N" names), none when it has none. */
static int running_steps(const struct sl_sstat_fmt *f, uint64_t id, int all, struct sl_buf *b)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_step *v = NULL;
	size_t n = 0;
	int rc = 0;

	if (sl_client_steps(&id, 1, 1, &v, &n, &err) != 0)
		return 0; /* the job's own refusal was said already */
	for (size_t i = 0; i < n && (all || i == 0); i++)
		rc |= numbered(f, id, (long)v[i].step_id, b);
	sl_step_free_array(v, n);
	return rc;
}

/* One item of -j: 0, or 1 when sstat must fail (nothing to reach). */
static int stat_one(const struct sl_sstat_opts *o, const struct sl_sstat_fmt *f,
		    const struct sl_sstat_step *s, struct sl_buf *b)
{
	unsigned long long id = (unsigned long long)s->id;
	struct sl_err err = SL_ERR_INIT;
	struct sl_usage u;
	char name[64], *node = NULL;
	int r, rc;

	if (s->task >= 0)
		return 0; /* an array task: Sluice's arrays have no steps to stat */
	if (s->step >= 0)
		return numbered(f, s->id, s->step, b);
	step_name(s, name, sizeof(name));
	r = sl_client_stat(s->id, &u, &node, &err);
	if ((r == 0 || r == -SL_ESTATE) && s->step == SL_SSTAT_STEP_EXTERN) {
		fprintf(stderr, "sstat: error: StepId=%s not found running.\n", name);
		r = 0;
	} else if (r == 0 && (s->step == SL_SSTAT_STEP_BATCH || o->allsteps)) {
		(void)sl_sstat_fmt_step(f, name, &u, node, b);
	} else if (r == -SL_ESTATE && s->step == SL_SSTAT_STEP_BATCH) {
		fprintf(stderr, "sstat: error: StepId=%s not found running.\n", name);
		r = 0;
	}
	rc = report(r, id, name, err.msg);
	if (r == 0 && s->step == SL_SSTAT_STEP_NONE)
		rc |= running_steps(f, s->id, o->allsteps, b);
	free(node);
	return rc;
}

int main(int argc, char **argv)
{
	struct sl_sstat_opts o;
	struct sl_sstat_step *steps = NULL;
	struct sl_sstat_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;
	size_t n = 0;
	int rc = 0;

	parse(argc, argv, &o);
	if (sl_sstat_steps_parse(o.jobs, &steps, &n, &err) != 0) {
		fprintf(stderr, "sstat: fatal: %s\n", err.msg);
		rc = 1;
		goto out;
	}
	if (sl_sstat_fmt_new(o.fields ? o.fields : o.pidformat ? SL_SSTAT_FIELDS_PIDS
							       : SL_SSTAT_FIELDS_DEFAULT,
			     o.mode, o.noconvert, &f, &err) != 0) {
		fprintf(stderr, "sstat: error: %s\n", err.msg);
		rc = 1;
		goto out;
	}
	b = sl_buf_new(OUT_CAP);
	if (!o.noheader)
		sl_sstat_fmt_header(f, b);
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	fflush(stdout);
	for (size_t i = 0; i < n && rc == 0; i++) {
		sl_buf_reset(b);
		rc = stat_one(&o, f, &steps[i], b);
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
		fflush(stdout);
	}
	sl_buf_free(b);
out:
	sl_sstat_fmt_free(f);
	free(steps);
	sl_sstat_opts_clear(&o);
	return rc;
}
