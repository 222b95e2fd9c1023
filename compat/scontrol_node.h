/* scontrol_node.h - `scontrol update`'s entity, and `update NodeName=...`
 * and `update PartitionName=...` (scontrol_node.c). Pure: words in, a
 * request out. */
#ifndef SL_SCONTROL_NODE_H
#define SL_SCONTROL_NODE_H

#include "err.h"

enum sl_update_entity {
	SL_UPD_NONE, SL_UPD_JOB, SL_UPD_STEP, SL_UPD_RESERVATION, SL_UPD_NODE,
	SL_UPD_FRONTEND, SL_UPD_PARTITION, SL_UPD_DEBUG,
};

/* The entity Slurm's _update_it picks from the words' tags (a job first:
 * its update may also name a partition). */
enum sl_update_entity sl_scontrol_update_entity(int argc, char **argv);

struct sl_node_update {
	char **names;       /* NodeName= expanded, NULL-terminated ("ALL" alone: every node) */
	const char *state;  /* DRAIN, UNDRAIN, RESUME, DOWN or IDLE; NULL: unchanged */
	char *reason;       /* its quotes dropped; NULL: unchanged */
};

/* Errors carry scontrol's lines ('\n' between them): SL_EINVAL for bad
 * words (a word without '=', an unknown key or state, no reason for DOWN
 * or DRAIN, nothing to change), SL_ENOENT for no or a bad NodeName,
 * SL_EUNSUPP for Slurm's keys and states Sluice does not have, SL_ESTATE
 * for a base state slurmctld never takes (ALLOCATED, MIXED, ...). Clear
 * u with sl_node_update_clear() after success. */
int sl_scontrol_node_update_parse(int argc, char **argv, struct sl_node_update *u,
				  struct sl_err *err);
void sl_node_update_clear(struct sl_node_update *u);

/* update PartitionName=P State=UP|DOWN|DRAIN|INACTIVE, as update_part.c
 * reads it: *name and *state (UP, DOWN, DRAIN or INACTIVE) point into
 * argv or are constants. Errors in scontrol's words: SL_EINVAL (a word
 * without '=', a bad state, no PartitionName, nothing to change, an
 * unknown key), SL_EUNSUPP for its other keys (MaxTime=, Nodes=, ...). */
int sl_scontrol_part_update_parse(int argc, char **argv, const char **name, const char **state,
				  struct sl_err *err);

#endif
