/* slurm_clusters.c - -M/--clusters against the one cluster Sluice is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "slurm_clusters.h"
#include "client.h"
#include "xalloc.h"

int sl_slurm_clusters(const char *list, char **name, struct sl_err *err)
{
	struct sl_daemonconf *dc = NULL;
	const char *cluster = NULL;
	char *dup, *save = NULL, *tok;
	int r = sl_client_config(&dc, err);

	if (r != 0)
		return r;
	if ((cluster = sl_daemonconf_get(dc, "clusterName")) == NULL)
		cluster = "sluice";
	dup = sl_xstrdup(list);
	for (tok = strtok_r(dup, ",", &save); tok && r == 0; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "all") != 0 && strcasecmp(tok, cluster) != 0)
			r = sl_err_set(err, SL_ENOENT,
				       "No cluster '%s' known by database.\n'%s' can't be reached now, "
				       "or it is an invalid entry for --cluster.  Use 'sacctmgr list "
				       "clusters' to see available clusters.", tok, tok);
	free(dup);
	if (r == 0)
		*name = sl_xstrdup(cluster);
	sl_daemonconf_free(dc);
	return r;
}

char *sl_slurm_clusters_or_exit(const char *cmd, const char *list)
{
	struct sl_err err = SL_ERR_INIT;
	char *name = NULL, *line, *save = NULL;

	if (list == NULL)
		return NULL;
	if (sl_slurm_clusters(list, &name, &err) == 0)
		return name;
	for (line = strtok_r(err.msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "%s: error: %s\n", cmd, line);
	exit(1);
}
