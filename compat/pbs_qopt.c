/* pbs_qopt.c - option tables of qstat, qselect, qdel, qhold, qrls, qsig and
 * pbsnodes, with OpenPBS's letters and usage texts: qstat "ainpqrstwxu:fG
 * HJMQEBW:T1F:D:" (src/cmds/qstat.c:2524, usage at 2861, conflicts at
 * 2776-2860), qselect "a:A:c:h:J:l:N:p:P:q:r:s:t:Tu:xH" (qselect.c), qdel
 * "W:x" (qdel.c:63, usage at 342), qhold and qrls "h:" (qhold.c:144,
 * qrls.c:80), qsig "s:" (qsig.c:76), pbsnodes "acC:dD:F:HjlLoqrs:Sv"
 * (pbsnodes.c:923, usage at 1056), tracejob "zvamslw:p:n:f:c:"
 * (src/tools/tracejob.c main(), its -f names from src/include/log.h). Each scans with getopt() without a
 * leading '+', which glibc permutes: options after the operands count
 * (argv is reordered as getopt reorders it). */
#include "pbs_qopt.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "optable.h"

const char sl_qstat_usage[] =
	"usage: \n"
	"qstat [-f] [-J] [-p] [-t] [-x] [-E] [-F format | -w] [-D delim] [ job_identifier... | "
	"destination... ]\n"
	"qstat [-a|-i|-r|-H|-T] [-J] [-t] [-u user] [-n] [-s] [-G|-M] [-1] [-w]\n"
	"\t[ job_identifier... | destination... ]\n"
	"qstat -Q [-f] [-F format] [-D delim] [ destination... ]\n"
	"qstat -q [-G|-M] [ destination... ]\n"
	"qstat -B [-f] [-F format] [-D delim] [ server_name... ]\n"
	"qstat --version\n";

const char sl_qselect_usage[] =
	"usage: qselect [-a [op]date_time] [-A account_string] [-c [op]interval]\n"
	"\t[-h hold_list] [-H] [-J] [-l resource_list] [-N name] [-p [op]priority]\n"
	"\t[-P project] [-q destination] [-r y|n] [-s states] [-t [op]date_time]\n"
	"\t[-T] [-u user_name] [-x]\n"
	"       qselect --version\n";

const char sl_pbsnodes_usage[] =
	"usage:\tpbsnodes [-{o|r}][-C comment][-s server] host host ...\n"
	"\tpbsnodes -l [-s server]\n"
	"\tpbsnodes [-s server] -v vnode vnode ...\n"
	"\tpbsnodes -a[v][S[j][L]][-F format][-D delim][-s server]\n"
	"\tpbsnodes -[H][S[j][L]][-F format][-D delim] host host ...\n"
	"\tpbsnodes --version\n\n";

#define R SL_OPT_REQ
#define N SL_OPT_NOARG
#define ROW(k, a) {NULL, k, a, {NULL, NULL}, 0, NULL}
#define NO(k, a) {NULL, k, a, {NULL, NULL}, SL_OPTF_UNSUPP, NULL}
#define END {NULL, 0, N, {NULL, NULL}, 0, NULL}

static int usage(struct sl_pbs_failure *f, struct sl_err *err, const char *msg)
{
	f->status = 2;
	f->usage = 1;
	return sl_err_set(err, SL_EINVAL, "%s", msg);
}

static int refuse(struct sl_pbs_failure *f, struct sl_err *err, int key)
{
	f->status = 1;
	f->usage = 0;
	return sl_err_set(err, SL_EUNSUPP, "-%c is not supported by Sluice", key);
}

/* OpenPBS's plain getopt() as glibc runs it: options anywhere, the
 * operands moved after them (argv[*optind..]), "--" ending the options;
 * "--x" is the option '-'. HyperQueue runs "qstat -f ID -F json -x". */
static int scan(const struct sl_opt *table, int argc, char **argv, struct sl_optval **v,
		size_t *n, int *optind, struct sl_pbs_failure *f, struct sl_err *err)
{
	int ddash = 0;

	if (sl_opt_scan_permute(table, argc, argv, SL_OPTSCAN_SHORT, v, n, optind, &ddash,
				err) != 0) {
		f->status = 2;
		f->usage = 1;
		return -SL_EINVAL;
	}
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].opt->flags & SL_OPTF_UNSUPP) {
			int key = (*v)[i].opt->key;
			free(*v);
			*v = NULL;
			return refuse(f, err, key);
		}
	return 0;
}

