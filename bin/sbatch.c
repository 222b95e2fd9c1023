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
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "err.h"
#include "job.h"
#include "slurm_clusters.h"
#include "slurm_opt.h"
#include "slurm_time.h"
#include "slurm_willrun.h"

extern char **environ;

static const char help_text[] =
	"Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n"
	"\n"
	"Parallel run options:\n"
	"  -A, --account=name          charge job to specified account\n"
	"  -D, --chdir=directory       set working directory for batch script\n"
	"      --deadline=time         remove the job if no ending possible before\n"
	"                              this deadline (start > (deadline - time[-min]))\n"
	"  -e, --error=err             file for batch script's standard error\n"
	"      --export[=names]        specify environment variables to export\n"
	"  -H, --hold                  submit job in held state\n"
	"      --ignore-pbs            Ignore #PBS and #BSUB options in the batch script\n"
	"  -i, --input=in              file for batch script's standard input\n"
	"  -J, --job-name=jobname      name of job\n"
	"      --mail-type=type        notify on state change: BEGIN, END, FAIL or ALL\n"
	"      --mail-user=user        who to send email notification for job state\n"
	"                              changes\n"
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
	"  -s, --oversubscribe         over subscribe resources with other jobs\n"
	"      --signal=[[R][B]:]num[@time] send signal when time limit within time seconds\n"
	"  -t, --time=minutes          time limit\n"
	"  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n"
	"  -W, --wait                  wait for completion of submitted job\n"
	"      --wrap[=command string] wrap command string in a sh script and submit\n"
	"\n"
	"Constraint options:\n"
	"  -C, --constraint=list       specify a list of constraints (features\n"
	"                              joined with &)\n"
	"      --mem=MB                minimum amount of real memory\n"
	"      --mem-per-cpu=MB        maximum amount of real memory per allocated\n"
	"                              cpu required by the job.\n"
	"                              --mem >= --mem-per-cpu if --mem is specified.\n"
	"      --mincpus=n             minimum number of logical processors (threads)\n"
	"                              per node\n"
	"  -w, --nodelist=hosts...     request a specific list of hosts\n"
	"  -x, --exclude=hosts...      exclude a specific list of hosts\n"
	"\n"
	"Consumable resources related options:\n"
	"      --exclusive[=user]      allocate nodes in exclusive mode when\n"
	"                              cpu consumable resource is enabled\n"
	"  -c, --cpus-per-task=ncpus   number of cpus required per task\n"
	"\n"
	"Affinity/Multi-core options: (accepted; Sluice does not place tasks)\n"
	"      --sockets-per-node=S    number of sockets per node to allocate\n"
	"      --cores-per-socket=C    number of cores per socket to allocate\n"
	"      --threads-per-core=T    number of threads per core to allocate\n"
	"  -B  --extra-node-info=S[:C[:T]]  combine request of sockets per node,\n"
	"                              cores per socket and threads per core.\n"
	"      --ntasks-per-core=n     number of tasks to invoke on each core\n"
	"      --ntasks-per-socket=n   number of tasks to invoke on each socket\n"
	"      --hint=                 Bind tasks according to application hints\n"
	"                              (see \"--hint=help\" for options)\n"
	"\n"
	"GPU scheduling options:\n"
	"  -G, --gpus=n                count of GPUs required for the job\n"
	"      --gpus-per-node=n       number of GPUs required per allocated node\n"
	"      --gres=list             required generic resources (gpu[:type]:count)\n"
	"      --cpus-per-gpu=n        number of CPUs required per allocated GPU\n"
	"      --gpus-per-task=n       number of GPUs required per spawned task\n"
	"      --mem-per-gpu=n         real memory required per allocated GPU\n"
	"\n"
	"Help options:\n"
	"  -h, --help                  show this help message\n"
	"      --usage                 display brief usage message\n"
	"\n"
	"Other options:\n"
	"      --test-only             when would the job start? (submits nothing)\n"
	"  -V, --version               output version information and exit\n"
	"\n"
	"Other sbatch options are recognised and refused: Sluice does not\n"
	"support them yet. `sluice options` lists them all.\n";

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

