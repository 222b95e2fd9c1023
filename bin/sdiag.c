/* sdiag.c - sluiced's statistics, as Slurm 22.05's sdiag prints them:
 * parse, one sl_client_diag() call, print through compat/sdiag_fmt. */
#include <getopt.h>
#include <json-c/json.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "sdiag_fmt.h"
#include "slurm_clusters.h"

enum { OPT_USAGE = 0x100 };

static const char help_text[] =
	"Usage: sdiag [OPTIONS]\n"
	"  -a, --all           all statistics\n"
	"  -r, --reset         reset statistics\n"
	"  -M, --cluster       direct the request to a specific cluster\n"
	"  -i, --sort-by-id    sort RPCs by id\n"
	"  -t, --sort-by-time  sort RPCs by total run time\n"
	"  -T, --sort-by-time2 sort RPCs by average run time\n"
	"  -V, --version       display current version number\n"
	"\nHelp options:\n"
	"  --help          show this help message\n"
	"  --usage         display brief usage message\n";

static const struct option longopts[] = {
	{"all", no_argument, NULL, 'a'},
	{"help", no_argument, NULL, 'h'},
	{"reset", no_argument, NULL, 'r'},
	{"sort-by-id", no_argument, NULL, 'i'},
	{"cluster", required_argument, NULL, 'M'},
	{"clusters", required_argument, NULL, 'M'},
	{"sort-by-time", no_argument, NULL, 't'},
	{"sort-by-time2", no_argument, NULL, 'T'},
	{"usage", no_argument, NULL, OPT_USAGE},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const char *user_name(uint32_t uid, void *arg)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	(void)arg;
	return pw ? pw->pw_name : NULL;
}

int main(int argc, char **argv)
{
	enum sl_sdiag_sort sort = SL_SDIAG_BY_COUNT;
	struct sl_err err = SL_ERR_INIT;
	json_object *rep = NULL;
	char *clusters = NULL, *name = NULL, *text;
	int reset = 0, c, r;

	while ((c = getopt_long(argc, argv, "ahiM:rtTV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': reset = 0; break;
		case 'h': fputs(help_text, stdout); return 0;
		case 'i': sort = SL_SDIAG_BY_ID; break;
		case 'M': free(clusters); clusters = strdup(optarg); break;
		case 'r': reset = 1; break;
		case 't': sort = SL_SDIAG_BY_TIME; break;
		case 'T': sort = SL_SDIAG_BY_AVE; break;
		case 'V': puts("slurm 22.05.8"); return 0;
		case OPT_USAGE: puts("Usage: sdiag [-M cluster] [-aritT]"); return 0;
		default:
			fputs("Try \"sdiag --help\" for more information\n", stderr);
			return 1;
		}
	}
	/* sluiced is one cluster (slurm_clusters.h): a name it is not is refused */
	name = sl_slurm_clusters_or_exit("sdiag", clusters);
	if (clusters != NULL && strchr(clusters, ',') != NULL && strcmp(clusters, "all") != 0) {
		fputs("sdiag: fatal: Only one cluster can be used at a time with sdiag\n", stderr);
		return 1;
	}
	free(clusters);
	free(name);
	r = sl_client_diag(reset, reset ? NULL : &rep, &err);
	if (r != 0) {
		fprintf(stderr, "%s: %s\n", reset ? "slurm_reset_statistics" : "slurm_get_statistics",
			r == -SL_ECONNECT ? sl_strerror(r) : err.msg);
		return 255; /* sdiag exits with slurm_perror's rc, -1 */
	}
	if (reset) {
		puts("Reset scheduling statistics");
		return 0;
	}
	text = sl_sdiag_text(rep, sort, user_name, NULL);
	fputs(text, stdout);
	free(text);
	json_object_put(rep);
	return fflush(stdout) == 0 ? 0 : 1;
}
