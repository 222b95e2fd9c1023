/* partadmin.h - an operator's State= of a partition, as slurmctld's
 * update_part keeps it (scontrol update PartitionName=P State=...): DOWN,
 * its jobs are taken but none starts (PartitionDown); DRAIN, none is
 * taken but the queued ones start; INACTIVE, neither; UP, as the config
 * says. A partition is a LocalQueue name: DOWN and INACTIVE hold its
 * LocalQueues in the engine as Kueue's stopPolicy Hold would. Kept in the
 * store, so that it outlives a restart. */
#ifndef SL_PARTADMIN_H
#define SL_PARTADMIN_H

#include <json-c/json.h>
#include "kueue.h"
#include "sluiced.h"

struct sl_partadmin;

int sl_partadmin_load(struct sluiced *d, struct sl_partadmin **out, struct sl_err *err);
void sl_partadmin_free(struct sl_partadmin *a);

/* The operator's state of partition p (a LocalQueue name, or a Slurm
 * spelling of one): "DOWN", "DRAIN", "INACTIVE", or NULL (up). */
const char *sl_partadmin_state(const struct sluiced *d, const char *p);
/* A job for partition p may be submitted (not DRAIN or INACTIVE); else
 * -SL_EPARTITION with slurmctld's words. */
int sl_partadmin_accepts(const struct sluiced *d, const char *p, struct sl_err *err);
/* The model the engine is given: k, with the LocalQueues of DOWN and
 * INACTIVE partitions held (stopPolicy Hold). NULL when none is: use k.
 * Free with sl_partadmin_model_free(). */
struct sl_kueue *sl_partadmin_model(const struct sluiced *d, const struct sl_kueue *k);
void sl_partadmin_model_free(struct sl_kueue *m);

/* PART_UPDATE (PROTOCOL.md), operators only. */
int sl_h_part_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err);

#endif
