/* slurm_opt.h - sbatch's options (command line, #SBATCH directives and
 * SBATCH_* variables, all from one table) turned into a struct sl_jobspec.
 *
 * Precedence is Slurm's: command line over environment over directives.
 * Errors carry the exit status Slurm uses for them: 255 for option parsing,
 * 1 for script problems, unsupported options and invalid resources. */
#ifndef SL_SLURM_OPT_H
#define SL_SLURM_OPT_H

#include <stddef.h>
#include "err.h"
#include "job.h"

struct sl_sbatch_flags {
	int parsable;   /* --parsable */
	int quiet;      /* -Q */
	int verbose;    /* -v count (SBATCH_DEBUG adds one) */
	int help;       /* -h: the command prints its help, exit 0 */
	int usage;      /* --usage: prints its usage line, exit 0 */
	int version;    /* -V: prints its version, exit 0 */
	int wait;       /* -W/--wait: wait for the job's end, exit with its code */
	int test_only;  /* --test-only: ask when it would start, submit nothing */
	int hint_help;  /* --hint=help: print the hint help, exit 1 (as Slurm) */
	char *clusters; /* -M/--clusters, as given; NULL: not given */
	int legacy_magic; /* the script used #SLURM directives: say to change them */
	char *warn;     /* "sbatch: Warning: ..." lines to print, or NULL */
	/* Set when sl_sbatch_parse() fails: */
	int exit_code;  /* 255 or 1 */
	int usage_error;/* 1: print "sbatch: MSG" + "Try \"sbatch --help\" for
	                   more information" instead of "sbatch: error: MSG" */
	int fatal;      /* 1: prefix "sbatch: fatal: " instead of "error" */
	int raw_lines;  /* the first raw_lines lines of the message print bare
	                   (--begin: Slurm's parse_time prints its own line) */
	/* Options in effect, for -v: "name                : value" lines in
	 * the order first set. NULL-terminated, may be NULL. */
	char **defined;
};

/* Parse sbatch's argv (argv[0] is the program name) with envp as the
 * environment (input SBATCH_* variables and --export source; the caller
 * passes `environ`). Reads the script file or standard input. On success
 * fills *out (initialised here; free with sl_jobspec_clear()) and *flags;
 * when flags->help/usage/version is set, *out is left initialised and
 * nothing was read. On failure returns -SL_E* with err->msg holding the
 * text to print, one line per '\n', and flags->exit_code set. Free
 * flags->defined with sl_sbatch_flags_clear() in both cases. */
int sl_sbatch_parse(int argc, char **argv, char **envp, struct sl_jobspec *out,
		    struct sl_sbatch_flags *flags, struct sl_err *err);
void sl_sbatch_flags_clear(struct sl_sbatch_flags *flags);

/* README's table of sbatch options, printed from the option table as
 * Markdown (`sluice options`): every option, its variables, and what
 * Sluice does with it. Caller frees. */
char *sl_sbatch_options_markdown(void);

/* Value parsers shared with other compat front ends (qsub). Each returns 0
 * or -SL_EINVAL with Slurm's message in err. */
int sl_slurm_parse_nodes(const char *s, int *min, int *max, struct sl_err *err);
/* "N[K|M|G|T]" in MiB, default unit M; K rounds up. */
int sl_slurm_parse_mem(const char *s, int64_t *mib);
/* --gres: "gpu[:type][:N]" or "none"; *count -1 for "none". */
int sl_slurm_parse_gres(const char *s, int *count, char **type, struct sl_err *err);
/* --gpus, --gpus-per-node: "[type:]N". */
int sl_slurm_parse_gpus(const char *s, int *count, char **type, struct sl_err *err);
/* -C/--constraint: "feat" or "a&b&c" into a NULL-terminated list (caller
 * frees with sl_strv_free()); "" gives NULL (no constraint). Slurm's other
 * forms ('|', "[a|b]", "a*2", ',' lists, parentheses) are -SL_EINVAL:
 * "--constraint=VALUE: only features joined with & are supported by Sluice". */
int sl_slurm_parse_constraint(const char *s, char ***features, struct sl_err *err);

/* --mail-type: a comma list of Slurm's names into SL_MAIL_* bits (NONE is 0);
 * -1 when nothing in it is known (Slurm: "Invalid --mail-type specification"). */
int sl_slurm_parse_mail_type(const char *s);
/* --exclusive[=WORD] as Slurm's arg_set_exclusive reads it, any case: no
 * word, "exclusive", "oversubscribe", "user" or "mcs" (sbatch, salloc and
 * srun alike); -1 for another word ("Invalid --exclusive specification"). */
enum { SL_EXCL_EXCLUSIVE, SL_EXCL_OVERSUBSCRIBE, SL_EXCL_USER, SL_EXCL_MCS };
int sl_slurm_parse_exclusive(const char *s);
/* The bits as scontrol's MailType= prints them ("BEGIN,END", "NONE").
 * Caller frees. */
char *sl_slurm_mail_type_text(int bits);
/* --signal=[{R|B}:]SIG[@TIME]: 0 with *sig, *secs (60 when not given) and
 * *flags (SL_WARN_*) set, or -1. */
int sl_slurm_parse_signal(const char *s, int *sig, int *secs, int *flags);
/* The name Slurm gives signal `sig` ("USR1"), or NULL. */
const char *sl_slurm_sig_name(int sig);
/* -B S[:C[:T]]: v[0..2] (0: "*", any); -1 with *bad the part (caller frees)
 * and *what naming it ("second arg of -B") for Slurm's message. */
int sl_slurm_parse_extra_node_info(const char *s, int v[3], char **bad, const char **what);
/* --hint: what its words imply (Slurm's verify_hint). */
struct sl_slurm_hint {
	int sockets, cores, threads; /* 0: any */
	unsigned set;                /* which of them the words set: SL_HINT_* */
	int help;                    /* "help": the caller prints the hint help */
};
#define SL_HINT_SOCKETS 0x1u
#define SL_HINT_CORES 0x2u
#define SL_HINT_THREADS 0x4u
/* 0, or -1 with *bad (caller frees) the unknown word. */
int sl_slurm_parse_hint(const char *s, struct sl_slurm_hint *h, char **bad);

/* The environment exported to the job for an --export value (NULL: ALL)
 * from envp: ALL = all of envp; NONE = only SLURM_* variables; a list of
 * NAME or NAME=value (with ALL allowed as an item) adds to the SLURM_*
 * variables. Caller frees with sl_strv_free(). */
char **sl_slurm_export_env(const char *spec, char *const *envp);

/* --export-file=FILE|FD (slurm_export_file.c): the file's variables with
 * exported's over them, into *env (sl_strv_free). Slurm's sbatch clears
 * its own environment first, so exported is what --export makes of an
 * empty one. */
int sl_slurm_export_file(const char *name, char *const *exported, char ***env,
			 struct sl_err *err);

#endif