/* ---- qstat ---------------------------------------------------------------- */

static const struct sl_opt qstat_opts[] = {
	ROW('a', N), ROW('i', N), ROW('n', N), ROW('p', N), NO('q', N), ROW('r', N), ROW('s', N),
	ROW('t', N), ROW('w', N), ROW('x', N), ROW('u', R), ROW('f', N), NO('G', N), ROW('H', N),
	ROW('J', N), NO('M', N), ROW('Q', N), NO('E', N), ROW('B', N), NO('W', R), NO('T', N),
	ROW('1', N), ROW('F', R), ROW('D', R), END,
};

int sl_qstat_parse(int argc, char **argv, struct sl_qstat_opts *o, struct sl_pbs_failure *f,
		   struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, views = 0, alt_opts = 0, modes = 0, bad = 0, r;

	memset(o, 0, sizeof(*o));
	memset(f, 0, sizeof(*f));
	if ((r = scan(qstat_opts, argc, argv, &v, &n, &optind, f, err)) != 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		switch (v[i].opt->key) {
		/* -F default|dsv|json, any case; -D only after -F dsv (qstat.c:2706) */
		case 'F':
			o->format = strcasecmp(v[i].arg, "default") == 0 ? 0
				    : strcasecmp(v[i].arg, "dsv") == 0 ? 1
				    : strcasecmp(v[i].arg, "json") == 0 ? 2 : -1;
			bad |= o->format < 0;
			break;
		case 'D':
			bad |= o->format != 1;
			o->delim = v[i].arg;
			break;
		case 'a': views |= 1; break;
		case 'i': views |= 2; o->states = "EHQTW"; break;
		case 'r': views |= 4; o->states = "RS"; break;
		case 'H': views |= 8; o->states = "F"; o->history = 1; break;
		case 'u': o->users = v[i].arg; break;
		case 'n': o->nodes = 1; break;
		case 's': o->comments = 1; break;
		case '1': o->one_line = 1; break;
		case 'w': o->wide = 1; break;
		case 'x': o->history = 1; break;
		case 'f': o->full = 1; break;
		case 't': o->subjobs = 1; break;
		case 'p': o->percent = 1; break;
		case 'J': o->arrays_only = 1; break;
		case 'Q': o->mode = SL_QSTAT_QUEUES; modes |= 1; break;
		case 'B': o->mode = SL_QSTAT_SERVER; modes |= 2; break;
		}
		alt_opts |= strchr("ainrsuH", v[i].opt->key) != NULL;
	}
	free(v);
	o->alt = alt_opts;
	/* one of -a -i -r -H; -Q or -B alone, without the alternate table; -1
	 * with -n or -s, or with -f as Torque allows it (its qstat.c:2970: the
	 * values unfolded); -F with -f and without the alternate table, nor -w
	 * (qstat.c:2776-2856) */
	if (modes == 3 || (views & (views - 1)) != 0 || (o->mode != SL_QSTAT_JOBS && alt_opts) ||
	    (o->one_line && !o->nodes && !o->comments && !o->full) ||
	    (o->format > 0 && (!o->full || alt_opts || o->wide))) {
		f->status = 2;
		f->usage = 1;
		return sl_err_set(err, SL_EINVAL, "%s", o->format > 0 && o->wide
				  ? "conflicting options.\nqstat: option w cannot be used with -F"
				  : "conflicting options.");
	}
	if (bad) {
		f->status = 2;
		f->usage = 1;
		return sl_err_set(err, SL_EINVAL, "%s", "");
	}
	o->operands = argv + optind;
	o->n_operands = argc - optind;
	return 0;
}

/* ---- qselect -------------------------------------------------------------- */

