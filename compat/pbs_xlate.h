/* pbs_xlate.h - #PBS directives in an sbatch script, translated into sbatch
 * options as Slurm 22.05's sbatch does (src/sbatch/xlate.c): what Slurm
 * honours becomes the sbatch option it maps to, what Slurm ignores is
 * dropped, and an option Slurm maps to something Sluice refuses is handed
 * on all the same, so that the refusal is said rather than the line
 * silently ignored. */
#ifndef SL_PBS_XLATE_H
#define SL_PBS_XLATE_H

#include <stddef.h>
#include "err.h"

/* One translated option: an sbatch long option name and its value (NULL
 * for a flag). Two names are not sbatch rows: "+export" (-v: add to the
 * --export value so far) and "umask" (-W umask=). */
struct sl_pbs_opt {
	char *name;
	char *value;
};

/* Every #PBS line of the script (read to the end, or until 100 lines that
 * are not comments, as Slurm does) into *out, in order (caller frees with
 * sl_pbs_opts_free). No #PBS line: *n is 0. Errors (exit status 1 in
 * sbatch): a PBS option Slurm does not know, a word left over, a resource
 * without a value. */
int sl_pbs_xlate(const char *script, size_t len, struct sl_pbs_opt **out, size_t *n,
		 struct sl_err *err);
void sl_pbs_opts_free(struct sl_pbs_opt *v, size_t n);

#endif
