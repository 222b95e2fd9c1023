/* hostlist.h - Slurm's compressed host lists: "n[1-4,7]" <-> n1 n2 n3 n4 n7
 * (SLURM_JOB_NODELIST, squeue NODELIST, sinfo). */
#ifndef SL_HOSTLIST_H
#define SL_HOSTLIST_H

#include <stddef.h>
#include "err.h"

/* Upper bound on the names one expression may expand to. */
#define SL_HOSTLIST_MAX 65536

/* Expand "n[1-3,7],gpu[01-02],login" into names, in order. Zero padding of
 * a range is kept ("gpu[01-02]" -> gpu01 gpu02). *names is NULL-terminated;
 * caller frees with sl_strv_free(). Errors: SL_EINVAL with the reason
 * (unbalanced bracket, bad range), SL_ETOOBIG over SL_HOSTLIST_MAX. */
int sl_hostlist_expand(const char *s, char ***names, size_t *n, struct sl_err *err);

/* Compress names as Slurm prints them: sorted by prefix then number,
 * duplicates dropped, names with a common prefix and padding merged into
 * one bracket ("n[1-4,7]"); a lone name stays bare ("n1"). Caller frees. */
char *sl_hostlist_compress(char *const *names, size_t n);
/* As given (scontrol show hostlist): names next to each other with a
 * common prefix share a bracket, in their order ("n3,n1,n2" ->
 * "n[3,1-2]"); nothing is sorted or dropped. Caller frees. */
char *sl_hostlist_compress_ordered(char *const *names, size_t n);
/* The first name of a list, a job's batch host ("n[1-3]" -> "n1",
 * "a,b" -> "a"; NULL or "" -> ""), into buf. */
void sl_hostlist_first(const char *list, char *buf, size_t len);
/* A host file as Slurm's slurm_read_hostfile reads it (sbatch --nodefile,
 * and -w or -x naming a path): names separated by ',' or lines, '#' to the
 * end of a line a comment ("\\#" a '#'), "name*N" N times; into *out
 * (caller frees) as a compressed list. SL_EINVAL with Slurm's line: the
 * file cannot be opened, a line starts with neither a letter nor a digit,
 * no name at all. */
int sl_hostfile_read(const char *path, char **out, struct sl_err *err);

#endif