static const struct sl_opt qselect_opts[] = {
	NO('a', R), ROW('A', R), NO('c', R), NO('h', R), ROW('J', N), NO('l', R), ROW('N', R),
	NO('p', R), ROW('P', R), ROW('q', R), NO('r', R), ROW('s', R), NO('t', R), ROW('T', N),
	ROW('u', R), ROW('x', N), ROW('H', N), END,
};

int sl_qselect_parse(int argc, char **argv, struct sl_qselect_opts *o,
		     struct sl_pbs_failure *f, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, r;

	memset(o, 0, sizeof(*o));
	memset(f, 0, sizeof(*f));
	if ((r = scan(qselect_opts, argc, argv, &v, &n, &optind, f, err)) != 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		const char *a = v[i].arg;
		switch (v[i].opt->key) {
		case 'A': o->account = a; break;
		case 'P': o->project = a; break;
		case 'N': o->name = a; break;
		case 'q': o->queue = a; break;
		case 's': o->states = a; break;
		case 'u': o->users = a; break;
		case 'x': o->history = 1; break;
		case 'H': o->history = o->finished_only = 1; break;
		case 'J': o->arrays_only = 1; break;
		case 'T': o->subjobs = 1; break;
		}
	}
	free(v);
	if (optind < argc)
		return usage(f, err, "");
	return 0;
}

/* ---- qdel, qhold, qrls, qsig ---------------------------------------------- */

static const struct sl_opt qdel_opts[] = {ROW('W', R), ROW('x', N), END};
static const struct sl_opt qhold_opts[] = {ROW('h', R), END};
static const struct sl_opt qsig_opts[] = {ROW('s', R), END};

static const char *const qctl_usages[] = {
	[SL_QDEL] = "usage:\n\tqdel [-W force|suppress_email=X] [-x] job_identifier...\n"
		    "\tqdel --version\n",
	[SL_QHOLD] = "usage: qhold [-h hold_list] job_identifier...\n"
		     "       qhold --version\n",
	[SL_QRLS] = "usage: qrls [-h hold_list] job_identifier...\n"
		    "       qrls --version\n",
	[SL_QSIG] = "usage: qsig [-s signal] job_identifier...\n"
		    "       qsig --version\n",
};

const char *sl_qctl_usage(enum sl_qctl_cmd cmd)
{
	return qctl_usages[cmd];
}

/* A signal: a number or a name with or without "SIG" (PBS's sig_tbl);
 * -1 unknown, -2 PBS's suspend/resume, which Sluice does not do. */
