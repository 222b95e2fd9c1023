/* sstat.c - the use so far of running jobs' steps, as Slurm 22.05's sstat
 * prints it. Options through compat/sstat_opt, one sl_client_stat() per
 * job asked for, rows through compat/sstat_fmt. Sluice's only step is a
 * job's batch step (on the local executor, measured by its supervisor):
 * "-j N" alone names the lowest numbered step, of which there is none, so
 * as in Slurm it shows the batch step only with -a or "N.batch". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "client.h"
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

/* One item of -j: 0, or 1 when sstat must fail (nothing to reach). */
static int stat_one(const struct sl_sstat_opts *o, const struct sl_sstat_fmt *f,
		    const struct sl_sstat_step *s, struct sl_buf *b)
{
	unsigned long long id = (unsigned long long)s->id;
	struct sl_err err = SL_ERR_INIT;
	struct sl_usage u;
	char name[64], *node = NULL;
	int r;

	step_name(s, name, sizeof(name));
	if (s->task >= 0)
		return 0; /* an array task: Sluice's arrays have no steps to stat */
	r = sl_client_stat(s->id, &u, &node, &err);
	/* a numbered or extern step: a Sluice job has none */
	if ((r == 0 || r == -SL_ESTATE) && (s->step >= 0 || s->step == SL_SSTAT_STEP_EXTERN))
		fprintf(stderr, "sstat: error: StepId=%s not found running.\n", name);
	else if (r == 0 && (s->step == SL_SSTAT_STEP_BATCH || o->allsteps))
		(void)sl_sstat_fmt_step(f, name, &u, node, b);
	else if (r == -SL_ESTATE && s->step == SL_SSTAT_STEP_BATCH)
		fprintf(stderr, "sstat: error: StepId=%s not found running.\n", name);
	else if (r == -SL_ENOENT)
		fprintf(stderr, "sstat: error: couldn't get steps for job %llu\n", id);
	else if (r == -SL_ESTATE)
		fprintf(stderr, "sstat: error: No steps running for job %llu\n", id);
	else if (r == -SL_EPERM)
		fprintf(stderr, "sstat: error: slurm_job_step_stat: there was an error with the "
				"request to %s rc = Invalid user id\n"
				"sstat: error: problem getting step_layout for StepId=%s: Invalid "
				"user id\n", err.msg, name);
	else if (r == -SL_ECONNECT)
		fprintf(stderr, "sstat: error: Unable to contact slurm controller (connect "
				"failure)\n");
	else if (r != 0)
		fprintf(stderr, "sstat: error: %s\n", err.msg);
	free(node);
	return r == -SL_EUNSUPP || r == -SL_ECONNECT;
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
		return 1;
	}
	if (sl_sstat_fmt_new(o.fields ? o.fields : o.pidformat ? SL_SSTAT_FIELDS_PIDS
							       : SL_SSTAT_FIELDS_DEFAULT,
			     o.mode, o.noconvert, &f, &err) != 0) {
		fprintf(stderr, "sstat: error: %s\n", err.msg);
		return 1;
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
	sl_sstat_fmt_free(f);
	free(steps);
	sl_sstat_opts_clear(&o);
	return rc;
}
