/* pbs_opt_int.h - what qsub's option handlers (pbs_opt.c) gather and the
 * finishing step (pbs_optval.c) turns into the spec. Not an interface. */
#ifndef SL_PBS_OPT_INT_H
#define SL_PBS_OPT_INT_H

#include "pbs_opt.h"
#include "pbs_resource.h"

struct sl_pbs_optctx {
	struct sl_jobspec *spec;
	struct sl_qsub_flags *fl;
	int status;            /* exit status of the current failure; 0: 2 */
	int usage;             /* the current failure prints the usage */
	struct sl_pbs_res res; /* -l */
	char *out_path, *err_path; /* -o, -e as given */
	char join;             /* -j: 'n', 'o' (oe), 'e' (eo) */
	int keep_o, keep_e;    /* -k o, e (left in the home directory) */
	int export_all;        /* -V */
	char *vlist;           /* -v, as given (the last one wins) */
	char *shell;           /* -S: the first path of the list */
	char *prefix;          /* -C on the command line; NULL: not given */
	char *workdir;         /* -d / -w (Torque): the last one, where the job starts */
	char *initdir;         /* -d as given: PBS_O_INITDIR */
	char *o_workdir;       /* -w as given: PBS_O_WORKDIR */
	int torque_form;       /* -d, -w, -n or -W x= given: Torque's job (jobspec.torque) */
	char *home;            /* $HOME in a Torque job's -o/-e, once looked up */
	char *account, *project; /* -A, -P */
	char *queue;           /* -q, the queue part */
	char *name;            /* -N */
	char *server;          /* the PBS server name */
	char *cwd;             /* qsub's working directory ($PWD when it is ".") */
	char *script_name;     /* the script operand; NULL: stdin or "--" */
	int command;           /* "-- command args" */
	int umask_set;         /* -W umask= */
	int in_directive;      /* the options being applied are a #PBS line's */
	unsigned char on_cli[128]; /* options the command line gave: a directive's
	                            * are skipped (process_opts()'s if_cmd_line) */
};

/* The script: "-- command args", the file operand or standard input
 * (pbs_optval.c); *len its length. */
int sl_pbs_load_script(struct sl_pbs_optctx *c, int argc, char **argv, int optind,
		       size_t *len, struct sl_err *err);

#endif