static int signal_of(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} sigs[] = {
		{"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ILL", SIGILL},
		{"TRAP", SIGTRAP}, {"ABRT", SIGABRT}, {"BUS", SIGBUS}, {"FPE", SIGFPE},
		{"KILL", SIGKILL}, {"USR1", SIGUSR1}, {"SEGV", SIGSEGV}, {"USR2", SIGUSR2},
		{"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"CHLD", SIGCHLD},
		{"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN},
		{"TTOU", SIGTTOU}, {"URG", SIGURG}, {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ},
		{"VTALRM", SIGVTALRM}, {"PROF", SIGPROF}, {"WINCH", SIGWINCH}, {"IO", SIGIO},
		{"SYS", SIGSYS},
	};
	char *end;
	long v;

	if (strcasecmp(s, "suspend") == 0 || strcasecmp(s, "resume") == 0 ||
	    strcasecmp(s, "admin-suspend") == 0 || strcasecmp(s, "admin-resume") == 0)
		return -2;
	if (isdigit((unsigned char)*s)) {
		v = strtol(s, &end, 10);
		return *end == '\0' && v > 0 && v < NSIG ? (int)v : -1;
	}
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (strcmp(s, sigs[i].name) == 0)
			return sigs[i].sig;
	return -1;
}

/* -h LIST: letters of u o s p n; n alone (qrls.c's check). */
static int hold_list(enum sl_qctl_cmd cmd, const char *a, struct sl_qctl_opts *o,
		     struct sl_pbs_failure *f, struct sl_err *err)
{
	char msg[64];
	int nn = 0, others = 0;

	while (isspace((unsigned char)*a))
		a++;
	snprintf(msg, sizeof(msg), "illegal -h value");
	if (*a == '\0')
		return usage(f, err, msg);
	o->user_hold = o->operator_hold = 0;
	for (const char *p = a; *p; p++) {
		switch (*p) {
		case 'u': o->user_hold = 1; others++; break;
		case 'o': o->operator_hold = 1; others++; break;
		case 'n': nn++; break;
		case 's':
		case 'p':
			f->status = 1;
			return sl_err_set(err, SL_EUNSUPP, "-h %c is not supported by Sluice "
					  "(%s holds)", *p, *p == 's' ? "system" : "password");
		default: return usage(f, err, msg);
		}
	}
	if (nn && others)
		return usage(f, err, msg);
	(void)cmd;
	return 0;
}

/* qdel -W: "force" (a plain delete here: nothing waits on a MOM) or
 * "suppress_email=N" (no mail is sent anyway); digits alone are the
 * delay PBS no longer takes. */
static int qdel_w(const char *a, struct sl_pbs_failure *f, struct sl_err *err)
{
	if (*a == '\0')
		return usage(f, err, "illegal -W value");
	if (strcmp(a, "force") == 0 || strncmp(a, "suppress_email=", 15) == 0)
		return 0;
	for (const char *p = a; *p; p++)
		if (!isdigit((unsigned char)*p))
			return usage(f, err, "illegal -W value");
	return 0;
}

int sl_qctl_parse(enum sl_qctl_cmd cmd, int argc, char **argv, struct sl_qctl_opts *o,
		  struct sl_pbs_failure *f, struct sl_err *err)
{
	const struct sl_opt *t = cmd == SL_QDEL ? qdel_opts : cmd == SL_QSIG ? qsig_opts : qhold_opts;
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, r = 0;

	memset(o, 0, sizeof(*o));
	memset(f, 0, sizeof(*f));
	o->user_hold = 1;
	o->signal = SIGTERM;
	if ((r = scan(t, argc, argv, &v, &n, &optind, f, err)) != 0) {
		/* qhold's "h:-:" takes "--x" as its option '-', which its
		 * switch counts as an error: the usage alone (qhold.c:130) */
		if (cmd == SL_QHOLD && strcmp(err->msg, "invalid option -- '-'") == 0)
			err->msg[0] = '\0';
		return r;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		const char *a = v[i].arg;
		switch (v[i].opt->key) {
		case 'x': o->history = 1; break;
		case 'W': r = qdel_w(a, f, err); break;
		case 'h': r = hold_list(cmd, a, o, f, err); break;
		case 's':
			o->signal = signal_of(a);
			if (o->signal == -2) {
				f->status = 1;
				r = sl_err_set(err, SL_EUNSUPP, "-s %s is not supported by Sluice", a);
			}
			break;
		}
	}
	free(v);
	if (r != 0)
		return r;
	if (optind >= argc)
		return usage(f, err, "");
	o->ids = argv + optind;
	o->n_ids = argc - optind;
	return 0;
}

/* ---- pbsnodes ------------------------------------------------------------- */

static const struct sl_opt pbsnodes_opts[] = {
	ROW('a', N), ROW('c', N), ROW('C', R), NO('d', N), ROW('D', R), ROW('F', R), ROW('H', N),
	ROW('j', N), ROW('l', N), ROW('L', N), ROW('o', N), NO('q', N), ROW('r', N), NO('s', R),
	ROW('S', N), ROW('v', N), END,
};

/* OpenPBS's rules (pbsnodes.c:924-1040): which option may follow which.
 * Returns nonzero when one may not (errflg: the usage, exit 1). */
static int pbsnodes_opt(const struct sl_optval *v, struct sl_pbsnodes_opts *o)
{
	enum sl_pbsnodes_oper op = o->oper;
	static const char *const formats[] = {"default", "dsv", "json"}; /* FORMAT_* */
	int plain = op == SL_PBSNODES_LIST || o->vnodes; /* -c -l -o -r */
	int listing = op == SL_PBSNODES_LIST || op == SL_PBSNODES_ALL ||
		      op == SL_PBSNODES_HOSTS; /* -D -j -L -S */

	switch (v->opt->key) {
	case 'a': o->oper = SL_PBSNODES_ALL; return op != SL_PBSNODES_LIST;
	case 'c': o->oper = SL_PBSNODES_CLEAR; return !plain;
	case 'l': o->oper = SL_PBSNODES_LISTMARKED; return !plain;
	case 'H': o->oper = SL_PBSNODES_HOSTS; return op != SL_PBSNODES_LIST;
	case 'o': o->oper = SL_PBSNODES_OFFLINE; return !plain && op != SL_PBSNODES_COMMENT;
	case 'r': o->oper = SL_PBSNODES_RESET; return !plain && op != SL_PBSNODES_COMMENT;
	case 'C':
		o->comment = v->arg;
		if (op == SL_PBSNODES_LIST)
			o->oper = SL_PBSNODES_COMMENT;
		return op != SL_PBSNODES_LIST && op != SL_PBSNODES_OFFLINE && op != SL_PBSNODES_RESET;
	case 'D': o->delim = v->arg; return !listing;
	case 'j': o->jobs = 1; return !listing;
	case 'L': o->wide = 1; return !listing;
	case 'S': o->summary = 1; return !listing;
	case 'v': o->vnodes = 1; return op != SL_PBSNODES_LIST && op != SL_PBSNODES_ALL;
	case 'F':
		for (int f = 0; f < 3; f++)
			if (strcasecmp(v->arg, formats[f]) == 0) {
				o->format = f;
				return 0;
			}
		return 1;
	}
	return 1;
}

/* Then which opers need host names, and which take none (pbsnodes.c:1045;
 * -a passes over any). */
static int pbsnodes_oper(const struct sl_optval *v, size_t n, struct sl_pbsnodes_opts *o)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++)
		bad |= pbsnodes_opt(&v[i], o);
	o->all = o->oper == SL_PBSNODES_ALL;
	if (o->summary && o->oper != SL_PBSNODES_LIST && o->oper != SL_PBSNODES_HOSTS &&
	    o->oper != SL_PBSNODES_ALL)
		bad = 1;
	if (o->oper == SL_PBSNODES_ALL)
		return bad;
	if (o->oper == SL_PBSNODES_LISTMARKED)
		return bad || o->n_hosts > 0;
	return bad || o->n_hosts == 0;
}

