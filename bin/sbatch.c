/* sbatch.c - submit a batch script: parse with compat's option table, make
 * one sl_client_submit() call, print what Slurm 22.05's sbatch prints.
 *
 * Daemon errors arrive as err.msg, one line per '\n': every line but the
 * last is a hint printed as "sbatch: error: LINE" (Slurm's "invalid
 * partition specified: nosuch"), the last one is the controller's answer,
 * printed as "sbatch: error: Batch job submission failed: LINE". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "err.h"
#include "job.h"
#include "slurm_opt.h"

extern char **environ;

static const char help_text[] =
	"Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n"
	"\n"
	"Parallel run options:\n"
	"  -A, --account=name          charge job to specified account\n"
	"  -D, --chdir=directory       set working directory for batch script\n"
	"  -e, --error=err             file for batch script's standard error\n"
	"      --export[=names]        specify environment variables to export\n"
	"  -H, --hold                  submit job in held state\n"
	"  -i, --input=in              file for batch script's standard input\n"
	"  -J, --job-name=jobname      name of job\n"
	"  -n, --ntasks=ntasks         number of tasks to run\n"
	"      --nice[=value]          decrease scheduling priority by value\n"
	"      --no-requeue            if set, do not permit the job to be requeued\n"
	"      --ntasks-per-node=n     number of tasks to invoke on each node\n"
	"  -N, --nodes=N               number of nodes on which to run (N = min[-max])\n"
	"  -o, --output=out            file for batch script's standard output\n"
	"      --open-mode={append|truncate} output file open mode\n"
	"  -p, --partition=partition   partition requested\n"
	"      --parsable              outputs only the jobid and cluster name (if present),\n"
	"                              separated by semicolon, only on successful submission.\n"
	"      --priority=value        set the priority of the job to value\n"
	"  -q, --qos=qos               quality of service\n"
	"  -Q, --quiet                 quiet mode (suppress informational messages)\n"
	"      --requeue               if set, permit the job to be requeued\n"
	"  -t, --time=minutes          time limit\n"
	"  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n"
	"      --wrap[=command string] wrap command string in a sh script and submit\n"
	"\n"
	"Constraint options:\n"
	"  -C, --constraint=list       specify a list of constraints (features\n"
	"                              joined with &)\n"
	"      --mem=MB                minimum amount of real memory\n"
	"      --mem-per-cpu=MB        maximum amount of real memory per allocated\n"
	"                              cpu required by the job.\n"
	"                              --mem >= --mem-per-cpu if --mem is specified.\n"
	"\n"
	"Consumable resources related options:\n"
	"  -c, --cpus-per-task=ncpus   number of cpus required per task\n"
	"\n"
	"GPU scheduling options:\n"
	"  -G, --gpus=n                count of GPUs required for the job\n"
	"      --gpus-per-node=n       number of GPUs required per allocated node\n"
	"      --gres=list             required generic resources (gpu[:type]:count)\n"
	"\n"
	"Help options:\n"
	"  -h, --help                  show this help message\n"
	"      --usage                 display brief usage message\n"
	"\n"
	"Other options:\n"
	"  -V, --version               output version information and exit\n"
	"\n"
	"Other sbatch options are recognised and refused: Sluice does not\n"
	"support them yet.\n";

static const char usage_text[] =
	"Usage: sbatch [-N nnodes] [-n ntasks] [-c ncpus] [-p partition]\n"
	"              [-A account] [-q qos] [-J jobname] [-t minutes]\n"
	"              [-D path] [-o out] [-e err] [-i in] [--export[=names]]\n"
	"              [--mem=MB] [--mem-per-cpu=MB] [--ntasks-per-node=n]\n"
	"              [--gres=gpu[:type]:count] [--gpus=n] [--gpus-per-node=n]\n"
	"              [--hold] [--parsable] [--nice[=value]] [--priority=value]\n"
	"              [--open-mode=append|truncate] [--requeue] [--no-requeue]\n"
	"              [-Q] [-v] [--wrap[=command string]] executable [args...]\n";

/* Print each line of msg with the prefix (but the first `bare` ones); the
 * last one also gets `last`. */
static void print_lines(const char *prefix, const char *last, const char *msg, int bare)
{
	const char *p = msg;

	for (;;) {
		size_t n = strcspn(p, "\n");
		int is_last = p[n] == '\0';

		fprintf(stderr, "%s%s%.*s\n", bare-- > 0 ? "" : prefix, is_last ? last : "", (int)n, p);
		if (is_last)
			break;
		p += n + 1;
	}
}

static int parse_failed(const struct sl_sbatch_flags *fl, const struct sl_err *err)
{
	if (fl->usage_error) {
		fprintf(stderr, "sbatch: %s\nTry \"sbatch --help\" for more information\n",
			err->msg);
	} else {
		print_lines(fl->fatal ? "sbatch: fatal: " : "sbatch: error: ", "", err->msg,
			    fl->raw_lines);
	}
	return fl->exit_code ? fl->exit_code : 1;
}

static void print_verbose(const struct sl_sbatch_flags *fl)
{
	char **p;

	fprintf(stderr, "sbatch: defined options\n");
	fprintf(stderr, "sbatch: -------------------- --------------------\n");
	for (p = fl->defined; p && *p; p++)
		fprintf(stderr, "sbatch: %s\n", *p);
	fprintf(stderr, "sbatch: -------------------- --------------------\n");
	fprintf(stderr, "sbatch: end of defined options\n");
}

static int submit(const struct sl_jobspec *spec, const struct sl_sbatch_flags *fl)
{
	struct sl_err err = SL_ERR_INIT;
	uint64_t id = 0;
	int r = sl_client_submit_once(spec, &id, &err);

	if (r != 0) {
		print_lines("sbatch: error: ", "Batch job submission failed: ",
			    err.msg[0] ? err.msg : sl_strerror(r), 0);
		return 1;
	}
	if (fl->parsable)
		printf("%llu\n", (unsigned long long)id);
	else if (!fl->quiet)
		printf("Submitted batch job %llu\n", (unsigned long long)id);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct sl_jobspec spec;
	struct sl_sbatch_flags fl;
	struct sl_err err = SL_ERR_INIT;
	int rc;

	if (sl_sbatch_parse(argc, argv, environ, &spec, &fl, &err) != 0) {
		rc = parse_failed(&fl, &err);
	} else if (fl.help || fl.usage || fl.version) {
		fputs(fl.help ? help_text : fl.usage ? usage_text : "slurm 22.05.8\n", stdout);
		rc = 0;
	} else {
		if (fl.verbose)
			print_verbose(&fl);
		rc = submit(&spec, &fl);
	}
	sl_jobspec_clear(&spec);
	sl_sbatch_flags_clear(&fl);
	return rc;
}
