/* pbs_qopt.h - the options of PBS's query and control commands (qstat,
 * qselect, qdel, qhold, qrls, qsig, pbsnodes), each a table through
 * optable.c with OpenPBS's letters (their GETOPT_ARGS), usage texts and
 * conflicts. Options Sluice does not implement are in the tables too and
 * refused by name ("qstat: -T is not supported by Sluice", exit 1).
 *
 * Each parse returns 0, or -SL_E* with err->msg the text after "CMD: "
 * ("" when only the usage is printed), *status the exit status and
 * *usage whether the command's usage follows. Options may follow operands
 * (glibc's getopt() permutes them), so argv is reordered as getopt would
 * reorder it; operands are borrowed from it. */
#ifndef SL_PBS_QOPT_H
#define SL_PBS_QOPT_H

#include "err.h"

struct sl_pbs_failure {
	int status;
	int usage;
};

enum sl_qstat_mode { SL_QSTAT_JOBS = 0, SL_QSTAT_QUEUES, SL_QSTAT_SERVER };

struct sl_qstat_opts {
	enum sl_qstat_mode mode;  /* -Q, -B */
	int full;                 /* -f */
	int alt;                  /* -a -i -r -H -u -n -s: the alternate table */
	int nodes, comments, one_line, wide; /* -n -s -1 -w */
	int history;              /* -x, -H: finished jobs too */
	int subjobs;              /* -t: an array's subjobs under it */
	int percent;              /* -p: "% done" for Time Use */
	int arrays_only;          /* -J: array jobs only (with -t, their subjobs) */
	const char *states;       /* PBS state letters shown: -i "EHQTW", -r "RS",
	                             -H "F"; NULL: every one */
	const char *users;        /* -u USER[@HOST][,...]; NULL: everyone */
	int format;               /* -F: 0 default, 1 dsv, 2 json (enum sl_pbs_outfmt) */
	const char *delim;        /* -D (after -F dsv); NULL: "|" */
	char **operands;          /* job ids or destinations */
	int n_operands;
};
extern const char sl_qstat_usage[];
int sl_qstat_parse(int argc, char **argv, struct sl_qstat_opts *o, struct sl_pbs_failure *f,
		   struct sl_err *err);

struct sl_qselect_opts {
	const char *users, *states, *queue, *name, *account, *project;
	int history;              /* -x */
	int finished_only;        /* -H */
	int arrays_only;          /* -J: array jobs ("N[]") only */
	int subjobs;              /* -T: subjobs ("N[I]") too */
};
extern const char sl_qselect_usage[];
int sl_qselect_parse(int argc, char **argv, struct sl_qselect_opts *o,
		     struct sl_pbs_failure *f, struct sl_err *err);

/* qdel, qhold, qrls, qsig: their options, then job ids (at least one). */
struct sl_qctl_opts {
	int history;              /* qdel -x */
	int user_hold, operator_hold; /* qhold/qrls -h u, o (default u) */
	int signal;               /* qsig -s (default SIGTERM) */
	char **ids;
	int n_ids;
};
enum sl_qctl_cmd { SL_QDEL, SL_QHOLD, SL_QRLS, SL_QSIG };
int sl_qctl_parse(enum sl_qctl_cmd cmd, int argc, char **argv, struct sl_qctl_opts *o,
		  struct sl_pbs_failure *f, struct sl_err *err);
/* The usage text of each (its two lines). */
const char *sl_qctl_usage(enum sl_qctl_cmd cmd);

/* pbsnodes: -a, host names, or marking them (OpenPBS's opers): -o sets
 * OFFLINE, -r clears it, -c clears OFFLINE and DOWN, -C COMMENT alone
 * sets the comment (with -o or -r too); -l lists the marked nodes; -H
 * lists the vnodes of the hosts named (LISTSPNV). -v names vnodes rather
 * than hosts; -S prints the one-line summary, -j its jobs columns, -L its
 * columns uncut; -F and -D the format (pbsnodes.c:920-1060). */
enum sl_pbsnodes_oper {
	SL_PBSNODES_LIST, SL_PBSNODES_ALL, SL_PBSNODES_OFFLINE, SL_PBSNODES_RESET,
	SL_PBSNODES_CLEAR, SL_PBSNODES_COMMENT, SL_PBSNODES_LISTMARKED, SL_PBSNODES_HOSTS,
};
struct sl_pbsnodes_opts {
	int all;                   /* -a (oper SL_PBSNODES_ALL) */
	enum sl_pbsnodes_oper oper;
	const char *comment;       /* -C, from argv; NULL: none */
	int vnodes;                /* -v */
	int summary, jobs, wide;   /* -S, -j, -L */
	int format;                /* -F: enum sl_pbs_outfmt (0 default, 1 dsv, 2 json) */
	const char *delim;         /* -D; NULL: "|" */
	char **hosts;
	int n_hosts;
};
extern const char sl_pbsnodes_usage[];
int sl_pbsnodes_parse(int argc, char **argv, struct sl_pbsnodes_opts *o,
		      struct sl_pbs_failure *f, struct sl_err *err);

/* tracejob "zvamslw:p:n:f:c:" (src/tools/tracejob.c main()): its errors
 * all exit 1 after the usage, which goes to stdout (printf); getopt's
 * complaints (err->msg) to stderr. -p (a PBS_HOME to read logs under) is
 * refused: Sluice has no log files. */
struct sl_tracejob_opts {
	int verbose;               /* -v: accepted; no log file can fail to open */
	int no_acct, no_svr, no_mom, no_sched; /* -a -s -m -l: the sources left out */
	int filter_excess;         /* 1 (FILTER_EXCESSIVE, tracejob.h), each -z toggles it */
	int excess_count;          /* -c; EXCESSIVE_COUNT 15 */
	int width;                 /* -w; -1 (also as given): the terminal's (0 when
				    * stdout is none) */
	int days;                  /* -n; 1: today's logs */
	unsigned filter;           /* -f: the PBSEVENT_* types left out */
	char **operands;           /* job ids, from argv */
	int n_operands;
};
int sl_tracejob_parse(int argc, char **argv, struct sl_tracejob_opts *o,
		      struct sl_pbs_failure *f, struct sl_err *err);
/* The usage main() prints for prog (argv[0] without its directories). */
struct sl_buf;
void sl_tracejob_usage(struct sl_buf *b, const char *prog);

#endif