int sl_pbsnodes_parse(int argc, char **argv, struct sl_pbsnodes_opts *o,
		      struct sl_pbs_failure *f, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, r;

	memset(o, 0, sizeof(*o));
	memset(f, 0, sizeof(*f));
	if ((r = scan(pbsnodes_opts, argc, argv, &v, &n, &optind, f, err)) != 0) {
		if (f->status == 2)
			f->status = 1; /* pbsnodes exits 1 after its usage */
		return r;
	}
	o->hosts = argv + optind;
	o->n_hosts = argc - optind;
	r = pbsnodes_oper(v, n, o);
	free(v);
	if (r != 0) {
		f->status = 1;
		f->usage = 1;
		return sl_err_set(err, SL_EINVAL, "%s", "");
	}
	return 0;
}

/* ---- tracejob ------------------------------------------------------------- */

static const struct sl_opt tracejob_opts[] = {
	ROW('z', N), ROW('v', N), ROW('a', N), ROW('m', N), ROW('s', N), ROW('l', N),
	ROW('w', R), NO('p', R), ROW('n', R), ROW('f', R), ROW('c', R), END,
};

/* -f's names: the PBSEVENT_* bits of src/include/log.h */
static const struct {
	const char *name;
	unsigned bit;
} tracejob_events[] = {
	{"error", 0x0001}, {"system", 0x0002}, {"admin", 0x0004}, {"job", 0x0008},
	{"job_usage", 0x0010}, {"security", 0x0020}, {"sched", 0x0040}, {"debug", 0x0080},
	{"debug2", 0x0100}, {"resv", 0x0200}, {"debug3", 0x0400}, {"debug4", 0x0800},
	{"force", 0x8000},
};

/* strtol(a, &end, base) with main()'s test (*end != '\0' is an error: so
 * "" is 0), the value held to an int. */
static int tj_long(const char *a, int base, long *v)
{
	char *end;

	*v = strtol(a, &end, base);
	if (*v > 0x7fffffffL)
		*v = 0x7fffffffL;
	if (*v < -0x7fffffffL)
		*v = -0x7fffffffL;
	return *end != '\0' ? -1 : 0;
}

