/* sstat_opt.c - sstat's options, one row each, and its job/step list. */
#include "sstat_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_opt.h"
#include "slurm_state.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_sstat_opts *)(ctx))

const char sl_sstat_usage[] =
	"Usage: sstat [options] -j <job(.stepid)>\n"
	"\tUse --help for help\n";

/* sstat --help, as 22.05 prints it (trailing blanks and tabs included). */
const char sl_sstat_help[] =
	"sstat [<OPTION>] -j <job(.stepid)>                                          \n"
	"    Valid <OPTION> values are:                                              \n"
	"      -a, --allsteps:                                                       \n"
	"                   Print all steps for the given job(s) when no step is     \n"
	"                   specified.                                               \n"
	"      -e, --helpformat:                                                     \n"
	"\t           Print a list of fields that can be specified with the    \n"
	"\t           '--format' option                                        \n"
	"     -h, --help:   Print this description of use.                           \n"
	"     -i, --pidformat:                                                       \n"
	"                   Predefined format to list the pids running for each      \n"
	"                   job step.  (JobId,Nodes,Pids)                            \n"
	"     -j, --jobs:                                                            \n"
	"\t           Format is <job(.step)>. Stat this job step               \n"
	"                   or comma-separated list of job steps. This option is     \n"
	"                   required.  The step portion will default to the lowest   \n"
	"                   numbered (not batch, extern, etc) step running if not    \n"
	"                   specified, unless the --allsteps flag is set where not   \n"
	"                   specifying a step will result in all running steps       \n"
	"                   to be displayed. A step id of 'batch' will display the   \n"
	"                   information about the batch step. A step id of 'extern'  \n"
	"                   will display the information about the extern step       \n"
	"                   when using PrologFlags=contain.                          \n"
	"     -n, --noheader:                                                        \n"
	"\t           No header will be added to the beginning of output.      \n"
	"                   The default is to print a header.                        \n"
	"     --noconvert:  Don't convert units from their original type             \n"
	"\t\t   (e.g. 2048M won't be converted to 2G).                   \n"
	"     -o, --format:                                                          \n"
	"\t           Comma separated list of fields. (use \"--helpformat\"    \n"
	"                   for a list of available fields).                         \n"
	"     -p, --parsable: output will be '|' delimited with a '|' at the end     \n"
	"     -P, --parsable2: output will be '|' delimited without a '|' at the end \n"
	"     --usage:      Display brief usage message.                             \n"
	"     -v, --verbose:                                                         \n"
	"\t           Primarily for debugging purposes, report the state of    \n"
	"                   various variables during processing.                     \n"
	"     -V, --version: Print version.                                          \n"
	"\n";

FLAG(set_allsteps, allsteps, 1)
FLAG(set_helpformat, helpformat, 1)
FLAG(set_help, help, 1)
FLAG(set_usage, usage, 1)
FLAG(set_version, version, 1)
FLAG(set_noheader, noheader, 1)
FLAG(set_noconvert, noconvert, 1)
FLAG(set_pidformat, pidformat, 1)
FLAG(set_parsable, mode, SL_SSTAT_PARSABLE)
FLAG(set_parsable2, mode, SL_SSTAT_PARSABLE2)
SET(set_verbose) { (void)arg; (void)err; O(ctx)->verbose++; return 0; }

static void append(char **list, const char *arg)
{
	char *old = *list;
	*list = old ? sl_xasprintf("%s,%s", old, arg) : sl_xstrdup(arg);
	free(old);
}

SET(set_fields) { (void)err; append(&O(ctx)->fields, arg); return 0; }
SET(set_jobs) { (void)err; append(&O(ctx)->jobs, arg); return 0; }

static const struct sl_opt table[] = {
	ROW("allsteps", 'a', SL_OPT_NOARG, set_allsteps),
	ROW("helpformat", 'e', SL_OPT_NOARG, set_helpformat),
	ROW("help", 'h', SL_OPT_NOARG, set_help),
	ROW("pidformat", 'i', SL_OPT_NOARG, set_pidformat),
	ROW("jobs", 'j', SL_OPT_REQ, set_jobs),
	ROW("noconvert", 0, SL_OPT_NOARG, set_noconvert),
	ROW("noheader", 'n', SL_OPT_NOARG, set_noheader),
	ROW("fields", 'o', SL_OPT_REQ, set_fields),
	ROW("format", 'o', SL_OPT_REQ, set_fields),
	ROW("parsable", 'p', SL_OPT_NOARG, set_parsable),
	ROW("parsable2", 'P', SL_OPT_NOARG, set_parsable2),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

int sl_sstat_opts_parse(int argc, char **argv, struct sl_sstat_opts *o, int *syntax,
			struct sl_err *err)
{
	char **ops = NULL;
	size_t n_ops = 0;
	int r;

	memset(o, 0, sizeof(*o));
	if ((r = sl_query_opt_parse(table, "sstat", argc, argv, o, &ops, &n_ops, syntax, err)))
		goto out;
	/* operands are jobs too: "sstat 241.batch" */
	for (size_t i = 0; i < n_ops; i++)
		append(&o->jobs, ops[i]);
out:
	free(ops);
	return r;
}

void sl_sstat_opts_clear(struct sl_sstat_opts *o)
{
	free(o->fields);
	free(o->jobs);
	memset(o, 0, sizeof(*o));
}

static int one_step(const char *s, struct sl_sstat_step *st)
{
	const char *dot = strchr(s, '.');
	char *idpart = sl_xstrndup(s, dot ? (size_t)(dot - s) : strlen(s)), *end;
	int r = sl_slurm_jobid_parse(idpart, &st->id, &st->task);

	free(idpart);
	st->step = SL_SSTAT_STEP_NONE;
	if (r != 0 || dot == NULL)
		return r;
	if (strcmp(dot + 1, "batch") == 0)
		st->step = SL_SSTAT_STEP_BATCH;
	else if (strcmp(dot + 1, "extern") == 0)
		st->step = SL_SSTAT_STEP_EXTERN;
	else if ((st->step = strtol(dot + 1, &end, 10)) < 0 || end == dot + 1 || *end)
		return -SL_EINVAL;
	return 0;
}

int sl_sstat_steps_parse(const char *list, struct sl_sstat_step **v, size_t *n,
			 struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL, *tok;
	int r = 0;

	*v = NULL;
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); r == 0 && tok; tok = strtok_r(NULL, ",", &save)) {
		*v = sl_xrealloc(*v, (*n + 1) * sizeof(**v));
		if (one_step(tok, &(*v)[*n]) != 0)
			r = sl_err_set(err, SL_EINVAL, "Bad job/step specified: %s", tok);
		else
			(*n)++;
	}
	free(copy);
	if (r != 0) { /* nothing for the caller to free */
		free(*v);
		*v = NULL;
		*n = 0;
	}
	return r;
}
