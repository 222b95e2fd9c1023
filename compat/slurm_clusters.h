/* slurm_clusters.h - -M/--clusters: Sluice is one cluster, named by the
 * config's clusterName. A list naming it, or "all", is that cluster; any
 * other name is refused in Slurm's two lines. */
#ifndef SL_SLURM_CLUSTERS_H
#define SL_SLURM_CLUSTERS_H

#include "err.h"

/* Check list ("a,b" or "all") against the daemon's cluster name (asked of
 * sluiced: the name its config has). 0 with *name (caller frees) set to
 * the cluster's name; -SL_ENOENT with err->msg the lines Slurm prints
 * after "CMD: error: " (one per '\n'); another error when sluiced cannot
 * be asked. */
int sl_slurm_clusters(const char *list, char **name, struct sl_err *err);

/* For the commands: NULL when list is NULL (no -M), else the cluster's
 * name (caller frees); an unknown name or an unreachable sluiced prints
 * "CMD: error: ..." lines and exits 1. */
char *sl_slurm_clusters_or_exit(const char *cmd, const char *list);

#endif
