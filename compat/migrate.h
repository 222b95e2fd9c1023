/* migrate.h - `sluice migrate`: slurm.conf (and sacctmgr's accounting
 * outputs) -> Sluice config YAML, with a report of what became of every
 * input line: mapped, approximated (how) or dropped (why). Pure: reads the
 * parsed inputs, returns text; the command writes the files. */
#ifndef SL_MIGRATE_H
#define SL_MIGRATE_H

#include "err.h"

struct sl_slurm_conf;
struct sl_acctdb;

struct sl_migrate_out {
	char *config; /* sluice.yaml: SluiceConfiguration + Kueue objects */
	char *limits; /* QOS and Account objects with Slurm's limits, in the
	                 issue's form (kind: QOS/Account), which the config
	                 does not carry yet; or NULL */
	char *partitions; /* partition defaults (kind: Partition: maxTime,
	                     defaultTime, memory per CPU), or NULL */
	char *report; /* one block per input line */
};

/* db may be NULL (no accounting input). Fills out (caller frees with
 * sl_migrate_out_clear()). Errors: the nodes and partitions do not resolve
 * (bad hostlist, unknown node), names that map to no Kubernetes name. */
int sl_migrate(const struct sl_slurm_conf *c, const struct sl_acctdb *db,
	       struct sl_migrate_out *out, struct sl_err *err);
void sl_migrate_out_clear(struct sl_migrate_out *out);

#endif
