/* slurm_dist.h - Slurm's -m/--distribution values (verify_dist_type), for
 * sbatch and srun alike. */
#ifndef SL_SLURM_DIST_H
#define SL_SLURM_DIST_H

#include <stddef.h>
#include "err.h"

/* arg as Slurm spells it back (SLURM_DISTRIBUTION: "*" filled in, lower
 * case) into text; *cyclic: the node level is cyclic. The node level is
 * what Sluice lays tasks out by; the socket and core levels place them on
 * a node's hardware, which Sluice leaves to the kernel. 0; -SL_EINVAL for
 * what Slurm calls an "Invalid --distribution specification"; -SL_EUNSUPP
 * for plane, arbitrary and the Pack/NoPack flags. */
int sl_slurm_dist_parse(const char *arg, char *text, size_t len, int *cyclic);

#endif
