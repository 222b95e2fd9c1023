/* pbs_attr.h - the job attribute values qsub and qalter share: -a's date
 * (cvtdate()), -W's "name=value" list (parse_equal_string()) and -W
 * depend= lists turned into Slurm's --dependency text, which the daemon's
 * dependency machinery (libbatch/depend.c) reads. */
#ifndef SL_PBS_ATTR_H
#define SL_PBS_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

/* PBS job names: 1 to 230 of [A-Za-z0-9._+-] (check_job_name() in
 * src/lib/Libcmds/ck_job_name.c; a digit may lead since OpenPBS 19). */
int sl_pbs_name_ok(const char *n);
/* -p: an integer from -1024 to 1023; 0, or -1 when it is not. */
int sl_pbs_priority(const char *a, int *out);

/* [[[[CC]YY]MM]DD]hhmm[.SS] in local time, left-out fields defaulted as
 * OpenPBS's cvtdate() (src/lib/Libcmds/cvtdate.c:76) does: a month before
 * this one is next year's (this month stays, even when past), a day before
 * today is next month's, a time of day not after now is tomorrow's. 0
 * with *out unix seconds, or -1. */
int sl_pbs_cvtdate(const char *s, int64_t now, int64_t *out);

/* "a=1,b=x,y,c=3" split as parse_equal_string() (src/lib/Libcmds/
 * parse_equal.c:60) splits it: a value runs to the last comma before the
 * next '=', so "depend=afterok:1,afterany:2" is one value; a quoted value
 * may hold anything. 0 with names[i]/values[i] (caller frees both with
 * sl_strv_free()), or -1 when malformed. */
int sl_pbs_attr_split(const char *s, char ***names, char ***values, size_t *n);

/* A depend= list, "TYPE:ID[:ID...][,TYPE:ID...]" with the types of
 * parse_depend.c:48, into Slurm's "afterok:12:13,afterany:14" (caller
 * frees *out). IDs are "N", "N.server" or "N.server@server" of this server. -SL_EINVAL for
 * what OpenPBS's parse_depend_list() rejects (qsub says "illegal -W
 * value"), -SL_EUNSUPP with the reason for the types Sluice does not
 * have (before*, on, runone, sync*) and other servers' jobs. */
int sl_pbs_depend(const char *v, const char *server, char **out, struct sl_err *err);

/* -o/-e's [HOST:]PATH into an absolute path (caller frees *abs): PATH
 * relative to cwd, HOST this host. Else -SL_EINVAL "illegal -K value"
 * (*status 2) or -SL_EUNSUPP for another host (*status 1). */
int sl_pbs_path(const char *given, const char *cwd, char kind, char **abs, int *status,
		struct sl_err *err);
/* A literal path as a Slurm output pattern: '%' doubled, PBS Pro's
 * "^array_index^" as %a (caller frees). */
char *sl_pbs_path_pattern(const char *path);

/* Torque's MOM expands $NAME and ${NAME} in -o/-e paths with wordexp()
 * in the job's environment (expand_path(), Torque's src/resmom/
 * start_exec.c:9651-9736, where it writes the files in place, as Sluice
 * does; at its copy-out expand_words(), requests.c:3296-3390). path with
 * each one replaced by value(name, arg) (borrowed); a '$' before anything
 * but a name or '{' is itself. A name value() has not (NULL) is refused
 * with -SL_EUNSUPP, as WRDE_UNDEF fails the copy; so is a malformed
 * ${...}. 0 with *out (caller frees). */
typedef const char *(*sl_pbs_path_var_fn)(const char *name, void *arg);
int sl_pbs_path_vars(const char *path, char kind, sl_pbs_path_var_fn value, void *arg,
		     char **out, struct sl_err *err);

/* Mail_Points onto Slurm's mail bits: a (aborted) is FAIL, b BEGIN, e END,
 * j (each subjob's mail) ARRAY_TASKS, n none (0); -1 when malformed. */
int sl_pbs_mail_points(const char *a);

#endif
