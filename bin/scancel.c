/* scancel.c - cancel or signal jobs, with Slurm 22.05's messages and exit
 * codes (210 = ESLURM_ACCESS_DENIED & 0xff for another user's job; 8 when
 * the controller cannot be reached). One sl_client_cancel() call. */
#include <ctype.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client.h"
#include "slurm_state.h"
#include "xalloc.h"

#define EXIT_DENIED 210
#define EXIT_NOCONN 8

struct opts {
	int verbose, batch, signal, filters;
	struct sl_jobsel sel;
};

enum { OPT_ME = 256, OPT_HELP, OPT_USAGE };

static const struct option longopts[] = {
	{"account", required_argument, NULL, 'A'},
	{"batch", no_argument, NULL, 'b'},
	{"full", no_argument, NULL, 'f'},
	{"name", required_argument, NULL, 'n'},
	{"jobname", required_argument, NULL, 'n'},
	{"partition", required_argument, NULL, 'p'},
	{"quiet", no_argument, NULL, 'Q'},
	{"signal", required_argument, NULL, 's'},
	{"state", required_argument, NULL, 't'},
	{"user", required_argument, NULL, 'u'},
	{"verbose", no_argument, NULL, 'v'},
	{"version", no_argument, NULL, 'V'},
	{"me", no_argument, NULL, OPT_ME},
	{"help", no_argument, NULL, OPT_HELP},
	{"usage", no_argument, NULL, OPT_USAGE},
	{NULL, 0, NULL, 0},
};

static const struct {
	const char *name;
	int sig;
} signals[] = {
	{"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ABRT", SIGABRT},
	{"KILL", SIGKILL}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"USR1", SIGUSR1},
	{"USR2", SIGUSR2}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP},
	{"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"URG", SIGURG}, {"XCPU", SIGXCPU},
	{"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF}, {"WINCH", SIGWINCH},
};

static int parse_signal(const char *s)
{
	char *end;
	long v;

	if (isdigit((unsigned char)*s)) {
		v = strtol(s, &end, 10);
		return *end == '\0' && v > 0 && v < 65 ? (int)v : -1;
	}
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (strcasecmp(s, signals[i].name) == 0)
			return signals[i].sig;
	return -1;
}

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "scancel: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void bad_option(char **argv)
{
	if (optopt && optopt < 256)
		fprintf(stderr, "scancel: invalid option -- '%c'\n", optopt);
	else
		fprintf(stderr, "scancel: unrecognized option '%s'\n", argv[optind - 1]);
	fprintf(stderr, "Try \"scancel --help\" for more information\n");
	exit(1);
}

static void add_users(struct opts *o, const char *list)
{
	struct sl_err err = SL_ERR_INIT;
	if (sl_slurm_users_parse(list, &o->sel.uids, &o->sel.n_uids, &err) != 0)
		fail("Invalid user name: %s", err.msg);
	o->filters = 1;
}

static void parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	char me[32];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "A:bfn:p:Qs:t:u:vV", longopts, NULL)) != -1) {
		switch (c) {
		case 'A': sl_slurm_list_append(&o->sel.accounts, &o->sel.n_accounts, optarg); o->filters = 1; break;
		case 'n': sl_slurm_list_append(&o->sel.names, &o->sel.n_names, optarg); o->filters = 1; break;
		case 'p': sl_slurm_list_append(&o->sel.parts, &o->sel.n_parts, optarg); o->filters = 1; break;
		case 'b': o->batch = 1; break;
		case 'f': case 'Q': break;
		case 's':
			if ((o->signal = parse_signal(optarg)) < 0)
				fail("Invalid job signal: %s", optarg);
			break;
		case 't':
			if (sl_slurm_states_parse(optarg, &o->sel.states, &err) != 0)
				fail("Invalid job state specified: %s", err.msg);
			o->filters = 1;
			break;
		case 'u': add_users(o, optarg); break;
		case OPT_ME:
			snprintf(me, sizeof(me), "%u", (unsigned)getuid());
			add_users(o, me);
			break;
		case 'v': o->verbose++; break;
		case 'V': printf("slurm 22.05.8\n"); exit(0);
		case OPT_HELP: case OPT_USAGE:
			printf("Usage: scancel [-A account] [-b] [-n job_name] [-p partition]\n"
			       "               [-s signal] [-t PENDING|RUNNING] [-u user] [-v] [job_id[_array_id]...]\n");
			exit(0);
		default: bad_option(argv);
		}
	}
}

