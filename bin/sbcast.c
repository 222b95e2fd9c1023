/* sbcast.c - a file to every node of a running job, as Slurm 22.05's
 * sbcast: the job from -j or SLURM_JOB_ID, the caller's own and running;
 * the copy itself is compat/sbcast.c's. The local executor's nodes are all
 * this host, so one copy serves them all; a Kubernetes job's pods are out
 * of reach here and are refused by name. The transport's knobs (-C, -F,
 * -s, -t and their SBCAST_* variables) are read and checked as Slurm's are
 * and move nothing: there is no transfer to tune. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client.h"
#include "optable.h"
#include "hostlist.h"
#include "jobfilter.h"
#include "sbcast.h"
#include "xalloc.h"

enum { OPT_HELP = 0x100, OPT_USAGE, OPT_EXCLUDE, OPT_SEND_LIBS };

static const struct option longopts[] = {
	{"compress", optional_argument, NULL, 'C'},
	{"exclude", required_argument, NULL, OPT_EXCLUDE},
	{"fanout", required_argument, NULL, 'F'},
	{"force", no_argument, NULL, 'f'},
	{"jobid", required_argument, NULL, 'j'},
	{"send-libs", optional_argument, NULL, OPT_SEND_LIBS},
	{"preserve", no_argument, NULL, 'p'},
	{"size", required_argument, NULL, 's'},
	{"timeout", required_argument, NULL, 't'},
	{"verbose", no_argument, NULL, 'v'},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, OPT_HELP},
	{"usage", no_argument, NULL, OPT_USAGE},
	{NULL, 0, NULL, 0},
};

static const char help[] =
	"Usage: sbcast [OPTIONS] SOURCE DEST\n"
	"  -C, --compress[=lib]  compress the file being transmitted\n"
	"  -f, --force           replace destination file as required\n"
	"  -F, --fanout=num      specify message fanout\n"
	"  -j, --jobid=#         specify job ID\n"
	"  -p, --preserve        preserve modes and times of source file\n"
	"  -s, --size=num        block size in bytes (rounded off)\n"
	"  -t, --timeout=secs    specify message timeout (seconds)\n"
	"  -v, --verbose         provide detailed event logging\n"
	"  -V, --version         print version information and exit\n"
	"\nHelp options:\n"
	"  --help                show this help message\n"
	"  --usage               display brief usage message\n";

/* parse_compress_type: lz4 or none; another name is an error line and no
 * compression, not a failure. */
static void compress_type(const char *arg)
{
	if (arg != NULL && strcasecmp(arg, "lz4") != 0 && strcasecmp(arg, "none") != 0)
		fprintf(stderr, "sbcast: error: Compression type '%s' unknown, disabling "
				"compression support.\n", arg);
}

static int refuse(const char *what)
{
	fprintf(stderr, "sbcast: error: %s is not supported by Sluice\n", what);
	return 1;
}

/* SLURM_JOB_ID or -j: "N" (a step, "N.S", or a hetjob's "N+O" is refused). */
static int job_id(const char *s, uint64_t *id)
{
	char *end = NULL;
	unsigned long long v = strtoull(s, &end, 10);
	*id = *end == '\0' ? v : 0;
	return *end == '\0' || (*end != '.' && *end != '+') ? 0 : -1;
}

/* The running job of the caller's that the file goes to: its nodes, or 255
 * with Slurm's lookup error. */
static int job_nodes(uint64_t id, char **nodes)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL, *j = NULL;
	const char *why = NULL;
	size_t n = 0;
	int r;

	if ((r = sl_client_query(&f, &v, &n, &err)) != 0) {
		fprintf(stderr, "sbcast: error: %s\n", err.msg[0] ? err.msg : sl_strerror(r));
		return 255;
	}
	for (size_t i = 0; i < n && j == NULL; i++)
		if (v[i]->id == id && v[i]->array_tasks == NULL)
			j = v[i];
	if (id == 0 || j == NULL)
		why = "Invalid job id specified";
	else if (getuid() != 0 && (uid_t)j->uid != getuid())
		why = "Access/permission denied";
	else if (j->state == SL_JOB_PENDING || j->state == SL_JOB_SUSPENDED)
		why = j->state == SL_JOB_PENDING ? "Job is pending execution" : NULL;
	else if (j->state != SL_JOB_RUNNING && j->state != SL_JOB_CONFIGURING)
		why = "Job/step already completing or completed";
	if (why == NULL)
		*nodes = sl_xstrdup(j->nodelist ? j->nodelist : "");
	else
		fprintf(stderr, "sbcast: error: Slurm job %llu lookup error: %s\n",
			(unsigned long long)id, why);
	sl_job_free_array(v, n);
	return why ? 255 : 0;
}

