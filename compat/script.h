/* script.h - batch script handling shared by sbatch and qsub: reading (file or
 * stdin, with a size cap), Slurm's sanity checks, --wrap scripts, and the
 * extraction of directive lines (#SBATCH, #PBS) as argv words.
 *
 * Multi-line error texts are separated by '\n'; the command prints each line
 * with its "sbatch: error: " prefix. */
#ifndef SL_SCRIPT_H
#define SL_SCRIPT_H

#include <stddef.h>
#include "err.h"

/* Slurm's default MaxScriptSize (slurm.conf max_script_size): 4 MiB. */
#define SL_SCRIPT_MAX (4u * 1024u * 1024u)

/* Find the script the way sbatch does (Slurm's search_path): a name
 * starting with "/" or "." is used as is; another is looked for in dir
 * (the submission's working directory), then in path_env (colon-separated,
 * may be NULL), and the first file found is the whole path to it. Returns a
 * malloc'd path (the name itself when nothing matched, so that opening it
 * gives the error); it is also what scontrol shows as Command. */
char *sl_script_resolve(const char *name, const char *dir, const char *path_env);

/* Slurm's job command (scontrol's Command=, squeue's %o, --json's
 * "command"): the script as sbatch found it, then its arguments; NULL for
 * --wrap and a script from stdin. Records from before spec.command was
 * kept show their script's path from the submit directory. Caller frees. */
struct sl_jobspec;
char *sl_script_command(const struct sl_jobspec *s);
/* The command spec.command keeps: path, then each argument after a space. */
char *sl_script_command_line(const char *path, char *const *argv);

/* Read the script at path, or standard input when path is NULL. *text is
 * NUL-terminated (caller frees); *len excludes the NUL. Errors: SL_ENOENT
 * "Unable to open file NAME", SL_ETOOBIG over SL_SCRIPT_MAX, SL_EIO. */
int sl_script_read(const char *path, const char *shown_name, char **text, size_t *len,
		   struct sl_err *err);

/* Slurm's checks, in Slurm's order: empty, only whitespace, no "#!", DOS
 * line breaks, NUL bytes. 0 or -SL_EINVAL with Slurm's text. */
int sl_script_check(const char *text, size_t len, struct sl_err *err);

/* The script sbatch --wrap builds around cmd. Caller frees. */
char *sl_script_wrap(const char *cmd);

/* Words of the directive lines that start with magic ("#SBATCH") at column
 * 0, read up to the first line that is neither a comment (an indented one
 * too) nor blank. Words
 * are split on blanks with '...' and "..." quoting and backslash escapes;
 * an unquoted '#' ends the line. *argv[0] is a copy of progname, so the
 * result can be scanned like a command line. Caller frees with
 * sl_strv_free(). Error: SL_EINVAL for an unmatched quote. */
int sl_script_directives(const char *text, size_t len, const char *magic,
			 const char *progname, char ***argv, int *argc, struct sl_err *err);
/* sbatch's: "#SBATCH" lines, and "#SLURM" ones as 22.05 still reads them
 * (*legacy set: sbatch tells the user to change them). */
int sl_script_sbatch_directives(const char *text, size_t len, char ***argv, int *argc,
				int *legacy, struct sl_err *err);

/* One PBS directive line as a command line: argv[0] is the program name. */
struct sl_qsub_directive {
	char **argv;   /* NULL-terminated */
	int argc;
	int line;      /* 1-based line of the script it started on */
};

/* PBS's directives, as OpenPBS's qsub reads them (get_script() in
 * src/cmds/qsub_sup.c, pbs_ispbsdir()/pbs_isexecutable() in
 * src/lib/Libcmds/check_job_script.c, make_argv() in src/cmds/qsub.c): a
 * line whose first non-blank text is `prefix` (an empty prefix: none)
 * holds options; a directive ending in '\' goes on in the next line. Words
 * split on blanks, with '...' and "..." quoting and '\' escaping the next
 * character; '#' is not special. Reading stops at the first executable
 * line: not blank, not a comment, not starting with ':' or "#!". Each
 * directive comes back on its own (qsub reports a bad one by itself).
 * *crlf is the first line (1-based) that ends in "\r\n", 0 if none.
 * Free with sl_qsub_directives_free(). Error: SL_EINVAL "unmatched QUOTE". */
int sl_script_qsub_directives(const char *text, size_t len, const char *prefix,
			     const char *progname, struct sl_qsub_directive **out, size_t *n,
			     int *crlf, struct sl_err *err);
void sl_qsub_directives_free(struct sl_qsub_directive *v, size_t n);
/* The words of every #PBS line, as Slurm's xlate.c reads them: the whole
 * script, not only its head, until more than 100 lines that do not start
 * with '#' have gone by. *argv[0] is "sbatch". */
int sl_script_pbs_directives(const char *text, size_t len, char ***argv, int *argc,
			     struct sl_err *err);

#endif