static const char hint_help[] =
	"Application hint options:\n"
	"    --hint=             Bind tasks according to application hints\n"
	"        compute_bound   use all cores in each socket\n"
	"        memory_bound    use only one core in each socket\n"
	"        [no]multithread [don't] use extra threads with in-core multi-threading\n"
	"        help            show this help message\n";

static int parse_failed(const struct sl_sbatch_flags *fl, const struct sl_err *err)
{
	if (fl->hint_help) { /* Slurm prints it and exits 1 */
		fputs(hint_help, stdout);
		return 1;
	}
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

/* -W: Slurm's _job_wait(), polling a fresh connection each time (sluiced
 * closes idle ones): after 2 s, then twice as long each time up to 10 s.
 * The exit status is the job's exit code, 1 when a signal ended it; for
 * an array, once every task ended, the highest of theirs. */
static int wait_job(uint64_t id)
{
	struct sl_jobfilter f = {0};
	unsigned delay = 2;

	f.ids = &id;
	f.n_ids = 1;
	for (;;) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_job **v = NULL;
		size_t n = 0;
		int r, ec = -1;

		sleep(delay);
		if (delay < 10)
			delay = delay * 2 > 10 ? 10 : delay * 2;
		if ((r = sl_client_query(&f, &v, &n, &err)) != 0) {
			fprintf(stderr, "sbatch: error: Currently unable to load job state "
				"information, retrying: %s\n", err.msg);
			continue;
		}
		if (n == 0) {
			fprintf(stderr, "sbatch: error: Job %llu no longer found and exit code not "
				"found\n", (unsigned long long)id);
			ec = 0;
		} else { /* an array: when all its tasks ended, the highest (Slurm's) */
			for (size_t i = 0; i < n && (i == 0 || ec >= 0); i++) {
				int e = v[i]->exit_signal != 0 ? 1 : v[i]->exit_code;
				ec = !sl_jobstate_is_final(v[i]->state) ? -1 : e > ec ? e : ec;
			}
		}
		sl_job_free_array(v, n);
		if (ec >= 0)
			return ec;
	}
}

static int submit(const struct sl_jobspec *spec, const struct sl_sbatch_flags *fl)
{
	struct sl_err err = SL_ERR_INIT;
	uint64_t id = 0;
	char *cluster = sl_slurm_clusters_or_exit("sbatch", fl->clusters);
	int r = sl_client_submit_once(spec, &id, &err);

	if (r != 0) {
		print_lines("sbatch: error: ", "Batch job submission failed: ",
			    err.msg[0] ? err.msg : sl_strerror(r), 0);
		free(cluster);
		return 1;
	}
	if (fl->parsable)
		printf("%llu%s%s\n", (unsigned long long)id, cluster ? ";" : "", cluster ? cluster : "");
	else if (!fl->quiet)
		printf("Submitted batch job %llu%s%s\n", (unsigned long long)id,
		       cluster ? " on cluster " : "", cluster ? cluster : "");
	free(cluster);
	if (fflush(stdout) != 0)
		return 1;
	return fl->wait ? wait_job(id) : 0;
}

int main(int argc, char **argv)
{
	struct sl_jobspec spec;
	struct sl_sbatch_flags fl;
	struct sl_err err = SL_ERR_INIT;
	int rc;

	int r = sl_sbatch_parse(argc, argv, environ, &spec, &fl, &err);

	if (fl.legacy_magic) /* printed as the script is read, before any error */
		fprintf(stderr, "sbatch: error: Change from #SLURM to #SBATCH in your script and "
				"verify the options are valid in sbatch\n");
	if (fl.warn)
		fputs(fl.warn, stderr);
	if (r != 0) {
		rc = parse_failed(&fl, &err);
	} else if (fl.help || fl.usage || fl.version) {
		fputs(fl.help ? help_text : fl.usage ? usage_text : "slurm 22.05.8\n", stdout);
		rc = 0;
	} else {
		if (fl.verbose)
			print_verbose(&fl);
		rc = fl.test_only ? sl_willrun_report("sbatch", &spec, fl.quiet) : submit(&spec, &fl);
	}
	sl_jobspec_clear(&spec);
	sl_sbatch_flags_clear(&fl);
	return rc;
}