/* -f NAME ORs its bit in; a number (hexadecimal, first character a
 * digit) replaces them all, as main() assigns it. */
static int tj_filter(const char *a, unsigned *filter)
{
	long v;

	for (size_t i = 0; i < sizeof(tracejob_events) / sizeof(tracejob_events[0]); i++)
		if (strcmp(a, tracejob_events[i].name) == 0) {
			*filter |= tracejob_events[i].bit;
			return 0;
		}
	if (!isdigit((unsigned char)a[0]) || tj_long(a, 16, &v) != 0)
		return -1;
	*filter = (unsigned)v;
	return 0;
}

static int tj_value(const struct sl_optval *v, struct sl_tracejob_opts *o)
{
	long n = 0;
	int bad = 0;

	switch (v->opt->key) {
	case 'v': o->verbose = 1; break;
	case 'a': o->no_acct = 1; break;
	case 's': o->no_svr = 1; break;
	case 'm': o->no_mom = 1; break;
	case 'l': o->no_sched = 1; break;
	case 'z': o->filter_excess = !o->filter_excess; break;
	case 'c': bad = tj_long(v->arg, 10, &n); o->excess_count = (int)n; break;
	case 'w': bad = tj_long(v->arg, 10, &n); o->width = (int)n; break;
	case 'n': bad = tj_long(v->arg, 10, &n); o->days = (int)n; break;
	case 'f': bad = tj_filter(v->arg, &o->filter); break;
	}
	return bad;
}

int sl_tracejob_parse(int argc, char **argv, struct sl_tracejob_opts *o,
		      struct sl_pbs_failure *f, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, ddash = 0, bad = 0;

	memset(o, 0, sizeof(*o));
	memset(f, 0, sizeof(*f));
	o->filter_excess = 1;
	o->excess_count = 15;
	o->width = -1;
	o->days = 1;
	f->status = 1; /* every error: main() returns 1 */
	f->usage = 1;
	if (sl_opt_scan_permute(tracejob_opts, argc, argv, SL_OPTSCAN_SHORT, &v, &n, &optind,
				&ddash, err) != 0) {
		/* its optstring ends in "-:": "--x" is the option '-', which
		 * main() takes for an error without getopt's words */
		if (strcmp(err->msg, "invalid option -- '-'") == 0)
			err->msg[0] = '\0';
		return -SL_EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].opt->flags & SL_OPTF_UNSUPP) {
			int key = v[i].opt->key;
			free(v);
			return refuse(f, err, key);
		}
		bad |= tj_value(&v[i], o);
	}
	free(v);
	if (bad || optind == argc)
		return sl_err_set(err, SL_EINVAL, "%s", "");
	o->operands = argv + optind;
	o->n_operands = argc - optind;
	return 0;
}

void sl_tracejob_usage(struct sl_buf *b, const char *prog)
{
	sl_buf_addf(b, "USAGE: %s [-a|s|l|m|v] [-w size] [-p path] [-n days] [-f filter_type] "
		       "job_identifier...\n", prog);
	sl_buf_addstr(b, "   -p : path to PBS_HOME\n"
			 "   -w : number of columns of your terminal\n"
			 "   -n : number of days in the past to look for job(s) [default 1]\n"
			 "   -f : filter out types of log entries, multiple -f's can be specified\n"
			 "        error, system, admin, job, job_usage, security, sched, debug, \n"
			 "        debug2, resv, debug3, debug4, force or absolute numberic equiv\n"
			 "   -z : toggle filtering excessive messages\n"
			 "   -c : what message count is considered excessive\n"
			 "   -a : don't use accounting log files\n"
			 "   -s : don't use server log files\n"
			 "   -l : don't use scheduler log files\n"
			 "   -m : don't use mom log files\n"
			 "   -v : verbose mode - show more error messages\n");
	sl_buf_addf(b, "\n       %s --version\n", prog);
	sl_buf_addstr(b, "   --version : display version only\n\n");
	/* PBS_HOME's path; Sluice has none: the lines come from the job record */
	sl_buf_addstr(b, "default prefix path = (none)\nfilter_excessive: ON\n");
}