/* The executor the daemon runs jobs with: a pod's files are not here. */
static int on_kubernetes(void)
{
	struct sl_err err = SL_ERR_INIT;
	int k8s = 0;

	(void)sl_client_kubernetes(&k8s, &err);
	return k8s || getenv("KUBERNETES_SERVICE_HOST") != NULL;
}

/* One line per node of the job: each is this host, and each would say it. */
static int per_node(const char *nodelist, int e, const char *msg)
{
	struct sl_err herr = SL_ERR_INIT;
	char **names = NULL;
	size_t n = 0;
	if (sl_hostlist_expand(nodelist, &names, &n, &herr) != 0 || n == 0)
		fprintf(stderr, "sbcast: error: REQUEST_FILE_BCAST(%s): %s\n", nodelist, msg);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "sbcast: error: REQUEST_FILE_BCAST(%s): %s\n", names[i], msg);
	sl_strv_free(names);
	return e & 0xff;
}

int main(int argc, char **argv)
{
	struct sl_sbcast o = {.fd = -1};
	struct sl_err err = SL_ERR_INIT;
	const char *jobid = NULL;
	char *nodes = NULL;
	uint64_t id = 0;
	int c, rc, dst_errno = 0;

	if (getenv("SBCAST_COMPRESS"))
		compress_type(getenv("SBCAST_COMPRESS"));
	o.force = getenv("SBCAST_FORCE") != NULL;
	o.preserve = getenv("SBCAST_PRESERVE") != NULL;
	if (getenv("SBCAST_SEND_LIBS") && strcasecmp(getenv("SBCAST_SEND_LIBS"), "no") != 0)
		return refuse("SBCAST_SEND_LIBS");
	opterr = 0;
	while ((c = getopt_long(argc, argv, "C::fF:j:ps:t:vV", longopts, NULL)) != -1) {
		switch (c) {
		case 'C': compress_type(optarg); break;
		case 'f': o.force = 1; break;
		case 'F': case 's': case 't': break; /* the transfer's, and there is none */
		case 'j': jobid = optarg; break;
		case 'p': o.preserve = 1; break;
		case 'v': o.verbose++; break;
		case 'V': printf("slurm 22.05.8\n"); return 0;
		case OPT_HELP: fputs(help, stdout); return 0;
		case OPT_USAGE: puts("Usage: sbcast [-CfFjpstvV] SOURCE DEST"); return 0;
		case OPT_EXCLUDE: return refuse("--exclude");
		case OPT_SEND_LIBS:
			if (optarg != NULL && strcasecmp(optarg, "no") == 0)
				break;
			return refuse("--send-libs");
		default:
			sl_getopt_complain("sbcast", argv, optind, optopt);
			return 1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "Need two file names, have %d names\n", argc - optind);
		fprintf(stderr, "Try \"sbcast --help\" for more information\n");
		return 1;
	}
	if (jobid == NULL && (jobid = getenv("SLURM_JOB_ID")) == NULL) {
		fprintf(stderr, "sbcast: error: Need a job id to run this command.  Run from within "
				"a Slurm job or use the --jobid option.\n");
		return 1;
	}
	if (job_id(jobid, &id) != 0)
		return refuse("a job step or hetjob component in --jobid");
	if (on_kubernetes())
		return refuse("sbcast to a Kubernetes job's pods");
	o.src = argv[optind];
	o.dst = argv[optind + 1];
	if (sl_sbcast_source(&o, stderr, &err) != 0) {
		fprintf(stderr, "sbcast: error: %s\n", err.msg);
		return 255;
	}
	if ((rc = job_nodes(id, &nodes)) != 0) {
		sl_sbcast_close(&o);
		return rc;
	}
	if (sl_sbcast_copy(&o, &dst_errno, &err) != 0)
		rc = per_node(nodes, dst_errno, err.msg);
	else if (err.msg[0] != '\0') /* an empty source: Slurm's warning */
		fprintf(stderr, "sbcast: error: %s\n", err.msg);
	if (o.verbose && rc == 0)
		fprintf(stderr, "sbcast: jobid      = %llu\nsbcast: node_list  = %s\n",
			(unsigned long long)id, nodes);
	free(nodes);
	return rc;
}