/* Job ids: "N" or "N_T". Sluice has no arrays, so an array task matches no
 * job: accepted silently, as Slurm does for a task that does not exist. */
static void parse_ids(int argc, char **argv, struct opts *o)
{
	uint64_t id;
	long task;

	for (int i = optind; i < argc; i++) {
		if (sl_slurm_jobid_parse(argv[i], &id, &task) != 0)
			fail("Invalid job id %s", argv[i]);
		if (task >= 0) {
			if (o->verbose)
				fprintf(stderr, "scancel: Terminating job %s\n", argv[i]);
			continue;
		}
		o->sel.ids = sl_xrealloc(o->sel.ids, (o->sel.n_ids + 1) * sizeof(*o->sel.ids));
		o->sel.ids[o->sel.n_ids++] = id;
	}
}

/* Slurm's wording for each outcome; silent ones print only with -v. */
static int report(const struct opts *o, const struct sl_jobresult *r)
{
	const char *why = r->msg[0] ? r->msg : sl_strerror(r->rc);
	int quiet = 0, code = 1;

	switch (-r->rc) {
	case SL_ENOENT: why = "Invalid job id specified"; quiet = 1; code = 0; break;
	case SL_ESTATE: why = "Job/step already completing or completed"; quiet = 1; code = 0; break;
	case SL_EPERM: why = "Access/permission denied"; code = EXIT_DENIED; break;
	default: break;
	}
	if (o->verbose)
		fprintf(stderr, "scancel: Terminating job %llu\n", (unsigned long long)r->id);
	if (r->rc != 0 && (!quiet || o->verbose))
		fprintf(stderr, "scancel: error: Kill job error on job id %llu: %s\n",
			(unsigned long long)r->id, why);
	return r->rc == 0 ? 0 : code;
}

static int cancel(const struct opts *o)
{
	struct sl_jobfilter f = {0};
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobresult *res = NULL;
	size_t n = 0;
	int r, rc = 0, x;

	sl_jobsel_filter(&o->sel, &f);
	f.states = o->sel.states.states, f.n_states = o->sel.states.n;
	r = sl_client_connect(NULL, &c, &err);
	if (r == 0)
		r = sl_client_cancel(c, &f, o->signal, o->batch, &res, &n, &err);
	sl_client_free(c);
	if (r != 0) {
		const char *why = r == -SL_ECONNECT
			? "Unable to contact slurm controller (connect failure)" : err.msg;
		for (size_t i = 0; i < o->sel.n_ids; i++)
			fprintf(stderr, "scancel: error: Kill job error on job id %llu: %s\n",
				(unsigned long long)o->sel.ids[i], why);
		if (o->sel.n_ids == 0)
			fprintf(stderr, "scancel: error: %s\n", why);
		return r == -SL_ECONNECT ? EXIT_NOCONN : 1;
	}
	for (size_t i = 0; i < n; i++)
		if ((x = report(o, &res[i])) > rc)
			rc = x;
	if (n == 0 && o->sel.n_ids == 0 && o->verbose)
		fprintf(stderr, "scancel: error: No active jobs match ALL job filters\n");
	free(res);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	int rc;

	parse(argc, argv, &o);
	parse_ids(argc, argv, &o);
	if (o.sel.n_ids == 0 && !o.filters) {
		if (optind < argc) /* only array tasks: nothing to do */
			return 0;
		fail("No job identification provided", "");
	}
	if (o.sel.states.matches_none)
		return 0;
	rc = cancel(&o);
	sl_jobsel_clear(&o.sel);
	return rc;
}
