/* sluice_migrate.h - `sluice migrate`: slurm.conf and sacctmgr's outputs
 * -> Sluice config YAML and a report (bin/sluice_migrate.c). */
#ifndef SL_SLUICE_MIGRATE_H
#define SL_SLUICE_MIGRATE_H

#include <stdio.h>

/* argv[0] is "migrate". Returns the exit status. */
int sl_cmd_migrate(int argc, char **argv);
void sl_cmd_migrate_usage(FILE *f);

#endif
